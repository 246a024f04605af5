import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// `origami sweep` at the sizes batch runs reach, as a process: contact sheets taller than a canvas may be,
/// shards run by GNU parallel and merged, and the progress lines a batch log gets.
@Suite("origami sweep at scale, run as a process")
struct SweepAtScaleTests {
    private let lightingSweep = OrigamiCommand.packageRoot.appendingPathComponent("Models/lighting-sweep.yaml").path
    private let turningCube = OrigamiCommand.packageRoot.appendingPathComponent("Models/turning-cube.yaml").path

    /// A 200×200 canvas filled by one lit wall: every thumbnail is a flat colour, its variant's.
    private static let wall = """
        canvas: {size: [200, 200], background: "#ffffff"}
        layers:
          - name: container
            frame: [0, 0, 200, 200]
            lighting: {model: lambert, ambient: 0.5, lights: [{direction: [0, 0, 1], space: scene}]}
            sublayers:
              - {name: wall, frame: [0, 0, 200, 200], backgroundColor: "#3366cc"}

        """

    /// Width and height from a PNG's IHDR (bytes 16–23, big-endian), read independently of origami.
    private func pngSize(_ url: URL) throws -> (Int, Int) {
        let d = [UInt8](try Data(contentsOf: url).prefix(24))
        try #require(d.count == 24 && d[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be(_ i: Int) -> Int { d[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    /// An opaque premultiplied ARGB pixel as [r, g, b].
    private func channels(_ p: UInt32) -> [Int] { [Int(p >> 16 & 0xFF), Int(p >> 8 & 0xFF), Int(p & 0xFF)] }

    /// The pixel at (x, y) of a PNG as [r, g, b], decoded by ffmpeg: sheets this tall are over what
    /// `Bitmap(contentsOfPNG:)` accepts, and another decoder checks the writer independently.
    private func pixel(_ url: URL, _ x: Int, _ y: Int) throws -> [Int] {
        let ffmpeg = try ExternalTool.run(try #require(ExternalTool.path("ffmpeg")), [
            "-loglevel", "error", "-i", url.path, "-vf", "crop=1:1:\(x):\(y)", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        try #require(ffmpeg.status == 0 && ffmpeg.stdout.count == 3, "ffmpeg read \(ffmpeg.stdout.count) bytes")
        return ffmpeg.stdout.map(Int.init)
    }

    // MARK: Contact sheets of any height

    /// Issue 16's example: 60 ambients × 2 light directions used to stop after rendering every frame ("the
    /// drawing surface would be 17924 pixels on a side"). Two columns of 256-pixel cells (the 300-pixel frames
    /// shrink to 256) under labels of two 11-point lines (2 × 11 × 1.3 + 6 = 34.6): 8 + 2 × (256 + 8) = 536
    /// wide, 8 + 60 × (256 + 34.6 + 8) = 17924 tall, rendered a band at a time.
    @Test(.enabled(if: ExternalTool.path("ffmpeg") != nil, "ffmpeg is not installed (Debian package ffmpeg): it reads the sheet back"))
    func aSheetTallerThanACanvasIsWritten() throws {
        let dir = try SpecialFiles.folder("origami-sweep-tall")
        defer { try? FileManager.default.removeItem(at: dir) }
        let ambients = (0..<60).map { String(Double($0) / 60) }.joined(separator: ",")
        let r = try OrigamiCommand.run(["sweep", lightingSweep, "-o", dir.path, "--quiet", "--vary", "ambient=" + ambients,
                                        "--vary", "light.direction=0,1,-0.5;1,0,-0.5"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote 120 variants: \(dir.path)/sheet.png, lighting.csv, lighting.json, plots/\n")
        let sheetURL = dir.appendingPathComponent("sheet.png")
        #expect(try pngSize(sheetURL) == (536, 17924))
        // The last cell (row 59, column 1) at x = 8 + 264 = 272, y = 8 + 59 × 298.6 = 17625.4 shows variant 120's
        // frame shrunk by 256/300: a point inside one of its faces (the frame flat around it) has the face's colour
        // on the sheet, and so does a point of its background.
        let frame = try Bitmap(contentsOfPNG: dir.appendingPathComponent("frames/variant-0120.png"))
        func flat(_ x: Int, _ y: Int) -> Bool {
            (-6...6).allSatisfy { dy in (-6...6).allSatisfy { dx in frame.pixels[(y + dy) * 300 + x + dx] == frame.pixels[y * 300 + x] } }
        }
        let background = frame.pixels[12 * 300 + 12]
        let inside = try #require(stride(from: 150, to: 280, by: 10).lazy.map { (150, $0) }.first { flat($0.0, $0.1) && frame.pixels[$0.1 * 300 + $0.0] != background })
        for (fx, fy) in [inside, (12, 12)] {
            let expected = channels(frame.pixels[fy * 300 + fx])
            let sx = 272 + Int((Double(fx) * 256 / 300).rounded()), sy = Int((17625.4 + Double(fy) * 256 / 300).rounded())
            let got = try pixel(sheetURL, sx, sy)
            #expect(zip(expected, got).allSatisfy { abs($0 - $1) <= 2 }, "frame (\(fx), \(fy)): \(got) vs \(expected)")
        }
    }

    /// 136 ambients × 2 intensities of 200-pixel frames: at full size the sheet would be 8 + 2 × (256 + 8) = 536
    /// wide and 8 + 136 × (200 + 34.6 + 8) = 33001.6 → 33002 tall, over 32767. The largest cell that fits is the
    /// largest c with 8 + 136 × (c + 42.6) ≤ 32767: c ≤ 32759 / 136 − 42.6 = 198.27, so 198 (the frames shrink to
    /// 198 × 198): 8 + 2 × 206 = 420 wide, 8 + 136 × 240.6 = 32729.6 → 32730 tall.
    @Test(.enabled(if: ExternalTool.path("ffmpeg") != nil, "ffmpeg is not installed (Debian package ffmpeg): it reads the sheet back"))
    func aSheetTallerThanTheLimitGetsSmallerThumbnailsAndSaysSo() throws {
        let dir = try SpecialFiles.folder("origami-sweep-limit")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.wall.write(to: dir.appendingPathComponent("wall.yaml"), atomically: false, encoding: .utf8)
        let ambients = (0..<136).map { String(Double($0) / 200) }.joined(separator: ",")
        let r = try OrigamiCommand.run(["sweep", "wall.yaml", "-o", "out", "--quiet", "--vary", "ambient=" + ambients,
                                        "--vary", "light.intensity=0.5,1"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote 272 variants: \(dir.appendingPathComponent("out").path)/sheet.png, lighting.csv, lighting.json, plots/\n"
            + "note: the contact sheet would be 536×33002 pixels, over 32767 tall: its thumbnails are 198 pixels (not 256)\n")
        let sheetURL = dir.appendingPathComponent("out/sheet.png")
        #expect(try pngSize(sheetURL) == (420, 32730))
        // Cell i (0-based) is at x = 8 + (i mod 2) × 206, y = 8 + ⌊i / 2⌋ × 240.6; probe its centre (+99).
        for variant in [1, 2, 271, 272] {
            let i = variant - 1
            let x = 8 + (i % 2) * 206 + 99, y = Int(8 + Double(i / 2) * 240.6) + 99
            let frame = try Bitmap(contentsOfPNG: dir.appendingPathComponent("out/frames/variant-\(String(format: "%04d", variant)).png"))
            let expected = channels(frame.pixels[100 * frame.width + 100])
            let got = try pixel(sheetURL, x, y)
            #expect(zip(expected, got).allSatisfy { abs($0 - $1) <= 1 }, "variant \(variant): \(got) vs \(expected)")
        }
        // Between the columns (x = 8 + 198 + 4) the sheet is white.
        #expect(try pixel(sheetURL, 210, 32600) == [255, 255, 255])
    }

    /// 641 × 641 values (0 to 1 in steps of 1/640) in a square-ish grid of 641 columns, the cells at their
    /// smallest (16 pixels, the frames shrinking to 16): 8 + 641 × (16 + 8) = 15392 wide and
    /// 8 + 641 × (16 + 34.6 + 8) = 37570.6 → 37571 tall, over 32767. Refused before the folder is made.
    @Test func aSheetThatCannotFitIsRefusedBeforeAnyFrame() throws {
        let dir = try SpecialFiles.folder("origami-sweep-refused")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let r = try OrigamiCommand.run(["sweep", lightingSweep, "-o", out.path, "--vary", "ambient=0:1:0.0015625",
                                        "--vary", "light.intensity=0:1:0.0015625", "--max-variants", "500000"])
        #expect(r.status == 1)
        #expect(r.stderr == "error: the contact sheet would be 15392×37571 pixels even with the smallest thumbnails, "
            + "over the limit of 16384 pixels wide and 32767 tall; vary fewer values\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    // MARK: Batch recipes

    /// The README's GNU parallel recipe: four shards into one folder at once, then `--merge`. Every file —
    /// frames, manifest, CSV, JSON, plots and the contact sheet — is byte for byte the unsharded sweep's.
    @Test("GNU parallel runs 4 shards into one folder; merged, they are the unsharded sweep byte for byte",
          .enabled(if: ExternalTool.path("parallel") != nil, "GNU parallel is not installed (Debian package parallel; `make test` installs it)"))
    func gnuParallelShardsMergeToTheWholeSweep() throws {
        let dir = try SpecialFiles.folder("origami-sweep-parallel")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sharded = dir.appendingPathComponent("sharded"), whole = dir.appendingPathComponent("whole")
        let args = ["sweep", turningCube, "--vary", "yaw=0:150:30", "--vary", "ambient=0.2,0.6", "--scale", "0.5", "--quiet"]
        let run = try ExternalTool.run(try #require(ExternalTool.path("parallel")),
                                       ["--will-cite", "--halt", "now,fail=1", OrigamiCommand.executable.path] + args
                                           + ["-o", sharded.path, "--shard", "{}/4", ":::", "1", "2", "3", "4"])
        let printed = String(decoding: run.stdout, as: UTF8.self)
        #expect(run.status == 0, "\(run.stderr)")
        // 12 variants: shard i renders i, i + 4, i + 8.
        for i in 1...4 {
            #expect(printed.contains("rendered 3 of 12 variants into \(sharded.path)/frames\n"), "shard \(i): \(printed)")
        }
        let merge = try OrigamiCommand.run(args + ["-o", sharded.path, "--merge"])
        #expect(merge.status == 0, "\(merge.stderr)")
        let single = try OrigamiCommand.run(args + ["-o", whole.path])
        #expect(single.status == 0, "\(single.stderr)")
        let a = try SpecialFiles.snapshot(sharded), b = try SpecialFiles.snapshot(whole)
        #expect(a.keys.sorted() == b.keys.sorted())
        #expect(a.keys.contains("/sheet.png") && a.keys.contains("/lighting.json") && a.keys.contains("/frames/variant-0012.png"))
        for (name, data) in b { #expect(a[name] == data, "\(name) differs") }
    }

    // MARK: Progress

    /// Off a terminal (the test's pipe, like a batch log) a plain line after each variant with
    /// `--progress-interval 0`, none after the last; `--quiet` prints none.
    @Test func progressLinesForABatchLogAndQuiet() throws {
        let dir = try SpecialFiles.folder("origami-sweep-progress")
        defer { try? FileManager.default.removeItem(at: dir) }
        let args = ["sweep", turningCube, "--vary", "yaw=0,30,60", "--scale", "0.25", "--jobs", "1", "--progress-interval", "0"]
        let r = try OrigamiCommand.run(args + ["-o", dir.appendingPathComponent("a").path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(r.stderr)")
        for (line, done) in zip(lines, [1, 2]) {
            #expect(line.hasPrefix("sweep: \(done)/3 variants, ") && line.hasSuffix(" s left"), "\(line)")
        }
        let quiet = try OrigamiCommand.run(args + ["-o", dir.appendingPathComponent("b").path, "--quiet"])
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(quiet.stderr == "")
        let negative = try OrigamiCommand.run(args + ["-o", dir.appendingPathComponent("c").path, "--progress-interval=-1"])
        #expect(negative.status != 0 && negative.stderr.contains("--progress-interval must not be negative."))
    }
}
