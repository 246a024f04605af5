import Foundation

extension Layer {
    /// The layer's rectangle in its superlayer's coordinates, derived from bounds, anchorPoint, the affine part
    /// of transform and position (see `LayerGeometry.frame`). `CGRect.null` when any of those is not finite.
    ///
    /// Setting it sets `position` and `bounds.size` (bounds.origin is kept; negative sizes are standardised):
    /// - identity or axis-aligned affine part (scales, translations, multiples of 90°): `bounds.size` becomes
    ///   the frame's size mapped back through the linear part, and `position` is chosen so that the getter
    ///   returns the frame;
    /// - any other transform (Core Animation leaves this undefined): `bounds.size` is kept and `position` moves
    ///   so that the getter's origin equals the frame's origin;
    /// - a frame with NaN or ∞ is ignored (the layer is unchanged).
    public var frame: CGRect {
        // Field by field: handing the whole geometry (two 4×4 matrices) to `LayerGeometry.frame` copies it.
        // Inlinable (and `geometry` final) so a caller in another module reads the fields in place: an opaque
        // call makes the caller retain and release the layer around it, which costs more than the arithmetic.
        @inlinable @inline(__always) get {
            LayerGeometry.frame(
                size: geometry.bounds.size, anchorPoint: geometry.anchorPoint,
                a: geometry.transform.m11, b: geometry.transform.m12, c: geometry.transform.m21,
                d: geometry.transform.m22, tx: geometry.transform.m41, ty: geometry.transform.m42,
                position: geometry.position)
        }
        set {
            let f = newValue.standardized
            guard [f.origin.x, f.origin.y, f.size.width, f.size.height].allSatisfy(\.isFinite) else { return }
            let t = geometry.transform.affinePart
            var size = bounds.size
            // "Zero" relative to the linear part: a quarter or half turn built with cos/sin leaves ±6e-17 or
            // 1.2e-16 where Core Animation's axis-aligned case expects 0.
            let tiny = 1e-12 * max(abs(t.a), abs(t.b), abs(t.c), abs(t.d))
            func isZero(_ v: Double) -> Bool { abs(v) <= tiny }
            if isZero(t.b), isZero(t.c), !isZero(t.a), !isZero(t.d) {
                size = CGSize(width: Double(f.width) / abs(t.a), height: Double(f.height) / abs(t.d))
            } else if isZero(t.a), isZero(t.d), !isZero(t.b), !isZero(t.c) {
                size = CGSize(width: Double(f.height) / abs(t.b), height: Double(f.width) / abs(t.c))
            }
            var g = geometry
            g.bounds.size = size
            g.position = .zero
            let unplaced = g.frame
            guard !unplaced.isNull else { return }
            bounds = CGRect(origin: bounds.origin, size: size)
            position = CGPoint(x: f.minX - unplaced.minX, y: f.minY - unplaced.minY)
        }
    }

    /// Whether `point`, in the layer's own bounds space, lies inside the bounds: min edges inside, max edges
    /// outside. Corresponds to `-[CALayer containsPoint:]`.
    public func contains(_ point: CGPoint) -> Bool {
        let b = bounds.standardized
        return point.x >= b.minX && point.x < b.maxX && point.y >= b.minY && point.y < b.maxY
    }
}
