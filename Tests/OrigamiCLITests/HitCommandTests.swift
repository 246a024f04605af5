import Foundation
import Testing
import TestSupport

@Suite("origami hit and inspect, run as a process")
struct HitCommandTests {
    /// At the canvas centre of the book's cube the viewer sees face 3 (top), but face 4 (bottom), added later,
    /// receives the touch. By hand: the camera Ry(−45°)·Rx(−45°) sends the object-space direction
    /// u = (0.5, −0.7071, 0.5) to +z, so the ray through the vanishing point (the container's centre, at the
    /// canvas centre) is the line t·u through the cube's centre. Its largest component is |y| → it leaves the
    /// cube through y = −100 (face 3, at (70.7, −100, 70.7), nearer the viewer) and y = +100 (face 4, at
    /// (−70.7, 100, −70.7)); planes x = −100 and z = −100 (faces 5, 6) are met at |y| = 141 > 100, outside.
    @Test func bookCubeCentreIsInterceptedByFace4() throws {
        let r = try OrigamiCommand.run(["hit", "Models/cube-button-interception.yaml", "200,200"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("tree:") && $0.contains("face4 at local") })
        #expect(lines.contains { $0.hasPrefix("coreanimation:") && $0.contains("face4 at local") })
        #expect(lines.contains { $0.hasPrefix("frontmost:") && $0.contains("face3 at local") })
    }

    @Test func jsonAnswerHasRanks() throws {
        let r = try OrigamiCommand.run(["hit", "Models/cube-button-interception.yaml", "200,200", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let answers = try #require(object["answers"] as? [String: Any])
        #expect((answers["tree"] as? [String: Any])?["layer"] as? String == "face4")
        #expect((answers["frontmost"] as? [String: Any])?["layer"] as? String == "face3")
        let layers = try #require(object["layers"] as? [[String: Any]])
        let face3 = try #require(layers.first { $0["layer"] as? String == "face3" })
        let face4 = try #require(layers.first { $0["layer"] as? String == "face4" })
        #expect(face4["treeRank"] as? Int == 0 && face3["treeRank"] as? Int == 1)
        #expect(face3["depthRank"] as? Int == 0 && face4["depthRank"] as? Int == 1)
    }

    @Test func singlePolicy() throws {
        let r = try OrigamiCommand.run(["hit", "Models/cube-button-interception.yaml", "200,200", "--policy", "frontmost"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("frontmost:") && !r.stdout.contains("tree:"))
    }

    @Test func brokenSceneGivesOneErrorLineAndLocatedDetails() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-cli-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "canvas: {size: [10, 10]}\nlayers: [{anchorpoint: [0, 0]}]\n".write(
            to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let r = try OrigamiCommand.run(["hit", "bad.yaml", "1,1"], in: dir)
        #expect(r.status == 1)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "error: invalid scene bad.yaml")
        #expect(lines.dropFirst().first == "bad.yaml:2:11: layers[0].anchorpoint: unknown key `anchorpoint`; did you mean `anchorPoint`?")
        #expect(r.stdout.isEmpty)
    }

    @Test func badPointIsAUsageError() throws {
        let r = try OrigamiCommand.run(["hit", "Models/cube-button-interception.yaml", "nan,3"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("X,Y"))
    }

    @Test func inspectPrintsNormals() throws {
        let r = try OrigamiCommand.run(["inspect", "Models/cube-button-interception.yaml"])
        #expect(r.status == 0, "\(r.stderr)")
        // Face 3's outward normal −y, turned by the camera (Ry(−45°) then Rx(−45°)): (0, −0.7071, 0.7071).
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let i = try #require(lines.firstIndex { $0.contains("face3 [layer]") })
        #expect(lines[(i + 1)...].prefix(3).contains { $0.contains("normal (view space) (0.0000, -0.7071, 0.7071)") })
    }

    @Test func helpListsTheSubcommands() throws {
        let r = try OrigamiCommand.run(["--help"])
        #expect(r.status == 0)
        for command in ["hit", "inspect"] { #expect(r.stdout.contains("  \(command) ")) }
    }
}
