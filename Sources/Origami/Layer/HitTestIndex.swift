import Foundation
import Synchronization

/// Counts changes to layers that can move a hit (geometry, hierarchy, visibility, hit-testing flags). A cached
/// `HitTestIndex` is used only while the count is what it was when the index was built, so repeated queries on
/// an unchanged tree (a hit map, a benchmark, a UI) skip re-deriving every matrix, and any change anywhere
/// makes the next query rebuild.
enum LayerChanges {
    private static let counter = Atomic<UInt64>(0)
    static func record() { counter.add(1, ordering: .relaxed) }
    static var count: UInt64 { counter.load(ordering: .relaxed) }
}

/// A frozen copy of what hit testing needs from a subtree: per layer, its flags and the inverse of the plane
/// map into its 3D context (through transform layers, without flattening — the renderer's chain), and per
/// context, its members. Queries walk it with explicit stacks, so any depth is safe.
///
/// `@unchecked Sendable`: it is never changed after `init`, so threads that query one tree at once may share it;
/// the layers it refers to are only handed back to callers, who own the tree.
final class HitTestIndex: @unchecked Sendable {
    /// Plain data only (no references), so the query loops read it in place without reference counting.
    struct Node {
        let isFlattening: Bool
        let isHidden: Bool
        let allowsHitTesting: Bool
        let opacity: Double
        let masksToBounds: Bool
        let isDoubleSided: Bool
        let zPosition: Double
        /// The bounds (standardised), for `contains` without touching the layer.
        let minX: Double, minY: Double, maxX: Double, maxY: Double
        /// Where a solid face's outline (`Face.polygon`), which touches must fall inside too, lies in
        /// `outlinePoints`; an empty range for none.
        let outline: Range<Int>
        /// The context this layer is drawn into: the nearest flattening proper ancestor inside the subtree, or
        /// −1 for the query plane (the receiver's superlayer space).
        let owner: Int
        /// From the layer's bounds space into its owner's (4×4, z kept through transform layers).
        let toOwner: Transform3D
        /// The inverse plane map: owner plane → layer plane; `nil` when edge-on, singular or not finite.
        let fromOwner: Homography?
        /// The plane map's orientation in the owner: negative when the layer is seen from behind.
        let determinant: Double
        /// The sublayers: `childList[childStart ..< childStart + childCount]` in `sublayers` order, and the same
        /// range of `childListByZ` in `.coreAnimation`'s order reversed (so a stack pops them in order).
        var childStart = 0, childCount = 0

        func receivesHits(_ policy: HitTestPolicy) -> Bool {
            !isHidden && allowsHitTesting && (policy == .coreAnimation || opacity >= 0.01)
        }

        /// `Layer.contains(_:)`: min edges inside, max edges outside.
        func contains(_ p: CGPoint) -> Bool {
            let x = Double(p.x), y = Double(p.y)
            return x >= minX && x < maxX && y >= minY && y < maxY
        }
    }

    /// Unowned: the receiver's cache would otherwise retain the receiver. A layer can only go away after a
    /// change (its removal) that retires this index first.
    struct LayerReference { unowned let layer: Layer }

    // The tables a query reads live in buffers the index owns rather than in arrays: threads share an index,
    // and every read of an array property of a shared object retains and releases its storage, an atomic
    // write to one cache line that the threads then pass back and forth (a two-core hit map ran 2.7× slower).
    let nodes: UnsafeBufferPointer<Node>
    let layers: [LayerReference]
    let outlinePoints: UnsafeBufferPointer<CGPoint>
    let childList: UnsafeBufferPointer<Int>
    let childListByZ: UnsafeBufferPointer<Int>
    /// Members of each context: the non-transform layers drawn into it, in tree pre-order, leaving out subtrees
    /// of transform layers that do not receive hits (`.frontmost`). Context `owner` (−1: the query plane) holds
    /// `memberList[memberStart[owner + 1] ..< memberStart[owner + 2]]`: one flat array, so a query reads it
    /// without retaining an array per context.
    let memberList: UnsafeBufferPointer<Int>
    let memberStart: UnsafeBufferPointer<Int>
    let changeCount: UInt64

    init(receiver: Layer) {
        changeCount = LayerChanges.count
        var nodes: [Node] = []
        var layers: [LayerReference] = []
        var outlinePoints: [CGPoint] = []
        var children: [[Int]] = []
        var members: [Int: [Int]] = [:]
        var spaces: [Transform3D] = []
        // (layer, parent node, whether every transform layer between it and its owner receives hits).
        var stack: [(Layer, Int, Bool)] = [(receiver, -1, true)]
        while let (layer, parent, chainReceives) = stack.popLast() {
            let g = layer.geometry
            let owner: Int
            let toOwner: Transform3D
            if parent < 0 {
                owner = -1
                toOwner = layer.transformToSuperlayer
            } else {
                let toParent = g.placementTransform.concatenating(spaces[parent])
                if nodes[parent].isFlattening {
                    owner = parent
                    toOwner = toParent
                } else {
                    owner = nodes[parent].owner
                    toOwner = toParent.concatenating(nodes[parent].toOwner)
                }
            }
            let plane = Homography(toOwner)
            let index = nodes.count
            let b = g.bounds.standardized
            var outline = 0..<0
            if let polygon = (layer as? Face)?.polygon, polygon.count >= 3 {
                outline = outlinePoints.count ..< outlinePoints.count + polygon.count
                outlinePoints += polygon
            }
            let node = Node(
                isFlattening: layer.isFlattening, isHidden: layer.isHidden, allowsHitTesting: layer.allowsHitTesting,
                opacity: layer.opacity, masksToBounds: layer.masksToBounds, isDoubleSided: layer.isDoubleSided,
                zPosition: layer.zPosition,
                minX: Double(b.minX), minY: Double(b.minY), maxX: Double(b.maxX), maxY: Double(b.maxY),
                outline: outline, owner: owner, toOwner: toOwner, fromOwner: plane.inverted(),
                determinant: plane.matrix.determinant)
            nodes.append(node)
            layers.append(LayerReference(layer: layer))
            children.append([])
            spaces.append(g.sublayerSpaceTransform)
            if parent >= 0 { children[parent].append(index) }
            let receives = chainReceives && node.receivesHits(.frontmost)
            if node.isFlattening && receives { members[owner, default: []].append(index) }
            // Children keep the transform-layer chain's verdict until a flattening layer starts a new context.
            let childChain = node.isFlattening ? true : receives
            for s in layer.sublayers.reversed() { stack.append((s, index, childChain)) }
        }
        // Pre-order by construction (children pushed in reverse): members are already in tree order.
        var childList: [Int] = [], childListByZ: [Int] = []
        for i in nodes.indices {
            nodes[i].childStart = childList.count
            nodes[i].childCount = children[i].count
            childList += children[i]
            // Stable: equal zPositions keep later-first order; reversed for the stack.
            let byZ = children[i].reversed().enumerated()
                .sorted { (nodes[$0.element].zPosition, -$0.offset) > (nodes[$1.element].zPosition, -$1.offset) }
                .map(\.element)
            childListByZ += byZ.reversed()
        }
        var memberList: [Int] = [], memberStart = [0]
        for owner in -1..<nodes.count {
            memberList += members[owner] ?? []
            memberStart.append(memberList.count)
        }
        self.nodes = Self.frozen(nodes)
        self.layers = layers
        self.outlinePoints = Self.frozen(outlinePoints)
        self.childList = Self.frozen(childList)
        self.childListByZ = Self.frozen(childListByZ)
        self.memberList = Self.frozen(memberList)
        self.memberStart = Self.frozen(memberStart)
    }

    deinit {
        nodes.deallocate(); outlinePoints.deallocate(); childList.deallocate(); childListByZ.deallocate()
        memberList.deallocate(); memberStart.deallocate()
    }

    /// A copy of `array` in a buffer this index owns (plain data: nothing to deinitialize).
    private static func frozen<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: array.count)
        _ = buffer.initialize(fromContentsOf: array)
        return UnsafeBufferPointer(buffer)
    }

    /// Whether a touch at `p` reaches node `i`: inside its bounds (`Layer.contains`) and, for a face with an
    /// outline, inside that outline.
    func containsTouch(_ i: Int, _ p: CGPoint) -> Bool {
        guard nodes[i].contains(p) else { return false }
        let o = nodes[i].outline
        return o.isEmpty || Layer.polygon(outlinePoints[o], contains: p)
    }

    // MARK: Tree order

    /// Visits the layers (as node numbers) containing `point` (in the receiver's superlayer space) in `policy`'s
    /// tree order, until `visit` returns true: later siblings first (`.coreAnimation`: by descending zPosition,
    /// then later first), each layer's sublayers before the layer itself.
    func visitInTreeOrder(point: CGPoint, policy: HitTestPolicy, _ visit: (_ node: Int, _ local: CGPoint) -> Bool) {
        enum Step { case enter(Int, CGPoint), finish(Int, CGPoint) }
        let order = policy == .coreAnimation ? childListByZ : childList
        var stack: [Step] = []
        stack.reserveCapacity(16)
        stack.append(.enter(0, point))
        while let step = stack.popLast() {
            switch step {
            case let .finish(i, local):
                if containsTouch(i, local) && visit(i, local) { return }
            case let .enter(i, p):
                guard nodes[i].receivesHits(policy) else { continue }
                let range = nodes[i].childStart ..< nodes[i].childStart + nodes[i].childCount
                guard nodes[i].isFlattening else {
                    // A transform layer is never returned; its sublayers share its owner's plane.
                    for c in order[range] { stack.append(.enter(c, p)) }
                    continue
                }
                guard let local = nodes[i].fromOwner?.apply(p) else { continue }
                if nodes[i].masksToBounds && !nodes[i].contains(local) { continue }
                stack.append(.finish(i, local))
                for c in order[range] { stack.append(.enter(c, local)) }
            }
        }
    }

    /// The node `policy` picks at `point` (receiver's superlayer space) and the point in its bounds space.
    func firstHit(_ point: CGPoint, policy: HitTestPolicy) -> (node: Int, local: CGPoint)? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        var found: (node: Int, local: CGPoint)?
        switch policy {
        case .treeOrder, .coreAnimation:
            visitInTreeOrder(point: point, policy: policy) { node, local in
                found = (node, local)
                return true
            }
        case .frontmost:
            // The first hit that is not culled: what the eye sees at the point.
            visitInDepthOrder(point: point) { node, local, culled in
                if !culled { found = (node, local) }
                return !culled
            }
        }
        return found
    }

    // MARK: Depth order

    /// Visits every layer (as a node number) under `point` (receiver's superlayer space), frontmost first, until
    /// `visit` returns true: each context's members in depth order (ties: higher zPosition, then later in the
    /// tree), a member's own scene above the member. `culled` marks a layer seen from behind (single-sided) or
    /// inside one.
    func visitInDepthOrder(point: CGPoint, _ visit: (_ node: Int, _ local: CGPoint, _ culled: Bool) -> Bool) {
        enum Step { case collect(owner: Int, CGPoint, culled: Bool), emit(node: Int, CGPoint, culled: Bool) }
        struct Candidate { let node: Int; let order: Int; let local: CGPoint; let depth: Double; let z: Double }
        // One buffer for every context's candidates: each is consumed before the next context is collected.
        var candidates: [Candidate] = []
        candidates.reserveCapacity(8)
        var stack: [Step] = []
        stack.reserveCapacity(16)
        stack.append(.collect(owner: -1, point, culled: false))
        while let step = stack.popLast() {
            switch step {
            case let .emit(node, local, culled):
                if visit(node, local, culled) { return }
            case let .collect(owner, p, culled):
                candidates.removeAll(keepingCapacity: true)
                let range = memberStart[owner + 1] ..< memberStart[owner + 2]
                for (order, m) in memberList[range].enumerated() {
                    guard let local = nodes[m].fromOwner?.apply(p),
                          let q = nodes[m].toOwner.apply(Vector3(Double(local.x), Double(local.y), 0)) else { continue }
                    candidates.append(Candidate(node: m, order: order, local: local, depth: q.z, z: nodes[m].zPosition))
                }
                candidates.sort { a, b in
                    let tolerance = 1e-9 * max(1, abs(a.depth), abs(b.depth))
                    if abs(a.depth - b.depth) > tolerance { return a.depth > b.depth }
                    if a.z != b.z { return a.z > b.z }
                    return a.order > b.order
                }
                // Front to back: each candidate's own scene, then the candidate — pushed in reverse so that they
                // pop in that order.
                for c in candidates.reversed() {
                    if nodes[c.node].masksToBounds && !nodes[c.node].contains(c.local) { continue }
                    let hidden = culled || (!nodes[c.node].isDoubleSided && nodes[c.node].determinant < 0)
                    if containsTouch(c.node, c.local) { stack.append(.emit(node: c.node, c.local, culled: hidden)) }
                    if memberStart[c.node + 1] < memberStart[c.node + 2] {
                        stack.append(.collect(owner: c.node, c.local, culled: hidden))
                    }
                }
            }
        }
    }
}

extension Layer {
    /// The hit-test index of the subtree rooted here, rebuilt only when some layer changed since it was made.
    var hitTestIndex: HitTestIndex {
        let count = LayerChanges.count
        if let cached = hitTestCache.withLock({ $0 }), cached.changeCount == count { return cached }
        let index = HitTestIndex(receiver: self)
        hitTestCache.withLock { $0 = index }
        return index
    }
}
