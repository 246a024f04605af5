import Foundation
import Origami

/// What a render paints: a `PresentationTree` with the paint payloads the painter needs per ordinary layer
/// (glyph outlines, extents, the shades its context's lighting decides). Immutable and `Sendable`, so it is
/// rendered any number of times on any threads (DESIGN §3.8). Layers the presentation tree marks undrawable
/// (hidden, or with non-finite geometry, opacity, border width, corner radius or contents scale) are left out
/// with their subtrees; lighting shaders are asked here, once per member, and never change the layers.
public struct RenderTree: Sendable {
    /// The canvas's scene: the root placed in the canvas — or, when the root is a `TransformLayer`, its expanded
    /// sublayers, which then share the canvas's 3D space.
    public let members: [RenderMember]

    /// Freezes the tree of `root` and prepares it for painting. The canvas is `root`'s superlayer space; `root`
    /// is placed by its own position, transform and zPosition. `time`: the presentation at that time of the root's
    /// parent, animations applied (`PresentationTree.init(_:placement:time:)`); `nil`, the model.
    ///
    /// Throws `RenderError.limitExceeded` when the drawable tree has more layers or more levels than `limits`
    /// allow — checked by an iterative walk before anything is frozen.
    public init(root: Layer, limits: RenderLimits = .default, time: Double? = nil) throws(RenderError) {
        try limits.check(root)
        let tree = PresentationTree(root, placement: .canvas, time: time)
        self = try RenderError.typed("snapshot") { try RenderTree(tree, checkedWithin: nil) }
    }

    /// Prepares a presentation tree for painting; its context −1 is the canvas. Throws `.invalidLighting` for a
    /// context whose `Lighting` fails `validate()`: an invalid lighting is refused, not rendered unlit.
    public init(_ tree: PresentationTree, limits: RenderLimits = .default) throws(RenderError) {
        self = try RenderError.typed("snapshot") { try RenderTree(tree, checkedWithin: limits) }
    }

    private init(_ tree: PresentationTree, checkedWithin limits: RenderLimits?) throws {
        try limits?.check(tree)
        let rendered = tree.renderedNodes
        guard rendered.first == true else { members = []; return }
        // Reverse pre-order: every node's members are built before the node itself.
        var built = [RenderNode?](repeating: nil, count: tree.count)
        func scene(of c: Int) -> [RenderMember] {
            let drawable = tree.drawableMembers(of: c)
            // Most nodes (a solid's faces) have no sublayer scene: nothing to light or to read.
            guard !drawable.isEmpty else { return [] }
            // The context's lighting (read in place, not from a copy of the node), and what its members' light
            // spaces share (worked out once per context). The shader is asked through the optional, so the
            // existential is not copied per member.
            let shader = c >= 0 ? tree.lighting(of: c) : nil
            let space = shader == nil ? nil : tree.faceTransformsContext(of: c)
            var scene: [RenderMember] = []
            scene.reserveCapacity(drawable.count)
            // The transform layer the previous member sits in (−1: none) and its solid number.
            var solidLayer = -1, solid = 0
            for (order, m) in drawable.enumerated() {
                guard let node = built[m] else { continue }
                let shade = space.map { shader?.shade(tree.faceTransforms(of: m, in: $0), bounds: node.presentation.bounds) } ?? nil
                // A member whose superlayer is not its context sits in a transform layer.
                let parent = node.presentation.parent, inSolid = parent >= 0 && parent != tree.context(of: m)
                if !inSolid || parent != solidLayer { solid = scene.count }
                solidLayer = inSolid ? parent : -1
                scene.append(RenderMember(node: node, transform: tree.transform(of: m),
                                          inheritedOpacity: tree.inheritedOpacity(of: m),
                                          zPosition: node.presentation.geometry.zPosition, treeIndex: order, shade: shade,
                                          solid: solid))
            }
            return scene
        }
        // One copy of each node, the one `RenderNode` keeps (`tree[i]` copies the node; `kind` and `lighting` read
        // their field in place).
        for i in stride(from: tree.count - 1, through: 0, by: -1) where rendered[i] {
            guard tree.kind(of: i) != .transformLayer else { continue }
            if let lighting = tree.lighting(of: i) as? Lighting {
                do { try lighting.validate() } catch {
                    throw RenderError.invalidLighting(layer: tree[i].name.map { "layer \"\($0)\"" } ?? "layer \(i)", reason: error)
                }
            }
            built[i] = try RenderNode(tree[i], members: scene(of: i))
        }
        members = scene(of: -1)
    }
}
