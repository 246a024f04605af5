import Foundation
import Origami

/// One lighting parameter a sweep varies, and the values it takes.
///
/// Paths name a field of a layer's `lighting`: `ambient`, `model`, `shininess`, `specular`, and per light
/// `light.direction`, `light.position`, `light.color`, `light.intensity`, `light.space` (`light` is the first
/// light; `light[2]` the third). Prefix a layer's name (`container.ambient`) when several layers are lit.
public struct SweepParameter: Hashable, Sendable {
    public enum Value: Hashable, Sendable, CustomStringConvertible {
        case number(Double)
        case vector(Vector3)
        case color(Color)
        case word(String)

        public var description: String {
            switch self {
            case let .number(v): return format(v)
            case let .vector(v): return "(\(format(v.x)), \(format(v.y)), \(format(v.z)))"
            case let .color(c): return c.description
            case let .word(w): return w
            }
        }
    }

    enum Field: Hashable, Sendable {
        case ambient, model, shininess, specular
        case light(Int, LightField)
    }

    enum LightField: String, Hashable, Sendable {
        case direction, position, color, intensity, space
    }

    /// As written: `container.light[1].direction`.
    public let path: String
    public let values: [Value]
    /// The lit layer's name, when the path names one.
    let layerName: String?
    let field: Field

    static let fieldNames = ["ambient", "model", "shininess", "specular", "light.direction", "light.position",
                             "light.color", "light.intensity", "light.space"]
}

/// Why a sweep parameter cannot be used.
public struct SweepError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let hint: String?
    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
    public var description: String { message + (hint.map { "; \($0)" } ?? "") }
}

extension SweepParameter {
    /// Parses `PATH=VALUES` from the command line. Values are separated by `;`, or by `,` for a parameter
    /// whose values are single numbers or words: `ambient=0.2,0.5,0.8`, `light.direction=0,1,-0.5;1,0,-0.5`.
    public init(argument: String) throws(SweepError) {
        guard let eq = argument.firstIndex(of: "=") else {
            throw SweepError("`\(argument)` is not PATH=VALUES", hint: "e.g. --vary ambient=0.2,0.5,0.8")
        }
        let path = String(argument[..<eq]).trimmingCharacters(in: .whitespaces)
        let text = String(argument[argument.index(after: eq)...])
        let (layerName, field) = try Self.parsePath(path)
        let separator: Character = text.contains(";") || field.isComposite ? ";" : ","
        let pieces = text.split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !pieces.isEmpty else { throw SweepError("`\(path)` has no values") }
        var values: [Value] = []
        for piece in pieces {
            let parts = piece.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            values.append(try field.parse(parts, whole: piece, path: path))
        }
        self.init(path: path, values: values, layerName: layerName, field: field)
    }

    static func parsePath(_ path: String) throws(SweepError) -> (String?, Field) {
        // The field is the last one or two components (`light[1].direction`); what precedes is a layer name.
        var components = path.split(separator: ".").map(String.init)
        guard let last = components.popLast() else { throw SweepError("empty parameter path") }
        func unknown() -> SweepError {
            SweepError("unknown sweep parameter `\(path)`",
                       hint: closestMatch(to: path, in: fieldNames).map { "did you mean `\($0)`?" }
                           ?? "parameters: \(fieldNames.joined(separator: ", "))")
        }
        if let lightField = LightField(rawValue: last), let holder = components.popLast() {
            guard holder.hasPrefix("light") else { throw unknown() }
            var index = 0
            let rest = holder.dropFirst("light".count)
            if !rest.isEmpty {
                guard rest.hasPrefix("["), rest.hasSuffix("]"), let i = Int(rest.dropFirst().dropLast()), i >= 0 else {
                    throw unknown()
                }
                index = i
            }
            return (components.isEmpty ? nil : components.joined(separator: "."), .light(index, lightField))
        }
        let field: Field
        switch last {
        case "ambient": field = .ambient
        case "model": field = .model
        case "shininess": field = .shininess
        case "specular": field = .specular
        default: throw unknown()
        }
        return (components.isEmpty ? nil : components.joined(separator: "."), field)
    }

    /// Sets this parameter to `value` in `lighting`.
    func apply(_ value: Value, to lighting: inout Lighting) throws(SweepError) {
        switch (field, value) {
        case let (.ambient, .number(v)): lighting.ambient = v
        case let (.shininess, .number(v)): lighting.shininess = v
        case let (.specular, .color(c)): lighting.specular = c
        case let (.model, .word(w)):
            guard let m = Lighting.Model(rawValue: w) else { throw SweepError("unknown model `\(w)`") }
            lighting.model = m
        case let (.light(i, f), v):
            guard lighting.lights.indices.contains(i) else {
                throw SweepError("`\(path)` names light \(i), but the lighting has \(lighting.lights.count) light(s)")
            }
            switch (f, v) {
            case let (.direction, .vector(d)): lighting.lights[i].direction = d; lighting.lights[i].position = nil
            case let (.position, .vector(p)): lighting.lights[i].position = p; lighting.lights[i].direction = nil
            case let (.color, .color(c)): lighting.lights[i].color = c
            case let (.intensity, .number(x)): lighting.lights[i].intensity = x
            case let (.space, .word(w)):
                guard let s = Light.Space(rawValue: w) else { throw SweepError("unknown light space `\(w)`") }
                lighting.lights[i].space = s
            default: throw SweepError("`\(value)` is not a value for `\(path)`")
            }
        default: throw SweepError("`\(value)` is not a value for `\(path)`")
        }
    }
}

extension SweepParameter.Field {
    /// Values with several numbers (vectors, colours as components) are separated by `;`.
    var isComposite: Bool {
        if case let .light(_, f) = self { return f == .direction || f == .position || f == .color }
        return self == .specular
    }

    func parse(_ parts: [String], whole: String, path: String) throws(SweepError) -> SweepParameter.Value {
        func number(_ range: ClosedRange<Double>) throws(SweepError) -> SweepParameter.Value {
            guard parts.count == 1, let v = Double(parts[0]), v.isFinite, range.contains(v) else {
                throw SweepError("`\(whole)` is not a number in \(format(range.lowerBound))…\(format(range.upperBound)) for `\(path)`")
            }
            return .number(v)
        }
        func vector() throws(SweepError) -> SweepParameter.Value {
            let v = parts.compactMap(Double.init)
            guard parts.count == 3, v.count == 3, v.allSatisfy(\.isFinite) else {
                throw SweepError("`\(whole)` is not a vector x,y,z for `\(path)`", hint: "separate vectors with `;`")
            }
            return .vector(Vector3(v[0], v[1], v[2]))
        }
        func color() throws(SweepError) -> SweepParameter.Value {
            if parts.count == 1, let c = Color(parsing: parts[0]) { return .color(c) }
            let v = parts.compactMap(Double.init)
            guard (3...4).contains(parts.count), v.count == parts.count, v.allSatisfy({ (0...1).contains($0) }) else {
                throw SweepError("`\(whole)` is not a colour for `\(path)`", hint: "a name, #rrggbb or r,g,b in 0…1")
            }
            return .color(Color(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1))
        }
        func word(_ choices: [String]) throws(SweepError) -> SweepParameter.Value {
            guard parts.count == 1, choices.contains(parts[0]) else {
                throw SweepError("`\(whole)` is not one of \(choices.joined(separator: ", ")) for `\(path)`")
            }
            return .word(parts[0])
        }
        switch self {
        case .ambient: return try number(0...1)
        case .shininess: return try number(0...10_000)
        case .specular: return try color()
        case .model: return try word(Lighting.Model.allCases.map(\.rawValue))
        case let .light(_, f):
            switch f {
            case .direction:
                let v = try vector()
                if case let .vector(d) = v, d.normalized() == nil { throw SweepError("the light direction is zero") }
                return v
            case .position: return try vector()
            case .color: return try color()
            case .intensity: return try number(0...1000)
            case .space: return try word(Light.Space.allCases.map(\.rawValue))
            }
        }
    }
}
