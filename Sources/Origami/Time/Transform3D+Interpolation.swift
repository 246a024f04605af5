import Foundation

/// A 3D matrix taken apart as CSS Transforms 2 §"Decomposing a 3D matrix" does (the unmatrix of Graphics Gems
/// II, which WebKit and Core Animation use to animate a whole transform): `M = S · K · R · T · P` in Origami's
/// row-vector order — scale first, then the skews, the rotation (a unit quaternion), the translation, and the
/// perspective (the matrix whose last column is `perspective`). CSS writes its matrices with the translation in
/// `matrix[3][0…2]`, the same layout as `m41…m43`, so its algorithm reads here entry for entry.
struct DecomposedTransform: Equatable {
    var scale: Vector3
    /// xy, xz, yz.
    var skew: Vector3
    /// (x, y, z, w).
    var quaternion: (Double, Double, Double, Double)
    var translation: Vector3
    var perspective: (Double, Double, Double, Double)

    static func == (a: Self, b: Self) -> Bool {
        a.scale == b.scale && a.skew == b.skew && a.translation == b.translation
            && a.quaternion == b.quaternion && a.perspective == b.perspective
    }
}

extension Transform3D {
    /// The parts of this matrix; `nil` when it cannot be decomposed (m44 zero, or a singular upper 3×3).
    var decomposed: DecomposedTransform? {
        guard isFinite, m44 != 0 else { return nil }
        let m = rowMajor.map { $0 / m44 }
        func at(_ r: Int, _ c: Int) -> Double { m[r * 4 + c] }
        // The matrix without its perspective column: also the test for a singular 3×3.
        var n = m
        n[3] = 0; n[7] = 0; n[11] = 0; n[15] = 1
        guard let nMatrix = Transform3D(rowMajor: n), nMatrix.determinant != 0, let nInverse = nMatrix.inverted() else {
            return nil
        }
        var perspective = (0.0, 0.0, 0.0, 1.0)
        if at(0, 3) != 0 || at(1, 3) != 0 || at(2, 3) != 0 {
            // M = N · P with P the identity whose last column is p: N · p = M's last column, p = N⁻¹ · column.
            let column = [at(0, 3), at(1, 3), at(2, 3), at(3, 3)]
            let inv = nInverse.rowMajor
            func row(_ r: Int) -> Double { (0..<4).reduce(0) { $0 + inv[r * 4 + $1] * column[$1] } }
            perspective = (row(0), row(1), row(2), row(3))
        }
        let translation = Vector3(at(3, 0), at(3, 1), at(3, 2))
        var rows = (0..<3).map { Vector3(at($0, 0), at($0, 1), at($0, 2)) }
        var scale = Vector3.zero, skew = Vector3.zero
        scale.x = rows[0].length
        rows[0] = rows[0] / scale.x
        skew.x = rows[0].dot(rows[1])
        rows[1] = rows[1] - rows[0] * skew.x
        scale.y = rows[1].length
        rows[1] = rows[1] / scale.y
        skew.x /= scale.y
        skew.y = rows[0].dot(rows[2])
        rows[2] = rows[2] - rows[0] * skew.y
        skew.z = rows[1].dot(rows[2])
        rows[2] = rows[2] - rows[1] * skew.z
        scale.z = rows[2].length
        rows[2] = rows[2] / scale.z
        skew.y /= scale.z
        skew.z /= scale.z
        // A coordinate-system flip: negate the scales and the rows.
        if rows[0].dot(rows[1].cross(rows[2])) < 0 {
            scale = -scale
            rows = rows.map { -$0 }
        }
        let r = rows
        var x = 0.5 * max(1 + r[0].x - r[1].y - r[2].z, 0).squareRoot()
        var y = 0.5 * max(1 - r[0].x + r[1].y - r[2].z, 0).squareRoot()
        var z = 0.5 * max(1 - r[0].x - r[1].y + r[2].z, 0).squareRoot()
        let w = 0.5 * max(1 + r[0].x + r[1].y + r[2].z, 0).squareRoot()
        if r[2].y > r[1].z { x = -x }
        if r[0].z > r[2].x { y = -y }
        if r[1].x > r[0].y { z = -z }
        return DecomposedTransform(scale: scale, skew: skew, quaternion: (x, y, z, w), translation: translation,
                                   perspective: perspective)
    }

    /// The matrix of the parts: `S · K · R · T · P` (row vectors).
    init(_ d: DecomposedTransform) {
        let (x, y, z, w) = d.quaternion
        // The rotation of the unit quaternion in Origami's row-vector form: the transpose of the usual
        // column-vector matrix (a rotation about z by θ has m12 = sin θ, as DESIGN §1 and CSS's rotateZ agree).
        let rotation = Transform3D(
            m11: 1 - 2 * (y * y + z * z), m12: 2 * (x * y + z * w), m13: 2 * (x * z - y * w), m14: 0,
            m21: 2 * (x * y - z * w), m22: 1 - 2 * (x * x + z * z), m23: 2 * (y * z + x * w), m24: 0,
            m31: 2 * (x * z + y * w), m32: 2 * (y * z - x * w), m33: 1 - 2 * (x * x + y * y), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        var skew = Transform3D.identity
        skew.m21 = d.skew.x; skew.m31 = d.skew.y; skew.m32 = d.skew.z
        var perspective = Transform3D.identity
        (perspective.m14, perspective.m24, perspective.m34, perspective.m44) = d.perspective
        self = Transform3D(scaleX: d.scale.x, y: d.scale.y, z: d.scale.z)
            .concatenating(skew)
            .concatenating(rotation)
            .concatenating(Transform3D(translationX: d.translation.x, y: d.translation.y, z: d.translation.z))
            .concatenating(perspective)
    }

    /// The transform a `fraction` of the way from `self` to `other`, interpolated as CSS Transforms 2 §"Interpolation
    /// of 3D matrices" specifies and Core Animation does: both decomposed, translation, scale, skew and perspective
    /// interpolated linearly, the rotations by spherical linear interpolation of their quaternions, and the result
    /// recomposed. When either cannot be decomposed the value jumps from `self` to `other` half-way, as CSS says.
    public func interpolated(to other: Transform3D, fraction f: Double) -> Transform3D {
        if self == other { return self }
        guard let a = decomposed, let b = other.decomposed else { return f < 0.5 ? self : other }
        func lerp(_ p: Double, _ q: Double) -> Double { p + (q - p) * f }
        func lerp(_ p: Vector3, _ q: Vector3) -> Vector3 { p + (q - p) * f }
        let pa = a.perspective, pb = b.perspective
        return Transform3D(DecomposedTransform(
            scale: lerp(a.scale, b.scale), skew: lerp(a.skew, b.skew),
            quaternion: Self.slerp(a.quaternion, b.quaternion, f), translation: lerp(a.translation, b.translation),
            perspective: (lerp(pa.0, pb.0), lerp(pa.1, pb.1), lerp(pa.2, pb.2), lerp(pa.3, pb.3))))
    }

    /// CSS Transforms 2's slerp (no shortest-path flip: the spec interpolates the quaternions as decomposed).
    static func slerp(_ qa: (Double, Double, Double, Double), _ qb: (Double, Double, Double, Double),
                      _ f: Double) -> (Double, Double, Double, Double) {
        let product = min(max(qa.0 * qb.0 + qa.1 * qb.1 + qa.2 * qb.2 + qa.3 * qb.3, -1), 1)
        if abs(product) == 1 { return qa }
        let theta = acos(product)
        let w = sin(f * theta) / (1 - product * product).squareRoot()
        let s = cos(f * theta) - product * w
        return (qa.0 * s + qb.0 * w, qa.1 * s + qb.1 * w, qa.2 * s + qb.2 * w, qa.3 * s + qb.3 * w)
    }
}
