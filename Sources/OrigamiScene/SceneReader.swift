import Foundation
import Origami
import Yams

/// Collects the issues of one scene file while its nodes are read.
final class SceneReader {
    let file: String
    private(set) var issues: [SceneIssue] = []
    /// The value of each declared parameter in this reading (its default, or what `--set` or a sweep gives):
    /// what `$name` stands for.
    var parameters: [String: Double] = [:]

    init(file: String) { self.file = file }

    func report(_ value: SceneValue?, _ message: String, hint: String? = nil, path: String? = nil) {
        let mark = value?.node.mark
        issues.append(SceneIssue(
            file: file, line: mark?.line ?? 0, column: mark?.column ?? 0,
            keyPath: path ?? value?.path ?? "", message: message, hint: hint))
    }
}

/// A node of a scene file with its key path, read through typed accessors that report what is wrong.
struct SceneValue {
    let node: Node
    private let place: KeyPathStep
    let reader: SceneReader

    init(node: Node, path: String, reader: SceneReader) {
        self.init(node: node, place: KeyPathStep(parent: nil, key: path, index: 0), reader: reader)
    }

    private init(node: Node, place: KeyPathStep, reader: SceneReader) {
        self.node = node
        self.place = place
        self.reader = reader
    }

    /// `layers[2].sublayers[0].frame`: spelled out only when asked (a report, a table key), since a big scene has a
    /// value for every number and most are never reported.
    var path: String { place.path }

    func child(_ key: String, _ node: Node) -> SceneValue {
        SceneValue(node: node, place: KeyPathStep(parent: place, key: key, index: 0), reader: reader)
    }

    func element(_ index: Int, _ node: Node) -> SceneValue {
        SceneValue(node: node, place: KeyPathStep(parent: place, key: nil, index: index), reader: reader)
    }

    func fail<T>(_ message: String, hint: String? = nil) -> T? {
        reader.report(self, message, hint: hint)
        return nil
    }

    var typeName: String {
        switch node {
        case .scalar: return "a scalar"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    // MARK: Scalars

    /// A finite number, or a parameter expression (`$yaw`, `-$yaw`, `$a * 2 + 10`) with the reading's values:
    /// the one place numbers are read, so `$name` works wherever a number is allowed.
    func number() -> Double? {
        if case let .scalar(s) = node, ParameterExpression.mentionsParameter(s.string) {
            return parameterValue(s.string)
        }
        guard case let .scalar(s) = node, s.style == .plain || s.style == .any else {
            return fail("expected a number, found \(quotedOrType)")
        }
        // Plain decimals first: Yams' YAML 1.1 constructor (underscores, sexagesimal) costs a string copy and a
        // regular expression per number, most of the time of reading a 20 000-face polyhedron.
        guard let v = Double(s.string) ?? Double.construct(from: s) else {
            return fail("expected a number, found \(quotedOrType)")
        }
        guard v.isFinite else { return fail("expected a finite number, found \(s.string)", hint: "NaN and infinities are not allowed") }
        return v
    }

    func number(in range: ClosedRange<Double>, what: String? = nil) -> Double? {
        guard let v = number() else { return nil }
        guard range.contains(v) else {
            return fail("\(what ?? "value") \(format(v)) is out of range \(format(range.lowerBound))…\(format(range.upperBound))")
        }
        return v
    }

    /// The value of a parameter expression written here (`text` is the scalar, or one word of a transform
    /// operation), reporting an undeclared name (with a did-you-mean), a syntax error or a non-finite result.
    func parameterValue(_ text: String) -> Double? {
        do {
            return try ParameterExpression.evaluate(text, reader.parameters)
        } catch let .undeclared(name) {
            let declared = reader.parameters.keys.sorted()
            let hint = closestMatch(to: name, in: declared).map { "did you mean `$\($0)`?" }
                ?? (declared.isEmpty ? "declare it under `params`, e.g. `params: {\(name): 0}`"
                                     : "declared parameters: \(declared.map { "$" + $0 }.joined(separator: ", "))")
            return fail("undeclared parameter `$\(name)`", hint: hint)
        } catch let .syntax(detail) {
            return fail("`\(text)` is not a number or parameter expression: \(detail)",
                        hint: "write e.g. `$yaw`, `-$yaw` or `$yaw * 2 + 10`")
        } catch {
            return fail("`\(text)` is not a finite number with the parameters' values",
                        hint: "values: " + reader.parameters.keys.sorted().map { "\($0)=\(format(reader.parameters[$0] ?? 0))" }.joined(separator: ", "))
        }
    }

    /// One word of a transform operation as a number: plain, or a parameter expression written without spaces.
    func number(word: String, in operation: String) -> Double? {
        if ParameterExpression.mentionsParameter(word) { return parameterValue(word) }
        guard let v = Double(word), v.isFinite else { return fail("`\(word)` is not a finite number in `\(operation)`") }
        return v
    }

    /// A number or a string like `-45`, `-45deg`, `-45°`, in degrees (or a parameter expression, whose value is
    /// in degrees); returned in radians.
    func angle() -> Double? {
        if case let .scalar(s) = node, ParameterExpression.mentionsParameter(s.string) {
            return parameterValue(s.string).map { $0 * .pi / 180 }
        }
        if case let .scalar(s) = node, let d = SceneValue.parseDegrees(s.string) { return d * .pi / 180 }
        return fail("expected an angle in degrees, found \(quotedOrType)", hint: "write e.g. -45 or \"-45deg\"")
    }

    static func parseDegrees(_ text: String) -> Double? {
        var t = text.trimmingCharacters(in: .whitespaces)
        for suffix in ["deg", "°"] where t.hasSuffix(suffix) { t = String(t.dropLast(suffix.count)) }
        guard let v = Double(t), v.isFinite else { return nil }
        return v
    }

    /// A string; an unquoted `$name` is refused (parameters stand for numbers), unless `allowingParameters`
    /// (a transform operation, whose numbers may be parameters).
    func string(allowingParameters: Bool = false) -> String? {
        guard case let .scalar(s) = node else { return fail("expected a string, found \(typeName)") }
        if !allowingParameters, s.style == .plain || s.style == .any, looksLikeParameter(s.string) {
            return fail("parameters stand for numbers, and this key takes a string",
                        hint: "quote it (\"\(s.string)\") to mean the text itself")
        }
        return s.string
    }

    private func looksLikeParameter(_ text: String) -> Bool {
        let t = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard t.hasPrefix("$"), let next = t.dropFirst().unicodeScalars.first else { return false }
        return next == "_" || (next.isASCII && CharacterSet.letters.contains(next))
    }

    func bool() -> Bool? {
        guard case let .scalar(s) = node, let b = Bool.construct(from: s) else {
            return fail("expected true or false, found \(quotedOrType)")
        }
        return b
    }

    func int(in range: ClosedRange<Int>) -> Int? {
        guard let v = number() else { return nil }
        guard v == v.rounded(), let i = Int(exactly: v) else { return fail("expected a whole number, found \(format(v))") }
        guard range.contains(i) else { return fail("\(i) is out of range \(range.lowerBound)…\(range.upperBound)") }
        return i
    }

    // MARK: Collections

    func list() -> [SceneValue]? {
        guard case let .sequence(seq) = node else { return fail("expected a list, found \(typeName)") }
        return seq.enumerated().map { element($0.offset, $0.element) }
    }

    /// A list of exactly `count` numbers (or one of `counts`).
    func numbers(count: Int, what: String) -> [Double]? { numbers(counts: [count], what: what) }

    func numbers(counts: [Int], what: String) -> [Double]? {
        // Plain decimals straight from the nodes (what `number()` gives them, without a value per element); anything
        // else, and every report, through `number()` as before.
        if case let .sequence(seq) = node, counts.contains(seq.count) {
            var result: [Double] = []
            result.reserveCapacity(seq.count)
            for item in seq {
                guard case let .scalar(s) = item, s.style == .plain || s.style == .any,
                      !ParameterExpression.mentionsParameter(s.string), let v = Double(s.string), v.isFinite else { break }
                result.append(v)
            }
            if result.count == seq.count { return result }
        }
        guard let items = list() else { return nil }
        guard counts.contains(items.count) else {
            let expected = counts.map(String.init).joined(separator: " or ")
            return fail("expected \(what) as a list of \(expected) numbers, found \(items.count)")
        }
        var result: [Double] = []
        result.reserveCapacity(items.count)
        for item in items { guard let v = item.number() else { return nil }; result.append(v) }
        return result
    }

    func point() -> CGPoint? {
        numbers(count: 2, what: "a point [x, y]").map { CGPoint(x: $0[0], y: $0[1]) }
    }

    func size(positive: Bool = false) -> CGSize? {
        guard let v = numbers(count: 2, what: "a size [width, height]") else { return nil }
        if v[0] < 0 || v[1] < 0 || (positive && (v[0] == 0 || v[1] == 0)) {
            return fail("size [\(format(v[0])), \(format(v[1]))] must be \(positive ? "positive" : "non-negative")")
        }
        return CGSize(width: v[0], height: v[1])
    }

    func rect() -> CGRect? {
        numbers(count: 4, what: "a rect [x, y, width, height]").map { CGRect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }

    func vector3() -> Vector3? {
        numbers(count: 3, what: "a vector [x, y, z]").map { Vector3($0[0], $0[1], $0[2]) }
    }

    func color() -> Color? {
        if case let .scalar(s) = node, let c = Color(parsing: s.string) { return c }
        if case .sequence = node, let v = numbers(counts: [3, 4], what: "a colour [r, g, b] or [r, g, b, a] (0…1)") {
            guard v.allSatisfy({ (0...1).contains($0) }) else { return fail("colour components must be within 0…1") }
            return Color(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1)
        }
        if case .sequence = node { return nil }
        if case let .scalar(s) = node, looksLikeParameter(s.string) {
            return fail("expected a colour, found `\(s.string)`",
                        hint: "parameters stand for numbers: use them as components, e.g. [\(s.string), 0, 0]")
        }
        let names = Color.named.keys.sorted()
        var hint = "use a name (\(names.joined(separator: ", "))), #rrggbb, #rrggbbaa or [r, g, b, a]"
        if case let .scalar(s) = node, let match = closestMatch(to: s.string, in: names) { hint = "did you mean `\(match)`?" }
        return fail("expected a colour, found \(quotedOrType)", hint: hint)
    }

    /// One of `choices` (exact match), with a "did you mean" hint otherwise.
    func choice(_ choices: [String]) -> String? {
        guard let s = string() else { return nil }
        if choices.contains(s) { return s }
        let hint = closestMatch(to: s, in: choices).map { "did you mean `\($0)`?" }
            ?? "one of: \(choices.joined(separator: ", "))"
        return fail("unknown value `\(s)`", hint: hint)
    }

    /// The entries of a mapping with string keys, checked against `allowed` (unknown keys are reported, with a
    /// "did you mean" hint; Yams already refuses repeated keys); `nil` when the node is not a mapping.
    func object(allowed: [String]) -> SceneObject? {
        guard case let .mapping(mapping) = node else { return fail("expected a mapping, found \(typeName)") }
        var entries: [String: SceneValue] = [:]
        var order: [String] = []
        for (k, v) in mapping {
            guard case let .scalar(ks) = k else {
                reader.report(SceneValue(node: k, place: place, reader: reader), "keys must be plain strings")
                continue
            }
            let key = ks.string
            guard allowed.contains(key) else {
                let hint = closestMatch(to: key, in: allowed).map { "did you mean `\($0)`?" }
                    ?? "known keys: \(allowed.joined(separator: ", "))"
                reader.report(child(key, k), "unknown key `\(key)`", hint: hint)
                continue
            }
            entries[key] = child(key, v)
            order.append(key)
        }
        return SceneObject(value: self, entries: entries, order: order)
    }

    private var quotedOrType: String {
        if case let .scalar(s) = node { return "`\(s.string)`" }
        return typeName
    }
}

/// One step of a key path: a key (`parent.key`, or `key` at the top), or a list index (`parent[index]`). A root
/// step holds a whole path as its key.
private final class KeyPathStep {
    let parent: KeyPathStep?
    let key: String?
    let index: Int

    init(parent: KeyPathStep?, key: String?, index: Int) {
        self.parent = parent
        self.key = key
        self.index = index
    }

    var path: String {
        guard let parent else { return key ?? "" }
        let head = parent.path
        guard let key else { return "\(head)[\(index)]" }
        return head.isEmpty ? key : "\(head).\(key)"
    }
}

/// A checked mapping: its known keys, in file order.
struct SceneObject {
    let value: SceneValue
    let entries: [String: SceneValue]
    let order: [String]

    subscript(key: String) -> SceneValue? { entries[key] }

    /// Reports a missing required key at the mapping itself.
    func required(_ key: String, hint: String? = nil) -> SceneValue? {
        if let v = entries[key] { return v }
        value.reader.report(value, "missing key `\(key)`", hint: hint)
        return nil
    }
}

/// `0.5`, `30`, `-2.25`: as few digits as the value needs, in messages, reports and the viewer's command lines.
package func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
}
