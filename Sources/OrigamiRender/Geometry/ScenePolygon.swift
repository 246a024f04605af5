import CCairo
import Origami

/// A polygon's corners: `count` consecutive points of a pool many polygons share (a scene's polygons, a walk's
/// fragments: `PolygonPool`), indexed from 0 as an array of them would be. A scene makes thousands of polygons of a
/// few corners each: one pool for all of them, not an array (an allocation, a free, a capacity reserved) per polygon.
struct PolygonPoints: RandomAccessCollection, Equatable, Sendable {
    private let pool: [Vector3]
    private let start: Int
    let count: Int

    /// `pool[start ..< start + count]`.
    init(_ pool: [Vector3], start: Int, count: Int) {
        precondition(start >= 0 && count >= 0 && start + count <= pool.count, "corners outside their pool")
        self.pool = pool; self.start = start; self.count = count
    }

    /// All of `points` (a polygon of its own).
    init(_ points: [Vector3]) { self.init(points, start: 0, count: points.count) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> Vector3 {
        // (The pool's own check would let an index past this polygon read its neighbour's corners.)
        precondition(UInt(bitPattern: i) < UInt(bitPattern: count), "corner index out of range")
        return pool[start + i]
    }

    /// Calls `body` with the corners in place in the pool, indexed from 0 (for the loops over many polygons' corners:
    /// no check of each index against this polygon and its pool).
    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Vector3>) throws -> R) rethrows -> R {
        try pool.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start ..< start + count])) }
    }

    /// Asks for the cache lines of the corners (`origami_prefetch_bytes`: a hint, no effect on any value), for a
    /// reader that knows a few turns ahead which polygon it will read — in the depth order, polygons come in no order
    /// of the pool.
    func prefetch() {
        guard count > 0 else { return }
        pool.withUnsafeBufferPointer { all in
            origami_prefetch_bytes(all.baseAddress! + start, UInt(count * MemoryLayout<Vector3>.stride))
        }
    }

    /// The corners as a slice of the pool (what the BSP's fragments hand out).
    var slice: ArraySlice<Vector3> { pool[start ..< start + count] }

    static func == (a: PolygonPoints, b: PolygonPoints) -> Bool { a.elementsEqual(b) }
}

/// Polygons made one after the other into one pool of points, then handed out as `ScenePolygon`s reading the finished
/// pool (made once every corner is in: a polygon made earlier would keep the pool's buffer from being appended to).
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
    var polygons: [ScenePolygon] {
        let points = self.points
        return rows.map { row in
            ScenePolygon(points: PolygonPoints(points, start: row.start, count: row.count), member: row.member)
        }
    }

    /// The polygons in `order` (indices into the order they were added): made once each in that order, not made and
    /// then moved (a scene's depth order puts its thousands of polygons in the order of their keys).
    func polygons(in order: [Int]) -> [ScenePolygon] {
        let points = self.points
        return order.map { k in
            let row = rows[k]
            return ScenePolygon(points: PolygonPoints(points, start: row.start, count: row.count), member: row.member)
        }
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

/// A convex planar polygon in a 3D context's space after the perspective divide, tagged with the scene
/// member it comes from. The BSP tree sorts and splits these.
///
/// After the divide the viewer looks straight down −z from +∞ (the projective map keeps planes planar and
/// keeps the order of points along each line of sight), so depth sorting is orthographic here.
struct ScenePolygon: Sendable {
    let points: PolygonPoints
    let member: Int

    /// The member's extent quad carried into the context: clipped against w > ε in homogeneous coordinates,
    /// then divided. `nil` when nothing is in front of the eye. ε is relative to the largest w of the corners,
    /// so a plane very near the eye (all of its w tiny, all of it in front) is kept whole.
    init?(extent: PlaneRect, transform m: Transform3D, member: Int) {
        var pool = PolygonPool()
        guard Self.append(extent: extent, transform: m, member: member, to: &pool) else { return nil }
        self = pool.polygons[0]
    }

    /// The same for a convex outline in the member's plane (a solid's triangular or hexagonal face).
    init?(outline: Ring, transform m: Transform3D, member: Int) {
        var pool = PolygonPool()
        guard Self.append(outline: outline, transform: m, member: member, to: &pool) else { return nil }
        self = pool.polygons[0]
    }

    /// `ScenePolygon(extent:transform:member:)` added to `pool`; false (and nothing added) where that is `nil`.
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

    /// `ScenePolygon(outline:transform:member:)` added to `pool`; false (and nothing added) where that is `nil`.
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

    init(points: [Vector3], member: Int) { self.init(points: PolygonPoints(points), member: member) }

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
