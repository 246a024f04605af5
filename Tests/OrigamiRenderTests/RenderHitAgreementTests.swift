import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// What `hit --policy frontmost` finds is what is drawn (issue 13, item 4): geometry far beyond Cairo's 24.8 fixed
/// point (±8.3 million device units) and planes a hair's breadth from the eye are clipped to the canvas before
/// they reach Cairo, so they draw where the hit test finds them.
@Suite("Render and hit test agree")
struct RenderHitAgreementTests {
    static let canvas = CGSize(width: 100, height: 100)

    /// A white 100×100 canvas layer holding `sublayers`.
    static func canvasLayer(_ sublayers: [Layer]) throws -> Layer {
        let root = Layer(name: "canvas", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        root.backgroundColor = .white
        for s in sublayers { try root.addSublayer(s) }
        return root
    }

    // MARK: Huge layers

    /// A red layer far larger than Cairo's range covers exactly the part of the canvas its frame covers.
    @Test("a layer far beyond Cairo's fixed-point range is drawn where it is hit", arguments: [
        // (frame, a canvas point inside it, a canvas point outside it or nil)
        (CGRect(x: 0, y: 0, width: 1e8, height: 1e8), CGPoint(x: 50, y: 50), nil as CGPoint?),
        (CGRect(x: -1e8, y: -1e8, width: 2e8, height: 2e8), CGPoint(x: 0.5, y: 99.5), nil),
        // A band 1e8 wide and 40 high: rows 30…70 are red, the rest stays white.
        (CGRect(x: -5e7, y: 30, width: 1e8, height: 40), CGPoint(x: 50, y: 50), CGPoint(x: 50, y: 20)),
        (CGRect(x: 60, y: -3e9, width: 1e12, height: 6e9), CGPoint(x: 80, y: 10), CGPoint(x: 40, y: 10)),
    ])
    func hugeLayer(frame: CGRect, inside: CGPoint, outside: CGPoint?) throws {
        let red = Layer(name: "red", frame: frame)
        red.backgroundColor = .red
        let root = try Self.canvasLayer([red])
        let image = try Renderer.render(root, size: Self.canvas)
        #expect(root.hitTest(inside, policy: .frontmost) === red)
        Probe.expect(image, Double(inside.x), Double(inside.y), .red, "inside the huge layer")
        // The corners of the canvas inside the frame are red too: nothing wrapped around.
        for corner in [CGPoint(x: 0.5, y: 0.5), CGPoint(x: 99.5, y: 0.5), CGPoint(x: 0.5, y: 99.5), CGPoint(x: 99.5, y: 99.5)]
            where frame.contains(corner) {
            Probe.expect(image, Double(corner.x), Double(corner.y), .red, "canvas corner inside the huge layer")
        }
        if let outside {
            #expect(root.hitTest(outside, policy: .frontmost) === root)
            Probe.expect(image, Double(outside.x), Double(outside.y), .white, "outside the huge layer")
        }
    }

    /// An image stretched over a layer 10⁸ points wide: its texels are sampled through the clipped face.
    @Test("an image on a huge layer is drawn where the layer is hit")
    func hugeImageLayer() throws {
        let layer = Layer(name: "picture", frame: CGRect(x: -2e7, y: -3e7, width: 1e8, height: 1e8))
        layer.contents = Bitmap(width: 2, height: 2, pixels: Array(repeating: 0xFF00_00FF, count: 4))  // opaque blue
        let root = try Self.canvasLayer([layer])
        let image = try Renderer.render(root, size: Self.canvas)
        #expect(root.hitTest(CGPoint(x: 50, y: 50), policy: .frontmost) === layer)
        for p in [(50.5, 50.5), (0.5, 0.5), (99.5, 99.5)] { Probe.expect(image, p.0, p.1, .blue, "huge image layer") }
    }

    /// The same in SVG: the vector output holds no coordinate beyond the canvas and its margin.
    @Test("a huge layer's path in SVG stays within the canvas")
    func hugeLayerSVG() throws {
        let red = Layer(name: "red", frame: CGRect(x: -1e8, y: 30, width: 2e8, height: 40))
        red.backgroundColor = .red
        let root = try Self.canvasLayer([red])
        let data = try Renderer.data(RenderTree(root: root), size: Self.canvas, format: .svg)
        let svg = try #require(String(data: data, encoding: .utf8))
        // The coordinates of the paths (the `d` attributes).
        let paths = svg.components(separatedBy: " d=\"").dropFirst().compactMap { $0.split(separator: "\"").first }
        let numbers = paths.joined(separator: " ").split(whereSeparator: { !($0.isNumber || $0 == "." || $0 == "-" || $0 == "e") })
            .compactMap { Double($0) }
        #expect(!numbers.isEmpty)
        #expect(numbers.allSatisfy { abs($0) < 1000 }, "largest number in the SVG: \(numbers.map(abs).max() ?? 0)")
    }

    // MARK: Near the eye

    /// `perspective 500` puts the eye 500 points in front of the container's plane, on the axis through its
    /// centre (50, 50). A plane at z = 499.9999 has w = 1 − 499.9999/500 = 2·10⁻⁷ and is magnified 5·10⁶×
    /// about that centre: a point (x, y) of the container lands at 50 + (x − 50)·5·10⁶.
    static func nearEye(_ frame: CGRect) throws -> (root: Layer, near: Layer, stage: Layer) {
        let stage = Layer(name: "stage", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        stage.sublayerTransform = .perspective(distance: 500)
        let near = Layer(name: "near", frame: frame)
        near.zPosition = 499.9999
        near.backgroundColor = .red
        try stage.addSublayer(near)
        return (try canvasLayer([stage]), near, stage)
    }

    @Test("a plane 0.0001 points from the eye covering the axis fills the canvas, as the hit test finds it")
    func nearEyeCoveringAxis() throws {
        // x and y from 25 to 75 land from 50 − 1.25·10⁸ to 50 + 1.25·10⁸: the whole canvas.
        let (root, near, _) = try Self.nearEye(CGRect(x: 25, y: 25, width: 50, height: 50))
        let image = try Renderer.render(root, size: Self.canvas)
        for p in [(50.5, 50.5), (0.5, 0.5), (99.5, 0.5), (0.5, 99.5), (99.5, 99.5)] {
            #expect(root.hitTest(CGPoint(x: p.0, y: p.1), policy: .frontmost) === near)
            Probe.expect(image, p.0, p.1, .red, "near-eye plane")
        }
    }

    @Test("a near-eye plane reaching the axis from one side fills that side only")
    func nearEyeHalf() throws {
        // x from 50 to 100 lands from 50 to 50 + 2.5·10⁸: the right half of the canvas.
        let (root, near, stage) = try Self.nearEye(CGRect(x: 50, y: 0, width: 50, height: 100))
        let image = try Renderer.render(root, size: Self.canvas)
        #expect(root.hitTest(CGPoint(x: 75, y: 50), policy: .frontmost) === near)
        Probe.expect(image, 75, 50, .red, "right half")
        Probe.expect(image, 99.5, 0.5, .red, "right half, top corner")
        #expect(root.hitTest(CGPoint(x: 25, y: 50), policy: .frontmost) === stage)
        Probe.expect(image, 25, 50, .white, "left half")
    }

    @Test("a near-eye plane off the axis lands far off the canvas and draws nothing")
    func nearEyeOffAxis() throws {
        // x, y from 60 to 70 land from 50 + 5·10⁷ on: nothing of it reaches the canvas.
        let (root, _, stage) = try Self.nearEye(CGRect(x: 60, y: 60, width: 10, height: 10))
        let image = try Renderer.render(root, size: Self.canvas)
        for p in [(50.5, 50.5), (99.5, 99.5), (0.5, 0.5)] {
            #expect(root.hitTest(CGPoint(x: p.0, y: p.1), policy: .frontmost) === stage)
            Probe.expect(image, p.0, p.1, .white, "off-axis near-eye plane")
        }
    }

    // MARK: Property over random scenes

    /// Distinct opaque colours, each at least 1 apart from every other in some channel.
    static let palette: [Color] = [.red, .green, .blue, .yellow, .cyan, .magenta, .black]

    /// A random 3D scene on a white canvas: a stage with a random perspective and camera turn holding 2…5 planes
    /// of distinct colours, turned about random axes, moved in z, some intersecting. One scene in four has a plane
    /// a hundred million points wide; one in five a plane within 10⁻⁶ of the eye's distance, straight ahead; one in three a plane flattened inside another.
    static func randomScene(seed: UInt64) throws -> (root: Layer, planes: [Layer]) {
        var g = SeededGenerator(seed: seed)
        let stage = Layer(name: "stage", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        stage.backgroundColor = .white
        let distance = Double.random(in: 150...800, using: &g)
        stage.sublayerTransform = Transform3D.perspective(distance: distance)
            .rotated(by: .random(in: -0.4...0.4, using: &g), x: 1, y: 0, z: 0)
            .rotated(by: .random(in: -0.4...0.4, using: &g), x: 0, y: 1, z: 0)
        var planes: [Layer] = []
        for (i, color) in palette.prefix(Int.random(in: 2...5, using: &g)).enumerated() {
            let w = Double.random(in: 20...70, using: &g), h = Double.random(in: 20...70, using: &g)
            let plane = Layer(name: "plane \(i)", frame: CGRect(x: .random(in: -10...(100 - w + 10), using: &g),
                                                                y: .random(in: -10...(100 - h + 10), using: &g),
                                                                width: w, height: h))
            plane.backgroundColor = color
            plane.zPosition = .random(in: -60...60, using: &g)
            let axis = (Double.random(in: -1...1, using: &g), Double.random(in: -1...1, using: &g),
                        Double.random(in: -0.3...0.3, using: &g))
            plane.transform = Transform3D(rotationAngle: .random(in: -1.1...1.1, using: &g), x: axis.0, y: axis.1, z: axis.2)
            planes.append(plane)
        }
        if seed % 4 == 0, let first = planes.first {
            first.transform = .identity
            first.frame = CGRect(x: -5e7, y: .random(in: -5e7...0, using: &g), width: 1e8, height: 1e8)
            first.zPosition = -80
        }
        if seed % 5 == 0, let last = planes.last {
            // Straight ahead of the eye (no camera turn), magnified 10⁶ to 10⁸ times about the stage's centre:
            // a corner at the centre covers a quadrant of the canvas, an edge through it a half, else all of it.
            stage.sublayerTransform = .perspective(distance: distance)
            last.transform = .identity
            last.frame = CGRect(x: Bool.random(using: &g) ? 20 : 50, y: Bool.random(using: &g) ? 20 : 50, width: 30, height: 30)
            last.zPosition = distance * (1 - .random(in: 1e-8...1e-6, using: &g))
        }
        if seed % 3 == 0, planes.count > 1 {
            // A plane inside a plane: flattened into its superlayer, then placed with it (two levels of
            // perspective). Its own eye is only 8–40 points away, so a steep turn takes part of it behind that
            // eye, where neither draws nor takes touches.
            let outer = planes[1], b = outer.bounds
            let inner = Layer(name: "inner", frame: CGRect(x: b.width * 0.2, y: b.height * 0.2, width: b.width * 0.6,
                                                           height: b.height * 0.6))
            inner.backgroundColor = palette[6]
            inner.transform = Transform3D.perspective(distance: .random(in: 8...40, using: &g))
                .rotated(by: .random(in: -1.4...1.4, using: &g), x: 0, y: 1, z: 0)
            try outer.addSublayer(inner)
            planes.append(inner)
        }
        for p in planes where p.name != "inner" { try stage.addSublayer(p) }
        return (try canvasLayer([stage]), planes)
    }

    /// A 7×7 grid over ±1.5 pixels: what can colour a pixel lies within a pixel of its centre (a face's seal
    /// reaches further only under the face that covers it), and a grid half a pixel fine does not miss a plane's tip.
    static let neighbourhood = (-3...3).flatMap { j in (-3...3).map { i in (Double(i) * 0.5, Double(j) * 0.5) } }

    /// At points whose 3-pixel neighbourhood the hit test gives to one layer (away from every edge and every line
    /// where two planes cross), the pixel has that layer's colour (white where it is the stage or the canvas).
    @Test("the pixel colour away from edges is the colour of the frontmost hit", arguments: 0..<40)
    func pixelMatchesFrontmostHit(seed: Int) throws {
        let (root, planes) = try Self.randomScene(seed: UInt64(seed))
        let image = try Renderer.render(root, size: Self.canvas)
        var checked = 0
        for j in 0..<16 {
            for i in 0..<16 {
                let x = Double(i) * 6 + 5.5, y = Double(j) * 6 + 5.5
                let hit = root.hitTest(CGPoint(x: x, y: y), policy: .frontmost)
                guard Self.neighbourhood.allSatisfy({ root.hitTest(CGPoint(x: x + $0.0, y: y + $0.1), policy: .frontmost) === hit })
                else { continue }
                checked += 1
                let expected = planes.first { $0 === hit }?.backgroundColor ?? .white
                Probe.expect(image, x, y, expected, "seed \(seed), hit \(hit?.name ?? "nothing")")
            }
        }
        // Most of the canvas is away from edges: the property is not checked vacuously.
        #expect(checked >= 128, "only \(checked) of 256 points checked")
    }

    /// The random scenes do reach the cases the property is about: huge and near-eye planes hit and drawn.
    @Test("the random scenes include huge and near-eye planes that are hit")
    func randomScenesReachTheHardCases() throws {
        var hugeHits = 0, nearHits = 0, innerHits = 0
        for seed in 0..<40 {
            let (root, planes) = try Self.randomScene(seed: UInt64(seed))
            let near = planes.last { $0.name != "inner" }
            for j in 0..<10 {
                for i in 0..<10 {
                    let hit = root.hitTest(CGPoint(x: Double(i) * 10 + 5, y: Double(j) * 10 + 5), policy: .frontmost)
                    if seed % 4 == 0, hit === planes.first { hugeHits += 1 }
                    if seed % 5 == 0, hit === near { nearHits += 1 }
                    if hit?.name == "inner" { innerHits += 1 }
                }
            }
        }
        #expect(hugeHits > 0)
        #expect(nearHits > 0)
        #expect(innerHits > 0)
    }
}
