import Foundation
import Origami

/// One ordinary (flattening) layer of a presentation tree with what painting it needs: its drawing properties, its
/// sublayer scene as render members, its glyph outlines and its extent — and, as the member of its context's scene
/// it is (every drawn layer is the member of exactly one scene), its transform into that context, inherited opacity
/// and shade. Immutable and `Sendable`, so any number of renders may read it on any threads while the model layers
/// keep changing. The drawing properties are the presentation node's, read as painting uses them (colours
/// clamped, sizes at least 0, opacity in 0…1) and stored as such: a node keeps only what painting reads, not a
/// copy of the presentation node (most of a kilobyte, the hit-testing tables' fields among it).
public final class RenderNode: Sendable {
    // Stored in the order painting reads them (a class's fields lie in declaration order): what the depth order
    // and a plain face's fill read first, the rarely read last.
    /// As a member of its context's scene: from its bounds space into the context's bounds space (4×4, chained
    /// through transform layers).
    public let transform: Transform3D
    /// Where everything this node draws lies in its own plane: bounds, contents, text and (unless it masks to
    /// bounds) its members' projected extents. The BSP uses this quad, so a face's overhanging sublayers are
    /// depth-sorted with it.
    let extent: PlaneRect
    /// The layer's bounds, standardized (no negative width or height).
    public let bounds: CGRect
    /// The layer's own opacity, clamped to 0…1.
    public let opacity: Double
    /// As a member: the product of the opacities of the transform layers between its context and it.
    public let inheritedOpacity: Double
    /// The layer's zPosition: the coplanar tie-break in its context's scene before tree order.
    public let zPosition: Double
    /// Whether the layer is drawn when its back faces the viewer.
    public let isDoubleSided: Bool
    /// Whether the sublayers are clipped to the (rounded) bounds.
    public let masksToBounds: Bool
    /// The background colour, each component clamped to 0…1; `nil`: none.
    public let backgroundColor: Color?
    /// A solid face's outline in its bounds (`Face.polygon`): the face is drawn clipped to it, its background
    /// and shading fill it. `nil`: the (rounded) bounds.
    public let shape: [CGPoint]?
    /// As a member: what its context's `lighting` decided for it, computed at snapshot time.
    public let shade: FaceShade?
    /// The radius the bounds' corners are rounded with, at least 0.
    public let cornerRadius: Double
    /// The border's width in points, at least 0.
    public let borderWidth: Double
    /// The border's colour, each component clamped to 0…1.
    public let borderColor: Color
    /// The sublayer scene: direct sublayers plus the expanded sublayers of transform layers, in tree order.
    public let members: [RenderMember]
    /// The image and the text, with how they are placed: `nil` when the layer has neither and places them as a
    /// layer does by default (every face of a lattice).
    private let content: Content?
    /// The layer's name.
    public let name: String?

    /// What few layers have, kept out of line: a node without it holds one `nil` reference, where the fields
    /// (an optional image, an optional text style with two strings, the glyph rings) were copied in at the freeze
    /// and destroyed with the node, for every face.
    private final class Content: Sendable {
        let contents: Bitmap?
        let contentsGravity: ContentsGravity
        let contentsScale: Double
        let text: TextStyle?
        let textRings: [Ring]

        init(contents: Bitmap?, contentsGravity: ContentsGravity, contentsScale: Double, text: TextStyle?, textRings: [Ring]) {
            self.contents = contents; self.contentsGravity = contentsGravity; self.contentsScale = contentsScale
            self.text = text; self.textRings = textRings
        }
    }

    /// The image drawn in the bounds, if any.
    public var contents: Bitmap? { content?.contents }
    /// Glyph outlines in bounds space (empty without text).
    var textRings: [Ring] { content?.textRings ?? [] }
    /// How `contents` is placed in the bounds.
    public var contentsGravity: ContentsGravity { content?.contentsGravity ?? .resize }
    /// Pixels of `contents` per point: the layer's, or 1 when that is not finite and positive.
    public var contentsScale: Double { content?.contentsScale ?? 1 }
    /// The text a text layer draws, with its style; `nil` for other layers.
    public var text: TextStyle? { content?.text }

    /// The painting properties of node `i`, read from the presentation tree's rows where they lie (no node is
    /// made), with its sublayer scene and, as a member of its context's scene, its `transform`, `inheritedOpacity`
    /// and `shade`.
    init(_ nodes: PresentationTree.Rows, _ i: Int, members: [RenderMember], transform: Transform3D,
         inheritedOpacity: Double, shade: FaceShade?) throws {
        // (`pointee`/subscripts of the pointers are addressors: each field below is read in place.)
        let plane = nodes.planes + i, row = nodes.rows + i
        let bounds = nodes.geometries[i].bounds.standardized, masksToBounds = plane.pointee.masksToBounds
        let b = PlaneRect(minX: Double(bounds.minX), minY: Double(bounds.minY),
                          maxX: Double(bounds.maxX), maxY: Double(bounds.maxY))
        // The image, the text and the outline first (the glyphs may throw: before any field is stored, so no error
        // path has fields to destroy), only for a node with an `Extra` (no image, text, outline or lighting, and
        // contents placed by default without one).
        let content: Content?, outline: [CGPoint]?
        // (The index is tested here, in place: most nodes have no extra, and no optional one is made for them.)
        if row.pointee.extra >= 0, let extras = nodes.extras {
            let extra = extras + row.pointee.extra
            outline = extra.pointee.outline
            if extra.pointee.contents == nil, row.pointee.kind != .text, extra.pointee.contentsGravity == .resize,
               Self.usable(contentsScale: extra.pointee.contentsScale) == 1 {
                content = nil
            } else {
                let text = extra.pointee.text
                content = Content(contents: extra.pointee.contents, contentsGravity: extra.pointee.contentsGravity,
                                  contentsScale: Self.usable(contentsScale: extra.pointee.contentsScale), text: text,
                                  textRings: try text.map { try Outlines.text($0, in: b) } ?? [])
            }
        } else {
            content = nil; outline = nil
        }
        self.content = content
        shape = outline.flatMap { $0.count >= 3 && $0.allSatisfy { $0.x.isFinite && $0.y.isFinite } ? $0 : nil }
        self.members = members
        name = nodes.names[i]
        self.bounds = bounds
        backgroundColor = row.pointee.backgroundColor.map(\.clamped)
        borderWidth = max(0, row.pointee.borderWidth)
        borderColor = row.pointee.borderColor.clamped
        cornerRadius = max(0, row.pointee.cornerRadius)
        opacity = min(max(plane.pointee.opacity, 0), 1)
        self.masksToBounds = masksToBounds
        isDoubleSided = plane.pointee.isDoubleSided
        zPosition = plane.pointee.zPosition
        self.transform = transform
        self.inheritedOpacity = inheritedOpacity
        self.shade = shade

        var extent = b
        if !masksToBounds {
            if let content {
                if let image = content.contents,
                   let r = RenderNode.contentsRect(image, gravity: content.contentsGravity, scale: content.contentsScale, in: b) {
                    extent = extent.union(r)
                }
                if !content.textRings.isEmpty, let t = PlaneRect.bounding(content.textRings.flatMap { $0 }) {
                    extent = extent.union(t)
                }
            }
            for (i, m) in members.enumerated() {
                guard var r = Self.flatBounds(m.node.extent, transform: m.node.transform, member: i) else { continue }
                let limit = 1e7
                r = PlaneRect(minX: max(r.minX, -limit), minY: max(r.minY, -limit),
                              maxX: min(r.maxX, limit), maxY: min(r.maxY, limit))
                extent = extent.union(r)
            }
        }
        self.extent = extent
    }

    /// The bounding box of `ScenePolygon(extent:transform:member:)`'s flattened points, `nil` where it is `nil`.
    /// A quad wholly in front of the eye (every corner's w past the near margin: the clip would keep it whole) is
    /// divided corner by corner with no arrays (a container of thousands of faces asks for one per member).
    static func flatBounds(_ extent: PlaneRect, transform m: Transform3D, member: Int) -> PlaneRect? {
        let c = (m.apply(Vector4(x: extent.minX, y: extent.minY, z: 0, w: 1)), m.apply(Vector4(x: extent.maxX, y: extent.minY, z: 0, w: 1)),
                 m.apply(Vector4(x: extent.maxX, y: extent.maxY, z: 0, w: 1)), m.apply(Vector4(x: extent.minX, y: extent.maxY, z: 0, w: 1)))
        // `ScenePolygon`'s margin: `Sequence.max()` of the w's, in corner order.
        var largest = c.0.w
        for w in [c.1.w, c.2.w, c.3.w] where largest < w { largest = w }
        let eps = PlaneChain.nearW * largest
        guard c.0.w - eps >= 0, c.1.w - eps >= 0, c.2.w - eps >= 0, c.3.w - eps >= 0 else {
            return ScenePolygon(extent: extent, transform: m, member: member).flatMap { PlaneRect.bounding($0.flattened) }
        }
        var r: PlaneRect?, count = 0
        for p in [c.0, c.1, c.2, c.3] where p.w > 0 {
            let q = Vector3(p.x / p.w, p.y / p.w, p.z / p.w)
            guard q.isFinite else { return nil }
            count += 1
            if var b = r {
                b.minX = min(b.minX, q.x); b.maxX = max(b.maxX, q.x)
                b.minY = min(b.minY, q.y); b.maxY = max(b.maxY, q.y)
                r = b
            } else {
                r = PlaneRect(minX: q.x, minY: q.y, maxX: q.x, maxY: q.y)
            }
        }
        return count >= 3 ? r : nil
    }

    /// A contents scale that is not finite and positive draws the image at 1 pixel per point.
    static func usable(contentsScale s: Double) -> Double { s.isFinite && s > 0 ? s : 1 }

    /// The outline background, overlay and clip follow: the face's polygon, else the rounded bounds.
    var outline: [Ring] { [outlineRing] }

    /// `outline`'s one ring, without the array around it (a plain face's fill maps it alone).
    var outlineRing: Ring {
        if let shape { return shape.map { PlanePoint(Double($0.x), Double($0.y)) } }
        return Outlines.roundedRect(planeBounds, radius: cornerRadius)
    }

    var planeBounds: PlaneRect {
        PlaneRect(minX: Double(bounds.minX), minY: Double(bounds.minY), maxX: Double(bounds.maxX), maxY: Double(bounds.maxY))
    }

    /// Where `contents` lands in the bounds under `gravity` (y grows downward, so `.top` is the minY side).
    /// Corresponds to `CALayer.contentsGravity`; `nil` when the result is empty.
    static func contentsRect(_ image: Bitmap, gravity: ContentsGravity, scale: Double, in b: PlaneRect) -> PlaneRect? {
        let iw = Double(image.width) / scale, ih = Double(image.height) / scale
        var w = iw, h = ih
        switch gravity {
        case .resize:
            return b.isEmpty ? nil : b
        case .resizeAspect, .resizeAspectFill:
            let sx = b.width / iw, sy = b.height / ih
            let s = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
            w = iw * s; h = ih * s
        default:
            break
        }
        let g = gravity.rawValue.lowercased()
        let x: Double = g.hasSuffix("left") ? b.minX : g.hasSuffix("right") ? b.maxX - w : b.minX + (b.width - w) / 2
        let y: Double = g.hasPrefix("top") ? b.minY : g.hasPrefix("bottom") ? b.maxY - h : b.minY + (b.height - h) / 2
        let r = PlaneRect(minX: x, minY: y, maxX: x + w, maxY: y + h)
        return r.isEmpty ? nil : r
    }
}

/// One plane of a render node's sublayer scene: a member node with its place in the scene. What the member is
/// drawn with — its transform, inherited opacity, zPosition and shade — lives in its node (each drawn node is the
/// member of exactly one scene), so a member is small: copying one is a reference and two numbers.
public struct RenderMember: Sendable {
    /// The member layer, frozen.
    public let node: RenderNode
    /// Pre-order position in the owner's scene: later draws on top of coplanar earlier members.
    public let treeIndex: Int
    /// The members of one solid share this number: the scene index of the first of a run of members with the same
    /// transform layer as their superlayer (a member not in a transform layer: its own index). `SharedEdges` looks
    /// for seams within solids when the solids keep apart.
    let solid: Int

    /// From the member's bounds space into the owner's bounds space (4×4, chained through transform layers).
    public var transform: Transform3D { node.transform }
    /// The product of the opacities of the transform layers between owner and member.
    public var inheritedOpacity: Double { node.inheritedOpacity }
    /// The member layer's zPosition: the coplanar tie-break before tree order.
    public var zPosition: Double { node.zPosition }
    /// What the owner's `lighting` decided for this member, computed at snapshot time.
    public var shade: FaceShade? { node.shade }
}
