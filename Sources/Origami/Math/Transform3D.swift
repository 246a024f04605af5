import Foundation

/// A 4×4 homogeneous transform with Core Animation's conventions. Corresponds to `CATransform3D`.
///
/// Points are **row vectors**: `p' = p · M`, so translation lives in `m41 m42 m43` and perspective in
/// `m34 = -1/d`. `a.concatenating(b)` applies `a` first, then `b` (it is the product `a · b`), exactly like
/// `CATransform3DConcat(a, b)`. Concatenation is not commutative.
///
/// The `translated`, `scaled` and `rotated` methods **prepend** their operation, like
/// `CATransform3DTranslate/Scale/Rotate(t, …)`: the new operation applies first, in `t`'s local space.
public struct Transform3D: Hashable, Sendable {
    /// The first row (the image of the x axis) and `m14`, x's share of the homogeneous w.
    public var m11: Double, m12: Double, m13: Double, m14: Double
    /// The second row (the image of the y axis) and `m24`.
    public var m21: Double, m22: Double, m23: Double, m24: Double
    /// The third row (the image of the z axis) and `m34`: the book's perspective, `-1/d` for an eye d points away.
    public var m31: Double, m32: Double, m33: Double, m34: Double
    /// The translation `m41 m42 m43` and `m44` (1 for a non-projective transform).
    public var m41: Double, m42: Double, m43: Double, m44: Double

    /// A transform from its sixteen elements, row by row, as the fields of `CATransform3D`.
    public init(
        m11: Double, m12: Double, m13: Double, m14: Double,
        m21: Double, m22: Double, m23: Double, m24: Double,
        m31: Double, m32: Double, m33: Double, m34: Double,
        m41: Double, m42: Double, m43: Double, m44: Double
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The identity transform. Corresponds to `CATransform3DIdentity`.
    public static let identity = Transform3D(
        m11: 1, m12: 0, m13: 0, m14: 0,
        m21: 0, m22: 1, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0,
        m41: 0, m42: 0, m43: 0, m44: 1)
}

// MARK: - Element access

extension Transform3D {
    /// Creates a transform from 16 values in row-major order (`m11, m12, …, m44`).
    /// Returns `nil` unless exactly 16 values are given.
    public init?(rowMajor values: [Double]) {
        guard values.count == 16 else { return nil }
        self.init(
            m11: values[0], m12: values[1], m13: values[2], m14: values[3],
            m21: values[4], m22: values[5], m23: values[6], m24: values[7],
            m31: values[8], m32: values[9], m33: values[10], m34: values[11],
            m41: values[12], m42: values[13], m43: values[14], m44: values[15])
    }

    /// The 16 elements in row-major order (`m11, m12, …, m44`).
    public var rowMajor: [Double] {
        [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
    }

    /// Element at `row` and `column`, both 0-based (`self[0, 0]` is `m11`, `self[2, 3]` is `m34`).
    public subscript(row: Int, column: Int) -> Double {
        get {
            precondition((0..<4).contains(row) && (0..<4).contains(column), "Transform3D index out of range")
            return withUnsafeBytes(of: self) { $0.load(fromByteOffset: (row * 4 + column) * 8, as: Double.self) }
        }
        set {
            precondition((0..<4).contains(row) && (0..<4).contains(column), "Transform3D index out of range")
            withUnsafeMutableBytes(of: &self) { $0.storeBytes(of: newValue, toByteOffset: (row * 4 + column) * 8, as: Double.self) }
        }
    }

    /// True when every element is finite.
    public var isFinite: Bool { finiteResidue == 0 }

    /// 0 when every element is finite, NaN otherwise: `x − x` is exactly +0 for a finite `x` and NaN for ±∞ or NaN,
    /// and a sum is NaN as soon as one term is (no term can overflow). One test instead of sixteen branches: the
    /// freeze tests every layer's two transforms (inlined: a call copied the 128-byte matrix to the stack).
    @inline(__always) var finiteResidue: Double {
        (m11 - m11) + (m12 - m12) + (m13 - m13) + (m14 - m14) + (m21 - m21) + (m22 - m22) + (m23 - m23) + (m24 - m24)
            + (m31 - m31) + (m32 - m32) + (m33 - m33) + (m34 - m34) + (m41 - m41) + (m42 - m42) + (m43 - m43) + (m44 - m44)
    }
}

// MARK: - Factories

extension Transform3D {
    /// Translation by (tx, ty, tz). Corresponds to `CATransform3DMakeTranslation`.
    public init(translationX tx: Double, y ty: Double, z tz: Double = 0) {
        self = .identity
        m41 = tx; m42 = ty; m43 = tz
    }

    /// Scale by (sx, sy, sz). Corresponds to `CATransform3DMakeScale`.
    public init(scaleX sx: Double, y sy: Double, z sz: Double = 1) {
        self = .identity
        m11 = sx; m22 = sy; m33 = sz
    }

    /// Rotation by `angle` radians about the axis (x, y, z), which need not be normalised.
    /// Corresponds to `CATransform3DMakeRotation`; a zero (or non-finite) axis gives the identity.
    ///
    /// About z: `m11 = c, m12 = s, m21 = −s, m22 = c` — with y down, a positive angle turns +x towards +y,
    /// which is clockwise on screen. About y: `m13 = −s, m31 = s`. About x: `m23 = s, m32 = −s`.
    public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite else { self = .identity; return }
        let (kx, ky, kz) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), t = 1 - c
        // Row-vector form of Rodrigues' formula: M = c·I + (1−c)·k kᵀ − s·[k]×.
        self.init(
            m11: c + t * kx * kx, m12: t * kx * ky + s * kz, m13: t * kx * kz - s * ky, m14: 0,
            m21: t * kx * ky - s * kz, m22: c + t * ky * ky, m23: t * ky * kz + s * kx, m24: 0,
            m31: t * kx * kz + s * ky, m32: t * ky * kz - s * kx, m33: c + t * kz * kz, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// The book's perspective: the identity with `m34 = −1/distance` (the eye at `distance` points in front
    /// of the plane). A non-positive or non-finite distance gives the identity (no perspective).
    public static func perspective(distance: Double) -> Transform3D {
        var t = Transform3D.identity
        if distance > 0, distance.isFinite { t.m34 = -1 / distance }
        return t
    }
}

// MARK: - Composition

extension Transform3D {
    /// The product `self · other`: `self` applies first, then `other`.
    /// Corresponds to `CATransform3DConcat(self, other)`.
    public func concatenating(_ b: Transform3D) -> Transform3D {
        let a = self
        return Transform3D(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
            m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
            m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
            m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
            m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
            m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
            m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
            m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
    }

    /// `lhs.concatenating(rhs)`: the matrix product, `lhs` applied first.
    public static func * (lhs: Transform3D, rhs: Transform3D) -> Transform3D { lhs.concatenating(rhs) }

    /// Translation by (tx, ty, tz) applied **before** `self`. Corresponds to `CATransform3DTranslate`.
    public func translated(x tx: Double, y ty: Double, z tz: Double = 0) -> Transform3D {
        Transform3D(translationX: tx, y: ty, z: tz).concatenating(self)
    }

    /// Scale applied **before** `self`. Corresponds to `CATransform3DScale`.
    public func scaled(x sx: Double, y sy: Double, z sz: Double = 1) -> Transform3D {
        Transform3D(scaleX: sx, y: sy, z: sz).concatenating(self)
    }

    /// Rotation applied **before** `self`. Corresponds to `CATransform3DRotate`.
    public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    /// Prepends a translation in place: `t = CATransform3DTranslate(t, tx, ty, tz)`.
    public mutating func translate(x tx: Double, y ty: Double, z tz: Double = 0) { self = translated(x: tx, y: ty, z: tz) }
    /// Prepends a scale in place: `t = CATransform3DScale(t, sx, sy, sz)`.
    public mutating func scale(x sx: Double, y sy: Double, z sz: Double = 1) { self = scaled(x: sx, y: sy, z: sz) }
    /// Prepends a rotation (radians about (x, y, z)) in place: `t = CATransform3DRotate(t, angle, x, y, z)`.
    public mutating func rotate(by angle: Double, x: Double, y: Double, z: Double) { self = rotated(by: angle, x: x, y: y, z: z) }
    /// Appends `other` in place (`self` applies first): `t = CATransform3DConcat(t, other)`.
    public mutating func concatenate(_ other: Transform3D) { self = concatenating(other) }
}

// MARK: - Properties and inverse

extension Transform3D {
    /// Exactly the identity. Corresponds to `CATransform3DIsIdentity`.
    public var isIdentity: Bool { self == .identity }

    /// True when the transform is a 2D affine transform: only `m11 m12 m21 m22 m41 m42` may differ from the
    /// identity. Corresponds to `CATransform3DIsAffine`.
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0
            && m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0
            && m43 == 0 && m44 == 1
    }

    /// The affine part `[m11 m12 m21 m22 m41 m42]`, whatever the other elements are.
    /// Corresponds to `CATransform3DGetAffineTransform`.
    public var affinePart: AffineTransform2D {
        AffineTransform2D(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }

    /// The 3D transform equal to a 2D affine one. Corresponds to `CATransform3DMakeAffineTransform`.
    public init(_ affine: AffineTransform2D) {
        self = .identity
        m11 = affine.a; m12 = affine.b; m21 = affine.c; m22 = affine.d; m41 = affine.tx; m42 = affine.ty
    }

    /// The determinant of the 4×4 matrix.
    public var determinant: Double {
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13, s2 = m11 * m24 - m21 * m14
        let s3 = m12 * m23 - m22 * m13, s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34, c3 = m32 * m43 - m42 * m33
        let c2 = m31 * m44 - m41 * m34, c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        return s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    }

    /// The inverse, or `nil` when the matrix is singular (or not finite). `CATransform3DInvert`, which
    /// returns its input unchanged in that case, is in the compatibility names.
    public func inverted() -> Transform3D? {
        guard isFinite else { return nil }
        let s0 = m11 * m22 - m21 * m12, s1 = m11 * m23 - m21 * m13, s2 = m11 * m24 - m21 * m14
        let s3 = m12 * m23 - m22 * m13, s4 = m12 * m24 - m22 * m14, s5 = m13 * m24 - m23 * m14
        let c5 = m33 * m44 - m43 * m34, c4 = m32 * m44 - m42 * m34, c3 = m32 * m43 - m42 * m33
        let c2 = m31 * m44 - m41 * m34, c1 = m31 * m43 - m41 * m33, c0 = m31 * m42 - m41 * m32
        let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
        // Relative test against Hadamard's bound (|det| ≤ product of the row lengths): a determinant that is
        // tiny next to it means the rows are (numerically) dependent, whatever the matrix's overall scale.
        let bound = (m11 * m11 + m12 * m12 + m13 * m13 + m14 * m14).squareRoot()
            * (m21 * m21 + m22 * m22 + m23 * m23 + m24 * m24).squareRoot()
            * (m31 * m31 + m32 * m32 + m33 * m33 + m34 * m34).squareRoot()
            * (m41 * m41 + m42 * m42 + m43 * m43 + m44 * m44).squareRoot()
        guard det.isFinite, det != 0, abs(det) > 1e-14 * bound else { return nil }
        let inv = 1 / det
        let r = Transform3D(
            m11: (m22 * c5 - m23 * c4 + m24 * c3) * inv,
            m12: (-m12 * c5 + m13 * c4 - m14 * c3) * inv,
            m13: (m42 * s5 - m43 * s4 + m44 * s3) * inv,
            m14: (-m32 * s5 + m33 * s4 - m34 * s3) * inv,
            m21: (-m21 * c5 + m23 * c2 - m24 * c1) * inv,
            m22: (m11 * c5 - m13 * c2 + m14 * c1) * inv,
            m23: (-m41 * s5 + m43 * s2 - m44 * s1) * inv,
            m24: (m31 * s5 - m33 * s2 + m34 * s1) * inv,
            m31: (m21 * c4 - m22 * c2 + m24 * c0) * inv,
            m32: (-m11 * c4 + m12 * c2 - m14 * c0) * inv,
            m33: (m41 * s4 - m42 * s2 + m44 * s0) * inv,
            m34: (-m31 * s4 + m32 * s2 - m34 * s0) * inv,
            m41: (-m21 * c3 + m22 * c1 - m23 * c0) * inv,
            m42: (m11 * c3 - m12 * c1 + m13 * c0) * inv,
            m43: (-m41 * s3 + m42 * s1 - m43 * s0) * inv,
            m44: (m31 * s3 - m32 * s1 + m33 * s0) * inv)
        return r.isFinite ? r : nil
    }

    /// The transpose (rows become columns).
    public var transposed: Transform3D {
        Transform3D(
            m11: m11, m12: m21, m13: m31, m14: m41,
            m21: m12, m22: m22, m23: m32, m24: m42,
            m31: m13, m32: m23, m33: m33, m34: m43,
            m41: m14, m42: m24, m43: m34, m44: m44)
    }
}

// MARK: - Applying to points

extension Transform3D {
    /// The homogeneous product `(x, y, z, w) · M`.
    // (The renderer's per-corner maps call it from another module; `@inlinable` alone left it a call there — the
    // render tree's extent loop maps four corners of each of 6 000 members, lighting one point a face.)
    @inlinable @inline(__always)
    public func apply(_ p: Vector4) -> Vector4 {
        Vector4(
            x: p.x * m11 + p.y * m21 + p.z * m31 + p.w * m41,
            y: p.x * m12 + p.y * m22 + p.z * m32 + p.w * m42,
            z: p.x * m13 + p.y * m23 + p.z * m33 + p.w * m43,
            w: p.x * m14 + p.y * m24 + p.z * m34 + p.w * m44)
    }

    /// The point `(x, y, z, 1) · M` after the perspective divide, or `nil` when it lands at or behind the
    /// eye (w ≤ 0) or is not finite.
    public func apply(_ p: Vector3) -> Vector3? {
        apply(Vector4(p, w: 1)).projected
    }

    /// The linear part (rows 1–3, columns 1–3): how directions are carried, translation and perspective ignored.
    public var linearPart: Matrix3 {
        Matrix3(m11: m11, m12: m12, m13: m13, m21: m21, m22: m22, m23: m23, m31: m31, m32: m32, m33: m33)
    }
}

// MARK: - Approximate equality

extension Transform3D: ApproximatelyEquatable {
    public func isApproximatelyEqual(to other: Transform3D, absoluteTolerance: Double) -> Bool {
        zip(rowMajor, other.rowMajor).allSatisfy { abs($0 - $1) <= absoluteTolerance }
    }
}

extension Transform3D: CustomStringConvertible {
    public var description: String {
        // C's printf rather than `String(format:)`, whose CFString machinery on Linux made printing the
        // matrices of a 20 000-face solid a fifth of `origami inspect`'s time. Same digits: both are C's `%g`.
        // Rounding noise (cos 90° = 6.12323e-17) prints as 0: a value that small beside the matrix's largest
        // entry is below what a double holds of it. -0 prints as 0 too.
        let noise = 1e-12 * Swift.max(1, [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
            .reduce(0) { Swift.max($0, abs($1)) })
        func f(_ v: Double) -> String {
            if abs(v) < noise || v == 0 { return "0" }
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
                guard let base = buffer.baseAddress else { return String(format: "%g", v) }
                _ = withVaList([v]) { vsnprintf(base, buffer.count, "%g", $0) }
                return String(cString: base)
            }
        }
        return "[\(f(m11)) \(f(m12)) \(f(m13)) \(f(m14)); \(f(m21)) \(f(m22)) \(f(m23)) \(f(m24)); "
            + "\(f(m31)) \(f(m32)) \(f(m33)) \(f(m34)); \(f(m41)) \(f(m42)) \(f(m43)) \(f(m44))]"
    }
}
