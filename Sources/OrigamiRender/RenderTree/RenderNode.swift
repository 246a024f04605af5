import COrigamiPrefetch
import Foundation
import Origami

/// One ordinary (flattening) layer of a presentation tree with what painting it needs: its drawing properties, its
/// sublayer scene as render members, its glyph outlines and its extent — and, as the member of its context's scene
/// it is (every drawn layer is the member of exactly one scene), its transform into that context, inherited opacity
/// and shade. Immutable and `Sendable`, so any number of renders may read it on any threads while the model layers
/// keep changing. The drawing properties are the presentation node's, read as painting uses them (colours
/// clamped, sizes at least 0, opacity in 0…1) and stored as such: a node keeps only what painting reads, not a
/// copy of the presentation node (most of a kilobyte, the hit-testing tables' fields among it).
///
/// A node is a row of its render tree's node table (`RenderNodeTable`), read through this view: the table is one
/// array of plain records (`Record`) and one of scene members for the whole tree, where each node had been an
/// object of its own — a lattice's 6 000 faces were 6 000 allocations made, initialized, released and freed per
/// render. Copying a node is a reference and a pointer; nothing reads a node's identity.
///
/// `@unchecked Sendable`: `record` points into the table the node holds, which is immutable once made.
public struct RenderNode: @unchecked Sendable {
    /// The table the node is a row of: held, so that `record` stays valid while the node is.
    let table: RenderNodeTable
    /// Its row in `table.records`, read in place (a field is one load from it).
    let record: UnsafePointer<Record>

    /// What a node is, stored in its table's row. (Fields in the order painting reads them: what the depth order and
    /// a plain face's fill read first, the rarely read last.) Its references — a shape, a content, a per-vertex
    /// shade — are all `nil` for most nodes (every face of a lattice): the table destroys only the records that hold
    /// one (`RenderNodeTable.referencing`), and frees the rest without reading them back (a destroy of every record
    /// read the whole table, 3 MB for a lattice, ≈ 19 k L2 misses a render). The names, which every face has (its
    /// kind), are a column of the table of their own. A field added here that holds a reference must be counted in
    /// `write`'s answer, or the records that set it leak (`RenderTreeTests.onlyRecordsWithReferencesAreDestroyed`).
    struct Record: Sendable {
        let transform: Transform3D
        let extent: PlaneRect
        let bounds: CGRect
        let opacity: Double
        let inheritedOpacity: Double
        let zPosition: Double
        let isDoubleSided: Bool
        let masksToBounds: Bool
        let backgroundColor: Color?
        let shape: [CGPoint]?
        let shade: FaceShade?
        let cornerRadius: Double
        let borderWidth: Double
        let borderColor: Color
        /// The node's sublayer scene: these rows of the table's `members`.
        let scene: Range<Int>
        let content: Content?
    }

    /// As a member of its context's scene: from its bounds space into the context's bounds space (4×4, chained
    /// through transform layers).
    public var transform: Transform3D { record.pointee.transform }
    /// Where everything this node draws lies in its own plane: bounds, contents, text and (unless it masks to
    /// bounds) its members' projected extents. The BSP uses this quad, so a face's overhanging sublayers are
    /// depth-sorted with it.
    var extent: PlaneRect { record.pointee.extent }
    /// The layer's bounds, standardized (no negative width or height).
    public var bounds: CGRect { record.pointee.bounds }
    /// The layer's own opacity, clamped to 0…1.
    public var opacity: Double { record.pointee.opacity }
    /// As a member: the product of the opacities of the transform layers between its context and it.
    public var inheritedOpacity: Double { record.pointee.inheritedOpacity }
    /// The layer's zPosition: the coplanar tie-break in its context's scene before tree order.
    public var zPosition: Double { record.pointee.zPosition }
    /// Whether the layer is drawn when its back faces the viewer.
    public var isDoubleSided: Bool { record.pointee.isDoubleSided }
    /// Whether the sublayers are clipped to the (rounded) bounds.
    public var masksToBounds: Bool { record.pointee.masksToBounds }
    /// The background colour, each component clamped to 0…1; `nil`: none.
    public var backgroundColor: Color? { record.pointee.backgroundColor }
    /// A solid face's outline in its bounds (`Face.polygon`): the face is drawn clipped to it, its background
    /// and shading fill it. `nil`: the (rounded) bounds.
    public var shape: [CGPoint]? { record.pointee.shape }
    /// As a member: what its context's `lighting` decided for it, computed at snapshot time.
    public var shade: FaceShade? { record.pointee.shade }
    /// The radius the bounds' corners are rounded with, at least 0.
    public var cornerRadius: Double { record.pointee.cornerRadius }
    /// The border's width in points, at least 0.
    public var borderWidth: Double { record.pointee.borderWidth }
    /// The border's colour, each component clamped to 0…1.
    public var borderColor: Color { record.pointee.borderColor }
    /// The sublayer scene: direct sublayers plus the expanded sublayers of transform layers, in tree order. (Made
    /// from the table's rows when asked for: empty, with nothing made, for a node without sublayers.)
    public var members: [RenderMember] {
        let scene = record.pointee.scene
        return scene.isEmpty ? [] : table.scene(scene)
    }
    /// `contents == nil && textRings.isEmpty && members.isEmpty` — nothing drawn over the background but the shade and
    /// the border —, read from the node's row without making the (empty) arrays: the painter asks it of every face.
    var isBare: Bool {
        // (Field by field through `pointee`, read in place: a copy of the row would retain its references.)
        guard record.pointee.scene.isEmpty else { return false }
        guard let c = record.pointee.content else { return true }
        return c.contents == nil && c.textRings.isEmpty
    }
    /// The layer's name.
    public var name: String? { table.names[UnsafePointer(table.records).distance(to: record)] }
    /// Starts loading the node's row into the caches, every line of it (a hint: no value changes): for a loop that
    /// knows a few turns ahead which node it will read — the painter takes the fragments in the depth order, so their
    /// members' rows (472 bytes each, in a table of megabytes) come in no order the CPU could guess.
    /// (Static, given the row's address: a method on the node kept the node's table retained across the prefetches,
    /// which the compiler cannot see through — a retain and a release per call.)
    @inline(__always)
    static func prefetch(_ record: UnsafePointer<Record>) {
        origami_prefetch_bytes(record, UInt(MemoryLayout<Record>.size))
    }
    /// The image and the text, with how they are placed: `nil` when the layer has neither and places them as a
    /// layer does by default (every face of a lattice).
    private var content: Content? { record.pointee.content }

    /// What few layers have, kept out of line: a node without it holds one `nil` reference, where the fields
    /// (an optional image, an optional text style with two strings, the glyph rings) were copied in at the freeze
    /// and destroyed with the node, for every face.
    final class Content: Sendable {
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
}

extension RenderNode.Record {
    /// The painting properties of node `i`, read from the presentation tree's rows where they lie (no node is
    /// made), with its sublayer scene (rows `scene` of `members`, whose nodes are rows of `records`, built before
    /// it) and, as a member of its context's scene, its `transform`, `inheritedOpacity` and `shade`, written to
    /// `destination` (uninitialized) field by field. Returns whether the record holds a reference (a shape, a content
    /// or a per-vertex shade): then its table must destroy it (`RenderNodeTable.referencing`).
    /// (Not an init returning the record: whenever that was not inlined into the freeze, the record was built in a
    /// temporary and copied, `memcpy` +2 M instructions and ≈ 60 k L2 write misses a lattice render.)
    static func write(to destination: UnsafeMutablePointer<RenderNode.Record>,
                      _ nodes: PresentationTree.Rows, _ i: Int, scene: Range<Int>, records: UnsafePointer<RenderNode.Record>,
                      members: [RenderNodeTable.Member], transform: Transform3D, inheritedOpacity: Double,
                      shade: consuming FaceShade?) throws -> Bool {
        // (`pointee`/subscripts of the pointers are addressors: each field below is read in place.)
        let plane = nodes.planes + i, row = nodes.rows + i
        let bounds = row.pointee.bounds.standardized, masksToBounds = plane.pointee.masksToBounds
        let b = PlaneRect(minX: Double(bounds.minX), minY: Double(bounds.minY),
                          maxX: Double(bounds.maxX), maxY: Double(bounds.maxY))
        // The image, the text and the outline first (the glyphs may throw: before any field is stored, so no error
        // path has fields to destroy), only for a node with an `Extra` (no image, text, outline or lighting, and
        // contents placed by default without one).
        let content: RenderNode.Content?, outline: [CGPoint]?
        // (The index is tested here, in place: most nodes have no extra, and no optional one is made for them.)
        if row.pointee.extra >= 0, let extras = nodes.extras {
            let extra = extras + row.pointee.extra
            outline = extra.pointee.outline
            if extra.pointee.contents == nil, row.pointee.kind != .text, extra.pointee.contentsGravity == .resize,
               RenderNode.usable(contentsScale: extra.pointee.contentsScale) == 1 {
                content = nil
            } else {
                let text = extra.pointee.text
                content = RenderNode.Content(contents: extra.pointee.contents, contentsGravity: extra.pointee.contentsGravity,
                                             contentsScale: RenderNode.usable(contentsScale: extra.pointee.contentsScale),
                                             text: text, textRings: try text.map { try Outlines.text($0, in: b) } ?? [])
            }
        } else {
            content = nil; outline = nil
        }
        let shape = outline.flatMap { $0.count >= 3 && $0.allSatisfy { $0.x.isFinite && $0.y.isFinite } ? $0 : nil }
        let holdsReferences = shape != nil || content != nil || shade?.hasVertices == true

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
            // (Each member's extent and transform read where they lie in the table.)
            for k in scene {
                let m = members[k].node
                guard var r = RenderNode.flatBounds(records[m].extent, transform: records[m].transform) else { continue }
                let limit = 1e7
                r = PlaneRect(minX: max(r.minX, -limit), minY: max(r.minY, -limit),
                              maxX: min(r.maxX, limit), maxY: min(r.maxY, limit))
                extent = extent.union(r)
            }
        }
        // (The shade is taken `consuming` and moved in: passed borrowed, it was copied into the record and the
        // caller's destroyed, two outlined value-witness calls a node, 1.26 M a lattice render.)
        destination.initialize(to: RenderNode.Record(
            transform: transform, extent: extent, bounds: bounds, opacity: min(max(plane.pointee.opacity, 0), 1),
            inheritedOpacity: inheritedOpacity, zPosition: plane.pointee.zPosition,
            isDoubleSided: plane.pointee.isDoubleSided, masksToBounds: masksToBounds,
            backgroundColor: row.pointee.backgroundColor.map { $0.clamped }, shape: shape, shade: shade,
            cornerRadius: max(0, row.pointee.cornerRadius), borderWidth: max(0, row.pointee.borderWidth),
            borderColor: row.pointee.borderColor.clamped, scene: scene, content: content))
        return holdsReferences
    }
}

/// A render tree's nodes (`RenderNode`): one record per drawn layer and one row per member of each node's sublayer
/// scene, a node's scene being a run of rows (built children first: a node's members are rows before its own).
/// The records lie in one buffer the table owns, written once in place at the freeze and never again: nodes read
/// them through pointers into it while holding the table.
///
/// `@unchecked Sendable`: the buffer is written only while the freeze builds it, before the table is made, and only
/// read afterwards; `Record` is `Sendable`.
final class RenderNodeTable: @unchecked Sendable {
    /// A member of a scene: its node's row in `records`, with its place in the scene (`RenderMember`'s fields).
    struct Member: Sendable {
        let node: Int, treeIndex: Int, solid: Int
    }

    let records: UnsafeMutablePointer<RenderNode.Record>
    let count: Int
    let members: [Member]
    /// The layers' names, by record (`count` of them).
    let names: UnsafeMutablePointer<String?>
    /// The records that hold a reference (`Record.write`'s answer), in increasing order; every other record's
    /// references are all `nil`, so destroying it would do nothing.
    let referencing: [Int]

    /// Takes `records` and `names`, `count` of each initialized (allocated with `allocate`): the table destroys the
    /// records in `referencing` and every name, and frees them all.
    init(records: UnsafeMutablePointer<RenderNode.Record>, count: Int, members: [Member], names: UnsafeMutablePointer<String?>,
         referencing: [Int]) {
        self.records = records; self.count = count; self.members = members; self.names = names; self.referencing = referencing
    }

    deinit {
        for r in referencing { (records + r).deinitialize(count: 1) }
        records.deallocate()
        PresentationTree.destroy(names: names, count: count)
    }

    /// The members of rows `scene`, as `RenderMember`s.
    func scene(_ scene: Range<Int>) -> [RenderMember] {
        guard !scene.isEmpty else { return [] }
        return [RenderMember](unsafeUninitializedCapacity: scene.count) { buffer, initialized in
            for (k, m) in zip(buffer.indices, scene) {
                let row = members[m]
                buffer.initializeElement(at: k, to: RenderMember(node: RenderNode(table: self, record: records + row.node),
                                                                 treeIndex: row.treeIndex, solid: row.solid))
            }
            initialized = scene.count
        }
    }
}

extension RenderNode {
    /// The bounding box of `ScenePolygon.corners(extent:transform:)` flattened (z dropped), `nil` where it is `nil`.
    /// A quad wholly in front of the eye (every corner's w past the near margin: the clip would keep it whole) is
    /// divided corner by corner with no arrays (a container of thousands of faces asks for one per member).
    static func flatBounds(_ extent: PlaneRect, transform m: Transform3D) -> PlaneRect? {
        let c0 = m.apply(Vector4(x: extent.minX, y: extent.minY, z: 0, w: 1)), c1 = m.apply(Vector4(x: extent.maxX, y: extent.minY, z: 0, w: 1))
        let c2 = m.apply(Vector4(x: extent.maxX, y: extent.maxY, z: 0, w: 1)), c3 = m.apply(Vector4(x: extent.minX, y: extent.maxY, z: 0, w: 1))
        // `ScenePolygon`'s margin: `Sequence.max()` of the w's, in corner order. (Scalars, not array literals: the
        // four corners and three w's were put in arrays for each of a container's members.)
        var largest = c0.w
        if largest < c1.w { largest = c1.w }
        if largest < c2.w { largest = c2.w }
        if largest < c3.w { largest = c3.w }
        let eps = PlaneChain.nearW * largest
        guard c0.w - eps >= 0, c1.w - eps >= 0, c2.w - eps >= 0, c3.w - eps >= 0 else {
            return ScenePolygon.corners(extent: extent, transform: m)
                .flatMap { PlaneRect.bounding($0.map { PlanePoint($0.x, $0.y) }) }
        }
        // The box of the divided corners with w > 0, in corner order: started at +∞…−∞, so the first corner's `min`
        // and `max` are that corner's coordinates exactly, as a box started from it (the coordinates are finite).
        var r = PlaneRect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity), count = 0
        // false: a divided corner is not finite (no box).
        @inline(__always) func add(_ p: Vector4) -> Bool {
            guard p.w > 0 else { return true }
            let q = Vector3(p.x / p.w, p.y / p.w, p.z / p.w)
            guard q.isFinite else { return false }
            count += 1
            r.minX = min(r.minX, q.x); r.maxX = max(r.maxX, q.x)
            r.minY = min(r.minY, q.y); r.maxY = max(r.maxY, q.y)
            return true
        }
        guard add(c0), add(c1), add(c2), add(c3) else { return nil }
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
/// member of exactly one scene), so a member is small: copying one is a reference (the node's table) and three
/// numbers.
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
