import Foundation
import Origami
import OrigamiRender
import OrigamiScene

/// `/scene`: what the page builds its controls from.
struct SceneInfo: Codable {
    struct CanvasInfo: Codable {
        let width: Double, height: Double, scale: Double
    }

    struct Parameter: Codable {
        let name: String
        /// The value the page starts at (the file's default, or the server's `--set`).
        let value: Double
        /// The file's default (what `origami render` uses without `--set`).
        let defaultValue: Double
        let min: Double?, max: Double?, step: Double?
        let unit: String?, label: String?
    }

    struct LightInfo: Codable {
        let index: Int
        /// `directional`, `point` or `ambient`.
        let kind: String
        /// The query path of this light (`light`, `light[1]`, `container.light[1]`), before `.direction` etc.
        let path: String
        let direction: [Double]?
        /// The direction as two angles, degrees: azimuth = atan2(y, x), elevation = atan2(z, √(x² + y²)).
        let azimuth: Double?, elevation: Double?
        let intensity: Double
        /// `#rrggbb`.
        let color: String
    }

    struct LitLayer: Codable {
        let layer: String
        /// What the query paths of this layer's fields start with: empty when it is the only lit layer, else its
        /// name and a dot (`container.`), as `--vary` wants them.
        let prefix: String
        let ambient: Double
        let lights: [LightInfo]
    }

    let file: String
    let version: Int
    let summary: String
    let canvas: CanvasInfo
    let params: [Parameter]
    let lighting: [LitLayer]
    /// Lit layers the viewer cannot address (unnamed or sharing a name with another, when several are lit).
    let unaddressableLighting: [String]
    /// When the last animation ends (scene seconds); `nil` when the scene does not animate.
    let animationEnd: Double?
    /// The `--set` values the server was started with, as `name=value`, for the command lines the page builds.
    let settings: [String]
    let error: ViewerError?

    init(_ state: SceneSource.State, file: String, settings: [String: Double]) {
        let d = state.description
        self.file = file
        version = state.version
        summary = d.summary
        canvas = CanvasInfo(width: Double(d.canvas.size.width), height: Double(d.canvas.size.height), scale: d.canvas.scale)
        params = d.parameters.map { p in
            Parameter(name: p.name, value: d.parameterValues[p.name] ?? p.defaultValue, defaultValue: p.defaultValue,
                      min: p.range?.lowerBound, max: p.range?.upperBound, step: p.step, unit: p.unit, label: p.label)
        }
        self.settings = settings.keys.sorted().map { "\($0)=\(format(settings[$0] ?? 0))" }
        error = state.error
        // The lit layers in the order `Sweep` finds them: the layer tree's pre-order, as instantiated.
        var lit: [(String?, String, Lighting)] = []
        var animationEnd: Double?
        if let scene = try? d.instantiate() {
            var stack = [scene.root]
            while let layer = stack.popLast() {
                if let lighting = layer.lighting as? Lighting { lit.append((layer.name, scene.label(of: layer), lighting)) }
                stack.append(contentsOf: layer.sublayers.reversed())
            }
            animationEnd = scene.root.animationEndTime()
        }
        self.animationEnd = animationEnd
        var addressable: [LitLayer] = [], other: [String] = []
        for (name, label, lighting) in lit {
            let prefix: String
            if lit.count == 1 {
                prefix = ""
            } else if let name, lit.filter({ $0.0 == name }).count == 1 {
                prefix = name + "."
            } else {
                other.append(label)
                continue
            }
            let lights = lighting.lights.enumerated().map { i, light -> LightInfo in
                let path = prefix + (i == 0 ? "light" : "light[\(i)]")
                let kind = light.kind.rawValue
                var azimuth: Double?, elevation: Double?
                if light.kind == .directional, let v = light.direction {
                    azimuth = atan2(v.y, v.x) * 180 / .pi
                    elevation = atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot()) * 180 / .pi
                }
                return LightInfo(index: i, kind: kind, path: path, direction: light.direction.map { [$0.x, $0.y, $0.z] },
                                 azimuth: azimuth, elevation: elevation, intensity: light.intensity,
                                 color: hex(light.color))
            }
            addressable.append(LitLayer(layer: label, prefix: prefix, ambient: lighting.ambient, lights: lights))
        }
        lighting = addressable
        unaddressableLighting = other
    }
}

/// `#rrggbb` (alpha left out: the page's colour input has none).
func hex(_ c: Color) -> String {
    func byte(_ v: Double) -> Int { Int((min(max(v, 0), 1) * 255).rounded()) }
    return String(format: "#%02x%02x%02x", byte(c.red), byte(c.green), byte(c.blue))
}

/// `/hit`: the three policies' answers, the outlines of the face that receives the touch (tree order) and of the
/// face that is seen (frontmost), and every layer under the point — `origami hit --json`'s data and the outlines.
struct HitAnswer: Codable {
    struct Answer: Codable {
        let layer: String
        let face: String
        let solid: String?
        let local: [Double]
        let depth: Double
    }

    struct Candidate: Codable {
        let answer: Answer
        let treeRank: Int
        let depthRank: Int
        let culled: Bool
    }

    let point: [Double]
    let tree: Answer?
    let coreanimation: Answer?
    let frontmost: Answer?
    /// The receiving face's outline in canvas points (tree order's answer), `nil` when nothing is hit or the
    /// face crosses the eye plane.
    let receivingOutline: [[Double]]?
    /// The seen face's outline (frontmost's answer).
    let seenOutline: [[Double]]?
    let layers: [Candidate]

    init(_ d: SceneDescription, time: Double?, at point: CGPoint) throws {
        let scene: Scene
        do { scene = try d.instantiate() } catch { throw ViewerError(query: error) }
        let tree = PresentationTree(scene.root, placement: .canvas, time: time)
        func answer(_ r: HitTestResult?) -> Answer? {
            r.map { r in
                Answer(layer: scene.label(of: r.layer), face: scene.label(of: r.face), solid: r.solid.map { scene.label(of: $0) },
                       local: [Double(r.localPoint.x), Double(r.localPoint.y)], depth: r.depth)
            }
        }
        let treeAnswer = tree.hitTestResult(point, policy: .treeOrder)
        let frontAnswer = tree.hitTestResult(point, policy: .frontmost)
        self.point = [Double(point.x), Double(point.y)]
        self.tree = answer(treeAnswer)
        coreanimation = answer(tree.hitTestResult(point, policy: .coreAnimation))
        frontmost = answer(frontAnswer)
        var node: [ObjectIdentifier: Int] = [:]
        for i in 0..<tree.count { node[ObjectIdentifier(tree.layer(i))] = i }
        func outline(_ r: HitTestResult?) -> [[Double]]? {
            guard let r, let i = node[ObjectIdentifier(r.face)] else { return nil }
            return Self.outline(of: i, in: tree)
        }
        receivingOutline = outline(treeAnswer)
        seenOutline = outline(frontAnswer)
        layers = tree.hitTestAll(point).compactMap { c in
            answer(c.result).map { Candidate(answer: $0, treeRank: c.treeRank, depthRank: c.depthRank, culled: c.isCulled) }
        }
    }

    /// Node `i`'s outline (a solid face's polygon, else its bounds) carried up to the canvas through the plane
    /// maps of every flattening step; `nil` when a corner lands behind the eye.
    static func outline(of i: Int, in tree: PresentationTree) -> [[Double]]? {
        let node = tree[i]
        let b = node.bounds
        let corners = node.outline ?? [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY),
                                       CGPoint(x: b.maxX, y: b.maxY), CGPoint(x: b.minX, y: b.maxY)]
        let maps = tree.planeMaps(of: i)
        var result: [[Double]] = []
        for corner in corners {
            var p = corner
            for map in maps {
                guard let q = map.apply(p) else { return nil }
                p = q
            }
            result.append([Double(p.x), Double(p.y)])
        }
        return result
    }
}
