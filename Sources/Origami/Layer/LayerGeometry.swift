import Foundation

/// The geometric properties of one layer, as a value. `Layer.geometry` returns it; the render tree stores it.
/// Every mapping between layers — rendering, conversion, hit testing — is built from the two matrices here,
/// so there is one definition of where a layer is.
public struct LayerGeometry: Hashable, Sendable {
    /// The layer's own coordinate space; default `.zero`. See `Layer.bounds`.
    public var bounds: CGRect = .zero
    /// Where the anchor point sits in the superlayer's bounds space; default (0, 0).
    public var position: CGPoint = .zero
    /// The anchor in unit coordinates of the bounds; default (0.5, 0.5), the centre.
    public var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    /// The anchor's z, in points; default 0. Corresponds to `CALayer.anchorPointZ`.
    public var anchorPointZ: Double = 0
    /// A translation along z after `transform`; default 0.
    public var zPosition: Double = 0
    /// Applied about the anchor point; default identity.
    public var transform: Transform3D = .identity
    /// Applied to the sublayers, about this layer's anchor point; default identity.
    public var sublayerTransform: Transform3D = .identity
    /// Sublayers are positioned from the bottom of the bounds; default false.
    public var isGeometryFlipped = false

    /// A layer's default geometry: Core Animation's defaults for a new `CALayer`.
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
        Self.translated(transform, before: -anchor, after: Vector3(Double(position.x), Double(position.y), zPosition))
    }

    /// From the space this layer places its sublayers in, into its own bounds space: the geometry flip
    /// (`y ↦ 2·minY + H − y`, when `isGeometryFlipped`), then `sublayerTransform` about the anchor point,
    /// `T(−A) · sublayerTransform · T(A)` — which is why a perspective in `sublayerTransform` has its
    /// vanishing point at the layer's centre by default.
    public var sublayerSpaceTransform: Transform3D {
        var m = Transform3D.identity
        if !sublayerTransform.isIdentity {
            let a = anchor
            m = Self.translated(sublayerTransform, before: -a, after: a)
        }
        guard isGeometryFlipped else { return m }
        // Flip · M, with the flip's rows (0, −1, 0, 0) and (0, c, 0, 1): row 2 negates, row 4 gains c · row 2.
        let b = bounds.standardized, c = 2 * Double(b.minY) + Double(b.height)
        m.m41 += c * m.m21; m.m42 += c * m.m22; m.m43 += c * m.m23; m.m44 += c * m.m24
        m.m21 = -m.m21; m.m22 = -m.m22; m.m23 = -m.m23; m.m24 = -m.m24
        return m
    }

    /// The mirror of the layer's bounds in y, `y ↦ 2·minY + H − y` (as a row-vector 4×4: x and z kept), or the
    /// identity when `on` is false. It maps the bounds rect onto itself, so it changes no frame, no hit region and
    /// no position — only which way up the layer's own drawing lies.
    ///
    /// The presentation tree draws, hit-tests and lights a layer from its **content space** into its
    /// superlayer's content space by `F_L^q(L) · M(L→S) · F_S^q(S)`, with `F_X` this mirror of X and `q` the
    /// content flips below (`PresentationTree` forms it; `contentSublayerSpaceTransform` is its right half).
    ///
    /// Why (Apple: `geometryFlipped` "does not affect the rendering of the layer's content"; `contentsAreFlipped`
    /// says when Core Animation flips a layer's content implicitly to make that so). `M(L→S)` is the geometry
    /// chain (`transform(toSuperlayer:)`): with S flipped it holds the mirror `F_S` between the sublayers'
    /// placement and S's bounds, which is what measures positions from the bottom (position (10, 10) in a flipped
    /// 100×100 layer lands at (10, 90)), and bounds coordinates, conversion and `frame` keep that meaning. But a
    /// mirror reverses orientation: drawn through `M` alone, the sublayer's text and images are upside down and
    /// its plane's winding is reversed, so a cube's near faces count as seen from behind. Core Animation draws
    /// such a layer's content flipped once more inside its own bounds (`contentsAreFlipped`), so it reads
    /// upright. Origami does the same with one number per layer, `q(L)`: the parity of the mirrors between L's
    /// bounds space and the space the tree is drawn in — `q(root) = 0` on a canvas, `q(L) = q(S) XOR
    /// S.isGeometryFlipped`. A layer's content space is `F_L^q(L)` of its bounds space (the mirror is its own
    /// inverse), so into the superlayer's content space the map is `F_L^q(L) · M(L→S) · F_S^q(S)`. Its
    /// orientation sign is `(−1)^(q(L) + flip(S) + q(S)) = +1`: no mirror is left anywhere in the drawn chain,
    /// content is upright at every depth, and a face is seen from behind only when it really is turned away.
    /// Across several levels the inner mirrors cancel (`F·F = I`; `F` leaves z alone, so it also commutes with
    /// flattening's dropping of the z row and column): the chain into the root is `F_L^q(L) · M(L→root)`, the
    /// geometry chain with one mirror inside L's own bounds — positions, frames and conversions are unchanged,
    /// and a point hit in L's content space is `F_L^q(L)` of the same point in L's bounds space. A
    /// `sublayerTransform` still applies about S's anchor in S's (flipped) geometry, and nested flips compose by
    /// parity. (Origami's canvas is y-down, so the parity that matters for drawing is that of the *strict*
    /// ancestors: a layer's own flag flips its sublayers, not its own content. Apple's `contentsAreFlipped()`
    /// counts the layer itself because on macOS a flipped layer's own bounds space is the y-down one; see
    /// `Layer.contentsAreFlipped()`.)
    public func boundsMirror(_ on: Bool) -> Transform3D {
        guard on else { return .identity }
        let b = bounds.standardized
        var m = Transform3D.identity
        m.m22 = -1
        m.m42 = 2 * Double(b.minY) + Double(b.height)
        return m
    }

    /// The sublayer space in content terms: `sublayerSpaceTransform · F^q` for a layer whose content flip is `q`
    /// (what the content-space chain of `boundsMirror` appends after a sublayer's placement).
    public func contentSublayerSpaceTransform(contentFlipped: Bool) -> Transform3D {
        contentFlipped ? sublayerSpaceTransform.concatenating(boundsMirror(true)) : sublayerSpaceTransform
    }

    /// `T(t) · m · T(p)` with the two translations folded in by hand: the same sums as the full products
    /// (whose other terms are exact zeros) without their 128 multiplications. Every hit test, conversion
    /// and snapshot builds placements and sublayer spaces this way.
    static func translated(_ m: Transform3D, before t: Vector3, after p: Vector3) -> Transform3D {
        var m = m
        // T(t) · M: only the translation row changes.
        m.m41 = t.x * m.m11 + t.y * m.m21 + t.z * m.m31 + m.m41
        m.m42 = t.x * m.m12 + t.y * m.m22 + t.z * m.m32 + m.m42
        m.m43 = t.x * m.m13 + t.y * m.m23 + t.z * m.m33 + m.m43
        m.m44 = t.x * m.m14 + t.y * m.m24 + t.z * m.m34 + m.m44
        // · T(p): column j gains column 4 times p_j.
        m.m11 += m.m14 * p.x; m.m12 += m.m14 * p.y; m.m13 += m.m14 * p.z
        m.m21 += m.m24 * p.x; m.m22 += m.m24 * p.y; m.m23 += m.m24 * p.z
        m.m31 += m.m34 * p.x; m.m32 += m.m34 * p.y; m.m33 += m.m34 * p.z
        m.m41 += m.m44 * p.x; m.m42 += m.m44 * p.y; m.m43 += m.m44 * p.z
        return m
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
        let x0 = -w * Double(anchorPoint.x), y0 = -h * Double(anchorPoint.y)
        return CGRect.affineBounds(x0: x0, y0: y0, x1: x0 + w, y1: y0 + h, a: a, b: b, c: c, d: d,
                                   tx: tx + Double(position.x), ty: ty + Double(position.y))
    }

    /// True when every geometric value is finite (`nonFiniteProperty == nil`, without building its lists: every
    /// frozen layer asks).
    /// Branch-free (`Transform3D.finiteResidue`): the 42 values' residues summed, one test at the end. (Inlined:
    /// the freeze asks it of every layer's geometry, and a call passed the 337-byte value through memory.)
    @inline(__always)
    public var isFinite: Bool {
        func r(_ v: CGFloat) -> Double { Double(v) - Double(v) }
        let scalars = r(bounds.origin.x) + r(bounds.origin.y) + r(bounds.size.width) + r(bounds.size.height)
            + r(position.x) + r(position.y) + r(anchorPoint.x) + r(anchorPoint.y)
            + (anchorPointZ - anchorPointZ) + (zPosition - zPosition)
        return scalars + transform.finiteResidue + sublayerTransform.finiteResidue == 0
    }

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
