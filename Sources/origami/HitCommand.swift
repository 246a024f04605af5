import ArgumentParser
import Foundation
import Origami
import OrigamiRender
import OrigamiScene

struct HitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit",
        abstract: "Tell which face a touch reaches: at a point, at many points, or checked against expectations.",
        usage: """
            origami hit <scene> <X,Y> [--policy <policy>] [--format <format>]
              origami hit <scene> (--points <file> | --grid <step>|<cols>x<rows>) [--format <format>] [--record <file>]
              origami hit <scene> --expect <file> [--junit <file>]
            """,
        discussion: """
            Points are in canvas coordinates (points, y down); a negative one needs no `--`: `hit s.yaml -10,5`. \
            Policies: `tree` is UIKit's touch delivery (later siblings first, depth ignored: the book's \
            intercepted button), `coreanimation` is -[CALayer hitTest:] (zPosition first), `frontmost` is the face \
            actually seen there. For one point the table lists every layer under it with its tree rank and depth \
            rank.

            Many points are answered in one process: --points reads `x,y` lines (a header line and `#` comments \
            are skipped; - is standard input), --grid takes the centres of STEP×STEP cells over the canvas or of \
            COLS×ROWS cells dividing it. CSV (the default for many points) has a column per policy; an empty field \
            means the touch reaches nothing.

            --expect checks an expectations file (`points:`, each `- at: [x, y]` with the layer expected per \
            policy, or {layer, face, solid, depthRank}; null for nothing), prints what differs and exits with 1 \
            when anything does; --junit writes the checks as JUnit XML for CI. --record writes the current answers \
            as such a file, to review and keep.
            """
    )

    enum Policy: String, ExpressibleByArgument, CaseIterable {
        case tree, coreanimation, frontmost, all
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, csv, json
    }

    @OptionGroup var scene: SceneArgument

    // Collected unparsed, so a point with a negative x (`-10,5`) is not taken for an option; `--` still works.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The touch, in canvas coordinates.", valueName: "X,Y"))
    var unparsed: [String] = []

    @Option(help: ArgumentHelp("Answer every point of this file: x,y per line (- reads standard input).", valueName: "file"))
    var points: String?

    @Option(help: ArgumentHelp("Answer a grid over the canvas: the centres of STEP×STEP-point cells, or of COLSxROWS cells.",
                               valueName: "step|colsxrows"))
    var grid: GridArgument?

    @Option(help: "Which policy's answer to give, or all three.")
    var policy: Policy = .all

    @Option(help: ArgumentHelp("How to print the answers (default: table for one point, csv for many).", valueName: "format"))
    var format: Format?

    @Flag(help: "The same as --format json.")
    var json = false

    @Option(help: ArgumentHelp("Check the answers against this expectations file; exit with 1 when any differs.", valueName: "file"))
    var expect: String?

    @Option(help: ArgumentHelp("With --expect: write the checks as JUnit XML to this file.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the answers at the points as an expectations file, to review and keep.", valueName: "file"))
    var record: String?

    @OptionGroup var time: TimeOption

    private var pointText: [String] { unparsed.filter { $0 != "--" } }

    /// Set once `validate()` has passed.
    var point: PointArgument? { pointText.first.flatMap(PointArgument.init(argument:)) }

    /// The most points one run answers (a 2048 × 2048 grid): a mistyped step must not exhaust memory.
    static let maxPoints = 2048 * 2048

    func validate() throws {
        // Whatever the parser did not recognise lands here: tell an unknown option from a bad point.
        if let unknown = pointText.first(where: { $0.hasPrefix("-") && PointArgument(argument: $0) == nil }) {
            throw ValidationError("Unknown option '\(unknown)'.")
        }
        if let text = pointText.first(where: { PointArgument(argument: $0) == nil }) {
            throw ValidationError("'\(text)' is not a point: expected X,Y with finite numbers, e.g. 120,80 or -10,5.")
        }
        guard pointText.count <= 1 else {
            throw ValidationError("One point <X,Y> at a time; got \(pointText.joined(separator: " ")) (use --points for many).")
        }
        let sources = [pointText.isEmpty ? nil : "<X,Y>", points.map { _ in "--points" }, grid.map { _ in "--grid" },
                       expect.map { _ in "--expect" }].compactMap { $0 }
        guard !sources.isEmpty else {
            throw ValidationError("Missing the point <X,Y> (canvas coordinates, e.g. 120,80 or -10,5), or --points, --grid or --expect.")
        }
        guard sources.count == 1 else { throw ValidationError("Give one of \(sources.joined(separator: ", ")), not several.") }
        if points == "-" && scene.readsStandardInput {
            throw ValidationError("The scene and --points cannot both come from standard input.")
        }
        if junit != nil && expect == nil { throw ValidationError("--junit writes the checks of --expect; give --expect too.") }
        if record != nil && expect != nil {
            throw ValidationError("--record writes answers at --points, --grid or <X,Y>, not at the points of --expect.")
        }
        if expect != nil && (format != nil || json) {
            throw ValidationError("--expect prints what differs; --format and --json are for answers.")
        }
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) disagree.") }
    }

    private var policies: [HitTestPolicy] {
        HitTestPolicy.allCases.filter { policy == .all || $0.commandName == policy.rawValue }
    }

    func run() throws {
        if let expect { return try runExpectations(URL(fileURLWithPath: expect)) }
        // Read the points before the scene, so a bad points file is reported without the scene's work.
        let fromFile = try points.map(readPoints)
        let s = try scene.load(images: .sizeOnly)
        let tree = PresentationTree(s.root, time: time.time)
        var many: [CGPoint]
        if let fromFile {
            many = fromFile
        } else if let grid {
            do { many = try grid.points(over: s.canvas.size, limit: Self.maxPoints) } catch { fail("\(error)") }
        } else {
            guard let p = point?.point else { fail("no point given") }   // validate() has made sure of one
            if let record { return try recordAnswers(at: [p], scene: s, tree: tree, to: URL(fileURLWithPath: record)) }
            switch format ?? (json ? .json : .table) {
            case .table: printTable(at: p, scene: s, tree: tree)
            case .json: printJSON(scene: s, point: p, tree: tree)
            case .csv: printMany([p], scene: s, tree: tree, format: .csv)
            }
            return
        }
        if let record { return try recordAnswers(at: many, scene: s, tree: tree, to: URL(fileURLWithPath: record)) }
        printMany(many, scene: s, tree: tree, format: format ?? (json ? .json : .csv))
    }

    // MARK: One point

    private func printTable(at p: CGPoint, scene s: Scene, tree: PresentationTree) {
        print("touch at \(fmt(p)) in \(scene.displayName)")
        for policy in policies {
            let padded = (policy.commandName + ":").padding(toLength: 15, withPad: " ", startingAt: 0)
            guard let r = tree.hitTestResult(p, policy: policy) else { print("\(padded)nothing"); continue }
            print("\(padded)\(describe(r, in: s))")
        }
        let all = tree.hitTestAll(p)
        if policy == .all || all.count > 1 {
            print("layers under the point (tree rank 0 receives the touch; depth rank 0 is what is seen):")
            print("  tree  depth  layer / face / solid")
            for c in all {
                let culled = c.isCulled ? "  (back face, not drawn)" : ""
                print("  \(String(c.treeRank).padding(toLength: 4, withPad: " ", startingAt: 0))  "
                      + "\(String(c.depthRank).padding(toLength: 5, withPad: " ", startingAt: 0))  "
                      + describe(c.result, in: s) + culled)
            }
        }
    }

    private func describe(_ r: HitTestResult, in s: Scene) -> String {
        var text = label(of: r.layer, in: s)
        if r.face !== r.layer { text += " on face \(label(of: r.face, in: s))" }
        if let solid = r.solid { text += " of solid \(label(of: solid, in: s))" }
        return text + " at local \(fmt(r.localPoint)), depth \(fmt(r.depth))"
    }

    private func printJSON(scene s: Scene, point p: CGPoint, tree: PresentationTree) {
        func object(_ r: HitTestResult) -> [String: Any] {
            var o: [String: Any] = [
                "layer": label(of: r.layer, in: s), "face": label(of: r.face, in: s),
                "local": [r.localPoint.x, r.localPoint.y].map { Double($0) }, "depth": r.depth,
            ]
            if let solid = r.solid { o["solid"] = label(of: solid, in: s) }
            return o
        }
        var answerObject: [String: Any] = [:]
        for policy in policies {
            answerObject[policy.commandName] = tree.hitTestResult(p, policy: policy).map(object) ?? NSNull()
        }
        let root: [String: Any] = [
            "point": [Double(p.x), Double(p.y)],
            "answers": answerObject,
            "layers": tree.hitTestAll(p).map { c -> [String: Any] in
                var o = object(c.result)
                o["treeRank"] = c.treeRank; o["depthRank"] = c.depthRank; o["culled"] = c.isCulled
                return o
            },
        ]
        printJSONObject(root)
    }

    // MARK: Many points

    /// Every point answered through the batch query, one pass per policy; the layers named once each.
    private func printMany(_ points: [CGPoint], scene s: Scene, tree: PresentationTree, format: Format) {
        let columns: [(name: String, labels: [String], hits: [Int32])] = policies.map { policy in
            let batch = tree.hitTest(points, policy: policy)
            return (policy.commandName, batch.layers.map { label(of: $0, in: s) }, batch.hits)
        }
        func answer(_ column: Int, _ i: Int) -> String? {
            let hit = columns[column].hits[i]
            return hit >= 0 ? columns[column].labels[Int(hit)] : nil
        }
        var out = ""
        switch format {
        case .csv:
            out.reserveCapacity(points.count * 40)
            out += (["x", "y"] + columns.map(\.name)).joined(separator: ",") + "\n"
            for (i, p) in points.enumerated() {
                out += exact(Double(p.x)) + "," + exact(Double(p.y))
                for c in columns.indices { out += "," + csvField(answer(c, i) ?? "") }
                out += "\n"
            }
        case .table:
            let rows = points.indices.map { i in
                [exact(Double(points[i].x)), exact(Double(points[i].y))] + columns.indices.map { answer($0, i) ?? "nothing" }
            }
            let header = ["x", "y"] + columns.map(\.name)
            let widths = header.indices.map { c in rows.reduce(header[c].count) { max($0, $1[c].count) } }
            for row in [header] + rows {
                out += row.enumerated().map { c, text in
                    c == row.count - 1 ? text : text.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                }.joined(separator: "  ") + "\n"
            }
        case .json:
            let list = points.indices.map { i -> [String: Any] in
                var o: [String: Any] = ["at": [Double(points[i].x), Double(points[i].y)]]
                for c in columns.indices { o[columns[c].name] = answer(c, i) ?? NSNull() }
                return o
            }
            var root: [String: Any] = ["scene": scene.displayName, "policies": columns.map(\.name), "points": list]
            if let t = time.time { root["time"] = t }
            printJSONObject(root)
            return
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    /// The points of `--points`: `x,y` per line; blank lines, `#` comments and a first line that is not a point
    /// (a header) are skipped. A bad line fails naming the file and line.
    private func readPoints(_ path: String) throws -> [CGPoint] {
        let name = path == "-" ? "<stdin>" : path
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: path) else {
                fail("cannot read the points file \(path) (no such file, or not readable)")
            }
            data = d
        }
        guard let text = String(data: data, encoding: .utf8) else { fail("the points file \(name) is not UTF-8 text") }
        var result: [CGPoint] = []
        var sawLine = false
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            defer { sawLine = true }
            if let p = PointArgument(argument: line) {
                result.append(p.point)
                guard result.count <= Self.maxPoints else {
                    fail("\(name):\(n + 1): more than \(Self.maxPoints) points, the most one run answers")
                }
            } else if !sawLine, line.range(of: #"^[A-Za-z_"][^,]*,[^,]*$"#, options: .regularExpression) != nil {
                continue   // a header such as `x,y`
            } else {
                fail("\(name):\(n + 1): `\(line.prefix(80))` is not a point", details: "expected x,y with finite numbers, e.g. 120,80")
            }
        }
        guard !result.isEmpty else { fail("the points file \(name) holds no points", details: "expected x,y per line, e.g. 120,80") }
        return result
    }

    // MARK: Expectations

    private func runExpectations(_ url: URL) throws {
        let file = expect ?? url.path
        let expectations: HitExpectations
        do { expectations = try HitExpectations.load(contentsOf: url, displayName: file) } catch {
            fail(error.issues.count == 1 ? "invalid expectations file \(file)"
                 : "invalid expectations file \(file) (\(error.issues.count) problems)", details: error.detailedDescription)
        }
        let s = try scene.load(images: .sizeOnly)
        let junitURL = junit.map { URL(fileURLWithPath: $0) }
        let protected = s.protectedFiles + [ProtectedFile(url, role: "the expectations file")]
        if let junitURL { checkWritable(junitURL, protecting: protected) }
        let started = ContinuousClock.now
        let tree = PresentationTree(s.root, time: time.time)
        let outcomes = expectations.check(tree: tree, scene: s)
        let elapsed = ContinuousClock.now - started
        let failures = outcomes.filter { !$0.holds }
        if let junitURL {
            let xml = junitXML(outcomes, expectations: expectations, seconds: Double(elapsed.components.seconds)
                               + Double(elapsed.components.attoseconds) * 1e-18)
            do { try WritableDestination(junitURL, protecting: protected).write(Data(xml.utf8)) } catch { fail("\(error)") }
        }
        let points = expectations.points.count
        if failures.isEmpty {
            print("all \(outcomes.count) expectations hold (\(points) point\(points == 1 ? "" : "s")) in \(file)")
            return
        }
        print("\(failures.count) of \(outcomes.count) expectations differ in \(file):")
        let header = ["where", "point", "policy", "expected", "actual"]
        let rows = failures.map { o in
            ["\(file):\(o.line)", "(\(exact(Double(o.point.x))), \(exact(Double(o.point.y))))", o.policy.commandName,
             o.expected.description, o.actualAsExpected.description]
        }
        let widths = header.indices.map { c in rows.reduce(header[c].count) { max($0, $1[c].count) } }
        for row in [header] + rows {
            print("  " + row.enumerated().map { c, text in
                c == row.count - 1 ? text : text.padding(toLength: widths[c], withPad: " ", startingAt: 0)
            }.joined(separator: "  "))
        }
        throw ExitCode(1)
    }

    /// One test case per point × policy, named by point and policy, a failure giving both answers and the line.
    private func junitXML(_ outcomes: [HitExpectations.Outcome], expectations: HitExpectations, seconds: Double) -> String {
        let failures = outcomes.filter { !$0.holds }.count
        let suite = "origami hit \(scene.displayName)"
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"\(xmlEscaped(suite))\" tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"0\" time=\"\(String(format: "%.6f", seconds))\">\n"
        xml += "  <testsuite name=\"\(xmlEscaped(expectations.file))\" tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" time=\"\(String(format: "%.6f", seconds))\">\n"
        for o in outcomes {
            let name = "(\(exact(Double(o.point.x))), \(exact(Double(o.point.y)))) \(o.policy.commandName)"
            xml += "    <testcase classname=\"\(xmlEscaped(suite))\" name=\"\(xmlEscaped(name))\" file=\"\(xmlEscaped(expectations.file))\" line=\"\(o.line)\""
            if o.holds { xml += "/>\n"; continue }
            let message = "expected \(o.expected.description); got \(o.actualAsExpected.description)"
            xml += ">\n      <failure type=\"HitOrder\" message=\"\(xmlEscaped(message))\">"
            xml += xmlEscaped("\(expectations.file):\(o.line): a touch at \(name.prefix { $0 != ")" })) under \(o.policy.commandName): \(message)")
            xml += "</failure>\n    </testcase>\n"
        }
        return xml + "  </testsuite>\n</testsuites>\n"
    }

    private func recordAnswers(at points: [CGPoint], scene s: Scene, tree: PresentationTree, to url: URL) throws {
        var protected = s.protectedFiles
        if let points = self.points, points != "-" { protected.append(ProtectedFile(URL(fileURLWithPath: points), role: "the points file")) }
        checkWritable(url, protecting: protected)
        var context = "from \(scene.displayName)"
        if let t = time.time { context += " at --time \(exact(t))" }
        for a in scene.parameters.assignments { context += " --set \(a)" }
        let header = """
            Recorded by origami \(SweepPlan.toolVersion) \(context): the answers the scene gives now, not checked ones.
            Review each before keeping this file; then `origami hit SCENE --expect FILE` fails when one changes.
            """
        let expectations = HitExpectations.recording(points, policies: policies, tree: tree, scene: s, file: url.path)
        do { try WritableDestination(url, protecting: protected).write(Data(expectations.yaml(header: header).utf8)) } catch {
            fail("\(error)")
        }
        print("recorded \(points.count) point\(points.count == 1 ? "" : "s") × \(policies.count) polic\(policies.count == 1 ? "y" : "ies") into \(record ?? url.path); review before keeping")
    }
}

/// `--grid STEP` or `--grid COLSxROWS`.
struct GridArgument: ExpressibleByArgument {
    enum Spacing { case step(Double), cells(Int, Int) }
    let spacing: Spacing

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard let c = Int(parts[0]), let r = Int(parts[1]), c > 0, r > 0 else { return nil }
            spacing = .cells(c, r)
        } else {
            guard let s = Double(argument), s.isFinite, s > 0 else { return nil }
            spacing = .step(s)
        }
    }

    static var defaultValueDescription: String { "STEP or COLSxROWS" }

    /// The cells' centres, row by row; refused when there would be more than `limit` or none.
    func points(over size: CGSize, limit: Int) throws -> [CGPoint] {
        let (w, h) = (Double(size.width), Double(size.height))
        let cols: Double, rows: Double, dx: Double, dy: Double
        switch spacing {
        case let .step(s):
            cols = (w / s).rounded(.down); rows = (h / s).rounded(.down); dx = s; dy = s
        case let .cells(c, r):
            cols = Double(c); rows = Double(r); dx = w / Double(c); dy = h / Double(r)
        }
        guard cols * rows <= Double(limit) else {
            throw ValidationError("--grid gives \(exact(cols))×\(exact(rows)) points over the \(exact(w))×\(exact(h)) canvas, more than the \(limit) one run answers.")
        }
        guard cols >= 1, rows >= 1 else {
            throw ValidationError("--grid gives no point: the step is larger than the \(exact(w))×\(exact(h)) canvas.")
        }
        var points: [CGPoint] = []
        points.reserveCapacity(Int(cols * rows))
        for j in 0..<Int(rows) {
            for i in 0..<Int(cols) { points.append(CGPoint(x: (Double(i) + 0.5) * dx, y: (Double(j) + 0.5) * dy)) }
        }
        return points
    }
}

/// A coordinate as the shortest text that reads back as the same number (`200`, `3.3333333333333335`), so a
/// point printed by `--grid` asked again on its own is the same point.
func exact(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
}

private func csvField(_ text: String) -> String {
    guard text.contains(where: { ",\"\n\r".contains($0) }) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

func xmlEscaped(_ text: String) -> String {
    var s = ""
    for c in text.unicodeScalars {
        switch c {
        case "&": s += "&amp;"
        case "<": s += "&lt;"
        case ">": s += "&gt;"
        case "\"": s += "&quot;"
        case "'": s += "&apos;"
        case "\n": s += "&#10;"
        default:
            // XML 1.0 allows no other control characters, even escaped.
            s += c.value < 0x20 && c != "\t" ? "?" : String(c)
        }
    }
    return s
}

func printJSONObject(_ root: [String: Any]) {
    if let data = try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys]) {
        print(String(decoding: data, as: UTF8.self))
    }
}
