/// A point of a plane in homogeneous coordinates `(x, y, w)`: the point `(x/w, y/w)` when `w > 0`, a point at
/// infinity in the direction `(x, y)` when `w = 0`. Clipping works on these so that nothing is divided before
/// it is known to be in front of the eye and on the canvas.
struct HomogeneousPoint: Sendable {
    var x: Double, y: Double, w: Double

    var isFinite: Bool { x.isFinite && y.isFinite && w.isFinite }

    /// The same point scaled so its largest coordinate is 1 (a positive scale changes nothing), so that chains
    /// of maps neither overflow nor underflow.
    var normalized: HomogeneousPoint {
        let m = Swift.max(abs(x), abs(y), abs(w))
        guard m > 0, m.isFinite else { return self }
        return HomogeneousPoint(x: x / m, y: y / m, w: w / m)
    }
}

extension Array where Element == HomogeneousPoint {
    /// The polygon cut by the half-space `a·x + b·y + c·w ≥ 0` (Sutherland–Hodgman against one plane through the
    /// origin of homogeneous space). Exact for any polygon whose vertices have `w ≥ 0`, convex or not: a concave
    /// ring may come back with edges running along the cut, which fill nothing.
    func clipped(a: Double, b: Double, c: Double) -> [HomogeneousPoint] {
        clippedPolygon(self, side: { a * $0.x + b * $0.y + c * $0.w }) { p, q, t in
            HomogeneousPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t, w: p.w + (q.w - p.w) * t)
        }
    }

    /// The part in front of the eye (`w ≥ 0`); points on `w = 0` are kept as points at infinity.
    var inFrontOfEye: [HomogeneousPoint] { clipped(a: 0, b: 0, c: 1) }

    /// The part inside `rect` (the frustum `minX·w ≤ x ≤ maxX·w`, `minY·w ≤ y ≤ maxY·w`), divided: every point
    /// lands within `rect`, however near the eye or far away the polygon was.
    func divided(within rect: PlaneRect) -> Ring {
        let r = inFrontOfEye
            .clipped(a: 1, b: 0, c: -rect.minX).clipped(a: -1, b: 0, c: rect.maxX)
            .clipped(a: 0, b: 1, c: -rect.minY).clipped(a: 0, b: -1, c: rect.maxY)
        var out: Ring = []
        out.reserveCapacity(r.count)
        for p in r where p.w > 0 {
            // Clamped: rounding in the last cut may leave a point a hair outside.
            let q = PlanePoint(Swift.min(Swift.max(p.x / p.w, rect.minX), rect.maxX),
                               Swift.min(Swift.max(p.y / p.w, rect.minY), rect.maxY))
            if q.isFinite, out.last != q { out.append(q) }
        }
        if out.count > 1, out.first == out.last { out.removeLast() }
        return out.count >= 3 ? out : []
    }
}

/// Sutherland–Hodgman against one half-space: the part of `polygon` where `side` is ≥ 0, each edge that crosses
/// the boundary cut at `between(p, q, t)`, `t` the fraction of the way from p to q where `side` is 0. Every clip
/// of homogeneous geometry (a ring against the canvas and the eye, a scene polygon against the near plane) is
/// this one loop.
func clippedPolygon<P>(_ polygon: [P], side: (P) -> Double, between: (P, P, Double) -> P) -> [P] {
    guard !polygon.isEmpty else { return polygon }
    var out: [P] = []
    out.reserveCapacity(polygon.count + 2)
    clipPolygon(polygon, into: &out, side: side, between: between)
    return out
}

/// `clippedPolygon` into `out` (emptied first, its storage kept): for a caller that clips again and again with two
/// buffers instead of an array per clip.
func clipPolygon<P>(_ polygon: [P], into out: inout [P], side: (P) -> Double, between: (P, P, Double) -> P) {
    out.removeAll(keepingCapacity: true)
    guard let last = polygon.last else { return }
    var p = last
    var dp = side(p)
    for q in polygon {
        let dq = side(q)
        if (dp >= 0) != (dq >= 0) { out.append(between(p, q, dp / (dp - dq))) }
        if dq >= 0 { out.append(q) }
        p = q; dp = dq
    }
}
