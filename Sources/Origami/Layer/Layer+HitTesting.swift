import Foundation

/// Which layer a touch at a point reaches when several lie under it.
public enum HitTestPolicy: String, Sendable, CaseIterable {
    /// Later siblings first, recursively; zPosition and depth ignored. UIKit's touch delivery and the book's
    /// rule: the cube's faces 4, 5, 6, added after face 3, intercept touches meant for face 3's button.
    /// Layers with opacity below 0.01 are skipped, as UIKit skips views with alpha < 0.01.
    case treeOrder
    /// `-[CALayer hitTest:]` as measured on Apple's systems: siblings by descending zPosition, then later
    /// first. Opacity is not considered.
    case coreAnimation
    /// The plane actually visible at the point: members of each 3D context in depth order, culled back faces
    /// skipped. What a browser's `elementFromPoint` does with `preserve-3d`.
    case frontmost
}

/// What a touch reaches: the layer, and where it sits in a solid.
public struct HitTestResult {
    /// The deepest layer hit (never a `TransformLayer`).
    public let layer: Layer
    /// The plane the layer is drawn on: the nearest ancestor-or-self placed in 3D (a sublayer of a transform
    /// layer, or with a non-affine matrix to its superlayer); the layer itself in a flat tree.
    public let face: Layer
    /// The transform layer holding `face`, if any (the solid a face belongs to).
    public let solid: TransformLayer?
    /// The touch in `layer`'s own bounds space.
    public let localPoint: CGPoint
    /// z after the perspective divide of the touched point on `face`, in the space of the layer that flattens
    /// `face` (larger is nearer the viewer).
    public let depth: Double
}

/// One layer under a point, with its place in both orders.
public struct HitCandidate {
    /// The layer, the point in its own bounds space and its depth, as a single answer would give them.
    public let result: HitTestResult
    /// 0 for the layer `.treeOrder` returns, 1 for the one it would return if that one did not exist, …
    public let treeRank: Int
    /// 0 for the frontmost plane at the point, counting back-facing culled layers where their depth puts them.
    public let depthRank: Int
    /// Back-facing with `isDoubleSided == false` (or on such a plane): not drawn, still touchable in tree order.
    public let isCulled: Bool

    /// The layer under the point (`result.layer`).
    public var layer: Layer { result.layer }
}

extension Layer {
    // Each call freezes the subtree into a `PresentationTree` and asks it: a caller with many questions about one
    // unchanged tree (a hit map, a UI, a benchmark) holds one tree and asks it directly.

    /// The farthest descendant (or the receiver) containing `point`, which is in the receiver's **superlayer**
    /// space, in tree order. Corresponds to `-[CALayer hitTest:]` as UIKit delivers touches.
    public func hitTest(_ point: CGPoint) -> Layer? { hitTest(point, policy: .treeOrder) }

    /// The layer a touch at `point` (in the receiver's superlayer space) reaches under `policy`.
    public func hitTest(_ point: CGPoint, policy: HitTestPolicy) -> Layer? {
        PresentationTree(self).hitTest(point, policy: policy)
    }

    /// The face-aware answer for a touch at `point` (in the receiver's superlayer space).
    public func hitTestResult(_ point: CGPoint, policy: HitTestPolicy = .treeOrder) -> HitTestResult? {
        PresentationTree(self).hitTestResult(point, policy: policy)
    }

    /// Every layer under `point` (in the receiver's superlayer space), in tree order, each with its tree rank
    /// and depth rank: where the two differ, a touch is intercepted.
    public func hitTestAll(_ point: CGPoint) -> [HitCandidate] {
        PresentationTree(self).hitTestAll(point)
    }

    /// `hitTest(_:policy:)` for many points at once (each in the receiver's superlayer space): the tree is frozen
    /// once for all of them.
    public func hitTest(_ points: [CGPoint], policy: HitTestPolicy) -> HitTestBatch {
        PresentationTree(self).hitTest(points, policy: policy)
    }
}

/// The answers of `Layer.hitTest(_:policy:)` for a sequence of points.
public struct HitTestBatch {
    /// The layers reached, each once, in the order of their first hit.
    public let layers: [Layer]
    /// Per point, in order: the index in `layers` of the layer reached, or −1 for none.
    public let hits: [Int32]

    /// The layer reached by the `i`-th point.
    public subscript(i: Int) -> Layer? { hits[i] < 0 ? nil : layers[Int(hits[i])] }
}

// MARK: - Faces

extension Layer {
    /// Even-odd point-in-polygon test: touches on a solid's face with an outline (a pyramid's triangle, a
    /// prism's cap) must fall inside it, so a touch on the bounds' empty corners reaches what lies behind.
    static func polygon(_ polygon: some RandomAccessCollection<CGPoint>, contains p: CGPoint) -> Bool {
        guard !polygon.isEmpty else { return false }
        var inside = false
        var j = polygon.index(before: polygon.endIndex)
        for i in polygon.indices {
            let a = polygon[i], b = polygon[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }
}
