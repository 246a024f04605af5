import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// `origami sweep` as a process: the manifest, frames that know their plan, refusing another sweep's folder,
/// `--force`, the folder lock, `--merge` checking every frame, and sizes checked before any frame is rendered.
@Suite("origami sweep: provenance, run as a process")
struct SweepProvenanceTests {
    private let scene = OrigamiCommand.packageRoot.appendingPathComponent("Models/lighting-sweep.yaml").path
    /// What messages call the scene's sweep: its `sweep:` section's 3 ambients × 3 light directions.
    private var nineVariantSummary: String { "\(scene) varying ambient, light.direction: 9 variants" }

    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-sweep-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private func sweep(_ arguments: [String], into dir: URL) throws -> CommandResult {
        try OrigamiCommand.run(["sweep", scene, "-o", dir.path] + arguments)
    }

    private func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    private func frameNames(_ dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("frames").path).sorted()
    }

    /// The scene's SHA-256 as `sha256sum` prints it: an implementation independent of origami's.
    private func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    @Test func theManifestRecordsSceneDigestPlanOptionsAndVersion() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try sweep(["--scale", "0.25", "--supersample", "2"], into: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let manifest = try json(dir.appendingPathComponent("manifest.json"))
        #expect(manifest["sceneSHA256"] as? String == (try sha256sum(scene)))
        #expect(manifest["scene"] as? String == scene)
        #expect(manifest["tool"] as? String == "origami")
        #expect((manifest["toolVersion"] as? String)?.isEmpty == false)
        #expect(manifest["variantCount"] as? Int == 9)
        let parameters = try #require(manifest["parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["path"] as? String } == ["ambient", "light.direction"])
        #expect(parameters.first?["values"] as? [String] == ["0.2", "0.5", "0.8"])
        #expect(parameters.last?["values"] as? [String] == ["(0, 1, -0.5)", "(1, 0, -0.5)", "(-1, 0.5, -1)"])
        let render = try #require(manifest["render"] as? [String: Any])
        #expect(render["scale"] as? Double == 0.25)
        #expect(render["supersample"] as? Int == 2)
        #expect(render["background"] as? String == "#ecf0f1")
        #expect(render["pngCompression"] as? String == "fast")
        let digest = try #require(manifest["digest"] as? String)
        #expect(digest.count == 64)
        // Every frame records the plan it belongs to.
        for n in 1...9 {
            let frame = try json(dir.appendingPathComponent("frames/variant-000\(n).json"))
            #expect(frame["plan"] as? String == digest, "variant \(n)")
        }
    }

    /// The issue's case: a 2-variant sweep into a folder holding a 9-variant sweep refuses and touches nothing;
    /// with --force it clears the 9 and writes 2.
    @Test func aSweepIntoAnotherSweepsFolderRefusesAndForceClearsIt() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try sweep(["--scale", "0.25"], into: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try SpecialFiles.snapshot(dir)
        #expect(before.keys.filter { $0.hasPrefix("/frames/") }.count == 18)

        let refused = try sweep(["--scale", "0.25", "--vary", "ambient=0.1,0.2"], into: dir)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: \(dir.path) holds another sweep (\(nineVariantSummary); 18 frame files); "
            + "pass --force to clear its frames and outputs first, or choose another --output folder\n")
        #expect(try SpecialFiles.snapshot(dir) == before)

        let forced = try sweep(["--scale", "0.25", "--vary", "ambient=0.1,0.2", "--force"], into: dir)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try frameNames(dir) == ["variant-0001.json", "variant-0001.png", "variant-0002.json", "variant-0002.png"])
        #expect(try json(dir.appendingPathComponent("manifest.json"))["variantCount"] as? Int == 2)
        let csv = try String(contentsOf: dir.appendingPathComponent("lighting.csv"), encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 1 + 2 * 6)   // the header, then the cube's 6 faces per variant
    }

    /// --force clears what a sweep writes, and nothing else.
    @Test func forceLeavesOtherFilesAlone() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try sweep(["--scale", "0.25", "--vary", "ambient=0.1,0.2,0.3"], into: dir)
        try Data("mine".utf8).write(to: dir.appendingPathComponent("frames/notes.txt"))
        try Data("mine".utf8).write(to: dir.appendingPathComponent("frames/variant-final.png"))
        let forced = try sweep(["--scale", "0.25", "--vary", "ambient=0.5", "--force"], into: dir)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try frameNames(dir) == ["notes.txt", "variant-0001.json", "variant-0001.png", "variant-final.png"])
    }

    /// The issue's case: two shards run with different --vary. Into one folder, the second refuses; rendered
    /// apart and gathered into one folder, --merge names the frame that does not belong and writes nothing.
    @Test func shardsWithDifferentVaryDoNotMerge() throws {
        let a = try temporaryFolder(), b = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: a); try? FileManager.default.removeItem(at: b) }
        let shard1 = try sweep(["--scale", "0.25", "--vary", "ambient=0.1,0.2", "--shard", "1/2"], into: a)
        #expect(shard1.status == 0, "\(shard1.stderr)")
        let before = try SpecialFiles.snapshot(a)
        let shard2 = try sweep(["--scale", "0.25", "--vary", "ambient=0.3,0.4", "--shard", "2/2"], into: a)
        #expect(shard2.status == 1)
        #expect(shard2.stderr.hasPrefix("error: \(a.path) holds another sweep (\(scene) varying ambient: 2 variants; 2 frame files)"))
        #expect(try SpecialFiles.snapshot(a) == before)

        let elsewhere = try sweep(["--scale", "0.25", "--vary", "ambient=0.3,0.4", "--shard", "2/2"], into: b)
        #expect(elsewhere.status == 0, "\(elsewhere.stderr)")
        for ext in ["png", "json"] {
            try FileManager.default.copyItem(at: b.appendingPathComponent("frames/variant-0002.\(ext)"),
                                             to: a.appendingPathComponent("frames/variant-0002.\(ext)"))
        }
        let planA = try #require(try json(a.appendingPathComponent("manifest.json"))["digest"] as? String)
        let planB = try #require(try json(b.appendingPathComponent("manifest.json"))["digest"] as? String)
        let merge = try sweep(["--vary", "ambient=0.1,0.2", "--merge"], into: a)
        #expect(merge.status == 1)
        #expect(merge.stderr == "error: frames/variant-0002.json belongs to another sweep (plan \(planB.prefix(12)), "
            + "this sweep's plan is \(planA.prefix(12))); render its variant again, or the whole sweep with --force\n")
        for output in ["sheet.png", "lighting.csv", "lighting.json"] {
            #expect(!FileManager.default.fileExists(atPath: a.appendingPathComponent(output).path))
        }

        // Merging with the other shard's --vary is refused at the manifest.
        let other = try sweep(["--vary", "ambient=0.3,0.4", "--merge"], into: a)
        #expect(other.status == 1)
        #expect(other.stderr == "error: \(a.path) holds a sweep of other parameters (ambient=0.1,0.2); this sweep varies "
            + "ambient=0.3,0.4; run --merge with the --vary, --zip and --set the shards used\n")
    }

    @Test func mergeIntoAFolderWithoutASweepSaysSo() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let merge = try sweep(["--merge"], into: dir)
        #expect(merge.status == 1)
        #expect(merge.stderr == "error: \(dir.path) holds no sweep (no manifest.json); render the sweep (or its shards) into it first\n")
    }

    /// A frame JSON that does not decode is named with what is wrong, not reported as a raw DecodingError.
    @Test func anEditedFrameIsNamedWithTheProblem() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try sweep(["--scale", "0.25"], into: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let frame = dir.appendingPathComponent("frames/variant-0003.json")
        try Data("{ \"variant\": 3, ".utf8).write(to: frame)
        let broken = try sweep(["--merge"], into: dir)
        #expect(broken.status == 1)
        #expect(broken.stderr == "error: frames/variant-0003.json cannot be read: not valid JSON; "
            + "render its variant again (--shard, or the whole sweep with --force)\n")
        try Data(#"{"variant": 3, "parameters": [], "plan": "x"}"#.utf8).write(to: frame)
        let missing = try sweep(["--merge"], into: dir)
        #expect(missing.stderr == "error: frames/variant-0003.json cannot be read: the key `faces` is missing; "
            + "render its variant again (--shard, or the whole sweep with --force)\n")
        try Data(#"{"variant": "three", "parameters": [], "faces": []}"#.utf8).write(to: frame)
        let mistyped = try sweep(["--merge"], into: dir)
        #expect(mistyped.stderr == "error: frames/variant-0003.json cannot be read: expected Int at `variant`; "
            + "render its variant again (--shard, or the whole sweep with --force)\n")
    }

    /// Frames of this plan under another variant's name (swapped by hand) are named too.
    @Test func aFrameUnderAnotherVariantsNameIsNamed() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try sweep(["--scale", "0.25"], into: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let frames = dir.appendingPathComponent("frames")
        try FileManager.default.removeItem(at: frames.appendingPathComponent("variant-0002.json"))
        try FileManager.default.copyItem(at: frames.appendingPathComponent("variant-0003.json"),
                                         to: frames.appendingPathComponent("variant-0002.json"))
        let merge = try sweep(["--merge"], into: dir)
        #expect(merge.status == 1)
        // Variant 2 is the first ambient with the second direction, variant 3 with the third.
        #expect(merge.stderr == "error: frames/variant-0002.json records variant 3 with ambient=0.2, "
            + "light.direction=(-1, 0.5, -1), not variant 2 with ambient=0.2, light.direction=(1, 0, -0.5); "
            + "render its variant again, or the whole sweep with --force\n")
    }

    /// A running sweep holds a shared lock on `.origami-sweep.lock`: another plan is refused, even with --force,
    /// while a shard of the same plan may run beside it.
    @Test func theFolderLockRefusesAnotherSweepButNotAShard() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try sweep(["--scale", "0.25"], into: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let fd = open(dir.appendingPathComponent(".origami-sweep.lock").path, O_RDWR)
        try #require(fd >= 0)
        defer { close(fd) }
        try #require(flock(fd, LOCK_SH) == 0)   // as a sweep of the manifest's plan holds it while it renders
        let before = try SpecialFiles.snapshot(dir)

        let other = try sweep(["--scale", "0.25", "--vary", "ambient=0.1", "--force"], into: dir)
        #expect(other.status == 1)
        #expect(other.stderr == "error: another sweep is writing into \(dir.path) (\(nineVariantSummary)); wait for it "
            + "to finish, or choose another --output folder (shards of one sweep may run at once)\n")
        #expect(try SpecialFiles.snapshot(dir) == before)
        let merge = try sweep(["--merge"], into: dir)
        #expect(merge.status == 0, "\(merge.stderr)")

        let shard = try sweep(["--scale", "0.25", "--shard", "2/3"], into: dir)
        #expect(shard.status == 0, "\(shard.stderr)")

        try #require(flock(fd, LOCK_UN) == 0)
        let after = try sweep(["--scale", "0.25", "--vary", "ambient=0.1", "--force"], into: dir)
        #expect(after.status == 0, "\(after.stderr)")
    }

    /// Two real sweeps at once: the second (another plan) is refused while the first renders 400 frames.
    @Test func twoSweepsAtOnceIntoOneFolder() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let values = (0..<400).map { String(Double($0) / 400) }.joined(separator: ",")
        let long = Process()
        long.executableURL = OrigamiCommand.executable
        long.arguments = ["sweep", scene, "-o", dir.path, "--vary", "ambient=" + values, "--shard", "1/1",
                          "--scale", "0.5", "--jobs", "1"]
        long.standardOutput = FileHandle.nullDevice
        long.standardError = FileHandle.nullDevice
        try long.run()
        defer { long.waitUntilExit() }
        // Started once the manifest is written (the claim is done); the frames take seconds.
        let manifest = dir.appendingPathComponent("manifest.json").path
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: manifest), long.isRunning, Date() < deadline { usleep(5_000) }
        try #require(long.isRunning, "the first sweep finished before the second started")
        let second = try sweep(["--scale", "0.5", "--vary", "ambient=0.5"], into: dir)
        #expect(second.status == 1)
        #expect(second.stderr.hasPrefix("error: another sweep is writing into \(dir.path) (\(scene) varying ambient: 400 variants)"))
        long.waitUntilExit()
        #expect(long.terminationStatus == 0)
        #expect(try frameNames(dir).count == 800)
    }

    /// 101 × 100 = 10 100 variants: names have five digits, so they sort in variant order.
    @Test func frameNamesStaySortablePastNineThousandNineHundredNinetyNine() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ambients = (0...100).map { String(Double($0) / 100) }.joined(separator: ",")
        let intensities = (1...100).map(String.init).joined(separator: ",")
        let r = try sweep(["--vary", "ambient=" + ambients, "--vary", "light.intensity=" + intensities,
                           "--max-variants", "20000", "--shard", "1/5000", "--scale", "0.1"], into: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "rendered 3 of 10100 variants into \(dir.path)/frames\n")
        #expect(try frameNames(dir) == ["variant-00001.json", "variant-00001.png", "variant-05001.json",
                                        "variant-05001.png", "variant-10001.json", "variant-10001.png"])
    }

    /// The help says values are separated by commas: colour names too.
    @Test func varyColoursSeparatedByCommas() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try sweep(["--scale", "0.25", "--vary", "light.color=red,blue"], into: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try String(contentsOf: dir.appendingPathComponent("lighting.csv"), encoding: .utf8).split(separator: "\n")
        #expect(rows.first?.hasPrefix("variant,light.color,") == true)
        #expect(rows.filter { $0.hasPrefix("1,#ff0000,") }.count == 6)
        #expect(rows.filter { $0.hasPrefix("2,#0000ff,") }.count == 6)
    }

    // Contact sheets too large for a canvas: SweepAtScaleTests.

    @Test func theHelpSaysWhatASweepWritesAndGuards() throws {
        let r = try OrigamiCommand.run(["sweep", "--help"])
        #expect(r.status == 0)
        let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for phrase in ["manifest.json (the scene's SHA-256, the parameters, grid or zip, the --set values, the render options)",
                       "plots/",
                       "it checks every frame against the manifest", "unless --force clears it", "(.origami-sweep.lock)",
                       "--force Clear another sweep's frames and outputs from the output folder before rendering."] {
            #expect(text.contains(phrase), "\(phrase)")
        }
        let both = try OrigamiCommand.run(["sweep", scene, "--merge", "--force"])
        #expect(both.status != 0 && both.status != 1)
        #expect(both.stderr.contains("--force clears the folder before rendering: run --merge without it."))
    }

    /// 300 points at scale 64 is 19200 pixels a side.
    @Test func aFrameTooLargeIsRefusedBeforeAnyFrame() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let r = try sweep(["--scale", "64"], into: out)
        #expect(r.status == 1)
        #expect(r.stderr == "error: each frame would be 19200×19200 pixels, over the limit of 16384 pixels a side and "
            + "256 Mpx; lower --scale (now 64)\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
