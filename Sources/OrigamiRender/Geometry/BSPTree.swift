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

    /// Every polygon's corners, end to end: the input's, then each split's pieces as they are made. A polygon is a
    /// range of it, so splitting allocates nothing per polygon.
    private var points: [Vector3] = []
    /// Per polygon: where its corners start in `points`, how many, and its member.
    private var start: [Int] = [], count: [Int] = [], member: [Int] = []
    /// Per node: its plane's unit normal (`.unitZ` for a node of planeless polygons), its children (−1: none) and
    /// its coplanar polygons, a range of `coplanarPolygons`.
    private var normal: [Vector3] = [], front: [Int] = [], back: [Int] = []
    private var coplanarStart: [Int] = [], coplanarCount: [Int] = []
    private var coplanarPolygons: [Int] = []
    private let ranks: [Rank]

    /// `thickness` is in the context's units (points after the divide).
    init(_ polygons: [ScenePolygon], thickness: Double = 1e-3, rank: (Int) -> Rank) {
        var total = 0
        for p in polygons { total += p.points.count }
        points.reserveCapacity(2 * total)
        for p in polygons {
            start.append(points.count); count.append(p.points.count); member.append(p.member)
            points += p.points
        }
        // Ranks by polygon member, asked once each.
        let maxMember = polygons.reduce(-1) { Swift.max($0, $1.member) }
        var byMember = [Rank?](repeating: nil, count: maxMember + 1)
        for p in polygons where byMember[p.member] == nil { byMember[p.member] = rank(p.member) }
        ranks = byMember.map { $0 ?? (0, 0) }
        build(thickness: thickness)
    }

    /// The fragments back to front (the painter's order).
    func backToFront() -> [ScenePolygon] {
        var out: [ScenePolygon] = []
        out.reserveCapacity(start.count)
        guard !normal.isEmpty else { return out }
        // Explicit stack instead of recursion: deep trees of many planes cannot overflow. A node is pushed as
        // `~index` to emit it, as `index` to visit it.
        var stack = [0]
        var order: [Int] = []
        while let step = stack.popLast() {
            if step < 0 {
                let node = ~step
                order.removeAll(keepingCapacity: true)
                order += coplanarPolygons[coplanarStart[node] ..< coplanarStart[node] + coplanarCount[node]]
                order.sort { a, b in
                    let ra = ranks[member[a]], rb = ranks[member[b]]
                    return ra.0 != rb.0 ? ra.0 < rb.0 : ra.1 < rb.1
                }
                for p in order {
                    out.append(ScenePolygon(points: Array(points[start[p] ..< start[p] + count[p]]), member: member[p]))
                }
            } else {
                // The viewer is at +z: the side the normal points to is nearer when normal.z > 0.
                let (far, near) = normal[step].z >= 0 ? (back[step], front[step]) : (front[step], back[step])
                if near >= 0 { stack.append(near) }
                stack.append(~step)
                if far >= 0 { stack.append(far) }
            }
        }
        return out
    }

    /// Newell's normal of polygon `p` (as `Vector3.newellNormal`, the same arithmetic) and its centroid.
    private func plane(of p: Int) -> (normal: Vector3, centroid: Vector3) {
        let s = start[p], c = count[p]
        var sum = Vector3.zero
        for i in s ..< s + c { sum = sum + points[i] }
        let centroid = sum / Double(c)
        var n = Vector3.zero
        for i in 0 ..< c {
            n = n + (points[s + i] - centroid).cross(points[s + (i + 1) % c] - centroid)
        }
        return (n, centroid)
    }

    private mutating func build(thickness: Double) {
        // Planes of degenerate polygons (seen edge-on after projection they are still planar in 3D, but a
        // zero normal has no plane) go to the first usable node as coplanar passengers.
        // Work items are ranges of `lists` (polygon indices) with the node to attach theirs to (−1: the root, else a
        // node and which child). The items on the stack lie in `lists` in stack order, the top one last, so the one
        // popped is moved out and `lists` only ever holds the unfinished ranges along one path of the tree.
        var lists = Array(0 ..< start.count)
        var work: [(from: Int, parent: Int, isFront: Bool)] = [(0, -1, false)]
        var current: [Int] = [], backs: [Int] = [], distances: [Double] = [], usable: [Int] = []
        while let item = work.popLast() {
            current.removeAll(keepingCapacity: true)
            current += lists[item.from...]
            lists.removeLast(lists.count - item.from)
            guard !current.isEmpty else { continue }
            let node = normal.count
            if item.parent >= 0 {
                if item.isFront { front[item.parent] = node } else { back[item.parent] = node }
            }
            front.append(-1); back.append(-1)
            coplanarStart.append(coplanarPolygons.count)
            guard let splitterIndex = splitter(current, thickness: thickness, usable: &usable),
                  let n = plane(of: current[splitterIndex]).normal.normalized() else {
                normal.append(.unitZ)
                coplanarPolygons += current
                coplanarCount.append(current.count)
                continue
            }
            normal.append(n)
            let d = n.dot(plane(of: current[splitterIndex]).centroid)
            let frontStart = lists.count
            backs.removeAll(keepingCapacity: true)
            for (k, p) in current.enumerated() {
                if k == splitterIndex { coplanarPolygons.append(p); continue }
                let s = start[p], c = count[p]
                distances.removeAll(keepingCapacity: true)
                var hasFront = false, hasBack = false
                for i in s ..< s + c {
                    let e = n.dot(points[i]) - d
                    distances.append(e)
                    if e > thickness { hasFront = true }
                    if e < -thickness { hasBack = true }
                }
                switch (hasFront, hasBack) {
                case (false, false): coplanarPolygons.append(p)
                case (true, false): lists.append(p)
                case (false, true): backs.append(p)
                case (true, true):
                    // The front piece, then the back piece, appended to `points` corner by corner.
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
                        start.append(first); count.append(made); member.append(member[p])
                        if side == 0 { lists.append(start.count - 1) } else { backs.append(start.count - 1) }
                    }
                }
            }
            coplanarCount.append(coplanarPolygons.count - coplanarStart[node])
            let backStart = lists.count
            lists += backs
            work.append((frontStart, node, true))
            work.append((backStart, node, false))
        }
    }

    /// Up to this many polygons, each node's splitter is the one whose plane cuts the fewest others; beyond, the
    /// first usable one (the choice costs a pass over the others per candidate).
    static let splitterSearchLimit = 24

    /// Which polygon's plane divides `polys` (an index into it): the first (in the order given) of those that cut
    /// the fewest others, so that a scene of separate solids is not cut up more than it must be; `nil` when none
    /// has a plane.
    private func splitter(_ polys: [Int], thickness: Double, usable: inout [Int]) -> Int? {
        usable.removeAll(keepingCapacity: true)
        for (k, p) in polys.enumerated() where plane(of: p).normal.normalized() != nil {
            if polys.count > Self.splitterSearchLimit { return k }
            usable.append(k)
        }
        guard usable.count > 1 else { return usable.first }
        var best: (index: Int, cuts: Int)?
        for i in usable {
            let pl = plane(of: polys[i])
            guard let n = pl.normal.normalized() else { continue }
            let d = n.dot(pl.centroid)
            var cuts = 0
            for (j, p) in polys.enumerated() where j != i {
                var isFront = false, isBack = false
                for v in start[p] ..< start[p] + count[p] {
                    let s = n.dot(points[v]) - d
                    if s > thickness { isFront = true } else if s < -thickness { isBack = true }
                }
                if isFront && isBack { cuts += 1; if let b = best, cuts >= b.cuts { break } }
            }
            if cuts < (best?.cuts ?? .max) { best = (i, cuts) }
            if cuts == 0 { break }
        }
        return best?.index
    }
}
