import CCairo
import COrigamiPrefetch
import Foundation
import Origami

/// Paints render nodes into a Cairo context (DESIGN §3): each ordinary layer draws background → contents →
/// its depth-sorted sublayer scene → its face shade → border, as one group when its opacity is below 1.
/// All geometry is mapped into device units (points × scale × supersampling) before it reaches Cairo.
final class Painter {
    let cr: CairoContext
    /// The device area that can be seen: image tiles are never sampled outside it.
    let visible: PlaneRect
    /// Device units per output pixel (the supersampling factor for a supersampled raster, else 1).
    let pixel: Double
    /// How far (device units) the face painted first is extended under a later one along an edge they share
    /// (`SharedEdges`), or 0 when sealing is off: 1.5 pixels, more than the √2 by which a pixel the edge crosses
    /// can reach past it, so every such pixel is fully covered by the earlier face and the later face's
    /// antialiased edge blends with it alone (the extension is clipped to the later face, so this costs nothing
    /// at the outline).
    let seal: Double
    /// Coverage antialiasing, or hard edges throughout (the context's own setting, and image masks).
    let antialias: Antialias

    /// Draws every fragment of a split plane through a hard clip and the whole face (`RenderOptions`).
    let clipsEveryFragment: Bool
    /// Collects every fragment in one walk, as for a scene of solids, even when only a few members may seal: the
    /// reference the two-walk path is tested against.
    let collectsEveryFragment: Bool
    /// Draws every whole face through `drawNode`, plain ones too: the reference the plain-face fill is tested against.
    let drawsFacesThroughNode: Bool

    init(_ cr: CairoContext, visible: PlaneRect, pixel: Double = 1, sealsEdges: Bool = true,
         antialias: Antialias = .gray, clipsEveryFragment: Bool = false, collectsEveryFragment: Bool = false,
         drawsFacesThroughNode: Bool = false) {
        self.cr = cr; self.visible = visible; self.pixel = pixel
        self.seal = sealsEdges ? 1.5 * pixel : 0
        self.antialias = antialias
        self.clipsEveryFragment = clipsEveryFragment
        self.collectsEveryFragment = collectsEveryFragment
        self.drawsFacesThroughNode = drawsFacesThroughNode
    }

    private func source(_ c: Color, _ filter: ColorFilter) {
        let f = filter.apply(c.clamped)
        cr.setColor((f.red, f.green, f.blue, f.alpha))
    }

    /// Draws one 3D context: `members` live in the owner's bounds space, which `chain` maps to the device.
    ///
    /// Fragments are painted as the BSP hands them out (`BSPTree`), a batch of `fillBatch` at a time, so a scene of
    /// crossing planes never holds its fragments: memory stays at the tree's pending lists and one batch however many
    /// fragments there are. Seals are the exception:
    /// a face is extended under one painted later (`SharedEdges`), which must be known when the earlier one is
    /// painted. Which members may seal at all is decided from the unsplit polygons (`SharedEdges.sealCandidates`):
    /// none (crossing planes), and fragments stream; a few, and their fragments alone are collected by a first walk
    /// of the same tree; most (solids, a lattice of cubes), and every fragment is collected in one walk.
    func drawScene(_ members: [RenderMember], chain: PlaneChain, filter: ColorFilter) throws {
        // (Worked out by a function of its own: its temporaries stay off this frame, which nested contexts stack.)
        let order = Painter.sceneOrder(members, seals: seal > 0, collectsEveryFragment: collectsEveryFragment)
        var plain = MemoTable<PlainFace>(count: members.count)
        var seals = SceneSeals(order.sealing)
        // The painter's side of the fills first, a batch at a time — each drawn member's plain face, each sealing
        // fragment's seals — then the batch's fills: interleaved face by face, the painter's code and Cairo's did not
        // fit the instruction cache together (each of thousands of faces fetched both again).
        try paintFragments(order, members: members, chain: chain, filter: filter, plain: &plain, seals: &seals)
    }

    /// The seals of a scene's sealing fragments on the device (`SharedEdges.sealed`, mapped), made fragment by fragment
    /// as they are painted: each later fragment's polygon mapped once into one pool (a big solid's cap is the `under`
    /// of thousands of seals), each seal a device segment and the index of its polygon there.
    struct SceneSeals {
        /// The sealing fragments and, per fragment, its sealed edges (`SceneOrder.sealing`); none when none may seal.
        private let fragments: ScenePolygons, sealed: FragmentLists<SealedEdge>
        /// The later fragments' polygons on the device, in the order first asked for.
        private(set) var polygons = SealPolygons()
        /// Per fragment, made on the first seal: its polygon's index in `polygons` (-1 not mapped yet, -2 nothing of
        /// it on the device), and the last `seals(_:chain:into:)` call that met a seal under it (`call`).
        private var laters: [(polygon: Int32, call: Int32)] = []
        private var call: Int32 = 0
        /// A later fragment's ring on the device, before it joins `polygons`.
        private var mapped: Ring = []

        init(_ sealing: (fragments: ScenePolygons, edges: SharedEdges)?) {
            self.init(fragments: sealing?.fragments ?? ScenePolygons(), sealed: sealing?.edges.sealed ?? FragmentLists())
        }

        /// The fragments and, per fragment, its sealed edges (`SharedEdges.sealed`'s).
        init(fragments: ScenePolygons, sealed: FragmentLists<SealedEdge>) {
            self.fragments = fragments
            self.sealed = sealed
        }

        /// The same, the sealed edges given as an array per fragment.
        init(fragments: ScenePolygons, sealed: [[SealedEdge]]) {
            self.init(fragments: fragments, sealed: FragmentLists(sealed))
        }

        /// The first half of `prefetch(_:)`, asked twice as far ahead: the rows of the later fragments the `k`-th
        /// sealing fragment's seals reach under (in `fragments` and `laters`, read in no order), which say where their
        /// corners are.
        func prefetchRows(_ k: Int) {
            guard k < sealed.count else { return }
            // Each later fragment's row in one of the two tables (both indexed by fragment).
            func prefetch<Row>(in rows: UnsafeBufferPointer<Row>) {
                for n in sealed.range(k) { origami_prefetch(rows.baseAddress! + sealed.items[n].later) }
            }
            fragments.withUnsafeBufferPointer(prefetch)
            if !laters.isEmpty { laters.withUnsafeBufferPointer(prefetch) }
        }

        /// Asks for the corners of each later fragment the `k`-th sealing fragment's seals reach under and that is not
        /// mapped yet (`seals(_:chain:into:)` reads them on the seal's first turn): in the paint order the later
        /// fragments come in no order of the corners' pool, and that first read waited on memory.
        func prefetch(_ k: Int) {
            guard k < sealed.count else { return }
            for n in sealed.range(k) {
                let later = sealed.items[n].later
                if laters.isEmpty || laters[later].polygon == -1 { fragments[later].points.prefetch() }
            }
        }

        /// The `k`-th sealing fragment's seals on the device, into `out` (emptied first): the first seal under each
        /// later fragment (a fragment seals under a few later ones at most, a big cap under thousands), in the order
        /// of its sealed edges, each whose segment and later polygon reach the device.
        mutating func seals(_ k: Int, chain: PlaneChain, into out: inout [PooledSeal]) {
            // (`removeAll` costs a call even on an empty array.)
            if !out.isEmpty { out.removeAll(keepingCapacity: true) }
            guard k < sealed.count, case let edges = sealed.range(k), !edges.isEmpty else { return }
            if laters.isEmpty { laters = Array(repeating: (-1, -1), count: fragments.count) }
            call &+= 1
            // (Read in place in the one array of every fragment's seals.)
            for n in edges {
                let e = sealed.items[n]
                // An edge under a later fragment an earlier edge of this fragment is under (mapped or not) adds nothing:
                // each later fragment is marked with this call when first met (the pairwise test this replaces was
                // quadratic in a cap's thousands of seals).
                guard laters[e.later].call != call else { continue }
                laters[e.later].call = call
                guard let segment = chain.map(e.segment) else { continue }
                var polygon = laters[e.later].polygon
                if polygon == -1 {
                    // Its ring on the plane (`flattened`) on the stack, mapped. (`map` gives an empty ring or one of 3
                    // points or more.)
                    fragments[e.later].points.withUnsafeBufferPointer { corners in
                        withUnsafeTemporaryAllocation(of: PlanePoint.self, capacity: corners.count) { flat in
                            for (i, v) in corners.enumerated() { flat.initializeElement(at: i, to: PlanePoint(v.x, v.y)) }
                            chain.map(UnsafeBufferPointer(flat), into: &mapped)
                        }
                    }
                    if mapped.isEmpty { polygon = -2 } else {
                        polygon = Int32(polygons.count)
                        polygons.append(mapped)
                    }
                    laters[e.later].polygon = polygon
                }
                if polygon >= 0 { out.append(PooledSeal(segment: segment, under: Int(polygon))) }
            }
        }
    }

    /// Paints one BSP fragment (`flattened`: its outline on the context's plane, unused for a whole plane). A whole
    /// plane is drawn as it is; a split plane's fragments tile it along the split lines.
    /// - Parameters:
    ///   - outer: the fragment's edges that lie on its member's own polygon (`SharedEdges.outer`).
    ///   - plain: per member, decided once: whether its face is one plain fill, that fill's colour and outline.
    private func drawFragment(_ flattened: Ring, member: Int, isWhole: Bool, outer outerEdges: [PlaneSegment],
                              sealed: [EdgeSeal], members: [RenderMember], chain: PlaneChain, filter: ColorFilter,
                              plain: inout MemoTable<PlainFace>) throws {
        let m = members[member]
        if isWhole {
            // (The plain fill in a function of its own: this frame is on the stack once per level of a deep tree.)
            if !drawsFacesThroughNode, try fillIfPlain(m, member: member, chain: chain, filter: filter, sealed: sealed,
                                                        plain: &plain) { return }
            try drawNode(m.node, chain: chain.prepending(Homography(m.node.transform)), filter: filter, sealed: sealed)
            return
        }
        var cut = FragmentScratch()
        let reaches = fragmentClip(flattened, outer: outerEdges, chain: chain, scratch: &cut)
        if sealed.isEmpty, let face = plainFace(m, member: member, chain: chain, filter: filter, plain: &plain) {
            guard reaches else { return }
            plainPiece(of: face, scratch: &cut)
            guard cut.piece.count >= 3 else { return }
            cr.setColor(face.color)
            try cr.fill(cut.piece)
            return
        }
        try cr.withSavedState {
            try cr.clip(reaches ? [cut.clip] : [], antialias: false)
            try drawNode(m.node, chain: chain.prepending(Homography(m.node.transform)), filter: filter, sealed: sealed)
        }
    }

    /// The rings of a split fragment's cut (`fragmentClip`) and plain piece (`plainPiece`), kept from one fragment
    /// to the next: crossing planes make a hundred thousand fragments, and each ring was an array made and freed.
    struct FragmentScratch {
        /// The fragment on the device, its outer edges on the device, the cut, the piece and the piece's spare
        /// (`formClipped(toConvex:spare:)`).
        var device: Ring = [], outer: [PlaneSegment] = [], clip: Ring = [], piece: Ring = [], spare: Ring = []
    }

    /// The hard-edged cut a split fragment (`flattened`, with `outerEdges` on its member's own polygon) is drawn
    /// through, into `scratch.clip`; false when nothing of it reaches the device. The fragments of one plane tile it
    /// along the split lines (a pixel partition: no seam between them); the cut's other edges, the plane's own, are
    /// pushed out of the way so the face's antialiased outline is what shows there.
    private func fragmentClip(_ flattened: Ring, outer outerEdges: [PlaneSegment], chain: PlaneChain,
                              scratch s: inout FragmentScratch) -> Bool {
        // (`removeAll` costs a call even on an empty array.)
        if !s.outer.isEmpty { s.outer.removeAll(keepingCapacity: true) }
        for e in outerEdges { if let d = chain.map(e) { s.outer.append(d) } }
        chain.map(flattened, into: &s.device)
        let n = s.device.count
        guard n >= 3 else { return false }
        if s.outer.isEmpty {
            swap(&s.clip, &s.device)
            return true
        }
        // Each edge's push, on the stack.
        let device = s.device, outer = s.outer, margin = Self.clipMargin * pixel
        withUnsafeTemporaryAllocation(of: Double.self, capacity: n) { distances in
            for i in 0 ..< n {
                let a = device[i], b = device[(i + 1) % n]
                let isOuter = outer.contains { $0.isRunAlong(from: a, to: b, tolerance: Self.deviceTolerance) }
                distances.initializeElement(at: i, to: isOuter ? margin : 0)
            }
            device.offsettingEdges(by: UnsafeBufferPointer(distances), into: &s.clip)
        }
        return true
    }

    /// What a split fragment's cut (`fragmentClip`'s, in `scratch.clip`) and its plain face's fill would leave, into
    /// `scratch.piece`: the face's antialiased outline cut to the pixels whose centres the clip holds, one fill (drawn
    /// only with 3 points or more).
    private func plainPiece(of face: PlainFace, scratch s: inout FragmentScratch) {
        s.clip.pixelCentres(within: visible, into: &s.piece)
        s.piece.formClipped(toConvex: face.outline, spare: &s.spare)
    }

    /// A face whose whole drawing is one fill of a plain colour over a convex outline: no contents, text,
    /// sublayers, border, shading, group opacity or mask. `drawNode` would fill `outline` with `color` and nothing
    /// else, so a fragment of it is that fill cut to the fragment. (A sealed fragment, whose fill reaches under a
    /// later face, keeps the clip path.)
    struct PlainFace {
        let color: (r: Double, g: Double, b: Double, a: Double)
        /// Device space, convex.
        let outline: Ring
        /// Whether `drawNode` extends the fill under later faces along sealed edges (`Plan.isSealed`).
        let extendsUnderSeals: Bool
        /// A shaped face: `drawNode` clips what it fills to the (extended) outline.
        let clipsToOutline: Bool

        /// `m` in the context `chain` maps to the device.
        init?(_ m: RenderMember, in chain: PlaneChain, filter: ColorFilter) {
            var ring: Ring = []
            guard let style = Style(m, in: chain, filter: filter, outline: &ring) else { return nil }
            color = style.color
            outline = ring
            extendsUnderSeals = style.extendsUnderSeals
            clipsToOutline = style.clipsToOutline
        }

        /// A plain face's fill without its outline, which goes into a ring the caller keeps (`PlainFills.Scratch`).
        struct Style {
            let color: (r: Double, g: Double, b: Double, a: Double)
            let extendsUnderSeals: Bool
            let clipsToOutline: Bool

            /// `PlainFace(m, in: chain, filter: filter)`'s values, its outline in `outline` (replaced when the face is
            /// plain; when it is not, left as it was or replaced).
            /// (Its arguments borrowed: an initializer's are passed owned, so each face's member, chain and filter
            /// were retained by the caller and released here.)
            init?(_ m: borrowing RenderMember, in chain: borrowing PlaneChain, filter: borrowing ColorFilter,
                  outline: inout Ring) {
                let node = m.node
                guard node.isBare, !node.masksToBounds,
                      node.borderWidth <= 0 || node.borderColor.alpha <= 0 else { return nil }
                let plan = Plan(node, filter: filter, seal: true)
                guard plan.alpha >= 1, !plan.shadesGroup, plan.overlay == nil,
                      case let .color(fill) = plan.background else { return nil }
                // `drawNode`'s `chain.prepending(Homography(node.transform)).map(node.outline)` for the one ring an
                // outline is (`outlineRing`), without the prepended chain and the arrays around the ring.
                // (An unshaped face with square corners, the usual one, is mapped from its bounds without the
                // corners' array.)
                if node.shape == nil, !(Outlines.cornerRadius(node.planeBounds, radius: node.cornerRadius) > 0) {
                    chain.map(corners: node.planeBounds, after: Homography(node.transform), into: &outline)
                } else {
                    chain.map(node.outlineRing, after: Homography(node.transform), into: &outline)
                }
                guard outline.count >= 3, outline.isConvex else { return nil }
                color = (fill.red, fill.green, fill.blue, fill.alpha)
                extendsUnderSeals = plan.isSealed
                clipsToOutline = node.shape != nil
            }
        }
    }

    /// A batch of a scene's fills in paint order (`paintFragments`): each whole plain face's device ring (extended
    /// along its seals), and each unsealed piece of a split plain face, in one pool, so that the fill loop is Cairo's
    /// calls alone — no member, node, outline array or seal read between two fills, and no array per face made and
    /// freed. Every other fragment is drawn in its turn by `drawFragment`.
    struct PlainFills {
        struct Fill {
            /// The ring is `pool[start ..< start + count]`; `count < 0`: `others[start]` is drawn here.
            var start: Int, count: Int
            /// A shaped face: what it fills is clipped to its ring (`PlainFace.clipsToOutline`).
            var clips: Bool
            var color: (r: Double, g: Double, b: Double, a: Double)
        }
        var fills: [Fill] = []
        var pool: Ring = []
        /// Kept from one face to the next while they are made: its device outline, its seals, the extension's strips;
        /// a split fragment's ring on its plane and its cut and piece.
        struct Scratch {
            var outline: Ring = [], sealed: [PooledSeal] = [], strips = SealScratch()
            var flattened: Ring = [], fragment = FragmentScratch()
        }
        /// The fragments `drawFragment` draws, with what it is given for them.
        var others: [(flattened: Ring, member: Int, isWhole: Bool, outer: [PlaneSegment], sealed: [EdgeSeal])] = []
    }

    /// Fills per `PlainFills` batch: the painter's side of a batch, then Cairo's (interleaved face by face, the
    /// painter's code and Cairo's did not fit the instruction cache together), with the batch's pool small enough to
    /// stay in the data cache and reused from one batch to the next.
    static let fillBatch = 256

    /// How many fragments ahead `paintFragments` (collected or replayed) asks for a member's node row
    /// (`RenderNode.prefetch`) and, collected, for the corners its seals reach under (`SceneSeals.prefetch`; the rows
    /// that say where those are, and the member itself, twice as far): a fragment's own work (its style, outline and
    /// seals) is a few thousand instructions, far longer than a load from L3, so two are enough; more would only have
    /// more rows in flight (3 measured the same).
    static let prefetchDistance = 2

    /// Paints a scene's fragments in `PlainFills` batches: collected (`order.sealing.fragments`, when every fragment
    /// was), recorded (`order.recording`), or else as the BSP walk hands them out (crossing planes: the fragments are
    /// not held, only a batch's); `seals` gives the k-th sealing fragment's seals. Works out, too, the
    /// `PlainFace` of each member split into several fragments (into `plain`) on its first fragment, ahead of that
    /// fragment's turn in the batch.
    private func paintFragments(_ order: SceneOrder, members: [RenderMember], chain: PlaneChain, filter: ColorFilter,
                                plain: inout MemoTable<PlainFace>, seals: inout SceneSeals) throws {
        var batch = PlainFills(), scratch = PlainFills.Scratch()
        // A face's 4 corners, and a few more where it is extended.
        batch.fills.reserveCapacity(Self.fillBatch)
        batch.pool.reserveCapacity(8 * Self.fillBatch)
        // (`addFill` and `paint` are methods, not local functions capturing `batch` and `scratch`: accesses to those
        // were checked at run time.)
        if order.collectsAll, let sealing = order.sealing {
            var pieces = [Int](repeating: 0, count: members.count)
            for f in sealing.fragments { pieces[f.member] += 1 }
            let fragments = sealing.fragments, ahead = Self.prefetchDistance
            for k in fragments.indices {
                // The member `ahead` fragments on: its node's row is on its way when its turn comes (`addFill` reads it
                // through `PlainFace.Style` and `Plan`), and so are the corners its seals reach under. The member itself
                // (`members` read in the paint order: in no order) twice as far on, so that it is at hand to say where
                // its row is.
                if k + 2 * ahead < fragments.count {
                    members.withUnsafeBufferPointer { origami_prefetch($0.baseAddress! + fragments[k + 2 * ahead].member) }
                    seals.prefetchRows(k + 2 * ahead)
                }
                if k + ahead < fragments.count {
                    RenderNode.prefetch(members[fragments[k + ahead].member].node.record)
                    seals.prefetch(k + ahead)
                }
                let member = fragments[k].member
                seals.seals(k, chain: chain, into: &scratch.sealed)
                addFill(member: member, isWhole: pieces[member] == 1, flattened: { $0 = fragments[k].flattened },
                        outer: { sealing.edges.outer.array(k) }, to: &batch, scratch: &scratch, seals: &seals,
                        members: members, chain: chain, filter: filter, plain: &plain)
                if batch.fills.count >= Self.fillBatch {
                    try paint(&batch, members: members, chain: chain, filter: filter, plain: &plain)
                }
            }
        } else {
            // The k-th fragment of a candidate member in this walk is `sealing.fragments[k]`: the two walks (or the
            // recording of the first) are the same.
            var k = 0
            var boundaries = OuterEdges(order.whole)
            // (Read out of `order` here: read inside the closure, the whole `SceneOrder` was copied per fragment, and
            // `sealing` unwrapped there retained its arrays per fragment.)
            let sealing = order.sealing != nil, outerLists = order.sealing?.edges.outer ?? FragmentLists(),
                candidates = order.candidates
            // (The outer edges in place: the lists captured by the closure were retained and released per fragment.)
            _ = try outerLists.withUnsafeLists { outers in
                try Painter.depthOrder(order.input, members: members, replaying: order.recording,
                                       prefetchesRecords: true) { f in
                    // (The fragment's index among the sealing ones, not its outer edges: `outers[k]` read here was an
                    // array retained and released per sealing fragment, for a whole face that never reads it.)
                    var sealed = -1
                    if sealing, candidates[f.member] {
                        seals.seals(k, chain: chain, into: &scratch.sealed)
                        sealed = k
                        k += 1
                    } else {
                        if !scratch.sealed.isEmpty { scratch.sealed.removeAll(keepingCapacity: true) }
                    }
                    addFill(member: f.member, isWhole: f.isWhole, flattened: { ring in
                                if !ring.isEmpty { ring.removeAll(keepingCapacity: true) }
                                ring.reserveCapacity(f.points.count)
                                for p in f.points { ring.append(PlanePoint(p.x, p.y)) }
                            },
                            outer: { sealed >= 0 ? outers.array(sealed) : boundaries.of(f) }, to: &batch,
                            scratch: &scratch, seals: &seals, members: members, chain: chain, filter: filter, plain: &plain)
                    if batch.fills.count >= Self.fillBatch {
                        try paint(&batch, members: members, chain: chain, filter: filter, plain: &plain)
                    }
                }
            }
        }
        try paint(&batch, members: members, chain: chain, filter: filter, plain: &plain)
    }

    /// Paints `batch` in order and empties it (keeping its capacity).
    private func paint(_ batch: inout PlainFills, members: [RenderMember], chain: PlaneChain, filter: ColorFilter,
                       plain: inout MemoTable<PlainFace>) throws {
        try batch.pool.withUnsafeBufferPointer { pool in
            for fill in batch.fills {
                guard fill.count >= 0 else {
                    let o = batch.others[fill.start]
                    try drawFragment(o.flattened, member: o.member, isWhole: o.isWhole, outer: o.outer, sealed: o.sealed,
                                     members: members, chain: chain, filter: filter, plain: &plain)
                    continue
                }
                try fillPlain(UnsafeBufferPointer(rebasing: pool[fill.start ..< fill.start + fill.count]), color: fill.color,
                              clips: fill.clips)
            }
        }
        batch.fills.removeAll(keepingCapacity: true)
        batch.pool.removeAll(keepingCapacity: true)
        if !batch.others.isEmpty { batch.others.removeAll(keepingCapacity: true) }
    }

    /// One fragment of `paintFragments` (its seals in `scratch.sealed`, under `seals.polygons`): a whole plain face's
    /// ring (`fill(_:sealed:)`'s) or an unsealed split plain face's piece (`drawFragment`'s) into the pool, else an
    /// entry of `others`. (`seals` in place: passed as `seals.polygons` from the walk's closure, its arrays were
    /// retained and released per fragment.)
    private func addFill(member: Int, isWhole: Bool, flattened: (inout Ring) -> Void, outer: () -> [PlaneSegment],
                         to out: inout PlainFills, scratch: inout PlainFills.Scratch, seals: inout SceneSeals,
                         members: [RenderMember], chain: PlaneChain, filter: ColorFilter,
                         plain: inout MemoTable<PlainFace>) {
        if isWhole, !drawsFacesThroughNode, !clipsEveryFragment,
           let style = PlainFace.Style(members[member], in: chain, filter: filter, outline: &scratch.outline) {
            let start = out.pool.count
            if style.extendsUnderSeals && !scratch.sealed.isEmpty {
                scratch.outline.extended(along: scratch.sealed, under: seals.polygons, by: seal,
                                         tolerance: Self.deviceTolerance, appendingTo: &out.pool, scratch: &scratch.strips)
            } else {
                // (Point by point: `append(contentsOf:)` costs more than a face's few points.)
                for p in scratch.outline { out.pool.append(p) }
            }
            out.fills.append(PlainFills.Fill(start: start, count: out.pool.count - start, clips: style.clipsToOutline,
                                             color: style.color))
            return
        }
        if !isWhole, scratch.sealed.isEmpty,
           let face = plainFace(members[member], member: member, chain: chain, filter: filter, plain: &plain) {
            // `drawFragment`'s plain piece of a split face, into the pool: a fill like a whole face's (no clip), and
            // the fragment's arrays freed here rather than held by the batch.
            // (The fragment's rings in `scratch`: no array per fragment.)
            flattened(&scratch.flattened)
            guard fragmentClip(scratch.flattened, outer: outer(), chain: chain, scratch: &scratch.fragment) else { return }
            plainPiece(of: face, scratch: &scratch.fragment)
            let piece = scratch.fragment.piece
            guard piece.count >= 3 else { return }
            out.fills.append(PlainFills.Fill(start: out.pool.count, count: piece.count, clips: false, color: face.color))
            out.pool.append(contentsOf: piece)
            return
        }
        if isWhole, !drawsFacesThroughNode {
            // Not plain (`PlainFace` would be nil too): `drawFragment` need not ask again.
            plain[member] = .some(nil)
        }
        out.fills.append(PlainFills.Fill(start: out.others.count, count: -1, clips: false, color: (0, 0, 0, 0)))
        // (A whole face is drawn from its own outline: its fragment's ring is not made.)
        var ring: Ring = []
        if !isWhole { flattened(&ring) }
        // (`drawNode`'s seals: each with its polygon as a ring of its own.)
        out.others.append((ring, member, isWhole, isWhole ? [] : outer(),
                           scratch.sealed.map { EdgeSeal(segment: $0.segment, under: seals.polygons.ring($0.under)) }))
    }

    /// The edges of a split fragment that lie on its member's own polygon, for a member that does not seal
    /// (`SharedEdges.Boundary.outerEdges`): each member's boundary made on its first split fragment.
    private struct OuterEdges {
        let whole: WholePolygons
        /// Per member: its boundary (none when it has no polygon), made on its first split fragment.
        var boundaries: MemoTable<SharedEdges.Boundary>

        init(_ whole: WholePolygons) {
            self.whole = whole
            boundaries = MemoTable(count: whole.count)
        }

        /// None for a whole face (it is drawn from its own outline).
        mutating func of(_ f: BSPTree.Fragment) -> [PlaneSegment] {
            guard !f.isWhole else { return [] }
            let b: SharedEdges.Boundary?
            if let known = boundaries[f.member] { b = known } else {
                b = whole[f.member].map { SharedEdges.Boundary($0.points) }
                boundaries[f.member] = .some(b)
            }
            return b?.outerEdges(of: f.points) ?? []
        }
    }

    /// Fills a whole face the plain way when it is a `PlainFace` (decided once per member in `plain`); false when
    /// it is not and `drawNode` must draw it.
    private func fillIfPlain(_ m: RenderMember, member: Int, chain: PlaneChain, filter: ColorFilter, sealed: [EdgeSeal],
                             plain: inout MemoTable<PlainFace>) throws -> Bool {
        guard let face = plainFace(m, member: member, chain: chain, filter: filter, plain: &plain) else { return false }
        try fill(face, sealed: sealed)
        return true
    }

    /// Member `member`'s `PlainFace`, worked out on its first fragment and kept in `plain` (none when every fragment
    /// takes the clip path).
    private func plainFace(_ m: RenderMember, member: Int, chain: PlaneChain, filter: ColorFilter,
                           plain: inout MemoTable<PlainFace>) -> PlainFace? {
        if let known = plain[member] { return known }
        let face = clipsEveryFragment ? nil : PlainFace(m, in: chain, filter: filter)
        plain[member] = .some(face)
        return face
    }

    /// A whole plain face: the Cairo calls `drawNode` makes for it (a shaped face's outline clips what it fills),
    /// without its plan, its outline's arrays and, for an unshaped face, its saved state — the fill sets the only
    /// state it would restore, the source, and every later fill sets its own.
    private func fill(_ face: PlainFace, sealed: [EdgeSeal]) throws {
        let filled = face.extendsUnderSeals && !sealed.isEmpty
            ? face.outline.extended(along: sealed, by: seal, tolerance: Self.deviceTolerance) : face.outline
        try fillPlain(filled, color: face.color, clips: face.clipsToOutline)
    }

    /// The Cairo calls of a plain face's fill (`fill(_:sealed:)`) for its device ring `filled`.
    private func fillPlain<Points: RandomAccessCollection<PlanePoint>>(
        _ filled: Points, color: (r: Double, g: Double, b: Double, a: Double), clips: Bool) throws {
        if clips {
            try cr.withSavedState {
                try cr.clip([Array(filled)])
                cr.setColor(color)
                try cr.fill(filled)
            }
        } else {
            cr.setColor(color)
            try cr.fill(filled)
        }
    }

    /// How far (pixels) a BSP fragment's clip is pushed off its plane's own edges: past the seal and past every
    /// pixel the face's antialiased edge touches.
    static let clipMargin = 2.0

    /// Whether a member's face can take part in a seal: an opaque background on a plane in perspective turned
    /// toward the viewer. 2D layers keep Core Animation's plain edges; a back face is hidden or shows as a
    /// silhouette, where nothing is to be sealed.
    static func isSealable(_ m: RenderMember) -> Bool {
        (m.node.backgroundColor?.alpha ?? 0) >= 1 && !m.transform.isAffine && Homography(m.transform).matrix.determinant > 0
    }

    /// A well-mixed hash of a point's exact coordinates (SplitMix64's finaliser over their bits).
    static func geometricKey(_ p: Vector3) -> UInt64 {
        func mix(_ v: UInt64) -> UInt64 {
            var z = v &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        return mix(mix(mix(p.x.bitPattern) ^ p.y.bitPattern) ^ p.z.bitPattern)
    }

    /// The polygon a member is depth-sorted and split by: its extent, or a solid's convex face outline when the
    /// face draws nothing past it (everything it draws is clipped to the outline). The outline, not its
    /// rectangle: two faces of a pyramid would otherwise cut each other's rectangles along the edge they share,
    /// and each face's drawing would be hard-clipped there.
    /// Added to `pool` (the scene's polygons share one pool of corners); false, and nothing added, when the polygon is
    /// `nil` (nothing in front of the eye).
    static func depthPolygon(_ node: RenderNode, transform: Transform3D, member: Int,
                             to pool: inout PolygonPool) -> Bool {
        // (The extent's corners without their array: a scene makes one of these per member.)
        if let ring = depthShape(node) {
            return ScenePolygon.append(outline: ring, transform: transform, member: member, to: &pool)
        }
        return ScenePolygon.append(extent: node.extent, transform: transform, member: member, to: &pool)
    }

    /// `depthPolygon`'s outline when it is a solid's face outline; `nil` when it is the extent.
    static func depthShape(_ node: RenderNode) -> Ring? {
        guard let shape = node.shape, !node.masksToBounds, node.extent == node.planeBounds else { return nil }
        let ring = shape.map { PlanePoint(Double($0.x), Double($0.y)) }
        return ring.isConvex ? ring : nil
    }

    /// A shaped face's outline (`RenderNode.shape`) carried into the context and divided, as `ScenePolygon` does
    /// the extent; `nil` for a plain rectangle (its polygon is its outline) or when a corner is not in front of the
    /// eye.
    static func shapeOutline(_ m: RenderMember) -> [Vector3]? {
        guard let shape = m.node.shape else { return nil }
        var out: [Vector3] = []
        out.reserveCapacity(shape.count)
        for p in shape {
            let v = m.transform.apply(Vector4(x: Double(p.x), y: Double(p.y), z: 0, w: 1))
            guard v.w > 0 else { return nil }
            let q = Vector3(v.x / v.w, v.y / v.w, v.z / v.w)
            guard q.isFinite else { return nil }
            out.append(q)
        }
        return out
    }

    /// How close (device units) an outline's edge must run to a shared or outer edge to count as it. The two come
    /// from the same geometry by two routes (the face's outline through its own map, the context's polygons
    /// through the context's), so they agree to rounding: a hundredth of a device unit is ample.
    static let deviceTolerance = 1e-2

    /// Unset by the tests (`false`: the candidates are always looked for, as before the shortcut) to compare the scenes
    /// `sceneOrder` collects without them with what the candidates choose.
    @TaskLocal static var collectsForSolidsWithoutCandidates = true

    /// What `drawScene` works out before it paints one 3D context.
    struct SceneOrder {
        /// `scenePolygons`' input and whole polygons.
        let input: ScenePolygons
        let whole: WholePolygons
        /// Per member: whether it may seal (`SharedEdges.sealCandidates`); empty when every fragment is collected
        /// without them (`collectsAll`, which reads none).
        let candidates: [Bool]
        /// Every fragment was collected in one walk (`sealing.fragments` are all of them).
        let collectsAll: Bool
        /// The fragments that may seal, back to front, and their seals; `nil`: none may.
        let sealing: (fragments: ScenePolygons, edges: SharedEdges)?
        /// Every fragment of the first walk, when there was one that did not collect all and they were all kept.
        let recording: BSPTree.Recording?
    }

    /// The depth order's set-up for `drawScene`: the scene's polygons, which members may seal, and — when some may —
    /// a first walk: collecting every fragment (most members may seal: solids), or only the candidates' while
    /// recording every fragment up to `BSPTree.Recording`'s bound, so that painting need not walk again.
    static func sceneOrder(_ members: [RenderMember], seals: Bool, collectsEveryFragment: Bool) -> SceneOrder {
        let (input, whole) = Painter.scenePolygons(members)
        // Per member, in one pass in member order (the nodes' records in the order they lie, each read once; the input's
        // order is a hash's):
        // - its outline, asked per sealable polygon and per fragment below (a copy of the member each time): worked out
        //   once, for the shaped members (most faces have no shape);
        // - whether it may seal, asked per polygon and per fragment below (only of members with a polygon); with it, how
        //   many polygons are sealable faces of a solid that has two or more (`solidFaces`).
        var outlines = MemoTable<[Vector3]>(count: members.count)
        var isSealable = [Bool](repeating: false, count: members.count), solidFaces = 0
        var perSolid = [Int32](repeating: 0, count: seals ? members.count : 0)
        for m in members.indices {
            if members[m].node.shape != nil { outlines[m] = .some(Painter.shapeOutline(members[m])) }
            guard seals, whole.isDrawn(m), Painter.isSealable(members[m]) else { continue }
            isSealable[m] = true
            let s = members[m].solid
            guard s >= 0 && s < members.count else { continue }
            perSolid[s] += 1
            // (A solid's second face counts its first too.)
            solidFaces += perSolid[s] == 2 ? 2 : perSolid[s] > 2 ? 1 : 0
        }
        let outline: (Int) -> [Vector3]? = { [outlines] in outlines[$0] ?? nil }
        let sealable: (Int) -> Bool = { [isSealable] in isSealable[$0] }
        // Collecting every fragment reads no candidates (`paintFragments`' first branch), so where that path is taken
        // from the structure alone the candidates are not looked for: when at least half the polygons are sealable faces
        // of solids with two or more (a lattice of cubes: the three faces each cube turns to the viewer, of six, which
        // took the candidates' two-walk path before — 3 000 candidates of 6 000 polygons is not more than half). The
        // collected path paints what the candidates' paths paint (`TwoWalkSealTests`, `SealShortcutTests`). Where every
        // sealable face is a candidate (the lattice: each visible face shares an edge with another of its cube), it is
        // the same work on the same edges: `SharedEdges` makes edges of sealable fragments only, in paint order either
        // way, so it finds the same seals in the same order; the fragments that do not seal add their outer edges alone.
        let candidates: [Bool], candidateCount: Int, collectsAll: Bool
        if solidFaces > 0 && 2 * solidFaces >= input.count && Self.collectsForSolidsWithoutCandidates {
            candidates = []
            candidateCount = 0
            collectsAll = true
        } else {
            candidates = SharedEdges.sealCandidates(input, outline: outline, sealable: sealable, solid: { members[$0].solid })
            candidateCount = candidates.reduce(0) { $0 + ($1 ? 1 : 0) }
            collectsAll = 2 * candidateCount > input.count || (collectsEveryFragment && candidateCount > 0)
        }
        var sealing: (fragments: ScenePolygons, edges: SharedEdges)?
        var recording: BSPTree.Recording?
        if collectsAll {
            let fragments = Painter.depthOrder(input, members: members)
            sealing = (fragments, SharedEdges(fragments: fragments, polygons: whole, outline: outline, sealable: sealable,
                                              solid: { members[$0].solid }))
        } else if candidateCount > 0 {
            // The candidates' fragments in one pool of corners (not an array per fragment).
            var fragments = PolygonPool(polygons: candidateCount, points: 4 * candidateCount)
            // Every fragment is recorded too, up to a bound, so that painting need not walk the tree again (a lattice
            // of cubes); a scene that makes more (crossing planes of which a few may seal) walks twice.
            var record = BSPTree.Recording(inputCorners: input.reduce(0) { $0 + $1.points.count })
            Painter.depthOrder(input, members: members) { f in
                record.append(f)
                guard candidates[f.member] else { return }
                fragments.append(f.points, member: f.member)
            }
            if record.isComplete { recording = record }
            let made = fragments.polygons
            sealing = (made, SharedEdges(fragments: made, polygons: whole, outline: outline, sealable: sealable,
                                         solid: { members[$0].solid }))
        }
        return SceneOrder(input: input, whole: whole, candidates: candidates, collectsAll: collectsAll, sealing: sealing,
                          recording: recording)
    }

    /// The planes of one 3D context back to front, split where they intersect: the painter's order.
    /// Members that draw nothing (zero opacity, nothing in front of the eye, culled back faces) are left out.
    static func depthOrder(_ members: [RenderMember]) -> ScenePolygons {
        depthOrder(scenePolygons(members).input, members: members)
    }

    /// `scenePolygons`' input through the BSP, collected.
    static func depthOrder(_ input: ScenePolygons, members: [RenderMember]) -> ScenePolygons {
        // (One pool of corners for the fragments, not an array each.)
        var out = PolygonPool(polygons: input.count, points: input.reduce(0) { $0 + $1.points.count })
        depthOrder(input, members: members) { out.append($0.points, member: $0.member) }
        return out.polygons
    }

    /// `scenePolygons`' input through the BSP, each fragment handed to `body` as it is made, back to front — or the
    /// same fragments from `recording`, when a first walk kept them all (`sceneOrder`).
    @discardableResult
    static func depthOrder(_ input: ScenePolygons, members: [RenderMember], replaying recording: BSPTree.Recording? = nil,
                           prefetchesRecords: Bool = false,
                           _ body: (BSPTree.Fragment) throws -> Void) rethrows -> BSPTree.Statistics {
        if let recording {
            // (Only a replay knows the fragments ahead: a walk hands each out as it finds it.)
            try recording.replay(ahead: { RenderNode.prefetch(members[$0].node.record) },
                                 distance: prefetchesRecords ? prefetchDistance : 0, body)
            return BSPTree.Statistics()
        }
        guard input.count > 1 else {
            for p in input { try body(BSPTree.Fragment(points: p.points, member: p.member, isWhole: true)) }
            return BSPTree.Statistics(fragments: input.count)
        }
        return try BSPTree.backToFront(input, rank: { (members[$0].zPosition, members[$0].treeIndex) }, body)
    }

    /// The polygons the BSP sorts, in its input order, with each drawn member's whole polygon (before splitting),
    /// indexed by member (`nil` for a member not drawn).
    static func scenePolygons(_ members: [RenderMember]) -> (input: ScenePolygons, whole: WholePolygons) {
        // Every polygon's corners in one pool (a quad each, mostly).
        var pool = PolygonPool(polygons: members.count, points: 4 * members.count)
        for i in members.indices {
            // (The member's fields read where they lie: a copy of the whole member costs more than these tests.)
            let node = members[i].node, transform = members[i].transform
            // Back faces: the plane's winding in the owner's plane is reversed (det < 0).
            if !node.isDoubleSided && Homography(transform).matrix.determinant < 0 { continue }
            guard node.opacity * members[i].inheritedOpacity > 0 else { continue }
            _ = Painter.depthPolygon(node, transform: transform, member: i, to: &pool)
        }
        guard pool.count > 1 else {
            let polygons = pool.polygons
            return (polygons, WholePolygons(polygons, members: members.count))
        }
        // The BSP's choices (which plane splits first, hence the order of planes that do not overlap, such as a
        // solid's faces) follow the planes' geometry, not tree order: where two such faces touch, the pixels would
        // otherwise depend on which was painted first. Tree order still decides between coplanar planes
        // (zPosition, then later on top: Core Animation's 2D rule), through the rank. The order is a hash of each
        // polygon's centroid: as good as a random order for the tree's balance (sorting by position would make
        // every split of a lattice of solids leave all the rest on one side), and the same for the same geometry.
        // (The keys from the pool's corners in place, and the polygons made once, in their order.)
        let keys = pool.centroids.map { Painter.geometricKey($0) }
        let order = keys.withUnsafeBufferPointer { keys in
            // Equal keys (coincident centroids) are ordered by member, which is the polygons' order (one polygon a
            // member, made in member order): a stable order by key is the order by (key, member), and a large scene's
            // keys are put in it by their leading bits (`stableKeyOrder`: a lattice's 6 000 keys took ≈ 80 000
            // comparisons).
            precondition((1 ..< pool.count).allSatisfy { pool.member($0 - 1) < pool.member($0) })
            if keys.count >= Self.fewestKeysDealtByBits { return keys.stableKeyOrder() }
            return keys.indices.sorted { i, j in
                keys[i] != keys[j] ? keys[i] < keys[j] : pool.member(i) < pool.member(j)
            }
        }
        let polygons = pool.polygons(in: order)
        return (polygons, WholePolygons(polygons, members: members.count))
    }

    /// From this many polygons up, `scenePolygons` orders its keys by their leading bits (`stableKeyOrder`; below, its
    /// 256 buckets cost more than sorting by comparison).
    static let fewestKeysDealtByBits = 256

    /// Each member's whole polygon (before splitting), indexed by member: `nil` for a member not drawn. Kept as an index
    /// into the scene's polygons (`scenePolygons`' input), not as a `[ScenePolygon?]` (see `MemoTable`).
    struct WholePolygons {
        private let polygons: ScenePolygons
        /// Per member: the index of its polygon in `polygons`, or -1.
        private let index: [Int32]

        init(_ polygons: ScenePolygons, members: Int) {
            var index = [Int32](repeating: -1, count: members)
            for (k, p) in polygons.enumerated() { index[p.member] = Int32(k) }
            self.polygons = polygons
            self.index = index
        }

        /// The number of members.
        var count: Int { index.count }

        subscript(member: Int) -> ScenePolygon? {
            let k = index[member]
            return k < 0 ? nil : polygons[Int(k)]
        }

        /// Whether `member` has a polygon (without copying it).
        func isDrawn(_ member: Int) -> Bool { index[member] >= 0 }
    }

    /// How one node is painted, decided once from its properties and its shade.
    struct Plan {
        /// How the background is filled.
        enum Background {
            case none
            /// A plain colour (with the overlay composited in when `overlay` was folded into it).
            case color(Color)
            /// An opaque colour under the node's Gouraud shading (`RenderNode.shade`) with nothing drawn over it: the
            /// corner-coloured mesh is the fill itself, so an edge pixel gets coverage × shaded colour exactly.
            case shadedColor(Color)
        }
        let background: Background
        /// Group opacity: the node's drawing is composited with this alpha (a group when below 1).
        let alpha: Double
        /// Gouraud shading of the whole drawing by the node's shade (a group shaded by MULTIPLY and ADD), when the
        /// mesh fill cannot serve: contents, text or sublayers are drawn over the background.
        /// (The plan keeps no `FaceShade`: copied into it per face, with its arrays retained and released, it was most
        /// of a plain face's plan.)
        let shadesGroup: Bool
        /// The shade's overlay still to draw over the drawing (`nil` when folded into the background's colour).
        let overlay: Color?
        /// The background, mesh and overlay cover the outline extended along its sealed edges.
        let isSealed: Bool

        /// `node` drawn as its context's member (its inherited opacity and shade).
        init(_ node: borrowing RenderNode, filter: borrowing ColorFilter, seal: Bool) {
            alpha = node.opacity * node.inheritedOpacity
            let backgroundColor = node.backgroundColor
            let opaque = (backgroundColor?.alpha ?? 0) >= 1
            let bare = node.isBare
            let (vertexShade, shadeOverlay, multiply, add) = Self.shadeFields(node.shade)
            isSealed = seal && opaque
            var overlay = shadeOverlay.flatMap { $0.alpha > 0 ? $0.clamped : nil }
            // (The shade's uniform part applied here, not as an inner filter: that is an array per face.)
            // (`backgroundColor` is clamped already, at the freeze — `RenderNode.Record` — and `clamped` leaves a clamped
            // colour as it is, to the bit: it is not clamped again here, a call per face.)
            if vertexShade, opaque, bare, let bg = backgroundColor {
                background = .shadedColor(filter.apply(bg, innerMultiply: multiply, add: add))
                shadesGroup = false
            } else if let bg = backgroundColor, bg.alpha > 0, !node.planeBounds.isEmpty {
                var fill = filter.apply(bg, innerMultiply: multiply, add: add)
                if let o = overlay, opaque, bare, !vertexShade {
                    // An opaque background with nothing drawn over it but the overlay: composited here, so the face
                    // is filled once (the same interior pixels, one coverage at the edges).
                    fill = Painter.opaque(fill, under: filter.apply(o))
                    overlay = nil
                }
                background = .color(fill)
                shadesGroup = vertexShade
            } else {
                background = .none
                shadesGroup = vertexShade
            }
            self.overlay = overlay
        }

        /// What a plan reads of a shade: whether it has Gouraud corners, its overlay and its uniform part, in one read
        /// of the shade (`node.shade?.field` copied the whole shade, its two arrays retained and released, once per
        /// field read: five times a face).
        @inline(never)
        private static func shadeFields(_ shade: FaceShade?)
            -> (vertexShade: Bool, overlay: Color?, multiply: Color?, add: Color?) {
            (shade?.vertexMultiply?.count == 4 || shade?.vertexAdd?.count == 4, shade?.overlay, shade?.multiply, shade?.add)
        }
    }

    /// Draws one ordinary layer, as its context's member (its inherited opacity and shade), whose bounds space
    /// `chain` maps to the device. `sealed` (device space) are the edges along which it goes under a face painted
    /// later (`SharedEdges`).
    func drawNode(_ node: RenderNode, chain: PlaneChain, filter: ColorFilter, sealed: [EdgeSeal] = []) throws {
        let plan = Plan(node, filter: filter, seal: !sealed.isEmpty)
        guard plan.alpha > 0 else { return }
        let bounds = node.planeBounds
        let inner = filter.inner(multiply: node.shade?.multiply, add: node.shade?.add)
        let outline = chain.map(node.outline)
        // A sealed face is filled further along its sealed edges only (under the later face), so shared edges show
        // no background; its outline mask, Gouraud shading and overlay cover that same outline, so no unshaded
        // fringe remains. Its other edges stay exact.
        let filled = plan.isSealed ? outline.map { $0.extended(along: sealed, by: seal, tolerance: Self.deviceTolerance) } : outline
        try cr.withSavedState {
            if node.masksToBounds { try cr.clip(outline) }
            // A face's outline masks all it draws.
            if node.shape != nil, !node.masksToBounds { try cr.clip(filled) }
            if plan.alpha < 1 { try cr.pushGroup() }
            if plan.shadesGroup { try cr.pushGroup() }

            var overlay = plan.overlay
            switch plan.background {
            case .none:
                break
            case let .color(fill):
                cr.setColor((fill.red, fill.green, fill.blue, fill.alpha))
                try cr.fill(filled)
            case let .shadedColor(color):
                // The mesh reaches past the outline (by half a pixel at least): a partly covered edge pixel whose
                // centre lies outside the patch would otherwise take no colour at all. Its outer points move 4·grow,
                // about 2 px out at the middle of an edge and 1.4 px near a corner: the seal's reach, up to the
                // farthest pixel an edge crosses. Kept at half a pixel so the patches, and the interior colours they
                // interpolate, do not change with sealing.
                // (A plan shades only a node with a shade.)
                if let shade = node.shade,
                   try fillShadedColor(color, shade: shade, overlay: overlay.map(filter.apply), bounds: bounds,
                                       outline: filled, chain: chain, grow: plan.isSealed ? max(pixel / 2, 0.5) : 0.5) {
                    overlay = nil
                }
            }
            if let image = node.contents,
               let rect = RenderNode.contentsRect(image, gravity: node.contentsGravity, scale: node.contentsScale, in: bounds) {
                try drawImage(image, in: rect, chain: chain, filter: inner)
            }
            if let text = node.text, !node.textRings.isEmpty {
                source(text.foregroundColor, inner)
                try cr.fill(chain.map(node.textRings))
            }
            // (Read once: a node's members are made from its render tree's table when asked for.)
            let members = node.members
            if !members.isEmpty { try drawScene(members, chain: chain, filter: inner) }

            if plan.shadesGroup, let shade = node.shade {
                try applyVertexShade(shade, bounds: bounds, clip: filled, chain: chain, grow: plan.isSealed ? pixel / 2 : 0)
            }
            if let overlay {
                source(overlay, filter)
                try cr.fill(filled)
            }
            if node.borderWidth > 0, node.borderColor.alpha > 0 {
                source(node.borderColor, filter)
                try cr.fill(chain.map(Outlines.border(bounds, radius: node.cornerRadius, width: node.borderWidth)),
                            evenOdd: true)
            }
            if plan.alpha < 1 { try cr.popGroup(alpha: plan.alpha) }
        }
    }

    /// The opaque colour `c` with `overlay` composited over it (source-over): what a face filled with `c` and then
    /// covered by the overlay shows, so the two can be one fill.
    static func opaque(_ c: Color, under overlay: Color) -> Color {
        let keep = 1 - overlay.alpha
        return Color(red: c.red * keep + overlay.red * overlay.alpha, green: c.green * keep + overlay.green * overlay.alpha,
                     blue: c.blue * keep + overlay.blue * overlay.alpha, alpha: 1)
    }

    /// Fills `outline` with an opaque colour under Gouraud shading, exactly: a mesh whose corner colours are
    /// `color` × the corner multiply (with `overlay`, already filtered, composited onto each corner when there
    /// is no add term: compositing a constant is linear, so per corner is per pixel), then the corner add term
    /// by ADD, which is linear in coverage too. Returns whether the overlay was composited here (false when
    /// the add term comes between: the caller draws it after).
    private func fillShadedColor(_ color: Color, shade: FaceShade, overlay: Color?, bounds: PlaneRect,
                                 outline: [Ring], chain: PlaneChain, grow: Double) throws -> Bool {
        let multiply = shade.vertexMultiply.flatMap { $0.count == 4 ? $0 : nil } ?? Array(repeating: .white, count: 4)
        let add = shade.vertexAdd.flatMap { $0.count == 4 ? $0 : nil }
        let corners = multiply.map { m -> Color in
            let k = m.clamped
            var c = Color(red: color.red * k.red, green: color.green * k.green, blue: color.blue * k.blue, alpha: 1)
            if add == nil, let o = overlay { c = Painter.opaque(c, under: o) }
            return c
        }
        guard let shaded = try cornerMesh(corners, bounds: bounds, chain: chain, grow: grow) else {
            // A corner does not project (behind the viewer): unshaded, as the grouped path leaves it.
            cr.setColor((color.red, color.green, color.blue, 1))
            try cr.fill(outline)
            return false
        }
        try cr.fill(outline, with: shaded)
        if let add, let mesh = try cornerMesh(add, bounds: bounds, chain: chain, grow: grow) {
            try cr.fill(outline, with: mesh, operator: CAIRO_OPERATOR_ADD)
        }
        return add == nil
    }

    /// Gouraud shading of the plane's own drawing (the open group): corner colours interpolated by a Cairo mesh
    /// patch over the projected corners, composited with MULTIPLY (then ADD) and masked by the drawing's own
    /// alpha, clipped to the rounded bounds. Exact on opaque pixels; the interpolation is linear in device
    /// space (not perspective-correct), and partially covered edge pixels are approximated (a plain colour
    /// face takes `fillShadedColor` instead, exact there too).
    private func applyVertexShade(_ shade: FaceShade, bounds: PlaneRect, clip: [Ring], chain: PlaneChain,
                                  grow: Double) throws {
        let content = try cr.popGroupPattern()
        try cr.paint(content)
        for (colors, op) in [(shade.vertexMultiply, CAIRO_OPERATOR_MULTIPLY), (shade.vertexAdd, CAIRO_OPERATOR_ADD)] {
            guard let colors, colors.count == 4,
                  let mesh = try cornerMesh(colors, bounds: bounds, chain: chain, grow: grow) else { continue }
            try cr.withSavedState {
                try cr.clip(clip)
                try cr.mask(mesh, with: content, operator: op)
            }
        }
    }

    /// A Cairo mesh over the plane's projected bounds with one colour per corner of `bounds` (clamped), or nil
    /// when a corner does not project. The colours blend bilinearly **in the plane**, as Gouraud shading does
    /// with perspective-correct interpolation: a single patch would blend them linearly in device space, so under
    /// perspective the colour at the face's projected centre would not be the mean of its corners. The plane is
    /// cut into `meshDivisions`² patches, each with the plane-bilinear colours at its corners; within a patch the
    /// projective map is close to affine. `grow` (device pixels) pushes the outer ring of the grid out to cover a
    /// sealed face's dilated fringe; the colours there extend unchanged.
    private func cornerMesh(_ colors: [Color], bounds: PlaneRect, chain: PlaneChain, grow: Double) throws -> CairoPattern? {
        guard colors.count == 4 else { return nil }
        let n = Self.meshDivisions
        var device: [PlanePoint] = []
        device.reserveCapacity((n + 1) * (n + 1))
        for j in 0...n {
            for i in 0...n {
                let u = Double(i) / Double(n), v = Double(j) / Double(n)
                guard let p = chain.map(point: PlanePoint(bounds.minX + u * bounds.width, bounds.minY + v * bounds.height))
                else { return nil }
                device.append(p)
            }
        }
        if grow > 0 {
            // Each outer point moves 4·grow away from the centre: every edge moves out by at least `grow` for the
            // quads a face projects to (corner angles are never sharper than ~15° there).
            let outer = [device[0], device[n], device[n * (n + 1) + n], device[n * (n + 1)]]
            let cx = outer.map(\.x).reduce(0, +) / 4, cy = outer.map(\.y).reduce(0, +) / 4
            for j in 0...n {
                for i in 0...n where i == 0 || i == n || j == 0 || j == n {
                    let p = device[j * (n + 1) + i], dx = p.x - cx, dy = p.y - cy, d = (dx * dx + dy * dy).squareRoot()
                    if d > 0 { device[j * (n + 1) + i] = PlanePoint(p.x + dx / d * 4 * grow, p.y + dy / d * 4 * grow) }
                }
            }
        }
        let k = colors.map(\.clamped)
        func color(_ i: Int, _ j: Int) -> (Double, Double, Double) {
            let u = Double(i) / Double(n), v = Double(j) / Double(n)
            let w = [(1 - u) * (1 - v), u * (1 - v), u * v, (1 - u) * v]  // corners in `bounds.corners` order
            return (zip(w, k).reduce(0) { $0 + $1.0 * $1.1.red }, zip(w, k).reduce(0) { $0 + $1.0 * $1.1.green },
                    zip(w, k).reduce(0) { $0 + $1.0 * $1.1.blue })
        }
        var patches: [CairoPattern.Patch] = []
        for j in 0..<n {
            for i in 0..<n {
                let cell = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)]
                patches.append(CairoPattern.Patch(corners: cell.map { device[$0.1 * (n + 1) + $0.0] },
                                                  colors: cell.map { color($0.0, $0.1) }))
            }
        }
        return try CairoPattern.mesh(patches)
    }

    /// Patches per side of a Gouraud mesh (see `cornerMesh`).
    static let meshDivisions = 4
}
