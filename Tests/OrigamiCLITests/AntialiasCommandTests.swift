import Foundation
import Origami
import Testing
import TestSupport

/// `origami render --antialias` and the scene's `canvas.antialias`, run as a process (issue 14).
@Suite("origami render --antialias, run as a process")
struct AntialiasCommandTests {
    /// A red plane tilted in perspective on a white canvas: its edges cross pixels part-way.
    static func scene(canvasKey: String = "") -> String {
        """
        canvas: {size: [400, 300], background: white\(canvasKey)}
        layers:
          - {name: plane, frame: [100, 75, 200, 150], backgroundColor: red, transform: [perspective 500, rotate y 40, rotate x 20]}

        """
    }

    private func folder(_ scene: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-aa-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try scene.write(to: dir.appendingPathComponent("plane.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    /// Pixels that are neither the white canvas nor the red face (ARGB): the antialiased edge.
    private func blended(_ png: URL) throws -> Int {
        let image = try Bitmap(contentsOfPNG: png)
        return image.pixels.filter { $0 != 0xFFFF_FFFF && $0 != 0xFFFF_0000 }.count
    }

    @Test func theFlagAndTheKeyGiveHardEdges() throws {
        for (key, flag, hard) in [("", [String](), false), ("", ["--antialias", "none"], true),
                                  (", antialias: none", [], true), (", antialias: none", ["--antialias", "gray"], false)] {
            let dir = try folder(Self.scene(canvasKey: key))
            defer { try? FileManager.default.removeItem(at: dir) }
            let r = try OrigamiCommand.run(["render", "plane.yaml", "-o", "out.png"] + flag, in: dir)
            #expect(r.status == 0, "\(r.stderr)")
            let count = try blended(dir.appendingPathComponent("out.png"))
            // The face's perimeter is about 600 px: antialiased, hundreds of edge pixels are blends.
            #expect(hard ? count == 0 : count > 300, "key `\(key)`, flags \(flag): \(count) blended pixels")
        }
    }

    @Test func anUnknownValueIsAUsageErrorAndWritesNothing() throws {
        let dir = try folder(Self.scene())
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try OrigamiCommand.run(["render", "plane.yaml", "-o", "out.png", "--antialias", "blurry"], in: dir)
        #expect(r.status == 64)
        #expect(r.stderr.contains("Error: The value 'blurry' is invalid for '--antialias <antialias>'. "
                                  + "Please provide one of 'gray' and 'none'."))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
    }

    @Test func anUnknownSceneValueIsLocatedAndWritesNothing() throws {
        let dir = try folder(Self.scene(canvasKey: ", antialias: nope"))
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try OrigamiCommand.run(["render", "plane.yaml", "-o", "out.png"], in: dir)
        #expect(r.status == 1)
        // `nope` starts at column 58: "canvas: {" is 9 characters, "size: [400, 300], " 18, "background: white, " 19,
        // "antialias: " 11.
        #expect(r.stderr.contains("plane.yaml:1:58: canvas.antialias: unknown value `nope`; did you mean `none`?"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.png").path))
    }
}
