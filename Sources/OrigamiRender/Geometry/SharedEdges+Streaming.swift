import Origami

/// What the painter needs from `SharedEdges` when it paints fragments as the BSP hands them out (`Painter.drawScene`),
/// without the whole list of fragments.
extension SharedEdges {
    /// A member's whole polygon's edge lines (each with its unit direction and length), worked out once for all its
    /// fragments: whether a fragment's edge lies on the polygon's boundary.
    struct Boundary {
        private let lines: [(p: Vector3, u: Vector3, length: Double)]

        init(_ polygon: PolygonPoints) {
            lines = polygon.indices.map { i in
                let p = polygon[i], d = polygon[(i + 1) % polygon.count] - p, length = d.length
                return (p, d / length, length)
            }
        }

        /// Whether a and b both lie within `tolerance(a, b)` of one of the polygon's edge lines (edges shorter than
        /// that are skipped).
        func contains(_ a: Vector3, _ b: Vector3) -> Bool {
            let tol = SharedEdges.tolerance(a, b)
            for line in lines where line.length > tol {
                let pa = a - line.p, pb = b - line.p
                if (pa - line.u * pa.dot(line.u)).length <= tol, (pb - line.u * pb.dot(line.u)).length <= tol { return true }
            }
            return false
        }

        /// The edges of one fragment of a split member that lie on this boundary (as `outer` has them for that
        /// fragment).
        func outerEdges(of pts: PolygonPoints) -> [PlaneSegment] {
            var out: [PlaneSegment] = []
            let count = pts.count
            for k in 0..<count {
                let a = pts[k], b = pts[(k + 1) % count]
                if a != b, contains(a, b) { out.append(PlaneSegment(a: PlanePoint(a.x, a.y), b: PlanePoint(b.x, b.y))) }
            }
            return out
        }
    }

    /// Which members may take part in a seal among the fragments the BSP makes of `polygons` (the members' whole
    /// polygons, as `Painter.scenePolygons` gives them), by member index: a member not marked has no seal in any
    /// fragment's `sealed`, and `SharedEdges` given only the marked members' fragments finds the same seals. Decided
    /// from the unsplit polygons, conservatively:
    ///
    /// - A seal joins two sealable members' edges that run along each other (`overlap`). A plain face's edges that can
    ///   seal are its polygon's own edges or pieces of them (a fragment's edges on split lines never seal), so two such
    ///   members can only seal if an edge of one comes within the tolerance of an edge of the other's line: within
    ///   δ = 4 × the larger member's `tolerance` (a fragment's corners lie in its polygon's hull, so its tolerance is
    ///   no larger than the polygon's; the pieces' overlap lies within 3 tolerances of both whole edges' lines, the
    ///   rest is room for rounding). Crossing planes' edges pass that close only where two of them happen to pass
    ///   within δ of each other (a few pairs among 500 planes' 2 000 edges).
    /// - A shaped face (a solid's triangle or hexagon) seals along its outline cut to each fragment, split lines
    ///   included, which may lie anywhere on it: with one shaped face, every sealable member is a candidate.
    ///
    /// `solid` (as `SharedEdges.init` takes it): members of one solid share a number in `0 ..< polygons' members`.
    /// Which members are marked does not depend on the order pairs are tried in (a member is marked exactly when one
    /// of its edges has a partner), so each solid's own edges are tried first — a cube's visible faces share edges —
    /// and the sweep over every edge runs only if some member is left unmarked.
    static func sealCandidates(_ polygons: ScenePolygons, outline: (Int) -> [Vector3]?, sealable: (Int) -> Bool,
                               solid: ((Int) -> Int)? = nil) -> [Bool] {
        // Each edge with its box grown by its reach (for the tests below), made with the edge: one record an edge.
        struct Edge { let member: Int; let a: Vector3; let b: Vector3; let reach: Double; let lo: Vector3; let hi: Vector3 }
        var edges: [Edge] = []
        let corners = polygons.reduce(0) { $0 + $1.points.count }
        edges.reserveCapacity(corners)
        var candidates = [Bool](repeating: false, count: (polygons.map(\.member).max() ?? -1) + 1)
        var faces: [Int] = [], isShaped = false
        for p in polygons where sealable(p.member) {
            faces.append(p.member)
            if let shape = outline(p.member), shape.count >= 3 { isShaped = true }
            // (The corners read in place in their pool.)
            p.points.withUnsafeBufferPointer { points in
                var size = 0.0
                for q in points { size = Swift.max(size, abs(q.x), abs(q.y), abs(q.z)) }
                let reach = 4e-6 * (1 + size)
                for i in points.indices {
                    let a = points[i], b = points[(i + 1) % points.count]
                    guard a != b else { continue }
                    edges.append(Edge(member: p.member, a: a, b: b, reach: reach,
                                      lo: Vector3(Swift.min(a.x, b.x) - reach, Swift.min(a.y, b.y) - reach, Swift.min(a.z, b.z) - reach),
                                      hi: Vector3(Swift.max(a.x, b.x) + reach, Swift.max(a.y, b.y) + reach, Swift.max(a.z, b.z) + reach)))
                }
            }
        }
        guard faces.count > 1 else { return candidates }
        guard !isShaped else {
            for m in faces { candidates[m] = true }
            return candidates
        }
        // Whether some point of e (extended by δ at both ends) lies within δ of g's line: the distance² to the line is
        // a convex quadratic along e, smallest at its vertex or at an end of the range.
        func runsNear(_ e: Edge, _ g: Edge) -> Bool {
            let delta = Swift.max(e.reach, g.reach)
            let de = e.b - e.a, dg = g.b - g.a
            let le = de.length, lg = dg.length
            guard le > 0, lg > 0, le.isFinite, lg.isFinite else { return true }
            let u = de / le, v = dg / lg
            let w = e.a - g.a, uv = u.dot(v)
            let curvature = 1 - uv * uv
            func distance2(_ t: Double) -> Double {
                let p = w + u * t, along = p.dot(v)
                return p.dot(p) - along * along
            }
            var best = Swift.min(distance2(-delta), distance2(le + delta))
            if curvature > 0 {
                let vertex = -(w.dot(u) - w.dot(v) * uv) / curvature
                best = Swift.min(best, distance2(Swift.min(Swift.max(vertex, -delta), le + delta)))
            }
            return !(best > delta * delta)
        }
        // Sweep along x over the edges' boxes (grown by their reach): only pairs whose boxes meet are tested.
        guard edges.allSatisfy({ $0.lo.isFinite && $0.hi.isFinite }) else {
            for m in faces { candidates[m] = true }
            return candidates
        }
        func isPartner(_ i: Int, _ j: Int) -> Bool {
            let e = edges[i], g = edges[j]
            guard g.member != e.member, e.lo.y <= g.hi.y, g.lo.y <= e.hi.y, e.lo.z <= g.hi.z, g.lo.z <= e.hi.z,
                  e.lo.x <= g.hi.x, g.lo.x <= e.hi.x else { return false }
            return runsNear(e, g) || runsNear(g, e)
        }
        if let solid {
            var unmarked = faces.count
            for group in SharedEdges.grouped(edges.map { solid($0.member) }) where group.count > 1 {
                for i in group where !candidates[edges[i].member] {
                    for j in group where isPartner(i, j) {
                        // (Both members by hand: an array literal of the two cost an allocation per member marked.)
                        let m = edges[i].member, n = edges[j].member
                        if !candidates[m] { candidates[m] = true; unmarked -= 1 }
                        if !candidates[n] { candidates[n] = true; unmarked -= 1 }
                        break
                    }
                }
            }
            guard unmarked > 0 else { return candidates }
        }
        // Each edge of a member not yet marked looks for one partner among the edges whose x-ranges meet its own (on
        // both sides in the sorted order, back as far as the widest edge reaches), and marks both members at the first
        // it finds: every member with a partner ends up marked, and a scene of shared edges (a lattice of cubes) stops
        // each search early.
        // (The boxes' ends side by side for the sweep.)
        let lo = edges.map(\.lo), hi = edges.map(\.hi)
        let order = edges.indices.sorted { lo[$0].x < lo[$1].x }
        let widest = edges.indices.reduce(0.0) { Swift.max($0, hi[$1].x - lo[$1].x) }
        for (position, i) in order.enumerated() where !candidates[edges[i].member] {
            let e = edges[i]
            var found: Int?
            var next = position + 1
            while found == nil, next < order.count, lo[order[next]].x <= hi[i].x {
                if isPartner(i, order[next]) { found = order[next] }
                next += 1
            }
            var previous = position - 1
            while found == nil, previous >= 0, lo[order[previous]].x >= lo[i].x - widest {
                if isPartner(i, order[previous]) { found = order[previous] }
                previous -= 1
            }
            if let found { candidates[e.member] = true; candidates[edges[found].member] = true }
        }
        return candidates
    }
}
