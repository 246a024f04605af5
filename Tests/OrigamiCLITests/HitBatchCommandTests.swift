import Foundation
import Origami
import OrigamiRender
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport

/// `origami hit` over many points (`--points`, `--grid`), against expectations (`--expect`, `--junit`,
/// `--record`), run as a process.
///
/// The book's cube (`Models/cube-button-interception.yaml`, 400 × 400 canvas). Two answers are derived by hand:
/// - the canvas centre (200, 200): face 4 receives the touch in tree order and in Core Animation's order (no
///   zPosition), face 3 is seen there (depth rank 0, face 4 rank 1) — derived in `HitCommandTests`;
/// - a canvas corner, (5, 5): the cube's vertices lie √3·100 ≈ 173 from its centre, and the nearest a vertex can
///   come to the viewer is z = 173 of the perspective distance 500, so no face projects farther than
///   173 · 500 / (500 − 173) ≈ 265 points from the canvas centre; (5, 5) is 195·√2 ≈ 276 away, outside every
///   face, inside only the container (frame 0, 0, 400, 400), which every policy returns.
@Suite("origami hit over many points and against expectations, run as a process")
struct HitBatchCommandTests {
    static let cube = "Models/cube-button-interception.yaml"

    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-hitflow-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The rows of a CSV answer keyed by column name.
    private func rows(_ csv: String) throws -> [[String: String]] {
        let lines = csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = try #require(lines.first)
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    @Test func pointsFromStandardInputWithAHeader() throws {
        let r = try OrigamiCommand.run(["hit", Self.cube, "--points", "-"], standardInput: "x,y\n200,200\n\n# a corner\n5,5\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
            x,y,tree,coreanimation,frontmost
            200,200,face4,face4,face3
            5,5,container,container,container

            """)
    }

    @Test func pointsFileAsJSONForOnePolicy() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "200,200\n5,5\n".write(to: dir.appendingPathComponent("points.csv"), atomically: true, encoding: .utf8)
        let r = try OrigamiCommand.run(["hit", OrigamiCommand.packageRoot.appendingPathComponent(Self.cube).path,
                                        "--points", "points.csv", "--format", "json", "--policy", "frontmost"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["policies"] as? [String] == ["frontmost"])
        let points = try #require(object["points"] as? [[String: Any]])
        #expect(points.count == 2)
        #expect(points.first?["frontmost"] as? String == "face3" && points.first?["tree"] == nil)
        #expect(points.last?["at"] as? [Double] == [5, 5] && points.last?["frontmost"] as? String == "container")
    }

    @Test func badPointsLineIsLocatedAndNothingIsPrinted() throws {
        let r = try OrigamiCommand.run(["hit", Self.cube, "--points", "-"], standardInput: "x,y\n200,200\n1,abc\n")
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("error: <stdin>:3: `1,abc` is not a point\n"))
    }

    /// `--grid 2x2` over 400 × 400: cells of 200, centres at 100 and 300, row by row.
    @Test func gridOfCellsGivesTheirCentresRowByRow() throws {
        let r = try OrigamiCommand.run(["hit", Self.cube, "--grid", "2x2", "--policy", "tree"])
        #expect(r.status == 0, "\(r.stderr)")
        let points = try rows(r.stdout).map { "\($0["x"] ?? ""),\($0["y"] ?? "")" }
        #expect(points == ["100,100", "300,100", "100,300", "300,300"])
    }

    /// `--grid 150` over 400: floor(400 / 150) = 2 cells a side, centres 75 and 225.
    @Test func gridOfStepCoversTheCellsThatFit() throws {
        let r = try OrigamiCommand.run(["hit", Self.cube, "--grid", "150", "--policy", "tree"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try rows(r.stdout).map { "\($0["x"] ?? ""),\($0["y"] ?? "")" } == ["75,75", "225,75", "75,225", "225,225"])
    }

    @Test func gridTooDenseIsRefusedBeforeAnswering() throws {
        let r = try OrigamiCommand.run(["hit", Self.cube, "--grid", "0.1"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("--grid gives 4000×4000 points over the 400×400 canvas, more than the 4194304 one run answers"))
    }

    /// The 3 600-point grid answers in one process, and at sampled points (each printed coordinate reads back as
    /// the same number) every policy agrees with the single-point command.
    @Test func gridAgreesWithSinglePointRuns() throws {
        let r = try OrigamiCommand.run(["hit", Self.cube, "--grid", "60x60"])
        #expect(r.status == 0, "\(r.stderr)")
        let table = try rows(r.stdout)
        try #require(table.count == 3600)
        // Rows through the cube's middle and its edges, and a spread over the whole grid.
        let samples = Array(stride(from: 0, to: 3600, by: 277)) + [29 * 60 + 29, 30 * 60 + 30, 20 * 60 + 40, 45 * 60 + 15]
        var kinds: Set<String> = []
        for i in samples {
            let row = table[i]
            let point = "\(row["x"] ?? ""),\(row["y"] ?? "")"
            let single = try OrigamiCommand.run(["hit", Self.cube, point, "--json"])
            #expect(single.status == 0, "\(single.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(single.stdout.utf8)) as? [String: Any])
            let answers = try #require(object["answers"] as? [String: Any])
            for policy in ["tree", "coreanimation", "frontmost"] {
                let one = (answers[policy] as? [String: Any])?["layer"] as? String ?? ""
                #expect(row[policy] == one, "at \(point) under \(policy)")
                kinds.insert(one)
            }
        }
        // The samples reach faces as well as the container, so agreement is not trivially about empty canvas.
        #expect(kinds.contains("container") && kinds.contains("face3") && kinds.count >= 4, "\(kinds)")
    }

    /// `--set` and `--time` shape the scene every point is asked of: each row agrees with the single-point
    /// command given the same values, and the values change some answers (so they are not ignored).
    @Test(arguments: [["Models/turning-cube.yaml", "--set", "yaw=90", "--set", "tilt=-40"],
                      ["Models/turntable.yaml", "--time", "1.5"]])
    func parametersAndTimeApplyToEveryPoint(_ sceneAndValues: [String]) throws {
        let scene = sceneAndValues[0], values = Array(sceneAndValues.dropFirst())
        let shaped = try OrigamiCommand.run(["hit", scene, "--grid", "8x8"] + values)
        let plain = try OrigamiCommand.run(["hit", scene, "--grid", "8x8"])
        #expect(shaped.status == 0 && plain.status == 0, "\(shaped.stderr)\(plain.stderr)")
        #expect(shaped.stdout != plain.stdout)
        let table = try rows(shaped.stdout)
        try #require(table.count == 64)
        for i in stride(from: 3, to: 64, by: 9) {
            let row = table[i]
            let single = try OrigamiCommand.run(["hit", scene, "\(row["x"] ?? ""),\(row["y"] ?? "")", "--format", "csv"] + values)
            #expect(single.status == 0, "\(single.stderr)")
            #expect(try rows(single.stdout).first == row, "\(scene) row \(i)")
        }
    }

    @Test func sceneFromStandardInput() throws {
        let text = try String(contentsOf: OrigamiCommand.packageRoot.appendingPathComponent(Self.cube), encoding: .utf8)
        let r = try OrigamiCommand.run(["hit", "-", "200,200", "--policy", "frontmost"], standardInput: text)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("touch at (200.00, 200.00) in <stdin>\nfrontmost:     face3 at local"))
        let broken = try OrigamiCommand.run(["hit", "-", "1,1"], standardInput: "canvas: {size: [10, 10]}\nlayers: [{anchorpoint: [0, 0]}]\n")
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("error: invalid scene <stdin>\n<stdin>:2:11: layers[0].anchorpoint: unknown key"))
        let both = try OrigamiCommand.run(["hit", "-", "--points", "-"], standardInput: text)
        #expect(both.status == 64)
        #expect(both.stderr.contains("The scene and --points cannot both come from standard input."))
    }

    // MARK: Expectations

    static let holding = """
        points:
          - at: [200, 200]
            tree: {layer: face4, depthRank: 1}
            coreanimation: face4
            frontmost: {layer: face3, depthRank: 0}
          - at: [5, 5]
            tree: container
            frontmost: container

        """

    static let differing = """
        points:
          - at: [200, 200]
            tree: {layer: face4, depthRank: 0}
            coreanimation: face4
            frontmost: face4
          - at: [5, 5]
            tree: null

        """

    @Test func expectationsThatHold() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.holding.write(to: dir.appendingPathComponent("cube.yaml"), atomically: true, encoding: .utf8)
        let scene = OrigamiCommand.packageRoot.appendingPathComponent(Self.cube).path
        let r = try OrigamiCommand.run(["hit", scene, "--expect", "cube.yaml", "--junit", "report.xml"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "all 5 expectations hold (2 points) in cube.yaml\n")
        let report = try JUnitReport(contentsOf: dir.appendingPathComponent("report.xml"))
        #expect(report.testcases.count == 5 && report.failures.isEmpty)
        #expect(report.suiteCounts == [["tests": "5", "failures": "0"], ["tests": "5", "failures": "0"]])
    }

    @Test func expectationsThatDoNotHold() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.differing.write(to: dir.appendingPathComponent("cube.yaml"), atomically: true, encoding: .utf8)
        let scene = OrigamiCommand.packageRoot.appendingPathComponent(Self.cube).path
        let r = try OrigamiCommand.run(["hit", scene, "--expect", "cube.yaml", "--junit", "report.xml"], in: dir)
        #expect(r.status == 1)
        #expect(r.stderr.isEmpty)
        #expect(r.stdout == """
            3 of 4 expectations differ in cube.yaml:
              where        point       policy     expected             actual
              cube.yaml:2  (200, 200)  tree       face4, depth rank 0  face4, depth rank 1
              cube.yaml:2  (200, 200)  frontmost  face4                face3
              cube.yaml:6  (5, 5)      tree       nothing              container

            """)
        let report = try JUnitReport(contentsOf: dir.appendingPathComponent("report.xml"))
        #expect(report.testcases.count == 4)
        #expect(report.testcases.map(\.name) == ["(200, 200) tree", "(200, 200) coreanimation", "(200, 200) frontmost", "(5, 5) tree"])
        #expect(report.failures == [
            "expected face4, depth rank 0; got face4, depth rank 1",
            "expected face4; got face3",
            "expected nothing; got container",
        ])
        #expect(report.suiteCounts.last == ["tests": "4", "failures": "3"])
    }

    @Test func expectationsFileErrorsAreLocated() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "points:\n  - at: [200, 200]\n    frontmots: face3\n  - at: [1]\n    tree: face4\n"
            .write(to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
        let scene = OrigamiCommand.packageRoot.appendingPathComponent(Self.cube).path
        let r = try OrigamiCommand.run(["hit", scene, "--expect", "bad.yaml", "--junit", "report.xml"], in: dir)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "error: invalid expectations file bad.yaml (3 problems)")
        #expect(lines.contains("bad.yaml:3:5: points[0].frontmots: unknown key `frontmots`; did you mean `frontmost`?"))
        #expect(lines.contains { $0.hasPrefix("bad.yaml:2:5: points[0]: no expected answer") })
        #expect(lines.contains("bad.yaml:4:9: points[1].at: expected a point [x, y] as a list of 2 numbers, found 1"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("report.xml").path))
    }

    @Test func recordedAnswersHoldAndSayTheyWereRecorded() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = OrigamiCommand.packageRoot.appendingPathComponent(Self.cube).path
        let r = try OrigamiCommand.run(["hit", scene, "--points", "-", "--record", "recorded.yaml"], in: dir,
                                       standardInput: "200,200\n5,5\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "recorded 2 points × 3 policies into recorded.yaml; review before keeping\n")
        let text = try String(contentsOf: dir.appendingPathComponent("recorded.yaml"), encoding: .utf8)
        #expect(text.hasPrefix("# Recorded by origami "))
        #expect(text.contains("  - at: [200, 200]\n    tree: {layer: face4, depthRank: 1}\n    coreanimation: {layer: face4, depthRank: 1}\n    frontmost: {layer: face3, depthRank: 0}\n"))
        let check = try OrigamiCommand.run(["hit", scene, "--expect", "recorded.yaml"], in: dir)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout == "all 6 expectations hold (2 points) in recorded.yaml\n")
    }

    @Test func usageErrors() throws {
        let noSource = try OrigamiCommand.run(["hit", Self.cube])
        #expect(noSource.status == 64)
        #expect(noSource.stderr.contains("Missing the point <X,Y>"))
        let two = try OrigamiCommand.run(["hit", Self.cube, "1,1", "--grid", "10"])
        #expect(two.status == 64)
        #expect(two.stderr.contains("Give one of <X,Y>, --grid, not several."))
        let junitAlone = try OrigamiCommand.run(["hit", Self.cube, "--grid", "10", "--junit", "r.xml"])
        #expect(junitAlone.status == 64)
        #expect(junitAlone.stderr.contains("--junit writes the checks of --expect"))
        let badGrid = try OrigamiCommand.run(["hit", Self.cube, "--grid", "0x3"])
        #expect(badGrid.status == 64)
    }
}

/// A JUnit XML file read with Foundation's XMLParser: the test cases, the failures' messages and each suite's
/// counts. Parsing fails on XML that is not well formed.
private final class JUnitReport: NSObject, XMLParserDelegate {
    struct TestCase { var name: String }
    private(set) var testcases: [TestCase] = []
    private(set) var failures: [String] = []
    private(set) var suiteCounts: [[String: String]] = []

    init(contentsOf url: URL) throws {
        super.init()
        let parser = try #require(XMLParser(contentsOf: url))
        parser.delegate = self
        let parsed = parser.parse()
        try #require(parsed, "\(parser.parserError.map { "\($0)" } ?? "not well formed")")
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "testsuites", "testsuite":
            suiteCounts.append(["tests": attributes["tests"] ?? "", "failures": attributes["failures"] ?? ""])
        case "testcase": testcases.append(TestCase(name: attributes["name"] ?? ""))
        case "failure": failures.append(attributes["message"] ?? "")
        default: break
        }
    }
}

/// The conventions issue 19 asks for: a version, the README's sample as the command prints it, help without
/// doubled defaults, a scene from standard input, numbers without rounding noise.
@Suite("origami command-line conventions, run as a process")
struct CommandConventionTests {
    @Test func versionIsTheOneSweepManifestsRecord() throws {
        let r = try OrigamiCommand.run(["--version"])
        #expect(r.status == 0)
        let manifest = try String(contentsOf: OrigamiCommand.packageRoot.appendingPathComponent("Sources/OrigamiScene/SweepFolder.swift"),
                                  encoding: .utf8)
        let version = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!version.isEmpty && manifest.contains("toolVersion = \"\(version)\""))
    }

    /// The README's `hit` sample is the command's output, character for character.
    @Test func readmeHitSampleIsTheRealOutput() throws {
        let readme = try String(contentsOf: OrigamiCommand.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = "(`origami hit Models/cube-button-interception.yaml 200,200`):\n\n```\n"
        let start = try #require(readme.range(of: marker))
        let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
        let sample = String(readme[start.upperBound..<end.lowerBound])
        let r = try OrigamiCommand.run(["hit", "Models/cube-button-interception.yaml", "200,200"])
        #expect(r.status == 0)
        #expect(r.stdout == sample)
    }

    @Test func helpHasNoDoubledDefaultsOrRaggedLines() throws {
        for command in ["render", "animate", "sweep", "hit", "hitmap", "inspect"] {
            let r = try OrigamiCommand.run([command, "--help"])
            #expect(r.status == 0)
            // argument-parser appends "(default: …)" itself; help text that says it too doubles it.
            let flat = r.stdout.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: #" +"#, with: " ", options: .regularExpression)
            #expect(flat.range(of: #"\(default[^)]*\)\.? \(default"#, options: .regularExpression) == nil, "\(command)")
            #expect(!flat.contains("fast (default)"), "\(command)")
            // Discussion paragraphs are wrapped by the parser: no line stops far short of the width
            // in the middle of a paragraph (a hand-wrapped line).
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let overview = lines.prefix { !$0.hasPrefix("USAGE:") }
            for (i, line) in overview.enumerated() where i + 1 < overview.count {
                let next = overview[overview.index(overview.startIndex, offsetBy: i + 1)]
                guard !line.isEmpty, !next.isEmpty, !next.hasPrefix(" "), !line.hasSuffix(":") else { continue }
                #expect(line.count + 1 + (next.split(separator: " ").first?.count ?? 0) >= 80,
                        "\(command): ragged line \"\(line)\"")
            }
        }
    }

    @Test func renderAndInspectReadAStandardInputScene() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-stdin-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = "canvas: {size: [20, 10]}\nlayers: [{name: red, frame: [0, 0, 10, 10], backgroundColor: red}]\n"
        let noOutput = try OrigamiCommand.run(["render", "-"], in: dir, standardInput: scene)
        #expect(noOutput.status == 64)
        #expect(noOutput.stderr.contains("Give -o FILE"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        let r = try OrigamiCommand.run(["render", "-", "-o", "out.png"], in: dir, standardInput: scene)
        #expect(r.status == 0, "\(r.stderr)")
        // A red 10-point square on the default white canvas, at scale 1.
        let png = try Bitmap(contentsOfPNG: dir.appendingPathComponent("out.png"))
        #expect(png.width == 20 && png.height == 10)
        #expect(png[5, 5] == 0xFFFF_0000 && png[15, 5] == 0xFFFF_FFFF)
        let inspect = try OrigamiCommand.run(["inspect", "-"], standardInput: scene)
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.hasPrefix("scene <stdin>: canvas 20×10 @1.00x\n"))
        let sweep = try OrigamiCommand.run(["sweep", "-"], standardInput: scene)
        #expect(sweep.status == 64)
        #expect(sweep.stderr.contains("sweep reads its scene from a file"))
    }

    /// Face 2 of the book's cube: [translate 100 0 0, rotate y 90]. Rotation by 90° about y (Core Animation's
    /// matrix, row vectors): m11 = cos 90° = 0, m13 = −sin 90° = −1, m31 = sin 90° = 1, m33 = 0; the rotation is
    /// applied before the translation (CATransform3DRotate prepends), so the last row keeps (100, 0, 0, 1).
    /// cos 90° computes to 6.12323e-17, which must print as 0.
    @Test func inspectPrintsNoRoundingNoise() throws {
        let r = try OrigamiCommand.run(["inspect", "Models/cube-button-interception.yaml"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("transform [0 0 -1 0; 0 1 0 0; 1 0 0 0; 100 0 0 1]\n"))
        #expect(!r.stdout.contains("e-1"))
    }
}
