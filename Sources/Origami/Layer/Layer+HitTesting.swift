import Foundation

/// Which layer a touch at a point reaches when several lie under it.
public enum HitTestPolicy: String, Sendable, CaseIterable {
    /// Later siblings first, recursively; zPosition and depth ignored. UIKit's touch delivery and the book's
    /// rule: the cube's faces 4, 5, 6, added after face 3, intercept touches meant for face 3's button.
    /// Layers with opacity below 0.01 are skipped, as UIKit skips views with alpha < 0.01.
    case treeOrder
    /// `-[CALayer hitTest:]` as measured on Apple's systems: siblings by descending zPosition, then later
    /// first. Opacity is not considered.
    case coreAnimation
    /// The plane actually visible at the point: members of each 3D context in depth order, culled back faces
    /// skipped. What a browser's `elementFromPoint` does with `preserve-3d`.
    case frontmost
}

/// What a touch reaches: the layer, and where it sits in a solid.
public struct HitTestResult {
    /// The deepest layer hit (never a `TransformLayer`).
    public let layer: Layer
    /// The plane the layer is drawn on: the nearest ancestor-or-self placed in 3D (a sublayer of a transform
    /// layer, or with a non-affine matrix to its superlayer); the layer itself in a flat tree.
    public let face: Layer
    /// The transform layer holding `face`, if any (the solid a face belongs to).
    public let solid: TransformLayer?
    /// The touch in `layer`'s own bounds space.
    public let localPoint: CGPoint
    /// z after the perspective divide of the touched point on `face`, in the space of the layer that flattens
    /// `face` (larger is nearer the viewer).
    public let depth: Double
}

/// One layer under a point, with its place in both orders.
public struct HitCandidate {
    public let result: HitTestResult
    /// 0 for the layer `.treeOrder` returns, 1 for the one it would return if that one did not exist, …
    public let treeRank: Int
    /// 0 for the frontmost plane at the point, counting back-facing culled layers where their depth puts them.
    public let depthRank: Int
    /// Back-facing with `isDoubleSided == false` (or on such a plane): not drawn, still touchable in tree order.
    public let isCulled: Bool

    public var layer: Layer { result.layer }
}

extension Layer {
    /// The farthest descendant (or the receiver) containing `point`, which is in the receiver's **superlayer**
    /// space, in tree order. Corresponds to `-[CALayer hitTest:]` as UIKit delivers touches.
    public func hitTest(_ point: CGPoint) -> Layer? { hitTest(point, policy: .treeOrder) }

    /// The layer a touch at `point` (in the receiver's superlayer space) reaches under `policy`.
    public func hitTest(_ point: CGPoint, policy: HitTestPolicy) -> Layer? {
        hitTestResult(point, policy: policy)?.layer
    }

    /// The face-aware answer for a touch at `point` (in the receiver's superlayer space).
    public func hitTestResult(_ point: CGPoint, policy: HitTestPolicy = .treeOrder) -> HitTestResult? {
        guard point.x.isFinite, point.y.isFinite else { return nil }
        switch policy {
        case .treeOrder, .coreAnimation:
            var found: (Layer, CGPoint)?
            _ = visitInTreeOrder(point: point, chain: .identity, policy: policy) { layer, local in
                found = (layer, local)
                return true
            }
            return found.map { describeHit(layer: $0.0, localPoint: $0.1) }
        case .frontmost:
            guard let first = visibleOrder(at: point).first(where: { !$0.culled }) else { return nil }
            return describeHit(layer: first.layer, localPoint: first.local)
        }
    }

    /// Every layer under `point` (in the receiver's superlayer space), in tree order, each with its tree rank
    /// and depth rank: where the two differ, a touch is intercepted.
    public func hitTestAll(_ point: CGPoint) -> [HitCandidate] {
        guard point.x.isFinite, point.y.isFinite else { return [] }
        var tree: [(Layer, CGPoint)] = []
        _ = visitInTreeOrder(point: point, chain: .identity, policy: .treeOrder) { layer, local in
            tree.append((layer, local))
            return false
        }
        let visible = visibleOrder(at: point)
        // First index of each layer in depth order: a lookup per hit, not a scan (deep trees have many hits).
        var depthIndex: [ObjectIdentifier: Int] = [:]
        for (i, v) in visible.enumerated() where depthIndex[ObjectIdentifier(v.layer)] == nil {
            depthIndex[ObjectIdentifier(v.layer)] = i
        }
        return tree.enumerated().map { rank, hit in
            let v = depthIndex[ObjectIdentifier(hit.0)]
            return HitCandidate(
                result: describeHit(layer: hit.0, localPoint: hit.1), treeRank: rank,
                depthRank: v ?? visible.count, isCulled: v.map { visible[$0].culled } ?? false)
        }
    }
}

// MARK: - Tree order

extension Layer {
    fileprivate func receivesHits(_ policy: HitTestPolicy) -> Bool {
        guard !isHidden, allowsHitTesting else { return false }
        return policy == .coreAnimation || opacity >= 0.01
    }

    /// Visits the layers containing `point` in `policy`'s tree order until `visit` returns true.
    /// `point` is on the plane of the receiver's nearest flattening ancestor (the query plane for the
    /// receiver), and `chain` maps the receiver's superlayer space into that plane's 3D space.
    ///
    /// An explicit stack instead of recursion, so a tree of any depth is searched without overflowing the
    /// thread's stack: a layer's sublayers are all visited before the layer itself is offered to `visit`.
    fileprivate func visitInTreeOrder(
        point: CGPoint, chain: Transform3D, policy: HitTestPolicy, _ visit: (Layer, CGPoint) -> Bool
    ) -> Bool {
        enum Step {
            /// Search `layer`, whose superlayer space `chain` maps onto the plane `point` lies on.
            case enter(Layer, point: CGPoint, chain: Transform3D)
            /// Every sublayer of `layer` has been searched: offer the layer itself.
            case finish(Layer, local: CGPoint)
        }
        var stack: [Step] = [.enter(self, point: point, chain: chain)]
        while let step = stack.popLast() {
            switch step {
            case let .finish(layer, local):
                if layer.contains(local) && visit(layer, local) { return true }
            case let .enter(layer, point, chain):
                guard layer.receivesHits(policy) else { continue }
                let m = layer.transformToSuperlayer.concatenating(chain)
                var ordered = Array(layer.sublayers.reversed())
                if policy == .coreAnimation {
                    // Stable: equal zPositions keep later-first order.
                    ordered = ordered.enumerated()
                        .sorted { ($0.element.zPosition, -$0.offset) > ($1.element.zPosition, -$1.offset) }
                        .map(\.element)
                }
                guard layer.isFlattening else {
                    stack.append(contentsOf: ordered.reversed().map { .enter($0, point: point, chain: m) })
                    continue
                }
                guard let local = Homography(m).unapply(point) else { continue }
                if layer.masksToBounds && !layer.contains(local) { continue }
                stack.append(.finish(layer, local: local))
                stack.append(contentsOf: ordered.reversed().map { .enter($0, point: local, chain: .identity) })
            }
        }
        return false
    }
}

// MARK: - Depth order

private struct VisibleHit {
    let layer: Layer
    let local: CGPoint
    let culled: Bool
}

extension Layer {
    /// All layers under `point` (receiver's superlayer space), frontmost first.
    fileprivate func visibleOrder(at point: CGPoint) -> [VisibleHit] {
        guard receivesHits(.frontmost) else { return [] }
        let m = transformToSuperlayer
        var out: [VisibleHit] = []
        if isFlattening {
            let member = SceneMember(layer: self, transform: m, inheritedOpacity: 1, transformLayers: [], treeIndex: 0)
            Layer.collectVisible(members: [member], point: point, culled: false, into: &out)
        } else {
            let members = sublayerScene { $0.receivesHits(.frontmost) }.map {
                SceneMember(layer: $0.layer, transform: $0.transform.concatenating(m), inheritedOpacity: $0.inheritedOpacity,
                            transformLayers: [self as? TransformLayer].compactMap { $0 } + $0.transformLayers, treeIndex: $0.treeIndex)
            }
            Layer.collectVisible(members: members, point: point, culled: false, into: &out)
        }
        return out
    }

    /// Appends the hits among `members` (planes of one 3D context, `point` on the context's plane), front to
    /// back: each member's own sublayer scene lies on top of the member. An explicit stack instead of
    /// recursion, so a tree of any depth is searched without overflowing the thread's stack.
    private static func collectVisible(members: [SceneMember], point: CGPoint, culled: Bool, into out: inout [VisibleHit]) {
        struct Candidate { let member: SceneMember; let local: CGPoint; let depth: Double; let backFacing: Bool }
        enum Step {
            case collect([SceneMember], point: CGPoint, culled: Bool)
            case emit(VisibleHit)
        }
        var stack: [Step] = [.collect(members, point: point, culled: culled)]
        while let step = stack.popLast() {
            guard case let .collect(members, point, culled) = step else {
                if case let .emit(hit) = step { out.append(hit) }
                continue
            }
            var candidates: [Candidate] = []
            for member in members {
                let h = Homography(member.transform)
                guard let local = h.unapply(point),
                      let p = member.transform.apply(Vector3(Double(local.x), Double(local.y), 0)) else { continue }
                let backFacing = !member.layer.isDoubleSided && h.matrix.determinant < 0
                candidates.append(Candidate(member: member, local: local, depth: p.z, backFacing: backFacing))
            }
            candidates.sort { a, b in
                let tolerance = 1e-9 * max(1, abs(a.depth), abs(b.depth))
                if abs(a.depth - b.depth) > tolerance { return a.depth > b.depth }
                if a.member.layer.zPosition != b.member.layer.zPosition { return a.member.layer.zPosition > b.member.layer.zPosition }
                return a.member.treeIndex > b.member.treeIndex
            }
            // Front to back: each candidate's inner scene, then the candidate; pushed in reverse so they pop in order.
            var steps: [Step] = []
            for c in candidates {
                let layer = c.member.layer
                if layer.masksToBounds && !layer.contains(c.local) { continue }
                let hidden = culled || c.backFacing
                steps.append(.collect(layer.sublayerScene { $0.receivesHits(.frontmost) }, point: c.local, culled: hidden))
                if layer.contains(c.local) { steps.append(.emit(VisibleHit(layer: layer, local: c.local, culled: hidden))) }
            }
            stack.append(contentsOf: steps.reversed())
        }
    }
}

// MARK: - Faces

extension Layer {
    /// The plane `self` is drawn on: the nearest ancestor-or-self that is a sublayer of a transform layer or
    /// has a non-affine matrix to its superlayer; `self` when there is none.
    public var face: Layer {
        var a: Layer? = self
        while let x = a, let s = x.superlayer {
            if !s.isFlattening || !x.transformToSuperlayer.isAffine { return x }
            a = s
        }
        return self
    }

    fileprivate func describeHit(layer: Layer, localPoint: CGPoint) -> HitTestResult {
        let face = layer.face
        let solid = face.superlayer as? TransformLayer
        var depth = 0.0
        if let maps = layer.planeMaps(to: face) {
            var p: CGPoint? = localPoint
            for h in maps { p = p.flatMap(h.apply) }
            let owner = face.superlayer?.nearestFlatteningAncestorOrSelf
            if let p, let m = face.transform3D(to: owner),
               let q = m.apply(Vector3(Double(p.x), Double(p.y), 0)) {
                depth = q.z
            }
        }
        return HitTestResult(layer: layer, face: face, solid: solid, localPoint: localPoint, depth: depth)
    }
}
