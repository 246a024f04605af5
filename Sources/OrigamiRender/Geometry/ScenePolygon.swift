import COrigamiPrefetch
import Origami

/// A polygon's corners: `count` consecutive points in place in a pool many polygons share (a scene's polygons, a walk's
/// fragments), indexed from 0 as an array of them would be. A scene makes thousands of polygons of a few corners each:
/// one pool for all of them, not an array (an allocation, a free, a capacity reserved) per polygon.
///
/// It holds no reference to the pool: a reference was retained and released (atomically) each time a polygon was made,
/// copied or dropped, in every phase — ≈ 75 k times a lattice render. So it is valid only while the pool's owner keeps
/// the pool alive and unchanged: the `ScenePolygons` it was read from (read polygons through the collection that holds
/// them), or, for the BSP's fragments, the call it is handed to.
struct PolygonPoints: RandomAccessCollection, Equatable {
    private let corners: UnsafeBufferPointer<Vector3>

    /// The corners in place (valid as long as whoever owns them keeps them: see above).
    init(_ corners: UnsafeBufferPointer<Vector3>) { self.corners = corners }

    /// `pool[start ..< start + count]`, checked against the pool (the check an array's slice made).
    init(_ pool: UnsafeBufferPointer<Vector3>, start: Int, count: Int) {
        precondition(start >= 0 && count >= 0 && start <= pool.count - count, "corners outside their pool")
        corners = UnsafeBufferPointer(rebasing: pool[start ..< start + count])
    }

    var count: Int { corners.count }
    var startIndex: Int { 0 }
    var endIndex: Int { corners.count }

    subscript(i: Int) -> Vector3 {
        // (An unsafe buffer's own check is gone in a release build.)
        precondition(UInt(bitPattern: i) < UInt(bitPattern: corners.count), "corner index out of range")
        return corners[i]
    }

    /// Calls `body` with the corners in place, indexed from 0 (for the loops over many polygons' corners: no check of
    /// each index).
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Vector3>) throws -> R) rethrows -> R {
        try body(corners)
    }

    /// Asks for the cache lines of the corners (`origami_prefetch_bytes`: a hint, no effect on any value), for a
    /// reader that knows a few turns ahead which polygon it will read — in the depth order, polygons come in no order
    /// of the pool.
    func prefetch() {
        guard let base = corners.baseAddress, !corners.isEmpty else { return }
        origami_prefetch_bytes(base, UInt(corners.count * MemoryLayout<Vector3>.stride))
    }

    static func == (a: PolygonPoints, b: PolygonPoints) -> Bool { a.elementsEqual(b) }
}

/// Polygons made one after the other into one pool of points, then handed out as `ScenePolygons` owning the finished
/// pool (made once every corner is in).
struct PolygonPool {
    private(set) var points: [Vector3] = []
    private var rows: [(start: Int, count: Int, member: Int)] = []

    init(polygons: Int = 0, points corners: Int = 0) {
        rows.reserveCapacity(polygons)
        points.reserveCapacity(corners)
    }

    var count: Int { rows.count }

    /// Adds the polygon whose corners were appended to `points` since it held `first` of them.
    mutating func close(from first: Int, member: Int) { rows.append((first, points.count - first, member)) }

    /// Adds `corners` as a polygon of `member`.
    mutating func append<C: Collection<Vector3>>(_ corners: C, member: Int) {
        let first = points.count
        // (Corner by corner: `append(contentsOf:)`'s set-up costs more than a polygon's few corners.)
        for p in corners { points.append(p) }
        close(from: first, member: member)
    }

    /// Appends corners to the pool in `body`, which returns whether they make a polygon (if not, they are dropped).
    mutating func appendCorners(member: Int, _ body: (inout [Vector3]) -> Bool) -> Bool {
        let first = points.count
        guard body(&points) else {
            points.removeLast(points.count - first)
            return false
        }
        close(from: first, member: member)
        return true
    }

    /// The polygons, in the order they were added.
    var polygons: ScenePolygons {
        ScenePolygons(pool: points, count: rows.count) { rows[$0] }
    }

    /// The polygons in `order` (indices into the order they were added): made once each in that order, not made and
    /// then moved (a scene's depth order puts its thousands of polygons in the order of their keys).
    func polygons(in order: [Int]) -> ScenePolygons {
        ScenePolygons(pool: points, count: order.count) { rows[order[$0]] }
    }

    /// The member of the `k`th polygon added.
    func member(_ k: Int) -> Int { rows[k].member }

    /// Each polygon's `ScenePolygon.centroid` (the same arithmetic), in the order they were added, read in place.
    var centroids: [Vector3] {
        points.withUnsafeBufferPointer { pts in
            rows.map { ScenePolygon.centroid(of: UnsafeBufferPointer(rebasing: pts[$0.start ..< $0.start + $0.count])) }
        }
    }
}

/// Polygons whose corners lie in one pool this collection owns (`PolygonPool` makes it). Each `ScenePolygon` read from
/// it addresses its corners in the pool without a reference (`PolygonPoints`), so it is valid while this collection (or
/// a copy of it) is alive: hold the collection in a named variable, a parameter or a stored property while its polygons
/// are read (a local's lifetime is not shortened across a read through a pointer), never read a polygon of a temporary
/// one. The scene's order (`Painter.SceneOrder`) holds its polygons for the whole of a render's painting of the scene;
/// `WholePolygons` and `SceneSeals` hold the collections they read.
struct ScenePolygons: RandomAccessCollection {
    /// The corners. A `let`, never changed: the array's buffer (which the polygons point into) stays where it is, and
    /// alive, as long as this array is.
    private let pool: [Vector3]
    private let rows: [ScenePolygon]

    /// No polygons.
    init() { pool = []; rows = [] }

    /// `count` polygons, the `k`-th `pool[row(k).start ..< start + count]` of `row(k).member`.
    fileprivate init(pool: [Vector3], count: Int, _ row: (Int) -> (start: Int, count: Int, member: Int)) {
        self.pool = pool
        rows = pool.withUnsafeBufferPointer { all in
            (0 ..< count).map { k in
                let r = row(k)
                return ScenePolygon(points: PolygonPoints(all, start: r.start, count: r.count), member: r.member)
            }
        }
    }

    /// Polygons of the given corners and members, in that order (the tests', the benchmarks' baselines).
    init(_ polygons: [(points: [Vector3], member: Int)]) {
        var pool = PolygonPool(polygons: polygons.count, points: polygons.reduce(0) { $0 + $1.points.count })
        for p in polygons { pool.append(p.points, member: p.member) }
        self = pool.polygons
    }

    var startIndex: Int { 0 }
    var endIndex: Int { rows.count }

    subscript(k: Int) -> ScenePolygon { rows[k] }

    /// Calls `body` with the polygons' records in place (for a reader that prefetches them).
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<ScenePolygon>) throws -> R) rethrows -> R {
        try rows.withUnsafeBufferPointer(body)
    }
}

/// A convex planar polygon in a 3D context's space after the perspective divide, tagged with the scene
/// member it comes from. The BSP tree sorts and splits these.
///
/// After the divide the viewer looks straight down −z from +∞ (the projective map keeps planes planar and
/// keeps the order of points along each line of sight), so depth sorting is orthographic here.
struct ScenePolygon {
    /// In place in the pool of the `ScenePolygons` this polygon was read from: valid while that is alive.
    let points: PolygonPoints
    let member: Int

    /// The member's extent quad carried into the context: clipped against w > ε in homogeneous coordinates,
    /// then divided — the corners of its polygon in the scene, as an array of their own. `nil` when nothing is in front
    /// of the eye. ε is relative to the largest w of the corners, so a plane very near the eye (all of its w tiny, all
    /// of it in front) is kept whole.
    static func corners(extent: PlaneRect, transform m: Transform3D) -> [Vector3]? {
        var pool = PolygonPool()
        guard append(extent: extent, transform: m, member: 0, to: &pool) else { return nil }
        return pool.points
    }

    /// The polygon of `corners(extent:transform:)` added to `pool`; false (and nothing added) where that is `nil`.
    static func append(extent: PlaneRect, transform m: Transform3D, member: Int, to pool: inout PolygonPool) -> Bool {
        // `extent.corners`, without their array (a scene makes one of these per member).
        append(corners: 4, transform: m, member: member, to: &pool) { k in
            switch k {
            case 0: PlanePoint(extent.minX, extent.minY)
            case 1: PlanePoint(extent.maxX, extent.minY)
            case 2: PlanePoint(extent.maxX, extent.maxY)
            default: PlanePoint(extent.minX, extent.maxY)
            }
        }
    }

    /// The same for a convex outline in the member's plane (a solid's triangular or hexagonal face).
    static func append(outline: Ring, transform m: Transform3D, member: Int, to pool: inout PolygonPool) -> Bool {
        append(corners: outline.count, transform: m, member: member, to: &pool) { outline[$0] }
    }

    /// The polygon of the `count` corners `corner(0) …` in the member's plane, added to `pool`.
    private static func append(corners count: Int, transform m: Transform3D, member: Int, to pool: inout PolygonPool,
                               _ corner: (Int) -> PlanePoint) -> Bool {
        // The corners in homogeneous coordinates on the stack: a scene makes one of these per member.
        withUnsafeTemporaryAllocation(of: Vector4.self, capacity: count) { corners in
            for i in 0 ..< count {
                let p = corner(i)
                corners.initializeElement(at: i, to: m.apply(Vector4(x: p.x, y: p.y, z: 0, w: 1)))
            }
            // `Sequence.max()`'s rule, without the array of w's.
            var largest = corners.first?.w ?? 0
            for c in corners.dropFirst() where largest < c.w { largest = c.w }
            let eps = PlaneChain.nearW * largest
            return pool.appendCorners(member: member) { out in
                let first = out.count
                func divide(_ p: Vector4) -> Bool {
                    guard p.w > 0 else { return true }
                    let q = Vector3(p.x / p.w, p.y / p.w, p.z / p.w)
                    guard q.isFinite else { return false }
                    out.append(q)
                    return true
                }
                // Wholly in front (the usual case): the clip would keep every corner, in order.
                if corners.allSatisfy({ $0.w - eps >= 0 }) {
                    for c in corners { guard divide(c) else { return false } }
                    return out.count - first >= 3
                }
                let front = clippedPolygon(Array(corners), side: { $0.w - eps }) { a, b, t in
                    Vector4(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, z: a.z + (b.z - a.z) * t,
                            w: a.w + (b.w - a.w) * t)
                }
                for c in front { guard divide(c) else { return false } }
                return out.count - first >= 3
            }
        }
    }

    init(points: PolygonPoints, member: Int) { self.points = points; self.member = member }

    /// Newell's normal (not normalised); zero for a degenerate polygon.
    var normal: Vector3 { points.withUnsafeBufferPointer { Vector3.newellNormal(of: $0) } }

    var centroid: Vector3 { points.withUnsafeBufferPointer { Self.centroid(of: $0) } }

    /// The mean of `corners` (`centroid`'s arithmetic, one home for it).
    static func centroid(of corners: UnsafeBufferPointer<Vector3>) -> Vector3 {
        corners.reduce(Vector3.zero, +) / Double(corners.count)
    }

    /// The outline on the context's plane (z dropped): where the fragment lands once flattened.
    var flattened: Ring { points.map { PlanePoint($0.x, $0.y) } }
}
