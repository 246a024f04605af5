import Foundation
import Origami
import OrigamiRender
import Testing

/// The README's Swift example, as written there, so the documentation cannot drift from the code.
@Suite("README example")
struct ReadmeExampleTests {
    @Test func bookCubeExample() throws {
        let container = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
        perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
        container.sublayerTransform = perspective

        let cube = try Solid.cube(size: 200)
        cube.position = CGPoint(x: 200, y: 200)
        try container.addSublayer(cube)
        container.lighting = Lighting.book

        let touch = CGPoint(x: 200, y: 200)
        // By hand (see HitCommandTests): the view ray through the vanishing point leaves the cube through the
        // top (face 3, seen) and the bottom (face 4, added later: it gets the touch in tree order).
        #expect(container.hitTest(touch) === cube.face(number: 4))
        #expect(container.hitTest(touch, policy: .frontmost) === cube.face(number: 3))
        let all = container.hitTestAll(touch)
        #expect(all.first { $0.layer === cube.face(number: 3) }?.depthRank == 0)
        // (5, 5) is the container's corner, outside the cube's projection.
        let batch = container.hitTest([touch, CGPoint(x: 5, y: 5)], policy: .frontmost)
        #expect(batch[0] === cube.face(number: 3) && batch[1] === container)

        let frozen = PresentationTree(container)
        let seen = frozen.hitTestResult(touch, policy: .frontmost)
        #expect(seen?.layer === cube.face(number: 3) && seen?.face === cube.face(number: 3) && seen?.solid === cube)
        // Node 0 is the container, node 1 the cube (a transform layer), nodes 2…7 its faces 1…6.
        #expect(frozen.members(of: 0) == Array(2...7))
        #expect(frozen.members(of: 0).map { frozen.layer($0) } == (1...6).compactMap { cube.face(number: $0) })

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("readme-cube-\(UUID()).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try Renderer.write(container, size: CGSize(width: 400, height: 400), to: url)
        let image = try Bitmap(contentsOfPNG: url)
        #expect(image.width == 400 && image.height == 400)

        // The container sits at the canvas origin, so in its own space it draws where Renderer put it, at scale 2.
        var page = try #require(Bitmap(width: 800, height: 800, color: .white))
        try container.render(in: &page, options: RenderOptions(scale: 2))
        #expect(page[10, 10] == 0xFFFF_FFFF)        // the container's corner: no background, the white stays
        #expect(page[400, 400] != 0xFFFF_FFFF)      // the cube's top face at the vanishing point
        let snapshot = try container.render(size: CGSize(width: 400, height: 400))
        let composited = try Renderer.render(container, size: CGSize(width: 400, height: 400))
        #expect(snapshot.pixels.elementsEqual(composited.pixels), "at the origin, its own space is the canvas")
    }
}
