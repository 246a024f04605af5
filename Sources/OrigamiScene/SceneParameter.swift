import Foundation

/// A number a scene file declares under `params` and uses as `$name` wherever a number is allowed; `--set`
/// and sweeps give it other values. `range`, `step`, `unit` and `label` are what a slider needs.
public struct SceneParameter: Hashable, Sendable {
    /// What the file calls it: `$name` uses it, `--set name=value` sets it.
    public let name: String
    /// Its value unless `--set` or a sweep gives another.
    public let defaultValue: Double
    /// The values the parameter may take (the default included), when the file declares them.
    public let range: ClosedRange<Double>?
    /// A slider's step, when the file gives one.
    public let step: Double?
    /// The unit shown beside the value (`°`, `pt`), when the file gives one.
    public let unit: String?
    /// What a slider is labelled, when the file gives it (the name otherwise).
    public let label: String?

    /// A parameter `name` with its default value and, optionally, what a slider needs.
    public init(name: String, defaultValue: Double, range: ClosedRange<Double>? = nil, step: Double? = nil,
                unit: String? = nil, label: String? = nil) {
        self.name = name; self.defaultValue = defaultValue; self.range = range; self.step = step
        self.unit = unit; self.label = label
    }

    /// Names that cannot be parameters: `time` is the scene time a sweep varies, the others are the lighting
    /// fields `--vary` and `sweep:` already take, which a parameter of the same name would shadow.
    public static let reservedNames = ["time"] + ["ambient", "model", "shininess", "specular"]

    /// Why `value` cannot be this parameter's value, or `nil` when it can.
    func problem(with value: Double) -> String? {
        guard value.isFinite else { return "`\(name)` must be a finite number" }
        guard let range, !range.contains(value) else { return nil }
        return "\(format(value)) is outside the range \(format(range.lowerBound))…\(format(range.upperBound)) of `\(name)`"
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && CharacterSet.letters.contains(first)) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && CharacterSet.alphanumerics.contains($0)) }
    }
}

/// A wrong parameter name or value given on the command line (`--set`, `--vary`).
public struct ParameterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// How to fix it, when a fix can be suggested.
    public let hint: String?
    /// An error saying `message`, with an optional `hint`.
    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
    public var description: String { message + (hint.map { "; \($0)" } ?? "") }
}

extension SceneParameter {
    /// Parses `NAME=VALUE` (`--set yaw=30`) into a name and a finite number; whether the scene declares the
    /// name is checked by `SceneDescription.setting(_:)`.
    public static func assignment(_ argument: String) throws(ParameterError) -> (name: String, value: Double) {
        guard let eq = argument.firstIndex(of: "=") else {
            throw ParameterError("`\(argument)` is not NAME=VALUE", hint: "e.g. --set yaw=30")
        }
        let name = argument[..<eq].trimmingCharacters(in: .whitespaces)
        let text = argument[argument.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw ParameterError("`\(argument)` names no parameter", hint: "e.g. --set yaw=30") }
        guard let value = Double(text), value.isFinite else {
            throw ParameterError("`\(text)` is not a finite number for `\(name)`")
        }
        return (name, value)
    }

    /// Values written `lo:hi:step` (`0:90:15` → 0, 15, …, 90; the last value is `hi` when the steps reach it
    /// within a millionth of a step), or `nil` when `text` is not a range.
    static func rangeValues(_ text: String) throws(ParameterError) -> [Double]? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3 else { return nil }
        guard let lo = Double(parts[0]), let hi = Double(parts[1]), let step = Double(parts[2]),
              lo.isFinite, hi.isFinite, step.isFinite else {
            throw ParameterError("`\(text)` is not a range LOW:HIGH:STEP of finite numbers", hint: "e.g. 0:90:15")
        }
        guard step > 0, hi >= lo else {
            throw ParameterError("the range `\(text)` is empty", hint: "LOW ≤ HIGH and a positive STEP, e.g. 0:90:15")
        }
        let count = ((hi - lo) / step + 1e-6).rounded(.down) + 1
        guard count <= 100_000 else { throw ParameterError("the range `\(text)` has more than 100000 values") }
        // Each value from its index, so errors do not accumulate over the steps.
        return (0..<Int(count)).map { lo + Double($0) * step }
    }
}

/// A number written with parameters: `$yaw`, `-$yaw`, `$yaw * 2`, `($a + 10) / 2`. The four operations with
/// the usual precedence, unary minus and parentheses; nothing else, so what a file says stays readable.
struct ParameterExpression {
    enum Failure: Error {
        case syntax(String)
        case undeclared(String)
        case notFinite
    }

    /// Whether `text` is meant as an expression (it mentions a parameter), as opposed to a plain number or word.
    static func mentionsParameter(_ text: String) -> Bool {
        // Not `text.contains("$")`: with Foundation imported that is a CFString search, a fifth of reading a big scene.
        text.utf8.contains(UInt8(ascii: "$"))
    }

    /// The value of `text` with `values` for the parameters.
    static func evaluate(_ text: String, _ values: [String: Double]) throws(Failure) -> Double {
        var parser = Parser(text: Array(text.unicodeScalars), values: values)
        let v = try parser.expression()
        parser.skipSpaces()
        guard parser.index == parser.text.count else { throw .syntax("unexpected `\(parser.rest)` in `\(text)`") }
        guard v.isFinite else { throw .notFinite }
        return v
    }

    private struct Parser {
        let text: [Unicode.Scalar]
        let values: [String: Double]
        var index = 0

        var rest: String { String(String.UnicodeScalarView(text[index...])) }

        mutating func skipSpaces() { while index < text.count, text[index] == " " || text[index] == "\t" { index += 1 } }

        mutating func peek() -> Unicode.Scalar? { skipSpaces(); return index < text.count ? text[index] : nil }

        mutating func expression() throws(Failure) -> Double {
            var v = try term()
            while let op = peek(), op == "+" || op == "-" {
                index += 1
                let r = try term()
                v = op == "+" ? v + r : v - r
            }
            return v
        }

        mutating func term() throws(Failure) -> Double {
            var v = try factor()
            while let op = peek(), op == "*" || op == "/" {
                index += 1
                let r = try factor()
                v = op == "*" ? v * r : v / r
            }
            return v
        }

        mutating func factor() throws(Failure) -> Double {
            guard let c = peek() else { throw .syntax("a number or `$name` is missing at the end") }
            switch c {
            case "-": index += 1; return -(try factor())
            case "+": index += 1; return try factor()
            case "(":
                index += 1
                let v = try expression()
                guard peek() == ")" else { throw .syntax("a `)` is missing") }
                index += 1
                return v
            case "$":
                index += 1
                let start = index
                while index < text.count, text[index] == "_" || (text[index].isASCII && CharacterSet.alphanumerics.contains(text[index])) {
                    index += 1
                }
                let name = String(String.UnicodeScalarView(text[start..<index]))
                guard !name.isEmpty else { throw .syntax("`$` is not followed by a parameter name") }
                guard let v = values[name] else { throw .undeclared(name) }
                return v
            default:
                let start = index
                while index < text.count, "0123456789.eE".unicodeScalars.contains(text[index])
                        || ((text[index] == "-" || text[index] == "+") && index > start && "eE".unicodeScalars.contains(text[index - 1])) {
                    index += 1
                }
                let word = String(String.UnicodeScalarView(text[start..<index]))
                guard let v = Double(word) else { throw .syntax("unexpected `\(rest.isEmpty ? word : rest)`") }
                return v
            }
        }
    }
}
