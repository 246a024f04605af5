import Foundation

/// Why a key path cannot be animated.
public struct AnimationKeyPathError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the path, as a sentence.
    public let message: String
    /// A suggestion ("did you mean `position`?"), when there is one.
    public let hint: String?

    /// An error with a message and, optionally, a hint.
    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
    public var description: String { message + (hint.map { "; \($0)" } ?? "") }
}

/// A parsed animatable key path, such as `position.x`, `transform.rotation.y` or `lighting.light[1].intensity`.
///
/// The paths are Core Animation's (CALayer's animatable properties and the `transform` field paths of the
/// "Core Animation Programming Guide", "Key-Value Coding Extensions"), plus Origami's lighting: `lighting.ambient`,
/// `lighting.shininess`, `lighting.specular` and, per light, `lighting.light.direction|position|color|intensity`
/// (`light` is the first light, `light[i]` light i counted from 0 — the names `SweepParameter` uses, behind
/// `lighting.`). A lighting path animates a layer whose `lighting` is a `Lighting`; a light index beyond its
/// lights is ignored.
///
/// A `transform`/`sublayerTransform` sub-path animates one number (or the translation's size) and turns it into a
/// matrix as `CAValueFunction` does: `rotation.x|y|z` (`rotation` is z; radians), `scale` (uniform), `scale.x|y|z`,
/// `translation` (a size), `translation.x|y|z`.
public struct AnimationKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// A coordinate axis of a transform sub-path (`rotation.x`, `scale.y`, `translation.z`).
    public enum Axis: Int, Hashable, Sendable {
        /// Right.
        case x
        /// Down (y grows downward).
        case y
        /// Toward the viewer.
        case z
    }

    /// Which part of a transform a sub-path animates.
    enum TransformPart: Hashable, Sendable {
        case whole
        case rotation(Axis)
        case scale
        case scaleAxis(Axis)
        case translation
        case translationAxis(Axis)
    }

    enum LightField: String, Hashable, Sendable { case direction, position, color, intensity }

    /// The property a path names.
    enum Property: Hashable, Sendable {
        case position, positionX, positionY
        case bounds, boundsOrigin, boundsSize, boundsWidth, boundsHeight
        case anchorPoint, anchorPointZ, zPosition
        case opacity, backgroundColor, borderWidth, borderColor, cornerRadius
        case transform(TransformPart), sublayerTransform(TransformPart)
        case ambient, shininess, specular
        case light(Int, LightField)
    }

    /// As written.
    public let path: String
    let property: Property

    public var description: String { path }

    /// Parses `path`; throws, with a "did you mean" hint, when it is not an animatable key path.
    public init(_ path: String) throws(AnimationKeyPathError) {
        guard let property = Self.parse(path) else {
            let hint = closestAnimationKeyPath(to: path).map { "did you mean `\($0)`?" }
                ?? "animatable key paths: \(Self.knownPaths.joined(separator: ", "))"
            throw AnimationKeyPathError("`\(path)` is not an animatable key path", hint: hint)
        }
        self.path = path
        self.property = property
    }

    /// Every path this type accepts, light indices written as `light` (the first light; `light[i]` for others).
    public static var knownPaths: [String] { simplePaths.map(\.0) + transformPaths + lightPaths }

    /// The kind of value `fromValue`, `toValue`, `byValue` and `values` must hold for this path.
    public var valueKind: AnimationValue.Kind {
        switch property {
        case .position, .boundsOrigin, .anchorPoint: return .point
        case .bounds: return .rect
        case .boundsSize: return .size
        case .positionX, .positionY, .boundsWidth, .boundsHeight, .anchorPointZ, .zPosition, .opacity, .borderWidth,
             .cornerRadius, .ambient, .shininess:
            return .number
        case .backgroundColor, .borderColor, .specular: return .color
        case let .transform(part), let .sublayerTransform(part):
            switch part {
            case .whole: return .transform
            case .translation: return .size
            case .rotation, .scale, .scaleAxis, .translationAxis: return .number
            }
        case let .light(_, field):
            switch field {
            case .direction, .position: return .vector
            case .color: return .color
            case .intensity: return .number
            }
        }
    }

    /// A rotation sub-path: its values are angles, in radians here (scene files write degrees).
    public var isAngle: Bool {
        switch property {
        case .transform(.rotation), .sublayerTransform(.rotation): return true
        default: return false
        }
    }

    // MARK: Parsing

    private static let simplePaths: [(String, Property)] = [
        ("position", .position), ("position.x", .positionX), ("position.y", .positionY),
        ("bounds", .bounds), ("bounds.origin", .boundsOrigin), ("bounds.size", .boundsSize),
        ("bounds.size.width", .boundsWidth), ("bounds.size.height", .boundsHeight),
        ("anchorPoint", .anchorPoint), ("anchorPointZ", .anchorPointZ), ("zPosition", .zPosition),
        ("opacity", .opacity), ("backgroundColor", .backgroundColor), ("borderWidth", .borderWidth),
        ("borderColor", .borderColor), ("cornerRadius", .cornerRadius),
        ("lighting.ambient", .ambient), ("lighting.shininess", .shininess), ("lighting.specular", .specular),
    ]

    private static let transformParts: [(String, TransformPart)] = [
        ("", .whole), (".rotation", .rotation(.z)), (".rotation.x", .rotation(.x)), (".rotation.y", .rotation(.y)),
        (".rotation.z", .rotation(.z)), (".scale", .scale), (".scale.x", .scaleAxis(.x)), (".scale.y", .scaleAxis(.y)),
        (".scale.z", .scaleAxis(.z)), (".translation", .translation), (".translation.x", .translationAxis(.x)),
        (".translation.y", .translationAxis(.y)), (".translation.z", .translationAxis(.z)),
    ]

    private static let transformPaths: [String] =
        ["transform", "sublayerTransform"].flatMap { base in transformParts.map { base + $0.0 } }

    private static let lightPaths: [String] =
        ["direction", "position", "color", "intensity"].map { "lighting.light.\($0)" }

    private static func parse(_ path: String) -> Property? {
        if let p = simplePaths.first(where: { $0.0 == path }) { return p.1 }
        for (base, make) in [("transform", Property.transform), ("sublayerTransform", Property.sublayerTransform)]
        where path.hasPrefix(base) {
            let rest = path.dropFirst(base.count)
            if let part = transformParts.first(where: { $0.0 == rest }) { return make(part.1) }
        }
        // lighting.light[i].field
        let parts = path.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "lighting", let field = LightField(rawValue: String(parts[2])) else {
            return nil
        }
        let holder = parts[1]
        guard holder.hasPrefix("light") else { return nil }
        let index = holder.dropFirst("light".count)
        if index.isEmpty { return .light(0, field) }
        guard index.hasPrefix("["), index.hasSuffix("]"), let i = Int(index.dropFirst().dropLast()), i >= 0 else {
            return nil
        }
        return .light(i, field)
    }
}

/// The known path closest to `word` (case-insensitive edit distance at most max(2, a third of its length)), for
/// the "did you mean" hint. A light index is ignored in the comparison (`lighting.light[2].colour` suggests
/// `lighting.light[2].color`).
func closestAnimationKeyPath(to word: String) -> String? {
    var probe = word, index: Substring?
    if let open = word.firstIndex(of: "["), let close = word[open...].firstIndex(of: "]") {
        index = word[open...close]
        probe.removeSubrange(open...close)
    }
    guard let match = closestMatch(to: probe, in: AnimationKeyPath.knownPaths) else { return nil }
    if let index, match.hasPrefix("lighting.light.") {
        return "lighting.light" + index + match.dropFirst("lighting.light".count)
    }
    return match
}
