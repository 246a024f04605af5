import Foundation

extension Array where Element == PlanePoint {
    /// The convex ring pushed outward by `distance` (each edge moved along its outward normal, neighbours
    /// intersected; miters limited to 2·distance). Used to seal the shared edges of opaque 3D faces: two faces
    /// that each cover half an edge pixel would otherwise let the background show through the seam.
    func dilated(by distance: Double) -> [PlanePoint] {
        guard count >= 3, distance > 0 else { return self }
        var area = 0.0
        for i in indices { let a = self[i], b = self[(i + 1) % count]; area += a.x * b.y - b.x * a.y }
        guard area != 0, area.isFinite else { return self }
        let sign: Double = area > 0 ? 1 : -1
        // Outward normal of edge i (from point i to i+1).
        func normal(_ i: Int) -> (Double, Double)? {
            let a = self[i], b = self[(i + 1) % count]
            let dx = b.x - a.x, dy = b.y - a.y, l = hypot(dx, dy)
            guard l > 1e-12 else { return nil }
            return (sign * dy / l, -sign * dx / l)
        }
        let normals = indices.map(normal)
        var out: [PlanePoint] = []
        out.reserveCapacity(count)
        for i in indices {
            let p = self[i]
            // The edges before and after vertex i (skipping zero-length ones).
            var prev = (i - 1 + count) % count, steps = 0
            while normals[prev] == nil, steps < count { prev = (prev - 1 + count) % count; steps += 1 }
            var next = i; steps = 0
            while normals[next] == nil, steps < count { next = (next + 1) % count; steps += 1 }
            guard let n0 = normals[prev], let n1 = normals[next] else { out.append(p); continue }
            // Miter direction: the bisector scaled so both edges move by `distance`.
            let bx = n0.0 + n1.0, by = n0.1 + n1.1
            let dot = 1 + n0.0 * n1.0 + n0.1 * n1.1
            if dot < 1e-9 {
                out.append(PlanePoint(p.x + n1.0 * distance, p.y + n1.1 * distance))
            } else {
                let k = Swift.min(distance / dot, 2 * distance / Swift.max(hypot(bx, by), 1e-12))
                out.append(PlanePoint(p.x + bx * k, p.y + by * k))
            }
        }
        return out
    }
}
