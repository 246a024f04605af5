import Foundation
import Origami
import Testing
import TestSupport

/// DESIGN §2: `convert(_:from:/to:)` through the one mapping M(L→S), flattening at every ordinary layer and
/// chaining 4×4 through transform layers; nil where there is no answer.
@Suite("Point and rect conversion")
struct ConversionTests {
    static let r2 = 2.0.squareRoot()

    // MARK: 2D

    @Test("A 2D chain adds positions and subtracts bounds origins")
    func chain2D() throws {
        let root = Layer(name: "root", frame: CGRect(0, 0, 400, 400))
        let a = Layer(name: "a", frame: CGRect(100, 100, 200, 200))
        let b = Layer(name: "b", frame: CGRect(10, 20, 50, 50))
        try root.addSublayer(a)
        try a.addSublayer(b)
        // b's (0, 0) is at (10, 20) in a and (110, 120) in root.
        expectApprox(b.convert(CGPoint(0, 0), to: root), CGPoint(110, 120), tolerance: 0)
        expectApprox(root.convert(CGPoint(0, 0), from: b), CGPoint(110, 120), tolerance: 0)
        expectApprox(b.convert(CGPoint(110, 120), from: root), CGPoint(0, 0), tolerance: 0)
        // Scrolling a: bounds.origin (50, 0) shows a's x = 50 at its left edge, so b's (0, 0) moves 50 left.
        a.bounds.origin = CGPoint(50, 0)
        expectApprox(b.convert(CGPoint(0, 0), to: root), CGPoint(60, 120), tolerance: 0)
        // And a point of a itself: a's (60, 10) is 10 right of its left edge (x = 100 in root).
        expectApprox(a.convert(CGPoint(60, 10), to: root), CGPoint(110, 110), tolerance: 0)
        // b's own bounds origin shifts its content the other way.
        b.bounds.origin = CGPoint(-5, -5)
        expectApprox(b.convert(CGPoint(-5, -5), to: root), CGPoint(60, 120), tolerance: 0)
        // Siblings and cousins meet at the common ancestor.
        let c = Layer(name: "c", frame: CGRect(300, 0, 10, 10))
        try root.addSublayer(c)
        expectApprox(b.convert(CGPoint(-5, -5), to: c), CGPoint(-240, 120), tolerance: 0)
        expectApprox(c.convert(CGPoint(-240, 120), to: b), CGPoint(-5, -5), tolerance: 0)
        // To itself: unchanged.
        expectApprox(b.convert(CGPoint(3, 4), to: b), CGPoint(3, 4), tolerance: 0)
    }

    @Test("A rotated layer: its own axes turn about its anchor")
    func rotated2D() throws {
        let root = Layer(frame: CGRect(0, 0, 400, 400))
        let a = Layer(frame: CGRect(100, 100, 100, 100))
        try root.addSublayer(a)
        a.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        // (100, 50) is 50 right of the centre (150, 150); a quarter turn clockwise puts it 50 below.
        expectApprox(a.convert(CGPoint(100, 50), to: root), CGPoint(150, 200), tolerance: 1e-12)
        expectApprox(a.convert(CGPoint(150, 200), from: root), CGPoint(100, 50), tolerance: 1e-12)
    }

    @Test("sublayerTransform applies about the superlayer's anchor, not its origin")
    func sublayerTransformAboutAnchor() throws {
        let parent = Layer(frame: CGRect(0, 0, 200, 100))
        let child = Layer(frame: CGRect(40, 20, 20, 10))
        try parent.addSublayer(child)
        parent.sublayerTransform = Transform3D(scaleX: 2, y: 2)
        // The parent's own frame is not affected.
        #expect(parent.frame == CGRect(0, 0, 200, 100))
        // The child's centre (10, 5) is placed at (50, 25); scaled ×2 about the anchor (100, 50):
        // (50 − 100)·2 + 100 = 0, (25 − 50)·2 + 50 = 0. About the origin it would have been (100, 50).
        expectApprox(child.convert(CGPoint(10, 5), to: parent), CGPoint(0, 0), tolerance: 1e-12)
        // Moving the anchor moves the fixed point of the scale: about (0, 0) now.
        parent.anchorPoint = .zero
        expectApprox(child.convert(CGPoint(10, 5), to: parent), CGPoint(100, 50), tolerance: 1e-12)
        // The parent's bounds origin is part of the anchor: anchor (0, 0) with bounds.origin (10, 10)
        // scales about (10, 10): 2·(50 − 10) + 10 = 90, 2·(25 − 10) + 10 = 40.
        parent.bounds.origin = CGPoint(10, 10)
        expectApprox(child.convert(CGPoint(10, 5), to: parent), CGPoint(90, 40), tolerance: 1e-12)
    }

    @Test("geometryFlipped positions sublayers from the bottom; the layer's own frame does not change")
    func geometryFlipped() throws {
        let parent = Layer(frame: CGRect(0, 0, 200, 100))
        let child = Layer(frame: CGRect(10, 10, 20, 20))
        try parent.addSublayer(child)
        parent.isGeometryFlipped = true
        #expect(parent.frame == CGRect(0, 0, 200, 100))
        #expect(child.frame == CGRect(10, 10, 20, 20))
        // y ↦ 2·minY + H − y = 100 − y: the child's (0, 0) (placed at (10, 10)) shows at (10, 90), and
        // its (0, 20) at (10, 70): the child is upside down.
        expectApprox(child.convert(CGPoint(0, 0), to: parent), CGPoint(10, 90), tolerance: 1e-12)
        expectApprox(child.convert(CGPoint(0, 20), to: parent), CGPoint(10, 70), tolerance: 1e-12)
        expectApprox(child.convert(CGPoint(10, 90), from: parent), CGPoint(0, 0), tolerance: 1e-12)
        // With bounds.minY = 20: y ↦ 40 + 100 − y.
        parent.bounds.origin = CGPoint(0, 20)
        expectApprox(child.convert(CGPoint(0, 0), to: parent), CGPoint(10, 130), tolerance: 1e-12)
        // A flipped child flips its own sublayers once more, inside the parent's flip.
        let grandchild = Layer(frame: CGRect(0, 0, 5, 5))
        try child.addSublayer(grandchild)
        child.isGeometryFlipped = true
        // Grandchild (0,0) at child (0, 0) → flipped in child: (0, 20) → in parent space (10, 30) → flipped
        // by the parent: (10, 140 − 30) = (10, 110).
        expectApprox(grandchild.convert(CGPoint(0, 0), to: parent), CGPoint(10, 110), tolerance: 1e-12)
    }

    @Test("geometryFlipped with a sublayerTransform: the flip first, then the sublayerTransform about the anchor")
    func geometryFlippedWithSublayerTransform() throws {
        let parent = Layer(frame: CGRect(0, 0, 200, 100))
        let child = Layer(frame: CGRect(10, 10, 20, 20))
        try parent.addSublayer(child)
        parent.isGeometryFlipped = true
        parent.sublayerTransform = CATransform3DMakeScale(2, 3, 1)
        // The child's (0, 0) sits at (10, 10); flipped: (10, 90); about the anchor (100, 50):
        // (−90, 40) · scale(2, 3) = (−180, 120), back: (−80, 170).
        expectApprox(child.convert(CGPoint(0, 0), to: parent), CGPoint(-80, 170), tolerance: 1e-12)
        // (20, 20) in the child sits at (30, 30); flipped (30, 70); (−70, 20) → (−140, 60) → (−40, 110).
        expectApprox(child.convert(CGPoint(20, 20), to: parent), CGPoint(-40, 110), tolerance: 1e-12)
        expectApprox(child.convert(CGPoint(-40, 110), from: parent), CGPoint(20, 20), tolerance: 1e-12)
    }

    // MARK: 3D

    /// The book's listing 5.5 set-up: a 200×200 container with m34 = −1/500 as sublayerTransform, holding a
    /// 100×100 layer centred in it and turned 45° about y.
    func tiltedScene(angle: Double = .pi / 4) throws -> (Layer, Layer) {
        let container = Layer(name: "container", frame: CGRect(0, 0, 200, 200))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        container.sublayerTransform = perspective
        let layer = Layer(name: "layer", frame: CGRect(50, 50, 100, 100))
        layer.transform = CATransform3DMakeRotation(angle, 0, 1, 0)
        try container.addSublayer(layer)
        return (container, layer)
    }

    @Test("A 3D chain with perspective, derived by hand")
    func perspectivePoint() throws {
        let (container, layer) = try tiltedScene()
        let s = 1 / ConversionTests.r2
        // The right edge's middle (100, 50) is (50, 0, 0) from the anchor; Ry(π/4) sends it to (50c, 0, −50s);
        // relative to the container's anchor (100, 100) it is the same, and w = 1 − (−50s)/500 = 1 + 0.1s.
        let wRight = 1 + 50 * s / 500
        expectApprox(layer.convert(CGPoint(100, 50), to: container), CGPoint(100 + 50 * s / wRight, 100), tolerance: 1e-9)
        // The left edge comes forward: (−50c, 0, +50s), w = 1 − 0.1s, so it looks longer.
        let wLeft = 1 - 50 * s / 500
        expectApprox(layer.convert(CGPoint(0, 0), to: container), CGPoint(100 - 50 * s / wLeft, 100 - 50 / wLeft), tolerance: 1e-9)
        expectApprox(layer.convert(CGPoint(100, 100), to: container), CGPoint(100 + 50 * s / wRight, 100 + 50 / wRight), tolerance: 1e-9)
        // And back into the layer: solving on the layer's plane.
        expectApprox(layer.convert(CGPoint(100 + 50 * s / wRight, 100), from: container), CGPoint(100, 50), tolerance: 1e-9)
        expectApprox(container.convert(CGPoint(100 - 50 * s / wLeft, 100 - 50 / wLeft), to: layer), CGPoint(0, 0), tolerance: 1e-9)
    }

    @Test("zPosition under perspective magnifies by 1/(1 − z/d)")
    func zPositionMagnifies() throws {
        let (container, layer) = try tiltedScene(angle: 0)
        layer.zPosition = 400
        // w = 1 − 400/500 = 0.2: the layer's corner (−50, −50) from the centre shows at (−250, −250).
        expectApprox(layer.convert(CGPoint(0, 0), to: container), CGPoint(-150, -150), tolerance: 1e-9)
        expectApprox(container.convert(CGPoint(-150, -150), to: layer), CGPoint(0, 0), tolerance: 1e-9)
        // The frame ignores zPosition.
        #expect(layer.frame == CGRect(50, 50, 100, 100))
    }

    @Test("A layer behind the viewer has no conversion", arguments: [500.0, 600, 1e6])
    func behindTheViewer(z: Double) throws {
        let (container, layer) = try tiltedScene(angle: 0)
        layer.zPosition = z
        #expect(layer.convert(CGPoint(0, 0), to: container) == nil)
        #expect(layer.convert(CGPoint(100, 100), from: container) == nil)
        #expect(layer.convert(CGRect(0, 0, 10, 10), to: container) == nil)
    }

    @Test("An edge-on layer (90° about y, with or without perspective) has no conversion into it")
    func edgeOn() throws {
        let (container, layer) = try tiltedScene(angle: .pi / 2)
        #expect(layer.convert(CGPoint(100, 100), from: container) == nil)
        #expect(container.convert(CGPoint(100, 100), to: layer) == nil)
        container.sublayerTransform = .identity
        #expect(layer.convert(CGPoint(100, 100), from: container) == nil)
        layer.transform = CATransform3DMakeRotation(.pi / 2, 1, 0, 0)
        #expect(layer.convert(CGPoint(100, 100), from: container) == nil)
    }

    @Test("Through a TransformLayer the rotations compose in 3D; through an ordinary layer they flatten")
    func transformLayerKeepsZ() throws {
        func scene(middle: Layer) throws -> (Layer, Layer) {
            let root = Layer(name: "root", frame: CGRect(0, 0, 200, 200))
            root.sublayerTransform = .perspective(distance: 500)
            middle.frame = CGRect(0, 0, 200, 200)
            middle.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0)
            let child = Layer(name: "child", frame: CGRect(50, 50, 100, 100))
            child.transform = Transform3D(rotationAngle: -.pi / 2, x: 0, y: 1, z: 0)
            try root.addSublayer(middle)
            try middle.addSublayer(child)
            return (root, child)
        }
        // TransformLayer: the child's matrix is T(−50,−50)·Ry(−π/2)·T(100,100)·T(−100,−100)·Ry(π/2)·T(100,100)·
        // [root's perspective about (100, 100)] = T(50, 50) on the z = 0 plane: it faces the viewer again.
        let (root, child) = try scene(middle: TransformLayer())
        expectApprox(child.convert(CGPoint(0, 0), to: root), CGPoint(50, 50), tolerance: 1e-9)
        expectApprox(child.convert(CGPoint(100, 100), to: root), CGPoint(150, 150), tolerance: 1e-9)
        expectApprox(child.convert(CGPoint(60, 60), from: root), CGPoint(10, 10), tolerance: 1e-9)
        expectApprox(child.convert(CGRect(0, 0, 100, 100), to: root), CGRect(50, 50, 100, 100), tolerance: 1e-9)
        // Ordinary middle layer: it flattens the child onto its own plane, which is edge-on to the root.
        let (flatRoot, flatChild) = try scene(middle: Layer(name: "middle"))
        #expect(flatChild.convert(CGPoint(60, 60), from: flatRoot) == nil)
        #expect(flatRoot.convert(CGPoint(60, 60), to: flatChild) == nil)
    }

    @Test("Converting into and out of a transform layer uses its z = 0 plane")
    func intoTransformLayer() throws {
        let root = Layer(name: "root", frame: CGRect(0, 0, 200, 200))
        root.sublayerTransform = .perspective(distance: 500)
        let tl = TransformLayer()
        tl.frame = CGRect(0, 0, 200, 200)
        tl.transform = Transform3D(translationX: 30, y: -20, z: 0)
        try root.addSublayer(tl)
        expectApprox(tl.convert(CGPoint(100, 100), from: root), CGPoint(70, 120), tolerance: 1e-9)
        expectApprox(tl.convert(CGPoint(70, 120), to: root), CGPoint(100, 100), tolerance: 1e-9)
        // Pushed back by 100 under m34 = −1/500, w = 1.2: (x − 100)/1.2 + 100 about the vanishing point.
        tl.transform = Transform3D(translationX: 0, y: 0, z: -100)
        expectApprox(tl.convert(CGPoint(40, 160), to: root), CGPoint(50, 150), tolerance: 1e-9)
    }

    @Test("planeMaps: one homography per flattening step")
    func planeMaps() throws {
        let cube = try BookCube(inSolid: true)
        let button = Layer(name: "button", frame: CGRect(50, 120, 100, 40))
        try cube.face(3).addSublayer(button)
        // button → face 3 (ordinary): one map; face 3 → cube (transform layer) → container: one map.
        #expect(button.planeMaps(to: cube.container)?.count == 2)
        #expect(cube.face(3).planeMaps(to: cube.container)?.count == 1)
        #expect(cube.face(3).planeMaps(to: button) == nil)
        #expect(cube.container.planeMaps(to: cube.container)?.isEmpty == true)
        // The unflattened chain to the container equals the product of the book's matrices.
        let expected = Transform3D(translationX: -100, y: -100, z: 0)
            .concatenating(BookCube.faceTransforms()[2])
            .concatenating(Transform3D(translationX: 200, y: 200, z: 0))
            .concatenating(Transform3D(translationX: -200, y: -200, z: 0))
            .concatenating(BookCube.camera)
            .concatenating(Transform3D(translationX: 200, y: 200, z: 0))
        expectApprox(try #require(cube.face(3).transform3D(to: cube.container)), expected, tolerance: 1e-9)
        #expect(cube.face(3).transform3D(to: button) == nil)
    }

    // MARK: Across trees, nil layers, round trips

    @Test("Layers in separate trees meet in their roots' superlayer spaces")
    func separateTrees() throws {
        let r1 = Layer(name: "r1", frame: CGRect(0, 0, 200, 200))
        let r2 = Layer(name: "r2", frame: CGRect(300, 0, 100, 100))
        let a = Layer(name: "a", frame: CGRect(10, 10, 20, 20))
        try r1.addSublayer(a)
        // a's (0, 0) is (10, 10) in r1's superlayer space; r2's bounds start at x = 300 there.
        expectApprox(a.convert(CGPoint(0, 0), to: r2), CGPoint(-290, 10), tolerance: 0)
        expectApprox(r2.convert(CGPoint(0, 0), from: a), CGPoint(-290, 10), tolerance: 0)
        expectApprox(a.convert(CGPoint(-290, 10), from: r2), CGPoint(0, 0), tolerance: 0)
        // With a transformed root: r2 scaled ×2 about its centre (350, 50): r2's (0, 0) is at (250, −50).
        r2.transform = Transform3D(scaleX: 2, y: 2)
        expectApprox(r2.convert(CGPoint(0, 0), to: a), CGPoint(240, -60), tolerance: 1e-12)
    }

    @Test("nil means the root's superlayer space")
    func nilLayer() throws {
        let root = Layer(name: "root", frame: CGRect(80, 200, 200, 200))
        let child = Layer(name: "child", frame: CGRect(50, 50, 100, 100))
        try root.addSublayer(child)
        expectApprox(root.convert(CGPoint(150, 270), from: nil), CGPoint(70, 70), tolerance: 0)
        expectApprox(child.convert(CGPoint(150, 270), from: nil), CGPoint(20, 20), tolerance: 0)
        expectApprox(child.convert(CGPoint(20, 20), to: nil), CGPoint(150, 270), tolerance: 0)
        expectApprox(root.convert(CGPoint(70, 70), to: nil), CGPoint(150, 270), tolerance: 0)
        expectApprox(child.convert(CGRect(0, 0, 100, 100), to: nil), CGRect(130, 250, 100, 100), tolerance: 0)
        expectApprox(child.convert(CGRect(130, 250, 100, 100), from: nil), CGRect(0, 0, 100, 100), tolerance: 0)
    }

    @Test("Round trips through a 3D chain", arguments: 0..<8)
    func roundTrip(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &+ 100)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &rng) }
        let root = Layer(name: "root", frame: CGRect(0, 0, 400, 400))
        root.sublayerTransform = .perspective(distance: 800)
        let solid = TransformLayer()
        solid.frame = CGRect(50, 50, 300, 300)
        solid.transform = Transform3D(rotationAngle: r(-0.5...0.5), x: 1, y: 0, z: 0)
        let face = Layer(name: "face", frame: CGRect(r(0...100), r(0...100), 150, 100))
        face.transform = Transform3D(rotationAngle: r(-0.6...0.6), x: 0, y: 1, z: 0).translated(x: 0, y: 0, z: r(-50...50))
        face.bounds.origin = CGPoint(r(-20...20), r(-20...20))
        let label = Layer(name: "label", frame: CGRect(10, 10, 60, 30))
        label.transform = Transform3D(rotationAngle: r(-1...1), x: 0, y: 0, z: 1)
        try root.addSublayer(solid)
        try solid.addSublayer(face)
        try face.addSublayer(label)
        let p = CGPoint(r(0...60), r(0...30))
        let up = try #require(label.convert(p, to: root))
        expectApprox(label.convert(up, from: root), p, tolerance: 1e-9)
        expectApprox(root.convert(up, to: label), p, tolerance: 1e-9)
        let viaFace = try #require(label.convert(p, to: face))
        expectApprox(face.convert(viaFace, to: root), up, tolerance: 1e-9)
    }

    @Test("Rects convert to the bounding box of their four corners")
    func rects() throws {
        let parent = Layer(frame: CGRect(0, 0, 400, 400))
        let child = Layer(frame: CGRect(150, 150, 100, 100))
        child.transform = Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)
        try parent.addSublayer(child)
        let h = 50 * ConversionTests.r2
        expectApprox(child.convert(child.bounds, to: parent), CGRect(200 - h, 200 - h, 2 * h, 2 * h), tolerance: 1e-9)
        // Back: the box of the parent rect's corners in the child's (turned) space.
        expectApprox(child.convert(CGRect(150, 150, 100, 100), from: parent),
                     CGRect(50 - h, 50 - h, 2 * h, 2 * h), tolerance: 1e-9)
        // A negative-size rect is standardised; null and non-finite rects have no answer.
        expectApprox(child.convert(CGRect(100, 100, -100, -100), to: parent), CGRect(200 - h, 200 - h, 2 * h, 2 * h), tolerance: 1e-9)
        #expect(child.convert(CGRect.null, to: parent) == nil)
        #expect(child.convert(CGRect(0, 0, .infinity, 1), to: parent) == nil)
        #expect(child.convert(CGRect(.nan, 0, 1, 1), from: parent) == nil)
        // Under perspective the box is of the projected (trapezoid) corners.
        let (container, tilted) = try tiltedScene()
        let s = 1 / ConversionTests.r2
        let wl = 1 - 50 * s / 500, wr = 1 + 50 * s / 500
        expectApprox(tilted.convert(tilted.bounds, to: container),
                     CGRect(100 - 50 * s / wl, 100 - 50 / wl, 50 * s / wl + 50 * s / wr, 100 / wl), tolerance: 1e-9)
    }

    // MARK: Specials

    @Test("Non-finite points have no conversion", arguments: [CGPoint(.nan, 0), CGPoint(0, .infinity), CGPoint(-.infinity, .nan)])
    func nonFinitePoint(point: CGPoint) throws {
        let root = Layer(frame: CGRect(0, 0, 100, 100))
        let child = Layer(frame: CGRect(10, 10, 10, 10))
        try root.addSublayer(child)
        #expect(child.convert(point, to: root) == nil)
        #expect(child.convert(point, from: root) == nil)
        #expect(child.convert(point, to: nil) == nil)
        #expect(child.convert(point, from: nil) == nil)
    }

    @Test("Non-finite geometry anywhere on the path gives nil, never a crash",
          arguments: ["position", "bounds", "anchorPoint", "zPosition", "transform", "sublayerTransform", "anchorPointZ"])
    func nonFiniteGeometry(property: String) throws {
        let root = Layer(frame: CGRect(0, 0, 100, 100))
        root.sublayerTransform = .perspective(distance: 500)
        let child = Layer(frame: CGRect(10, 10, 10, 10))
        try root.addSublayer(child)
        switch property {
        case "position": child.position = CGPoint(.nan, 0)
        case "bounds": child.bounds.size.width = .infinity
        case "anchorPoint": child.anchorPoint = CGPoint(.nan, 0.5)
        case "zPosition": child.zPosition = .nan
        case "transform": child.transform.m11 = .nan
        case "anchorPointZ": child.anchorPointZ = .infinity
        default: root.sublayerTransform.m34 = .nan
        }
        #expect(child.convert(CGPoint(1, 1), to: root) == nil)
        #expect(child.convert(CGPoint(1, 1), from: root) == nil)
        #expect(child.convert(CGRect(0, 0, 1, 1), to: root) == nil)
    }

    @Test("±0 coordinates convert like 0")
    func signedZero() throws {
        let root = Layer(frame: CGRect(0, 0, 100, 100))
        let child = Layer(frame: CGRect(10, 10, 10, 10))
        try root.addSublayer(child)
        expectApprox(child.convert(CGPoint(-0.0, -0.0), to: root), CGPoint(10, 10), tolerance: 0)
    }
}
