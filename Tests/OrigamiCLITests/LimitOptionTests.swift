import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// Limits a command-line user meets: each is checked before the work it guards, and its message names the
/// option that changes it.
@Suite("Limits on the command line, run as a process")
struct LimitOptionTests {
    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-limits-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// A square pyramid as a polyhedron: 5 faces.
    private let pyramid = """
        canvas: {size: [40, 40]}
        layers:
          - name: t
            type: solid
            shape: polyhedron
            position: [20, 20]
            polygons:
              - [[0, 0, 0], [20, 0, 0], [20, 0, 20], [0, 0, 20]]
              - [[0, 0, 0], [10, -20, 10], [20, 0, 0]]
              - [[20, 0, 0], [10, -20, 10], [20, 0, 20]]
              - [[20, 0, 20], [10, -20, 10], [0, 0, 20]]
              - [[0, 0, 20], [10, -20, 10], [0, 0, 0]]
        """

    @Test("a polyhedron over --max-polyhedron-faces is refused, naming the option; raising it renders")
    func polyhedronFaces() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("pyramid.yaml")
        try pyramid.write(to: scene, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("pyramid.png")

        let refused = try OrigamiCommand.run(["render", scene.path, "-o", out.path, "--max-polyhedron-faces", "4"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(
            "pyramid.yaml:8:7: layers[0].polygons: the polyhedron has 5 faces, over the limit of 4; raise the limit with --max-polyhedron-faces"),
            "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))

        let rendered = try OrigamiCommand.run(["render", scene.path, "-o", out.path, "--max-polyhedron-faces", "5"])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.path))

        let inspected = try OrigamiCommand.run(["inspect", scene.path, "--max-polyhedron-faces", "5"])
        #expect(inspected.status == 0, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("face 5 [layer]"))
    }

    @Test("--max-polyhedron-faces below 4 is a usage error")
    func polyhedronFacesTooSmall() throws {
        let r = try OrigamiCommand.run(["render", "Models/solids.yaml", "--max-polyhedron-faces", "3"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--max-polyhedron-faces must be at least 4."), "\(r.stderr)")
    }

    /// 800 one-point layers on a 40 × 20 canvas: the legend lists the 39 largest shares and folds the other
    /// 762 (of 801 with the canvas) into one row, so it is 2·12 + 22·(40 + 3) = 970 pixels tall, not a refusal;
    /// the picture is 40 + 300 legend columns wide.
    @Test("hitmap folds the legend of a scene of many layers")
    func hitMapLegendFolds() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let layers = (0..<800).map { "  - {frame: [\($0 % 40), \($0 / 40), 1, 1], backgroundColor: red}" }
        let scene = dir.appendingPathComponent("many.yaml")
        try ("canvas: {size: [40, 21]}\nlayers:\n" + layers.joined(separator: "\n")).write(to: scene, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("map.png")
        let r = try OrigamiCommand.run(["hitmap", scene.path, "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNG: out)
        #expect(image.width == 340 && image.height == 970)
    }
}
