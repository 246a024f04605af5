import Foundation
import Synchronization

// The first-hit queries (`hitTest`, `hitNodes`, hit maps) without the general visitors' bookkeeping: a tree-order
// query runs a flat list of steps compiled once per tree, and a frontmost query picks each context's nearest
// candidate without sorting unless a candidate has a scene of its own. They answer exactly what the visitors of
// `PresentationTree+HitTesting.swift` answer first (those still serve `hitTestAll`); `HitProgramTests` holds the
// two together on every Model, at every policy.

/// A tree-order walk (`visitInTreeOrder`) unrolled for one tree and one sibling order: every node that can
/// receive a touch, in the order the walk enters it, with what the walk decides statically (hidden layers,
/// layers that ignore touches, singular planes, transform layers) already decided.
struct TreeHitProgram: Sendable {
    struct Step {
        enum Kind: UInt8 {
            /// A layer with no receiving sublayers: map the point, answer if it is inside.
            case leaf
            /// A layer with receiving sublayers: map the point into `output` for them, or skip to `next` (past
            /// its `finish`) when the point has no image in its plane or falls outside its mask.
            case enter
            /// After the sublayers: answer if the point in `output` is inside the layer.
            case finish
            /// `leaf` and `enter` for an affine map (`Homography.isAffine`): the same answers without a division.
            case leafAffine, enterAffine
            /// `enter` for a translation (`Homography.isTranslation`, as a root layer placed by its position
            /// usually is): one addition per coordinate on the way to every later step's point.
            case enterTranslation
            /// After the last step: nothing was reached. Every program ends with one, so the walk needs no count
            /// (and a run of leaves stops at it as at any step of another kind).
            case end
        }
        var kind: Kind
        let masksToBounds: Bool
        let node: Int32
        /// The slot holding the point in the owner's plane (0: the query's point).
        let input: Int32
        /// `enter`/`finish`: the slot holding the point in the layer's own plane.
        let output: Int32
        var next: Int32
        /// Owner plane → layer plane (`Storage.fromOwner`, never nil here).
        let map: Homography
        /// The plane's bounds, kept here so a step reads one record.
        let bounds: PresentationTree.ContentBounds
        /// A face with an outline: inside the bounds is not enough (`containsTouch`).
        let hasOutline: Bool

        init(kind: Kind, plane: PresentationTree.Plane, node: Int, input: Int32, output: Int32, map: Homography) {
            self.kind = !map.isAffine ? kind : kind == .leaf ? .leafAffine
                : kind != .enter ? kind : map.isTranslation ? .enterTranslation : .enterAffine
            masksToBounds = plane.masksToBounds
            self.node = Int32(node); self.input = input; self.output = output; next = 0; self.map = map
            bounds = plane.bounds; hasOutline = !plane.outline.isEmpty
        }

        /// The `end` step.
        private init() {
            kind = .end; masksToBounds = false; node = -1; input = 0; output = 0; next = 0; map = .identity
            bounds = PresentationTree.ContentBounds(minX: 0, minY: 0, maxX: 0, maxY: 0, isFlipped: false)
            hasOutline = false
        }

        static let end = Step()

        /// The `leaf` an `enter` with no receiving sublayers becomes.
        var asLeaf: Step {
            var s = self
            s.kind = kind == .enterAffine || kind == .enterTranslation ? .leafAffine : .leaf
            return s
        }

        /// The `finish` closing an `enter`.
        var asFinish: Step {
            var s = self
            s.kind = .finish
            return s
        }

        @inline(__always) func contains(_ p: CGPoint) -> Bool { bounds.contains(p) }
    }

    let steps: [Step]
    /// Slots a query needs: the point, and one per level of `enter`s.
    let slotCount: Int

    /// `order`: `childList` or `childListByZ`, whose ranges the walk pops from the back.
    init(planes: UnsafeBufferPointer<PresentationTree.Plane>, fromOwner: UnsafeBufferPointer<Homography?>,
         order: UnsafeBufferPointer<Int>, policy: HitTestPolicy) {
        enum Work { case node(Int, input: Int32, depth: Int32), close(enter: Int) }
        var steps: [Step] = []
        var slots: Int32 = 1
        var work: [Work] = planes.isEmpty ? [] : [.node(0, input: 0, depth: 0)]
        while let item = work.popLast() {
            switch item {
            case let .node(i, input, depth):
                let plane = planes[i]
                guard plane.receivesHits(policy) else { continue }
                // The walk visits a layer's sublayers from the back of its range: pushed from the front here,
                // they pop in that order.
                let children = order[plane.childStart ..< plane.childStart + plane.childCount]
                if plane.isTransformLayer {
                    for c in children { work.append(.node(c, input: input, depth: depth)) }
                    continue
                }
                guard let map = fromOwner[i] else { continue }
                let output = depth + 1
                slots = max(slots, output + 1)
                work.append(.close(enter: steps.count))
                steps.append(Step(kind: .enter, plane: plane, node: i, input: input, output: output, map: map))
                for c in children { work.append(.node(c, input: output, depth: output)) }
            case let .close(enter):
                if steps.count == enter + 1 {
                    steps[enter] = steps[enter].asLeaf
                } else {
                    steps.append(steps[enter].asFinish)
                    steps[enter].next = Int32(steps.count)
                }
            }
        }
        // A leaf's next step is its next sibling (a transform layer's sublayers count as its siblings) or its
        // parent's `finish`: a leaf after a leaf reads the same slot, which `leafRun` relies on.
        assert(zip(steps, steps.dropFirst()).allSatisfy { a, b in
            !(a.kind == .leaf || a.kind == .leafAffine) || !(b.kind == .leaf || b.kind == .leafAffine) || a.input == b.input
        })
        self.steps = steps + [.end]
        slotCount = Int(slots)
    }
}

/// A member of a 3D context as the frontmost query reads it: one record with everything the query asks of it.
/// Members seen from behind that are single-sided are left out when compiled (culled whatever the point).
struct FrontmostMember {
    let node: Int32
    /// The place in its context's `hitMemberList` range: the last tie-break of the depth order.
    let order: Int32
    let masksToBounds: Bool, hasOutline: Bool
    /// It has members of its own (culled ones included, as `hitMemberStart` counts them).
    let hasScene: Bool
    /// `toOwner`'s third row is finite, so `(x, y, 0, 1)·toOwner` is the other three rows' sum: `0·m3j` only
    /// adds a zero, which can at most turn a −0 into +0 (the same depth, the same finiteness).
    let planar: Bool
    /// Every member of its context has an affine map (`Homography.isAffine`): their local points need no division.
    let affineContext: Bool
    /// No member of its context has a scene of its own: the context's answer is its nearest candidate, which the
    /// query keeps in registers (no candidate is stored, nothing is sorted).
    let sceneFreeContext: Bool
    let zPosition: Double
    /// Owner plane → member plane (`Storage.fromOwner`, never nil here).
    let map: Homography
    let bounds: PresentationTree.ContentBounds
    /// `toOwner`: rows 1, 2, 4, and row 3 for the non-planar case.
    let toOwner: Transform3D
    /// Every point inside the bounds has a depth (`depthFraction` is not nil there; `hasDepthInBounds`): a
    /// context of one member, which asks only whether its touched member has one, need not compute it.
    let depthInBounds: Bool

    /// Whether `depthFraction` answers for every local point inside `bounds`. For a planar `toOwner` with
    /// m14 = m24 = 0, m44 = 1, w = x·0 + y·0 + 1 is exactly 1 (x·0 is a zero for finite x), so the depth exists
    /// where x′, y′, z′ (each `x·m1j + y·m2j + m4j`) are finite. Inside finite bounds |x| ≤ X and |y| ≤ Y (the
    /// largest magnitudes of their edges), so each is at most S = X·|m1j| + Y·|m2j| + |m4j| before rounding, and
    /// its rounded value at most S·(1 + 2⁻⁵⁰). S computed below 2⁹⁹⁹ (its own rounding is as small) keeps every
    /// one of them below 2¹⁰⁰⁰: finite.
    static func hasDepthInBounds(_ t: Transform3D, _ b: PresentationTree.ContentBounds, planar: Bool) -> Bool {
        let x = max(abs(b.minX), abs(b.maxX)), y = max(abs(b.minY), abs(b.maxY))
        func bounded(_ a: Double, _ b: Double, _ c: Double) -> Bool { x * abs(a) + y * abs(b) + abs(c) < 0x1p999 }
        return planar && t.m14 == 0 && t.m24 == 0 && t.m44 == 1 && x < .infinity && y < .infinity
            && bounded(t.m11, t.m21, t.m41) && bounded(t.m12, t.m22, t.m42) && bounded(t.m13, t.m23, t.m43)
    }

    /// The depth of `local` in the owner (`toOwner.apply((local, 0))?.z`) as a fraction `z / w` (w > 0), nil
    /// exactly where that is nil: a context of one member never compares depths, and skips the division.
    @inline(__always) func depthFraction(_ local: CGPoint) -> (z: Double, w: Double)? {
        guard planar else { return toOwner.apply(Vector3(Double(local.x), Double(local.y), 0)).map { ($0.z, 1) } }
        let x = Double(local.x), y = Double(local.y), t = toOwner
        let v = Vector4(x: x * t.m11 + y * t.m21 + t.m41, y: x * t.m12 + y * t.m22 + t.m42,
                        z: x * t.m13 + y * t.m23 + t.m43, w: x * t.m14 + y * t.m24 + t.m44)
        // `Vector4.projected` divides x, y and z by w and asks all three quotients to be finite; only z/w is the
        // depth. For 0 < w < ∞, `w·2¹⁰⁰⁰` is exact (scaling by a power of two does not round, subnormal w
        // included) or +∞ (then w > 2²³, and |q|/w < |q| is finite for any finite q). So |q| < w·2¹⁰⁰⁰ means
        // |q/w| < 2¹⁰⁰⁰ before rounding, hence after: the quotient is finite without being computed. A NaN fails
        // the `<`. The test needs no `w > 0` of its own: for w ≤ 0 or NaN the limit is ≤ 0 or NaN, which no |q|
        // is below, so such a point goes to `projected`, which answers nil for it as the test would have. Only
        // w = +∞ (limit +∞) must be excluded. Only a point failing the test (absurd scales, or no depth at all)
        // pays for the divisions.
        let limit = v.w * 0x1p1000
        if v.w < .infinity && abs(v.x) < limit && abs(v.y) < limit && abs(v.z) < limit { return (v.z, v.w) }
        return v.projected.map { ($0.z, 1) }
    }

    /// Every context's members in `hitMemberList` order, grouped as `hitMemberStart` groups them.
    static func compile(_ storage: PresentationTree.Storage) -> (members: [FrontmostMember], start: [Int]) {
        let planes = storage.planes, list = storage.hitMemberList, start = storage.hitMemberStart
        let fromOwner = storage.fromOwner
        var members: [FrontmostMember] = [], starts: [Int] = [0]
        func compiled(_ m: Int) -> Bool {
            fromOwner[m] != nil && (planes[m].isDoubleSided || planes[m].determinant >= 0)
        }
        func hasScene(_ m: Int) -> Bool { start[m + 1] < start[m + 2] }
        for c in 0 ..< max(0, start.count - 1) {
            let context = start[c] ..< start[c + 1]
            let affine = context.allSatisfy { fromOwner[list[$0]]?.isAffine ?? true }
            let sceneFree = context.allSatisfy { !compiled(list[$0]) || !hasScene(list[$0]) }
            for k in context {
                let m = list[k], plane = planes[m]
                guard compiled(m), let map = fromOwner[m] else { continue }
                let t = plane.toOwner
                let planar = t.m31.isFinite && t.m32.isFinite && t.m33.isFinite && t.m34.isFinite
                members.append(FrontmostMember(
                    node: Int32(m), order: Int32(k - start[c]), masksToBounds: plane.masksToBounds,
                    hasOutline: !plane.outline.isEmpty, hasScene: hasScene(m), planar: planar,
                    affineContext: affine, sceneFreeContext: sceneFree, zPosition: plane.zPosition, map: map,
                    bounds: plane.bounds, toOwner: t,
                    depthInBounds: hasDepthInBounds(t, plane.bounds, planar: planar)))
            }
            starts.append(members.count)
        }
        return (members, starts)
    }
}

/// Both tree orders' programs and the frontmost query's members, made on a tree's first first-hit query (a tree
/// frozen only to be drawn never makes them). Plain data behind a pointer the tree's storage owns
/// (`Storage.hitProgramsAddress`), as the tree's tables are, so a query reads them without reference counting or
/// generic lookups. The tree order's steps are stored right after this header, in the same allocation
/// (`inlineSteps`), so a query finds them at a constant offset from the published pointer.
struct HitPrograms {
    let treeOrder: UnsafeBufferPointer<TreeHitProgram.Step>
    /// The tree order's steps when both orders' programs are the same (no zPosition reorders siblings).
    let coreAnimation: UnsafeBufferPointer<TreeHitProgram.Step>
    let sameOrders: Bool
    /// The frontmost query's members: context `c`'s (−1 included) at `frontmostStart[c + 1] ..< [c + 2]`.
    let frontmost: UnsafeBufferPointer<FrontmostMember>, frontmostStart: UnsafeBufferPointer<Int>
    /// Slots a tree-order query needs (either order).
    let slotCount: Int
    /// The most members any context has: the frontmost query's candidate buffer.
    let maxMembers: Int

    /// Where the tree order's steps start, from the header: a constant.
    private static var stepsOffset: Int {
        let alignment = MemoryLayout<TreeHitProgram.Step>.alignment
        return (MemoryLayout<HitPrograms>.stride + alignment - 1) / alignment * alignment
    }

    /// `programs.pointee.treeOrder.baseAddress`, without reading it.
    @inline(__always)
    static func inlineSteps(_ programs: UnsafePointer<HitPrograms>) -> UnsafePointer<TreeHitProgram.Step> {
        (UnsafeRawPointer(programs) + stepsOffset).assumingMemoryBound(to: TreeHitProgram.Step.self)
    }

    static func make(_ storage: PresentationTree.Storage) -> UnsafeMutablePointer<HitPrograms> {
        let tree = TreeHitProgram(planes: storage.planes, fromOwner: storage.fromOwner, order: storage.childList,
                                  policy: .treeOrder)
        let ca = TreeHitProgram(planes: storage.planes, fromOwner: storage.fromOwner, order: storage.childListByZ,
                                policy: .coreAnimation)
        let starts = storage.hitMemberStart
        let frontmost = FrontmostMember.compile(storage)
        // The steps' fields other than these follow from the node (its plane).
        let sameOrders = tree.steps.count == ca.steps.count && zip(tree.steps, ca.steps).allSatisfy { a, b in
            a.kind == b.kind && a.node == b.node && a.input == b.input && a.output == b.output && a.next == b.next
        }
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: stepsOffset + tree.steps.count * MemoryLayout<TreeHitProgram.Step>.stride,
            alignment: max(MemoryLayout<HitPrograms>.alignment, MemoryLayout<TreeHitProgram.Step>.alignment))
        let steps = (raw + stepsOffset).bindMemory(to: TreeHitProgram.Step.self, capacity: tree.steps.count)
        steps.initialize(from: tree.steps, count: tree.steps.count)
        let treeOrder = UnsafeBufferPointer(start: steps, count: tree.steps.count)
        let programs = raw.bindMemory(to: HitPrograms.self, capacity: 1)
        programs.initialize(to: HitPrograms(
            treeOrder: treeOrder, coreAnimation: sameOrders ? treeOrder : PresentationTree.Storage.frozen(ca.steps),
            sameOrders: sameOrders,
            frontmost: PresentationTree.Storage.frozen(frontmost.members),
            frontmostStart: PresentationTree.Storage.frozen(frontmost.start),
            slotCount: max(tree.slotCount, ca.slotCount),
            maxMembers: starts.count < 2 ? 0 : (1..<starts.count).map { starts[$0] - starts[$0 - 1] }.max() ?? 0))
        return programs
    }

    static func destroy(_ programs: UnsafeMutablePointer<HitPrograms>) {
        // The tree order's steps go with the header (plain data: nothing to deinitialize).
        if !programs.pointee.sameOrders { programs.pointee.coreAnimation.deallocate() }
        programs.pointee.frontmost.deallocate()
        programs.pointee.frontmostStart.deallocate()
        UnsafeMutableRawPointer(programs).deallocate()
    }
}

/// Working memory of first-hit queries: on the stack for a tree of ordinary size (the heap for a huge one), made
/// once per query or once per batch.
struct HitBuffers {
    enum Step { case collect(owner: Int, CGPoint), emit(node: Int, CGPoint) }
    struct Candidate {
        let node: Int, order: Int
        let local: CGPoint
        let depth: Double, z: Double
        let touched: Bool, hasScene: Bool
    }
    /// The tree's programs (owned by the tree, which outlives the buffers).
    let treeOrder: UnsafeBufferPointer<TreeHitProgram.Step>, coreAnimation: UnsafeBufferPointer<TreeHitProgram.Step>
    let frontmost: UnsafeBufferPointer<FrontmostMember>, frontmostStart: UnsafeBufferPointer<Int>
    let slots: UnsafeMutableBufferPointer<CGPoint>
    let candidates: UnsafeMutableBufferPointer<Candidate>
    /// The frontmost query's pending steps: each context pushes at most two per member.
    let steps: UnsafeMutableBufferPointer<Step>
}

extension PresentationTree {
    /// The tree's programs, made by the first query to need them (racing makers: one wins, the others' copies
    /// are destroyed). Inlined: after the first query this is one load.
    @inline(__always)
    var hitPrograms: UnsafePointer<HitPrograms> { madeHitPrograms ?? makeHitPrograms() }

    /// The tree's programs if a query made them already: one load.
    @inline(__always)
    var madeHitPrograms: UnsafePointer<HitPrograms>? {
        UnsafePointer<HitPrograms>(bitPattern: storage.hitProgramsAddress.load(ordering: .acquiring))
    }

    @inline(never)
    private func makeHitPrograms() -> UnsafePointer<HitPrograms> {
        let mine = HitPrograms.make(storage)
        let (won, theirs) = storage.hitProgramsAddress.compareExchange(expected: 0, desired: Int(bitPattern: mine),
                                                                       ordering: .acquiringAndReleasing)
        if won { return UnsafePointer(mine) }
        HitPrograms.destroy(mine)
        return UnsafePointer<HitPrograms>(bitPattern: theirs)!
    }

    /// Buffers for a batch of queries (`hitNodes`), made once.
    func withHitBuffers<R>(_ body: (HitBuffers) -> R) -> R {
        let programs = hitPrograms.pointee
        return withUnsafeTemporaryAllocation(of: CGPoint.self, capacity: programs.slotCount) { s in
            withUnsafeTemporaryAllocation(of: HitBuffers.Candidate.self, capacity: max(1, programs.maxMembers)) { c in
                withUnsafeTemporaryAllocation(of: HitBuffers.Step.self, capacity: 2 * count + 1) { st in
                    body(HitBuffers(treeOrder: programs.treeOrder, coreAnimation: programs.coreAnimation,
                                    frontmost: programs.frontmost, frontmostStart: programs.frontmostStart,
                                    slots: s, candidates: c, steps: st))
                }
            }
        }
    }

    /// The node `policy` picks at `point` (−1: none) and, in `local`, the point in its content space.
    @inline(__always)
    func firstHit(_ point: CGPoint, policy: HitTestPolicy, buffers: HitBuffers, local: inout CGPoint) -> Int {
        guard point.x.isFinite, point.y.isFinite else { return -1 }
        switch policy {
        case .treeOrder: return run(buffers.treeOrder.baseAddress!, point, buffers.slots.baseAddress!, &local)
        case .coreAnimation: return run(buffers.coreAnimation.baseAddress!, point, buffers.slots.baseAddress!, &local)
        case .frontmost:
            return frontmostHit(point, buffers.frontmost, buffers.frontmostStart, &local) { owner, p, fallback, found in
                frontmostScenes(owner, p, fallback, buffers.frontmost.baseAddress!, buffers.frontmostStart,
                                buffers.candidates, buffers.steps, &found)
            }
        }
    }

    /// One query: small trees (nearly all) keep their working memory in fixed-size locals — each at most
    /// 1 KiB, the most `withUnsafeTemporaryAllocation` keeps on the stack without asking (past that it may take
    /// the heap, a malloc per query). Inlined into `hitTest`: one call less per query.
    @inline(__always)
    func firstHit(_ point: CGPoint, policy: HitTestPolicy, local: inout CGPoint) -> Int {
        // The first query makes the programs in a call of its own that then asks again: were the making a call
        // inside this function, the point would be kept on the stack across it and read back on every query.
        guard let programs = madeHitPrograms else { return firstHitMakingPrograms(point, policy: policy, local: &local) }
        if policy == .frontmost {
            guard point.x.isFinite, point.y.isFinite else { return -1 }
            return frontmostHit(point, programs, &local)
        }
        // No finiteness test up front for tree order: a program reaches nothing from a point that is not finite.
        // Its first step that maps the point gets a non-finite X, Y and W (each is `x·m + y·m' + m''` with x or
        // y infinite or NaN: ±∞ or NaN whatever m is), which `hasImage`/`hasAffineImage` reject, or an affine
        // leaf's non-finite local point, which `contains` or `hasAffineImage` rejects (an `enter` then skips its
        // subtree; a `finish` reads only points an `enter` mapped, so finite ones). `nonFinite` asks every policy.
        // The tree order's steps follow the header (no load of their address on the way to the first step's
        // map); so do the CA order's when they are the same steps.
        let steps = policy == .treeOrder || programs.pointee.sameOrders ? HitPrograms.inlineSteps(programs)
            : programs.pointee.coreAnimation.baseAddress!
        if programs.pointee.slotCount <= 8 {
            return withUnsafeTemporaryAllocation(of: CGPoint.self, capacity: 8) { slots in
                run(steps, point, slots.baseAddress!, &local)
            }
        }
        return withHitBuffers { run(steps, point, $0.slots.baseAddress!, &local) }
    }

    @inline(never)
    private func firstHitMakingPrograms(_ point: CGPoint, policy: HitTestPolicy, local: inout CGPoint) -> Int {
        _ = hitPrograms
        return firstHit(point, policy: policy, local: &local)
    }

    @inline(__always)
    private func run(_ first: UnsafePointer<TreeHitProgram.Step>, _ point: CGPoint,
                     _ slots: UnsafeMutablePointer<CGPoint>, _ found: inout CGPoint) -> Int {
        // A program is never empty: it ends with its `end` step. The walk moves a pointer from step to step (no
        // index, no count) and stops there.
        slots[0] = point
        // The slot the latest `enter` wrote (or the query's point), kept in registers as well: the steps that
        // follow read it, and a read straight after the write would wait on the store (the query's point is
        // written as two halves, which a whole-point load cannot be forwarded from).
        var current = point, currentSlot: Int32 = 0
        // Through the pointer: a step is read field by field, never copied whole.
        var s = first
        while true {
            switch s.pointee.kind {
            case .leaf:
                let input = s.pointee.input
                let p = input == currentSlot ? current : slots[Int(input)]
                let node = leafRun(&s, p, affine: false, &found)
                if node >= 0 { return node }
            case .leafAffine:
                let input = s.pointee.input
                let p = input == currentSlot ? current : slots[Int(input)]
                let node = leafRun(&s, p, affine: true, &found)
                if node >= 0 { return node }
            case .enter, .enterAffine, .enterTranslation:
                let input = s.pointee.input
                let p = input == currentSlot ? current : slots[Int(input)]
                // The root's map is nearly always affine: without the division, the point every later step starts
                // from is ready some 13 cycles sooner — and for a translation, 6 more.
                let kind = s.pointee.kind
                let mapped = kind == .enterTranslation ? s.pointee.map.applyTranslationIfImage(p)
                    : kind == .enterAffine ? s.pointee.map.applyAffineIfImage(p) : s.pointee.map.apply(p)
                guard let local = mapped, !s.pointee.masksToBounds || s.pointee.contains(local) else {
                    s = first + Int(s.pointee.next)
                    continue
                }
                slots[Int(s.pointee.output)] = local
                current = local
                currentSlot = s.pointee.output
                s += 1
            case .finish:
                let local = slots[Int(s.pointee.output)]
                if s.pointee.contains(local), !s.pointee.hasOutline || containsTouch(Int(s.pointee.node), local) {
                    found = local
                    return Int(s.pointee.node)
                }
                s += 1
            case .end:
                return -1
            }
        }
    }

    /// The leaves from `leaf` on that share one kind (so read one slot, `p`): a layer's sublayers, tested in a
    /// run with no dispatch between them. The node of the first that `p` reaches, with its point in `found`;
    /// else −1, with `leaf` past the run. Two copies (`affine`) rather than a test per leaf.
    @inline(__always)
    private func leafRun(_ leaf: inout UnsafePointer<TreeHitProgram.Step>, _ p: CGPoint, affine: Bool,
                         _ found: inout CGPoint) -> Int {
        let kind: TreeHitProgram.Step.Kind = affine ? .leafAffine : .leaf
        repeat {
            let local: CGPoint, inside: Bool
            if affine {
                local = leaf.pointee.map.applyAffine(p)
                inside = leaf.pointee.contains(local) && Homography.hasAffineImage(local)
            } else {
                // `map.apply(p)` with its tests reordered: the quotient is the same, and a point outside the
                // bounds misses whether or not it has an image, so only one inside pays for `hasImage`.
                let h = leaf.pointee.map.applyHomogeneous(p)
                local = CGPoint(x: h.x / h.z, y: h.y / h.z)
                inside = leaf.pointee.contains(local) && Homography.hasImage(h)
            }
            if inside, !leaf.pointee.hasOutline || containsTouch(Int(leaf.pointee.node), local) {
                found = local
                return Int(leaf.pointee.node)
            }
            leaf += 1
        } while leaf.pointee.kind == kind   // a leaf after a leaf reads its slot (`init`); `end` stops the run
        return -1
    }

    /// Whether a touch at `p` (in the owner's plane) makes `member` a candidate of its context: its local point,
    /// whether the touch reaches the member itself, and its depth fraction (`depthFraction`); nil for no candidate.
    /// `divide: false` for a context whose maps are all affine (W is exactly 1, `Homography.isAffine`): the same
    /// point without waiting on a division. `single`: the member is its context's only one, whose depth is never
    /// compared (the fraction returned may then be any). `sceneFree`: its context is `sceneFreeContext`.
    @inline(__always)
    private func candidate(_ member: UnsafePointer<FrontmostMember>, _ p: CGPoint, divide: Bool, single: Bool = false,
                           sceneFree: Bool = false) -> (local: CGPoint, touched: Bool, depth: (z: Double, w: Double))? {
        // `map.apply(p)` with its tests reordered, as a tree-order leaf does: outside the bounds, a member that
        // masks or has no scene is no candidate, image or not.
        let h = member.pointee.map.applyHomogeneous(p)
        let local = divide ? CGPoint(x: h.x / h.z, y: h.y / h.z) : CGPoint(x: h.x, y: h.y)
        let inside = member.pointee.bounds.contains(local), hasScene = !sceneFree && member.pointee.hasScene
        if !inside && (member.pointee.masksToBounds || !hasScene) { return nil }
        // Affine: W is exactly 1 for a finite p (`Homography.isAffine`), and a p that is not finite gives an X or
        // Y that is not, which both tests reject; so W need not be computed.
        guard divide ? Homography.hasImage(h) : Homography.hasAffineImage(local) else { return nil }
        let touched = inside && (!member.pointee.hasOutline || containsTouch(Int(member.pointee.node), local))
        guard touched || hasScene else { return nil }
        if single && touched && member.pointee.depthInBounds { return (local, touched, (0, 1)) }
        guard let fraction = member.pointee.depthFraction(local) else { return nil }
        return (local, touched, fraction)
    }

    /// `nearest` for a context whose maps divide, and for one whose maps are all affine: two functions, each with
    /// its `divide` a constant (called with a flag, the one `nearest` chose X or X/W by a select per member that
    /// waited on the division either way).
    @inline(never)
    private func nearestDividing(_ range: Range<Int>, _ p: CGPoint, _ members: UnsafePointer<FrontmostMember>,
                                 _ found: inout CGPoint) -> Int {
        nearest(range, p, members, divide: true, &found)
    }

    @inline(never)
    private func nearestAffine(_ range: Range<Int>, _ p: CGPoint, _ members: UnsafePointer<FrontmostMember>,
                               _ found: inout CGPoint) -> Int {
        nearest(range, p, members, divide: false, &found)
    }

    /// A scene-free context's answer: its nearest candidate (−1: none), kept in registers as the members come.
    @inline(__always)
    private func nearest(_ range: Range<Int>, _ p: CGPoint, _ members: UnsafePointer<FrontmostMember>, divide: Bool,
                         _ found: inout CGPoint) -> Int {
        var best = -1, bestLocal = CGPoint.zero, bestDepth = 0.0, bestZ = 0.0, bestOrder = 0
        for k in range {
            let member = members + k
            guard let c = candidate(member, p, divide: divide, sceneFree: true) else { continue }
            let depth = c.depth.z / c.depth.w, z = member.pointee.zPosition, order = Int(member.pointee.order)
            if best < 0 || Self.precedesInDepthOrder(depth, z, order, bestDepth, bestZ, bestOrder) {
                best = Int(member.pointee.node); bestLocal = c.local; bestDepth = depth; bestZ = z; bestOrder = order
            }
        }
        if best >= 0 { found = bestLocal }
        return best
    }

    /// `visitInDepthOrder`'s first visit that is not culled, without stored candidates as long as the contexts
    /// on the way have one member (its scene first, then itself) or none with a scene (the nearest candidate is
    /// the answer). A context that needs sorting goes to `scenes` with the owner, the point in the owner's plane
    /// and the visit pending after the owner's scene (the innermost touched owner on the way: the one
    /// `visitInDepthOrder` would visit next if the scene had nothing).
    @inline(__always)
    private func frontmostHit(_ point: CGPoint, _ members: UnsafeBufferPointer<FrontmostMember>,
                              _ memberStart: UnsafeBufferPointer<Int>, _ found: inout CGPoint,
                              scenes: (Int, CGPoint, (node: Int, local: CGPoint)?, inout CGPoint) -> Int) -> Int {
        let base = members.baseAddress!
        var owner = -1, p = point
        var pending = -1, pendingLocal = CGPoint.zero
        while true {
            let range = memberStart[owner + 1] ..< memberStart[owner + 2]
            guard !range.isEmpty else { break }
            let first = base + range.lowerBound
            // Two copies of each loop rather than a test per member, which the optimizer turns into a select that
            // waits for the division either way.
            let divide = !first.pointee.affineContext
            if range.count == 1 {
                // Its depth is never compared, only whether it has one.
                guard let c = divide ? candidate(first, p, divide: true, single: true)
                                     : candidate(first, p, divide: false, single: true) else {
                    break
                }
                let node = Int(first.pointee.node)
                guard first.pointee.hasScene else {
                    found = c.local   // a candidate with no scene is touched
                    return node
                }
                if c.touched { pending = node; pendingLocal = c.local }
                owner = node; p = c.local
                continue
            }
            guard first.pointee.sceneFreeContext else {
                return scenes(owner, p, pending < 0 ? nil : (pending, pendingLocal), &found)
            }
            let node = divide ? nearestDividing(range, p, base, &found) : nearestAffine(range, p, base, &found)
            if node >= 0 { return node }
            break
        }
        if pending >= 0 { found = pendingLocal }
        return pending
    }

    /// A single frontmost query. Not inlined into `hitTest`: its frame and registers would weigh on the
    /// tree-order queries there too (31 instructions more per tree-order query when it was).
    @inline(never)
    private func frontmostHit(_ point: CGPoint, _ programs: UnsafePointer<HitPrograms>, _ found: inout CGPoint) -> Int {
        // Buffers only where a context needs sorting (`frontmostScenes`): most queries need none.
        frontmostHit(point, programs.pointee.frontmost, programs.pointee.frontmostStart, &found) {
            owner, p, pending, found in frontmostScenes(owner, p, pending, programs, &found)
        }
    }

    /// `frontmostScenes` for a single query, with buffers of its own: on the stack for a tree of ordinary size.
    /// Not inlined, so the queries that never need it carry neither its frame nor its stack protector.
    @inline(never)
    private func frontmostScenes(_ owner: Int, _ p: CGPoint, _ pending: (node: Int, local: CGPoint)?,
                                 _ programs: UnsafePointer<HitPrograms>, _ found: inout CGPoint) -> Int {
        let members = programs.pointee.frontmost.baseAddress!, start = programs.pointee.frontmostStart
        if programs.pointee.maxMembers <= 16 && 2 * count + 1 <= 32 {
            return withUnsafeTemporaryAllocation(of: HitBuffers.Candidate.self, capacity: 16) { c in
                withUnsafeTemporaryAllocation(of: HitBuffers.Step.self, capacity: 32) { st in
                    frontmostScenes(owner, p, pending, members, start, c, st, &found)
                }
            }
        }
        return withHitBuffers { frontmostScenes(owner, p, pending, members, start, $0.candidates, $0.steps, &found) }
    }

    /// One context's candidates for the frontmost query, into `candidates[0 ..< n]`; `best` the nearest, `scenes`
    /// how many have scenes of their own.
    @inline(__always)
    private func collect(_ range: Range<Int>, _ p: CGPoint, _ members: UnsafePointer<FrontmostMember>,
                         _ candidates: UnsafeMutableBufferPointer<HitBuffers.Candidate>, divide: Bool, single: Bool,
                         _ n: inout Int, _ scenes: inout Int, _ best: inout Int) {
        for k in range {
            // Through the pointer: a member is read field by field, never copied whole.
            let member = members + k
            guard let found = candidate(member, p, divide: divide, single: single) else { continue }
            let hasScene = member.pointee.hasScene
            // One member: its depth is never compared, only whether it has one.
            let c = HitBuffers.Candidate(node: Int(member.pointee.node), order: Int(member.pointee.order),
                                         local: found.local, depth: single ? 0 : found.depth.z / found.depth.w,
                                         z: member.pointee.zPosition, touched: found.touched, hasScene: hasScene)
            // The nearest so far, kept as they come: without scenes it is the answer, with no sort.
            if n > 0 && Self.precedesInDepthOrder(c.depth, c.z, c.order, candidates[best].depth, candidates[best].z,
                                                  candidates[best].order) { best = n }
            candidates[n] = c
            n += 1
            if hasScene { scenes += 1 }
        }
    }

    /// The frontmost query from the scene of `owner` (−1: the root's context) at `point` in its plane, with
    /// `pending` visited after that scene: `visitInDepthOrder`'s first visit that is not culled. Culled members,
    /// and everything drawn into them, can never be that visit, so they are left out of the candidates; a context
    /// whose candidates have no scenes of their own answers with its nearest candidate, found in one pass.
    @inline(__always)
    private func frontmostScenes(_ owner: Int, _ point: CGPoint, _ pending: (node: Int, local: CGPoint)?,
                                 _ members: UnsafePointer<FrontmostMember>, _ memberStart: UnsafeBufferPointer<Int>,
                                 _ candidates: UnsafeMutableBufferPointer<HitBuffers.Candidate>,
                                 _ steps: UnsafeMutableBufferPointer<HitBuffers.Step>, _ found: inout CGPoint) -> Int {
        var top = 0
        if let pending { steps[0] = .emit(node: pending.node, pending.local); top = 1 }
        var next: (owner: Int, p: CGPoint)? = (owner, point)
        func before(_ a: HitBuffers.Candidate, _ b: HitBuffers.Candidate) -> Bool {
            Self.precedesInDepthOrder(a.depth, a.z, a.order, b.depth, b.z, b.order)
        }
        while true {
            if let (owner, p) = next {
                next = nil
                var n = 0, scenes = 0, best = 0
                let range = memberStart[owner + 1] ..< memberStart[owner + 2], single = range.count == 1
                if !range.isEmpty && members[range.lowerBound].affineContext {
                    collect(range, p, members, candidates, divide: false, single: single, &n, &scenes, &best)
                } else {
                    collect(range, p, members, candidates, divide: true, single: single, &n, &scenes, &best)
                }
                if n > 0 && scenes == 0 {
                    found = candidates[best].local
                    return candidates[best].node
                }
                if n == 1 {
                    // One candidate, with a scene: its scene first, then itself.
                    let c = candidates[0]
                    if c.touched { steps[top] = .emit(node: c.node, c.local); top += 1 }
                    next = (c.node, c.local)
                    continue
                }
                if n > 1 {
                    candidates[0..<n].sort(by: before)
                    for c in candidates[0..<n].reversed() {
                        if c.touched { steps[top] = .emit(node: c.node, c.local); top += 1 }
                        if c.hasScene { steps[top] = .collect(owner: c.node, c.local); top += 1 }
                    }
                }
            }
            guard top > 0 else { return -1 }
            top -= 1
            switch steps[top] {
            case let .emit(node, local):
                found = local
                return node
            case let .collect(owner, p): next = (owner, p)
            }
        }
    }
}
