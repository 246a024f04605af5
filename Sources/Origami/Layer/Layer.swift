import Foundation
import Synchronization

/// A rectangular plane in a tree of layers, with Core Animation's geometry. Corresponds to `CALayer`.
///
/// A layer is a mutable model object. Renderers take an immutable snapshot of the tree, so a layer may be
/// edited while an earlier render of it is still running elsewhere. Geometric properties accept any value;
/// non-finite ones (NaN, ∞) make conversion and hit testing through the layer return `nil`, the renderer skip
/// it, and `validateGeometry()` name the property.
open class Layer {
    // The drawing properties below are read for every layer each time a presentation tree is frozen: they are
    // plain stored values with no accessor that holds an inout access across a call, and the dynamic
    // exclusivity checks on them cost more than the reads (`@exclusivity(unchecked)`).

    /// Position, bounds, anchor, transforms: see `LayerGeometry` for the matrices they define.
    @exclusivity(unchecked) public internal(set) final var geometry = LayerGeometry()

    /// An identifier for finding the layer (scene files, hit answers, constraints); `nil` by default. Corresponds to
    /// `CALayer.name`.
    @exclusivity(unchecked) public var name: String?

    /// The layer's own coordinate space. Changing the size keeps `position`: the frame grows about the anchor.
    public var bounds: CGRect {
        get { geometry.bounds }
        set {
            let oldSize = geometry.bounds.size
            geometry.bounds = newValue
            if oldSize != newValue.size {
                resizeSublayers(withOldSize: oldSize)
                setNeedsLayout()
            }
        }
    }
    /// Where the anchor point sits in the superlayer's coordinate space. Default (0, 0).
    public var position: CGPoint {
        get { geometry.position }
        set { geometry.position = newValue }
    }
    /// The point of the bounds, in unit coordinates, that `position` refers to and transforms turn about.
    /// Default (0.5, 0.5); values outside 0…1 are allowed.
    public var anchorPoint: CGPoint {
        get { geometry.anchorPoint }
        set { geometry.anchorPoint = newValue }
    }
    /// The anchor's z coordinate, in points: transforms turn about (anchor, anchorPointZ). Default 0.
    /// Corresponds to `CALayer.anchorPointZ`.
    public var anchorPointZ: Double {
        get { geometry.anchorPointZ }
        set { geometry.anchorPointZ = newValue }
    }
    /// A translation along z applied after `transform`; without 3D transforms, the 2D drawing order.
    public var zPosition: Double {
        get { geometry.zPosition }
        set { geometry.zPosition = newValue }
    }
    /// Applied about the anchor point. Default identity.
    public var transform: Transform3D {
        get { geometry.transform }
        set { geometry.transform = newValue }
    }
    /// Applied to the sublayers, about this layer's anchor point. Default identity.
    public var sublayerTransform: Transform3D {
        get { geometry.sublayerTransform }
        set { geometry.sublayerTransform = newValue }
    }
    /// Sublayers are positioned from the bottom of the bounds. The layer's own frame does not change, and no
    /// layer's content is drawn upside down because of it (see `LayerGeometry.boundsMirror`).
    public var isGeometryFlipped: Bool {
        get { geometry.isGeometryFlipped }
        set { geometry.isGeometryFlipped = newValue }
    }

    /// Whether the layer's content is implicitly flipped when rendered: Apple's definition, true when an odd
    /// number of the layers from this one up to its root (itself included) have `isGeometryFlipped`.
    /// Corresponds to `-[CALayer contentsAreFlipped]`.
    public func contentsAreFlipped() -> Bool {
        var flipped = false
        var a: Layer? = self
        while let x = a { if x.isGeometryFlipped { flipped.toggle() }; a = x.superlayer }
        return flipped
    }

    /// The transform as a 2D affine transform: its affine part when it is affine (`Transform3D.isAffine`, Apple's
    /// `CATransform3DIsAffine`), and the identity otherwise — a scale or translation in z, a rotation about x or
    /// y, a perspective. Setting it replaces `transform` with the 3D form. Corresponds to
    /// `-[CALayer affineTransform]` / `setAffineTransform:`.
    ///
    /// Apple's answers, as recorded in GNUstep QuartzCore's `Tests/quartzcore/CALayer/conversion.m` ("the affine
    /// part of the transform", checked against Apple QuartzCore): a scale (2, 3, 4), a rotation about x, a
    /// translation in z and an `m34` perspective all report the identity; a 2D scale, translation or rotation
    /// about z reports itself. `CATransform3DGetAffineTransform` (`Transform3D.affinePart`) is the function
    /// that reads the six elements whatever the rest is.
    public var affineTransform: AffineTransform2D {
        get { geometry.transform.isAffine ? geometry.transform.affinePart : .identity }
        set { geometry.transform = Transform3D(newValue) }
    }

    /// Clips the layer's content and sublayers to its bounds (rounded by `cornerRadius`), and stops hit testing
    /// outside them. Default false. Corresponds to `CALayer.masksToBounds`.
    @exclusivity(unchecked) public var masksToBounds = false
    /// When false, the layer is not drawn where its projected winding faces away from the viewer.
    /// It still receives hits (tree order). Corresponds to `CALayer.isDoubleSided`.
    @exclusivity(unchecked) public var isDoubleSided = true
    /// A hidden layer and its sublayers are neither drawn nor hit. Default false. Corresponds to `CALayer.isHidden`.
    @exclusivity(unchecked) public var isHidden = false
    /// Group opacity for an ordinary layer, multiplied into each sublayer for a `TransformLayer`. 0…1.
    @exclusivity(unchecked) public var opacity: Double = 1
    /// Fills the bounds (rounded by `cornerRadius`) under the contents; `nil` (the default) fills nothing.
    @exclusivity(unchecked) public var backgroundColor: Color?
    /// The border's width in points, drawn inside the bounds over the sublayers; default 0 (none).
    @exclusivity(unchecked) public var borderWidth: Double = 0
    /// The border's colour; default opaque black, as Core Animation's.
    @exclusivity(unchecked) public var borderColor: Color = .black
    /// The radius of the rounded corners of the background, border and `masksToBounds` clip, in points; default 0.
    @exclusivity(unchecked) public var cornerRadius: Double = 0
    /// An image drawn in the bounds, placed by `contentsGravity`; `nil` by default. Corresponds to `CALayer.contents`.
    @exclusivity(unchecked) public var contents: Bitmap?
    /// How `contents` is placed in the bounds; default `.resize` (fill, distorting).
    @exclusivity(unchecked) public var contentsGravity: ContentsGravity = .resize
    /// Pixels per point of `contents` (and the scale text is laid out for). Default 1.
    @exclusivity(unchecked) public var contentsScale: Double = 1
    /// When false, neither this layer nor its sublayers receive hits: UIKit's `userInteractionEnabled = NO`,
    /// the book's fix for the cube's intercepted button.
    @exclusivity(unchecked) public var allowsHitTesting = true
    /// Shades the members of this layer's sublayer scene when rendered (the lights of this 3D context).
    /// `nil`: unlit. Lighting never changes the layers; it is a render-time pass.
    @exclusivity(unchecked) public var lighting: (any FaceShader)? {
        didSet { hasLighting = lighting != nil }
    }
    /// `lighting != nil`, kept beside it: freezing a tree asks it of every layer, and reading the optional
    /// existential to test it copies (and then destroys) it.
    @exclusivity(unchecked) final private(set) var hasLighting = false

    // Timing (`MediaTiming`, CAMediaTiming's defaults) and animations: see `Layer+Animation.swift`.
    @exclusivity(unchecked) public var beginTime: Double = 0
    @exclusivity(unchecked) public var timeOffset: Double = 0
    @exclusivity(unchecked) public var speed: Double = 1
    public var duration: Double = 0
    public var repeatCount: Double = 0
    public var repeatDuration: Double = 0
    public var autoreverses = false
    /// What the layer's timing does outside its active time; default `.removed`. See `MediaTiming`.
    public var fillMode: FillMode = .removed
    @exclusivity(unchecked) var animationEntries: [AnimationEntry] = []

    /// The layer whose `sublayers` hold this one. Unowned rather than weak: a weak reference gives every layer
    /// a side table, which makes each walk up the tree and every retain of a layer take the slow path
    /// (conversion was 60 % reference counting). A superlayer clears it when it lets a sublayer go, in
    /// `removeFromSuperlayer`, `replaceSublayer`, `setSublayers` and `deinit`, so it never dangles.
    public internal(set) final unowned var superlayer: Layer?
    /// The layers drawn in this layer's plane, back to front in tree order (later on top, before depth sorting);
    /// change it with `addSublayer(_:)` and its siblings.
    @exclusivity(unchecked) public internal(set) var sublayers: [Layer] = []
    /// `sublayers` where the list keeps them, neither the list nor its layers retained: for the freeze's walks over
    /// every layer of a tree (the limits' count, `PresentationTree`'s), which retained and released each list and
    /// each layer read from it (≈ 30 k retains and as many releases a freeze of a 7 000-layer lattice, atomic ones
    /// on the layers' headers, contended when several threads freeze one tree). Valid while `layer` lives and its
    /// list is not changed — the address outlives `withUnsafeBufferPointer`, and a native array keeps its elements
    /// where they are until it is changed or freed: the walk's caller holds the root, every other layer is held by
    /// its superlayer's list, and nothing edits a tree while it is frozen (a `Layer` is not `Sendable`; the walks
    /// call no code that could — no layout, no handler). (Of and to unmanaged references: a layer read from a list
    /// as a `Layer` was retained around each call made with it.)
    package static func unretainedSublayers(of layer: Unmanaged<Layer>) -> UnretainedLayers {
        layer._withUnsafeGuaranteedRef { layer in
            layer.sublayers.withUnsafeBufferPointer { UnretainedLayers(base: UnsafeRawPointer($0.baseAddress), count: $0.count) }
        }
    }

    /// How the layer follows its superlayer's size changes (OS X rules). Default: fixed size and margins
    /// to the minimum edges. Corresponds to `CALayer.autoresizingMask`.
    public var autoresizingMask: AutoresizingMask = []
    /// Constraints applied by the superlayer's `ConstraintLayoutManager`. Corresponds to `CALayer.constraints`.
    /// Setting them asks the superlayer for layout.
    public var constraints: [Constraint] = [] {
        didSet { superlayer?.setNeedsLayout() }
    }
    /// Lays out the sublayers in `layoutSublayers()`. Corresponds to `CALayer.layoutManager`. Setting it asks
    /// for layout.
    public var layoutManager: (any LayoutManager)? {
        didSet { setNeedsLayout() }
    }
    /// The last layout problem (for example a constraint cycle) met by `layoutIfNeeded()`; `nil` when the
    /// last layout succeeded.
    public internal(set) var layoutError: LayoutError?

    /// Called by `layoutIfNeeded()` when the layer needs layout; the default calls `layoutSublayers()`.
    public var layoutHandler: ((Layer) -> Void)?
    /// `setNeedsLayout()` was called and `layoutIfNeeded()` has not run since. Corresponds to `-[CALayer needsLayout]`.
    public internal(set) var needsLayout = false
    /// This layer or one below it needs layout (see `setNeedsLayout()`). Atomic because presentations of one tree
    /// may be built on several threads at once (hit testing's contract), each reading it at the top of the tree
    /// (`layoutTreeIfNeeded()`); a reader that finds it clear sees the layout that cleared it.
    private let subtreeLayoutFlag = Atomic<Bool>(false)
    var subtreeNeedsLayout: Bool {
        get { subtreeLayoutFlag.load(ordering: .acquiring) }
        set { subtreeLayoutFlag.store(newValue, ordering: .releasing) }
    }
    /// Held while a tree is laid out for a reader, so that readers of one tree on several threads lay it out once.
    /// Recursive: a layout handler may read the tree it is laying out.
    static let layoutLock = NSRecursiveLock()

    /// A layer with Core Animation's defaults: empty bounds at (0, 0), anchor at the centre, identity transforms.
    public init() {}

    /// Releasing a tree releases each level from the one above, one stack frame per level, so a chain of a few
    /// tens of thousands of layers would overflow the stack when dropped. Sublayers held only by this layer
    /// are detached into a worklist instead, level by level, and released here with no sublayers of their own.
    /// Every layer taken off a dying superlayer forgets it (`superlayer` is unowned).
    deinit {
        guard !sublayers.isEmpty else { return }
        var pending = sublayers
        sublayers = []
        while var layer = pending.popLast() {
            layer.superlayer = nil
            if isKnownUniquelyReferenced(&layer) {
                pending.append(contentsOf: layer.sublayers)
                layer.sublayers = []
            }
        }
    }

    /// A layer with Core Animation's defaults and a `name`.
    public convenience init(name: String?) {
        self.init()
        self.name = name
    }

    /// A layer with `frame` set, as the book's `CALayer` set-up code does.
    public convenience init(name: String? = nil, frame: CGRect) {
        self.init()
        self.name = name
        self.frame = frame
    }

    /// Override point (or set `layoutHandler`): position the sublayers. Called by `layoutIfNeeded()`.
    /// The default runs the `layoutManager`, if any. Corresponds to `-[CALayer layoutSublayers]`.
    open func layoutSublayers() {
        guard let layoutManager else { return }
        do { try layoutManager.layoutSublayers(of: self) } catch { layoutError = error }
    }
}

// MARK: - Identity

extension Layer: Hashable {
    public static func == (lhs: Layer, rhs: Layer) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Layer: CustomStringConvertible {
    public var description: String {
        let kind = String(describing: type(of: self))
        return name.map { "\(kind) \"\($0)\"" } ?? kind
    }
}

// MARK: - Validation

/// A layer whose geometry holds a value that cannot be mapped.
public struct LayerGeometryError: Error, Equatable, CustomStringConvertible {
    /// The layer's description: its class and name (`layer "face3"`).
    public let layer: String
    /// The property that is not finite (`position`, `opacity`, …).
    public let property: String
    public var description: String { "\(layer): \(property) is not finite (NaN or infinity)" }
}

extension Layer {
    /// Throws for the first layer in this subtree (pre-order) whose geometry, opacity, sizes or contentsScale are
    /// not finite (exactly the layers a renderer leaves out).
    /// Walks the tree without recursion, so a tree of any depth gets an answer rather than a stack overflow.
    public func validateGeometry() throws(LayerGeometryError) {
        var stack: [Layer] = [self]
        while let layer = stack.popLast() {
            if let p = layer.geometry.nonFiniteProperty { throw LayerGeometryError(layer: layer.description, property: p) }
            for (value, key) in [(layer.opacity, "opacity"), (layer.borderWidth, "borderWidth"),
                                 (layer.cornerRadius, "cornerRadius"), (layer.contentsScale, "contentsScale")]
            where !value.isFinite {
                throw LayerGeometryError(layer: layer.description, property: key)
            }
            stack.append(contentsOf: layer.sublayers.reversed())
        }
    }
}

/// A sublayer list read in place, its layers as unmanaged references (`Layer.unretainedSublayers(of:)`). (Not a
/// `Collection`: walked from another module, its generic iteration was a protocol witness call per step; and
/// `count`, a stored property, is read in place where a computed `isEmpty` was a call.)
package struct UnretainedLayers {
    @usableFromInline let base: UnsafeRawPointer?
    package let count: Int

    @inlinable init(base: UnsafeRawPointer?, count: Int) { self.base = base; self.count = count }

    /// Layer `i` (`0 ..< count`). (A raw load: a reference and an unmanaged one have the same layout.)
    @inlinable package subscript(i: Int) -> Unmanaged<Layer> {
        base.unsafelyUnwrapped.load(fromByteOffset: i &* MemoryLayout<Layer>.stride, as: Unmanaged<Layer>.self)
    }
}
