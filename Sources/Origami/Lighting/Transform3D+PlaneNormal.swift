import Foundation

extension Transform3D {
    /// The unit normal, in this transform's target space, of a layer's plane (z = 0 of the source space) at
    /// `point`: the plane's `+z` carried by the inverse transpose of the transform's linear part, so it stays
    /// perpendicular to the plane under non-uniform scale and shear. (The book reads the plain 3×3's third
    /// row, `(m31, m32, m33)`, which tilts under non-uniform scale.)
    ///
    /// For an affine transform the linear part is rows 1–3, columns 1–3. When the transform has a perspective
    /// (`m14, m24, m34` not all zero) the linear part is the Jacobian of the projective map at `point`, so the
    /// normal is that of the plane as it lies after the perspective divide (the same everywhere on the plane);
    /// its z sign then tells the projected winding: z < 0 means the plane is seen from behind.
    ///
    /// A singular linear part (a plane squashed along its own z) falls back to `x' × y'`, the images of the
    /// plane's axes. Returns `nil` when the point lands at or behind the eye (w ≤ 0), the plane is edge-on
    /// or collapsed (no normal), or anything is not finite.
    public func planeNormal(at point: CGPoint = .zero) -> Vector3? {
        planeSample(at: point)?.normal
    }

    /// The image of the plane point `(x, y, 0)` after the divide, and the plane's unit normal there.
    func planeSample(at point: CGPoint) -> (position: Vector3, normal: Vector3)? {
        let h = apply(Vector4(x: Double(point.x), y: Double(point.y), z: 0, w: 1))
        guard let p = h.projected else { return nil }
        // d/dvᵢ of (v·M)_xyz / (v·M)_w = (rowᵢ_xyz − mᵢ₄·p) / w; the positive 1/w does not change the direction.
        let jacobian = Matrix3(
            m11: m11 - m14 * p.x, m12: m12 - m14 * p.y, m13: m13 - m14 * p.z,
            m21: m21 - m24 * p.x, m22: m22 - m24 * p.y, m23: m23 - m24 * p.z,
            m31: m31 - m34 * p.x, m32: m32 - m34 * p.y, m33: m33 - m34 * p.z)
        let carried: Vector3
        if let inverse = jacobian.inverted() {
            // Row vectors: a normal n is carried as n · (J⁻¹)ᵀ, which keeps n · t = 0 for every carried tangent t.
            carried = inverse.transposed.apply(.unitZ)
        } else {
            let x = Vector3(jacobian.m11, jacobian.m12, jacobian.m13)
            let y = Vector3(jacobian.m21, jacobian.m22, jacobian.m23)
            carried = x.cross(y)
        }
        guard let n = carried.normalized() else { return nil }
        return (p, n)
    }
}
