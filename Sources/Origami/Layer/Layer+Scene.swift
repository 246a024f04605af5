/// One plane of an ordinary layer's sublayer scene: a layer that flattens its own drawing, placed in the
/// scene's 3D space.
public struct SceneMember {
    public let layer: Layer
    /// From the member's bounds space into the scene owner's bounds space, chained through transform layers
    /// without flattening.
    public let transform: Transform3D
    /// The product of the opacities of the transform layers between the owner and the member (the member's
    /// own opacity not included).
    public let inheritedOpacity: Double
    /// The transform layers between the owner and the member, outermost first.
    public let transformLayers: [TransformLayer]
    /// Position in the scene's tree order (pre-order): later members draw on top of coplanar earlier ones.
    public let treeIndex: Int
}

extension Layer {
    /// The layer's sublayer scene (DESIGN §3): its direct sublayers, plus, recursively, the sublayers of any
    /// transform layer among them, each with its 4×4 matrix into this layer's bounds space. Hidden layers
    /// (and hidden transform layers' subtrees) are left out, as is anything `include` rejects.
    ///
    /// For a `TransformLayer` receiver the members are its own expanded sublayers in its bounds space.
    public func sublayerScene(including include: (Layer) -> Bool = { _ in true }) -> [SceneMember] {
        var members: [SceneMember] = []
        // Iterative pre-order walk: (layer, matrix of its superlayer into the owner, opacity, TL chain).
        var stack: [(Layer, Transform3D, Double, [TransformLayer])] =
            sublayers.reversed().map { ($0, .identity, 1, []) }
        while let (layer, parentMatrix, opacity, chain) = stack.popLast() {
            guard !layer.isHidden, include(layer) else { continue }
            let m = layer.transformToSuperlayer.concatenating(parentMatrix)
            if let tl = layer as? TransformLayer {
                let o = opacity * tl.opacity
                let c = chain + [tl]
                stack.append(contentsOf: tl.sublayers.reversed().map { ($0, m, o, c) })
            } else {
                members.append(SceneMember(
                    layer: layer, transform: m, inheritedOpacity: opacity, transformLayers: chain,
                    treeIndex: members.count))
            }
        }
        return members
    }
}
