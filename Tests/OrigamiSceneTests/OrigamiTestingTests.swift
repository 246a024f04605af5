import Foundation
import Origami
import OrigamiRender
import OrigamiScene
import OrigamiTesting
import Testing
import TestSupport

/// The `OrigamiTesting` helpers a user's own tests call, on the book's cube and on renders whose difference is
/// known by construction. (The gallery test compares every model with its picture through `ImageCheck` too.)
@Suite("OrigamiTesting: hit order and reference images")
struct OrigamiTestingTests {
    static func bookCube() throws -> Scene {
        try Scene.load(contentsOf: OrigamiCommand.packageRoot.appendingPathComponent("Models/cube-button-interception.yaml"))
    }

    /// Derived by hand (HitCommandTests, HitBatchCommandTests): at the canvas centre face 4 takes the touch in
    /// tree order and in Core Animation's order while face 3 is seen; at (5, 5), outside every face (no face
    /// projects farther than ≈ 265 points from the centre; the corner is ≈ 276 away), the container.
    @Test func bookCubeHitOrder() throws {
        let scene = try Self.bookCube()
        expectHitOrder(in: scene.root, at: CGPoint(x: 200, y: 200), [.treeOrder: "face4", .coreAnimation: "face4", .frontmost: "face3"])
        expectHitOrder(in: scene.root, at: CGPoint(x: 5, y: 5), [.treeOrder: "container", .frontmost: "container"])
        let expectations = try HitExpectations.decode("""
            points:
              - at: [200, 200]
                tree: {layer: face4, depthRank: 1}
                frontmost: {layer: face3, depthRank: 0}
            """, file: "inline.yaml")
        expectHitOrder(in: scene, expectations)
    }

    @Test func mismatchesNameThePointPolicyAndBothAnswers() throws {
        let scene = try Self.bookCube()
        let m = HitOrderCheck.mismatches(in: scene.root, at: CGPoint(x: 200, y: 200),
                                         expected: [.treeOrder: "face4", .frontmost: "face4", .coreAnimation: nil])
        #expect(m.map(\.description) == [
            "a touch at (200, 200) under coreanimation: expected nothing, got face4",
            "a touch at (200, 200) under frontmost: expected face4, got face3",
        ])
        let expectations = try HitExpectations.decode("points:\n  - at: [200, 200]\n    tree: face3\n", file: "e.yaml")
        #expect(HitOrderCheck.mismatches(in: scene, expectations: expectations)
                == ["e.yaml:2: a touch at (200, 200) under tree: expected face3, got face4"])
    }

    /// A 20 × 10 canvas: white, a red 10 × 10 square at the left. Against a reference that is red all over, the
    /// right half's 10 × 10 = 100 pixels differ (white against red: 255 levels in green and blue), over the
    /// 200 / 500 = 0 allowed.
    @Test func imageComparisonWritesActualAndDiffOnFailure() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-testing-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func render(squareWidth: Int) throws -> RenderedImage {
            let scene = try Scene.decode("canvas: {size: [20, 10]}\nlayers: [{frame: [0, 0, \(squareWidth), 10], backgroundColor: red}]\n")
            return try Renderer.render(scene.root, size: scene.canvas.size,
                                       options: RenderOptions(scale: 1, background: scene.canvas.background))
        }
        let image = try render(squareWidth: 10)
        let same = dir.appendingPathComponent("same.png"), allRed = dir.appendingPathComponent("all-red.png")
        try image.write(to: same)
        try render(squareWidth: 20).write(to: allRed)
        let artifacts = dir.appendingPathComponent("artifacts")

        expectImage(image, matches: same, artifacts: artifacts)
        #expect(!FileManager.default.fileExists(atPath: artifacts.path))

        let failure = ImageCheck.failure(image, matches: allRed, artifacts: artifacts)
        #expect(failure == "100 pixels differ from all-red.png by more than 12 levels (allowed 0); actual.png and diff.png in \(artifacts.path)")
        let diff = try Bitmap(contentsOfPNG: artifacts.appendingPathComponent("diff.png"))
        #expect(diff[5, 5] == 0xFFFF_FFFF && diff[15, 5] == 0xFFFF_0000)
        #expect(try Bitmap(contentsOfPNG: artifacts.appendingPathComponent("actual.png")) == image.bitmap)

        let missing = ImageCheck.failure(image, matches: dir.appendingPathComponent("none.png"), artifacts: artifacts)
        #expect(missing?.hasPrefix("cannot read the reference \(dir.appendingPathComponent("none.png").path)") == true)
        // Half the pixels may differ when the tolerance says so.
        #expect(ImageCheck.failure(image, matches: allRed, tolerance: ImageTolerance(channel: 12, share: 0.5)) == nil)
    }
}
