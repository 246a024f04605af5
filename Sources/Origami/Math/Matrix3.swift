import Foundation

/// A 3×3 matrix acting on row vectors (`v' = v · M`), used for the linear part of a `Transform3D`
/// (directions and normals).
public struct Matrix3: Hashable, Sendable {
    /// The first row: the image of the x axis.
    public var m11: Double, m12: Double, m13: Double
    /// The second row: the image of the y axis.
    public var m21: Double, m22: Double, m23: Double
    /// The third row: the image of the z axis (for a homography, the translation row).
    public var m31: Double, m32: Double, m33: Double

    /// A matrix from its nine elements, row by row.
    public init(
        m11: Double, m12: Double, m13: Double,
        m21: Double, m22: Double, m23: Double,
        m31: Double, m32: Double, m33: Double
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13
        self.m21 = m21; self.m22 = m22; self.m23 = m23
        self.m31 = m31; self.m32 = m32; self.m33 = m33
    }

    /// The identity matrix.
    public static let identity = Matrix3(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)
}

extension Matrix3 {
    /// `self` applied first, then `b`: the product `self · b`.
    public func concatenating(_ b: Matrix3) -> Matrix3 {
        let a = self
        return Matrix3(
            m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31,
            m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32,
            m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33,
            m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31,
            m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32,
            m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33,
            m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31,
            m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32,
            m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33)
    }

    /// `lhs` applied first, then `rhs`: the row-vector product `lhs · rhs`. Not commutative.
    public static func * (lhs: Matrix3, rhs: Matrix3) -> Matrix3 { lhs.concatenating(rhs) }

    /// The determinant; negative when the matrix mirrors, 0 when singular.
    public var determinant: Double {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// Rows and columns exchanged.
    public var transposed: Matrix3 {
        Matrix3(m11: m11, m12: m21, m13: m31, m21: m12, m22: m22, m23: m32, m31: m13, m32: m23, m33: m33)
    }

    /// The nine elements, row by row.
    public var elements: [Double] { [m11, m12, m13, m21, m22, m23, m31, m32, m33] }
    /// Every element is finite (no NaN or infinity).
    /// (Summed as `Transform3D.finiteResidue`: one test instead of nine branches, asked twice by every `inverted()`
    /// — lighting inverts a Jacobian per face.)
    public var isFinite: Bool {
        (m11 - m11) + (m12 - m12) + (m13 - m13) + (m21 - m21) + (m22 - m22) + (m23 - m23)
            + (m31 - m31) + (m32 - m32) + (m33 - m33) == 0
    }

    /// The inverse, or `nil` when the matrix is singular or not finite. The test is relative to Hadamard's
    /// bound (the product of the row lengths), so it does not depend on the matrix's overall scale; a row that
    /// has collapsed to rounding noise next to the longest one (a plane turned exactly edge-on without
    /// perspective, where cos(π/2) ≈ 6e-17) also counts as singular, since Hadamard's bound alone scales it away.
    public func inverted() -> Matrix3? {
        guard isFinite else { return nil }
        let c11 = m22 * m33 - m23 * m32, c12 = m23 * m31 - m21 * m33, c13 = m21 * m32 - m22 * m31
        let det = m11 * c11 + m12 * c12 + m13 * c13
        // Row lengths as scalars (no array: this sits on the hit-testing and conversion paths).
        let r1 = (m11 * m11 + m12 * m12 + m13 * m13).squareRoot()
        let r2 = (m21 * m21 + m22 * m22 + m23 * m23).squareRoot()
        let r3 = (m31 * m31 + m32 * m32 + m33 * m33).squareRoot()
        let bound = r1 * r2 * r3
        let shortest = min(min(r1, r2), r3), longest = max(max(r1, r2), r3)
        guard det.isFinite, det != 0, abs(det) > 1e-12 * bound, shortest > 1e-12 * longest else { return nil }
        let inv = 1 / det
        let r = Matrix3(
            m11: c11 * inv, m12: (m13 * m32 - m12 * m33) * inv, m13: (m12 * m23 - m13 * m22) * inv,
            m21: c12 * inv, m22: (m11 * m33 - m13 * m31) * inv, m23: (m13 * m21 - m11 * m23) * inv,
            m31: c13 * inv, m32: (m12 * m31 - m11 * m32) * inv, m33: (m11 * m22 - m12 * m21) * inv)
        return r.isFinite ? r : nil
    }

    /// `v · M`.
    public func apply(_ v: Vector3) -> Vector3 {
        Vector3(
            v.x * m11 + v.y * m21 + v.z * m31,
            v.x * m12 + v.y * m22 + v.z * m32,
            v.x * m13 + v.y * m23 + v.z * m33)
    }
}

extension Matrix3: ApproximatelyEquatable {
    public func isApproximatelyEqual(to other: Matrix3, absoluteTolerance: Double) -> Bool {
        zip(elements, other.elements).allSatisfy { abs($0 - $1) <= absoluteTolerance }
    }
}
