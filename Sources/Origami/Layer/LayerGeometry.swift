import Foundation

/// The geometric properties of one layer, as a value. `Layer.geometry` returns it; the render tree stores it.
/// Every mapping between layers — rendering, conversion, hit testing — is built from the two matrices here,
/// so there is one definition of where a layer is.
public struct LayerGeometry: Hashable, Sendable {
    public var bounds: CGRect = .zero
    public var position: CGPoint = .zero
    public var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    public var anchorPointZ: Double = 0
    public var zPosition: Double = 0
    public var transform: Transform3D = .identity
    public var sublayerTransform: Transform3D = .identity
    public var isGeometryFlipped = false

    public init() {}
}

extension LayerGeometry {
    /// The anchor point in the layer's own bounds space:
    /// `(bounds.minX + anchorPoint.x·W, bounds.minY + anchorPoint.y·H, anchorPointZ)`.
    public var anchor: Vector3 {
        let b = bounds.standardized
        return Vector3(
            Double(b.minX) + Double(anchorPoint.x) * Double(b.width),
            Double(b.minY) + Double(anchorPoint.y) * Double(b.height),
            anchorPointZ)
    }

    /// From the layer's bounds space into the space its superlayer places sublayers in:
    /// `T(−A) · transform · T(position.x, position.y, zPosition)`.
    public var placementTransform: Transform3D {
        let a = anchor
        // The two translations folded in by hand: the same sums as the full products (whose other terms are
        // exact zeros), without 128 multiplications — every hit test, conversion and snapshot calls this.
        var m = transform
        // T(−A) · M: only the translation row changes.
        m.m41 = -a.x * m.m11 + -a.y * m.m21 + -a.z * m.m31 + m.m41
        m.m42 = -a.x * m.m12 + -a.y * m.m22 + -a.z * m.m32 + m.m42
        m.m43 = -a.x * m.m13 + -a.y * m.m23 + -a.z * m.m33 + m.m43
        m.m44 = -a.x * m.m14 + -a.y * m.m24 + -a.z * m.m34 + m.m44
        // · T(P): column j gains column 4 times P_j.
        let px = Double(position.x), py = Double(position.y), pz = zPosition
        m.m11 += m.m14 * px; m.m12 += m.m14 * py; m.m13 += m.m14 * pz
        m.m21 += m.m24 * px; m.m22 += m.m24 * py; m.m23 += m.m24 * pz
        m.m31 += m.m34 * px; m.m32 += m.m34 * py; m.m33 += m.m34 * pz
        m.m41 += m.m44 * px; m.m42 += m.m44 * py; m.m43 += m.m44 * pz
        return m
    }

    /// From the space this layer places its sublayers in, into its own bounds space: the geometry flip
    /// (`y ↦ 2·minY + H − y`, when `isGeometryFlipped`), then `sublayerTransform` about the anchor point,
    /// `T(−A) · sublayerTransform · T(A)` — which is why a perspective in `sublayerTransform` has its
    /// vanishing point at the layer's centre by default.
    public var sublayerSpaceTransform: Transform3D {
        let a = anchor
        var m = Transform3D.identity
        if isGeometryFlipped {
            let b = bounds.standardized
            m.m22 = -1
            m.m42 = 2 * Double(b.minY) + Double(b.height)
        }
        guard !sublayerTransform.isIdentity else { return m }
        return m.concatenating(Transform3D(translationX: -a.x, y: -a.y, z: -a.z))
            .concatenating(sublayerTransform)
            .concatenating(Transform3D(translationX: a.x, y: a.y, z: a.z))
    }

    /// `M(L→S)`: from this layer's bounds space into `superlayer`'s bounds space (or, for a root,
    /// `superlayer == nil`, into its virtual superlayer space).
    public func transform(toSuperlayer superlayer: LayerGeometry?) -> Transform3D {
        guard let superlayer else { return placementTransform }
        return placementTransform.concatenating(superlayer.sublayerSpaceTransform)
    }

    /// The frame getter of Core Animation (seed "Understanding Frame"): the rect `(−anchor·size, size)`
    /// transformed by the affine part of `transform`, its bounding box, offset by `position`.
    /// `bounds.origin`, `zPosition`, `anchorPointZ` and the superlayer's sublayerTransform do not move it.
    /// Returns `CGRect.null` when any input is not finite. Inlinable: a getter this small should cost what its
    /// arithmetic costs at the call site.
    @inlinable public var frame: CGRect {
        LayerGeometry.frame(size: bounds.size, anchorPoint: anchorPoint, a: transform.m11, b: transform.m12,
                            c: transform.m21, d: transform.m22, tx: transform.m41, ty: transform.m42, position: position)
    }

    /// The frame from the only values it depends on, in plain doubles (no CGRect methods, which are calls into
    /// Foundation): the rect (−anchor·size, size) through x' = a·x + c·y + tx, y' = b·x + d·y + ty, its
    /// bounding box, plus position. Separate so `Layer.frame` can pass fields without copying its geometry.
    @inlinable static func frame(size: CGSize, anchorPoint: CGPoint, a: Double, b: Double, c: Double, d: Double,
                                 tx: Double, ty: Double, position: CGPoint) -> CGRect {
        let w = abs(Double(size.width)), h = abs(Double(size.height))
        let x0 = -w * Double(anchorPoint.x), y0 = -h * Double(anchorPoint.y), x1 = x0 + w, y1 = y0 + h
        let ax0 = a * x0, ax1 = a * x1, cy0 = c * y0, cy1 = c * y1
        let bx0 = b * x0, bx1 = b * x1, dy0 = d * y0, dy1 = d * y1
        let xs = (ax0 + cy0, ax1 + cy0, ax0 + cy1, ax1 + cy1), ys = (bx0 + dy0, bx1 + dy0, bx0 + dy1, bx1 + dy1)
        // One test for all eight: a NaN anywhere makes the sum NaN (and so does ∞ − ∞, which is null anyway).
        guard !(xs.0 + xs.1 + xs.2 + xs.3 + ys.0 + ys.1 + ys.2 + ys.3).isNaN else { return .null }
        let minX = min(min(xs.0, xs.1), min(xs.2, xs.3)) + tx, maxX = max(max(xs.0, xs.1), max(xs.2, xs.3)) + tx
        let minY = min(min(ys.0, ys.1), min(ys.2, ys.3)) + ty, maxY = max(max(ys.0, ys.1), max(ys.2, ys.3)) + ty
        let ox = minX + Double(position.x), oy = minY + Double(position.y)
        let fw = maxX - minX, fh = maxY - minY
        guard ox.isFinite, oy.isFinite, fw.isFinite, fh.isFinite else { return .null }
        return CGRect(x: ox, y: oy, width: fw, height: fh)
    }

    /// True when every geometric value is finite.
    public var isFinite: Bool { nonFiniteProperty == nil }

    /// The name of the first property holding NaN or ∞, if any.
    public var nonFiniteProperty: String? {
        if ![bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height].allSatisfy(\.isFinite) { return "bounds" }
        if !(position.x.isFinite && position.y.isFinite) { return "position" }
        if !(anchorPoint.x.isFinite && anchorPoint.y.isFinite) { return "anchorPoint" }
        if !anchorPointZ.isFinite { return "anchorPointZ" }
        if !zPosition.isFinite { return "zPosition" }
        if !transform.isFinite { return "transform" }
        if !sublayerTransform.isFinite { return "sublayerTransform" }
        return nil
    }
}
