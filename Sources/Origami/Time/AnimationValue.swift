import Foundation

/// A value an animation takes: what `fromValue`, `toValue`, `byValue` and keyframe `values` hold. Which kind a key
/// path needs is `AnimationKeyPath.valueKind`. Numbers are written as literals (`0.5`, `2`).
public enum AnimationValue: Hashable, Sendable {
    /// A scalar (`opacity`, `zPosition`, `transform.rotation.y` in radians, …).
    case number(Double)
    /// A point (`position`, `anchorPoint`).
    case point(CGPoint)
    /// A size (`bounds.size`, `transform.translation`).
    case size(CGSize)
    /// A rectangle (`bounds`).
    case rect(CGRect)
    /// A colour (`backgroundColor`, `borderColor`, a light's colour).
    case color(Color)
    /// A whole transform (`transform`, `sublayerTransform`), interpolated by decomposition.
    case transform(Transform3D)
    /// A 3D vector (a light's direction or position).
    case vector(Vector3)

    /// Which kind of value a case holds; `AnimationKeyPath.valueKind` says which one a path takes.
    public enum Kind: String, Sendable, CaseIterable {
        /// `AnimationValue.number(_:)`.
        case number
        /// `AnimationValue.point(_:)`.
        case point
        /// `AnimationValue.size(_:)`.
        case size
        /// `AnimationValue.rect(_:)`.
        case rect
        /// `AnimationValue.color(_:)`.
        case color
        /// `AnimationValue.transform(_:)`.
        case transform
        /// `AnimationValue.vector(_:)`.
        case vector
    }

    /// Which kind of value this is.
    public var kind: Kind {
        switch self {
        case .number: return .number
        case .point: return .point
        case .size: return .size
        case .rect: return .rect
        case .color: return .color
        case .transform: return .transform
        case .vector: return .vector
        }
    }
}

extension AnimationValue: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension AnimationValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .number(v): return "\(v)"
        case let .point(p): return "(\(p.x), \(p.y))"
        case let .size(s): return "\(s.width)×\(s.height)"
        case let .rect(r): return "(\(r.origin.x), \(r.origin.y), \(r.size.width), \(r.size.height))"
        case let .color(c): return c.description
        case let .transform(t): return t.description
        case let .vector(v): return v.description
        }
    }
}

// MARK: - Arithmetic

// Animations interpolate, add and measure values component by component, except transforms: those interpolate by
// decomposition (`Transform3D.interpolated(to:fraction:)`) and add by concatenation, as Core Animation does.
extension AnimationValue {
    /// The components of every kind but a transform's matrix order (row-major for a transform).
    var components: [Double] {
        switch self {
        case let .number(v): return [v]
        case let .point(p): return [Double(p.x), Double(p.y)]
        case let .size(s): return [Double(s.width), Double(s.height)]
        case let .rect(r): return [Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)]
        case let .color(c): return [c.red, c.green, c.blue, c.alpha]
        case let .transform(t): return t.rowMajor
        case let .vector(v): return [v.x, v.y, v.z]
        }
    }

    /// A value of `kind` from its components (as `components` lists them).
    init(kind: Kind, components c: [Double]) {
        switch kind {
        case .number: self = .number(c[0])
        case .point: self = .point(CGPoint(x: c[0], y: c[1]))
        case .size: self = .size(CGSize(width: c[0], height: c[1]))
        case .rect: self = .rect(CGRect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .color: self = .color(Color(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case .transform: self = .transform(Transform3D(rowMajor: c) ?? .identity)
        case .vector: self = .vector(Vector3(c[0], c[1], c[2]))
        }
    }

    /// The value a `fraction` of the way from `self` to `other`; `nil` when their kinds differ.
    func interpolated(to other: AnimationValue, fraction f: Double) -> AnimationValue? {
        guard kind == other.kind else { return nil }
        if case let .transform(a) = self, case let .transform(b) = other {
            return .transform(a.interpolated(to: b, fraction: f))
        }
        let a = components, b = other.components
        return AnimationValue(kind: kind, components: zip(a, b).map { $0 + ($1 - $0) * f })
    }

    /// `self` followed by `delta`: the sum, or for transforms `delta` applied first, then `self`.
    func adding(_ delta: AnimationValue) -> AnimationValue? {
        guard kind == delta.kind else { return nil }
        if case let .transform(base) = self, case let .transform(d) = delta { return .transform(d.concatenating(base)) }
        return AnimationValue(kind: kind, components: zip(components, delta.components).map(+))
    }

    /// The value `x` with `x.adding(delta) == self`; `nil` when the kinds differ or a transform delta is singular.
    func subtracting(_ delta: AnimationValue) -> AnimationValue? {
        guard kind == delta.kind else { return nil }
        if case let .transform(total) = self, case let .transform(d) = delta {
            return d.inverted().map { .transform($0.concatenating(total)) }
        }
        return AnimationValue(kind: kind, components: zip(components, delta.components).map(-))
    }

    /// `self` added to itself `count` times (0: the zero of its kind). For cumulative repeats.
    func repeated(_ count: Int) -> AnimationValue {
        if case let .transform(t) = self {
            var m = Transform3D.identity
            // Cumulative transforms over very many cycles would only lose precision; a bounded count keeps it cheap.
            for _ in 0..<min(max(count, 0), 10_000) { m = m.concatenating(t) }
            return .transform(m)
        }
        return AnimationValue(kind: kind, components: components.map { $0 * Double(count) })
    }

    /// The distance to `other` for paced keyframes: Euclidean over the components (a transform's 16 entries).
    func distance(to other: AnimationValue) -> Double {
        guard kind == other.kind else { return 0 }
        return zip(components, other.components).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }
}
