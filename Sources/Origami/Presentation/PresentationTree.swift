internal import COrigamiPrefetch
import Foundation
import Synchronization

/// An immutable, `Sendable` picture of a layer tree: the one model of its 3D contexts (DESIGN §8).
///
/// Core Animation draws from a *presentation* copy of the model layers; this is Origami's. Built from a layer
/// tree in one iterative walk, it records per layer (a **node**, numbered in tree pre-order, the root 0) the
/// drawing properties, the 3D context the layer is drawn into, the 4×4 matrix into that context and the inverse
/// plane map back, the facing (the plane map's determinant sign), the transform layers it is chained through,
/// the inherited opacity and hit-testability; and per context its members in tree order. Rendering, every hit-test
/// policy and its answers, lighting's transforms and `inspect` read it; nothing else knows the flattening rule.
///
/// The tree never changes after it is built, so any number of threads may read it at once, and editing the
/// layers afterwards does not change its answers. It keeps the layers alive only to hand them back as the
/// identity of an answer (`layer(_:)`); it never reads them again.
public struct PresentationTree: Sendable {
    /// Where the root is placed: the space the tree's context −1 (the query plane, or the canvas) is in.
    public enum RootPlacement: Sendable {
        /// In the root's superlayer's bounds space (`transformToSuperlayer`): hit testing's contract.
        case superlayer
        /// On a canvas that is the root's virtual superlayer: by the root's own position, transform and zPosition,
        /// whatever its superlayer (the renderer's contract).
        case canvas
        /// Not placed: context −1 is the root's own bounds space (a transform layer's expanded sublayer scene).
        case ownSpace
        /// Not placed, and the root drawn as an ordinary layer whatever its class: context −1 is the root's own
        /// bounds space and the root its one member (`render(in:)`, Core Animation's `renderInContext:`). Apple's
        /// `renderInContext:` draws a `CATransformLayer` receiver as it draws a `CALayer` — background, border and
        /// `masksToBounds` apply — as recorded against Apple in the GNUstep QuartzCore tests (a fork's
        /// `Tests/quartzcore/CATransformLayer` rendering test); only the compositor leaves a transform layer's
        /// own content out.
        case renderedInOwnSpace
    }

    /// What kind of layer a node was frozen from.
    public enum Kind: Hashable, Sendable {
        /// An ordinary `Layer`: it flattens its sublayers into its own plane.
        case layer
        /// A `TransformLayer`: drawn by nobody; its sublayers join its context's 3D space.
        case transformLayer
        /// A `TextLayer`.
        case text
        /// A `Face` of a solid.
        case face
    }

    /// One layer's drawing properties, as they were when the tree was built. The tree keeps no `Node`s: `self[i]`
    /// makes one from the tree's rows (`Plane`, `Row`, the columns and `Extra`), with the values the layer had.
    public struct Node: Sendable {
        /// The layer's `name`.
        public let name: String?
        /// What kind of layer the node was frozen from.
        public let kind: Kind
        /// Bounds, position, anchor, zPosition and transforms, at the tree's time.
        public let geometry: LayerGeometry
        /// `Layer.backgroundColor`.
        public let backgroundColor: Color?
        /// `Layer.contents`.
        public let contents: Bitmap?
        /// `Layer.contentsGravity`.
        public let contentsGravity: ContentsGravity
        /// `Layer.contentsScale`: pixels per point of the contents.
        public let contentsScale: Double
        /// `Layer.borderWidth`, in points.
        public let borderWidth: Double
        /// `Layer.borderColor`.
        public let borderColor: Color
        /// `Layer.cornerRadius`, in points.
        public let cornerRadius: Double
        /// The layer's own `opacity` (a transform layer's is multiplied into its members instead).
        public let opacity: Double
        /// `Layer.masksToBounds`.
        public let masksToBounds: Bool
        /// `Layer.isDoubleSided`.
        public let isDoubleSided: Bool
        /// `Layer.isHidden`, of this layer alone.
        public let isHidden: Bool
        /// `Layer.allowsHitTesting`, of this layer alone.
        public let allowsHitTesting: Bool
        /// `Layer.lighting`: shades the members of this layer's context when rendered.
        public let lighting: (any FaceShader)?
        /// What a text layer draws: present exactly when `kind` is `.text`.
        public let text: TextStyle?
        /// A solid face's outline in its bounds space (`Face.polygon`).
        public let outline: [CGPoint]?
        /// The superlayer's node; −1 for the root.
        public let parent: Int
        /// Levels below the root (0 for the root).
        public let level: Int
        /// The transform from this layer's bounds space relative to the transform layer holding it (its placement
        /// and that layer's sublayer space), or its placement alone when its superlayer flattens: a face's
        /// transform relative to its solid, the book's `face.transform` (lighting's object space).
        public let objectTransform: Transform3D
        /// The layer and every transform layer between it and its context is drawable: not hidden, and with
        /// finite geometry, opacity, border width, corner radius and contents scale.
        let isDrawableInContext: Bool
        /// The layer and every transform layer between it and its context receives touches under `.frontmost`.
        let receivesInContext: Bool
        /// `lighting != nil`, without a copy of the existential (a walk over every node asks it).
        package let isLit: Bool

        /// `geometry.bounds`: the layer's own coordinate space.
        public var bounds: CGRect { geometry.bounds }
    }

    /// Per node, what a render reads besides its plane row (`Plane`): plain data (no references), written once in
    /// place by the freeze, so a render reads each field where it lies. The geometry, object transform and name
    /// are columns of their own; what few layers have (image, text, outline, lighting, a placement of contents
    /// other than the default) is an `Extra`, kept only for the layers that have it.
    package struct Row {
        /// What kind of layer the node was frozen from.
        package let kind: Kind
        /// `Node.isDrawableInContext`.
        package let isDrawableInContext: Bool
        /// `Node.receivesInContext`.
        package let receivesInContext: Bool
        /// The layer has a lighting (`Extra.lighting`).
        package let isLit: Bool
        /// The superlayer's node; −1 for the root.
        package let parent: Int
        /// Levels below the root.
        package let level: Int
        package let backgroundColor: Color?
        package let borderColor: Color
        package let borderWidth: Double
        package let cornerRadius: Double
        /// `geometry.bounds`: a render reads the bounds alone of a node's geometry (a tree frozen for a render keeps
        /// the geometry only of the layers with sublayers).
        package let bounds: CGRect
        /// The node's `Extra` in `Storage.extras`; −1: none (no image, text, outline or lighting, and contents
        /// placed by default: gravity `.resize`, scale 1).
        package let extra: Int
    }

    /// The fields few layers have, each holding references: kept for those layers alone (`Row.extra`).
    package struct Extra {
        package let contents: Bitmap?
        package let contentsGravity: ContentsGravity
        package let contentsScale: Double
        package let text: TextStyle?
        package let outline: [CGPoint]?
        package let lighting: (any FaceShader)?

        /// A node without an `Extra` has no image, text, outline or lighting, its contents' gravity is `.resize` and
        /// their scale this (a layer gets an extra for any other scale, compared by its bits: a NaN or −0 is kept).
        static let defaultScale = 1.0
    }

    /// The plain data a query reads per node: no references, so the hot loops read it in place without
    /// reference counting (threads that share a tree would otherwise pass the counts' cache lines back and forth).
    /// (`package`: a render reads its drawing fields in place too.)
    package struct Plane {
        /// A transform layer: drawn by nobody, passed through by queries.
        package let isTransformLayer: Bool
        package let isHidden: Bool
        package let allowsHitTesting: Bool
        package let opacity: Double
        package let masksToBounds: Bool
        package let isDoubleSided: Bool
        package let zPosition: Double
        /// The bounds (standardised) in the content space, for `contains` without reading the node.
        let bounds: ContentBounds
        /// Where a solid face's outline lies in `outlinePoints`; empty for none.
        let outline: Range<Int>
        /// The context this layer is drawn into: the nearest flattening proper ancestor, or −1 for the root's
        /// placement space.
        package let owner: Int
        /// From the layer's bounds space into its owner's (4×4, z kept through transform layers).
        package let toOwner: Transform3D
        // The inverse plane map (owner plane → layer plane) is `Storage.fromOwner`, made on a tree's first query.
        /// The plane map's orientation in the owner: negative when the layer is seen from behind.
        let determinant: Double
        /// The layer's content space is its bounds mirrored in y (`LayerGeometry.boundsMirror`):
        /// `toOwner`, `Storage.fromOwner` and the local points of queries are in content space.
        var contentFlipped: Bool { bounds.isFlipped }
        /// Whether the layer is a face of its context: a sublayer of a transform layer, or placed by a non-affine
        /// matrix (see `faceNode`).
        let isFacePlane: Bool
        /// The product of the (clamped) opacities of the transform layers between the owner and the layer.
        package let inheritedOpacity: Double
        /// The sublayers: `childList[childStart ..< childStart + childCount]` in `sublayers` order, and the same
        /// range of `childListByZ` in `.coreAnimation`'s order reversed (so a stack pops them in order).
        var childStart = 0, childCount = 0

        func receivesHits(_ policy: HitTestPolicy) -> Bool {
            !isHidden && allowsHitTesting && (policy == .coreAnimation || opacity >= 0.01)
        }

        func contains(_ p: CGPoint) -> Bool { bounds.contains(p) }

        func boundsPoint(_ p: CGPoint) -> CGPoint { bounds.boundsPoint(p) }
    }

    /// A layer's bounds as seen from its content space: what a query point is tested against.
    struct ContentBounds {
        let minX: Double, minY: Double, maxX: Double, maxY: Double
        /// The content space is the bounds mirrored in y.
        let isFlipped: Bool

        /// `Layer.contains(_:)`: min edges inside, max edges outside — of the bounds, so in a mirrored content
        /// space the bounds' minY is the content's maxY.
        @inline(__always)
        func contains(_ p: CGPoint) -> Bool {
            let x = Double(p.x), y = Double(p.y)
            guard x >= minX && x < maxX else { return false }
            return isFlipped ? y > minY && y <= maxY : y >= minY && y < maxY
        }

        /// A point of the content space in the bounds space (the mirror is its own inverse).
        func boundsPoint(_ p: CGPoint) -> CGPoint {
            isFlipped ? CGPoint(x: p.x, y: CGFloat(minY + maxY) - p.y) : p
        }
    }

    /// Copy on write is never needed: nothing mutates a tree after `init`. One class holds the big tables so
    /// that passing a tree around copies a reference.
    final class Storage: @unchecked Sendable {
        // `@unchecked`: `layers` holds non-Sendable class references, kept only as identities to hand back.
        // The query tables live in buffers the storage owns rather than in arrays: see `Plane`. So do the node
        // rows and columns (one row per node each; `layers`, `names` and `extras` hold references, the others are
        // plain data).
        /// The number of nodes.
        let count: Int
        /// Empty in a tree frozen for a render alone (`init(_:placement:time:renderingOnly:)`).
        let layers: UnsafeBufferPointer<Layer>
        let planes: UnsafeBufferPointer<Plane>
        let rows: UnsafeBufferPointer<Row>
        let geometries: UnsafeBufferPointer<LayerGeometry>
        let objectTransforms: UnsafeBufferPointer<Transform3D>
        let names: UnsafeBufferPointer<String?>
        /// Per node, whether a render reaches it (`renderedNodes`): worked out by the freeze's walk, where the node's
        /// verdict and its context's are at hand (a pass of its own read two rows of every node back from memory).
        let rendered: UnsafeBufferPointer<Bool>
        /// The few nodes' `Extra`s, by `Row.extra`.
        let extras: UnsafeBufferPointer<Extra>
        let outlinePoints: UnsafeBufferPointer<CGPoint>
        let childList: UnsafeBufferPointer<Int>
        let childListByZ: UnsafeBufferPointer<Int>
        /// Members of context `c` (−1 included): `memberList[memberStart[c + 1] ..< memberStart[c + 2]]`, every
        /// non-transform layer drawn into it in tree order.
        let memberList: UnsafeBufferPointer<Int>
        let memberStart: UnsafeBufferPointer<Int>
        /// The same, leaving out members that do not receive touches under `.frontmost` (themselves or a
        /// transform layer between them and the context): what a depth-order query walks.
        let hitMemberList: UnsafeBufferPointer<Int>
        let hitMemberStart: UnsafeBufferPointer<Int>
        /// The face above the root when the root is no face itself (see `result(_:local:)`), and the solids
        /// holding it and the root.
        let faceAboveRoot: Layer?
        let solidAboveFace: TransformLayer?, rootSolid: TransformLayer?
        /// The first-hit queries' compiled form: the address of a `HitPrograms` made on first use, or 0.
        let hitProgramsAddress = Atomic<Int>(0)
        /// The address of `fromOwner`'s buffer once a query made it, or 0.
        private let fromOwnerAddress = Atomic<Int>(0)

        /// `columns`: buffers of at least `count` rows, the first `count` initialized, that the storage takes
        /// over (it deinitializes and frees them); it takes over the child and member lists too (`hitMembers` may
        /// be `members` itself: then freed once).
        init(count: Int, columns: Columns, extras: [Extra], outlinePoints: [CGPoint], childList: UnsafeMutableBufferPointer<Int>,
             childListByZ: UnsafeMutableBufferPointer<Int>, members: Grouped, hitMembers: Grouped, faceAboveRoot: Layer?,
             rootSolid: TransformLayer?) {
            self.count = count
            layers = UnsafeBufferPointer(rebasing: columns.layers[..<min(count, columns.layers.count)])
            planes = UnsafeBufferPointer(rebasing: columns.planes[..<count])
            rows = UnsafeBufferPointer(rebasing: columns.rows[..<count])
            geometries = UnsafeBufferPointer(rebasing: columns.geometries[..<count])
            objectTransforms = UnsafeBufferPointer(rebasing: columns.objectTransforms[..<count])
            names = UnsafeBufferPointer(rebasing: columns.names[..<count])
            rendered = UnsafeBufferPointer(rebasing: columns.rendered[..<count])
            self.extras = Self.frozen(extras)
            self.outlinePoints = Self.frozen(outlinePoints)
            self.childList = UnsafeBufferPointer(childList)
            self.childListByZ = UnsafeBufferPointer(childListByZ)
            memberList = UnsafeBufferPointer(members.list); memberStart = UnsafeBufferPointer(members.start)
            hitMemberList = UnsafeBufferPointer(hitMembers.list); hitMemberStart = UnsafeBufferPointer(hitMembers.start)
            self.faceAboveRoot = faceAboveRoot
            solidAboveFace = faceAboveRoot?.superlayer as? TransformLayer
            self.rootSolid = rootSolid
        }

        deinit {
            childList.deallocate(); childListByZ.deallocate(); memberList.deallocate(); memberStart.deallocate()
            if hitMemberList.baseAddress != memberList.baseAddress { hitMemberList.deallocate(); hitMemberStart.deallocate() }
            planes.deallocate(); outlinePoints.deallocate()
            rows.deallocate(); geometries.deallocate(); objectTransforms.deallocate(); rendered.deallocate()
            UnsafeMutableBufferPointer(mutating: layers).deinitialize().deallocate()
            PresentationTree.destroy(names: UnsafeMutablePointer(mutating: names.baseAddress!), count: count)
            UnsafeMutableBufferPointer(mutating: extras).deinitialize().deallocate()
            if let inverses = UnsafeMutablePointer<Homography?>(bitPattern: fromOwnerAddress.load(ordering: .acquiring)) {
                inverses.deallocate()
            }
            if let programs = UnsafeMutablePointer<HitPrograms>(bitPattern: hitProgramsAddress.load(ordering: .acquiring)) {
                HitPrograms.destroy(programs)
            }
        }

        /// Per node, the inverse plane map: owner plane → layer plane (`Homography(planes[i].toOwner).inverted()`);
        /// `nil` when edge-on, singular or not finite. Only queries read it: it is made on a tree's first query
        /// (a tree frozen to be drawn never makes it: a 3×3 inversion per layer), and published as
        /// `hitProgramsAddress` is — threads that race to make it each make one, the first published is kept.
        @inline(__always)
        var fromOwner: UnsafeBufferPointer<Homography?> {
            let address = fromOwnerAddress.load(ordering: .acquiring)
            guard let made = UnsafePointer<Homography?>(bitPattern: address) else { return makeFromOwner() }
            return UnsafeBufferPointer(start: made, count: planes.count)
        }

        @inline(never)
        private func makeFromOwner() -> UnsafeBufferPointer<Homography?> {
            let mine = UnsafeMutablePointer<Homography?>.allocate(capacity: max(1, planes.count))
            for (i, plane) in planes.enumerated() { (mine + i).initialize(to: Homography(plane.toOwner).inverted()) }
            let (won, theirs) = fromOwnerAddress.compareExchange(expected: 0, desired: Int(bitPattern: mine),
                                                                 ordering: .acquiringAndReleasing)
            if won { return UnsafeBufferPointer(start: mine, count: planes.count) }
            mine.deallocate()
            return UnsafeBufferPointer(start: UnsafePointer<Homography?>(bitPattern: theirs)!, count: planes.count)
        }

        /// The per-node buffers a freeze writes, each allocated for the counted layers and initialized a row at
        /// a time, in node order.
        struct Columns {
            let layers: UnsafeMutableBufferPointer<Layer>
            let planes: UnsafeMutableBufferPointer<Plane>
            let rows: UnsafeMutableBufferPointer<Row>
            let geometries: UnsafeMutableBufferPointer<LayerGeometry>
            let objectTransforms: UnsafeMutableBufferPointer<Transform3D>
            let names: UnsafeMutableBufferPointer<String?>
            let rendered: UnsafeMutableBufferPointer<Bool>

            /// `layers`: whether the layers column is kept (not for a render alone: empty).
            init(capacity: Int, layers keepsLayers: Bool) {
                planes = .allocate(capacity: capacity); rows = .allocate(capacity: capacity); rendered = .allocate(capacity: capacity)
                // (A render's tree has one row more: its scratch slot, `init(_:placement:time:renderingOnly:)`.)
                geometries = .allocate(capacity: keepsLayers ? capacity : capacity + 1); objectTransforms = .allocate(capacity: capacity)
                names = .allocate(capacity: capacity); layers = .allocate(capacity: keepsLayers ? capacity : 0)
            }
        }

        /// A copy of `array` in a buffer this storage owns (to be deinitialized if `T` holds references).
        static func frozen<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: array.count)
            _ = buffer.initialize(fromContentsOf: array)
            return UnsafeBufferPointer(buffer)
        }
    }

    let storage: Storage

    /// The bytes of a layer's object the freeze asks for ahead of its visit: a face's object (816 bytes, measured:
    /// the stored properties of `Layer`, then `Face`'s), the most common kind; a plain layer's ends a few bytes before,
    /// a subclass's own properties, which the freeze does not read, after. (A hint only: a size that goes stale asks
    /// for a line too few or too many and changes no value.)
    private static let prefetchedLayerBytes: UInt = 816

    /// Freezes the tree of `root`, placing the root as `placement` says.
    ///
    /// `time`: the presentation at that time of the root's *parent* (the scene's time for a scene's root), with
    /// every animation applied (DESIGN §9): each layer's local time is carried down the walk, and a layer with
    /// animations is frozen from an animated copy of its drawing properties (geometry, opacity, colours, border,
    /// corner radius, lighting) — its sublayers are not laid out again for animated bounds, as in Core Animation.
    /// `nil`: the model, animations ignored. The root's superlayer, when placed in it, is read as the model.
    ///
    /// Layout that is needed runs first, on the model layers of the root's whole tree (`layoutTreeIfNeeded()`),
    /// as Core Animation lays out before it commits; a tree laid out already costs one flag check. Animated values
    /// never cause layout. Readers of one tree on several threads lay it out once (the others wait for it).
    public init(_ root: Layer, placement: RootPlacement = .superlayer, time: Double? = nil) {
        self.init(root, placement: placement, time: time, renderingOnly: false)
    }

    /// `init(_:placement:time:)`; `renderingOnly`: a tree a render reads and drops (`RenderTree(root:)`), without
    /// what only queries read — the layers column (`layer(_:)`, retained per layer and released at its teardown:
    /// ≈ 7 000 cold layer headers touched again for a lattice), the child lists, the hit members, and the geometry
    /// of layers without sublayers (a render reads their bounds, `Row.bounds`). Such a tree must be asked for no
    /// hit test, no `layer(_:)`, `transformLayer(_:)`, `self[i]` or `geometry(of:)` (but of a layer with
    /// sublayers); every other answer is the same.
    package init(_ root: Layer, placement: RootPlacement, time: Double?, renderingOnly: Bool) {
        root.layoutTreeIfNeeded()
        var outlinePoints: [CGPoint] = []
        var extras: [Extra] = []
        // One row per layer goes into each table: counting the layers first sizes them once. Grown by doubling, the
        // tables of a 7 000-layer tree were copied whole about a dozen times.
        // (Counted a sublayer list at a time, the lists read unretained (`Layer.unretainedSublayers`: the root is
        // the caller's, the layout is done, and nothing changes the tree until the walk below has read it).)
        var layerCount = 1
        var pending = [Layer.unretainedSublayers(of: .passUnretained(root))]
        while let sublayers = pending.popLast() {
            layerCount += sublayers.count
            for i in 0..<sublayers.count {
                let list = Layer.unretainedSublayers(of: sublayers[i])
                if list.count > 0 { pending.append(list) }
            }
        }
        // The rows are written straight into the buffers the tree's storage keeps (a table of 7 000 rows was
        // built in an array, then copied whole into the storage's buffer), each field once: no `Node` is built (one
        // was, ≈ 700 bytes in a temporary, then copied into an array, with the geometry copied twice on the way).
        let columns = Storage.Columns(capacity: layerCount, layers: !renderingOnly)
        let planes = columns.planes, rows = columns.rows
        // Every member receives touches (themselves and the transform layers between them and their context).
        var everyMemberReceives = true
        // Per node, what its sublayers read of it besides its rows: its sublayer space, and whether their content
        // space is mirrored (its own parity and flip). Tables of their own (reading the parent's
        // `geometry.isGeometryFlipped` out of a node table copied the parent's whole geometry), only for this walk,
        // and written only for a layer with sublayers: only a sublayer reads its parent's (a leaf, every face of a
        // solid, neither forms its sublayer space nor writes a row of 129 bytes).
        // (With room after it for `memberGroup`.)
        let sublayerSpace = UnsafeMutablePointer<Transform3D>.allocate(capacity: layerCount + (layerCount + 15) / 16)
        let sublayersFlipped = UnsafeMutablePointer<Bool>.allocate(capacity: layerCount)
        defer { sublayerSpace.deallocate(); sublayersFlipped.deallocate() }
        // Per node, its group in the member lists (its owner; −2: a transform layer, no member), written by the walk:
        // the grouping after it reads these, not the node's plane (each of its two passes over the planes read a
        // line of every node back from memory: the table outgrows the L2 cache). In the sublayer spaces' allocation
        // (with allocations of their own, this and the scratch row made a small tree's freeze ≈ 5 % more instructions).
        let memberGroup = UnsafeMutableRawPointer(sublayerSpace + layerCount).bindMemory(to: Int.self, capacity: layerCount)
        // Where a render's tree freezes the geometry it does not keep: the row after the column's last (plain data:
        // written over, never deinitialized).
        let scratchGeometry = columns.geometries.baseAddress! + layerCount
        // Per node, whether its content space is its bounds mirrored (`q` in `LayerGeometry.boundsMirror`).
        // A root placed on a canvas starts upright; a root placed in its superlayer's bounds space carries the
        // parity of the flips above it, and that space is itself mirrored on screen when the flips above the
        // superlayer are odd — then a winding in it reads the other way round.
        let rootFlipped = placement == .superlayer && (root.superlayer?.contentsAreFlipped() ?? false)
        // The parity above the superlayer: the superlayer's own flag taken back out of `rootFlipped`.
        let rootSpaceMirrored = placement == .superlayer && rootFlipped != (root.superlayer?.isGeometryFlipped ?? false)
        // (layer, parent node, whether the transform layers between it and its owner are drawable / receive,
        // the parent's local time). In a buffer of the counted size (every layer is pushed once), and unretained:
        // the root is the caller's, and every other layer is held by its superlayer's `sublayers`, which nothing
        // changes during the walk (an array retained each layer and checked its uniqueness per push).
        let stack = UnsafeMutablePointer<(Unmanaged<Layer>, Int, Bool, Bool, Double)>.allocate(capacity: layerCount)
        defer { stack.deallocate() }
        stack.initialize(to: (.passUnretained(root), -1, true, true, time ?? 0))
        var stackCount = 1, index = 0
        // A lit layer's lighting, from where it is read until its `Extra` takes it. One variable for the walk, set
        // only for lit layers: a local per layer was destroyed through the existential's value witnesses for every
        // layer, lit or not (≈ 60 instructions each).
        var lighting: (any FaceShader)? = nil
        let prefetchedLayerBytes = Self.prefetchedLayerBytes
        while stackCount > 0 {
            stackCount -= 1
            let (unmanaged, parent, chainDrawable, chainReceives, parentTime) = stack[stackCount]
            // The layer visited next (pre-order: the first sublayer, else the stack's top) is asked from memory now and
            // read while this one is frozen: a lattice's 7 000 layer objects (≈ 6 MB) are out of the caches, and each
            // visit waited on a dozen lines of its layer.
            let sublayers = Layer.unretainedSublayers(of: unmanaged)
            if sublayers.count > 0 || stackCount > 0 {
                let next = sublayers.count > 0 ? sublayers[0] : stack[stackCount - 1].0
                origami_prefetch_bytes(next.toOpaque(), prefetchedLayerBytes)
            }
            // A layer with sublayers writes rows of its own far from the last ones written (its sublayer space, and its
            // geometry in a tree for a render alone: one row in seven for a lattice): their lines are asked for now, so
            // the stores at the end of the visit do not wait on them.
            if sublayers.count > 0 {
                origami_prefetch_write_bytes(sublayerSpace + index, UInt(MemoryLayout<Transform3D>.size))
                if renderingOnly {
                    origami_prefetch_write_bytes(columns.geometries.baseAddress! + index, UInt(MemoryLayout<LayerGeometry>.size))
                }
            }
            // The layer is not retained for its visit: its superlayer's list (the caller, for the root) holds it.
            unmanaged._withUnsafeGuaranteedRef { layer in
                // The walk visits the layers the count did (nothing edits the tree in between; the pushes are checked).
                precondition(index < layerCount, "the layer tree changed while it was frozen")
                // The drawing properties an animation may change: a layer without animations (or with no time) has its
                // own read straight into them, as with no time at all.
                let localTime = time == nil ? 0 : layer.localTime(fromParent: parentTime)
                // The geometry goes straight into its column, and one local copy is read from there: assigned to a
                // local in both branches, it was copied twice more where they met. (Read from the column in place, it was
                // copied out for every method called on it: the compiler cannot tell the pointee unchanged.) A tree for
                // a render alone keeps it only for a layer with sublayers (they read their parent's, and its lighting's
                // context reads it: copied there below); every layer's goes to a scratch slot first (2.4 MB of a
                // lattice's 344-byte rows were written and never read back).
                let column = renderingOnly ? scratchGeometry : columns.geometries.baseAddress! + index
                let opacity: Double, backgroundColor: Color?, borderWidth: Double, borderColor: Color
                let cornerRadius: Double, isLit: Bool
                // (`isLit` is decided where the existential is unwrapped anyway: testing the optional afterwards copied it.)
                if time != nil, !layer.animationEntries.isEmpty {
                    let a = layer.animatedProperties(atLocalTime: localTime)
                    column.initialize(to: a.geometry); opacity = a.opacity; backgroundColor = a.backgroundColor; borderWidth = a.borderWidth
                    borderColor = a.borderColor; cornerRadius = a.cornerRadius
                    if let l = a.lighting { lighting = l; isLit = true } else { isLit = false }
                } else {
                    column.initialize(to: layer.geometry); opacity = layer.opacity; backgroundColor = layer.backgroundColor
                    borderWidth = layer.borderWidth; borderColor = layer.borderColor; cornerRadius = layer.cornerRadius
                    // (`hasLighting` first: an unlit layer's optional existential is not copied just to be tested.)
                    if layer.hasLighting, let l = layer.lighting { lighting = l; isLit = true } else { isLit = false }
                }
                let g = column.pointee
                // `Face` is final: its exact type is compared, without the runtime's cast (≈ 35 instructions a layer); a face
                // or a plain layer flattens without asking `isFlattening` (a cast to `TransformLayer`, ≈ 39 a layer).
                let layerType = type(of: layer)
                let isFace = layerType == Face.self
                let flattens = isFace || layerType == Layer.self || layer.isFlattening
                    || (parent < 0 && placement == .renderedInOwnSpace)
                let owner: Int, toOwner: Transform3D, object: Transform3D, isFacePlane: Bool, inherited: Double
                let contentFlipped = parent < 0 ? rootFlipped : sublayersFlipped[parent]
                // Content flips are rare: the products with the mirror are only formed for a flipped layer.
                func mirrored(_ m: Transform3D) -> Transform3D { contentFlipped ? g.boundsMirror(true).concatenating(m) : m }
                if parent < 0 {
                    owner = -1
                    switch placement {
                    case .superlayer: toOwner = mirrored(g.transform(toSuperlayer: layer.superlayer?.geometry))
                    case .canvas: toOwner = g.placementTransform
                    case .ownSpace, .renderedInOwnSpace: toOwner = .identity
                    }
                    object = g.placementTransform
                    isFacePlane = layer.superlayer.map { !$0.isFlattening || !toOwner.isAffine } ?? false
                    inherited = 1
                } else {
                    let placement = mirrored(g.placementTransform)
                    let toParent = placement.concatenating(sublayerSpace[parent])
                    if !planes[parent].isTransformLayer {
                        owner = parent
                        toOwner = toParent
                        // Relative to the parent's placement space, mirrored back when the layer's content is, so the
                        // object space keeps the orientation of the drawn face.
                        object = contentFlipped ? placement.concatenating(columns.geometries[parent].boundsMirror(true)) : placement
                        isFacePlane = !toParent.isAffine
                        inherited = 1
                    } else {
                        owner = planes[parent].owner
                        toOwner = toParent.concatenating(planes[parent].toOwner)
                        object = toParent
                        isFacePlane = true
                        inherited = planes[parent].inheritedOpacity * min(max(planes[parent].opacity, 0), 1)
                    }
                }
                let plane = Homography(toOwner)
                let b = g.bounds.standardized
                // Read once: `Face.polygon` is a class property with a dynamic exclusivity check on every read.
                let polygon = isFace ? unsafeDowncast(layer, to: Face.self).polygon : nil
                var outline = 0..<0
                if let polygon, polygon.count >= 3 {
                    outline = outlinePoints.count ..< outlinePoints.count + polygon.count
                    outlinePoints += polygon
                }
                let drawable = chainDrawable && !layer.isHidden && g.isFinite && opacity.isFinite && borderWidth.isFinite
                    && cornerRadius.isFinite && layer.contentsScale.isFinite  // `isDrawable`, on the values frozen
                // One cast per class asked (a `Face` is no text layer: the class is final), and none for a plain layer or
                // a transform layer by its exact type (neither is a text layer: the runtime's cast walked the class chain,
                // ≈ 270 instructions for each of a lattice's 1 000 solids).
                let textLayer = isFace || layerType == TransformLayer.self || layerType == Layer.self ? nil : layer as? TextLayer
                let level = parent < 0 ? 0 : rows[parent].level + 1
                let kind: Kind = !flattens ? .transformLayer : textLayer != nil ? .text : isFace ? .face : .layer
                (planes.baseAddress! + index).initialize(to: Plane(
                    isTransformLayer: !flattens, isHidden: layer.isHidden, allowsHitTesting: layer.allowsHitTesting,
                    opacity: opacity, masksToBounds: layer.masksToBounds, isDoubleSided: layer.isDoubleSided,
                    zPosition: g.zPosition,
                    bounds: ContentBounds(minX: Double(b.minX), minY: Double(b.minY), maxX: Double(b.maxX), maxY: Double(b.maxY),
                                          isFlipped: contentFlipped),
                    outline: outline, owner: owner, toOwner: toOwner,
                    determinant: owner < 0 && rootSpaceMirrored ? -plane.matrix.determinant : plane.matrix.determinant,
                    isFacePlane: isFacePlane, inheritedOpacity: inherited))
                let receives = chainReceives && planes[index].receivesHits(.frontmost)
                memberGroup[index] = flattens ? owner : -2
                if flattens && !receives { everyMemberReceives = false }
                // What few layers have: an `Extra` only for those (every face of a lattice has none).
                // (The image is tested in place and read only for a layer that gets an extra: read into a local for the
                // test, it was copied and destroyed for every layer.)
                var extra = -1
                if isLit || polygon != nil || textLayer != nil || layer.contents != nil || layer.contentsGravity != .resize
                    || layer.contentsScale.bitPattern != Extra.defaultScale.bitPattern {
                    extra = extras.count
                    // `take()`: the extra takes the existential over rather than copying it once more.
                    extras.append(Extra(contents: layer.contents, contentsGravity: layer.contentsGravity,
                                        contentsScale: layer.contentsScale, text: textLayer.map(TextStyle.init), outline: polygon,
                                        lighting: lighting.take()))
                }
                (rows.baseAddress! + index).initialize(to: Row(
                    kind: kind, isDrawableInContext: drawable, receivesInContext: receives, isLit: isLit,
                    parent: parent, level: level, backgroundColor: backgroundColor, borderColor: borderColor,
                    borderWidth: borderWidth, cornerRadius: cornerRadius, bounds: g.bounds, extra: extra))
                (columns.objectTransforms.baseAddress! + index).initialize(to: object)
                (columns.names.baseAddress! + index).initialize(to: layer.name)
                // Pre-order: the context's verdict is written already.
                (columns.rendered.baseAddress! + index).initialize(to: drawable && (owner < 0 || columns.rendered[owner]))
                if !renderingOnly { (columns.layers.baseAddress! + index).initialize(to: layer) }
                if sublayers.count > 0 {
                    if renderingOnly { (columns.geometries.baseAddress! + index).initialize(to: g) }
                    sublayerSpace[index] = g.contentSublayerSpaceTransform(contentFlipped: contentFlipped)
                    sublayersFlipped[index] = contentFlipped != g.isGeometryFlipped
                    precondition(index + 1 + stackCount + sublayers.count <= layerCount, "the layer tree changed while it was frozen")
                    // Below a flattening layer a new context starts: the chain's verdicts restart with its sublayers.
                    // (Last first. A `stride` here was an iterator call per step.)
                    var i = sublayers.count
                    while i > 0 {
                        i -= 1
                        stack[stackCount] = (sublayers[i], index, flattens || drawable, flattens || receives, localTime)
                        stackCount += 1
                    }
                }
                index += 1
            }
        }
        // Pre-order by construction (children pushed in reverse): grouping nodes by parent or by context, in node
        // order, lists sublayers in `sublayers` order and members in tree order.
        let count = index
        let members = Self.grouped(count, groups: count) { memberGroup[$0] == -2 ? nil : memberGroup[$0] }
        let faceAboveRoot = planes[0].isFacePlane ? nil : root.superlayer?.facePlane
        let rootSolid = root.superlayer as? TransformLayer
        guard !renderingOnly else {
            storage = Storage(count: count, columns: columns, extras: extras, outlinePoints: outlinePoints,
                              childList: .allocate(capacity: 0), childListByZ: .allocate(capacity: 0), members: members,
                              hitMembers: members, faceAboveRoot: faceAboveRoot, rootSolid: rootSolid)
            return
        }
        let children = Self.grouped(count, groups: count) { $0 == 0 ? nil : rows[$0].parent }
        defer { children.start.deallocate() }
        let childListByZ = UnsafeMutableBufferPointer<Int>.allocate(capacity: children.list.count)
        var byZCount = 0
        for i in 0..<count {
            let range = children.start[i + 1] ..< children.start[i + 2]
            planes[i].childStart = range.lowerBound
            planes[i].childCount = range.count
            let list = children.list[range]
            if list.isEmpty { continue }
            // Stable: equal zPositions keep later-first order; reversed for the stack (so with no zPositions set,
            // the common case, the order is the sublayers' own).
            if let z = list.first.map({ planes[$0].zPosition }), list.contains(where: { planes[$0].zPosition != z }) {
                let byZ = list.reversed().enumerated()
                    .sorted { (planes[$0.element].zPosition, -$0.offset) > (planes[$1.element].zPosition, -$1.offset) }
                    .map(\.element)
                for k in byZ.reversed() { childListByZ[byZCount] = k; byZCount += 1 }
            } else {
                for k in list { childListByZ[byZCount] = k; byZCount += 1 }
            }
        }
        // Usually every member receives touches, and the hit members are the members: grouped again only otherwise.
        let hitMembers = everyMemberReceives ? members : Self.grouped(count, groups: count) {
            planes[$0].isTransformLayer || !rows[$0].receivesInContext ? nil : planes[$0].owner
        }
        storage = Storage(count: count, columns: columns, extras: extras, outlinePoints: outlinePoints,
                          childList: children.list, childListByZ: childListByZ, members: members, hitMembers: hitMembers,
                          faceAboveRoot: faceAboveRoot, rootSolid: rootSolid)
    }

    /// Deinitializes and frees the first `count` of `names` (allocated with `allocate`), name by name: a buffer's
    /// `deinitialize()`, or an array of optional strings freed, destroys each through the runtime's value witnesses,
    /// five calls a name (≈ 0.3 M instructions for a lattice's 6 000 names). (The names of a presentation tree and
    /// of a render tree's nodes.)
    package static func destroy(names: UnsafeMutablePointer<String?>, count: Int) {
        for i in 0..<count { _ = (names + i).move() }
        names.deallocate()
    }

    /// A grouping of node numbers (`grouped`): group `g` holds `list[start[g + 1] ..< start[g + 2]]`.
    typealias Grouped = (list: UnsafeMutableBufferPointer<Int>, start: UnsafeMutableBufferPointer<Int>)

    /// The values `0 ..< count` by `group(value)` (−1 ..< `groups`; `nil`: left out), stably grouped (a counting
    /// sort): group `g` holds `list[start[g + 1] ..< start[g + 2]]`, in increasing order. (`group` is asked twice
    /// per value rather than a `(group, value)` array of every node made first and walked twice.) In buffers the
    /// caller frees or hands to the storage (arrays were made, then copied into the storage's buffers).
    private static func grouped(_ count: Int, groups: Int, _ group: (Int) -> Int?) -> Grouped {
        let start = UnsafeMutableBufferPointer<Int>.allocate(capacity: groups + 2)
        start.initialize(repeating: 0)
        var total = 0
        for value in 0..<count {
            guard let g = group(value) else { continue }
            start[g + 2] += 1
            total += 1
        }
        for g in 0 ..< groups + 1 { start[g + 1] += start[g] }
        let next = UnsafeMutableBufferPointer<Int>.allocate(capacity: groups + 2)
        defer { next.deallocate() }
        _ = next.initialize(fromContentsOf: start)
        let list = UnsafeMutableBufferPointer<Int>.allocate(capacity: total)
        for value in 0..<count {
            guard let g = group(value) else { continue }
            list[next[g + 1]] = value
            next[g + 1] += 1
        }
        return (list, start)
    }

    /// Whether the renderer can draw a layer: not hidden, and its geometry, opacity, border width, corner radius
    /// and contents scale finite. A layer that is not drawable is left out of a render with its subtree.
    public static func isDrawable(_ layer: Layer) -> Bool {
        !layer.isHidden && layer.geometry.isFinite && layer.opacity.isFinite
            && layer.borderWidth.isFinite && layer.cornerRadius.isFinite && layer.contentsScale.isFinite
    }
}

// MARK: - Reading the tree

extension PresentationTree {
    /// The number of nodes (layers, transform layers included).
    public var count: Int { storage.count }

    /// Node `i`'s drawing properties, made from the tree's rows (most of a kilobyte, with its references): a walk
    /// that reads one field of many nodes asks for it alone (`kind(of:)`, `parent(of:)` …).
    public subscript(i: Int) -> Node {
        let s = storage, plane = s.planes[i], row = s.rows[i]
        let extra: Extra? = row.extra >= 0 ? s.extras[row.extra] : nil
        return Node(
            name: s.names[i], kind: row.kind, geometry: s.geometries[i], backgroundColor: row.backgroundColor,
            contents: extra?.contents, contentsGravity: extra?.contentsGravity ?? .resize,
            contentsScale: extra?.contentsScale ?? Extra.defaultScale, borderWidth: row.borderWidth, borderColor: row.borderColor,
            cornerRadius: row.cornerRadius, opacity: plane.opacity, masksToBounds: plane.masksToBounds,
            isDoubleSided: plane.isDoubleSided, isHidden: plane.isHidden, allowsHitTesting: plane.allowsHitTesting,
            lighting: extra?.lighting, text: extra?.text, outline: extra?.outline, parent: row.parent, level: row.level,
            objectTransform: s.objectTransforms[i], isDrawableInContext: row.isDrawableInContext,
            receivesInContext: row.receivesInContext, isLit: row.isLit)
    }

    /// `self[i].kind`, read in place: a walk over every node that asks one field copies no node.
    public func kind(of i: Int) -> Kind { storage.rows[i].kind }

    /// `self[i].parent`, read in place.
    public func parent(of i: Int) -> Int { storage.rows[i].parent }

    /// `self[i].level`, read in place.
    public func level(of i: Int) -> Int { storage.rows[i].level }

    /// `self[i].name`, read in place.
    public func name(of i: Int) -> String? { storage.names[i] }

    /// `self[i].text`, read in place.
    public func text(of i: Int) -> TextStyle? { extra(of: i)?.text }

    /// `self[i].geometry`, read in place.
    public func geometry(of i: Int) -> LayerGeometry { storage.geometries[i] }

    /// `self[i].objectTransform`, read in place.
    public func objectTransform(of i: Int) -> Transform3D { storage.objectTransforms[i] }

    /// `self[i].lighting`, read in place.
    public func lighting(of i: Int) -> (any FaceShader)? {
        let row = storage.rows[i]
        return row.isLit ? storage.extras[row.extra].lighting : nil
    }

    /// Node `i`'s `Extra`, if it has one.
    func extra(of i: Int) -> Extra? {
        let e = storage.rows[i].extra
        return e >= 0 ? storage.extras[e] : nil
    }

    /// The rows and columns in place, for a walk over many nodes that reads several fields of each (a render):
    /// indexed as `self[i]`, valid during `body` (the tree is kept alive until it returns).
    package func withRows<R>(_ body: (Rows) throws -> R) rethrows -> R {
        let s = storage
        return try withExtendedLifetime(s) {
            try body(Rows(planes: s.planes.baseAddress!, rows: s.rows.baseAddress!,
                          objectTransforms: s.objectTransforms.baseAddress!, names: s.names.baseAddress!,
                          rendered: s.rendered.baseAddress!, memberList: s.memberList.baseAddress!,
                          memberStart: s.memberStart.baseAddress!, extras: s.extras.baseAddress))
        }
    }

    /// `withRows`' view: pointers to node 0 of each table (a field is read where it lies, no row copied). Plain
    /// pointers, so handing the view to a function retains nothing.
    package struct Rows {
        package let planes: UnsafePointer<Plane>
        package let rows: UnsafePointer<Row>
        package let objectTransforms: UnsafePointer<Transform3D>
        package let names: UnsafePointer<String?>
        /// `renderedNodes`, in place.
        package let rendered: UnsafePointer<Bool>
        /// Context `c`'s members (−1 included): `memberList[memberStart[c + 1] ..< memberStart[c + 2]]`, in tree
        /// order; `drawableMembers(of: c)` are those whose row `isDrawableInContext`. Read in place, a walk over
        /// every node tells the many without members at once, and makes no array for the others.
        package let memberList: UnsafePointer<Int>
        package let memberStart: UnsafePointer<Int>
        /// By `Row.extra` (`nil` when no node has one).
        package let extras: UnsafePointer<Extra>?

        /// Node `i`'s lighting (`nil` unless `rows[i].isLit`).
        package func lighting(_ i: Int) -> (any FaceShader)? {
            rows[i].isLit ? extras![rows[i].extra].lighting : nil
        }
    }

    /// The layer node `i` was frozen from: an identity to hand back, not a source of current values.
    public func layer(_ i: Int) -> Layer { storage.layers[i] }

    /// Node `i`'s layer when it is a transform layer (a solid, or a group of them).
    public func transformLayer(_ i: Int) -> TransformLayer? { storage.layers[i] as? TransformLayer }

    /// The context node `i` is drawn into: its nearest flattening proper ancestor, or −1 for the root's placement
    /// space.
    public func context(of i: Int) -> Int { storage.planes[i].owner }

    /// From node `i`'s bounds space into its context's (4×4: through transform layers without flattening).
    public func transform(of i: Int) -> Transform3D { storage.planes[i].toOwner }

    /// The product of the opacities (each clamped to 0…1) of the transform layers between node `i` and its context.
    public func inheritedOpacity(of i: Int) -> Double { storage.planes[i].inheritedOpacity }

    /// Node `i` is seen from behind in its context: its plane map reverses the winding.
    public func isSeenFromBehind(_ i: Int) -> Bool { storage.planes[i].determinant < 0 }

    /// The transform layers between node `i` and its context, outermost first.
    public func transformLayers(of i: Int) -> [Int] {
        var chain: [Int] = []
        var p = storage.rows[i].parent
        while p >= 0, storage.planes[p].isTransformLayer { chain.append(p); p = storage.rows[p].parent }
        return chain.reversed()
    }

    /// The members of context `c` (a flattening node, or −1 for the root's placement space) in tree order: the
    /// layers drawn into it, its sublayers and, recursively, the sublayers of transform layers among them.
    public func members(of c: Int) -> [Int] {
        Array(storage.memberList[storage.memberStart[c + 1] ..< storage.memberStart[c + 2]])
    }

    /// The context the root's sublayers are drawn into: the root's own (0), or, for a transform layer root, the
    /// root's placement space (−1).
    public var rootSceneContext: Int { storage.planes[0].isTransformLayer ? -1 : 0 }

    /// Members of context `c` that a render draws: they and their transform layers are drawable.
    public func drawableMembers(of c: Int) -> [Int] {
        let range = storage.memberStart[c + 1] ..< storage.memberStart[c + 2]
        // Most nodes (a solid's faces) have no members: no array is made for them.
        guard !range.isEmpty else { return [] }
        return storage.memberList[range].filter { storage.rows[$0].isDrawableInContext }
    }

    /// Per node, whether a render reaches it: it and every ancestor in the tree are drawable.
    /// (Worked out by the freeze: a node is rendered when it is drawable in its context and its context is rendered.)
    public var renderedNodes: [Bool] { Array(storage.rendered) }

    /// The transforms that carry member `i`'s normal in each light space (DESIGN §4).
    public func faceTransforms(of i: Int) -> FaceTransforms {
        faceTransforms(of: i, in: faceTransformsContext(of: storage.planes[i].owner))
    }

    /// What `faceTransforms(of:)` takes from context `c` (−1: the root's placement space), for all its members.
    public func faceTransformsContext(of c: Int) -> FaceTransforms.Context {
        FaceTransforms.Context(c < 0 ? LayerGeometry() : storage.geometries[c],
                               contentFlipped: c >= 0 && storage.planes[c].contentFlipped)
    }

    /// `faceTransforms(of:)` with its context's part worked out beforehand (`faceTransformsContext(of:)`).
    public func faceTransforms(of i: Int, in context: FaceTransforms.Context) -> FaceTransforms {
        context.transforms(projected: storage.planes[i].toOwner, object: storage.objectTransforms[i])
    }

    /// Node `i` is drawn as a face of its context: a sublayer of a transform layer, or placed by a non-affine
    /// matrix (the planes a lit solid is made of).
    public func isFace(_ i: Int) -> Bool { storage.planes[i].isFacePlane }

    /// The maps from node `i`'s plane up to the plane of `ancestor`, a flattening ancestor-or-self (−1: the root's
    /// placement space), one per flattening step, node `i`'s own first.
    public func planeMaps(of i: Int, upTo ancestor: Int = -1) -> [Homography] {
        var maps: [Homography] = []
        var n = i
        while n != ancestor, n >= 0 {
            maps.append(Homography(storage.planes[n].toOwner))
            n = storage.planes[n].owner
        }
        return maps
    }
}

// MARK: - The flattening rule on the live tree

// The same rule, walked on the model layers for the calls that answer one question about a live tree
// (conversion, `Layer.face`) and would gain nothing from freezing it first.
extension Layer {
    /// True for layers that draw and flatten their sublayers; false for `TransformLayer`.
    public var isFlattening: Bool { !(self is TransformLayer) }

    /// The plane `self` is drawn on: the nearest ancestor-or-self that is a sublayer of a transform layer or
    /// has a non-affine matrix to its superlayer; `self` when there is none.
    public var face: Layer { facePlane ?? self }

    /// The nearest ancestor-or-self that is a sublayer of a transform layer or has a non-affine matrix to its
    /// superlayer; `nil` when there is none.
    var facePlane: Layer? {
        var a: Layer? = self
        while let x = a, let s = x.superlayer {
            if !s.isFlattening || !x.transformToSuperlayer.isAffine { return x }
            a = s
        }
        return nil
    }

    /// The nearest ancestor-or-self that flattens (is not a `TransformLayer`); `nil` when there is none.
    var nearestFlatteningAncestorOrSelf: Layer? {
        var a: Layer? = self
        while let x = a, !x.isFlattening { a = x.superlayer }
        return a
    }

    /// Walks the maps from this layer's plane up to `ancestor`'s plane (`nil`: the root's virtual superlayer
    /// space), one homography per flattening step: 4×4 matrices chain through transform layers with z kept, and
    /// the z row and column are dropped at every ordinary layer (and at `ancestor`). `body` gets each map from
    /// the receiver upwards and may stop the walk by returning false. Returns false when the walk stopped or
    /// `ancestor` was not reached.
    func forEachPlaneMap(to ancestor: Layer?, _ body: (Homography) -> Bool) -> Bool {
        var m: Transform3D?  // the 4×4 chain since the last flattening step; nil: identity
        var current: Layer = self
        while current !== ancestor {
            let s = current.superlayer
            let up = current.geometry.transform(toSuperlayer: s?.geometry)
            let chained = m.map { $0.concatenating(up) } ?? up
            guard let s else { return ancestor == nil && body(Homography(chained)) }
            if s.isFlattening || s === ancestor {
                guard body(Homography(chained)) else { return false }
                m = nil
            } else {
                m = chained
            }
            current = s
        }
        return true
    }
}
