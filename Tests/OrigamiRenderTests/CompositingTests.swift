import Foundation
import Origami
import OrigamiRender
import Testing

@Suite("Compositing: flattening, depth order, opacity, masks, borders")
struct CompositingTests {
    // MARK: Flattening (book ch. 5): outer rotated 45° about y, inner −45°, each with m34 = −1/500.

    static func flatteningPair(transformLayerOuter: Bool) throws -> Layer {
        let outer: Layer = transformLayerOuter ? TransformLayer() : Layer()
        outer.frame = CGRect(x: 100, y: 100, width: 200, height: 200)
        outer.backgroundColor = .white
        var o = Transform3D.identity; o.m34 = -1.0 / 500; o = o.rotated(by: .pi / 4, x: 0, y: 1, z: 0)
        outer.transform = o
        let inner = Layer(name: "inner", frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        inner.backgroundColor = .blue
        var i = Transform3D.identity; i.m34 = -1.0 / 500; i = i.rotated(by: -.pi / 4, x: 0, y: 1, z: 0)
        inner.transform = i
        try outer.addSublayer(inner)
        return outer
    }

    /// Inner placement T(−50,−50)·Ry(−π/4)·P·T(100,100); outer placement T(−100,−100)·Ry(π/4)·P·T(200,200).
    static let innerPlacement = HandMatrix.translation(-50, -50, 0).then(.rotationY(-.pi / 4)).then(.perspective(500))
        .then(.translation(100, 100, 0))
    static let outerPlacement = HandMatrix.translation(-100, -100, 0).then(.rotationY(.pi / 4)).then(.perspective(500))
        .then(.translation(200, 200, 0))

    /// Ordinary outer: the inner square is flattened onto the outer plane (z dropped), then that plane is placed.
    static func flattenedCorner(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let onOuter = innerPlacement.project(x, y)
        return outerPlacement.project(onOuter.x, onOuter.y)
    }
    /// TransformLayer outer: the 4×4 matrices chain with z kept.
    static func chainedCorner(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        innerPlacement.then(outerPlacement).project(x, y)
    }

    /// Checks the inner square's corners: just inside each corner is blue, just outside is not.
    func expectCorners(_ image: RenderedImage, _ corners: [(x: Double, y: Double)], _ label: String) {
        let c = (x: corners.map(\.x).reduce(0, +) / 4, y: corners.map(\.y).reduce(0, +) / 4)
        for (k, p) in corners.enumerated() {
            let dx = c.x - p.x, dy = c.y - p.y, l = hypot(dx, dy)
            Probe.expect(image, p.x + 1.5 * dx / l, p.y + 1.5 * dy / l, .blue, tolerance: 0.1, "\(label) inside corner \(k)")
            let out = Probe.color(image, p.x - 1.5 * dx / l, p.y - 1.5 * dy / l)
            #expect(out.map { $0.alpha < 0.5 || $0.blue < 0.9 || $0.red > 0.1 } ?? false, "\(label) outside corner \(k): \(String(describing: out))")
        }
    }

    @Test("an ordinary outer layer flattens the inner one into its plane")
    func flattening() throws {
        let image = try Renderer.render(try Self.flatteningPair(transformLayerOuter: false), size: CGSize(width: 400, height: 400))
        let corners = [(0.0, 0.0), (100, 0), (100, 100), (0, 100)].map { Self.flattenedCorner($0.0, $0.1) }
        expectCorners(image, corners, "flattened")
        // The outer plane is visible around the inner one.
        let outerPoint = Self.outerPlacement.project(20, 100)
        Probe.expect(image, outerPoint.x, outerPoint.y, .white, "outer plane")
    }

    /// DESIGN's chain keeps the inner layer's own perspective: T·Ry(−π/4)·P·Ry(π/4)·P·T is not the identity
    /// (the first P leaves w = 1 + 0.707·x/500 ≠ 1), so the square's rotations cancel but it is seen as a
    /// trapezoid, not an undistorted square. The corners are where that 4×4 product puts them.
    @Test("a TransformLayer outer keeps the inner layer in 3D: the rotations cancel")
    func transformLayerOuter() throws {
        let image = try Renderer.render(try Self.flatteningPair(transformLayerOuter: true), size: CGSize(width: 400, height: 400))
        let corners = [(0.0, 0.0), (100, 0), (100, 100), (0, 100)].map { Self.chainedCorner($0.0, $0.1) }
        expectCorners(image, corners, "chained")
        // The two readings differ by more than the probe tolerance, so this test tells them apart.
        let flat = Self.flattenedCorner(100, 0), chained = Self.chainedCorner(100, 0)
        #expect(hypot(flat.x - chained.x, flat.y - chained.y) > 5)
        // A TransformLayer draws no background: outside the inner square the canvas stays clear.
        let outerPoint = Self.outerPlacement.project(10, 100)
        Probe.expect(image, outerPoint.x, outerPoint.y, .clear, "transform layer draws nothing")
    }

    // MARK: Depth

    /// A 400×400 container at the canvas centre with perspective 500 and planes at its centre.
    static func container(_ planes: [(Color, Transform3D, Bool)]) throws -> Layer {
        let c = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        var p = Transform3D.identity; p.m34 = -1.0 / 500
        c.sublayerTransform = p
        for (color, t, doubleSided) in planes {
            let l = Layer(frame: CGRect(x: 100, y: 100, width: 200, height: 200))
            l.backgroundColor = color; l.transform = t; l.isDoubleSided = doubleSided
            try c.addSublayer(l)
        }
        return c
    }

    /// Plane i's local point → canvas: T(−100,−100)·Ry(a)·T(200,200)·[T(−200,−200)·P·T(200,200)].
    static func planeMap(_ angle: Double) -> HandMatrix {
        HandMatrix.translation(-100, -100, 0).then(.rotationY(angle)).then(.translation(200, 200, 0))
            .then(.translation(-200, -200, 0)).then(.perspective(500)).then(.translation(200, 200, 0))
    }

    @Test("two planes crossing through one centre: each half in front where its depth says")
    func crossingPlanes() throws {
        let a = Transform3D.identity.rotated(by: .pi / 6, x: 0, y: 1, z: 0)
        let b = Transform3D.identity.rotated(by: -.pi / 6, x: 0, y: 1, z: 0)
        let image = try Renderer.render(try Self.container([(.red, a, true), (.blue, b, true)]),
                                        size: CGSize(width: 400, height: 400))
        // Ry(+30°): z' = −sin30°·(x − 100): A's left half (x < 100) is in front; B (added later) in front on the right.
        let left = Self.planeMap(.pi / 6).project(40, 100), right = Self.planeMap(-.pi / 6).project(160, 100)
        let bQuad = [(0.0, 0.0), (200, 0), (200, 200), (0, 200)].map { Self.planeMap(-.pi / 6).project($0.0, $0.1) }
        let aQuad = [(0.0, 0.0), (200, 0), (200, 200), (0, 200)].map { Self.planeMap(.pi / 6).project($0.0, $0.1) }
        #expect(Probe.inside(left, bQuad), "the left probe must lie where both planes overlap")
        #expect(Probe.inside(right, aQuad), "the right probe must lie where both planes overlap")
        Probe.expect(image, left.x, left.y, .red, "left half: A in front of B (tree order would say B)")
        Probe.expect(image, right.x, right.y, .blue, "right half: B in front")
        try Probe.save(image, "crossing-planes.png")
    }

    @Test("isDoubleSided false hides a plane turned by π; double-sided shows it mirrored")
    func backFaces() throws {
        for doubleSided in [false, true] {
            let face = Layer(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
            face.backgroundColor = .white
            face.isDoubleSided = doubleSided
            face.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
            let marker = Layer(frame: CGRect(x: 0, y: 0, width: 50, height: 100))
            marker.backgroundColor = .red
            try face.addSublayer(marker)
            let root = Layer(frame: CGRect(x: 0, y: 0, width: 200, height: 200))
            try root.addSublayer(face)
            let image = try Renderer.render(root, size: CGSize(width: 200, height: 200))
            if doubleSided {
                // Turned about the vertical axis: the marker on the left half now shows on the right (x 100…150).
                Probe.expect(image, 125, 100, .red, "mirrored marker")
                Probe.expect(image, 75, 100, .white, "mirrored face")
            } else {
                Probe.expect(image, 75, 100, .clear, "culled face")
                Probe.expect(image, 125, 100, .clear, "the marker is flattened into the culled plane: hidden too")
            }
        }
    }

    @Test("2D rule: higher zPosition on top, then later sibling")
    func zPositionRule() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let green = Layer(frame: CGRect(x: 10, y: 10, width: 50, height: 50)); green.backgroundColor = .green
        green.zPosition = 1
        let red = Layer(frame: CGRect(x: 30, y: 30, width: 50, height: 50)); red.backgroundColor = .red
        let blue = Layer(frame: CGRect(x: 50, y: 50, width: 40, height: 40)); blue.backgroundColor = .blue
        for l in [green, red, blue] { try root.addSublayer(l) }
        let image = try Renderer.render(root, size: CGSize(width: 100, height: 100))
        Probe.expect(image, 40, 40, .green, "zPosition 1 over a later sibling")
        Probe.expect(image, 70, 70, .blue, "equal zPosition: the later sibling on top")
    }
}
