/// One plane of an ordinary layer's sublayer scene: a layer that flattens its own drawing, placed in the
/// scene's 3D space.
public struct SceneMember {
    /// The member layer (an ordinary layer, never a `TransformLayer`).
    public let layer: Layer
    /// From the member's bounds space into the scene owner's bounds space, chained through transform layers
    /// without flattening.
    public let transform: Transform3D
    /// The product of the opacities (each clamped to 0…1) of the transform layers between the owner and the
    /// member (the member's own opacity not included).
    public let inheritedOpacity: Double
    /// The transform layers between the owner and the member, outermost first.
    public let transformLayers: [TransformLayer]
    /// Position in the scene's tree order (pre-order): later members draw on top of coplanar earlier ones.
    public let treeIndex: Int
    /// Lighting's object space for the member (`PresentationTree.Node.objectTransform`).
    let objectTransform: Transform3D
}

extension Layer {
    /// The layer's sublayer scene (DESIGN §3): its direct sublayers, plus, recursively, the sublayers of any
    /// transform layer among them, each with its 4×4 matrix into this layer's bounds space. Hidden layers
    /// (and hidden transform layers' subtrees) are left out, as is anything `include` rejects.
    ///
    /// For a `TransformLayer` receiver the members are its own expanded sublayers in its bounds space. Read from
    /// a `PresentationTree` of the receiver: a caller that needs more than the members should hold that tree.
    public func sublayerScene(including include: (Layer) -> Bool = { _ in true }) -> [SceneMember] {
        let tree = PresentationTree(self, placement: .ownSpace)
        var members: [SceneMember] = []
        for m in tree.sublayerSceneNodes(including: include) {
            let chain = tree.transformLayers(of: m).filter { $0 != 0 }  // not the receiver itself
            members.append(SceneMember(
                layer: tree.layer(m), transform: tree.transform(of: m),
                inheritedOpacity: chain.reduce(1) { $0 * min(max(tree[$1].opacity, 0), 1) },
                transformLayers: chain.compactMap(tree.transformLayer), treeIndex: members.count,
                objectTransform: tree.objectTransform(of: m)))
        }
        return members
    }
}

extension PresentationTree {
    /// The members of the root's sublayer scene (`Layer.sublayerScene`) as nodes, in tree order: hidden ones,
    /// those under a hidden transform layer and those `include` rejects left out.
    func sublayerSceneNodes(including include: (Layer) -> Bool = { _ in true }) -> [Int] {
        members(of: rootSceneContext).filter { m in
            guard m != 0 else { return false }
            let chain = transformLayers(of: m).filter { $0 != 0 }  // not the receiver itself
            return ([m] + chain).allSatisfy { !self[$0].isHidden && include(layer($0)) }
        }
    }
}
