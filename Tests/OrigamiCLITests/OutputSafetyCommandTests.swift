import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// DESIGN §6 at the command line: `render`, `hitmap` and `sweep` never destroy what they do not own. Each
/// case checks the exact message and exit status, that the thing at the destination is untouched, and that no
/// temporary file (`.NAME.origami-tmp-XXXXXX`) is left.
@Suite("origami outputs never destroy what they do not own, run as a process")
struct OutputSafetyCommandTests {
    private static let marker = ".origami-tmp-"
    private static let pngSignature = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])

    /// A 100×100 canvas with a red layer hanging off its top-left corner (frame −40, −40, 60, 60).
    private static let cornerScene = "canvas: {size: [100, 100]}\nlayers:\n  - {name: corner, frame: [-40, -40, 60, 60], backgroundColor: red}\n"

    /// A folder holding `s.yaml` (the corner scene).
    private func sceneFolder() throws -> URL {
        let folder = try SpecialFiles.folder("origami-cli")
        try Self.cornerScene.write(to: folder.appendingPathComponent("s.yaml"), atomically: false, encoding: .utf8)
        return folder
    }

    private func isPNG(_ url: URL) throws -> Bool { try Data(contentsOf: url).prefix(8) == Self.pngSignature }

    private func noTemporary(_ folder: URL) throws -> Bool {
        try SpecialFiles.entries(folder).allSatisfy { !$0.contains(Self.marker) }
    }

    // MARK: Devices, FIFOs, sockets

    @Test("render -o a FIFO or a socket fails at once and leaves it as it was", arguments: ["fifo", "socket"])
    func pipesAndSockets(_ kind: String) throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.png")
        if kind == "fifo" { try SpecialFiles.makeFIFO(out) } else { try SpecialFiles.makeSocket(out) }
        let r = try OrigamiCommand.run(["render", "s.yaml", "-o", "out.png"], in: folder)
        #expect(r.status == 1)
        let what = kind == "fifo" ? "a FIFO (named pipe)" : "a socket"
        #expect(r.stderr == "error: cannot write \(out.path): it is \(what); refusing to replace it\n")
        #expect(try SpecialFiles.kind(out) == (kind == "fifo" ? S_IFIFO : S_IFSOCK))
        #expect(try SpecialFiles.entries(folder) == ["out.png", "s.yaml"])
    }

    @Test("render and hitmap -o a device node (made with mknod in a temporary folder) leave it a device",
          .enabled(if: SpecialFiles.isRoot, "mknod needs root"), arguments: ["render", "hitmap"])
    func deviceNode(_ command: String) throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("null.png")
        try SpecialFiles.makeDevice(out)
        let r = try OrigamiCommand.run([command, "s.yaml", "-o", "null.png"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr == "error: cannot write \(out.path): it is a character device; refusing to replace it\n")
        #expect(try SpecialFiles.kind(out) == S_IFCHR)
        #expect(try SpecialFiles.entries(folder) == ["null.png", "s.yaml"])
    }

    // MARK: Links, modes, read-only files

    @Test("render -o a symbolic link writes its target; the link stays a link")
    func throughLink() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let renders = folder.appendingPathComponent("renders")
        try FileManager.default.createDirectory(at: renders, withIntermediateDirectories: false)
        let target = renders.appendingPathComponent("real.png")
        try Data("old".utf8).write(to: target)
        let link = folder.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "renders/real.png")
        let r = try OrigamiCommand.run(["render", "s.yaml", "-o", "link.png"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try SpecialFiles.kind(link) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "renders/real.png")
        #expect(try isPNG(target))
        #expect(try SpecialFiles.entries(folder) == ["link.png", "renders", "s.yaml"])
        #expect(try SpecialFiles.entries(renders) == ["real.png"])
    }

    @Test("render -o a dangling link creates the file it names")
    func danglingLink() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "made.png")
        let r = try OrigamiCommand.run(["render", "s.yaml", "-o", "link.png"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try SpecialFiles.kind(link) == S_IFLNK)
        #expect(try isPNG(folder.appendingPathComponent("made.png")))
        #expect(try SpecialFiles.entries(folder) == ["link.png", "made.png", "s.yaml"])
    }

    @Test("render over an existing file keeps its mode", arguments: [mode_t(0o600), 0o640, 0o755])
    func modeKept(_ mode: mode_t) throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out.png")
        try Data("old".utf8).write(to: out)
        try SpecialFiles.setMode(out, mode)
        let r = try OrigamiCommand.run(["render", "s.yaml", "-o", "out.png"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try SpecialFiles.mode(out) == mode)
        #expect(try isPNG(out))
        #expect(try SpecialFiles.entries(folder) == ["out.png", "s.yaml"])
    }

    @Test("render over a read-only (0444) file is refused and leaves it untouched")
    func readOnly() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("keep.png")
        try Data("precious".utf8).write(to: out)
        try SpecialFiles.setMode(out, 0o444)
        let r = try OrigamiCommand.run(["render", "s.yaml", "-o", "keep.png"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr == "error: cannot write \(out.path): it is read-only; remove it or change its mode\n")
        #expect(try Data(contentsOf: out) == Data("precious".utf8))
        #expect(try SpecialFiles.mode(out) == 0o444)
        #expect(try SpecialFiles.entries(folder) == ["keep.png", "s.yaml"])
    }

    // MARK: The scene's own files

    @Test("render never replaces its scene: named as it is, through ./, a symbolic link or a hard link",
          arguments: ["s.yaml", "./s.yaml", "link.png", "hard.png"])
    func sceneIsProtected(_ name: String) throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("s.yaml")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path,
                                                   withDestinationPath: "s.yaml")
        try FileManager.default.linkItem(at: scene, to: folder.appendingPathComponent("hard.png"))
        let r = try OrigamiCommand.run(["render", "s.yaml", "-o", name], in: folder)
        #expect(r.status == 1)
        let path = folder.path + "/" + (name.hasPrefix("./") ? String(name.dropFirst(2)) : name)
        let reason = switch name {
        case "link.png": "it is a link to \(folder.path)/s.yaml, which is the scene file s.yaml; an output never replaces an input"
        case "hard.png": "it is the scene file s.yaml; an output never replaces an input"
        default: "unsupported extension .yaml: use .png, .svg or .pdf"
        }
        #expect(r.stderr == "error: cannot write \(path): \(reason)\n")
        #expect(try String(contentsOf: scene, encoding: .utf8) == Self.cornerScene)
        #expect(try SpecialFiles.kind(folder.appendingPathComponent("link.png")) == S_IFLNK)
        #expect(try SpecialFiles.entries(folder) == ["hard.png", "link.png", "s.yaml"])
    }

    @Test("render and hitmap never replace an image the scene reads", arguments: ["render", "hitmap"])
    func imageIsProtected(_ command: String) throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try OrigamiCommand.run(["render", "s.yaml", "-o", "tex.png"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let texture = folder.appendingPathComponent("tex.png")
        let before = try Data(contentsOf: texture)
        try "canvas: {size: [50, 50]}\nlayers:\n  - {frame: [0, 0, 50, 50], contents: tex.png}\n"
            .write(to: folder.appendingPathComponent("t.yaml"), atomically: false, encoding: .utf8)
        let r = try OrigamiCommand.run([command, "t.yaml", "-o", "tex.png"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr == "error: cannot write \(texture.path): it is an image the scene reads tex.png; an output never replaces an input\n")
        #expect(try Data(contentsOf: texture) == before)
        #expect(try noTemporary(folder))
    }

    @Test("sweep refuses an output folder where its data file would replace the scene, before rendering")
    func sweepProtectsTheScene() throws {
        let folder = try SpecialFiles.folder("origami-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A scene file may be JSON or YAML whatever its name: this one is called lighting.json.
        let source = OrigamiCommand.packageRoot.appendingPathComponent("Models/lighting-sweep.yaml")
        let scene = folder.appendingPathComponent("lighting.json")
        try FileManager.default.copyItem(at: source, to: scene)
        let r = try OrigamiCommand.run(["sweep", "lighting.json", "-o", ".", "--scale", "0.25"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr == "error: cannot write \(scene.path): it is the scene file lighting.json; an output never replaces an input\n")
        #expect(try Data(contentsOf: scene) == Data(contentsOf: source))
        #expect(try SpecialFiles.entries(folder) == ["lighting.json"], "no frame was rendered")
        // --force clears a sweep's outputs, never the scene that merely has an output's name.
        let forced = try OrigamiCommand.run(["sweep", "lighting.json", "-o", ".", "--scale", "0.25", "--force"], in: folder)
        #expect(forced.status == 1)
        #expect(forced.stderr == r.stderr)
        #expect(try Data(contentsOf: scene) == Data(contentsOf: source))
    }

    // MARK: Formats

    @Test("an extension that disagrees with the format is refused, naming the right one; nothing is written",
          arguments: [
              (["render", "s.yaml", "-o", "x.jpg"], "x.jpg", "unsupported extension .jpg: use .png, .svg or .pdf"),
              (["render", "s.yaml", "-o", "x.svg", "--format", "pdf"], "x.svg", "x.svg names SVG but --format is pdf; use x.pdf"),
              (["render", "s.yaml", "-o", "x.PNG", "--format", "svg"], "x.PNG", "x.PNG names PNG but --format is svg; use x.svg"),
              (["hitmap", "s.yaml", "-o", "x.svg"], "x.svg", "hitmap writes PNG only; use x.png"),
              (["hitmap", "s.yaml", "-o", "x.jpg"], "x.jpg", "unsupported extension .jpg: use .png"),
          ])
    func extensions(_ arguments: [String], _ name: String, _ reason: String) throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(arguments, in: folder)
        #expect(r.status == 1)
        #expect(r.stderr == "error: cannot write \(folder.appendingPathComponent(name).path): \(reason)\n")
        #expect(try SpecialFiles.entries(folder) == ["s.yaml"])
    }

    @Test("the format follows the extension; without -o the name follows --format")
    func formatsThatAgree() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [["-o", "a.SVG"], ["-o", "b.pdf", "--format", "pdf"], ["--format", "svg"]] {
            let r = try OrigamiCommand.run(["render", "s.yaml"] + arguments, in: folder)
            #expect(r.status == 0, "\(r.stderr)")
        }
        #expect(try SpecialFiles.entries(folder) == ["a.SVG", "b.pdf", "s.svg", "s.yaml"])
        #expect(try String(decoding: Data(contentsOf: folder.appendingPathComponent("a.SVG")).prefix(100), as: UTF8.self).contains("<svg"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("b.pdf")).prefix(4) == Data("%PDF".utf8))
    }

    // MARK: Signals

    /// Watches the folder a running `render` or `sweep` writes into and sends `signal` as soon as a temporary
    /// file shows up there (or when the command ends): the process must end by that signal (or have finished)
    /// and leave no temporary file; every picture that is there is whole.
    @Test("SIGTERM or SIGINT while a picture is being written leaves no temporary file",
          arguments: [("sweep", SIGTERM), ("sweep", SIGINT), ("render", SIGTERM), ("render", SIGINT)])
    func interrupted(_ command: String, _ signalNumber: Int32) throws {
        let folder = try SpecialFiles.folder("origami-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let models = OrigamiCommand.packageRoot.appendingPathComponent("Models")
        let process = Process()
        process.executableURL = OrigamiCommand.executable
        let watched: URL
        if command == "sweep" {
            watched = folder.appendingPathComponent("frames")
            process.arguments = ["sweep", models.appendingPathComponent("lighting-sweep.yaml").path, "-o", folder.path,
                                 "--scale", "3", "--png-compression", "smallest", "--jobs", "2"]
        } else {
            watched = folder
            process.arguments = ["render", models.appendingPathComponent("lit-cube.yaml").path,
                                 "-o", folder.appendingPathComponent("cube.png").path,
                                 "--scale", "4", "--png-compression", "smallest"]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let start = Date()
        var sawTemporary = false
        while process.isRunning && Date().timeIntervalSince(start) < 60 {
            if let names = try? FileManager.default.contentsOfDirectory(atPath: watched.path),
               names.contains(where: { $0.contains(Self.marker) }) {
                sawTemporary = true
                break
            }
        }
        kill(process.processIdentifier, signalNumber)
        process.waitUntilExit()
        let finished = process.terminationReason == .exit && process.terminationStatus == 0
        let killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == signalNumber
        #expect(finished || killed, "ended with \(process.terminationReason) \(process.terminationStatus)")
        let names = (try? SpecialFiles.entries(watched)) ?? []
        #expect(names.allSatisfy { !$0.contains(Self.marker) }, "left \(names); saw a temporary file: \(sawTemporary)")
        #expect(try noTemporary(folder))
        // A PNG is whole when it ends with its IEND chunk.
        let end = Data([0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        for name in names where name.hasSuffix(".png") {
            let data = try Data(contentsOf: watched.appendingPathComponent(name))
            #expect(data.prefix(8) == Self.pngSignature && data.suffix(8) == end, "\(name) is cut short")
        }
    }

    // MARK: Small command-line rules

    @Test("--scale follows the scene file's rule (0.01…64); a hit map's stops at 16")
    func scaleRule() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (command, scale, message) in [
            ("render", "1e-300", "--scale must be between 0.01 and 64, as a scene's canvas.scale."),
            ("render", "0.009", "--scale must be between 0.01 and 64, as a scene's canvas.scale."),
            ("render", "65", "--scale must be between 0.01 and 64, as a scene's canvas.scale."),
            ("render", "nan", "--scale must be between 0.01 and 64, as a scene's canvas.scale."),
            ("sweep", "1e-300", "--scale must be between 0.01 and 64, as a scene's canvas.scale."),
            ("hitmap", "1e-300", "--scale must be between 0.01 and 16, for a hit map (a render's is up to 64)."),
            ("hitmap", "17", "--scale must be between 0.01 and 16, for a hit map (a render's is up to 64)."),
        ] {
            let r = try OrigamiCommand.run([command, "s.yaml", "-o", command == "sweep" ? "sweep" : "x.png", "--scale", scale],
                                           in: folder)
            #expect(r.status == 64, "\(command) --scale \(scale)")
            #expect(r.stderr.hasPrefix("Error: \(message)\n"), "\(r.stderr)")
        }
        #expect(try SpecialFiles.entries(folder) == ["s.yaml"])
        // The smallest scale both accept: the 100-point canvas becomes a 1×1 picture.
        let r = try OrigamiCommand.run(["render", "s.yaml", "-o", "x.png", "--scale", "0.01"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        try "canvas: {size: [100, 100], scale: 0.009}\nlayers: []\n".write(to: folder.appendingPathComponent("small.yaml"),
                                                                            atomically: false, encoding: .utf8)
        let scene = try OrigamiCommand.run(["render", "small.yaml"], in: folder)
        #expect(scene.status == 1)
        #expect(scene.stderr.contains("small.yaml:1:35: canvas.scale: scale 0.009 is out of range 0.01…64"))
    }

    /// The corner layer spans x, y −40…20, so the point (−10, 5) is on it at local (−10 + 40, 5 + 40) = (30, 45).
    @Test("hit takes a negative point without `--`", arguments: [
        (["-10,5"], "(-10.00, 5.00)", "corner at local (30.00, 45.00)"),
        (["-10,-5", "--policy", "tree"], "(-10.00, -5.00)", "corner at local (30.00, 35.00)"),
        (["--policy", "tree", "-30.5,-1e1"], "(-30.50, -10.00)", "corner at local (9.50, 30.00)"),
        (["--", "-10,5"], "(-10.00, 5.00)", "corner at local (30.00, 45.00)"),
    ])
    func negativePoint(_ arguments: [String], _ point: String, _ answer: String) throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["hit", "s.yaml"] + arguments, in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "touch at \(point) in s.yaml")
        #expect(lines.dropFirst().first == "tree:          \(answer), depth 0.00")
    }

    @Test("hit still names an unknown option, a bad point, a missing one and a second one", arguments: [
        (["-10,5", "--bogus"], "Error: Unknown option '--bogus'."),
        (["-x"], "Error: Unknown option '-x'."),
        (["1,nan"], "Error: '1,nan' is not a point: expected X,Y with finite numbers, e.g. 120,80 or -10,5."),
        ([], "Error: Missing the point <X,Y> (canvas coordinates, e.g. 120,80 or -10,5), or --points, --grid or --expect."),
        (["1,2", "-3,4"], "Error: One point <X,Y> at a time; got 1,2 -3,4 (use --points for many)."),
    ])
    func badPoints(_ arguments: [String], _ message: String) throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["hit", "s.yaml"] + arguments, in: folder)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix(message + "\n"), "\(r.stderr)")
    }
}
