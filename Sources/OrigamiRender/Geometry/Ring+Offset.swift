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
            let dx = b.x - a.x, dy = b.y - a.y, l = planeLength(dx, dy)
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
                let limit = 2 * Swift.max(d0, d1), length = planeLength(v.0, v.1)
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

/// A seal whose later polygon is the `under`-th of a `SealPolygons`: `EdgeSeal` without an array of its own.
struct PooledSeal {
    let segment: PlaneSegment
    let under: Int
    /// The segment's line as `PlaneSegment.isRunAlong` works it out: once per seal, not once per edge of the face it
    /// is tested against.
    private let line: PlaneSegment.Line

    init(segment: PlaneSegment, under: Int) {
        self.segment = segment
        self.under = under
        line = PlaneSegment.Line(segment)
    }

    /// `segment.isRunAlong(from: p, to: q, tolerance: tol)`.
    func isRunAlong(from p: PlanePoint, to q: PlanePoint, tolerance tol: Double) -> Bool {
        line.isRunAlong(from: p, to: q, tolerance: tol)
    }
}

/// The later fragments' convex polygons a scene's faces are extended under, on the device, one after another in one
/// pool, each with the side its interior is on: worked out once per polygon, not once per strip under it (a big
/// solid's cap is under thousands of strips), and held without an array each.
struct SealPolygons {
    /// Every polygon's points.
    private(set) var points: Ring = []
    /// Per polygon: its points, `points[start ..< start + count]`, and `inside`, the sign of its area (+1 or -1), or
    /// 0 when it has fewer than 3 points or its area is 0 or not finite (nothing of a strip is kept under it: the
    /// general path's `strip` tests each `under` so).
    private(set) var polygons: [(start: Int, count: Int, inside: Double)] = []

    /// Adds `ring` as the next polygon.
    mutating func append(_ ring: Ring) {
        let start = points.count, n = ring.count
        // (Point by point: `append(contentsOf:)` costs more than a face's few points.)
        for r in ring { points.append(r) }
        // The general path's `strip`'s area, in its order.
        var area = 0.0
        for i in 0 ..< n { let a = ring[i], b = ring[i + 1 < n ? i + 1 : 0]; area += a.x * b.y - b.x * a.y }
        polygons.append((start, n, n < 3 || area == 0 || !area.isFinite ? 0 : area > 0 ? 1 : -1))
    }

    /// The number of polygons.
    var count: Int { polygons.count }

    /// The `k`-th polygon as a ring of its own (`EdgeSeal.under`, for the general path).
    func ring(_ k: Int) -> Ring {
        let p = polygons[k]
        return Array(points[p.start ..< p.start + p.count])
    }
}

/// What `Ring.extended(along:under:by:tolerance:appendingTo:scratch:)` works in, kept from one face to the next (a
/// painter extends thousands of faces per paint).
struct SealScratch {
    /// The strip being clipped and its spare: buffers of a fixed size, written through pointers.
    fileprivate var a: Ring, b: Ring
    /// Several pieces along one edge: each one's start along the edge and its points in the output, and a copy of
    /// those points while they are put in order.
    fileprivate var pieces: [(from: Double, block: Range<Int>)] = [], blocks: Ring = []

    init() {
        // A strip clipped by a convex polygon keeps at most 4 + one point per cut: ample for a face's seals.
        a = Ring(repeating: PlanePoint(0, 0), count: 32)
        b = Ring(repeating: PlanePoint(0, 0), count: 32)
    }
}

extension Array where Element == PlanePoint {
    /// The ring with each edge that runs along seals' segments pushed out by up to `distance`, but only as far as
    /// the seals' `under` polygons reach: the strip beyond the edge, clipped to each `under` (the later face's
    /// fragments along that edge), is spliced in place of the edge, so the result is one ring (one fill, no
    /// antialiased seam between the face and its extension) whose outline beyond the edge follows the later
    /// faces' own edges, never poking out of the pair. Along stretches of the edge no seal's polygon covers (a
    /// fragment of the other face painted earlier), the ring stays on the edge.
    ///
    /// The general path, on arrays (`drawNode`'s sealed faces); a scene's plain faces take
    /// `extended(along:under:by:tolerance:appendingTo:scratch:)`, the same points (tests compare the two).
    func extended(along seals: [EdgeSeal], by distance: Double, tolerance: Double) -> Ring {
        guard count >= 3, !seals.isEmpty, distance > 0 else { return self }
        var out: Ring = []
        out.reserveCapacity(count + 6 * seals.count)
        // The strip being clipped and its spare, the pieces' far corners one after another, and the pieces. (Each a
        // variable of its own: `addPiece` captures them, and `strip` is handed three at once.)
        var strip: Ring = [], spare: Ring = [], far: Ring = []
        var pieces: [(from: Double, to: Double, far: Range<Int>)] = []
        var area = 0.0
        for i in indices { let a = self[i], b = self[(i + 1) % count]; area += a.x * b.y - b.x * a.y }
        guard area != 0, area.isFinite else { out.append(contentsOf: self); return out }
        let sign: Double = area > 0 ? 1 : -1
        // A big solid's cap can carry thousands of seals along thousands of edges: ask a grid, not every seal.
        let index = seals.count > SealGrid.linearLimit ? SealGrid(count: seals.count, tolerance: tolerance) { seals[$0].segment } : nil
        for i in indices {
            let p = self[i], q = self[(i + 1) % count]
            out.append(p)
            if !pieces.isEmpty { pieces.removeAll(keepingCapacity: true); far.removeAll(keepingCapacity: true) }
            // Each later polygon's piece of the strip, from p to q: down to the edge between pieces, so a gap
            // between them stays exact.
            func addPiece(under: Ring) {
                let start = far.count
                if let piece = Self.strip(from: p, to: q, outwardSign: sign, distance: distance, under: under,
                                          strip: &strip, spare: &spare, far: &far) {
                    pieces.append((piece.from, piece.to, start..<far.count))
                }
            }
            if let index {
                for k in index.indices(runningAlong: p, q, tolerance: tolerance, segment: { seals[$0].segment }) {
                    addPiece(under: seals[k].under)
                }
            } else {
                for seal in seals where seal.segment.isRunAlong(from: p, to: q, tolerance: tolerance) { addPiece(under: seal.under) }
            }
            guard !pieces.isEmpty else { continue }
            // (A piece means the edge has a length: `strip` asks for it.)
            let dx = q.x - p.x, dy = q.y - p.y, l = planeLength(dx, dy)
            let ux = dx / l, uy = dy / l
            func on(_ t: Double) -> PlanePoint { PlanePoint(p.x + ux * t, p.y + uy * t) }
            if pieces.count > 1 { pieces.sort { $0.from < $1.from } }
            for piece in pieces {
                out.append(on(piece.from))
                out.append(contentsOf: far[piece.far])
                out.append(on(piece.to))
            }
        }
        return out
    }

    /// `extended(along:by:tolerance:)`'s ring, the same points, appended to `out` (a pool of many faces' rings) for
    /// seals whose later polygons are in `polygons` (each mapped and its winding found once per scene, however many
    /// strips reach under it), with `scratch` reused from one face to the next: no array per seal, ring or strip.
    func extended(along seals: [PooledSeal], under polygons: SealPolygons, by distance: Double, tolerance: Double,
                  appendingTo out: inout Ring, scratch: inout SealScratch) {
        let n = count
        guard n >= 3, !seals.isEmpty, distance > 0 else { out.append(contentsOf: self); return }
        var area = 0.0
        for i in 0 ..< n { let a = self[i], b = self[i + 1 < n ? i + 1 : 0]; area += a.x * b.y - b.x * a.y }
        guard area != 0, area.isFinite else { out.append(contentsOf: self); return }
        let sign: Double = area > 0 ? 1 : -1
        // A big solid's cap can carry thousands of seals along thousands of edges: ask a grid, not every seal.
        let index = seals.count > SealGrid.linearLimit
            ? SealGrid(count: seals.count, tolerance: tolerance) { seals[$0].segment } : nil
        for i in 0 ..< n {
            let p = self[i], q = self[i + 1 < n ? i + 1 : 0]
            out.append(p)
            // Each later polygon's piece of the strip beyond p→q (from p to q; down to the edge between pieces, so a
            // gap between them stays exact), written straight into `out` as a block: its start on the edge (set once
            // the piece is known), its far corners, its end on the edge. The edge's frame, found on its first seal, is
            // `strip`'s and the general path's (the same expressions).
            var frame: EdgeFrame?
            var blocks = 0, firstFrom = 0.0, blocksStart = out.count
            // (A loop, not a local function: one capturing `out` and `scratch` had its accesses checked at run time.)
            let along = index?.indices(runningAlong: p, q, tolerance: tolerance) { seals[$0].segment }
            for j in 0 ..< (along?.count ?? seals.count) {
                let seal: PooledSeal
                if let along { seal = seals[along[j]] } else {
                    seal = seals[j]
                    guard seal.isRunAlong(from: p, to: q, tolerance: tolerance) else { continue }
                }
                if frame == nil { frame = EdgeFrame(p, q, outwardSign: sign) }
                guard let f = frame, f.l > 0 else { continue }
                let mark = out.count
                out.append(p)
                guard let piece = Self.strip(f, distance: distance, under: seal.under, of: polygons, scratch: &scratch,
                                             far: &out) else {
                    out.removeLast()
                    continue
                }
                out[mark] = f.on(piece.from)
                out.append(f.on(piece.to))
                if blocks == 0 { firstFrom = piece.from; blocksStart = mark } else {
                    if blocks == 1 {
                        if !scratch.pieces.isEmpty { scratch.pieces.removeAll(keepingCapacity: true) }
                        scratch.pieces.append((firstFrom, blocksStart ..< mark))
                    }
                    scratch.pieces.append((piece.from, mark ..< out.count))
                }
                blocks += 1
            }
            if blocks > 1 {
                // Several pieces along one edge (a later face split into fragments): in order along it, as the general
                // path sorts them (the same sort of the same keys: the same order).
                scratch.pieces.sort { $0.from < $1.from }
                scratch.blocks.removeAll(keepingCapacity: true)
                scratch.blocks.append(contentsOf: out[blocksStart...])
                out.removeSubrange(blocksStart...)
                for piece in scratch.pieces {
                    out.append(contentsOf: scratch.blocks[(piece.block.lowerBound - blocksStart) ..< (piece.block.upperBound - blocksStart)])
                }
            }
        }
    }

    /// Edge p→q's direction, outward normal and length, as `strip` and the general path work them out.
    private struct EdgeFrame {
        let p: PlanePoint, q: PlanePoint, l: Double, ux: Double, uy: Double, nx: Double, ny: Double

        init(_ p: PlanePoint, _ q: PlanePoint, outwardSign sign: Double) {
            let dx = q.x - p.x, dy = q.y - p.y
            self.p = p; self.q = q
            l = planeLength(dx, dy)
            ux = dx / l; uy = dy / l; nx = sign * uy; ny = -sign * ux
        }

        /// The point `t` along the edge from p.
        func on(_ t: Double) -> PlanePoint { PlanePoint(p.x + ux * t, p.y + uy * t) }
        func along(_ r: PlanePoint) -> Double { (r.x - p.x) * ux + (r.y - p.y) * uy }
        func off(_ r: PlanePoint) -> Double { (r.x - p.x) * nx + (r.y - p.y) * ny }

        /// Of a strip clipped beyond this edge: the range along the edge its base covers (`from`…`to`, distances
        /// from p, within the edge), its corners off the edge's line appended to `far` in order from p to q; `nil`
        /// (and `far` as it was) without both. Shared by the pooled and the array paths.
        func farSide(of strip: UnsafeBufferPointer<PlanePoint>, far: inout Ring) -> (from: Double, to: Double)? {
            // The strip is convex with its base on the edge's line, so its far side is monotone along the edge. The
            // far corners in order along the edge: a stable insertion sort, the order `sorted` gives.
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

    /// The general path's `strip(from:to:…)` for edge `f` (of a positive length) and the `under`-th of `polygons`:
    /// the same clips of the same strip, in `scratch`'s two buffers through pointers (no array operation per point),
    /// the far corners appended to `far` (left as it was when `nil`).
    private static func strip(_ f: EdgeFrame, distance: Double, under: Int, of polygons: SealPolygons,
                              scratch: inout SealScratch, far: inout Ring) -> (from: Double, to: Double)? {
        let u = polygons.polygons[under]
        guard u.inside != 0 else { return nil }
        var clipped: Int?
        while true {
            // (The buffers hold a strip clipped by a convex polygon many times over; a degenerate one that outgrows
            // them is clipped again from the start in bigger ones: the same arithmetic, the same points.)
            let capacity = scratch.a.count
            clipped = polygons.points.withUnsafeBufferPointer { pool in
                scratch.a.withUnsafeMutableBufferPointer { a in
                    scratch.b.withUnsafeMutableBufferPointer { b in
                        Self.clipStrip(f, distance: distance, under: UnsafeBufferPointer(rebasing: pool[u.start ..< u.start + u.count]),
                                       inside: u.inside, a.baseAddress!, b.baseAddress!, capacity: capacity)
                    }
                }
            }
            if clipped != nil { break }
            scratch.a = Ring(repeating: PlanePoint(0, 0), count: 2 * capacity)
            scratch.b = Ring(repeating: PlanePoint(0, 0), count: 2 * capacity)
        }
        // The clipped strip is in `a` (`clipped` ≥ 0 points) or in `b` (`~clipped`).
        let inA = clipped! >= 0, count = inA ? clipped! : ~clipped!
        guard count >= 3 else { return nil }
        // (Each buffer read where it lies: the one chosen by `?:` was a copy, retained and released.)
        func farSide(_ buffer: UnsafeBufferPointer<PlanePoint>) -> (from: Double, to: Double)? {
            f.farSide(of: UnsafeBufferPointer(rebasing: buffer[0 ..< count]), far: &far)
        }
        return inA ? scratch.a.withUnsafeBufferPointer(farSide) : scratch.b.withUnsafeBufferPointer(farSide)
    }

    /// The strip `distance` wide beyond edge `f`, clipped to the edges of `under` (whose interior is on the side
    /// `inside`) as the general path's `strip` clips it — `clipPolygon`'s steps, the same side and intersection
    /// arithmetic —, from `a` into `b` and back (`capacity` points each). Returns how many points are left, `n` when
    /// they are in `a` and `~n` in `b`; 0 as soon as fewer than 3 are; `nil` when a clip would outgrow the buffers.
    private static func clipStrip(_ f: EdgeFrame, distance: Double, under: UnsafeBufferPointer<PlanePoint>,
                                  inside: Double, _ a: UnsafeMutablePointer<PlanePoint>,
                                  _ b: UnsafeMutablePointer<PlanePoint>, capacity: Int) -> Int? {
        let p = f.p, q = f.q
        var src = a, dst = b, inA = true
        src[0] = p
        src[1] = q
        src[2] = PlanePoint(q.x + f.nx * distance, q.y + f.ny * distance)
        src[3] = PlanePoint(p.x + f.nx * distance, p.y + f.ny * distance)
        var n = 4
        let m = under.count
        for i in 0 ..< m {
            let a = under[i], b = under[i + 1 < m ? i + 1 : 0]
            guard a != b else { continue }
            // Keep the side of edge a→b the ring's interior is on; a hair of slack keeps p and q, which lie on
            // `under`'s edge up to rounding. A strip wholly on the inner side would come back unchanged: skipped.
            let ex = b.x - a.x, ey = b.y - a.y
            var within = true
            for j in 0 ..< n {
                let r = src[j]
                if !(inside * (ex * (r.y - a.y) - ey * (r.x - a.x)) >= 0) { within = false; break }
            }
            if within { continue }
            let el = planeLength(ex, ey)
            func side(_ r: PlanePoint) -> Double { inside * (ex * (r.y - a.y) - ey * (r.x - a.x)) / el + 1e-9 }
            var k = 0
            var s = src[n - 1], ds = side(s)
            for j in 0 ..< n {
                let t = src[j], dt = side(t)
                if (ds >= 0) != (dt >= 0) {
                    guard k < capacity else { return nil }
                    let r = ds / (ds - dt)
                    dst[k] = PlanePoint(s.x + (t.x - s.x) * r, s.y + (t.y - s.y) * r)
                    k += 1
                }
                if dt >= 0 {
                    guard k < capacity else { return nil }
                    dst[k] = t
                    k += 1
                }
                s = t; ds = dt
            }
            swap(&src, &dst)
            inA.toggle()
            n = k
            if n < 3 { return 0 }
        }
        return inA ? n : ~n
    }

    /// The strip `distance` wide beyond the edge p→q, clipped to the convex ring `under`: where its base runs along
    /// the edge (`from`…`to`, distances from p), its corners off the edge's line appended to `far` in order from p
    /// to q; `nil` (and `far` as it was) when `under` holds none of it. `strip` and `spare` are scratch.
    private static func strip(from p: PlanePoint, to q: PlanePoint, outwardSign sign: Double, distance: Double,
                              under: Ring, strip: inout Ring, spare: inout Ring,
                              far: inout Ring) -> (from: Double, to: Double)? {
        let f = EdgeFrame(p, q, outwardSign: sign)
        guard f.l > 0, under.count >= 3 else { return nil }
        let nx = f.nx, ny = f.ny
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
            let el = planeLength(ex, ey)
            clipPolygon(strip, into: &spare, side: { inside * (ex * ($0.y - a.y) - ey * ($0.x - a.x)) / el + 1e-9 }) { s, t, f in
                PlanePoint(s.x + (t.x - s.x) * f, s.y + (t.y - s.y) * f)
            }
            swap(&strip, &spare)
            if strip.count < 3 { return nil }
        }
        return strip.withUnsafeBufferPointer { f.farSide(of: $0, far: &far) }
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
    /// The number of seals.
    private let count: Int

    init(_ seals: [EdgeSeal], tolerance: Double) {
        self.init(count: seals.count, tolerance: tolerance) { seals[$0].segment }
    }

    /// The grid of `count` seals' segments (`segment(k)`).
    init(count: Int, tolerance: Double, segment: (Int) -> PlaneSegment) {
        // Generous, so rounding never drops a candidate; candidates are checked exactly afterwards.
        margin = 2 * tolerance + 1e-9
        self.count = count
        var sum = 0.0
        for k in 0 ..< count {
            let s = segment(k)
            sum = sum + Swift.max(abs(s.b.x - s.a.x), abs(s.b.y - s.a.y))
        }
        let extent = sum / Double(Swift.max(1, count))
        let size = Swift.max(extent, 4 * margin)
        self.size = size.isFinite && size > 0 ? size : 1
        for k in 0 ..< count {
            let s = segment(k)
            guard let range = cellRange(s.a, s.b) else { everywhere.append(k); continue }
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
        indices(runningAlong: p, q, tolerance: tolerance) { seals[$0].segment }.map { seals[$0] }
    }

    /// The indices of the seals (`segment(k)`, k below the grid's count) the edge p→q runs along, in increasing order.
    func indices(runningAlong p: PlanePoint, _ q: PlanePoint, tolerance: Double,
                 segment: (Int) -> PlaneSegment) -> [Int] {
        var candidates = everywhere
        if let range = cellRange(p, q) {
            for x in range.lo.x...range.hi.x { for y in range.lo.y...range.hi.y { candidates += cells[SIMD2(x, y)] ?? [] } }
        } else {
            candidates = Array(0 ..< count)
        }
        guard !candidates.isEmpty else { return [] }
        candidates.sort()
        var out: [Int] = []
        var previous = -1
        for k in candidates where k != previous {
            previous = k
            if segment(k).isRunAlong(from: p, to: q, tolerance: tolerance) { out.append(k) }
        }
        return out
    }
}
