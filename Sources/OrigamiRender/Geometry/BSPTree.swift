import Origami

/// Depth order for one 3D context's planes: a binary space partitioning tree over the members' polygons,
/// splitting polygons that straddle another's plane (what Chromium's compositor does for `preserve-3d`).
///
/// Polygons within `thickness` of a node's plane count as coplanar; coplanar polygons are drawn by
/// ascending `zPosition`, then tree order (later on top) — so a scene without 3D transforms reduces to
/// Core Animation's 2D rule.
///
/// The tree is never held whole: the viewer's side of every plane is known before the tree is built (after the
/// divide the eye is at +z), so building and walking are one depth-first pass. A node's polygons are split by its
/// plane, the far side is built and walked, the node's coplanar polygons are handed out, then the near side; each
/// list is dropped when it has been handled. What is alive is the unfinished lists along one path of the tree (and
/// the corners they use), not the tree's fragments: 500 crossing planes make 1.86 M fragments, at most tens of
/// thousands of them pending at once.
struct BSPTree {
    /// Coplanar tie-break for one member: `(zPosition, treeIndex)`; larger draws later.
    typealias Rank = (Double, Int)

    /// One fragment as the walk hands it out, back to front. `points` is valid only during the call (in place in the
    /// walk's pool, or a recording's, or the input's).
    struct Fragment {
        let points: PolygonPoints
        let member: Int
        /// The member's polygon as it came in, never split (a member with one fragment).
        let isWhole: Bool
    }

    /// Fragments kept as a walk hands them out, to be handed out again in the same order without a second walk — up
    /// to `limit` corners in all. Past it the recording is dropped (`isComplete` false) and whoever needs the
    /// fragments again walks again: memory stays bounded however many fragments a scene makes.
    struct Recording {
        private var points: [Vector3] = []
        private var fragments: [(start: Int, count: Int, member: Int, isWhole: Bool)] = []
        private let limit: Int
        private(set) var isComplete = true

        init(limit: Int) { self.limit = limit }

        /// For a walk over polygons of `corners` corners in all: room for four times as many (or 65 536), enough for a
        /// scene of solids' fragments, a small part of what many crossing planes make (200 of them: 489 k).
        init(inputCorners corners: Int) {
            self.init(limit: Self.limitOverride ?? Swift.max(1 << 16, 4 * corners))
            // Room for the input's own fragments (a scene of solids is seldom split), within the bound: the arrays are
            // not regrown from small.
            let room = Swift.min(limit, corners)
            points.reserveCapacity(room)
            fragments.reserveCapacity(room / 3)
        }

        /// Set by the tests (`0`: nothing is recorded) to take the second walk the recording saves.
        @TaskLocal static var limitOverride: Int?

        mutating func append(_ f: Fragment) {
            guard isComplete else { return }
            guard points.count + f.points.count <= limit else {
                isComplete = false
                points = []
                fragments = []
                return
            }
            fragments.append((points.count, f.points.count, f.member, f.isWhole))
            // (Corner by corner, read in place: `append(contentsOf:)`'s set-up costs more than a fragment's few corners.)
            f.points.withUnsafeBufferPointer { for p in $0 { points.append(p) } }
        }

        /// Hands the recorded fragments to `body` in the order they were recorded (only when `isComplete`). Before
        /// the k-th, `ahead` is told the member of the fragment `distance` places on (for a reader that prefetches what
        /// it will read of that member: the fragments come in depth order, their members in no order).
        func replay(ahead: (_ member: Int) -> Void = { _ in }, distance: Int = 0,
                    _ body: (Fragment) throws -> Void) rethrows {
            precondition(isComplete, "a dropped recording cannot be replayed")
            let n = fragments.count
            for k in 0 ..< n {
                if distance > 0, k + distance < n { ahead(fragments[k + distance].member) }
                let f = fragments[k]
                try points.withUnsafeBufferPointer { points in
                    try body(Fragment(points: PolygonPoints(points, start: f.start, count: f.count), member: f.member,
                                      isWhole: f.isWhole))
                }
            }
        }
    }

    /// How much the walk kept alive at most (for the tests that show it does not hold every fragment).
    struct Statistics {
        /// Polygons (whole, or pieces of splits) pending in the work lists.
        var peakPendingPolygons = 0
        /// Corners in the point pool.
        var peakPoints = 0
        var fragments = 0
    }

    /// A polygon: a range of `points`, its member and its plane (the unit Newell normal and the offset of its
    /// centroid), worked out once when it is made. Its sphere is in `spheres`.
    private struct Polygon {
        var start: Int, count: Int, member: Int
        /// `nil` for a degenerate polygon (a zero normal has no plane).
        var normal: Vector3?
        var offset: Double
        var isWhole: Bool
    }

    /// A sphere about a polygon's centroid holding every corner, as `sides` tests it: `reach` is the largest distance
    /// of a corner from `centroid` (as computed) and the rounding slack of the test, 10⁻¹² of the polygon's scale
    /// (|centroid.x| + |centroid.y| + |centroid.z| + 2 · radius).
    private struct Sphere {
        var centroid: Vector3
        var reach: Double
    }

    /// The polygons' spheres, by the polygons' indices: what the walk reads of every pending polygon at every node (the
    /// records only when the sphere does not decide), 32 bytes a row, two rows to a cache line. The rows start on a
    /// line: an array's elements start 32 bytes into a block aligned to 16, where every other row would straddle two.
    private final class SphereTable {
        private(set) var rows: UnsafeMutablePointer<Sphere>
        private(set) var count = 0
        private var capacity: Int

        init(capacity: Int) {
            self.capacity = Swift.max(capacity, 16)
            rows = Self.allocate(self.capacity)
        }

        deinit { UnsafeMutableRawPointer(rows).deallocate() }

        private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Sphere> {
            UnsafeMutableRawPointer.allocate(byteCount: capacity * MemoryLayout<Sphere>.stride, alignment: 64)
                .bindMemory(to: Sphere.self, capacity: capacity)
        }

        /// Adds a row (`rows` may move).
        func append(_ sphere: Sphere) {
            if count == capacity {
                capacity *= 2
                let grown = Self.allocate(capacity)
                grown.moveInitialize(from: rows, count: count)
                UnsafeMutableRawPointer(rows).deallocate()
                rows = grown
            }
            (rows + count).initialize(to: sphere)
            count += 1
        }
    }

    /// The corners of every pending polygon: the input's, then each split's pieces as they are made. A polygon is a
    /// range of it, so splitting allocates nothing per polygon; the pool is compacted to the pending polygons' corners
    /// whenever it has doubled since the last time.
    private var points: [Vector3] = []
    /// Every polygon made so far (the input's, then the pieces of splits), compacted with `points` to the pending ones.
    private var polygons: [Polygon] = []
    private var spheres: SphereTable
    /// The work lists, end to end, as indices into `polygons`: each pending work item is a range of it, the top item's
    /// range last, so the one popped is moved out and the array only ever holds the unfinished lists along one path of
    /// the tree. (Indices, not the 72-byte records: a polygon moves from list to list at every level of the tree.)
    private var lists: [Int] = []
    private var ranks: [Rank] = []
    private let thickness: Double
    /// Whether `sides` may decide by a polygon's sphere (`classifiesByCorners` unset).
    private let usesSpheres = !BSPTree.classifiesByCorners
    /// Set by the tests (`true`: every polygon is classified by its corners) to compare the sphere test with them.
    @TaskLocal static var classifiesByCorners = false
    private(set) var statistics = Statistics()

    /// `thickness` is in the context's units (points after the divide).
    ///
    /// The table holds the input's polygons in member order (stably), the work list names them in the input's order:
    /// the walk's choices follow the list, so they are those of a table in the input's order, but the polygons a node
    /// deep in the tree classifies (neighbours in space: a few solids, each a run of members) lie together in the table
    /// and the pool, where in the input's order (a hash of the centroids) they were scattered over all of it. The table
    /// is also made reading the input's corners and the members' ranks in the order they lie.
    private init(_ input: ScenePolygons, thickness: Double, rank: (Int) -> Rank) {
        precondition(thickness >= 0, "a negative thickness")
        self.thickness = thickness
        var total = 0, maxMember = -1
        for p in input { total += p.points.count; maxMember = Swift.max(maxMember, p.member) }
        // (Room for the pieces until the first compaction, as `compact` leaves.)
        points.reserveCapacity(3 * Swift.max(total, Self.fewestPointsCompacted / 2))
        polygons.reserveCapacity(3 * Swift.max(input.count, Self.fewestPolygonsCompacted / 2))
        spheres = SphereTable(capacity: 3 * Swift.max(input.count, Self.fewestPolygonsCompacted / 2))
        lists.reserveCapacity(2 * input.count)
        // The input's indices in member order, by counting (each member's first slot, then its polygons in input order).
        var firstSlot = [Int](repeating: 0, count: maxMember + 2)
        for p in input { firstSlot[p.member + 1] += 1 }
        for m in 0 ..< maxMember + 1 { firstSlot[m + 1] += firstSlot[m] }
        let byMember = [Int](unsafeUninitializedCapacity: input.count) { byMember, count in
            for k in input.indices {
                let m = input[k].member
                byMember.initializeElement(at: firstSlot[m], to: k)
                lists.append(firstSlot[m])
                firstSlot[m] += 1
            }
            count = input.count
        }
        // Ranks by member, asked once each, in the same pass as the corners.
        ranks = Array(repeating: (0, 0), count: maxMember + 1)
        var lastMember = -1
        // (The input's records read through their buffer: no check of each index.)
        input.withUnsafeBufferPointer { input in
            for k in byMember {
                let member = input[k].member
                if member != lastMember { lastMember = member; ranks[member] = rank(member) }
                // Its plane and sphere from its corners in place (`makePolygon`'s arithmetic on the same values), then
                // the corners into the pool (one by one: `append(contentsOf:)`'s set-up costs more than a few corners).
                input[k].points.withUnsafeBufferPointer { corners in
                    var (polygon, sphere) = Self.makePolygon(corners, start: 0, count: corners.count, member: member,
                                                             isWhole: true)
                    polygon.start = points.count
                    polygons.append(polygon)
                    spheres.append(sphere)
                    for q in corners { points.append(q) }
                }
            }
        }
    }

    /// Hands every fragment of `input`'s tree to `body`, back to front (the painter's order), as the tree is built.
    @discardableResult
    static func backToFront(_ input: ScenePolygons, thickness: Double = 1e-3, rank: (Int) -> Rank,
                            _ body: (Fragment) throws -> Void) rethrows -> Statistics {
        var tree = BSPTree(input, thickness: thickness, rank: rank)
        try tree.walk(body)
        return tree.statistics
    }

    /// The fragments back to front, collected (`inspect`, the tests, the benchmarks' baselines).
    static func backToFront(_ input: ScenePolygons, thickness: Double = 1e-3, rank: (Int) -> Rank) -> ScenePolygons {
        var out = PolygonPool(polygons: input.count, points: input.reduce(0) { $0 + $1.points.count })
        backToFront(input, thickness: thickness, rank: rank) { out.append($0.points, member: $0.member) }
        return out.polygons
    }

    /// Adds the polygon `points[start ..< start + count]` (`makePolygon`) to the table, its sphere to `spheres`.
    private mutating func addPolygon(start s: Int, count c: Int, member: Int, isWhole: Bool) {
        let (polygon, sphere) = Self.makePolygon(points, start: s, count: c, member: member, isWhole: isWhole)
        polygons.append(polygon)
        spheres.append(sphere)
    }

    /// The polygon `points[start ..< start + count]` with its plane: Newell's normal about the centroid (as
    /// `Vector3.newellNormal`, the same arithmetic), normalised, and the centroid's offset along it; and its sphere.
    ///
    /// On any collection of the pool's corners indexed as the pool (the pool, or its buffer in place).
    private static func makePolygon<C: RandomAccessCollection<Vector3>>(_ points: C, start s: Int, count c: Int, member: Int,
                                                                         isWhole: Bool) -> (Polygon, Sphere) where C.Index == Int {
        var sum = Vector3.zero
        for i in s ..< s + c { sum = sum + points[i] }
        let centroid = sum / Double(c)
        var n = Vector3.zero, farthest = 0.0
        for i in 0 ..< c {
            let r = points[s + i] - centroid
            // (The next corner's index without `%`: a division per corner.)
            n = n + r.cross(points[s + (i + 1 == c ? 0 : i + 1)] - centroid)
            farthest = Swift.max(farthest, r.x * r.x + r.y * r.y + r.z * r.z)
        }
        let unit = n.normalized()
        let radius = farthest.squareRoot()
        let scale = abs(centroid.x) + abs(centroid.y) + abs(centroid.z) + 2 * radius
        return (Polygon(start: s, count: c, member: member, normal: unit, offset: unit?.dot(centroid) ?? 0, isWhole: isWhole),
                Sphere(centroid: centroid, reach: radius + 1e-12 * scale))
    }

    /// Which sides of the plane n · x = d (`n` a unit normal) the polygon's corners are on: a corner more than
    /// `thickness` in front of it or behind it (one within `thickness` is on neither).
    /// (Static, its inputs passed in: a method called on `self` from the walk, which mutates `self`, made the walk copy
    /// the whole tree for each call.)
    @inline(__always)
    private static func sides(of p: Polygon, _ n: Vector3, _ d: Double, thickness: Double,
                              in pts: UnsafeBufferPointer<Vector3>) -> (front: Bool, back: Bool) {
        // (Without branches: which side a corner is on is as good as random. `thickness` ≥ 0, so no corner is on both.)
        var front = 0, back = 0
        for i in p.start ..< p.start + p.count {
            let e = n.dot(pts[i]) - d
            front |= (e > thickness).bit
            back |= (e < -thickness).bit
        }
        return (front != 0, back != 0)
    }

    /// Whether the polygon of `sphere` is wholly in front of the plane n · x = d, or wholly behind it, by its sphere
    /// (`sides` of its corners would say so); neither when the sphere does not decide. `margin` is the node's:
    /// `thickness` + 10⁻¹² |d|.
    ///
    /// Most polygons a node classifies lie far from its plane (the BSP classifies every pending polygon again at every
    /// level): when the centroid's distance from the plane exceeds the radius by more than `thickness` and a slack,
    /// every corner is on that side, and the corners' own distances (the same arithmetic as `sides`) would say so. For
    /// every corner p, n · p − d lies within |n| · |p − c| ≤ radius (to rounding) of n · c − d, and each of the two
    /// computed values is within a few units in the last place (≈ 10⁻¹⁶) of |c| + radius + |d| of its exact value; the
    /// slack, 10⁻¹² of |c|₁ + 2 radius + |d| (in the sphere's reach and the node's margin, each rounded once more), is
    /// thousands of times more. A non-finite value fails the tests, and the corners decide.
    @inline(__always)
    private static func sides(of sphere: Sphere, _ n: Vector3, _ d: Double, margin: Double) -> (front: Int, back: Int) {
        let s = n.dot(sphere.centroid) - d
        return ((s - sphere.reach > margin).bit, (s + sphere.reach < -margin).bit)
    }

    /// Keeps only the pending polygons and their corners (every live polygon is in `lists` between work items).
    private mutating func compact() {
        var kept: [Vector3] = [], keptPolygons: [Polygon] = []
        let keptSpheres = SphereTable(capacity: 3 * Swift.max(lists.count, Self.fewestPolygonsCompacted / 2))
        // Room up to the next compaction's threshold (twice what is kept, or the least one) and half as much again: the
        // node that crosses it may add a few more before the walk compacts again, and the arrays are not grown (each
        // growth would copy them whole, about once per compaction).
        let corners = lists.reduce(0) { $0 + polygons[$1].count }
        kept.reserveCapacity(3 * Swift.max(corners, Self.fewestPointsCompacted / 2))
        keptPolygons.reserveCapacity(3 * Swift.max(lists.count, Self.fewestPolygonsCompacted / 2))
        for i in lists.indices {
            var p = polygons[lists[i]]
            kept += points[p.start ..< p.start + p.count]
            p.start = kept.count - p.count
            keptSpheres.append(spheres.rows[lists[i]])
            lists[i] = keptPolygons.count
            keptPolygons.append(p)
        }
        points = kept
        polygons = keptPolygons
        spheres = keptSpheres
    }

    private mutating func walk(_ body: (Fragment) throws -> Void) rethrows {
        // Planes of degenerate polygons (seen edge-on after projection they are still planar in 3D, but a zero normal
        // has no plane) go to the first usable node as coplanar passengers.
        // A work item is the range of `lists` from `from` to the next item's start: a list to split (`emit` false) or a
        // node's coplanar polygons to hand out. A node pushes its near side, its coplanar polygons and its far side, so
        // the far side is done first: the walk's order is the tree's back-to-front order. The top item is worked on
        // where it lies, at the end of `lists` (its polygons' indices are copied once, into the sides they go to).
        var work: [(from: Int, emit: Bool)] = [(0, false)]
        // A node's backs and coplanar polygons (each at most the node's list) in halves of one buffer, written in place:
        // an array's append checked its buffer's uniqueness per polygon, at every level of the tree. The fronts (the near
        // side) are written over the node's list as it is read (a polygon puts at most one piece there, so the writes
        // never pass the reads): only the other two are copied back.
        var sidesCapacity = 2 * Swift.max(lists.count, 64)
        var sides = UnsafeMutablePointer<Int>.allocate(capacity: sidesCapacity)
        defer { sides.deallocate() }
        var distances: [Double] = []
        // (Locals: a closure below that read them through `self` would capture the tree being mutated.)
        let thickness = self.thickness, usesSpheres = self.usesSpheres
        var compactAt = Swift.max(2 * points.count, Self.fewestPointsCompacted)
        var compactPolygonsAt = Swift.max(2 * polygons.count, Self.fewestPolygonsCompacted)
        while let item = work.popLast() {
            statistics.peakPendingPolygons = Swift.max(statistics.peakPendingPolygons, lists.count)
            statistics.peakPoints = Swift.max(statistics.peakPoints, points.count)
            if points.count > compactAt || polygons.count > compactPolygonsAt {
                compact()
                compactAt = Swift.max(2 * points.count, Self.fewestPointsCompacted)
                compactPolygonsAt = Swift.max(2 * polygons.count, Self.fewestPolygonsCompacted)
            }
            let from = item.from, end = lists.count
            guard from < end else { continue }
            guard !item.emit, let splitterIndex = splitter(from ..< end), let normal = polygons[lists[splitterIndex]].normal else {
                try emit(from, body)
                continue
            }
            // The plane turned to face the viewer (at +z after the divide), so that its front is the near side: the
            // distances of the plane facing away negated, which is exact (rounding is symmetric), so every test and cut
            // is as against that plane.
            let offset = polygons[lists[splitterIndex]].offset
            let (n, d) = normal.z >= 0 ? (normal, offset) : (-normal, -offset)
            let margin = thickness + 1e-12 * abs(d)
            let listed = end - from
            if 2 * listed > sidesCapacity {
                sides.deallocate()
                sidesCapacity = 2 * listed
                sides = .allocate(capacity: sidesCapacity)
            }
            let backs = sides, coplanar = sides + listed
            var frontCount = 0, backCount = 0, coplanarCount = 0
            // The list out of `self` while it is read and its fronts written over it (the cut pieces go into `self`).
            var list: [Int] = []
            swap(&list, &lists)
            list.withUnsafeMutableBufferPointer { ids in
                let fronts = ids.baseAddress! + from
                for k in from ..< end {
                    let id = ids[k]
                    if k == splitterIndex { coplanar[coplanarCount] = id; coplanarCount += 1; continue }
                    if usesSpheres {
                        let (front, back) = Self.sides(of: spheres.rows[id], n, d, margin: margin)
                        // Decided (most polygons), without a branch on which side: the id is written to both sides,
                        // and the side it is on counts it (never both).
                        if front | back != 0 {
                            fronts[frontCount] = id
                            backs[backCount] = id
                            frontCount &+= front
                            backCount &+= back
                            continue
                        }
                    }
                    let polygon = polygons[id]
                    let (hasFront, hasBack) = points.withUnsafeBufferPointer {
                        Self.sides(of: polygon, n, d, thickness: thickness, in: $0)
                    }
                    switch (hasFront, hasBack) {
                    case (false, false): coplanar[coplanarCount] = id; coplanarCount += 1
                    case (true, false): fronts[frontCount] = id; frontCount += 1
                    case (false, true): backs[backCount] = id; backCount += 1
                    case (true, true):
                        let (front, back) = cut(polygon, n, d, distances: &distances)
                        if let front { fronts[frontCount] = front; frontCount += 1 }
                        if let back { backs[backCount] = back; backCount += 1 }
                    }
                }
                // The node's list is replaced by its fronts (the near side, in place), its coplanar polygons and its
                // backs. Nothing was cut (most nodes of a scene of solids): they fit where the list lies.
                guard frontCount + coplanarCount + backCount == listed else { return }
                (fronts + frontCount).update(from: coplanar, count: coplanarCount)
                (fronts + frontCount + coplanarCount).update(from: backs, count: backCount)
            }
            swap(&list, &lists)
            if frontCount + coplanarCount + backCount != listed {
                lists.removeLast(listed - frontCount)
                lists.append(contentsOf: UnsafeBufferPointer(start: coplanar, count: coplanarCount))
                lists.append(contentsOf: UnsafeBufferPointer(start: backs, count: backCount))
            }
            work.append((from, false))
            work.append((from + frontCount, true))
            work.append((from + frontCount + coplanarCount, false))
        }
        statistics.peakPoints = Swift.max(statistics.peakPoints, points.count)
    }

    /// Cuts `polygon` by the plane n · x = d: its front piece, then its back piece, added to the table (each `nil` when
    /// less than a triangle is left of it). (Out of line: cuts are rare, and without this code in it the walk's loop
    /// keeps its counters in registers.)
    @inline(never)
    private mutating func cut(_ polygon: Polygon, _ n: Vector3, _ d: Double,
                              distances: inout [Double]) -> (front: Int?, back: Int?) {
        let s = polygon.start, c = polygon.count
        // The corners' distances again (the same arithmetic as `sides`).
        if distances.count < c { distances = Array(repeating: 0, count: 2 * c) }
        for i in 0 ..< c { distances[i] = n.dot(points[s + i]) - d }
        var front: Int?, back: Int?
        // The front piece, then the back piece, appended to `points` corner by corner.
        for side in 0 ..< 2 {
            let first = points.count
            for i in 0 ..< c {
                let a = points[s + i], j = i + 1 == c ? 0 : i + 1
                let da = distances[i], dc = distances[j]
                if side == 0 ? da >= -thickness : da <= thickness { points.append(a) }
                if (da > thickness && dc < -thickness) || (da < -thickness && dc > thickness) {
                    let t = da / (da - dc)
                    points.append(a + (points[s + j] - a) * t)
                }
            }
            let made = points.count - first
            guard made >= 3 else { points.removeLast(made); continue }
            if side == 0 { front = polygons.count } else { back = polygons.count }
            addPolygon(start: first, count: made, member: polygon.member, isWhole: false)
        }
        return (front, back)
    }

    /// Hands out the polygons `lists[from...]` (one node's coplanar polygons, or a list no polygon of which has a
    /// plane) by rank (the sort the collected tree's walk did, on the same order), and drops them.
    private mutating func emit(_ from: Int, _ body: (Fragment) throws -> Void) rethrows {
        let count = lists.count - from
        if count > 1 {
            let ranks = self.ranks, polygons = self.polygons
            func precedes(_ a: Int, _ b: Int) -> Bool {
                let ra = ranks[polygons[a].member], rb = ranks[polygons[b].member]
                return ra.0 != rb.0 ? ra.0 < rb.0 : ra.1 < rb.1
            }
            if count <= Self.insertionSortLimit {
                // A node's coplanar polygons are few: the order the stable `sort` below gives, without its set-up.
                lists.withUnsafeMutableBufferPointer { $0.stableInsertionSort(from ..< $0.count, by: precedes) }
            } else {
                lists[from...].sort(by: precedes)
            }
        }
        statistics.fragments += lists.count - from
        // (By index: a slice of `lists` iterated was a reference retained and released per call.)
        for n in from ..< lists.count {
            let p = polygons[lists[n]]
            try points.withUnsafeBufferPointer { points in
                try body(Fragment(points: PolygonPoints(points, start: p.start, count: p.count), member: p.member,
                                  isWhole: p.isWhole))
            }
        }
        lists.removeLast(lists.count - from)
    }

    /// The pool and the table are compacted when they have doubled since the last time, and not below these sizes.
    private static let fewestPointsCompacted = 1 << 15, fewestPolygonsCompacted = 1 << 13

    /// Coplanar lists up to this long are ordered by insertion (`emit`).
    private static let insertionSortLimit = 16

    /// Up to this many polygons, each node's splitter is the one whose plane cuts the fewest others; beyond, the
    /// first usable one (the choice costs a pass over the others per candidate).
    static let splitterSearchLimit = 24

    /// Which polygon's plane divides the list `lists[range]` (an index into `lists`): the first (in the list's order)
    /// of those that cut the fewest others, so that a scene of separate solids is not cut up more than it must be;
    /// `nil` when none has a plane.
    private func splitter(_ range: Range<Int>) -> Int? {
        lists.withUnsafeBufferPointer { ids in polygons.withUnsafeBufferPointer { table in
            // The range's polygons (`polys[k]` for `lists[k]`).
            struct Polys { let ids: UnsafeBufferPointer<Int>, table: UnsafeBufferPointer<Polygon>
                           subscript(k: Int) -> Polygon { table[ids[k]] } }
            let polys = Polys(ids: ids, table: table)
            let firstUsable = range.first { polys[$0].normal != nil }
            guard range.count > 1, range.count <= Self.splitterSearchLimit else { return firstUsable }
            var usable = 0
            for i in range where polys[i].normal != nil { usable += 1 }
            guard usable > 1 else { return firstUsable }
            return points.withUnsafeBufferPointer { pts in
                var best: (index: Int, cuts: Int)?
                let spheres = self.spheres.rows
                for i in range {
                    guard let n = polys[i].normal else { continue }
                    let d = polys[i].offset, margin = thickness + 1e-12 * abs(d)
                    var cuts = 0
                    for j in range where j != i {
                        // A polygon its sphere puts on one side is not cut (most are not: each is tried against the others).
                        if usesSpheres {
                            let (front, back) = Self.sides(of: spheres[ids[j]], n, d, margin: margin)
                            if front | back != 0 { continue }
                        }
                        let p = polys[j]
                        var isFront = false, isBack = false
                        for v in p.start ..< p.start + p.count {
                            let e = n.dot(pts[v]) - d
                            if e > thickness { isFront = true } else if e < -thickness { isBack = true }
                            if isFront && isBack { break }
                        }
                        if isFront && isBack { cuts += 1; if let b = best, cuts >= b.cuts { break } }
                    }
                    if cuts < (best?.cuts ?? .max) { best = (i, cuts) }
                    if cuts == 0 { break }
                }
                return best?.index
            }
        } }
    }
}

private extension Bool {
    /// 1 or 0, without a branch (for counting outcomes that are as good as random).
    var bit: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}
