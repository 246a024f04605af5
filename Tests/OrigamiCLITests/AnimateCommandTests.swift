import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// `origami animate` run as a process: the GIF, PNG-folder and ffmpeg outputs as a user gets them (read back with
/// gifsicle and ffprobe, independent of the writer), the checks made before any frame is rendered, and the
/// absence of any output or temporary file after an error.
@Suite("origami animate, run as a process")
struct AnimateCommandTests {
    /// 40×30 points: a blue canvas with a red square.
    private static let scene = "canvas: {size: [40, 30], background: \"#3366cc\"}\nlayers:\n  - {name: box, frame: [10, 5, 20, 20], backgroundColor: red}\n"

    private func sceneFolder(_ text: String = scene) throws -> URL {
        let folder = try SpecialFiles.folder("origami-animate")
        try text.write(to: folder.appendingPathComponent("s.yaml"), atomically: false, encoding: .utf8)
        return folder
    }

    private static func output(_ tool: String, _ arguments: [String]) throws -> String {
        String(decoding: try ExternalTool.run(tool, arguments).stdout, as: UTF8.self)
    }

    /// Width and height from a PNG's IHDR (bytes 16–23, big-endian).
    private func pngSize(_ url: URL) throws -> (Int, Int) {
        let d = [UInt8](try Data(contentsOf: url).prefix(24))
        try #require(d.count == 24 && d[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be(_ i: Int) -> Int { d[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    // MARK: GIF

    @Test("a GIF has one image per frame, the canvas size, the delay of the frame rate, and loops",
          .enabled(if: ExternalTool.path("gifsicle") != nil, "gifsicle is not installed (Debian package gifsicle)"))
    func gif() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "a.gif", "--to", "1", "--fps", "10"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote a.gif (10 frames, 40×30, 10 fps)\n")
        #expect(r.stderr == "")
        #expect(try SpecialFiles.entries(folder) == ["a.gif", "s.yaml"])
        let info = try Self.output(try #require(ExternalTool.path("gifsicle")), ["--info", folder.appendingPathComponent("a.gif").path])
        #expect(info.contains("10 images"))
        #expect(info.contains("logical screen 40x30"))
        #expect(info.contains("loop forever"))
        // 1 s at 10 fps: every delay is 10 cs.
        #expect(info.components(separatedBy: "delay 0.10s").count - 1 == 10)
    }

    @Test("30 fps alternates 3 and 4 centiseconds so six frames last 20 cs",
          .enabled(if: ExternalTool.path("gifsicle") != nil, "gifsicle is not installed (Debian package gifsicle)"))
    func thirtyFPS() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "a.gif", "--frames", "6", "--fps", "30"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let info = try Self.output(try #require(ExternalTool.path("gifsicle")), ["--info", folder.appendingPathComponent("a.gif").path])
        // Frame k ends at round(100(k+1)/30) cs = 3, 7, 10, 13, 17, 20.
        let delays = info.split(separator: "\n").compactMap { line in
            line.range(of: "delay ").map { String(line[$0.upperBound...]) }
        }
        #expect(delays == ["0.03s", "0.04s", "0.03s", "0.03s", "0.04s", "0.03s"])
    }

    @Test("a GIF faster than 50 fps is refused before anything is read or written")
    func gifTooFast() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "a.gif", "--to", "1", "--fps", "60"], in: folder)
        #expect(r.status == 1)
        #expect(r.stderr == "error: --fps 60 is too fast for a GIF: its delays are whole centiseconds, and browsers slow delays under 2 cs to 10 cs; use --fps 50 or less, or write .mp4 or .webm\n")
        #expect(try SpecialFiles.entries(folder) == ["s.yaml"])
    }

    // MARK: PNG folder

    @Test("a folder receives frame-0001.png … one PNG per frame at the canvas size")
    func pngFolder() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "frames/", "--frames", "12", "--fps", "24", "--scale", "2"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote frames/ (frame-NNNN.png × 12, 80×60, 24 fps)\n")
        let frames = folder.appendingPathComponent("frames")
        #expect(try SpecialFiles.entries(frames) == (1...12).map { String(format: "frame-%04d.png", $0) })
        for name in try SpecialFiles.entries(frames) {
            #expect(try pngSize(frames.appendingPathComponent(name)) == (80, 60))
        }
    }

    @Test("a folder holding anything is refused; --force replaces only the earlier frames")
    func folderOwnership() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let frames = folder.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: frames.appendingPathComponent("notes.txt"))
        try Data("old".utf8).write(to: frames.appendingPathComponent("frame-0009.png"))
        let refused = try OrigamiCommand.run(["animate", "s.yaml", "-o", "frames", "--frames", "2"], in: folder)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: \(frames.path) is not empty (2 entries: frame-0009.png, notes.txt); choose an empty or new folder, or pass --force to write into it (its frame-NNNN.png files are removed first; nothing else is touched)\n")
        #expect(try SpecialFiles.entries(frames) == ["frame-0009.png", "notes.txt"])
        let forced = try OrigamiCommand.run(["animate", "s.yaml", "-o", "frames", "--frames", "2", "--force"], in: folder)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try SpecialFiles.entries(frames) == ["frame-0001.png", "frame-0002.png", "notes.txt"])
        #expect(try Data(contentsOf: frames.appendingPathComponent("notes.txt")) == Data("keep".utf8))
    }

    // MARK: ffmpeg

    @Test("MP4 and WebM through ffmpeg have every frame; odd sides are padded to even",
          .enabled(if: ExternalTool.path("ffmpeg") != nil && ExternalTool.path("ffprobe") != nil, "ffmpeg is not installed (Debian package ffmpeg)"),
          arguments: [("mp4", "h264"), ("webm", "vp9")])
    func video(_ ext: String, _ codec: String) throws {
        let folder = try sceneFolder("canvas: {size: [41, 31]}\nlayers:\n  - {frame: [10, 5, 20, 20], backgroundColor: red}\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "v.\(ext)", "--frames", "7", "--fps", "10"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try SpecialFiles.entries(folder) == ["s.yaml", "v.\(ext)"])
        let probe = try Self.output(try #require(ExternalTool.path("ffprobe")), [
            "-v", "error", "-count_frames", "-select_streams", "v:0",
            "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0",
            folder.appendingPathComponent("v.\(ext)").path])
        #expect(probe.trimmingCharacters(in: .whitespacesAndNewlines) == "\(codec),42,32,7")
    }

    @Test("without ffmpeg on PATH, video is refused naming the Debian package, before any frame")
    func noFFmpeg() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "v.mp4", "--to", "1"], in: folder,
                                       environment: ["PATH": empty.path])
        #expect(r.status == 1)
        #expect(r.stderr == "error: ffmpeg is not installed (no `ffmpeg` on PATH), and MP4 and WebM are written through it; install the Debian package `ffmpeg` (apt-get install ffmpeg), or write a .gif or a folder of PNGs\n")
        #expect(try SpecialFiles.entries(folder) == ["bin", "s.yaml"])
    }

    @Test("ffmpeg's failure is reported with what it printed, and its output is removed", arguments: [
        // Reads every frame, then fails (a muxer error at the end).
        ("cat >/dev/null; echo 'muxer exploded' >&2; exit 3", "error: ffmpeg failed (exit status 3):\nmuxer exploded\n"),
        // Dies at once (an unknown encoder): writing the frames meets a closed pipe, not a hang or SIGPIPE.
        ("echo 'Unknown encoder' >&2; exit 1", "error: ffmpeg stopped before it had every frame (exit status 1):\nUnknown encoder\n"),
    ])
    func ffmpegFails(_ script: String, _ message: String) throws {
        let folder = try sceneFolder("canvas: {size: [400, 400]}\nlayers: []\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: false)
        let fake = bin.appendingPathComponent("ffmpeg")
        try "#!/bin/sh\n\(script)\n".write(to: fake, atomically: false, encoding: .utf8)
        try SpecialFiles.setMode(fake, 0o755)
        // 60 frames of 400×400 RGB (29 MB) is far more than a pipe holds.
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "v.mp4", "--frames", "60", "--quiet"], in: folder,
                                       environment: ["PATH": bin.path + ":/usr/bin:/bin"])
        #expect(r.status == 1)
        #expect(r.stderr == message)
        #expect(try SpecialFiles.entries(folder) == ["bin", "s.yaml"])
    }

    // MARK: Checks before rendering

    @Test("bad frame rates are refused with the allowed range", arguments: ["0", "-1", "nan", "inf", "2000"])
    func badFPS(_ fps: String) throws {
        let r = try OrigamiCommand.run(["animate", "Models/lit-cube.yaml", "-o", "/nonexistent/a.gif", "--to", "1", "--fps=\(fps)"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("Error: --fps must be more than 0 and at most 1000 frames per second.\n"))
    }

    @Test("time ranges and frame counts are checked", arguments: [
        (["--from", "2", "--to", "1"], "Error: --from (2 s) must be before --to (1 s).\n"),
        (["--to", "1", "--frames", "3"], "Error: Give --to or --frames, not both.\n"),
        (["--to", "1000"], "Error: the animation would have 30000 frames, more than the limit of 10000; shorten --from…--to, lower --fps, or raise --max-frames.\n"),
        (["--frames", "0"], "Error: --frames must be at least 1.\n"),
        (["--to", "1", "--jobs", "0"], "Error: --jobs must be at least 1.\n"),
    ])
    func badRanges(_ options: [String], _ message: String) throws {
        let r = try OrigamiCommand.run(["animate", "Models/lit-cube.yaml", "-o", "/nonexistent/a.gif"] + options)
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix(message), "\(r.stderr)")
    }

    @Test("without --to or --frames, a scene with no animations is refused (nothing written)")
    func noAnimationsNoDefaultRange() throws {
        let r = try OrigamiCommand.run(["animate", "Models/lit-cube.yaml", "-o", "/nonexistent/a.gif"])
        #expect(r.status == 1)
        #expect(r.stderr == "error: Models/lit-cube.yaml has no animations, so there is no time range to default to; give --to (seconds) or --frames\n")
    }

    /// The turntable turns once in 6 s, repeating for ever: by default one cycle, 6 s × 2 fps = 12 frames, and
    /// frame i is the scene at i / 2 s — frame 4 (t = 1.5 s) is exactly what `render --time 1.5` draws.
    @Test("the default range is one cycle of the scene's animations, each frame the scene at its time")
    func defaultRangeAndFrameTimes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-animate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try OrigamiCommand.run(["animate", "Models/turntable.yaml", "-o", dir.path + "/", "--fps", "2", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try SpecialFiles.entries(dir).count == 12)
        let still = dir.appendingPathComponent("still.png")
        let s = try OrigamiCommand.run(["render", "Models/turntable.yaml", "-o", still.path, "--time", "1.5"])
        #expect(s.status == 0, "\(s.stderr)")
        let frame = try Bitmap(contentsOfPNG: dir.appendingPathComponent("frame-0004.png"))
        let rendered = try Bitmap(contentsOfPNG: still)
        #expect(frame.pixels == rendered.pixels)
        let first = try Bitmap(contentsOfPNG: dir.appendingPathComponent("frame-0001.png"))
        #expect(first.pixels != rendered.pixels)
    }

    @Test("outputs whose format cannot be told, read-only files and the scene itself are refused, untouched")
    func refusedOutputs() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = folder.appendingPathComponent("locked.gif")
        try Data("old".utf8).write(to: locked)
        try SpecialFiles.setMode(locked, 0o444)
        try FileManager.default.linkItem(at: folder.appendingPathComponent("s.yaml"), to: folder.appendingPathComponent("hard.gif"))
        let cases: [(String, String)] = [
            ("x.png", "error: cannot write an animation to x.png: a PNG sequence is written into a folder; end the path with / (e.g. -o x/)\n"),
            ("x.jpg", "error: cannot tell the format of x.jpg from its extension; use .gif, .mp4 or .webm, or a folder (a path ending in /) for PNGs\n"),
            ("locked.gif", "error: cannot write \(locked.path): it is read-only; remove it or change its mode\n"),
            ("hard.gif", "error: cannot write \(folder.appendingPathComponent("hard.gif").path): it is the scene file s.yaml; an output never replaces an input\n"),
            ("missing/x.gif", "error: cannot write \(folder.appendingPathComponent("missing/x.gif").path): the folder \(folder.appendingPathComponent("missing").path) does not exist\n"),
        ]
        for (out, message) in cases {
            let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", out, "--to", "1"], in: folder)
            #expect(r.status == 1)
            #expect(r.stderr == message)
        }
        #expect(try Data(contentsOf: locked) == Data("old".utf8))
        #expect(try SpecialFiles.entries(folder) == ["hard.gif", "locked.gif", "s.yaml"])
    }

    @Test("a frame over the render limits is refused before any rendering, naming the options")
    func frameTooLarge() throws {
        let folder = try sceneFolder("canvas: {size: [400, 300]}\nlayers: []\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "a.gif", "--to", "1", "--scale", "50", "--supersample", "2"], in: folder)
        #expect(r.status == 1)
        // 400·50 × 300·50 = 20000×15000, over 16384 a side.
        #expect(r.stderr == "error: each frame would be 20000×15000 pixels, drawn at 2× that to supersample, over the limit of 16384 pixels a side and 256 Mpx; lower --scale (now 50) or --supersample (now 2)\n")
        #expect(try SpecialFiles.entries(folder) == ["s.yaml"])
    }

    // MARK: Film strip and progress

    @Test("--filmstrip writes a labelled contact sheet of the frames, its size derived from the layout")
    func filmStrip() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "a.gif", "--frames", "3", "--filmstrip", "strip.png"], in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote a.gif (3 frames, 40×30, 30 fps) and \(folder.appendingPathComponent("strip.png").path)\n")
        // 3 cells of 200 (the 40×30 frames fit unshrunk, so rows are 30 high), 8-pixel gaps, one 11-point label
        // line (11·1.3 + 6 = 20.3): 8 + 3·208 = 632 wide, 8 + 30 + 20.3 + 8 = 66.3 → 67 high.
        #expect(try pngSize(folder.appendingPathComponent("strip.png")) == (632, 67))
        let bad = try OrigamiCommand.run(["animate", "s.yaml", "-o", "b.gif", "--frames", "3", "--filmstrip", "strip.svg"], in: folder)
        #expect(bad.status == 1)
        #expect(try SpecialFiles.entries(folder) == ["a.gif", "s.yaml", "strip.png"])
    }

    @Test("off a terminal, progress is a plain line every interval; --quiet silences it")
    func progress() throws {
        let folder = try sceneFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try OrigamiCommand.run(["animate", "s.yaml", "-o", "a.gif", "--frames", "3", "--progress-interval", "0"], in: folder)
        #expect(r.status == 0)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(r.stderr)")
        #expect(lines.first?.hasPrefix("animate: 1/3 frames, ") == true && lines.first?.hasSuffix(" s left") == true)
        #expect(lines.last?.hasPrefix("animate: 2/3 frames, ") == true)
        let quiet = try OrigamiCommand.run(["animate", "s.yaml", "-o", "b.gif", "--frames", "3", "--progress-interval", "0", "--quiet"], in: folder)
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "")
    }

    @Test func helpListsAnimate() throws {
        let r = try OrigamiCommand.run(["--help"])
        #expect(r.stdout.contains("  animate "))
        let help = try OrigamiCommand.run(["animate", "--help"])
        for option in ["--fps", "--from", "--to", "--frames", "--filmstrip", "--jobs", "--quiet", "--scale", "--supersample"] {
            #expect(help.stdout.contains(option), "\(option)")
        }
    }
}
