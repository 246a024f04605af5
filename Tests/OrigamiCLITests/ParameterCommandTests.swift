import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// `--set` and `--vary` over scene parameters, run as a process on `Models/turning-cube.yaml`: a cube of
/// edge 120 centred in its container, turned by `rotate y $yaw`, under `rotate x $tilt` (default −20°).
///
/// Which face the canvas centre shows, by hand: the central ray passes through the cube's centre (the cube
/// and the camera's anchor are both at the container's centre), so it leaves the cube through the face whose
/// normal is most towards the viewer. `rotate y θ` maps a normal n to n·Ry (m13 = −sin θ, m31 = sin θ): front
/// (0, 0, 1) → z = cos θ, left (−1, 0, 0) → z = sin θ, right (1, 0, 0) → z = −sin θ, back → z = −cos θ.
/// So θ = 0 shows the front (red), 90° the left (blue), −90° the right (green), 180° the back (yellow); the
/// tilt of 20° gives the top only sin 20° = 0.34 against cos 20° = 0.94.
@Suite("Scene parameters on the command line, run as a process")
struct ParameterCommandTests {
    private let scene = OrigamiCommand.packageRoot.appendingPathComponent("Models/turning-cube.yaml").path

    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-params-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Which of red, green and blue dominates the (opaque) pixel, or "yellow" when red and green both beat
    /// blue by far and are close to each other (Lambert shading scales the channels alike).
    private func hue(_ image: Bitmap, _ x: Int, _ y: Int) -> String {
        let p = image[x, y]
        // ARGB, premultiplied (opaque here).
        let r = Int((p >> 16) & 0xFF), g = Int((p >> 8) & 0xFF), b = Int(p & 0xFF)
        if r > 2 * b, g > 2 * b, abs(r - g) < r / 4 { return "yellow" }
        if r > g, r > b { return "red" }
        if g > r, g > b { return "green" }
        return b > r && b > g ? "blue" : "grey"
    }

    @Test(arguments: [("0", "red"), ("90", "blue"), ("-90", "green"), ("180", "yellow")])
    func renderWithSetShowsTheFaceTheGeometrySays(_ yaw: String, _ expected: String) throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("cube.png")
        let r = try OrigamiCommand.run(["render", scene, "--set", "yaw=\(yaw)", "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(hue(try Bitmap(contentsOfPNG: out), 150, 150) == expected)
    }

    /// At yaw 90° the central ray, tilted 20° in the cube's space, crosses the left face (x = −60) at
    /// y = 60·tan 20° = 21.84 above its centre: local (60, 60 − 21.84) = (60.00, 38.16).
    @Test func hitWithSetAnswersForTheTurnedCube() throws {
        let r = try OrigamiCommand.run(["hit", scene, "150,150", "--set", "yaw=90"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("frontmost:     left of solid cube at local (60.00, 38.16)"), "\(r.stdout)")
        let two = try OrigamiCommand.run(["hit", scene, "150,150", "--set", "yaw=90", "--set", "tilt=0"])
        #expect(two.stdout.contains("frontmost:     left of solid cube at local (60.00, 60.00)"), "\(two.stdout)")
    }

    /// Every command that reads a scene takes `--set`, checked the same way, before anything is written.
    @Test(arguments: [["render"], ["hit", "150,150"], ["hitmap"], ["inspect"], ["sweep"]])
    func everySceneCommandChecksSet(_ command: [String]) throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent(command[0] == "sweep" ? "sweep" : "out.png").path
        let writes = ["render", "hitmap", "sweep"].contains(command[0])
        let base = [command[0], scene] + command.dropFirst() + (writes ? ["-o", out] : [])
        let unknown = try OrigamiCommand.run(base + ["--set", "yw=10"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "error: --set yw=10: the scene has no parameter `yw`; did you mean `yaw`?\n")
        let outside = try OrigamiCommand.run(base + ["--set", "tilt=-95"])
        #expect(outside.status == 1)
        #expect(outside.stderr == "error: --set tilt=-95: -95 is outside the range -90…90 of `tilt`; the scene declares `tilt` in -90…90\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func setSyntaxIsAUsageError() throws {
        let r = try OrigamiCommand.run(["render", scene, "--set", "yaw"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--set yaw: `yaw` is not NAME=VALUE; e.g. --set yaw=30."), "\(r.stderr)")
        let twice = try OrigamiCommand.run(["render", scene, "--set", "yaw=1", "--set", "yaw=2"])
        #expect(twice.status == 64)
        #expect(twice.stderr.contains("--set yaw is given twice."), "\(twice.stderr)")
    }

    /// A sweep over yaw: each frame shows the face the geometry says, and the CSV has a `yaw` column.
    @Test func sweepOverYawRendersTheFacesTheGeometrySays() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--vary", "yaw=-90:180:90", "--jobs", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let expected = ["green", "red", "blue", "yellow"]   // yaw −90, 0, 90, 180
        for (i, colour) in expected.enumerated() {
            let frame = try Bitmap(contentsOfPNG: dir.appendingPathComponent("frames/variant-000\(i + 1).png"))
            #expect(hue(frame, 150, 150) == colour, "variant \(i + 1)")
        }
        let csv = try String(contentsOf: dir.appendingPathComponent("lighting.csv"), encoding: .utf8)
        let lines = csv.split(separator: "\n")
        #expect(lines.first?.hasPrefix("variant,yaw,treeIndex,") == true)
        // Six faces per variant, each row starting with the variant and its yaw.
        let prefixes: [String] = lines.dropFirst().map { $0.split(separator: ",").prefix(2).joined(separator: ",") }
        #expect(prefixes == ["1,-90", "2,0", "3,90", "4,180"].flatMap { Array(repeating: $0, count: 6) })
    }

    @Test func zipVariesTogetherAndRecordsIt() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--vary", "yaw=0,90", "--vary", "tilt=0,-10", "--zip"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "wrote 2 variants: \(dir.path)/sheet.png, lighting.csv, lighting.json, plots/\n")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as? [String: Any])
        #expect(manifest["combination"] as? String == "zip")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("frames/variant-0002.json"))) as? [String: Any])
        #expect(record["parameters"] as? [[String]] == [["yaw", "90"], ["tilt", "-10"]])
        // A merge of the same --vary as a grid is another plan.
        let merge = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--vary", "yaw=0,90", "--vary", "tilt=0,-10", "--merge"])
        #expect(merge.status == 1)
        #expect(merge.stderr.contains("holds a sweep of other parameters (yaw=0,90 tilt=0,-10 (zipped)); this sweep varies yaw=0,90 tilt=0,-10"), "\(merge.stderr)")
        // So is one with other --set values: they are part of the plan.
        let set = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--vary", "yaw=0,90", "--vary", "tilt=0,-10", "--zip",
                                          "--set", "distance=900", "--merge"])
        #expect(set.status == 1)
        #expect(set.stderr.contains("(yaw=0,90 tilt=0,-10 (zipped)); this sweep varies yaw=0,90 tilt=0,-10 (zipped) --set distance=900;"), "\(set.stderr)")
    }

    @Test func sweepErrors() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("sweep").path
        func run(_ vary: [String]) throws -> CommandResult {
            try OrigamiCommand.run(["sweep", scene, "-o", out] + vary.flatMap { ["--vary", $0] } + ["--zip"])
        }
        let mismatch = try run(["yaw=0,90", "tilt=0:-10:5"])
        #expect(mismatch.stderr == "error: --vary tilt=0:-10:5: `tilt`: the range `0:-10:5` is empty; LOW ≤ HIGH and a positive STEP, e.g. 0:90:15\n")
        let lengths = try run(["yaw=0,90", "tilt=-10:0:5"])
        #expect(lengths.stderr == "error: --zip varies parameters together, but `yaw` has 2 values and `tilt` has 3; give every varied parameter as many values, or drop --zip for a grid\n")
        let unknown = try run(["yw=0,90"])
        #expect(unknown.stderr == "error: --vary yw=0,90: unknown sweep parameter `yw`; did you mean `yaw`?\n")
        let outside = try run(["yaw=0,200"])
        #expect(outside.stderr == "error: --vary yaw=0,200: `200` is not a number in -180…180 for `yaw`\n")
        for r in [mismatch, lengths, unknown, outside] { #expect(r.status == 1) }
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

/// A sweep's `plots/`: valid PNG and SVG files, and the numbers they plot are the CSV's.
@Suite("Sweep plots, run as a process")
struct SweepPlotCommandTests {
    private let scene = OrigamiCommand.packageRoot.appendingPathComponent("Models/turning-cube.yaml").path

    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-plots-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private func table(_ url: URL) throws -> (header: [String], rows: [[String]]) {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map { String($0).replacingOccurrences(of: "\"", with: "") }
        }
        return (lines.first ?? [], Array(lines.dropFirst()))
    }

    @Test func plotsAgainstYawPlotTheCSVsNumbers() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--vary", "yaw=-90:90:45"])
        #expect(r.status == 0, "\(r.stderr)")
        let plots = dir.appendingPathComponent("plots")
        #expect(try FileManager.default.contentsOfDirectory(atPath: plots.path).sorted() == [
            "brightness-vs-yaw.csv", "brightness-vs-yaw.png", "brightness-vs-yaw.svg",
            "overlay-alpha-vs-yaw.csv", "overlay-alpha-vs-yaw.png", "overlay-alpha-vs-yaw.svg",
        ])
        for name in ["brightness-vs-yaw", "overlay-alpha-vs-yaw"] {
            let png = try Bitmap(contentsOfPNG: plots.appendingPathComponent(name + ".png"))
            #expect(png.width == 1440 && png.height == 880)
            let svg = try String(contentsOf: plots.appendingPathComponent(name + ".svg"), encoding: .utf8)
            #expect(svg.hasPrefix("<?xml") && svg.contains("<svg") && svg.hasSuffix("</svg>\n"))
        }
        // Per face and yaw: the plotted brightness is the mean of brightnessR, G and B in lighting.csv, and
        // the plotted alpha its overlayAlpha.
        let lighting = try table(dir.appendingPathComponent("lighting.csv"))
        let col = { (name: String) in lighting.header.firstIndex(of: name) ?? -1 }
        let brightness = try table(plots.appendingPathComponent("brightness-vs-yaw.csv"))
        let alpha = try table(plots.appendingPathComponent("overlay-alpha-vs-yaw.csv"))
        #expect(brightness.header == ["yaw", "front", "right", "top", "bottom", "left", "back"])
        #expect(brightness.rows.map { $0[0] } == ["-90", "-45", "0", "45", "90"])
        var compared = 0
        for row in lighting.rows {
            let yaw = row[col("yaw")], face = row[col("layer")]
            let plotted = try #require(brightness.rows.first { $0[0] == yaw }).map { Double($0) }
            let plottedAlpha = try #require(alpha.rows.first { $0[0] == yaw }).map { Double($0) }
            let i = try #require(brightness.header.firstIndex(of: face))
            let mean = (["brightnessR", "brightnessG", "brightnessB"].compactMap { Double(row[col($0)]) }).reduce(0, +) / 3
            #expect(try #require(plotted[i]).isApproximatelyEqual(to: mean, absoluteTolerance: 1e-12), "\(face) at yaw \(yaw)")
            #expect(plottedAlpha[i] == Double(row[col("overlayAlpha")]), "\(face) at yaw \(yaw)")
            compared += 1
        }
        #expect(compared == 30)
    }

    @Test func aGridOfTwoParametersAlsoGetsHeatMaps() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--vary", "yaw=0,90", "--vary", "tilt=-10,0,10"])
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("plots").path)
        let maps = names.filter { $0.hasPrefix("heatmap-") }.sorted()
        #expect(maps == ["back", "bottom", "front", "left", "right", "top"].flatMap {
            ["heatmap-brightness-\($0)-yaw-tilt.png", "heatmap-brightness-\($0)-yaw-tilt.svg"]
        })
        let map = try Bitmap(contentsOfPNG: dir.appendingPathComponent("plots/heatmap-brightness-front-yaw-tilt.png"))
        #expect(map.width == 1440 && map.height == 880)
        // Against yaw, tilt stays at its first value, and the title says so; plots vs tilt exist too.
        #expect(names.contains("brightness-vs-tilt.svg"))
        let zipped = try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--force", "--vary", "yaw=0,90", "--vary", "tilt=-10,0", "--zip"])
        #expect(zipped.status == 0, "\(zipped.stderr)")
        // --force cleared the grid's plots; a zipped sweep draws no heat maps.
        let after = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("plots").path)
        #expect(!after.contains { $0.hasPrefix("heatmap-") })
    }
}
