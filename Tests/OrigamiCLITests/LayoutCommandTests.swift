import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// Layout from the command line: `render` and `hit` see laid-out layers; a scene that cannot be laid out is a
/// located error and writes nothing.
@Suite("origami and scene layout, run as a process")
struct LayoutCommandTests {
    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-layout-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func cycleIsALocatedErrorAndWritesNothing() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            canvas: {size: [100, 100]}
            layers:
              - layoutManager: constraints
                sublayers:
                  - {name: a, constraints: [{attribute: minX, relativeTo: b, sourceAttribute: maxX}]}
                  - {name: b, constraints: [{attribute: minX, relativeTo: a, sourceAttribute: maxX}]}
            """.write(to: dir.appendingPathComponent("cycle.yaml"), atomically: true, encoding: .utf8)
        let r = try OrigamiCommand.run(["render", "cycle.yaml", "-o", "out.png"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.contains("cycle.yaml:6:63: layers[0].sublayers[1].constraints[0].relativeTo: constraints form a cycle: a → b → a"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
    }

    /// The constraints Model: layerB is (150, 10, 100, 117.5) in theLayer, which is flipped over its height 300,
    /// so on the canvas B covers y 172.5…290: a touch at (200, 250) reaches it, and (200, 60) only theLayer.
    @Test func hitSeesTheLaidOutLayers() throws {
        let model = OrigamiCommand.packageRoot.appendingPathComponent("Models/constraints-layout.yaml").path
        let b = try OrigamiCommand.run(["hit", model, "200,250"])
        #expect(b.status == 0, "\(b.stderr)")
        #expect(b.stdout.contains("layerB"), "\(b.stdout)")
        let none = try OrigamiCommand.run(["hit", model, "200,60"])
        #expect(!none.stdout.contains("layerB") && !none.stdout.contains("layerA"), "\(none.stdout)")
    }

    /// `--set` resizes the autoresizing Model back to its designed 300×200: the button returns to (210, 160, 80, 30)
    /// in the panel at (20, 20), canvas (230…310, 180…210), and the content to (30…310, 60…170).
    @Test func setResizesTheAutoresizingModel() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("design.png")
        let model = OrigamiCommand.packageRoot.appendingPathComponent("Models/autoresizing.yaml").path
        let r = try OrigamiCommand.run(["render", model, "--set", "width=300", "--set", "height=200", "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let image = try Bitmap(contentsOfPNG: out)
        #expect(image[235, 195] == 0xFFE6_7E22)   // the button at its designed place
        #expect(image[395, 255] == 0xFFEC_F0F1)   // nothing where the default size puts it
        #expect(image[308, 100] == 0xFFAE_D6F1)   // content to 310
        #expect(image[312, 100] == 0xFFFF_FFFF)   // then the panel's 10-point margin
    }

    @Test func setOutsideTheRangeIsRefused() throws {
        let model = OrigamiCommand.packageRoot.appendingPathComponent("Models/autoresizing.yaml").path
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("wide.png")
        let r = try OrigamiCommand.run(["render", model, "--set", "width=900", "-o", out.path])
        #expect(r.status == 1)
        #expect(r.stderr == "error: --set width=900: 900 is outside the range 120…460 of `width`; the scene declares `width` in 120…460\n",
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
