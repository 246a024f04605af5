import Foundation
import Origami

/// A straight edge on a plane (a 3D context's flattened plane, or the device).
struct PlaneSegment: Sendable {
    var a: PlanePoint
    var b: PlanePoint

    /// Whether the edge from `p` to `q` runs along this segment: both ends within `tolerance` of its line, and the
    /// two overlapping by more than `tolerance`.
    func isRunAlong(from p: PlanePoint, to q: PlanePoint, tolerance tol: Double) -> Bool {
        Line(self).isRunAlong(from: p, to: q, tolerance: tol)
    }

    /// The segment's start, length and direction, as `isRunAlong` reads them: worked out once and kept by a caller
    /// that tests one segment against many edges (`PooledSeal`).
    struct Line {
        let a: PlanePoint, l: Double, ux: Double, uy: Double

        init(_ segment: PlaneSegment) {
            a = segment.a
            let dx = segment.b.x - segment.a.x, dy = segment.b.y - segment.a.y
            l = planeLength(dx, dy)
            ux = dx / l
            uy = dy / l
        }

        /// `PlaneSegment.isRunAlong(from:to:tolerance:)` of the segment.
        func isRunAlong(from p: PlanePoint, to q: PlanePoint, tolerance tol: Double) -> Bool {
            guard l > tol else { return false }
            func offLine(_ r: PlanePoint) -> Double { abs((r.x - a.x) * uy - (r.y - a.y) * ux) }
            func along(_ r: PlanePoint) -> Double { (r.x - a.x) * ux + (r.y - a.y) * uy }
            guard offLine(p) <= tol, offLine(q) <= tol else { return false }
            let tp = along(p), tq = along(q)
            return Swift.min(l, Swift.max(tp, tq)) - Swift.max(0, Swift.min(tp, tq)) > tol
        }
    }
}

/// One edge a fragment shares with a fragment painted after it, which it is extended under.
struct SealedEdge: Sendable {
    let segment: PlaneSegment
    /// The later fragment (an index into the fragments given to `SharedEdges`).
    let later: Int
}

/// A list of values per index (a fragment), the lists end to end in one array: a scene's thousands of fragments hold
/// a few seals or outer edges each, and an array per fragment was an allocation each, freed each, and read from
/// wherever the allocator put it. List `k` is `items[starts[k] ..< starts[k + 1]]`.
struct FragmentLists<Element>: RandomAccessCollection {
    private(set) var items: [Element] = []
    /// One more than there are lists: 0, then where each list ends.
    private var starts: [Int32] = [0]

    init() {}

    /// Lists for `count` indices, appended to one by one (`append`, then `close` for each index in turn).
    init(reservingLists count: Int, items capacity: Int) {
        starts.reserveCapacity(count + 1)
        items.reserveCapacity(capacity)
    }

    /// `count` empty lists.
    init(emptyLists count: Int) { starts = Array(repeating: 0, count: count + 1) }

    /// `lists` end to end.
    init(_ lists: [[Element]]) {
        self.init(reservingLists: lists.count, items: lists.reduce(0) { $0 + $1.count })
        for list in lists {
            for e in list { append(e) }
            close()
        }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { starts.count - 1 }

    /// List `k`'s place in `items`.
    func range(_ k: Int) -> Range<Int> { Int(starts[k]) ..< Int(starts[k + 1]) }

    subscript(k: Int) -> ArraySlice<Element> { items[range(k)] }

    /// List `k` as an array of its own (none allocated for an empty one): `Unsafe.array(_:)`.
    func array(_ k: Int) -> [Element] { withUnsafeLists { $0.array(k) } }

    /// The lists read in place, without references (a closure called per fragment that captures them retains and
    /// releases nothing).
    struct Unsafe {
        let items: UnsafeBufferPointer<Element>, starts: UnsafeBufferPointer<Int32>

        /// List `k` as an array of its own (none allocated for an empty one).
        func array(_ k: Int) -> [Element] {
            let r = Int(starts[k]) ..< Int(starts[k + 1])
            return r.isEmpty ? [] : Array(UnsafeBufferPointer(rebasing: items[r]))
        }
    }

    /// Calls `body` with the lists in place.
    func withUnsafeLists<R>(_ body: (Unsafe) throws -> R) rethrows -> R {
        try items.withUnsafeBufferPointer { items in
            try starts.withUnsafeBufferPointer { starts in try body(Unsafe(items: items, starts: starts)) }
        }
    }

    /// `count` lists of `values`' elements, each value dealt to the list `list` names, in the order given (a stable
    /// counting sort: a fragment has a few values, so this is linear where sorting them all was not); then, with
    /// `precedes`, each list of two or more values sorted by it, stably.
    init<Value>(dealing values: [Value], lists count: Int, list: (Value) -> Int, element: (Value) -> Element,
                sortedBy precedes: ((Value, Value) -> Bool)? = nil) {
        var start = [Int](repeating: 0, count: count + 1)
        for v in values { start[list(v) + 1] += 1 }
        for k in 0 ..< count { start[k + 1] += start[k] }
        var next = start, order = [Int](repeating: 0, count: values.count)
        for (n, v) in values.enumerated() { order[next[list(v)]] = n; next[list(v)] += 1 }
        self.init(reservingLists: count, items: values.count)
        for k in 0 ..< count {
            let bucket = start[k] ..< start[k + 1]
            if let precedes, bucket.count > 1 {
                order.withUnsafeMutableBufferPointer { $0.stableInsertionSort(bucket) { precedes(values[$0], values[$1]) } }
            }
            for n in bucket { append(element(values[order[n]])) }
            close()
        }
    }

    /// Adds `e` to the list being made (the next index's).
    mutating func append(_ e: Element) { items.append(e) }

    /// Ends the list being made: the next values go to the next index's.
    mutating func close() { starts.append(Int32(items.count)) }
}

/// Which edges of each BSP fragment are sealed, and which are its polygon's own (DESIGN §3.7, exact edges).
///
/// Every face is antialiased at its exact outline. Where two faces of one context share an edge (the same
/// segment in the context's 3D space, within a tolerance, and the two faces on opposite sides of it once
/// flattened: a cube's neighbouring faces, two faces of a solid), their edge pixels are covered by the two
/// faces' complementary coverages α and 1 − α, and painted one after the other they would let the background
/// through by α·(1 − α). So the face painted *first* is extended under the later one along that edge only, past
/// every pixel the edge crosses (`Painter.seal`, 1.5 px): the later face's antialiased edge then blends with the
/// earlier face alone, and a pixel reads later·α + earlier·(1 − α) whichever of the two is painted first. The
/// extension is clipped to the later fragment (`Ring.extended(along:by:tolerance:)`), so it never pokes past the
/// pair's outline where the two meet a silhouette. Free edges (silhouettes) are never moved: a lone plane covers
/// its exact area. (Where a shared edge ends on the silhouette, three coverages meet in one pixel and no
/// source-over order is exact; there the BSP's geometric input order, `Painter.scenePolygons`, keeps the paint order,
/// and so the pixels, independent of the tree's order.)
///
/// The test is done on the fragments' corners in the context's space after the perspective divide (a shared 3D
/// segment stays shared under the projective map), so it is exact for the faces' own geometry, whatever the pixel
/// grid, and independent of how each face's outline is later mapped to the device.
///
/// A fragment's edges that lie on its member's own polygon are `outer`: when the BSP splits a plane, each
/// fragment is clipped to its polygon with those edges pushed out of the way, so the plane's own antialiased
/// outline survives, and only the split lines cut (see `Painter.drawScene`).
struct SharedEdges {
    /// Per fragment (same indices as the fragments given): the edges to extend under a later fragment.
    private(set) var sealed: FragmentLists<SealedEdge>
    /// Per fragment of a split member: its edges that lie on its member's own polygon (not on a split line); none for
    /// the others.
    private(set) var outer: FragmentLists<PlaneSegment>
    /// The seams were looked for solid by solid (within each, and between solids whose boxes meet), not through the
    /// grid.
    private(set) var searchedBySolid = false

    /// - Parameters:
    ///   - fragments: the BSP's fragments, back to front (the painter's order).
    ///   - polygons: each member's whole polygon (before splitting), indexed by member (`Painter.scenePolygons`).
    ///   - outline: a member's drawn outline in the context's space (after the divide), when it differs from its
    ///     polygon (a solid's face masked to a triangle or hexagon: the seams are along the outline, inside the
    ///     layer's rectangle). Each fragment of a split member seals along the part of the outline it holds.
    ///   - sealable: whether a member's face may take part in a seal (an opaque face turned toward the viewer).
    ///   - solid: members of one solid share a number ≥ 0 (any partition of the members will do; `nil`: none
    ///     known). Seals are then looked for solid by solid — the same seals in the same order as the grid finds.
    init(fragments: ScenePolygons, polygons: Painter.WholePolygons, outline: (Int) -> [Vector3]?,
         sealable: (Int) -> Bool, solid: ((Int) -> Int)? = nil) {
        sealed = FragmentLists(emptyLists: fragments.count)
        outer = FragmentLists(reservingLists: fragments.count, items: 0)
        // An edge with what every pair test asks of it, worked out once: its fragment and member, its line as `overlap`
        // has it (the same expressions, so the same bits) and its box grown by the tolerance. (The indices as `Int32`:
        // 96 bytes an edge, not 104.)
        struct Edge {
            let f: Int32, m: Int32, a: Vector3, b: Vector3, line: Line
            var fragment: Int { Int(f) }
            var member: Int { Int(m) }
        }
        typealias Box = (lo: Vector3, hi: Vector3)
        var edgeList: [Edge] = []
        var boxList: [Box] = []
        // Per edge, its member's solid (when `solid` is given): asked once a fragment, for all its edges.
        var solidList: [Int] = []
        // Fragments per member (members are indices into the context's scene).
        var pieces = [Int32](repeating: 0, count: fragments.reduce(-1) { Swift.max($0, $1.member) } + 1)
        for f in fragments { pieces[f.member] += 1 }
        // Per fragment, its centroid flattened: read only for the fragments that have edges (sealable ones), so worked
        // out for those alone, in the loop below.
        var centroidList = [PlanePoint](repeating: PlanePoint(0, 0), count: fragments.count)
        edgeList.reserveCapacity(4 * fragments.count)
        boxList.reserveCapacity(4 * fragments.count)
        if solid != nil { solidList.reserveCapacity(4 * fragments.count) }
        // Each split member's boundary lines, worked out once for all its fragments.
        var boundaries = MemoTable<Boundary>(count: polygons.count)
        func ownPolygon(_ member: Int) -> ScenePolygon? { member < polygons.count ? polygons[member] : nil }
        for (f, fragment) in fragments.enumerated() {
            let pts = fragment.points
            let whole = pieces[fragment.member] == 1
            // Per corner of a split member's fragment: whether the edge from it lies on the polygon's boundary.
            var onBoundary: [Bool] = []
            if !whole, let own = ownPolygon(fragment.member) {
                // A fragment lies inside its convex polygon: an edge on one of the polygon's edge lines is on its
                // boundary. (Only split members are clipped to their fragments, so only they need these.)
                onBoundary.reserveCapacity(pts.count)
                let boundary: Boundary
                if let known = boundaries[fragment.member] ?? nil { boundary = known } else {
                    boundary = Boundary(own.points)
                    boundaries[fragment.member] = .some(boundary)
                }
                for i in pts.indices {
                    let a = pts[i], b = pts[(i + 1) % pts.count]
                    let on = a != b && boundary.contains(a, b)
                    onBoundary.append(on)
                    if on { outer.append(PlaneSegment(a: PlanePoint(a.x, a.y), b: PlanePoint(b.x, b.y))) }
                }
            }
            outer.close()
            guard sealable(fragment.member) else { continue }
            // The ring sealed along: the member's outline (the fragment's part of it) when it has one, else the fragment.
            let shape = outline(fragment.member)
            var shaped: [Vector3] = []
            if let shape, shape.count >= 3 {
                shaped = whole ? shape : Self.clip(shape, to: fragment)
                guard shaped.count >= 3 else { continue }
                let c = shaped.reduce(Vector3.zero, +) / Double(shaped.count)
                centroidList[f] = PlanePoint(c.x, c.y)
            } else {
                let c = fragment.centroid
                centroidList[f] = PlanePoint(c.x, c.y)
            }
            let fragmentSolid = solid?(fragment.member)
            // (`shaped` read in place, as the fragment's corners are.)
            shaped.withUnsafeBufferPointer { shaped in
                let ring = shaped.isEmpty ? pts : PolygonPoints(shaped)
                for i in ring.indices {
                    let a = ring[i], b = ring[(i + 1) % ring.count]
                    // A split member's edges along split lines are not its own: they are cut hard (see `outer`).
                    guard a != b, whole || shape != nil
                            || (onBoundary.isEmpty ? ownPolygon(fragment.member) == nil : onBoundary[i])
                    else { continue }
                    let line = Line(a, b), t = line.tolerance
                    edgeList.append(Edge(f: Int32(f), m: Int32(fragment.member), a: a, b: b, line: line))
                    boxList.append((Vector3(Swift.min(a.x, b.x) - t, Swift.min(a.y, b.y) - t, Swift.min(a.z, b.z) - t),
                                    Vector3(Swift.max(a.x, b.x) + t, Swift.max(a.y, b.y) + t, Swift.max(a.z, b.z) + t)))
                    if let fragmentSolid { solidList.append(fragmentSolid) }
                }
            }
        }
        // (Constants from here on: the closures below read them without exclusivity checks.)
        let edges = edgeList, boxes = boxList, centroids = centroidList
        guard edges.count > 1 else { return }
        /// The seal edges `e` and `g` make, if they do: the earlier fragment and the edge it goes under the later by.
        func seal(_ e: Edge, _ g: Edge) -> (under: Int, edge: SealedEdge)? {
            guard e.member != g.member, Self.mayRunAlong(e.line, g.line),
                  Self.overlap(e.a, e.line, g.a, g.b, tolerance: g.line.tolerance),
                  Self.onOppositeSides(centroids[e.fragment], centroids[g.fragment], of: e.a, e.b) else { return nil }
            // The earlier fragment goes under the later one.
            let (under, edge, later) = e.fragment < g.fragment ? (e.fragment, e, g.fragment) : (g.fragment, g, e.fragment)
            return (under, SealedEdge(segment: PlaneSegment(a: PlanePoint(edge.a.x, edge.a.y), b: PlanePoint(edge.b.x, edge.b.y)),
                                      later: later))
        }
        // The grid's seals in the order found (`check`), dealt to their fragments' lists at the end.
        var pending: [(under: Int, edge: SealedEdge)] = []
        func check(_ e: Edge, _ g: Edge) {
            if let s = seal(e, g) { pending.append(s) }
        }
        // Candidates are edges whose boxes (grown by the tolerance) meet in a cell of a 3D grid about one average
        // edge long, so a scene of many solids costs about linear time (in 3D, not on the screen: solids behind
        // one another do not meet); each pair is checked once, in the cell holding the lower corner of their
        // boxes' overlap. An edge spanning very many cells (a huge plane among small ones) is checked against every
        // edge instead.
        let mean = edges.reduce(0.0) { $0 + $1.line.length } / Double(edges.count)
        let origin = boxes.reduce(boxes[0].lo) { o, b in
            Vector3(Swift.min(o.x, b.lo.x), Swift.min(o.y, b.lo.y), Swift.min(o.z, b.lo.z))
        }
        let size = mean > 0 && mean.isFinite ? mean : 1
        func cell(_ p: Vector3) -> (Int, Int, Int)? {
            let c = ((p.x - origin.x) / size).rounded(.down), d = ((p.y - origin.y) / size).rounded(.down),
                e = ((p.z - origin.z) / size).rounded(.down)
            guard c.isFinite, d.isFinite, e.isFinite, abs(c) < 1e5, abs(d) < 1e5, abs(e) < 1e5 else { return nil }
            return (Int(c), Int(d), Int(e))
        }
        // A cell as one sortable key: each coordinate (|c| < 1e5, see `cell`) offset to 18 bits, x most significant,
        // so keys sort as the cells (x, y, z) do.
        func key(_ c: (Int, Int, Int)) -> UInt64 {
            UInt64(c.0 + 100_000) << 36 | UInt64(c.1 + 100_000) << 18 | UInt64(c.2 + 100_000)
        }
        // The grid below checks each pair of edges whose boxes meet (neither spanning more than 64 cells) once, in
        // the order (cell of the lower corner of the boxes' overlap, lower edge, higher edge). Solid by solid the
        // same pairs are found for a fraction of the work (a lattice of cubes: a dozen edges a solid, and the few
        // that face a neighbour's): their seals, put in that order, are the grid's seals in the grid's order.
        // Within a solid every pair is tried, so a solid of many edges (a 20 000-face polyhedron) goes to the grid,
        // which is linear in edges.
        if solid != nil, case let solids = solidList, solids.allSatisfy({ $0 >= 0 }),
           boxes.allSatisfy({ $0.lo.isFinite && $0.hi.isFinite }), Self.spanFewCells(boxes, origin: origin, size: size, cell: cell),
           case let groups = Self.grouped(solids), groups.allSatisfy({ $0.count <= Self.largestSolidSearchedAlone }) {
            var found: [(cell: UInt64, i: Int, j: Int, under: Int, edge: SealedEdge)] = []
            // (About a seal a fragment: a cube's visible faces.)
            found.reserveCapacity(fragments.count)
            // The seal of a pair whose boxes meet (`i` < `j`), if they make one, with its place in the grid's order.
            func record(_ i: Int, _ j: Int, _ p: Box, _ q: Box) {
                guard let s = seal(edges[i], edges[j]) else { return }
                let corner = Vector3(Swift.max(p.lo.x, q.lo.x), Swift.max(p.lo.y, q.lo.y), Swift.max(p.lo.z, q.lo.z))
                guard let c = cell(corner) else { return }
                found.append((key(c), i, j, s.under, s.edge))
            }
            // Every pair within a solid (its edges in increasing order): two edges of one member never seal, the
            // cheapest test first. (The edge table read in place: a solid's dozen edges sit in a few runs of it, and
            // copying its members and lines out side by side cost two passes over it for nothing.)
            edges.withUnsafeBufferPointer { edges in
                boxes.withUnsafeBufferPointer { boxes in
                    for group in groups {
                        // (The group's indices in place, each pair by position: no slice of the group per edge.)
                        group.withUnsafeBufferPointer { group in
                            for n in group.indices {
                                let i = group[n], mi = edges[i].m, p = boxes[i]
                                for m in (n + 1) ..< group.count {
                                    let j = group[m]
                                    guard edges[j].m != mi else { continue }
                                    let q = boxes[j]
                                    // (Most pairs whose boxes meet share a corner only: `mayRunAlong` turns them away.)
                                    if Self.meet(p, q), Self.mayRunAlong(edges[i].line, edges[j].line) { record(i, j, p, q) }
                                }
                            }
                        }
                    }
                }
            }
            // Solids far apart along one of a few axes cannot seal: their pairs of edges are not tried (`Slabs`).
            let axes = Slabs.axes(groups[0].map { fragments[edges[$0].fragment] })
            let slabs = edges.withUnsafeBufferPointer { edges in
                Slabs(groups, axes: axes, tolerance: edges.reduce(0.0) { Swift.max($0, $1.line.tolerance) },
                      ends: { edges[$0].a }, following: { edges[$0].b })
            }
            Self.crossPairs(groups, boxes: boxes, apart: slabs.apart) { a, b in
                let i = Swift.min(a, b), j = Swift.max(a, b), p = boxes[i], q = boxes[j]
                guard edges[i].member != edges[j].member, Self.meet(p, q) else { return }
                record(i, j, p, q)
            }
            // Each fragment's seals in the grid's order, (cell, i, j): only the order within one fragment's list
            // matters, and a fragment has a few seals, so `found` is bucketed by fragment (in the order found) and each
            // bucket sorted, instead of sorting the whole list. (The keys are distinct: (i, j) is.)
            sealed = FragmentLists(dealing: found, lists: fragments.count, list: \.under, element: \.edge) { a, b in
                (a.cell, a.i, a.j) < (b.cell, b.i, b.j)
            }
            searchedBySolid = true
            return
        }
        // Every (cell, edge) entry, sorted by cell then edge: each cell's edges in edge order, the cells in sorted
        // order. (One flat sort: a dictionary of per-cell arrays cost a hash and an array per cell.)
        var entries: [(cell: UInt64, edge: Int)] = []
        entries.reserveCapacity(4 * boxes.count)
        var large: [Int] = []
        // Each gridded edge's box's lower cell. `cell` is monotonic in each coordinate, so the cell of the lower
        // corner of two boxes' overlap (the larger of their lower corners) is the larger of their lower cells.
        var lowCells = [(Int, Int, Int)](repeating: (0, 0, 0), count: boxes.count)
        for (k, box) in boxes.enumerated() {
            guard let lo = cell(box.lo), let hi = cell(box.hi),
                  (hi.0 - lo.0 + 1) * (hi.1 - lo.1 + 1) * (hi.2 - lo.2 + 1) <= 64 else { large.append(k); continue }
            lowCells[k] = lo
            for cx in lo.0...hi.0 { for cy in lo.1...hi.1 { for cz in lo.2...hi.2 {
                entries.append((key((cx, cy, cz)), k))
            } } }
        }
        entries.sort { $0.cell != $1.cell ? $0.cell < $1.cell : $0.edge < $1.edge }
        var pairs: [(Int, Int)] = []
        var list: [Int] = []
        var run = 0
        while run < entries.count {
            let here = entries[run].cell
            var end = run + 1
            while end < entries.count, entries[end].cell == here { end += 1 }
            defer { run = end }
            guard end - run > 1 else { continue }
            list.removeAll(keepingCapacity: true)
            for e in entries[run..<end] { list.append(e.edge) }
            // Whether the pair's boxes meet, and do so first in this cell (each pair once: in the cell of the lower
            // corner of the boxes' overlap).
            func meetsHere(_ i: Int, _ j: Int) -> Bool {
                let p = boxes[list[i]], q = boxes[list[j]]
                guard p.lo.x <= q.hi.x, q.lo.x <= p.hi.x, p.lo.y <= q.hi.y, q.lo.y <= p.hi.y,
                      p.lo.z <= q.hi.z, q.lo.z <= p.hi.z else { return false }
                let a = lowCells[list[i]], b = lowCells[list[j]]
                return key((Swift.max(a.0, b.0), Swift.max(a.1, b.1), Swift.max(a.2, b.2))) == here
            }
            if list.count <= Self.crowdedCell {
                for i in list.indices { for j in (i + 1)..<list.count where meetsHere(i, j) { check(edges[list[i]], edges[list[j]]) } }
                continue
            }
            let x = Int(here >> 36) - 100_000, y = Int((here >> 18) & 0x3_FFFF) - 100_000, z = Int(here & 0x3_FFFF) - 100_000
            let centre = Vector3(origin.x + (Double(x) + 0.5) * size, origin.y + (Double(y) + 0.5) * size,
                                 origin.z + (Double(z) + 0.5) * size)
            pairs.removeAll(keepingCapacity: true)
            Self.collinearCandidates(list.map { (edges[$0].a, edges[$0].b) }, near: centre) { i, j in
                if meetsHere(i, j) { pairs.append((i, j)) }
            }
            // In the order the plain double loop visits them, so the seals come out in the same order.
            pairs.sort { $0 < $1 }
            for (i, j) in pairs { check(edges[list[i]], edges[list[j]]) }
        }
        var isLarge = [Bool](repeating: false, count: edges.count)
        for k in large { isLarge[k] = true }
        for k in large {
            for j in edges.indices where j != k && (!isLarge[j] || j > k) { check(edges[k], edges[j]) }
        }
        // Each fragment's seals in the order found.
        sealed = FragmentLists(dealing: pending, lists: fragments.count, list: \.under, element: \.edge)
    }

    /// The indices of `keys` grouped by key (keys in `0 ..< n`), each group in increasing index order.
    static func grouped(_ keys: [Int]) -> [ArraySlice<Int>] {
        let n = (keys.max() ?? -1) + 1
        // A counting sort on the buffers in place (`end[k]`: where key k's indices end once dealt; a solid's number is
        // a member's index, so most keys have no indices), then one slice per key that has some.
        var end = [Int](repeating: 0, count: n + 1), order = [Int](repeating: 0, count: keys.count)
        var count = 0
        keys.withUnsafeBufferPointer { keys in
            end.withUnsafeMutableBufferPointer { end in
                for k in keys { precondition(k >= 0 && k < n); end[k + 1] += 1 }
                for k in 0..<n {
                    if end[k + 1] > 0 { count += 1 }
                    end[k + 1] += end[k]
                }
                // (`end[k]` is where key k's indices begin until they are dealt, then where they end.)
                order.withUnsafeMutableBufferPointer { order in
                    for (i, k) in keys.enumerated() { order[end[k]] = i; end[k] += 1 }
                }
            }
        }
        var groups: [ArraySlice<Int>] = []
        groups.reserveCapacity(count)
        var begin = 0
        for k in 0..<n where begin < end[k] {
            groups.append(order[begin ..< end[k]])
            begin = end[k]
        }
        return groups
    }

    static func meet(_ p: (lo: Vector3, hi: Vector3), _ q: (lo: Vector3, hi: Vector3)) -> Bool {
        p.lo.x <= q.hi.x && q.lo.x <= p.hi.x && p.lo.y <= q.hi.y && q.lo.y <= p.hi.y && p.lo.z <= q.hi.z && q.lo.z <= p.hi.z
    }

    /// Every pair of edges of different groups whose boxes may meet (a superset: `body` tests them), found by
    /// sweeping the groups' bounding boxes along one axis and, for two that meet, pairing the edges of each that reach
    /// into the other's box (a lattice turned by the camera: neighbours' boxes overlap though the solids keep
    /// apart, and only a few edges face each other).
    ///
    /// `apart(g, h)` (indices into `groups`), when given, is asked of two groups whose bounding boxes meet: true when no
    /// edge of one can seal with an edge of the other, and their edges are not paired.
    static func crossPairs(_ groups: [ArraySlice<Int>], boxes: [(lo: Vector3, hi: Vector3)],
                           apart: ((Int, Int) -> Bool)? = nil, _ body: (Int, Int) -> Void) {
        typealias Box = (lo: Vector3, hi: Vector3)
        let bounds = groups.map { group -> Box in
            var b = boxes[group[group.startIndex]]
            for i in group.dropFirst() {
                let e = boxes[i]
                b = (Vector3(Swift.min(b.lo.x, e.lo.x), Swift.min(b.lo.y, e.lo.y), Swift.min(b.lo.z, e.lo.z)),
                     Vector3(Swift.max(b.hi.x, e.hi.x), Swift.max(b.hi.y, e.hi.y), Swift.max(b.hi.z, e.hi.z)))
            }
            return b
        }
        // The sweep runs along the axis the bounds overlap least along (their widths' sum against the range they span:
        // a lattice seen through a turned camera overlaps less in depth than across the screen, say). Any axis finds
        // the same pairs of groups, each once.
        func coordinate(_ v: Vector3, _ axis: Int) -> Double { axis == 0 ? v.x : axis == 1 ? v.y : v.z }
        var axis = 0, least = Double.infinity
        for a in 0 ..< 3 {
            var widths = 0.0, low = Double.infinity, high = -Double.infinity
            for b in bounds {
                let l = coordinate(b.lo, a), h = coordinate(b.hi, a)
                widths += h - l
                low = Swift.min(low, l)
                high = Swift.max(high, h)
            }
            let overlap = widths / (high - low)
            if overlap < least { axis = a; least = overlap }
        }
        let starts = bounds.map { coordinate($0.lo, axis) }
        let order = starts.withUnsafeBufferPointer { starts in bounds.indices.sorted { starts[$0] < starts[$1] } }
        // The bounds in the sweep's order, side by side, and their ends along its axis: the sweep reads them in turn.
        let swept = order.map { bounds[$0] }, ends = swept.map { (lo: coordinate($0.lo, axis), hi: coordinate($0.hi, axis)) }
        var reaching: [Int] = []
        swept.withUnsafeBufferPointer { swept in
            ends.withUnsafeBufferPointer { ends in
            boxes.withUnsafeBufferPointer { boxes in
                for n in swept.indices {
                    let p = swept[n], end = ends[n].hi
                    var k = n + 1
                    while k < swept.count, ends[k].lo <= end {
                        let q = swept[k]
                        k += 1
                        guard meet(p, q), apart?(order[n], order[k - 1]) != true else { continue }
                        reaching.removeAll(keepingCapacity: true)
                        for j in groups[order[k - 1]] where meet(boxes[j], p) { reaching.append(j) }
                        guard !reaching.isEmpty else { continue }
                        for i in groups[order[n]] where meet(boxes[i], q) {
                            for j in reaching { body(i, j) }
                        }
                    }
                }
            }
            }
        }
    }

    /// Each group's extent along a few unit axes — the interval its edges' ends project to — to tell two groups apart
    /// at once (a lattice of cubes turned by the camera: neighbours' bounding boxes overlap, and each cube's edges were
    /// tried against the other's box, edge by edge, to find nothing).
    ///
    /// A seal between edge ab and edge cd needs `overlap`: c and d within the tolerance `tol` of ab's line and their
    /// feet on it overlapping ab by more than `tol`. Then some point P of cd has its foot Q on the segment ab (the
    /// overlap is not empty) and lies within `tol` of it (the distance to a line is convex along cd, at most `tol` at
    /// both ends), so along any unit axis u, u · P and u · Q differ by at most `tol`: P's projection lies within its
    /// group's interval, Q's within the other's, and the intervals come within `tol` of each other. Two groups whose
    /// intervals along some axis are more than twice the largest tolerance apart therefore have no seal between them;
    /// the second tolerance is room, ≈ 10⁶ times the rounding of the projections and of `overlap`'s own arithmetic
    /// (a tolerance is 10⁻⁶ of its points' magnitude). True of any groups of edges and any axes, convex solids or not:
    /// the axes only decide how many pairs are told apart.
    struct Slabs {
        private let axes: [Vector3]
        /// Per group, per axis (`g * axes.count + a`): the least and greatest projection of its edges' ends.
        private let lo: [Double], hi: [Double]
        private let margin: Double

        /// `start(i)`, `end(i)`: edge `i`'s two ends. (Both are projected: where an edge's end is the next one's start,
        /// the same point twice gives the same bounds, and telling so cost more than the projection.)
        @inline(__always)
        init(_ groups: [ArraySlice<Int>], axes: [Vector3], tolerance: Double, ends start: (Int) -> Vector3,
             following end: (Int) -> Vector3) {
            // (Always three axes, the last repeated when fewer: each group's three intervals in one pass over its edges.)
            let u = axes.isEmpty ? [] : (0 ..< 3).map { axes[Swift.min($0, axes.count - 1)] }
            self.axes = u
            margin = 2 * tolerance
            var lo = [Double](repeating: 0, count: groups.count * u.count), hi = lo
            if let u0 = u.first {
                let u1 = u[1], u2 = u[2]
                for (g, group) in groups.enumerated() {
                    var l0 = Double.infinity, l1 = l0, l2 = l0, h0 = -l0, h1 = h0, h2 = h0
                    @inline(__always) func take(_ p: Vector3) {
                        let p0 = u0.dot(p), p1 = u1.dot(p), p2 = u2.dot(p)
                        l0 = Swift.min(l0, p0); h0 = Swift.max(h0, p0)
                        l1 = Swift.min(l1, p1); h1 = Swift.max(h1, p1)
                        l2 = Swift.min(l2, p2); h2 = Swift.max(h2, p2)
                    }
                    for i in group {
                        take(start(i))
                        take(end(i))
                    }
                    lo[3 * g] = l0; lo[3 * g + 1] = l1; lo[3 * g + 2] = l2
                    hi[3 * g] = h0; hi[3 * g + 1] = h1; hi[3 * g + 2] = h2
                }
            }
            self.lo = lo
            self.hi = hi
        }

        /// Whether groups `g` and `h` are more than `margin` apart along one of the axes (a non-finite projection
        /// fails the test, and the pair's edges are tried).
        func apart(_ g: Int, _ h: Int) -> Bool {
            let n = axes.count, a = g * n, b = h * n
            for k in 0 ..< n where lo[b + k] - hi[a + k] > margin || lo[a + k] - hi[b + k] > margin { return true }
            return false
        }

        /// Up to three unit axes, no two within ≈ 25° of each other: the normals of `faces` (the first solid's), which
        /// for a lattice of like solids turned alike are near their faces' normals, along which neighbours are apart.
        static func axes(_ faces: [ScenePolygon]) -> [Vector3] {
            var out: [Vector3] = []
            for f in faces {
                guard out.count < 3, let u = f.normal.normalized() else { continue }
                if !out.contains(where: { abs($0.dot(u)) > 0.9 }) { out.append(u) }
            }
            return out
        }
    }

    /// Solids with more edges than this are searched through the grid: pairs within a solid are all tried (a cube
    /// has 24 edges; a 20 000-face polyhedron 60 000, 1.8 · 10⁹ pairs).
    static let largestSolidSearchedAlone = 256

    /// Cells with more edges than this have their pairs pre-filtered by `collinearCandidates` (the faces of a big
    /// solid crowd a few cells: a 20 000-face prism's cap puts thousands of edges in each).
    private static let crowdedCell = 32

    /// How much `collinearCandidates` grows the proven reach against rounding: 1 % of it, at least 10⁻⁸ of the
    /// points' magnitude (a tolerance is 10⁻⁶ of it), ≈ 10⁶ times the rounding of the keys, of the distances `overlap`
    /// compares with the tolerance, and of the reach itself. (It was 2: a 20 000-sided prism's cap edges, short
    /// against the tolerance, each scanned twice the neighbours, ≈ 3.4 · 10⁹ instructions a render.)
    static let reachMargin = 1.01

    /// The pairs (i < j) of `edges` that may pass `overlap` either way round, in no particular order: a superset,
    /// found by sorting the edges by their line's distance `k` from `centre`.
    ///
    /// If `overlap(a, b, c, d)` holds (c and d within `tol` of line ab, and `|cd| = ℓ > 2·tol`), then for any point
    /// C, with D the larger of |C − c| and |C − d|: |k(ab) − k(cd)| ≤ tol·(1 + 2D/(ℓ − 2·tol)). One way: the foot
    /// P of C on line cd is c + t(d − c) with |t| ≤ D/ℓ, and the part of P − a across ab is the same mix of c's and
    /// d's, so at most (|1 − t| + |t|)·tol; the other: the foot Q of C on ab is a′ + s(b′ − a′) (a′, b′ the feet of
    /// c, d; |b′ − a′| ≥ ℓ − 2·tol, |Q − a′| ≤ |C − c|), within (|1 − s| + |s|)·tol of c + s(d − c) on cd. So
    /// each edge gets the reach tol·(1 + 2D/(ℓ − 2·tol)) (grown by `reachMargin` against rounding; unbounded for edges
    /// no longer than 2·tol), and a pair is a candidate when the keys differ by at most the larger reach. Near-parallel
    /// edges side by side (a prism's long sides) have keys far apart compared with their tiny reaches.
    static func collinearCandidates(_ edges: [(a: Vector3, b: Vector3)], near centre: Vector3,
                                    _ pair: (Int, Int) -> Void) {
        let tol = edges.reduce(0.0) { Swift.max($0, tolerance($1.a, $1.b)) }
        var keys: [Double] = [], reaches: [Double] = []
        keys.reserveCapacity(edges.count)
        reaches.reserveCapacity(edges.count)
        for e in edges {
            let d = e.b - e.a, length = d.length
            let ca = centre - e.a
            let far = Swift.max(ca.length, (centre - e.b).length)
            guard length > 2 * tol, length.isFinite else { keys.append(0); reaches.append(.infinity); continue }
            let u = d / length
            keys.append((ca - u * ca.dot(u)).length)
            let reach = Self.reachMargin * tol * (1 + 2 * far / (length - 2 * tol))
            reaches.append(reach.isFinite ? reach : .infinity)
        }
        let order = edges.indices.sorted { keys[$0] < keys[$1] }
        let sorted = order.map { keys[$0] }
        for (position, i) in order.enumerated() {
            let r = reaches[i]
            var q: Int
            if r.isInfinite {
                q = 0
            } else {
                // First position whose key is at least keys[i] − r.
                var lo = 0, hi = position
                while lo < hi { let m = (lo + hi) / 2; if sorted[m] < keys[i] - r { lo = m + 1 } else { hi = m } }
                q = lo
            }
            while q < order.count, r.isInfinite || sorted[q] <= keys[i] + r {
                let j = order[q]
                q += 1
                // Found from the side with the larger reach (or the lower index when equal): each pair once.
                guard j != i, r > reaches[j] || (r == reaches[j] && i < j) else { continue }
                pair(Swift.min(i, j), Swift.max(i, j))
            }
        }
    }

    /// The convex `polygon` cut to the convex fragment (both in one plane of the context): Sutherland–Hodgman
    /// against the planes through each fragment edge, perpendicular to the fragment's plane.
    static func clip(_ polygon: [Vector3], to fragment: ScenePolygon) -> [Vector3] {
        let n = fragment.normal, c = fragment.centroid, pts = fragment.points
        var out = polygon
        for i in pts.indices {
            let a = pts[i], b = pts[(i + 1) % pts.count]
            var inward = n.cross(b - a)
            if inward.dot(c - a) < 0 { inward = inward * -1 }
            let l = inward.length
            guard l > 0 else { continue }
            let u = inward / l
            let slack = tolerance(a, b)
            out = clippedPolygon(out, side: { ($0 - a).dot(u) + slack }) { p, q, t in p + (q - p) * t }
            if out.count < 3 { return [] }
        }
        return out
    }

    /// How far apart two points of a context may be and still count as one: relative to their size, so faces
    /// built by different transforms (a cube's faces meet at corners computed through different rotations) match.
    static func tolerance(_ a: Vector3, _ b: Vector3) -> Double {
        1e-6 * (1 + Swift.max(abs(a.x), abs(a.y), abs(a.z), abs(b.x), abs(b.y), abs(b.z)))
    }

    /// The distance from `p` to the line through `a` with unit direction `u`, and how far along it `p`'s foot lies.
    private static func distance(_ p: Vector3, toLine a: Vector3, direction u: Vector3) -> (distance: Double, along: Double) {
        let ap = p - a, t = ap.dot(u)
        return ((ap - u * t).length, t)
    }

    /// What `overlap` works out of its first segment ab: its `tolerance`, length and unit direction (`nan` when the
    /// length is 0: `overlap` does not use it then). Kept per edge by `init`, so that a pair's test does not work them
    /// out again — the same expressions, so the same bits.
    struct Line {
        let tolerance: Double
        let length: Double
        let u: Vector3

        init(_ a: Vector3, _ b: Vector3) {
            tolerance = SharedEdges.tolerance(a, b)
            length = (b - a).length
            u = (b - a) / length
        }
    }

    /// False when edges with lines `e` and `g` certainly fail `overlap` both ways round (a cheap test before it, for
    /// the many pairs that only meet at a corner): when both are more than 8 tolerances long and their directions are
    /// more than ≈ 25° apart (|cos| < 0.9).
    ///
    /// If `overlap` holds one way round, say the ends c, d of g (length ℓ) lie within the tolerance τ of e's line (to
    /// rounding, ≈ 10⁻⁹ τ: a tolerance is 10⁻⁶ of the points' magnitude), then d − c is within 2τ of e's direction
    /// across it, so sin θ ≤ 2τ/ℓ; with ℓ > 8τ, sin θ < 0.25 and |cos θ| > 0.968 — and the other way round the same
    /// with e's length. (NaN or infinite lines pass.)
    @inline(__always)
    static func mayRunAlong(_ e: Line, _ g: Line) -> Bool {
        let tol = Swift.max(e.tolerance, g.tolerance)
        return !(Swift.min(e.length, g.length) > 8 * tol && abs(e.u.dot(g.u)) < 0.9)
    }

    /// Whether segments ab and cd lie on one line and overlap by more than the tolerance.
    static func overlap(_ a: Vector3, _ b: Vector3, _ c: Vector3, _ d: Vector3) -> Bool {
        overlap(a, Line(a, b), c, d, tolerance: tolerance(c, d))
    }

    /// `overlap(a, b, c, d)` with ab's `Line` and cd's `tolerance` already worked out.
    static func overlap(_ a: Vector3, _ ab: Line, _ c: Vector3, _ d: Vector3, tolerance cd: Double) -> Bool {
        let tol = Swift.max(ab.tolerance, cd)
        let length = ab.length
        guard length > tol else { return false }
        let u = ab.u
        // Most pairs tried are not on one line: an end far off it (its squared distance more than 1 % past tol², far
        // beyond rounding) rejects the pair without the square roots below, which would reject it too.
        @inline(__always) func isFarOff(_ p: Vector3) -> Bool {
            let ap = p - a, t = ap.dot(u), off = ap - u * t
            return off.x * off.x + off.y * off.y + off.z * off.z > 1.0201 * (tol * tol)
        }
        if isFarOff(c) || isFarOff(d) { return false }
        let (dc, tc) = distance(c, toLine: a, direction: u), (dd, td) = distance(d, toLine: a, direction: u)
        guard dc <= tol, dd <= tol else { return false }
        return Swift.min(length, Swift.max(tc, td)) - Swift.max(0, Swift.min(tc, td)) > tol
    }

    /// Whether every box spans at most 64 cells of the grid `cell` makes (origin `origin`, cells `size` wide; `nil`
    /// for a cell out of its range), as the grid counts them: then it files every edge in its cells, none as large.
    ///
    /// Without a division per box where it can: every box's lower corner is at least `origin`, so when the cell of the
    /// boxes' common upper corner is in range, every box's cells are (`cell` is monotonic in each coordinate); and a box
    /// no wider than two cells along an axis spans at most four there — ⌊h⌋ − ⌊l⌋ < h − l + 1, and h − l (the
    /// quotients `cell` rounds down) exceeds 2 by rounding only, ≈ 10⁻¹⁰ at the range's end — so 4³ = 64 cells at most.
    /// Other boxes are counted as the grid counts them.
    static func spanFewCells(_ boxes: [(lo: Vector3, hi: Vector3)], origin: Vector3, size: Double,
                             cell: (Vector3) -> (Int, Int, Int)?) -> Bool {
        func counted(_ b: (lo: Vector3, hi: Vector3)) -> Bool {
            guard let lo = cell(b.lo), let hi = cell(b.hi) else { return false }
            return (hi.0 - lo.0 + 1) * (hi.1 - lo.1 + 1) * (hi.2 - lo.2 + 1) <= 64
        }
        guard let first = boxes.first else { return true }
        var top = first.hi
        for b in boxes.dropFirst() { top = Vector3(Swift.max(top.x, b.hi.x), Swift.max(top.y, b.hi.y), Swift.max(top.z, b.hi.z)) }
        guard cell(top) != nil else { return boxes.allSatisfy(counted) }
        let wide = 2 * size
        return boxes.allSatisfy { b in
            (b.hi.x - b.lo.x <= wide && b.hi.y - b.lo.y <= wide && b.hi.z - b.lo.z <= wide) || counted(b)
        }
    }

    /// Whether `p` and `q` lie strictly on opposite sides of the flattened line through `a` and `b`: the two faces
    /// meet there edge to edge (a silhouette, where they fold over onto the same side, is not a seam).
    private static func onOppositeSides(_ p: PlanePoint, _ q: PlanePoint, of a: Vector3, _ b: Vector3) -> Bool {
        let dx = b.x - a.x, dy = b.y - a.y
        let sp = dx * (p.y - a.y) - dy * (p.x - a.x), sq = dx * (q.y - a.y) - dy * (q.x - a.x)
        let scale = 1e-9 * (dx * dx + dy * dy)
        return (sp > scale && sq < -scale) || (sp < -scale && sq > scale)
    }
}
