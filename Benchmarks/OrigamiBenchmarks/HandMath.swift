import Foundation

// The baselines: the arithmetic the library does, written out by hand on plain doubles, with no arrays, no
// optionals and nothing the optimizer cannot inline. A library row within a small factor of these has no
// overhead worth chasing.

/// A row-vector 4×4 matrix as 16 doubles (`p' = p · M`), Core Animation's layout.
struct M4 {
    var a: (Double, Double, Double, Double, Double, Double, Double, Double,
            Double, Double, Double, Double, Double, Double, Double, Double)

    static let identity = M4(a: (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))

    @inline(__always) static func translation(_ x: Double, _ y: Double, _ z: Double) -> M4 {
        M4(a: (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1))
    }

    /// `self · b`.
    @inline(__always) func times(_ b: M4) -> M4 {
        let x = a, y = b.a
        return M4(a: (
            x.0 * y.0 + x.1 * y.4 + x.2 * y.8 + x.3 * y.12, x.0 * y.1 + x.1 * y.5 + x.2 * y.9 + x.3 * y.13,
            x.0 * y.2 + x.1 * y.6 + x.2 * y.10 + x.3 * y.14, x.0 * y.3 + x.1 * y.7 + x.2 * y.11 + x.3 * y.15,
            x.4 * y.0 + x.5 * y.4 + x.6 * y.8 + x.7 * y.12, x.4 * y.1 + x.5 * y.5 + x.6 * y.9 + x.7 * y.13,
            x.4 * y.2 + x.5 * y.6 + x.6 * y.10 + x.7 * y.14, x.4 * y.3 + x.5 * y.7 + x.6 * y.11 + x.7 * y.15,
            x.8 * y.0 + x.9 * y.4 + x.10 * y.8 + x.11 * y.12, x.8 * y.1 + x.9 * y.5 + x.10 * y.9 + x.11 * y.13,
            x.8 * y.2 + x.9 * y.6 + x.10 * y.10 + x.11 * y.14, x.8 * y.3 + x.9 * y.7 + x.10 * y.11 + x.11 * y.15,
            x.12 * y.0 + x.13 * y.4 + x.14 * y.8 + x.15 * y.12, x.12 * y.1 + x.13 * y.5 + x.14 * y.9 + x.15 * y.13,
            x.12 * y.2 + x.13 * y.6 + x.14 * y.10 + x.15 * y.14, x.12 * y.3 + x.13 * y.7 + x.14 * y.11 + x.15 * y.15))
    }

    /// The cofactor inverse (no singularity test beyond det ≠ 0).
    @inline(__always) func inverse() -> M4 {
        let m = a
        let s0 = m.0 * m.5 - m.4 * m.1, s1 = m.0 * m.6 - m.4 * m.2, s2 = m.0 * m.7 - m.4 * m.3
        let s3 = m.1 * m.6 - m.5 * m.2, s4 = m.1 * m.7 - m.5 * m.3, s5 = m.2 * m.7 - m.6 * m.3
        let c5 = m.10 * m.15 - m.14 * m.11, c4 = m.9 * m.15 - m.13 * m.11, c3 = m.9 * m.14 - m.13 * m.10
        let c2 = m.8 * m.15 - m.12 * m.11, c1 = m.8 * m.14 - m.12 * m.10, c0 = m.8 * m.13 - m.12 * m.9
        let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
        let k = det != 0 ? 1 / det : 0
        return M4(a: (
            (m.5 * c5 - m.6 * c4 + m.7 * c3) * k, (-m.1 * c5 + m.2 * c4 - m.3 * c3) * k,
            (m.13 * s5 - m.14 * s4 + m.15 * s3) * k, (-m.9 * s5 + m.10 * s4 - m.11 * s3) * k,
            (-m.4 * c5 + m.6 * c2 - m.7 * c1) * k, (m.0 * c5 - m.2 * c2 + m.3 * c1) * k,
            (-m.12 * s5 + m.14 * s2 - m.15 * s1) * k, (m.8 * s5 - m.10 * s2 + m.11 * s1) * k,
            (m.4 * c4 - m.5 * c2 + m.7 * c0) * k, (-m.0 * c4 + m.1 * c2 - m.3 * c0) * k,
            (m.12 * s4 - m.13 * s2 + m.15 * s0) * k, (-m.8 * s4 + m.9 * s2 - m.11 * s0) * k,
            (-m.4 * c3 + m.5 * c1 - m.6 * c0) * k, (m.0 * c3 - m.1 * c1 + m.2 * c0) * k,
            (-m.12 * s3 + m.13 * s1 - m.14 * s0) * k, (m.8 * s3 - m.9 * s1 + m.10 * s0) * k))
    }

    /// Rows 1, 2, 4 and columns 1, 2, 4: the plane-to-plane homography.
    @inline(__always) var plane: H3 {
        H3(a: (a.0, a.1, a.3, a.4, a.5, a.7, a.12, a.13, a.15))
    }

    /// `(x, y, z, 1) · M` divided by w.
    @inline(__always) func project(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double, Double) {
        let m = a
        let X = x * m.0 + y * m.4 + z * m.8 + m.12, Y = x * m.1 + y * m.5 + z * m.9 + m.13
        let Z = x * m.2 + y * m.6 + z * m.10 + m.14, W = x * m.3 + y * m.7 + z * m.11 + m.15
        return (X / W, Y / W, Z / W, W)
    }
}

/// A row-vector 3×3 homography.
struct H3 {
    var a: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    @inline(__always) func times(_ b: H3) -> H3 {
        let x = a, y = b.a
        return H3(a: (
            x.0 * y.0 + x.1 * y.3 + x.2 * y.6, x.0 * y.1 + x.1 * y.4 + x.2 * y.7, x.0 * y.2 + x.1 * y.5 + x.2 * y.8,
            x.3 * y.0 + x.4 * y.3 + x.5 * y.6, x.3 * y.1 + x.4 * y.4 + x.5 * y.7, x.3 * y.2 + x.4 * y.5 + x.5 * y.8,
            x.6 * y.0 + x.7 * y.3 + x.8 * y.6, x.6 * y.1 + x.7 * y.4 + x.8 * y.7, x.6 * y.2 + x.7 * y.5 + x.8 * y.8))
    }

    /// The adjugate: the inverse up to scale, which is all a projective map needs.
    @inline(__always) func adjugate() -> H3 {
        let m = a
        return H3(a: (
            m.4 * m.8 - m.5 * m.7, m.2 * m.7 - m.1 * m.8, m.1 * m.5 - m.2 * m.4,
            m.5 * m.6 - m.3 * m.8, m.0 * m.8 - m.2 * m.6, m.2 * m.3 - m.0 * m.5,
            m.3 * m.7 - m.4 * m.6, m.1 * m.6 - m.0 * m.7, m.0 * m.4 - m.1 * m.3))
    }

    @inline(__always) var determinant: Double {
        let m = a
        return m.0 * (m.4 * m.8 - m.5 * m.7) - m.1 * (m.3 * m.8 - m.5 * m.6) + m.2 * (m.3 * m.7 - m.4 * m.6)
    }

    /// `(x, y, 1) · H` with its w.
    @inline(__always) func apply(_ x: Double, _ y: Double) -> (Double, Double, Double) {
        let m = a
        return (x * m.0 + y * m.3 + m.6, x * m.1 + y * m.4 + m.7, x * m.2 + y * m.5 + m.8)
    }
}

/// One layer's geometry as plain numbers: enough to build `M(L→S)` by hand.
struct HandLayer {
    var width: Double, height: Double
    var anchorX = 0.5, anchorY = 0.5
    var positionX: Double, positionY: Double, zPosition = 0.0
    var transform: M4
    var sublayerTransform: M4 = .identity

    var anchor: (Double, Double) { (width * anchorX, height * anchorY) }

    /// `T(−A) · transform · T(position, zPosition)`: translations folded in as additions.
    @inline(__always) var placement: M4 {
        let (ax, ay) = anchor
        var m = transform.a
        // T(−A) · M: the translation row becomes −ax·row1 − ay·row2 + row4.
        m.12 = -ax * m.0 - ay * m.4 + m.12; m.13 = -ax * m.1 - ay * m.5 + m.13
        m.14 = -ax * m.2 - ay * m.6 + m.14; m.15 = -ax * m.3 - ay * m.7 + m.15
        // · T(P): adds P·(column 4) to the first three columns.
        let px = positionX, py = positionY, pz = zPosition
        m.0 += m.3 * px; m.1 += m.3 * py; m.2 += m.3 * pz
        m.4 += m.7 * px; m.5 += m.7 * py; m.6 += m.7 * pz
        m.8 += m.11 * px; m.9 += m.11 * py; m.10 += m.11 * pz
        m.12 += m.15 * px; m.13 += m.15 * py; m.14 += m.15 * pz
        return M4(a: m)
    }

    /// `T(−A) · sublayerTransform · T(A)`.
    @inline(__always) var sublayerSpace: M4 {
        let (ax, ay) = anchor
        return M4.translation(-ax, -ay, 0).times(sublayerTransform).times(M4.translation(ax, ay, 0))
    }

    @inline(__always) func contains(_ x: Double, _ y: Double) -> Bool {
        x >= 0 && x < width && y >= 0 && y < height
    }
}
