import Foundation

// Hit testing (DESIGN §5) on a presentation tree: points are in the root's placement space (for a tree built
// with `.superlayer`, the root's superlayer space — `CALayer.hitTest`'s contract). Queries walk the tree's
// tables with explicit stacks, so any depth is safe, and read nothing else, so a tree answers the same however
// the layers change afterwards.
extension PresentationTree {
    /// The layer a touch at `point` reaches under `policy`.
    public func hitTest(_ point: CGPoint, policy: HitTestPolicy = .treeOrder) -> Layer? {
        var local = CGPoint.zero
        let node = firstHit(point, policy: policy, local: &local)
        return node < 0 ? nil : layer(node)
    }

    /// The face-aware answer for a touch at `point`.
    public func hitTestResult(_ point: CGPoint, policy: HitTestPolicy = .treeOrder) -> HitTestResult? {
        var local = CGPoint.zero
        let node = firstHit(point, policy: policy, local: &local)
        return node < 0 ? nil : result(node, local: local)
    }

    /// Every layer under `point`, in tree order, each with its tree rank and depth rank: where the two differ, a
    /// touch is intercepted.
    public func hitTestAll(_ point: CGPoint) -> [HitCandidate] {
        guard point.x.isFinite, point.y.isFinite else { return [] }
        var tree: [(node: Int, local: CGPoint)] = []
        visitInTreeOrder(point: point, policy: .treeOrder) { node, local in
            tree.append((node, local))
            return false
        }
        // Each node's first rank in depth order, and whether it is culled there.
        var depthRanks = [(rank: Int, culled: Bool)?](repeating: nil, count: count)
        var visibleCount = 0
        visitInDepthOrder(point: point) { node, _, culled in
            if depthRanks[node] == nil { depthRanks[node] = (visibleCount, culled) }
            visibleCount += 1
            return false
        }
        return tree.enumerated().map { rank, hit in
            let v = depthRanks[hit.node]
            return HitCandidate(result: result(hit.node, local: hit.local), treeRank: rank,
                                depthRank: v?.rank ?? visibleCount, isCulled: v?.culled ?? false)
        }
    }

    /// `hitTest(_:policy:)` for many points at once: the answers come back as numbers rather than one layer
    /// reference per point, so a hit map of a million pixels does no reference counting per pixel.
    public func hitTest(_ points: [CGPoint], policy: HitTestPolicy) -> HitTestBatch {
        let nodes = hitNodes(points, policy: policy)
        var number = [Int32](repeating: -1, count: count)  // node → place in `layers`, −1: not yet
        var layers: [Layer] = []
        let hits = nodes.map { node -> Int32 in
            guard node >= 0 else { return -1 }
            if number[Int(node)] < 0 {
                number[Int(node)] = Int32(layers.count)
                layers.append(layer(Int(node)))
            }
            return number[Int(node)]
        }
        return HitTestBatch(layers: layers, hits: hits)
    }

    /// Per point, the node `policy` picks there, or −1.
    public func hitNodes(_ points: [CGPoint], policy: HitTestPolicy) -> [Int32] {
        withHitBuffers { buffers in
            var local = CGPoint.zero
            // Written in place: through `map`, each answer's append asked the runtime whether the array was unique.
            return [Int32](unsafeUninitializedCapacity: points.count) { answers, count in
                for (k, p) in points.enumerated() {
                    answers[k] = Int32(firstHit(p, policy: policy, buffers: buffers, local: &local))
                }
                count = points.count
            }
        }
    }

    /// Both first-hit policies at the pixel centres of rows `rows` of a grid `width` pixels wide at `scale` pixels
    /// per point (pixel (x, y) is the point ((x + ½) / scale, (y + ½) / scale)): per pixel, row by row, the node
    /// `.treeOrder` picks into `treeOrder` and the one `.frontmost` picks into `frontmost` (−1: none), each
    /// `rows.count × width` long. One set of working buffers for the whole band and no point array: what a hit
    /// map needs, at the cost of the queries alone.
    package func hitNodes(pixelRows rows: Range<Int>, width: Int, scale: Double,
                          treeOrder: UnsafeMutablePointer<Int32>, frontmost: UnsafeMutablePointer<Int32>) {
        withHitBuffers { buffers in
            var local = CGPoint.zero
            var k = 0
            for y in rows {
                let py = (Double(y) + 0.5) / scale
                for x in 0..<width {
                    let p = CGPoint(x: (Double(x) + 0.5) / scale, y: py)
                    treeOrder[k] = Int32(truncatingIfNeeded: firstHit(p, policy: .treeOrder, buffers: buffers, local: &local))
                    frontmost[k] = Int32(truncatingIfNeeded: firstHit(p, policy: .frontmost, buffers: buffers, local: &local))
                    k += 1
                }
            }
        }
    }

    // MARK: Answers

    /// The answer for a touch that reached node `i` at `local` (its bounds space): the face is the nearest
    /// ancestor-or-self drawn as a face of its context (a sublayer of a transform layer, or placed by a
    /// non-affine matrix), else the layer itself; the depth is the touched point's z in the face's context, from
    /// the same matrices the depth-order query sorts by.
    func result(_ i: Int, local: CGPoint) -> HitTestResult {
        let planes = storage.planes, rows = storage.rows
        // `local` is in the node's content space; the answer speaks bounds space, as conversion does.
        let boundsLocal = planes[i].boundsPoint(local)
        var f = i
        while f >= 0, !planes[f].isFacePlane { f = rows[f].parent }
        let faceNode: Int? = f >= 0 ? f : storage.faceAboveRoot == nil ? i : nil
        guard let faceNode else {
            // The face lies above the root, outside the tree: read from the layers (a subtree of a 3D scene
            // hit-tested on its own), as `Layer.face` does.
            return Self.liveResult(layer: layer(i), face: storage.faceAboveRoot ?? layer(i),
                                   solid: storage.solidAboveFace, local: boundsLocal)
        }
        var p: CGPoint? = local
        var n = i
        while n != faceNode, let q = p {
            p = Homography(planes[n].toOwner).apply(q)
            n = planes[n].owner
        }
        var depth = 0.0
        if let p, let q = planes[faceNode].toOwner.apply(Vector3(Double(p.x), Double(p.y), 0)) { depth = q.z }
        let parent = rows[faceNode].parent
        let solid = parent >= 0 ? transformLayer(parent)
            : storage.rootSolid
        return HitTestResult(layer: layer(i), face: layer(faceNode), solid: solid, localPoint: boundsLocal, depth: depth)
    }

    private static func liveResult(layer: Layer, face: Layer, solid: TransformLayer?, local: CGPoint) -> HitTestResult {
        var depth = 0.0
        if let maps = layer.planeMaps(to: face) {
            var p: CGPoint? = local
            for h in maps { p = p.flatMap(h.apply) }
            let owner = face.superlayer?.nearestFlatteningAncestorOrSelf
            if let p, let m = face.transform3D(to: owner), let q = m.apply(Vector3(Double(p.x), Double(p.y), 0)) {
                depth = q.z
            }
        }
        return HitTestResult(layer: layer, face: face, solid: solid, localPoint: local, depth: depth)
    }

    // MARK: Queries

    /// Whether a touch at `p` reaches node `i`: inside its bounds (`Layer.contains`) and, for a face with an
    /// outline, inside that outline.
    func containsTouch(_ i: Int, _ p: CGPoint) -> Bool {
        guard storage.planes[i].contains(p) else { return false }
        let o = storage.planes[i].outline
        return o.isEmpty || Layer.polygon(storage.outlinePoints[o], contains: p)
    }

    /// Visits the nodes containing `point` in `policy`'s tree order, until `visit` returns true: later siblings
    /// first (`.coreAnimation`: by descending zPosition, then later first), each layer's sublayers before the
    /// layer itself. Transform layers are passed through, never visited.
    func visitInTreeOrder(point: CGPoint, policy: HitTestPolicy, _ visit: (_ node: Int, _ local: CGPoint) -> Bool) {
        var scratch = QueryScratch()
        visitInTreeOrder(point: point, policy: policy, scratch: &scratch, visit)
    }

    func visitInTreeOrder(point: CGPoint, policy: HitTestPolicy, scratch: inout QueryScratch,
                          _ visit: (_ node: Int, _ local: CGPoint) -> Bool) {
        let planes = storage.planes, fromOwner = storage.fromOwner
        let order = policy == .coreAnimation ? storage.childListByZ : storage.childList
        // Moved out of the scratch (not copied), so appending does not copy its buffer.
        var stack: [QueryScratch.TreeStep] = []
        swap(&stack, &scratch.treeSteps)
        defer { stack.removeAll(keepingCapacity: true); swap(&stack, &scratch.treeSteps) }
        if stack.capacity == 0 { stack.reserveCapacity(16) }
        stack.append(.enter(0, point))
        while let step = stack.popLast() {
            switch step {
            case let .finish(i, local):
                if containsTouch(i, local) && visit(i, local) { return }
            case let .enter(i, p):
                guard planes[i].receivesHits(policy) else { continue }
                let range = planes[i].childStart ..< planes[i].childStart + planes[i].childCount
                guard !planes[i].isTransformLayer else {
                    // A transform layer is never returned; its sublayers share its owner's plane.
                    for c in order[range] { stack.append(.enter(c, p)) }
                    continue
                }
                guard let local = fromOwner[i]?.apply(p) else { continue }
                if planes[i].masksToBounds && !planes[i].contains(local) { continue }
                stack.append(.finish(i, local))
                for c in order[range] { stack.append(.enter(c, local)) }
            }
        }
    }

    /// Visits every node under `point`, frontmost first, until `visit` returns true: each context's members in
    /// depth order (ties: higher zPosition, then later in the tree), a member's own scene above the member.
    /// `culled` marks a layer seen from behind (single-sided) or inside one.
    func visitInDepthOrder(point: CGPoint, _ visit: (_ node: Int, _ local: CGPoint, _ culled: Bool) -> Bool) {
        var scratch = QueryScratch()
        visitInDepthOrder(point: point, scratch: &scratch, visit)
    }

    func visitInDepthOrder(point: CGPoint, scratch: inout QueryScratch,
                           _ visit: (_ node: Int, _ local: CGPoint, _ culled: Bool) -> Bool) {
        let planes = storage.planes, memberList = storage.hitMemberList, memberStart = storage.hitMemberStart
        let fromOwner = storage.fromOwner
        // One buffer for every context's candidates: each is consumed before the next context is collected.
        var candidates: [QueryScratch.Candidate] = [], stack: [QueryScratch.DepthStep] = []
        swap(&candidates, &scratch.candidates)
        swap(&stack, &scratch.depthSteps)
        defer {
            candidates.removeAll(keepingCapacity: true); stack.removeAll(keepingCapacity: true)
            swap(&candidates, &scratch.candidates); swap(&stack, &scratch.depthSteps)
        }
        if stack.capacity == 0 { stack.reserveCapacity(16); candidates.reserveCapacity(8) }
        stack.append(.collect(owner: -1, point, culled: false))
        while let step = stack.popLast() {
            switch step {
            case let .emit(node, local, culled):
                if visit(node, local, culled) { return }
            case let .collect(owner, p, culled):
                candidates.removeAll(keepingCapacity: true)
                let range = memberStart[owner + 1] ..< memberStart[owner + 2]
                for (order, m) in memberList[range].enumerated() {
                    guard let local = fromOwner[m]?.apply(p),
                          let q = planes[m].toOwner.apply(Vector3(Double(local.x), Double(local.y), 0)) else { continue }
                    candidates.append(QueryScratch.Candidate(node: m, order: order, local: local, depth: q.z,
                                                             z: planes[m].zPosition))
                }
                candidates.sort { a, b in Self.precedesInDepthOrder(a.depth, a.z, a.order, b.depth, b.z, b.order) }
                // Front to back: each candidate's own scene, then the candidate — pushed in reverse so that they
                // pop in that order.
                for c in candidates.reversed() {
                    if planes[c.node].masksToBounds && !planes[c.node].contains(c.local) { continue }
                    let hidden = culled || (!planes[c.node].isDoubleSided && planes[c.node].determinant < 0)
                    if containsTouch(c.node, c.local) { stack.append(.emit(node: c.node, c.local, culled: hidden)) }
                    if memberStart[c.node + 1] < memberStart[c.node + 2] {
                        stack.append(.collect(owner: c.node, c.local, culled: hidden))
                    }
                }
            }
        }
    }
}

extension PresentationTree {
    /// Whether a member at (`depth`, `z`, `order`) is visited before another in its context's depth order: nearer
    /// first (depths within 1e-9, relative, count as equal), then higher zPosition, then later in the tree.
    @inline(__always)
    static func precedesInDepthOrder(_ depthA: Double, _ zA: Double, _ orderA: Int,
                                     _ depthB: Double, _ zB: Double, _ orderB: Int) -> Bool {
        let tolerance = 1e-9 * max(1, abs(depthA), abs(depthB))
        if abs(depthA - depthB) > tolerance { return depthA > depthB }
        if zA != zB { return zA > zB }
        return orderA > orderB
    }
}

/// The working stacks of hit queries, kept between the queries of one batch so that a query in bulk allocates
/// nothing.
struct QueryScratch {
    enum TreeStep { case enter(Int, CGPoint), finish(Int, CGPoint) }
    enum DepthStep { case collect(owner: Int, CGPoint, culled: Bool), emit(node: Int, CGPoint, culled: Bool) }
    struct Candidate { let node: Int; let order: Int; let local: CGPoint; let depth: Double; let z: Double }
    var treeSteps: [TreeStep] = []
    var depthSteps: [DepthStep] = []
    var candidates: [Candidate] = []
}
