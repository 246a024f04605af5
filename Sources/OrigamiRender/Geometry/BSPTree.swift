import Origami

/// Depth order for one 3D context's planes: a binary space partitioning tree over the members' polygons,
/// splitting polygons that straddle another's plane (what Chromium's compositor does for `preserve-3d`).
///
/// Polygons within `thickness` of a node's plane count as coplanar; coplanar polygons are drawn by
/// ascending `zPosition`, then tree order (later on top) — so a scene without 3D transforms reduces to
/// Core Animation's 2D rule.
struct BSPTree {
    /// Coplanar tie-break for one member: `(zPosition, treeIndex)`; larger draws later.
    typealias Rank = (Double, Int)

    /// A polygon: a range of `points`, its member, and its plane (the unit Newell normal and the offset of its
    /// centroid), worked out once when it is made.
    private struct Polygon {
        var start: Int, count: Int, member: Int
        /// `nil` for a degenerate polygon (a zero normal has no plane).
        var normal: Vector3?
        var offset: Double
    }

    /// A node: its plane's unit normal (`.unitZ` for a node of planeless polygons), its children (−1: none) and its
    /// coplanar polygons, a range of `coplanarPolygons`.
    private struct Node {
        var normal: Vector3
        var front = -1, back = -1
        var coplanarStart: Int, coplanarCount = 0
    }

    /// Every polygon's corners, end to end: the input's, then each split's pieces as they are made. A polygon is a
    /// range of it, so splitting allocates nothing per polygon.
    private var points: [Vector3] = []
    private var polygons: [Polygon] = []
    private var nodes: [Node] = []
    private var coplanarPolygons: [Int] = []
    private var ranks: [Rank] = []

    /// `thickness` is in the context's units (points after the divide).
    init(_ input: [ScenePolygon], thickness: Double = 1e-3, rank: (Int) -> Rank) {
        var total = 0, maxMember = -1
        for p in input { total += p.points.count; maxMember = Swift.max(maxMember, p.member) }
        points.reserveCapacity(2 * total)
        polygons.reserveCapacity(2 * input.count)
        for p in input {
            let first = points.count
            points += p.points
            addPolygon(start: first, count: p.points.count, member: p.member)
        }
        // Ranks by member, asked once each.
        var known = [Bool](repeating: false, count: maxMember + 1)
        ranks = Array(repeating: (0, 0), count: maxMember + 1)
        for p in input where !known[p.member] { known[p.member] = true; ranks[p.member] = rank(p.member) }
        build(thickness: thickness)
    }

    /// Records the polygon `points[start ..< start + count]` with its plane: Newell's normal about the centroid (as
    /// `Vector3.newellNormal`, the same arithmetic), normalised, and the centroid's offset along it.
    private mutating func addPolygon(start s: Int, count c: Int, member: Int) {
        var sum = Vector3.zero
        for i in s ..< s + c { sum = sum + points[i] }
        let centroid = sum / Double(c)
        var n = Vector3.zero
        for i in 0 ..< c {
            n = n + (points[s + i] - centroid).cross(points[s + (i + 1) % c] - centroid)
        }
        let unit = n.normalized()
        polygons.append(Polygon(start: s, count: c, member: member, normal: unit, offset: unit?.dot(centroid) ?? 0))
    }

    /// The fragments back to front (the painter's order).
    func backToFront() -> [ScenePolygon] {
        var out: [ScenePolygon] = []
        out.reserveCapacity(polygons.count)
        guard !nodes.isEmpty else { return out }
        // Explicit stack instead of recursion: deep trees of many planes cannot overflow. A node is pushed as
        // `~index` to emit it, as `index` to visit it.
        var stack = [0]
        var order: [Int] = []
        while let step = stack.popLast() {
            if step < 0 {
                let node = nodes[~step]
                order.removeAll(keepingCapacity: true)
                order += coplanarPolygons[node.coplanarStart ..< node.coplanarStart + node.coplanarCount]
                if order.count > 1 {
                    order.sort { a, b in
                        let ra = ranks[polygons[a].member], rb = ranks[polygons[b].member]
                        return ra.0 != rb.0 ? ra.0 < rb.0 : ra.1 < rb.1
                    }
                }
                for k in order {
                    let p = polygons[k]
                    out.append(ScenePolygon(points: Array(points[p.start ..< p.start + p.count]), member: p.member))
                }
            } else {
                // The viewer is at +z: the side the normal points to is nearer when normal.z > 0.
                let node = nodes[step]
                let (far, near) = node.normal.z >= 0 ? (node.back, node.front) : (node.front, node.back)
                if near >= 0 { stack.append(near) }
                stack.append(~step)
                if far >= 0 { stack.append(far) }
            }
        }
        return out
    }

    private mutating func build(thickness: Double) {
        // Planes of degenerate polygons (seen edge-on after projection they are still planar in 3D, but a
        // zero normal has no plane) go to the first usable node as coplanar passengers.
        // Work items are ranges of `lists` (polygon indices) with the node to attach theirs to (−1: the root, else a
        // node and which child). The items on the stack lie in `lists` in stack order, the top one last, so the one
        // popped is moved out and `lists` only ever holds the unfinished ranges along one path of the tree.
        var lists = Array(0 ..< polygons.count)
        var work: [(from: Int, parent: Int, isFront: Bool)] = [(0, -1, false)]
        var current: [Int] = [], backs: [Int] = [], distances: [Double] = []
        while let item = work.popLast() {
            current.removeAll(keepingCapacity: true)
            current += lists[item.from...]
            lists.removeLast(lists.count - item.from)
            guard !current.isEmpty else { continue }
            let index = nodes.count
            if item.parent >= 0 {
                if item.isFront { nodes[item.parent].front = index } else { nodes[item.parent].back = index }
            }
            guard let splitterIndex = splitter(current, thickness: thickness),
                  let n = polygons[current[splitterIndex]].normal else {
                nodes.append(Node(normal: .unitZ, coplanarStart: coplanarPolygons.count, coplanarCount: current.count))
                coplanarPolygons += current
                continue
            }
            let d = polygons[current[splitterIndex]].offset
            var node = Node(normal: n, coplanarStart: coplanarPolygons.count)
            let frontStart = lists.count
            backs.removeAll(keepingCapacity: true)
            for (k, p) in current.enumerated() {
                if k == splitterIndex { coplanarPolygons.append(p); continue }
                let s = polygons[p].start, c = polygons[p].count
                distances.removeAll(keepingCapacity: true)
                let (hasFront, hasBack) = points.withUnsafeBufferPointer { pts in
                    var hasFront = false, hasBack = false
                    for i in s ..< s + c {
                        let e = n.dot(pts[i]) - d
                        distances.append(e)
                        if e > thickness { hasFront = true }
                        if e < -thickness { hasBack = true }
                    }
                    return (hasFront, hasBack)
                }
                switch (hasFront, hasBack) {
                case (false, false): coplanarPolygons.append(p)
                case (true, false): lists.append(p)
                case (false, true): backs.append(p)
                case (true, true):
                    // The front piece, then the back piece, appended to `points` corner by corner.
                    let member = polygons[p].member
                    for side in 0 ..< 2 {
                        let first = points.count
                        for i in 0 ..< c {
                            let a = points[s + i], j = (i + 1) % c
                            let da = distances[i], dc = distances[j]
                            if side == 0 ? da >= -thickness : da <= thickness { points.append(a) }
                            if (da > thickness && dc < -thickness) || (da < -thickness && dc > thickness) {
                                let t = da / (da - dc)
                                points.append(a + (points[s + j] - a) * t)
                            }
                        }
                        let made = points.count - first
                        guard made >= 3 else { points.removeLast(made); continue }
                        addPolygon(start: first, count: made, member: member)
                        if side == 0 { lists.append(polygons.count - 1) } else { backs.append(polygons.count - 1) }
                    }
                }
            }
            node.coplanarCount = coplanarPolygons.count - node.coplanarStart
            nodes.append(node)
            let backStart = lists.count
            lists += backs
            work.append((frontStart, index, true))
            work.append((backStart, index, false))
        }
    }

    /// Up to this many polygons, each node's splitter is the one whose plane cuts the fewest others; beyond, the
    /// first usable one (the choice costs a pass over the others per candidate).
    static let splitterSearchLimit = 24

    /// Which polygon's plane divides `polys` (an index into it): the first (in the order given) of those that cut
    /// the fewest others, so that a scene of separate solids is not cut up more than it must be; `nil` when none
    /// has a plane.
    private func splitter(_ polys: [Int], thickness: Double) -> Int? {
        guard polys.count > 1, polys.count <= Self.splitterSearchLimit else {
            return polys.firstIndex { polygons[$0].normal != nil }
        }
        var usable = 0
        for p in polys where polygons[p].normal != nil { usable += 1 }
        guard usable > 1 else { return polys.firstIndex { polygons[$0].normal != nil } }
        return points.withUnsafeBufferPointer { pts in
            var best: (index: Int, cuts: Int)?
            for (i, candidate) in polys.enumerated() {
                guard let n = polygons[candidate].normal else { continue }
                let d = polygons[candidate].offset
                var cuts = 0
                for (j, p) in polys.enumerated() where j != i {
                    var isFront = false, isBack = false
                    let s = polygons[p].start
                    for v in s ..< s + polygons[p].count {
                        let e = n.dot(pts[v]) - d
                        if e > thickness { isFront = true } else if e < -thickness { isBack = true }
                    }
                    if isFront && isBack { cuts += 1; if let b = best, cuts >= b.cuts { break } }
                }
                if cuts < (best?.cuts ?? .max) { best = (i, cuts) }
                if cuts == 0 { break }
            }
            return best?.index
        }
    }
}
