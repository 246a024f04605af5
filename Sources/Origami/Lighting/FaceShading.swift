import Foundation

/// The transforms that carry a scene member's normal, one per light space (DESIGN §4). Only their linear
/// parts matter for normals; positions (for point lights) use the full matrices.
public struct FaceTransforms: Hashable, Sendable {
    /// The face relative to its solid: from the member's bounds space to the space of the nearest transform
    /// layer holding it (for a member that is a direct sublayer of the context, its own placement) — the
    /// book's `face.transform`.
    public var object: Transform3D
    /// Up to the 3D context, without the context's `sublayerTransform`: the light stays put while the camera
    /// (the context's sublayerTransform) moves.
    public var scene: Transform3D
    /// Including the affine part of the context's sublayerTransform (about its anchor; its perspective column
    /// m14 m24 m34 dropped): a head-lamp that moves with the camera.
    public var view: Transform3D
    /// The whole chain into the context's bounds space, perspective included: where the face is drawn. Its
    /// projected winding says whether the face is seen from behind.
    public var projected: Transform3D

    /// The four spaces' transforms; `projected` defaults to `view`.
    public init(object: Transform3D, scene: Transform3D, view: Transform3D, projected: Transform3D? = nil) {
        self.object = object; self.scene = scene; self.view = view; self.projected = projected ?? view
    }
}

/// How a lit plane is painted after its own drawing (background, contents, sublayer scene) and before its
/// border — where the book adds its shadow sublayer. Every field is optional; all that are set apply, in order:
/// 1. `multiply`: the plane's colour channels are multiplied by this colour (alpha unchanged);
///    `vertexMultiply` does the same with four colours at the bounds' corners, interpolated across the plane
///    (Gouraud);
/// 2. `add` / `vertexAdd`: this colour is added to the colour channels (clamped at 1; alpha unchanged);
/// 3. `overlay`: this colour is drawn over the bounds (source-over, clipped to the rounded bounds) — the book's
///    black overlay with alpha `1 + L·N − ambient`.
/// Corner order for the vertex arrays: (minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY) of `bounds`.
public struct FaceShade: Hashable, Sendable {
    // Stored flat: the three flat colours as plain numbers with a bit each for whether it is set, and the two
    // per-vertex arrays in one out-of-line box that a flat shade (every face of a lattice) does not have. Five
    // optionals, two of them arrays, made every copy of a shade (built per face, stored in its render node, read
    // per face by the painter) an outlined value-witness copy with two retains; this is plain numbers and at
    // most one reference. The fields read and write as the five optionals they stand for.
    @usableFromInline var multiplyColor: Color, addColor: Color, overlayColor: Color
    /// Which flat colours are set.
    @usableFromInline var flat: Flat
    /// `vertexMultiply` and `vertexAdd`; `nil` when both are.
    @usableFromInline var vertices: Vertices?

    @usableFromInline struct Flat: OptionSet, Hashable, Sendable {
        @usableFromInline let rawValue: UInt8
        @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
        @inlinable static var multiply: Flat { Flat(rawValue: 1) }
        @inlinable static var add: Flat { Flat(rawValue: 2) }
        @inlinable static var overlay: Flat { Flat(rawValue: 4) }
    }

    /// Immutable: a write replaces the box, so copies of a shade never share a change.
    @usableFromInline final class Vertices: Sendable {
        @usableFromInline let multiply: [Color]?, add: [Color]?
        @usableFromInline init(multiply: [Color]?, add: [Color]?) { self.multiply = multiply; self.add = add }
    }

    /// Multiplies the plane's colour channels (alpha unchanged), flat.
    @inlinable public var multiply: Color? {
        get { flat.contains(.multiply) ? multiplyColor : nil }
        set { (multiplyColor, flat) = Self.stored(newValue, multiplyColor, .multiply, in: flat) }
    }
    /// Four multiply colours at the bounds' corners, interpolated across the plane (Gouraud).
    @inlinable public var vertexMultiply: [Color]? {
        get { vertices?.multiply }
        set { vertices = Self.box(multiply: newValue, add: vertices?.add) }
    }
    /// Added to the colour channels, clamped at 1, flat: the specular highlight.
    @inlinable public var add: Color? {
        get { flat.contains(.add) ? addColor : nil }
        set { (addColor, flat) = Self.stored(newValue, addColor, .add, in: flat) }
    }
    /// Four added colours at the bounds' corners, interpolated across the plane.
    @inlinable public var vertexAdd: [Color]? {
        get { vertices?.add }
        set { vertices = Self.box(multiply: vertices?.multiply, add: newValue) }
    }
    /// Drawn over the bounds, source-over: the book's black shadow layer.
    @inlinable public var overlay: Color? {
        get { flat.contains(.overlay) ? overlayColor : nil }
        set { (overlayColor, flat) = Self.stored(newValue, overlayColor, .overlay, in: flat) }
    }

    /// A shade; every field defaults to `nil` (nothing applied).
    public init(multiply: Color? = nil, vertexMultiply: [Color]? = nil, add: Color? = nil,
                vertexAdd: [Color]? = nil, overlay: Color? = nil) {
        let none = Color(red: 0, green: 0, blue: 0, alpha: 0)
        multiplyColor = multiply ?? none; addColor = add ?? none; overlayColor = overlay ?? none
        flat = Flat(rawValue: (multiply == nil ? 0 : Flat.multiply.rawValue) | (add == nil ? 0 : Flat.add.rawValue)
                   | (overlay == nil ? 0 : Flat.overlay.rawValue))
        vertices = Self.box(multiply: vertexMultiply, add: vertexAdd)
    }

    @inlinable static func stored(_ value: Color?, _ old: Color, _ bit: Flat, in set: Flat) -> (Color, Flat) {
        guard let value else { return (old, set.subtracting(bit)) }
        return (value, set.union(bit))
    }

    @usableFromInline static func box(multiply: [Color]?, add: [Color]?) -> Vertices? {
        multiply == nil && add == nil ? nil : Vertices(multiply: multiply, add: add)
    }

    /// Whether the shade has per-vertex colours (`vertexMultiply` or `vertexAdd`): the one reference a shade holds.
    /// (Asked without reading the arrays: a render node's record is freed without a destroy when it holds none.)
    @inlinable package var hasVertices: Bool { vertices != nil }

    // Equal and hashed as the five optionals: an unset colour's stored value is not part of the shade.
    public static func == (a: FaceShade, b: FaceShade) -> Bool {
        a.multiply == b.multiply && a.add == b.add && a.overlay == b.overlay
            && a.vertexMultiply == b.vertexMultiply && a.vertexAdd == b.vertexAdd
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(multiply); hasher.combine(vertexMultiply); hasher.combine(add); hasher.combine(vertexAdd)
        hasher.combine(overlay)
    }
}

/// Shades the members of a layer's sublayer scene. Set one as `Layer.lighting` on the layer that owns the
/// 3D context (the container with the perspective); the renderer asks it once per member at render time and
/// never changes the layers.
public protocol FaceShader: Sendable {
    /// The shade of a member with these transforms and bounds, or `nil` to leave it unlit.
    func shade(_ transforms: FaceTransforms, bounds: CGRect) -> FaceShade?
}

extension FaceTransforms {
    /// The transforms of a member drawn into a context through `projected` (its whole chain into the context's
    /// bounds space), with `object` its transform relative to its solid, `context` the context's geometry.
    /// `contextContentFlipped`: the context's content space is its bounds mirrored (`LayerGeometry.boundsMirror`);
    /// the light spaces then keep the drawn chain's orientation (the context's own flip mirrors back out).
    init(projected: Transform3D, object: Transform3D, context: LayerGeometry, contextContentFlipped: Bool = false) {
        self = Context(context, contentFlipped: contextContentFlipped).transforms(projected: projected, object: object)
    }

    /// What `FaceTransforms` takes from a 3D context, the same for all its members: worked out once per context
    /// (the inverse of its sublayer space is a 4×4 inversion; a context of 6 000 faces asked it 6 000 times).
    public struct Context: Sendable {
        /// The inverse of the context's content sublayer space (`nil`: singular).
        let spaceInverse: Transform3D?
        /// The mirror that leaves the scene space without reflection: the context's flip and content flip, by parity.
        let mirror: Transform3D
        /// The camera's content sublayer space without its perspective column.
        let camera: Transform3D

        /// The context with geometry `context`; `contentFlipped`: its content space is its bounds mirrored.
        public init(_ context: LayerGeometry, contentFlipped: Bool = false) {
            // Scene: the full chain minus the context's sublayer-space transform (applied last in `projected`), then
            // the mirror.
            spaceInverse = context.contentSublayerSpaceTransform(contentFlipped: contentFlipped).inverted()
            mirror = context.boundsMirror(context.isGeometryFlipped != contentFlipped)
            // View: the camera's rotation and scale, not its perspective: with m14 m24 m34 left in, the anchor
            // translation around the sublayerTransform would leak the perspective into the linear part.
            var camera = context
            camera.sublayerTransform.m14 = 0
            camera.sublayerTransform.m24 = 0
            camera.sublayerTransform.m34 = 0
            camera.sublayerTransform.m44 = 1
            self.camera = camera.contentSublayerSpaceTransform(contentFlipped: contentFlipped)
        }

        /// A member's transforms: drawn through `projected` into the context, `object` relative to its solid.
        public func transforms(projected: Transform3D, object: Transform3D) -> FaceTransforms {
            transforms(projected: projected, object: object, scene: true, view: true)
        }

        /// `transforms(projected:object:)` with the scene and view transforms formed only where asked for (a 4×4
        /// product each, and one more for either): one not asked for is left as `projected`, for a reader that
        /// does not read it (`Lighting.MemberShading` asks for the spaces its lights are in).
        func transforms(projected: Transform3D, object: Transform3D, scene wantsScene: Bool, view wantsView: Bool)
            -> FaceTransforms {
            guard wantsScene || wantsView else {
                return FaceTransforms(object: object, scene: projected, view: projected, projected: projected)
            }
            let placed = placed(projected)
            return FaceTransforms(object: object, scene: wantsScene ? scene(placed: placed) : projected,
                                  view: wantsView ? view(placed: placed) : projected, projected: projected)
        }

        /// A member drawn through `projected`, in the context's content space before its sublayer space: what
        /// `scene(placed:)` and `view(placed:)` carry on.
        func placed(_ projected: Transform3D) -> Transform3D {
            spaceInverse.map { projected.concatenating($0) } ?? projected
        }

        /// The scene and view transforms of a member `placed` as `placed(_:)` gives it.
        func scene(placed: Transform3D) -> Transform3D { placed.concatenating(mirror) }
        func view(placed: Transform3D) -> Transform3D { placed.concatenating(camera) }
    }
}

extension Layer {
    /// The transforms that carry `member`'s normal in each light space, `member` being one of this layer's
    /// `sublayerScene()` members.
    public func faceTransforms(for member: SceneMember) -> FaceTransforms {
        FaceTransforms(projected: member.transform, object: member.objectTransform, context: geometry)
    }
}
