import Foundation

/// A 3D vector or point, z toward the viewer.
public struct Vector3: Hashable, Sendable {
    /// The components, in points for a position.
    public var x: Double, y: Double, z: Double

    /// A vector from its components.
    public init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    /// A vector from its labelled components.
    public init(x: Double, y: Double, z: Double) { self.init(x, y, z) }

    /// The zero vector (the origin).
    public static let zero = Vector3(0, 0, 0)
    /// (1, 0, 0): right.
    public static let unitX = Vector3(1, 0, 0)
    /// (0, 1, 0): down (y grows downward).
    public static let unitY = Vector3(0, 1, 0)
    /// (0, 0, 1): toward the viewer.
    public static let unitZ = Vector3(0, 0, 1)
}

extension Vector3 {
    /// Component-wise sum.
    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    /// Component-wise difference.
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    /// The opposite vector.
    public static prefix func - (a: Vector3) -> Vector3 { Vector3(-a.x, -a.y, -a.z) }
    /// Every component times `s`.
    public static func * (a: Vector3, s: Double) -> Vector3 { Vector3(a.x * s, a.y * s, a.z * s) }
    /// Every component times `s`.
    public static func * (s: Double, a: Vector3) -> Vector3 { a * s }
    /// Every component divided by `s`.
    public static func / (a: Vector3, s: Double) -> Vector3 { Vector3(a.x / s, a.y / s, a.z / s) }

    /// The dot product.
    public func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }
    /// The cross product; with x right, y down and z toward the viewer, `unitX.cross(unitY) == unitZ`.
    public func cross(_ b: Vector3) -> Vector3 {
        Vector3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
    }
    /// The squared length (`self · self`), without a square root.
    public var lengthSquared: Double { dot(self) }
    /// The Euclidean length.
    public var length: Double { lengthSquared.squareRoot() }

    /// The unit vector in the same direction, or `nil` for a zero or non-finite vector.
    public func normalized() -> Vector3? {
        let l = length
        guard l > 0, l.isFinite else { return nil }
        return self / l
    }

    /// Every component is finite (no NaN or infinity).
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

extension Vector3: ApproximatelyEquatable {
    public func isApproximatelyEqual(to other: Vector3, absoluteTolerance: Double) -> Bool {
        abs(x - other.x) <= absoluteTolerance && abs(y - other.y) <= absoluteTolerance
            && abs(z - other.z) <= absoluteTolerance
    }
}

extension Vector3: CustomStringConvertible {
    public var description: String { "(\(x), \(y), \(z))" }
}

extension Vector3 {
    /// Newell's normal of a planar polygon, not normalised (its length is twice the area): it depends on every
    /// vertex rather than on any three, so it is robust for any polygon, and zero for a degenerate one. Summed
    /// about the centroid, which keeps far-from-origin polygons accurate.
    public static func newellNormal(of polygon: [Vector3]) -> Vector3 {
        polygon.withUnsafeBufferPointer { newellNormal(of: $0) }
    }

    /// `newellNormal(of:)` of corners held in a buffer (a range of a shared pool of points).
    public static func newellNormal(of polygon: UnsafeBufferPointer<Vector3>) -> Vector3 {
        guard !polygon.isEmpty else { return .zero }
        let centroid = polygon.reduce(Vector3.zero, +) / Double(polygon.count)
        var n = Vector3.zero
        for i in polygon.indices {
            n = n + (polygon[i] - centroid).cross(polygon[(i + 1) % polygon.count] - centroid)
        }
        return n
    }
}

/// A homogeneous 4-vector `(x, y, z, w)`, the row vector Core Animation's matrices multiply.
public struct Vector4: Hashable, Sendable {
    /// The homogeneous components; the point they stand for is `(x, y, z) / w` when w > 0.
    public var x: Double, y: Double, z: Double, w: Double

    /// A 4-vector from its components.
    public init(x: Double, y: Double, z: Double, w: Double) { self.x = x; self.y = y; self.z = z; self.w = w }
    /// The point `v` with homogeneous weight `w` (1 for a point, 0 for a direction).
    public init(_ v: Vector3, w: Double) { self.init(x: v.x, y: v.y, z: v.z, w: w) }

    /// The point after the perspective divide, or `nil` at or behind the eye (w ≤ 0) or when not finite.
    public var projected: Vector3? {
        guard w > 0, x.isFinite, y.isFinite, z.isFinite, w.isFinite else { return nil }
        let p = Vector3(x / w, y / w, z / w)
        return p.isFinite ? p : nil
    }
}
