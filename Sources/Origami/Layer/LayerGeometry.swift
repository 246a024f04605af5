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
        return Transform3D(translationX: -a.x, y: -a.y, z: -a.z)
            .concatenating(transform)
            .concatenating(Transform3D(translationX: Double(position.x), y: Double(position.y), z: zPosition))
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
    /// Returns `CGRect.null` when any input is not finite.
    public var frame: CGRect {
        let size = bounds.standardized.size
        let w = Double(size.width), h = Double(size.height)
        let local = CGRect(x: -w * Double(anchorPoint.x), y: -h * Double(anchorPoint.y), width: w, height: h)
        let r = transform.affinePart.apply(local)
        guard !r.isNull else { return .null }
        let f = r.offsetBy(dx: position.x, dy: position.y)
        let finite = [f.origin.x, f.origin.y, f.size.width, f.size.height].allSatisfy(\.isFinite)
        return finite ? f : .null
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
