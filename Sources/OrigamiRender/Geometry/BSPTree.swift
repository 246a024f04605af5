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

    private final class Node {
        let normal: Vector3
        let offset: Double
        var coplanar: [ScenePolygon]
        var front: Node?
        var back: Node?
        init(normal: Vector3, offset: Double, coplanar: [ScenePolygon]) {
            self.normal = normal; self.offset = offset; self.coplanar = coplanar
        }
    }

    private let root: Node?
    private let rank: (Int) -> Rank

    /// `thickness` is in the context's units (points after the divide).
    init(_ polygons: [ScenePolygon], thickness: Double = 1e-3, rank: @escaping (Int) -> Rank) {
        self.rank = rank
        root = BSPTree.build(polygons, thickness: thickness)
    }

    /// The fragments back to front (the painter's order).
    func backToFront() -> [ScenePolygon] {
        var out: [ScenePolygon] = []
        // Explicit stack instead of recursion: deep trees of many planes cannot overflow.
        enum Step { case visit(Node), emit(Node) }
        var stack: [Step] = root.map { [.visit($0)] } ?? []
        while let step = stack.popLast() {
            switch step {
            case .emit(let node):
                out += node.coplanar.sorted { a, b in
                    let ra = rank(a.member), rb = rank(b.member)
                    return ra.0 != rb.0 ? ra.0 < rb.0 : ra.1 < rb.1
                }
            case .visit(let node):
                // The viewer is at +z: the side the normal points to is nearer when normal.z > 0.
                let (far, near) = node.normal.z >= 0 ? (node.back, node.front) : (node.front, node.back)
                if let near { stack.append(.visit(near)) }
                stack.append(.emit(node))
                if let far { stack.append(.visit(far)) }
            }
        }
        return out
    }

    private static func build(_ polygons: [ScenePolygon], thickness: Double) -> Node? {
        // Planes of degenerate polygons (seen edge-on after projection they are still planar in 3D, but a
        // zero normal has no plane) go to the first usable node as coplanar passengers.
        var work: [(polys: [ScenePolygon], attach: (Node) -> Void)] = []
        var root: Node?
        work.append((polygons, { root = $0 }))
        while let (polys, attach) = work.popLast() {
            guard !polys.isEmpty else { continue }
            guard let splitterIndex = splitter(of: polys, thickness: thickness),
                  let n = polys[splitterIndex].normal.normalized() else {
                attach(Node(normal: .unitZ, offset: 0, coplanar: polys))
                continue
            }
            let splitter = polys[splitterIndex]
            let d = n.dot(splitter.centroid)
            let node = Node(normal: n, offset: d, coplanar: [])
            var front: [ScenePolygon] = [], back: [ScenePolygon] = []
            for (i, p) in polys.enumerated() {
                if i == splitterIndex { node.coplanar.append(p); continue }
                split(p, normal: n, offset: d, thickness: thickness,
                      coplanar: &node.coplanar, front: &front, back: &back)
            }
            attach(node)
            work.append((front, { node.front = $0 }))
            work.append((back, { node.back = $0 }))
        }
        return root
    }

    /// Up to this many polygons, each node's splitter is the one whose plane cuts the fewest others; beyond, the
    /// first usable one (the choice costs a pass over the others per candidate).
    static let splitterSearchLimit = 24

    /// Which polygon's plane divides `polys`: the first (in the order given) of those that cut the fewest others, so
    /// that a scene of separate solids is not cut up more than it must be; `nil` when none has a plane.
    private static func splitter(of polys: [ScenePolygon], thickness: Double) -> Int? {
        let usable = polys.indices.filter { polys[$0].normal.normalized() != nil }
        guard usable.count > 1, polys.count <= splitterSearchLimit else { return usable.first }
        var best: (index: Int, cuts: Int)?
        for i in usable {
            guard let n = polys[i].normal.normalized() else { continue }
            let d = n.dot(polys[i].centroid)
            var cuts = 0
            for (j, p) in polys.enumerated() where j != i {
                var front = false, back = false
                for v in p.points {
                    let s = n.dot(v) - d
                    if s > thickness { front = true } else if s < -thickness { back = true }
                }
                if front && back { cuts += 1; if let b = best, cuts >= b.cuts { break } }
            }
            if cuts < (best?.cuts ?? .max) { best = (i, cuts) }
            if cuts == 0 { break }
        }
        return best?.index
    }

    private static func split(_ p: ScenePolygon, normal n: Vector3, offset d: Double, thickness: Double,
                              coplanar: inout [ScenePolygon], front: inout [ScenePolygon], back: inout [ScenePolygon]) {
        let distances = p.points.map { n.dot($0) - d }
        let hasFront = distances.contains { $0 > thickness }
        let hasBack = distances.contains { $0 < -thickness }
        switch (hasFront, hasBack) {
        case (false, false): coplanar.append(p)
        case (true, false): front.append(p)
        case (false, true): back.append(p)
        case (true, true):
            var f: [Vector3] = [], b: [Vector3] = []
            let count = p.points.count
            for i in 0..<count {
                let a = p.points[i], c = p.points[(i + 1) % count]
                let da = distances[i], dc = distances[(i + 1) % count]
                if da >= -thickness { f.append(a) }
                if da <= thickness { b.append(a) }
                if (da > thickness && dc < -thickness) || (da < -thickness && dc > thickness) {
                    let t = da / (da - dc)
                    let x = a + (c - a) * t
                    f.append(x); b.append(x)
                }
            }
            if f.count >= 3 { front.append(ScenePolygon(points: f, member: p.member)) }
            if b.count >= 3 { back.append(ScenePolygon(points: b, member: p.member)) }
        }
    }
}
