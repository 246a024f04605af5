import Foundation

/// A projective map between two planes: a 3×3 matrix acting on homogeneous row vectors
/// `(x, y, 1) · H = (X, Y, W)`, the image being `(X/W, Y/W)`.
///
/// This is how one ordinary layer's plane maps into another's: take the 4×4 `Transform3D` of the chain,
/// drop its z row (points on a layer's plane have z = 0) and its z column (the depth is discarded when the
/// superlayer flattens its sublayers). A point with W ≤ 0 lies at or behind the eye and has no image.
public struct Homography: Hashable, Sendable {
    /// The 3×3 matrix, acting on row vectors `(x, y, 1) · M`.
    public var matrix: Matrix3

    /// The homography of a 3×3 matrix.
    public init(_ matrix: Matrix3) { self.matrix = matrix }

    /// The identity map.
    public static let identity = Homography(Matrix3.identity)

    /// The plane-to-plane map of a 3D transform: rows 1, 2, 4 and columns 1, 2, 4 of `t`.
    public init(_ t: Transform3D) {
        matrix = Matrix3(
            m11: t.m11, m12: t.m12, m13: t.m14,
            m21: t.m21, m22: t.m22, m23: t.m24,
            m31: t.m41, m32: t.m42, m33: t.m44)
    }
}

extension Homography {
    /// `self` applied first, then `other`.
    public func concatenating(_ other: Homography) -> Homography { Homography(matrix.concatenating(other.matrix)) }

    /// The inverse map, or `nil` when the plane is seen edge-on (singular) or not finite.
    public func inverted() -> Homography? { matrix.inverted().map(Homography.init) }

    /// The homogeneous image `(x, y, 1) · H`.
    public func applyHomogeneous(_ p: CGPoint) -> Vector3 {
        matrix.apply(Vector3(Double(p.x), Double(p.y), 1))
    }

    /// The image of `p`, or `nil` when it lands at or behind the eye (W ≤ ε·scale) or is not finite.
    public func apply(_ p: CGPoint) -> CGPoint? {
        apply(x: Double(p.x), y: Double(p.y)).map { CGPoint(x: $0.x, y: $0.y) }
    }

    /// `apply(_:)` on doubles: `(X/W, Y/W)` of `(x, y, 1) · H`, or `nil` when W ≤ ε·max(|X|, |Y|) (`hasImage`). The
    /// one home of a point's image: `apply`, `unapply` and the renderer's seals (`PlaneChain.map(point:)`, in another
    /// module, hence inlinable: two points a seal) call it.
    @inlinable @inline(__always)
    package func apply(x: Double, y: Double) -> (x: Double, y: Double)? {
        let m = matrix
        // `applyHomogeneous`'s product (`Matrix3.apply` of (x, y, 1): `1 · m31` is `m31`, to the bit).
        let hx = x * m.m11 + y * m.m21 + m.m31, hy = x * m.m12 + y * m.m22 + m.m32, hw = x * m.m13 + y * m.m23 + m.m33
        guard Homography.hasImage(x: hx, y: hy, w: hw) else { return nil }
        return (hx / hw, hy / hw)
    }

    /// The point that `self` maps to `p`, or `nil` when there is none in front of the eye: the map is singular
    /// (an edge-on plane) or the preimage would be seen with W ≤ 0 (behind the viewer).
    public func unapply(_ p: CGPoint) -> CGPoint? {
        guard let inverse = matrix.inverted() else { return nil }
        // (x, y, 1)·H⁻¹ = (X, Y, W) means (X/W, Y/W, 1)·H = (p, 1)/W: the forward w is 1/W, so it must be > 0.
        return Homography(inverse).apply(p)
    }

    /// Whether the homogeneous point `h` has an image, `(h.x / h.z, h.y / h.z)`: hit queries divide first and ask
    /// this only of a quotient that lands inside a layer, so the test is off a miss's path.
    @inline(__always)
    static func hasImage(_ h: Vector3) -> Bool { hasImage(x: h.x, y: h.y, w: h.z) }

    /// Whether `(X/W, Y/W)` is an image: not when W ≤ ε·max(|X|, |Y|) — behind the eye, or so close to W = 0 that
    /// the only thing left of the quotient is rounding noise (exactly on the vanishing line, W comes out as ±1e-16
    /// rather than 0).
    ///
    /// Written as four comparisons because hit queries run it per candidate: a NaN fails every `<` and `>`, and
    /// once W > 1e-12·max(|X|, |Y|) with all three finite, |X/W| and |Y/W| are below 1e12, so the quotient needs no
    /// check of its own.
    @inlinable @inline(__always)
    static func hasImage(x: Double, y: Double, w: Double) -> Bool {
        let ax = abs(x), ay = abs(y)
        return w > 1e-12 * (ax > ay ? ax : ay) && w < .infinity && ax < .infinity && ay < .infinity
    }
}

extension Homography {
    /// Whether W is 1 at every finite point: `(x, y, 1)·H` has `W = x·0 + y·0 + 1`, and `x·0` is ±0 for finite `x`,
    /// so W comes out exactly 1 and the image is `(X, Y)` — `X/1` is `X`. Hit queries then skip the division.
    var isAffine: Bool { matrix.m13 == 0 && matrix.m23 == 0 && matrix.m33 == 1 }

    /// `applyHomogeneous(p)`'s X and Y for an affine map (`isAffine`), in the same order of operations (so the
    /// same roundings): with W = 1 they are `apply(p)`'s quotient whenever it has one (`hasAffineImage`).
    @inline(__always)
    func applyAffine(_ p: CGPoint) -> CGPoint {
        let x = Double(p.x), y = Double(p.y), m = matrix
        return CGPoint(x: x * m.m11 + y * m.m21 + m.m31, y: x * m.m12 + y * m.m22 + m.m32)
    }

    /// `hasImage` of `(X, Y, 1)`: whether an affine map's `applyAffine` result is `apply`'s (else `apply` is nil).
    @inline(__always)
    static func hasAffineImage(_ q: CGPoint) -> Bool { hasImage(Vector3(Double(q.x), Double(q.y), 1)) }

    /// `apply(p)` for an affine map (`isAffine`), without the division. A `p` that is not finite has no image
    /// either way: X and Y are then not finite (`x·m + y·m' + m''` with x or y infinite or NaN is ±∞ or NaN).
    @inline(__always)
    func applyAffineIfImage(_ p: CGPoint) -> CGPoint? {
        let q = applyAffine(p)
        return Homography.hasAffineImage(q) ? q : nil
    }

    /// Whether `applyAffine` is a translation to the bit: the map is affine with `m11 = m22 = 1`, `m12 = m21 = 0`,
    /// and neither translation is −0. Then `x·1 + y·m21 + m31` is `x + m31` exactly for finite x, y: `x·1` is `x`
    /// and `y·m21` is a zero z, and `(x + z) + t` differs from `x + t` only when x is a zero, where both are t
    /// (t ≠ 0) or +0 (t = +0) — only t = −0 could tell `(−0 + +0) + −0 = +0` from `−0 + −0 = −0`. Likewise Y.
    var isTranslation: Bool {
        let m = matrix
        return isAffine && m.m11 == 1 && m.m22 == 1 && m.m12 == 0 && m.m21 == 0
            && !(m.m31 == 0 && m.m31.sign == .minus) && !(m.m32 == 0 && m.m32.sign == .minus)
    }

    /// `applyAffineIfImage(p)` for a translation (`isTranslation`): one addition per coordinate, not a product and
    /// two additions. A `p` that is not finite has no image either way (its non-finite coordinate stays so, or
    /// turns NaN).
    @inline(__always)
    func applyTranslationIfImage(_ p: CGPoint) -> CGPoint? {
        let q = CGPoint(x: Double(p.x) + matrix.m31, y: Double(p.y) + matrix.m32)
        return Homography.hasAffineImage(q) ? q : nil
    }
}

extension Homography: ApproximatelyEquatable {
    public func isApproximatelyEqual(to other: Homography, absoluteTolerance: Double) -> Bool {
        matrix.isApproximatelyEqual(to: other.matrix, absoluteTolerance: absoluteTolerance)
    }
}
