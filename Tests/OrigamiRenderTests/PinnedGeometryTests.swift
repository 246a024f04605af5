import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// Behaviours the book relies on that no other test pinned (issue 18, item 4), each with its expectation derived by
/// hand from DESIGN §2's mapping `M(L→S) = T(−A_L) · L.transform · T(position, zPosition) · [S.sublayerTransform
/// about S's anchor]`, row vectors, `m34 = −1/d` giving `w = 1 − z/d`.
@Suite("Pinned geometry: anchorPointZ, transform-layer opacity, contentsScale, vanishing points")
struct PinnedGeometryTests {
    private func render(_ root: Layer, background: Color = .white) throws -> Bitmap {
        try #require(try Renderer.render(root, size: root.bounds.size, options: RenderOptions(background: background)).bitmap)
    }

    /// anchorPointZ = 50 puts the layer's plane 50 behind its position: its corner (0, 0) − A = (−50, −50, −50),
    /// unrotated, + position (200, 200, 0) = (150, 150, −50). The container's perspective about its centre
    /// (200, 200): w = 1 + 50/500 = 1.1, so the corner is drawn at 200 − 50/1.1 = 154.5455 and the layer 100/1.1 =
    /// 90.91 wide. Its frame ignores anchorPointZ (Understanding Frame: bounds, anchorPoint, transform, position).
    @Test func anchorPointZMovesThePlaneNotTheFrame() throws {
        let container = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        container.sublayerTransform = .perspective(distance: 500)
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.position = CGPoint(x: 200, y: 200)
        layer.anchorPointZ = 50
        layer.backgroundColor = .black
        try container.addSublayer(layer)
        #expect(layer.frame == CGRect(x: 150, y: 150, width: 100, height: 100))
        let corner = try #require(container.convert(CGPoint.zero, from: layer))
        expectApprox(Double(corner.x), 200 - 50 / 1.1, tolerance: 1e-9)
        expectApprox(Double(corner.y), 200 - 50 / 1.1, tolerance: 1e-9)
        let image = try render(container)
        #expect(image[152, 200] == 0xFFFF_FFFF)   // between 150 and 154.55: not drawn
        #expect(image[156, 200] == 0xFF00_0000)
        #expect(image[243, 200] == 0xFF00_0000)   // the right edge is at 245.45
        #expect(image[247, 200] == 0xFFFF_FFFF)
    }

    /// A transform layer forms no group: each sublayer is drawn with the product of the transform layers'
    /// opacities and its own — 0.5 · 0.5 · 0.8 = 0.2 of white over black, 255 · 0.2 = 51.
    @Test func transformLayerOpacitiesMultiply() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let outer = TransformLayer(), inner = TransformLayer()
        outer.position = CGPoint(x: 50, y: 50)
        outer.opacity = 0.5
        inner.opacity = 0.5
        let face = Layer(frame: CGRect(x: -25, y: -25, width: 50, height: 50))
        face.backgroundColor = .white
        face.opacity = 0.8
        try inner.addSublayer(face)
        try outer.addSublayer(inner)
        try root.addSublayer(outer)
        let tree = PresentationTree(root, placement: .canvas)
        #expect(tree.inheritedOpacity(of: 3) == 0.25)
        let image = try render(root, background: .black)
        let level = Int((image[50, 50] >> 8) & 0xFF)
        #expect(abs(level - 51) <= 1, "level \(level)")
        #expect(image[10, 10] == 0xFF00_0000)
    }

    /// contentsScale is pixels per point: a 20×20-pixel image at scale 2 is 10×10 points, centred in a 40×40 layer
    /// (contentsGravity center) at 15…25; at scale 1 it would cover 10…30.
    @Test func contentsScalePlacesTheImageInPoints() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        layer.contents = Bitmap(width: 20, height: 20, color: .black)
        layer.contentsGravity = .center
        layer.contentsScale = 2
        try root.addSublayer(layer)
        let image = try render(root)
        #expect(image[16, 16] == 0xFF00_0000)
        #expect(image[23, 23] == 0xFF00_0000)
        #expect(image[13, 13] == 0xFFFF_FFFF)
        #expect(image[26, 20] == 0xFFFF_FFFF)
        layer.contentsScale = 1
        #expect(try render(root)[11, 11] == 0xFF00_0000)
    }

    /// Each layer with its own perspective vanishes at its own anchor: the same 100×100 layer with
    /// [perspective 500, rotate y 45] at (100, 150) and at (300, 150) gives the same picture moved by 200.
    /// The book's cure, "centre, then translate": at the container's centre (200, 150) with the translation by 100
    /// before the perspective (t = P; t = Translate(t, 100); t = Rotate(t, 45°), so M = R · T · P), the vanishing
    /// point stays at (200, 150). Its corner (0, 0): (−50, −50) rotated → x = −35.355, z = +35.355; translated →
    /// x = 64.645; w = 1 − 35.355/500 = 0.929289 → (69.5635, −53.8046) + (200, 150) = (269.5635, 96.1954);
    /// corner (100, 0): x = 135.355, z = −35.355, w = 1.070711 → (326.4164, 103.3020). The layer at (300, 150)
    /// with its own perspective has those corners at (261.9544, 96.1954) and (333.0204, 103.3020).
    @Test func eachPerspectiveVanishesAtItsOwnAnchor() throws {
        let container = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 300))
        func layer(at p: CGPoint, _ t: Transform3D) throws -> Layer {
            let l = Layer()
            l.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
            l.position = p
            l.transform = t
            try container.addSublayer(l)
            return l
        }
        let own = Transform3D.perspective(distance: 500).rotated(by: .pi / 4, x: 0, y: 1, z: 0)
        let a = try layer(at: CGPoint(x: 100, y: 150), own)
        let b = try layer(at: CGPoint(x: 300, y: 150), own)
        let shared = Transform3D.perspective(distance: 500).translated(x: 100, y: 0).rotated(by: .pi / 4, x: 0, y: 1, z: 0)
        let c = try layer(at: CGPoint(x: 200, y: 150), shared)
        for corner in [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100), CGPoint(x: 0, y: 100)] {
            let pa = try #require(container.convert(corner, from: a)), pb = try #require(container.convert(corner, from: b))
            expectApprox(Double(pb.x - pa.x), 200, tolerance: 1e-9)
            expectApprox(Double(pb.y - pa.y), 0, tolerance: 1e-9)
        }
        let b0 = try #require(container.convert(CGPoint(x: 0, y: 0), from: b))
        let b1 = try #require(container.convert(CGPoint(x: 100, y: 0), from: b))
        let c0 = try #require(container.convert(CGPoint(x: 0, y: 0), from: c))
        let c1 = try #require(container.convert(CGPoint(x: 100, y: 0), from: c))
        expectApprox(Double(b0.x), 261.954433, tolerance: 1e-6)
        expectApprox(Double(b1.x), 333.020441, tolerance: 1e-6)
        expectApprox(Double(c0.x), 269.563546, tolerance: 1e-6)
        expectApprox(Double(c0.y), 96.195443, tolerance: 1e-6)
        expectApprox(Double(c1.x), 326.416353, tolerance: 1e-6)
        expectApprox(Double(c1.y), 103.302044, tolerance: 1e-6)
    }
}
