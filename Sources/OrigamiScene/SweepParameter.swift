import Foundation
import Origami

/// One parameter a sweep varies, and the values it takes: a scene parameter (`yaw`, declared under `params`),
/// the scene time (`time`), or a lighting field.
///
/// Lighting paths name a field of a layer's `lighting`: `ambient`, `model`, `shininess`, `specular`, and per light
/// `light.direction`, `light.position`, `light.color`, `light.intensity`, `light.space` (`light` is the first
/// light; `light[2]` the third). Prefix a layer's name (`container.ambient`) when several layers are lit.
public struct SweepParameter: Hashable, Sendable {
    /// One value a parameter takes.
    public enum Value: Hashable, Sendable, CustomStringConvertible {
        /// A number: a scene parameter, the time, `ambient`, `shininess`, `specular`, `light.intensity`.
        case number(Double)
        /// A vector: `light.direction`, `light.position`.
        case vector(Vector3)
        /// A colour: `light.color`.
        case color(Color)
        /// A word: `model` (`bookOverlay`, `lambert`, `blinnPhong`), `light.space`.
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
        /// A parameter the scene declares, with its range when it declares one.
        case parameter(String, ClosedRange<Double>?)
        /// The scene time, in seconds.
        case time
    }

    enum LightField: String, Hashable, Sendable {
        case direction, position, color, intensity, space
    }

    /// As written: `container.light[1].direction`.
    public let path: String
    /// The values it takes, in order.
    public let values: [Value]
    /// The lit layer's name, when the path names one.
    let layerName: String?
    let field: Field

    static let fieldNames = ["ambient", "model", "shininess", "specular", "light.direction", "light.position",
                             "light.color", "light.intensity", "light.space"]
}

/// Why a sweep parameter cannot be used.
public struct SweepError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// How to fix it, when a fix can be suggested.
    public let hint: String?
    /// An error saying `message`, with an optional `hint`.
    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
    public var description: String { message + (hint.map { "; \($0)" } ?? "") }
}

extension SweepParameter {
    /// Parses `PATH=VALUES` from the command line. Values are separated by `;`, or else by `,`:
    /// `ambient=0.2,0.5,0.8`, `light.color=red,blue`, `light.direction=0,1,-0.5;1,0,-0.5`. Without a `;`, the
    /// numbers of a vector or colour parameter (`light.direction=0,1,-0.5`, `light.color=0,0,1`) are one value.
    /// A number parameter (a scene parameter, `time`, `ambient`, …) also takes a range `LOW:HIGH:STEP`
    /// (`yaw=0:90:15`). `parameters`: the scene's, which `PATH` may name.
    public init(argument: String, parameters: [SceneParameter] = []) throws(SweepError) {
        guard let eq = argument.firstIndex(of: "=") else {
            throw SweepError("`\(argument)` is not PATH=VALUES", hint: "e.g. --vary ambient=0.2,0.5,0.8")
        }
        let path = String(argument[..<eq]).trimmingCharacters(in: .whitespaces)
        let text = String(argument[argument.index(after: eq)...])
        let (layerName, field) = try Self.parsePath(path, parameters: parameters)
        if case .number = field.valueKind {
            let numbers: [Double]?
            do { numbers = try SceneParameter.rangeValues(text) } catch { throw SweepError("`\(path)`: \(error.message)", hint: error.hint) }
            if let numbers {
                var values: [Value] = []
                for n in numbers { values.append(try field.check(.number(n), written: format(n), path: path)) }
                self.init(path: path, values: values, layerName: layerName, field: field)
                return
            }
        }
        func pieces(_ separator: Character) -> [String] {
            text.split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        var list = pieces(text.contains(";") ? ";" : ",")
        if !text.contains(";"), field.isComposite, list.allSatisfy({ Double($0) != nil }) {
            list = pieces(";")
        }
        guard !list.isEmpty else { throw SweepError("`\(path)` has no values") }
        var values: [Value] = []
        for piece in list {
            let parts = piece.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            values.append(try field.parse(parts, whole: piece, path: path))
        }
        self.init(path: path, values: values, layerName: layerName, field: field)
    }

    static func parsePath(_ path: String, parameters: [SceneParameter] = []) throws(SweepError) -> (String?, Field) {
        if path == "time" { return (nil, .time) }
        if let p = parameters.first(where: { $0.name == path }) { return (nil, .parameter(p.name, p.range)) }
        // The field is the last one or two components (`light[1].direction`); what precedes is a layer name.
        var components = path.split(separator: ".").map(String.init)
        guard let last = components.popLast() else { throw SweepError("empty parameter path") }
        func unknown() -> SweepError {
            let names = parameters.map(\.name) + ["time"] + fieldNames
            return SweepError("unknown sweep parameter `\(path)`",
                              hint: closestMatch(to: path, in: names).map { "did you mean `\($0)`?" }
                                  ?? "parameters: \(names.joined(separator: ", "))")
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

    /// Whether the parameter is a lighting field (set on a lit layer), rather than a scene parameter or time.
    var isLighting: Bool {
        switch field {
        case .parameter, .time: return false
        default: return true
        }
    }

    /// The scene parameter's name, when the parameter is one.
    var sceneParameterName: String? {
        if case let .parameter(name, _) = field { return name }
        return nil
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

    /// What kind of value the field takes, and which ones are allowed.
    enum ValueKind {
        case number(ClosedRange<Double>?)
        /// `nil`: any finite number.
        /// `nonZero`: a direction, which a zero vector does not give.
        case vector(nonZero: Bool)
        case color
        case word([String])
    }

    var valueKind: ValueKind {
        switch self {
        case .ambient: return .number(0...1)
        case .shininess: return .number(0...10_000)
        case let .parameter(_, range): return .number(range)
        case .time: return .number(nil)
        case .specular: return .color
        case .model: return .word(Lighting.Model.allCases.map(\.rawValue))
        case let .light(_, f):
            switch f {
            case .direction: return .vector(nonZero: true)
            case .position: return .vector(nonZero: false)
            case .color: return .color
            case .intensity: return .number(0...1000)
            case .space: return .word(Light.Space.allCases.map(\.rawValue))
            }
        }
    }

    /// `value` when the field takes it; otherwise a `SweepError` quoting the value as `written`. The one check
    /// for values from the command line and from a scene's `sweep:` section.
    func check(_ value: SweepParameter.Value, written: String, path: String) throws(SweepError) -> SweepParameter.Value {
        switch (valueKind, value) {
        case let (.number(range), .number(v)) where v.isFinite && range?.contains(v) ?? true: return value
        case let (.vector(nonZero), .vector(d)) where [d.x, d.y, d.z].allSatisfy(\.isFinite):
            if nonZero, d.normalized() == nil { throw SweepError("the light direction is zero") }
            return value
        case (.color, .color): return value
        case let (.word(choices), .word(w)) where choices.contains(w): return value
        case let (.number(range?), _):
            throw SweepError("`\(written)` is not a number in \(format(range.lowerBound))…\(format(range.upperBound)) for `\(path)`")
        case (.number(nil), _):
            throw SweepError("`\(written)` is not a finite number for `\(path)`")
        case (.vector, _):
            throw SweepError("`\(written)` is not a vector x,y,z for `\(path)`", hint: "separate vectors with `;`")
        case (.color, _):
            throw SweepError("`\(written)` is not a colour for `\(path)`", hint: "a name, #rrggbb or r,g,b in 0…1")
        case let (.word(choices), _):
            throw SweepError("`\(written)` is not one of \(choices.joined(separator: ", ")) for `\(path)`")
        }
    }

    /// A value from its command-line words (`0.5`; `0`, `1`, `-0.5`; `red`), checked.
    func parse(_ parts: [String], whole: String, path: String) throws(SweepError) -> SweepParameter.Value {
        let numbers = parts.compactMap(Double.init)
        let allNumbers = numbers.count == parts.count
        let candidate: SweepParameter.Value
        switch valueKind {
        case .number:
            candidate = parts.count == 1 && allNumbers ? .number(numbers[0]) : .word(whole)
        case .vector:
            candidate = parts.count == 3 && allNumbers ? .vector(Vector3(numbers[0], numbers[1], numbers[2])) : .word(whole)
        case .color:
            if parts.count == 1, let c = Color(parsing: parts[0]) {
                candidate = .color(c)
            } else if (3...4).contains(parts.count), allNumbers, numbers.allSatisfy({ (0...1).contains($0) }) {
                candidate = .color(Color(red: numbers[0], green: numbers[1], blue: numbers[2],
                                         alpha: numbers.count == 4 ? numbers[3] : 1))
            } else {
                candidate = .word(whole)
            }
        case .word:
            candidate = .word(parts.count == 1 ? parts[0] : whole)
        }
        return try check(candidate, written: whole, path: path)
    }
}

extension SweepParameter.Value {
    /// The value at full precision, for digests: `number 0.2`, `vector 0 1 -0.5`, `color 1 0 0 1`, `word book`.
    var canonical: String {
        switch self {
        case let .number(v): return "number \(v)"
        case let .vector(v): return "vector \(v.x) \(v.y) \(v.z)"
        case let .color(c): return "color \(c.red) \(c.green) \(c.blue) \(c.alpha)"
        case let .word(w): return "word \(w)"
        }
    }
}
