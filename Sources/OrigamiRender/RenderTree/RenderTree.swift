import Foundation
import Origami

/// An immutable, `Sendable` snapshot of a layer tree, taken once and rendered any number of times on any
/// threads (DESIGN §3.8). Hidden layers and layers with non-finite geometry, opacity, border width or corner
/// radius are left out (with their subtrees); lighting shaders are asked here, once per member, and never
/// change the layers.
public struct RenderTree: Sendable {
    /// The canvas's scene: the root placed in its (virtual) superlayer's space — or, when the root is a
    /// `TransformLayer`, its expanded sublayers, which then share the canvas's 3D space.
    public let members: [RenderMember]

    /// Snapshots the tree of `root`. The canvas is `root`'s superlayer space; `root` is placed by its own
    /// position, transform and zPosition.
    ///
    /// Throws `RenderError.limitExceeded` when the drawable tree has more layers or more levels than `limits`
    /// allow — checked by an iterative walk before anything is snapshotted, because the snapshot and the
    /// painting recurse once per level.
    public init(root: Layer, limits: RenderLimits = .default) throws {
        try limits.check(root)
        guard RenderTree.isDrawable(root) else { members = []; return }
        let place = root.geometry.placementTransform
        if root.isFlattening {
            members = [RenderMember(node: try RenderTree.node(root), transform: place, inheritedOpacity: 1,
                                    zPosition: root.zPosition, treeIndex: 0, shade: nil)]
        } else {
            members = try root.sublayerScene(including: RenderTree.isDrawable).map {
                RenderMember(node: try RenderTree.node($0.layer), transform: $0.transform.concatenating(place),
                             inheritedOpacity: $0.inheritedOpacity * min(max(root.opacity, 0), 1),
                             zPosition: $0.layer.zPosition, treeIndex: $0.treeIndex, shade: nil)
            }
        }
    }

    static func isDrawable(_ layer: Layer) -> Bool {
        !layer.isHidden && layer.geometry.isFinite && layer.opacity.isFinite
            && layer.borderWidth.isFinite && layer.cornerRadius.isFinite && layer.contentsScale.isFinite
    }

    /// Recursion follows the tree's depth of ordinary layers (transform layers are expanded iteratively).
    static func node(_ layer: Layer) throws -> RenderNode {
        let scene = layer.sublayerScene(including: isDrawable)
        let members = try scene.map { m in
            let shade = layer.lighting.flatMap { $0.shade(layer.faceTransforms(for: m), bounds: m.layer.bounds) }
            return RenderMember(node: try node(m.layer), transform: m.transform, inheritedOpacity: m.inheritedOpacity,
                                zPosition: m.layer.zPosition, treeIndex: m.treeIndex, shade: shade)
        }
        return try RenderNode(layer, members: members)
    }
}
