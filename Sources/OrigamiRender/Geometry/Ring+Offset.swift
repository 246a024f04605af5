import Foundation

extension Array where Element == PlanePoint {
    /// The convex ring with edge `i` (from point i to i+1) pushed outward by `distances[i]` (0 keeps it in place):
    /// each edge moves along its outward normal and neighbours are intersected, so an edge that does not move keeps
    /// its exact line (it only grows along it where a moved neighbour meets it). Miters are limited to twice the
    /// larger of the two distances. Pushes a BSP fragment's clip off its polygon's own edges (`Painter.drawScene`);
    /// a ring whose distances are all 0 comes back unchanged.
    func offsettingEdges(by distances: [Double]) -> [PlanePoint] {
        guard distances.count == count else { return self }
        var out: Ring = []
        distances.withUnsafeBufferPointer { offsettingEdges(by: $0, into: &out) }
        return out
    }

    /// `offsettingEdges(by:)`'s ring in `out` (emptied first, its storage kept; this ring's points when nothing
    /// moves), the edges' normals on the stack: a split fragment's clip, once per fragment.
    func offsettingEdges(by distances: UnsafeBufferPointer<Double>, into out: inout Ring) {
        // (`removeAll` costs a call even on an empty array.)
        if !out.isEmpty { out.removeAll(keepingCapacity: true) }
        guard count >= 3, distances.count == count, distances.contains(where: { $0 > 0 }) else {
            return out.append(contentsOf: self)
        }
        var area = 0.0
        for i in indices { let a = self[i], b = self[(i + 1) % count]; area += a.x * b.y - b.x * a.y }
        guard area != 0, area.isFinite else { return out.append(contentsOf: self) }
        let sign: Double = area > 0 ? 1 : -1
        // Outward normal of edge i.
        func normal(_ i: Int) -> (Double, Double)? {
            let a = self[i], b = self[(i + 1) % count]
            let dx = b.x - a.x, dy = b.y - a.y, l = hypot(dx, dy)
            guard l > 1e-12 else { return nil }
            return (sign * dy / l, -sign * dx / l)
        }
        let n = count
        withUnsafeTemporaryAllocation(of: (Double, Double)?.self, capacity: n) { normals in
            for i in 0 ..< n { normals.initializeElement(at: i, to: normal(i)) }
            out.reserveCapacity(n)
            for i in 0 ..< n {
                let p = self[i]
                // The edges before and after vertex i (skipping zero-length ones).
                var prev = (i - 1 + n) % n, steps = 0
                while normals[prev] == nil, steps < n { prev = (prev - 1 + n) % n; steps += 1 }
                var next = i; steps = 0
                while normals[next] == nil, steps < n { next = (next + 1) % n; steps += 1 }
                guard let n0 = normals[prev], let n1 = normals[next] else { out.append(p); continue }
                let d0 = distances[prev], d1 = distances[next]
                guard d0 > 0 || d1 > 0 else { out.append(p); continue }
                // The vertex moves by v with v·n0 = d0 and v·n1 = d1 (both edge lines moved by their distances).
                let det = n0.0 * n1.1 - n0.1 * n1.0
                var v: (Double, Double)
                if abs(det) < 1e-9 {
                    // (Anti)parallel neighbours: move along the normal by the larger distance.
                    let d = Swift.max(d0, d1)
                    v = (n1.0 * d, n1.1 * d)
                } else {
                    v = ((d0 * n1.1 - d1 * n0.1) / det, (n0.0 * d1 - n1.0 * d0) / det)
                }
                let limit = 2 * Swift.max(d0, d1), length = hypot(v.0, v.1)
                if length > limit { v = (v.0 * limit / length, v.1 * limit / length) }
                out.append(PlanePoint(p.x + v.0, p.y + v.1))
            }
        }
    }
}

/// An edge of a face to extend under the face painted after it (`SharedEdges`), in device space.
struct EdgeSeal {
    let segment: PlaneSegment
    /// The later face's convex polygon: the extension never leaves it.
    let under: Ring
}

/// The scratch `Ring.extended(along:by:tolerance:appendingTo:scratch:)` clips each edge's strips in, kept from one
/// face to the next (a painter extends thousands of faces per paint).
struct SealScratch {
    /// The strip being clipped and its spare, the pieces' far corners one after another, and the pieces.
    fileprivate var strip: Ring, spare: Ring, far: Ring
    fileprivate var pieces: [(from: Double, to: Double, far: Range<Int>)]

    init() {
        strip = []; spare = []; far = []; pieces = []
        // A strip clipped by a convex `under` keeps at most 4 + one point per cut: ample for a face's seals.
        strip.reserveCapacity(16); spare.reserveCapacity(16); far.reserveCapacity(16); pieces.reserveCapacity(4)
    }

}

extension Array where Element == PlanePoint {
    /// The ring with each edge that runs along seals' segments pushed out by up to `distance`, but only as far as
    /// the seals' `under` polygons reach: the strip beyond the edge, clipped to each `under` (the later face's
    /// fragments along that edge), is spliced in place of the edge, so the result is one ring (one fill, no
    /// antialiased seam between the face and its extension) whose outline beyond the edge follows the later
    /// faces' own edges, never poking out of the pair. Along stretches of the edge no seal's polygon covers (a
    /// fragment of the other face painted earlier), the ring stays on the edge.
    func extended(along seals: [EdgeSeal], by distance: Double, tolerance: Double) -> Ring {
        guard count >= 3, !seals.isEmpty, distance > 0 else { return self }
        var out: Ring = []
        out.reserveCapacity(count + 6 * seals.count)
        var scratch = SealScratch()
        extended(along: seals, by: distance, tolerance: tolerance, appendingTo: &out, scratch: &scratch)
        return out
    }

    /// `extended(along:by:tolerance:)`'s ring appended to `out` (a pool of many faces' rings), with `scratch` reused
    /// from one face to the next: the same points, without the ring's and the scratch's arrays per face.
    func extended(along seals: [EdgeSeal], by distance: Double, tolerance: Double, appendingTo out: inout Ring,
                  scratch: inout SealScratch) {
        guard count >= 3, !seals.isEmpty, distance > 0 else { out.append(contentsOf: self); return }
        var area = 0.0
        for i in indices { let a = self[i], b = self[(i + 1) % count]; area += a.x * b.y - b.x * a.y }
        guard area != 0, area.isFinite else { out.append(contentsOf: self); return }
        let sign: Double = area > 0 ? 1 : -1
        // A big solid's cap can carry thousands of seals along thousands of edges: ask a grid, not every seal.
        let index = seals.count > SealGrid.linearLimit ? SealGrid(seals, tolerance: tolerance) : nil
        // Scratch reused by every edge and strip (a face is extended once per paint, and this is its hot part).
        for i in indices {
            let p = self[i], q = self[(i + 1) % count]
            out.append(p)
            // (Emptied only when used: `removeAll` costs a call even on an empty array, and most edges have no seal.
            // `far` holds points only while `pieces` holds their pieces: `strip` takes back what it does not keep.)
            if !scratch.pieces.isEmpty { scratch.pieces.removeAll(keepingCapacity: true); scratch.far.removeAll(keepingCapacity: true) }
            // Each later polygon's piece of the strip, from p to q: down to the edge between pieces, so a gap
            // between them stays exact.
            func addPiece(under: Ring) {
                let start = scratch.far.count
                if let piece = Self.strip(from: p, to: q, outwardSign: sign, distance: distance, under: under,
                                          strip: &scratch.strip, spare: &scratch.spare, far: &scratch.far) {
                    scratch.pieces.append((piece.from, piece.to, start..<scratch.far.count))
                }
            }
            if let index {
                for seal in index.seals(runningAlong: p, q, in: seals, tolerance: tolerance) { addPiece(under: seal.under) }
            } else {
                for seal in seals where seal.segment.isRunAlong(from: p, to: q, tolerance: tolerance) { addPiece(under: seal.under) }
            }
            guard !scratch.pieces.isEmpty else { continue }
            // (A piece means the edge has a length: `strip` asks for it.)
            let dx = q.x - p.x, dy = q.y - p.y, l = hypot(dx, dy)
            let ux = dx / l, uy = dy / l
            func on(_ t: Double) -> PlanePoint { PlanePoint(p.x + ux * t, p.y + uy * t) }
            if scratch.pieces.count > 1 { scratch.pieces.sort { $0.from < $1.from } }
            for piece in scratch.pieces {
                out.append(on(piece.from))
                out.append(contentsOf: scratch.far[piece.far])
                out.append(on(piece.to))
            }
        }
    }

    /// The strip `distance` wide beyond the edge p→q, clipped to the convex ring `under`: where its base runs along
    /// the edge (`from`…`to`, distances from p), its corners off the edge's line appended to `far` in order from p
    /// to q; `nil` (and `far` as it was) when `under` holds none of it. `strip` and `spare` are scratch.
    private static func strip(from p: PlanePoint, to q: PlanePoint, outwardSign sign: Double, distance: Double,
                              under: Ring, strip: inout Ring, spare: inout Ring,
                              far: inout Ring) -> (from: Double, to: Double)? {
        let dx = q.x - p.x, dy = q.y - p.y, l = hypot(dx, dy)
        guard l > 0, under.count >= 3 else { return nil }
        let ux = dx / l, uy = dy / l, nx = sign * uy, ny = -sign * ux
        strip.removeAll(keepingCapacity: true)
        strip.append(p)
        strip.append(q)
        strip.append(PlanePoint(q.x + nx * distance, q.y + ny * distance))
        strip.append(PlanePoint(p.x + nx * distance, p.y + ny * distance))
        var underArea = 0.0
        for i in under.indices { let a = under[i], b = under[(i + 1) % under.count]; underArea += a.x * b.y - b.x * a.y }
        guard underArea != 0, underArea.isFinite else { return nil }
        let inside: Double = underArea > 0 ? 1 : -1
        for i in under.indices {
            let a = under[i], b = under[(i + 1) % under.count]
            guard a != b else { continue }
            // Keep the side of edge a→b the ring's interior is on; a hair of slack keeps p and q, which lie on
            // `under`'s edge up to rounding.
            let ex = b.x - a.x, ey = b.y - a.y
            // A strip wholly on the inner side comes back from the clip unchanged: skip it (a big solid's cap is a
            // thousands-sided `under`, and nearly all its edges are far from the strip).
            if strip.allSatisfy({ inside * (ex * ($0.y - a.y) - ey * ($0.x - a.x)) >= 0 }) { continue }
            let el = hypot(ex, ey)
            clipPolygon(strip, into: &spare, side: { inside * (ex * ($0.y - a.y) - ey * ($0.x - a.x)) / el + 1e-9 }) { s, t, f in
                PlanePoint(s.x + (t.x - s.x) * f, s.y + (t.y - s.y) * f)
            }
            swap(&strip, &spare)
            if strip.count < 3 { return nil }
        }
        func along(_ r: PlanePoint) -> Double { (r.x - p.x) * ux + (r.y - p.y) * uy }
        func off(_ r: PlanePoint) -> Double { (r.x - p.x) * nx + (r.y - p.y) * ny }
        // The strip is convex with its base on the edge's line, so its far side is monotone along the edge. The far
        // corners in order along the edge: a stable insertion sort, the order `sorted` gives.
        let start = far.count
        var from = 0.0, to = 0.0, hasBase = false
        for r in strip {
            if off(r) > 1e-6 {
                var j = far.count
                far.append(r)
                while j > start, along(r) < along(far[j - 1]) { far[j] = far[j - 1]; j -= 1 }
                far[j] = r
            } else {
                // `min()` and `max()` of the base's distances: the first of equal ones kept.
                let t = along(r)
                if !hasBase { from = t; to = t; hasBase = true } else {
                    if t < from { from = t }
                    if t > to { to = t }
                }
            }
        }
        guard far.count > start, hasBase, to > from else {
            if far.count > start { far.removeSubrange(start...) }
            return nil
        }
        return (Swift.max(0, from), Swift.min(l, to))
    }
}

extension Array where Element == PlanePoint {
    /// Whether the ring is convex (every turn the same way; collinear points allowed) and not degenerate.
    var isConvex: Bool {
        guard count >= 3 else { return false }
        var sign = 0.0
        // The corners i, i + 1, i + 2 (wrapping), carried from one step to the next: asked of every plain face.
        var a = self[0], b = self[1]
        for i in indices {
            let c = self[i + 2 < count ? i + 2 : i + 2 - count]
            defer { a = b; b = c }
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            guard cross.isFinite else { return false }
            if cross != 0 {
                if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
            }
        }
        return sign != 0
    }
}

/// Seals' segments in a uniform grid of their boxes, so `Ring.extended(along:by:tolerance:)` looks at the seals
/// near an edge only. An edge that runs along a segment (both ends within `tolerance` of its line, overlapping by
/// more than `tolerance`) has a point within `tolerance` of a point of the segment, so their boxes grown by the
/// tolerance meet: the grid's candidates are a superset of the answer, filtered by `isRunAlong` as before.
struct SealGrid {
    static let linearLimit = 16
    /// Boxes covering more cells than this are kept in `everywhere` instead.
    private static let cellLimit = 64
    private var cells: [SIMD2<Int>: [Int]] = [:]
    private var everywhere: [Int] = []
    private let size: Double
    private let margin: Double

    init(_ seals: [EdgeSeal], tolerance: Double) {
        // Generous, so rounding never drops a candidate; candidates are checked exactly afterwards.
        margin = 2 * tolerance + 1e-9
        let extent = seals.reduce(0.0) { sum, s in
            sum + Swift.max(abs(s.segment.b.x - s.segment.a.x), abs(s.segment.b.y - s.segment.a.y))
        } / Double(Swift.max(1, seals.count))
        let size = Swift.max(extent, 4 * margin)
        self.size = size.isFinite && size > 0 ? size : 1
        for (k, seal) in seals.enumerated() {
            guard let range = cellRange(seal.segment.a, seal.segment.b) else { everywhere.append(k); continue }
            for x in range.lo.x...range.hi.x { for y in range.lo.y...range.hi.y { cells[SIMD2(x, y), default: []].append(k) } }
        }
    }

    /// The cells the box of p…q grown by the margin covers, or `nil` when there are too many (or none finite).
    private func cellRange(_ p: PlanePoint, _ q: PlanePoint) -> (lo: SIMD2<Int>, hi: SIMD2<Int>)? {
        let x0 = ((Swift.min(p.x, q.x) - margin) / size).rounded(.down), x1 = ((Swift.max(p.x, q.x) + margin) / size).rounded(.down)
        let y0 = ((Swift.min(p.y, q.y) - margin) / size).rounded(.down), y1 = ((Swift.max(p.y, q.y) + margin) / size).rounded(.down)
        guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite, abs(x0) < 1e9, abs(x1) < 1e9, abs(y0) < 1e9, abs(y1) < 1e9,
              (x1 - x0 + 1) * (y1 - y0 + 1) <= Double(Self.cellLimit) else { return nil }
        return (SIMD2(Int(x0), Int(y0)), SIMD2(Int(x1), Int(y1)))
    }

    /// The seals the edge p→q runs along, in the order of `seals` (as `seals.filter` gives them).
    func seals(runningAlong p: PlanePoint, _ q: PlanePoint, in seals: [EdgeSeal], tolerance: Double) -> [EdgeSeal] {
        var candidates = everywhere
        if let range = cellRange(p, q) {
            for x in range.lo.x...range.hi.x { for y in range.lo.y...range.hi.y { candidates += cells[SIMD2(x, y)] ?? [] } }
        } else {
            candidates = Array(seals.indices)
        }
        guard !candidates.isEmpty else { return [] }
        candidates.sort()
        var out: [EdgeSeal] = []
        var previous = -1
        for k in candidates where k != previous {
            previous = k
            if seals[k].segment.isRunAlong(from: p, to: q, tolerance: tolerance) { out.append(seals[k]) }
        }
        return out
    }
}
