import Foundation
import Origami
import Yams

extension HitTestPolicy {
    /// How the command line and expectation files name the policy: `tree`, `coreanimation`, `frontmost`.
    public var commandName: String {
        switch self {
        case .treeOrder: return "tree"
        case .coreAnimation: return "coreanimation"
        case .frontmost: return "frontmost"
        }
    }

    /// The policy the command line and expectation files call `commandName`, or `nil` for an unknown name.
    public init?(commandName: String) {
        guard let p = Self.allCases.first(where: { $0.commandName == commandName }) else { return nil }
        self = p
    }
}

/// What a touch reaches under one policy, as expectation files and reports name it. `layer == nil`: nothing.
public struct HitAnswer: Hashable, Sendable {
    /// The layer reached, as `Scene.label(of:)` names it (its name, else its key path); `nil`: nothing is reached.
    public var layer: String?
    /// The face the layer is drawn on, when it is not the layer itself.
    public var face: String?
    /// The solid (transform layer) holding the face.
    public var solid: String?
    /// The answer's rank in depth order at the point (0: the face seen there).
    public var depthRank: Int?

    /// An answer naming `layer`, and optionally the face, solid and depth rank to compare as well.
    public init(layer: String?, face: String? = nil, solid: String? = nil, depthRank: Int? = nil) {
        self.layer = layer; self.face = face; self.solid = solid; self.depthRank = depthRank
    }

    /// The answer of `tree` (built from `scene`) at `point` under `policy`, every field filled.
    public init(_ point: CGPoint, policy: HitTestPolicy, tree: PresentationTree, scene: Scene) {
        guard let r = tree.hitTestResult(point, policy: policy) else { self.init(layer: nil); return }
        let rank = tree.hitTestAll(point).first { $0.layer === r.layer }?.depthRank
        self.init(layer: scene.label(of: r.layer), face: r.face === r.layer ? nil : scene.label(of: r.face),
                  solid: r.solid.map(scene.label(of:)), depthRank: rank)
    }

    /// Whether `actual` has what this expectation names (fields left out are not compared).
    public func isMet(by actual: HitAnswer) -> Bool {
        layer == actual.layer && (face == nil || face == actual.face) && (solid == nil || solid == actual.solid)
            && (depthRank == nil || depthRank == actual.depthRank)
    }

    /// `face4`, `button on face face3 of solid cube, depth rank 1`, `nothing`.
    public var description: String {
        guard let layer else { return "nothing" }
        var s = layer
        if let face { s += " on face \(face)" }
        if let solid { s += " of solid \(solid)" }
        if let depthRank { s += ", depth rank \(depthRank)" }
        return s
    }
}

/// A list of points with the layer a touch there should reach under each policy named: hit order as a test.
/// The file (YAML):
///
/// ```yaml
/// points:
///   - at: [200, 200]
///     tree: face4                       # just the layer
///     frontmost: {layer: face3, depthRank: 0, solid: cube}
///     coreanimation: null               # nothing is reached
/// ```
public struct HitExpectations: Sendable {
    /// One point of an expectations file and the answers expected there.
    public struct Point: Sendable {
        /// In the scene's root coordinates (points).
        public var point: CGPoint
        /// Per policy named, in file order.
        public var expected: [(policy: HitTestPolicy, answer: HitAnswer)]
        /// Where the point's entry starts in the file (1-based; 0 when made in code).
        public var line: Int

        /// A point expected to give `expected`; `line` is where its entry starts in the file (0 when made in code).
        public init(point: CGPoint, expected: [(policy: HitTestPolicy, answer: HitAnswer)], line: Int = 0) {
            self.point = point; self.expected = expected; self.line = line
        }
    }

    /// How messages name the file.
    public var file: String
    /// The points, in file order.
    public var points: [Point]

    /// Expectations named `file` in messages.
    public init(file: String, points: [Point]) { self.file = file; self.points = points }

    /// One checked expectation: where, which policy, what was expected and what the scene answers.
    public struct Outcome: Sendable {
        /// Where the touch is, in the scene's root coordinates.
        public var point: CGPoint
        /// Where the point's entry starts in the file (1-based; 0 when made in code).
        public var line: Int
        /// The policy the expectation is for.
        public var policy: HitTestPolicy
        /// What the file expects.
        public var expected: HitAnswer
        /// What the scene answers, every field filled.
        public var actual: HitAnswer
        /// Whether `actual` has everything `expected` names.
        public var holds: Bool { expected.isMet(by: actual) }

        /// `actual` with only the fields `expected` names: what a report shows beside it (a face, solid or
        /// rank the expectation leaves out is noise there).
        public var actualAsExpected: HitAnswer {
            var a = actual
            if expected.face == nil { a.face = nil }
            if expected.solid == nil { a.solid = nil }
            if expected.depthRank == nil { a.depthRank = nil }
            return a
        }
    }

    /// Every expectation checked against `tree` (built from `scene`), in file order.
    public func check(tree: PresentationTree, scene: Scene) -> [Outcome] {
        points.flatMap { p in
            p.expected.map { e in
                Outcome(point: p.point, line: p.line, policy: e.policy, expected: e.answer,
                        actual: HitAnswer(p.point, policy: e.policy, tree: tree, scene: scene))
            }
        }
    }

    /// The answers `tree` gives now at `points` under `policies`, every field filled: a starting point to review.
    public static func recording(_ points: [CGPoint], policies: [HitTestPolicy], tree: PresentationTree,
                                 scene: Scene, file: String) -> HitExpectations {
        HitExpectations(file: file, points: points.map { p in
            Point(point: p, expected: policies.map { ($0, HitAnswer(p, policy: $0, tree: tree, scene: scene)) })
        })
    }

    /// The file's text, under `header` (each line becomes a comment).
    public func yaml(header: String) -> String {
        var text = header.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)" }.joined(separator: "\n")
        text += "\npoints:\n"
        for p in points {
            text += "  - at: [\(format(Double(p.point.x))), \(format(Double(p.point.y)))]\n"
            for (policy, a) in p.expected {
                text += "    \(policy.commandName): "
                guard let layer = a.layer else { text += "null\n"; continue }
                var fields = ["layer: \(Self.quoted(layer))"]
                if let face = a.face { fields.append("face: \(Self.quoted(face))") }
                if let solid = a.solid { fields.append("solid: \(Self.quoted(solid))") }
                if let rank = a.depthRank { fields.append("depthRank: \(rank)") }
                text += "{\(fields.joined(separator: ", "))}\n"
            }
        }
        return text
    }

    /// A name as a YAML scalar that reads back as the same string (plain when that is safe).
    static func quoted(_ name: String) -> String {
        let plain = name.range(of: #"^[A-Za-z_][A-Za-z0-9_.\[\]-]*$"#, options: .regularExpression) != nil
            && !["null", "true", "false", "yes", "no", "on", "off", "nothing"].contains(name.lowercased())
        guard !plain else { return name }
        var escaped = "\""
        for c in name.unicodeScalars {
            switch c {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default:
                escaped += c.value < 0x20 ? String(format: "\\x%02X", c.value) : String(c)
            }
        }
        return escaped + "\""
    }

    /// Reads an expectations file; problems are located as in a scene file (file:line:column: key path).
    public static func load(contentsOf url: URL, displayName: String? = nil) throws(SceneError) -> HitExpectations {
        // Held to a scene file's size limit: the file is read whole.
        let text = try SceneDescription.read(url, displayName: displayName, limits: .default, what: "expectations file")
        return try decode(text, file: displayName ?? url.path)
    }

    /// Reads expectations from YAML `text`; `file` names it in messages. Every problem is reported, located by line,
    /// column and key path.
    public static func decode(_ text: String, file: String) throws(SceneError) -> HitExpectations {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw SceneError(issues: [SceneDescription.issue(for: error, file: file)], source: text)
        } catch {
            throw SceneError(issues: [SceneIssue(file: file, line: 0, column: 0, keyPath: "", message: "\(error)")], source: text)
        }
        let reader = SceneReader(file: file)
        var points: [Point] = []
        if let node {
            let top = SceneValue(node: node, path: "", reader: reader)
            if let object = top.object(allowed: ["points"]), let list = object.required("points")?.list() {
                if list.isEmpty { reader.report(object["points"], "no points", hint: "list at least one `- at: [x, y]`") }
                for item in list {
                    if let p = point(item) { points.append(p) }
                }
            }
        } else {
            reader.report(nil, "the file is empty", hint: "expected `points:`, a list of `- at: [x, y]` with an answer per policy")
        }
        guard reader.issues.isEmpty else { throw SceneError(issues: reader.issues, source: text) }
        return HitExpectations(file: file, points: points)
    }

    private static func point(_ item: SceneValue) -> Point? {
        let names = HitTestPolicy.allCases.map(\.commandName)
        guard let object = item.object(allowed: ["at"] + names) else { return nil }
        let at = object.required("at", hint: "the point, [x, y] in canvas coordinates")?.point()
        var expected: [(HitTestPolicy, HitAnswer)] = []
        for key in object.order where key != "at" {
            guard let policy = HitTestPolicy(commandName: key), let value = object[key] else { continue }
            if let answer = answer(value) { expected.append((policy, answer)) }
        }
        if expected.isEmpty, at != nil {
            item.reader.report(item, "no expected answer", hint: "name the layer for at least one of \(names.joined(separator: ", "))")
        }
        guard let at, at.x.isFinite, at.y.isFinite, !expected.isEmpty else { return nil }
        return Point(point: at, expected: expected, line: item.node.mark?.line ?? 0)
    }

    private static func answer(_ value: SceneValue) -> HitAnswer? {
        if case let .scalar(s) = value.node {
            if s.style == .plain || s.style == .any, ["null", "~", ""].contains(s.string) { return HitAnswer(layer: nil) }
            return value.string().map { HitAnswer(layer: $0) }
        }
        guard let object = value.object(allowed: ["layer", "face", "solid", "depthRank"]) else { return nil }
        guard let layerValue = object.required("layer", hint: "the layer the touch reaches (null: nothing)") else { return nil }
        var layer: String?
        if case let .scalar(s) = layerValue.node, s.style == .plain || s.style == .any, ["null", "~", ""].contains(s.string) {
            layer = nil
        } else {
            guard let name = layerValue.string() else { return nil }
            layer = name
        }
        let face = object["face"].map { $0.string() }, solid = object["solid"].map { $0.string() }
        let rank = object["depthRank"].map { $0.int(in: 0...Int(Int32.max)) }
        if face == .some(nil) || solid == .some(nil) || rank == .some(nil) { return nil }
        return HitAnswer(layer: layer, face: face ?? nil, solid: solid ?? nil, depthRank: rank ?? nil)
    }
}
