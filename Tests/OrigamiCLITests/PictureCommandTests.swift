import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// `origami render`, `sweep` and `hitmap` run as processes: exit codes, files, and key pixels.
@Suite("origami render, sweep and hitmap, run as a process")
struct PictureCommandTests {
    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-cli-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private var models: URL { OrigamiCommand.packageRoot.appendingPathComponent("Models") }

    /// The blue/white scene: blue spans canvas x 130…230, y 250…350; white the rest of 80…280 × 200…400.
    @Test func renderWritesThePicture() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("bw.png")
        let r = try OrigamiCommand.run(["render", models.appendingPathComponent("hit-test-blue-white.yaml").path, "-o", out.path, "--scale", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNG: out)
        #expect(image.width == 720 && image.height == 1120)
        // At scale 2: blue centre (180, 300) → pixel (360, 600); white at (100, 220) → (200, 440).
        #expect(image[360, 600] == 0xFF00_00FF)
        #expect(image[200, 440] == 0xFFFF_FFFF)
    }

    @Test(arguments: ["svg", "pdf"])
    func vectorFormats(_ format: String) throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("cube.\(format)")
        let r = try OrigamiCommand.run(["render", models.appendingPathComponent("lit-cube.yaml").path, "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let text = String(decoding: try Data(contentsOf: out).prefix(200), as: UTF8.self)
        #expect(format == "svg" ? text.contains("<svg") : text.hasPrefix("%PDF"))
    }

    @Test func renderIntoAMissingFolderFailsBeforeWork() throws {
        let r = try OrigamiCommand.run(["render", models.appendingPathComponent("lit-cube.yaml").path, "-o", "/nonexistent/dir/x.png"])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: cannot write /nonexistent/dir/x.png: the folder /nonexistent/dir does not exist"))
    }

    @Test func brokenSceneWritesNothing() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "canvas: {size: [10, 10]}\nlayers: [{opacity: 2}]\n".write(to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let r = try OrigamiCommand.run(["render", "bad.yaml", "-o", "out.png"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("\nbad.yaml:2:20: layers[0].opacity: opacity 2 is out of range 0…1\n"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
    }

    @Test func badOptionsAreUsageErrors() throws {
        let r = try OrigamiCommand.run(["render", models.appendingPathComponent("lit-cube.yaml").path, "--supersample", "9"])
        #expect(r.status != 0 && r.status != 1)
        #expect(r.stderr.contains("--supersample must be between 1 and 8."))
    }

    /// Two shards of the scene's 3 × 3 sweep, then the merge: 9 frames, a sheet, and one CSV row per face per
    /// variant (each variant lights the cube's 6 faces: 54 rows plus the header).
    @Test func shardedSweepMerges() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = models.appendingPathComponent("lighting-sweep.yaml").path
        for shard in ["1/2", "2/2"] {
            let r = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--shard", shard, "--scale", "0.5"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let frames = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("frames").path)
        #expect(frames.filter { $0.hasSuffix(".png") }.count == 9)
        let merge = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--merge"])
        #expect(merge.status == 0, "\(merge.stderr)")
        let csv = try String(contentsOf: dir.appendingPathComponent("lighting.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n")
        #expect(lines.count == 1 + 9 * 6)
        #expect(lines.first?.hasPrefix("variant,ambient,light.direction,") == true)
        // Variant 1 is ambient 0.2 with the book's light (0, 1, −0.5) in scene space. Face 3 (top, normal −y)
        // gets −L·N = 1/√1.25 = 0.894: brightness 0.2 + 0.8·0.894 = 0.9155.
        let top = try #require(lines.first { $0.hasPrefix("1,") && $0.contains("\"top\"") })
        #expect(top.contains(",0.2,"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("lighting.json"))) as? [[String: Any]]
        #expect(json?.count == 9)
        let faces = try #require(json?.first?["faces"] as? [[String: Any]])
        let topFace = try #require(faces.first { $0["layerName"] as? String == "top" })
        let brightness = try #require(topFace["brightness"] as? [Double])
        expectApprox(brightness[0], 0.2 + 0.8 / 1.25.squareRoot(), tolerance: 1e-9)
        _ = try Bitmap(contentsOfPNG: dir.appendingPathComponent("sheet.png"))
    }

    @Test func mergeBeforeEveryShardIsAnError() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = models.appendingPathComponent("lighting-sweep.yaml").path
        _ = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--shard", "1/3", "--scale", "0.25"])
        let merge = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--merge"])
        #expect(merge.status == 1)
        #expect(merge.stderr.contains("6 of 9 variants are not rendered yet (2, 3, 5, 6, 8, …); run every shard before --merge"))
    }

    @Test func sweepParameterErrors() throws {
        let scene = models.appendingPathComponent("lighting-sweep.yaml").path
        let unknown = try OrigamiCommand.run(["sweep", scene, "--vary", "ambiant=0.1,0.2"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown sweep parameter `ambiant`; did you mean `ambient`?"))
        let range = try OrigamiCommand.run(["sweep", scene, "--vary", "ambient=0.1,1.5"])
        #expect(range.stderr.contains("`1.5` is not a number in 0…1 for `ambient`"))
        let unlit = try OrigamiCommand.run(["sweep", models.appendingPathComponent("z-position.yaml").path, "--vary", "ambient=0.5"])
        #expect(unlit.stderr.contains("the scene has no layer with `lighting` to vary"))
    }

    /// The book's cube at a quarter scale: the touch at the canvas centre (pixel 50, 50) goes to face 4 while
    /// face 3 is seen (see HitCommandTests for the derivation), so that pixel is intercepted.
    @Test func hitmapShowsInterception() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("map.png")
        let r = try OrigamiCommand.run(["hitmap", models.appendingPathComponent("cube-button-interception.yaml").path,
                                        "-o", out.path, "--scale", "0.25"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("% of the canvas is intercepted"))
        let image = try Bitmap(contentsOfPNG: out)
        #expect(image.height >= 100 && image.width > 100)
    }

    @Test func helpTextsReadWell() throws {
        let r = try OrigamiCommand.run(["sweep", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("--vary ambient=0.2,0.5,0.8"))
        #expect(r.stdout.contains("--shard <i/n|auto>"))
        #expect(r.stdout.contains("--set <name=value>"))
        #expect(r.stdout.contains("--zip"))
        let top = try OrigamiCommand.run(["--help"])
        for command in ["render", "sweep", "hit", "hitmap", "inspect"] { #expect(top.stdout.contains("  \(command) ")) }
    }
}
