import Foundation
import Origami
import OrigamiRender
import Testing

/// A solid's face with an outline (`Face.polygon`: a prism's cap, a pyramid's triangle) is drawn and touched
/// only inside that outline, not over its whole bounding rectangle.
@Suite("Face outlines")
struct FaceOutlineTests {
    /// A triangular prism turned −90° about x: its top cap (outward normal −y) then faces the viewer
    /// ((0, −1, 0)·Rx(−90°) = (0, 0, 1)), seen face-on without perspective.
    private func scene() throws -> (Layer, Face) {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        root.backgroundColor = .white
        let prism = try Solid.prism(sides: 3, radius: 100, height: 100)
        prism.position = CGPoint(x: 200, y: 200)
        prism.transform = Transform3D(rotationAngle: -.pi / 2, x: 1, y: 0, z: 0)
        for face in prism.faces {
            face.backgroundColor = .blue
            face.isDoubleSided = false
        }
        let cap = try #require(prism.face(.top))
        cap.backgroundColor = .red
        try root.addSublayer(prism)
        return (root, cap)
    }

    @Test func capIsDrawnOnlyInsideItsTriangle() throws {
        let (root, cap) = try scene()
        let outline = try #require(cap.polygon)
        try #require(outline.count == 3)
        let image = try Renderer.render(root, size: CGSize(width: 400, height: 400))
        // Inside: the triangle's centroid.
        let centroid = CGPoint(x: outline.map(\.x).reduce(0, +) / 3, y: outline.map(\.y).reduce(0, +) / 3)
        let inside = try #require(root.convert(centroid, from: cap))
        #expect(image.pixel(x: Int(inside.x), y: Int(inside.y)) == .red)
        // Outside: a corner of the bounds that no triangle vertex occupies, 4 points in.
        let b = cap.bounds
        let corners = [CGPoint(x: b.minX + 4, y: b.minY + 4), CGPoint(x: b.maxX - 4, y: b.minY + 4),
                       CGPoint(x: b.minX + 4, y: b.maxY - 4), CGPoint(x: b.maxX - 4, y: b.maxY - 4)]
        let empty = try #require(corners.first { c in
            !outline.contains { $0.isApproximatelyEqual(to: c, absoluteTolerance: 10) }
        })
        let outside = try #require(root.convert(empty, from: cap))
        #expect(image.pixel(x: Int(outside.x), y: Int(outside.y)) == .white)
        // Touches follow the outline too.
        #expect(root.hitTest(inside, policy: .frontmost) === cap)
        #expect(root.hitTest(outside, policy: .frontmost) !== cap)
        #expect(root.hitTest(outside, policy: .treeOrder) !== cap)
    }
}
