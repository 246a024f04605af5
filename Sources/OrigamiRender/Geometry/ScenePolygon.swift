import Origami

/// A convex planar polygon in a 3D context's space after the perspective divide, tagged with the scene
/// member it comes from. The BSP tree sorts and splits these.
///
/// After the divide the viewer looks straight down −z from +∞ (the projective map keeps planes planar and
/// keeps the order of points along each line of sight), so depth sorting is orthographic here.
struct ScenePolygon: Sendable {
    var points: [Vector3]
    let member: Int

    /// The member's extent quad carried into the context: clipped against w > ε in homogeneous coordinates,
    /// then divided. `nil` when nothing is in front of the eye. ε is relative to the largest w of the corners,
    /// so a plane very near the eye (all of its w tiny, all of it in front) is kept whole.
    init?(extent: PlaneRect, transform m: Transform3D, member: Int) {
        // `extent.corners`, without their array (a scene makes one of these per member).
        self.init(corners: 4, transform: m, member: member) { k in
            switch k {
            case 0: PlanePoint(extent.minX, extent.minY)
            case 1: PlanePoint(extent.maxX, extent.minY)
            case 2: PlanePoint(extent.maxX, extent.maxY)
            default: PlanePoint(extent.minX, extent.maxY)
            }
        }
    }

    /// The same for a convex outline in the member's plane (a solid's triangular or hexagonal face).
    init?(outline: Ring, transform m: Transform3D, member: Int) {
        self.init(corners: outline.count, transform: m, member: member) { outline[$0] }
    }

    /// The polygon of the `count` corners `corner(0) …` in the member's plane.
    private init?(corners count: Int, transform m: Transform3D, member: Int, _ corner: (Int) -> PlanePoint) {
        // The corners in homogeneous coordinates on the stack: a scene makes one of these per member.
        let divided: [Vector3]? = withUnsafeTemporaryAllocation(of: Vector4.self, capacity: count) { corners in
            for i in 0 ..< count {
                let p = corner(i)
                corners.initializeElement(at: i, to: m.apply(Vector4(x: p.x, y: p.y, z: 0, w: 1)))
            }
            // `Sequence.max()`'s rule, without the array of w's.
            var largest = corners.first?.w ?? 0
            for c in corners.dropFirst() where largest < c.w { largest = c.w }
            let eps = PlaneChain.nearW * largest
            var out: [Vector3] = []
            out.reserveCapacity(corners.count + 2)
            func divide(_ p: Vector4) -> Bool {
                guard p.w > 0 else { return true }
                let q = Vector3(p.x / p.w, p.y / p.w, p.z / p.w)
                guard q.isFinite else { return false }
                out.append(q)
                return true
            }
            // Wholly in front (the usual case): the clip would keep every corner, in order.
            if corners.allSatisfy({ $0.w - eps >= 0 }) {
                for c in corners { guard divide(c) else { return nil } }
                return out.count >= 3 ? out : nil
            }
            let front = clippedPolygon(Array(corners), side: { $0.w - eps }) { a, b, t in
                Vector4(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, z: a.z + (b.z - a.z) * t,
                        w: a.w + (b.w - a.w) * t)
            }
            for c in front { guard divide(c) else { return nil } }
            return out.count >= 3 ? out : nil
        }
        guard let divided else { return nil }
        self.points = divided
        self.member = member
    }

    init(points: [Vector3], member: Int) { self.points = points; self.member = member }

    /// Newell's normal (not normalised); zero for a degenerate polygon.
    var normal: Vector3 { Vector3.newellNormal(of: points) }

    var centroid: Vector3 { points.reduce(Vector3.zero, +) / Double(points.count) }

    /// The outline on the context's plane (z dropped): where the fragment lands once flattened.
    var flattened: Ring { points.map { PlanePoint($0.x, $0.y) } }
}
