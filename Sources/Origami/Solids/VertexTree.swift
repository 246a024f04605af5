/// A polyhedron's vertices in a tree of axis-aligned boxes, to ask whether any vertex lies beyond a plane without
/// looking at every vertex: a box whose farthest corner is not beyond the plane holds no vertex that is.
///
/// This keeps the convexity check of `Solid.polyhedron(faces:)` — every vertex on the inner side of every face's
/// plane — near O(n log n) instead of faces × vertices: for a convex solid only the boxes along the face itself
/// reach past its plane. Built in O(n log² n); a query descends only into boxes that straddle the plane.
struct VertexTree {
    private struct Node {
        var lo: Vector3, hi: Vector3
        /// The node's points are `points[start..<end]`.
        var start: Int, end: Int
        /// The children's indices in `nodes`, or −1 for a leaf.
        var left: Int, right: Int
    }

    private var points: [Vector3]
    private var nodes: [Node] = []
    private static let leafSize = 8

    init(_ vertices: [Vector3]) {
        points = vertices
        guard !points.isEmpty else { return }
        nodes.reserveCapacity(2 * points.count / Self.leafSize + 1)
        nodes.append(box(0, points.count))
        // Explicit stack: no recursion, whatever the input.
        var work = [0]
        while let i = work.popLast() {
            let n = nodes[i]
            guard n.end - n.start > Self.leafSize else { continue }
            let extent = n.hi - n.lo
            // Split the longest side at the median.
            if extent.x >= extent.y && extent.x >= extent.z {
                points[n.start..<n.end].sort { $0.x < $1.x }
            } else if extent.y >= extent.z {
                points[n.start..<n.end].sort { $0.y < $1.y }
            } else {
                points[n.start..<n.end].sort { $0.z < $1.z }
            }
            let mid = (n.start + n.end) / 2
            nodes.append(box(n.start, mid))
            nodes.append(box(mid, n.end))
            nodes[i].left = nodes.count - 2
            nodes[i].right = nodes.count - 1
            work.append(nodes.count - 2)
            work.append(nodes.count - 1)
        }
    }

    private func box(_ start: Int, _ end: Int) -> Node {
        var lo = points[start], hi = points[start]
        for p in points[start..<end] {
            lo = Vector3(min(lo.x, p.x), min(lo.y, p.y), min(lo.z, p.z))
            hi = Vector3(max(hi.x, p.x), max(hi.y, p.y), max(hi.z, p.z))
        }
        return Node(lo: lo, hi: hi, start: start, end: end, left: -1, right: -1)
    }

    /// Whether some vertex `v` has `(v − point)·normal > tolerance`: lies beyond the plane through `point`.
    func hasVertex(beyondPlaneThrough point: Vector3, normal n: Vector3, tolerance: Double) -> Bool {
        guard !nodes.isEmpty else { return false }
        var stack = [0]
        while let i = stack.popLast() {
            let node = nodes[i]
            // The box's farthest point along n, relative to the plane.
            let reach = max(n.x * (node.lo.x - point.x), n.x * (node.hi.x - point.x))
                + max(n.y * (node.lo.y - point.y), n.y * (node.hi.y - point.y))
                + max(n.z * (node.lo.z - point.z), n.z * (node.hi.z - point.z))
            guard reach > tolerance else { continue }
            if node.left < 0 {
                if points[node.start..<node.end].contains(where: { ($0 - point).dot(n) > tolerance }) { return true }
            } else {
                stack.append(node.left)
                stack.append(node.right)
            }
        }
        return false
    }
}
