import Foundation
import Origami

/// Entry points into the renderer's internals for the benchmark suite (`Benchmarks/`), which times the depth
/// sort on its own. Not API: reachable only through `@_spi(Benchmarks) import OrigamiRender`, and free to change.
@_spi(Benchmarks) public enum BenchmarkProbes {
    /// The planes of one 3D context as the BSP receives them (the owner's space after the perspective divide).
    public static func scenePolygons(_ members: [RenderMember]) -> [[Vector3]] {
        members.compactMap { ScenePolygon.corners(extent: $0.node.extent, transform: $0.transform) }
    }

    /// The painter's depth order of one 3D context: polygons built from the members, BSP-sorted and split.
    /// Returns the member index of each fragment, back to front.
    public static func depthOrder(_ members: [RenderMember]) -> [Int] {
        Painter.depthOrder(members).map(\.member)
    }

    /// The painter's depth order of one 3D context with each fragment's corners (the context's space after the divide).
    public static func scenePolygonsInDepthOrder(_ members: [RenderMember]) -> [(member: Int, points: [Vector3])] {
        Painter.depthOrder(members).map { ($0.member, Array($0.points)) }
    }

    /// The BSP alone over convex planar polygons (tie-break: later polygons on top). Returns each fragment's
    /// polygon index and corners, back to front.
    public static func backToFront(_ polygons: [[Vector3]]) -> [(polygon: Int, points: [Vector3])] {
        let input = ScenePolygons(polygons.enumerated().map { ($1, $0) })
        // (Each fragment's corners copied once, into its own array, as the walk hands it out.)
        var out: [(polygon: Int, points: [Vector3])] = []
        out.reserveCapacity(input.count)
        BSPTree.backToFront(input, rank: { (0, $0) }) { out.append(($0.member, Array($0.points))) }
        return out
    }

    /// The painter's depth order of one 3D context as the painter receives it, fragment by fragment while the BSP is
    /// built, with the most the walk held at once: polygons pending in its work lists and corners in its point pool.
    public static func streamedDepthOrder(_ members: [RenderMember])
        -> (fragments: [(member: Int, points: [Vector3])], peakPendingPolygons: Int, peakPoints: Int) {
        var fragments: [(member: Int, points: [Vector3])] = []
        let statistics = Painter.depthOrder(Painter.scenePolygons(members).input, members: members) {
            fragments.append(($0.member, Array($0.points)))
        }
        return (fragments, statistics.peakPendingPolygons, statistics.peakPoints)
    }

    /// The depth order's walk over one 3D context without keeping its fragments: how many it made and the most it held
    /// at once (polygons pending in its work lists, corners in its point pool).
    public static func depthOrderStatistics(_ members: [RenderMember])
        -> (fragments: Int, peakPendingPolygons: Int, peakPoints: Int, sealCandidates: Int) {
        let input = Painter.scenePolygons(members).input
        let s = Painter.depthOrder(input, members: members) { _ in }
        let candidates = SharedEdges.sealCandidates(input, outline: { Painter.shapeOutline(members[$0]) },
                                                    sealable: { Painter.isSealable(members[$0]) })
        return (s.fragments, s.peakPendingPolygons, s.peakPoints, candidates.filter { $0 }.count)
    }

    /// `root` rendered with every fragment of a split plane drawn through a hard clip and the whole face, as before
    /// issue 20: the reference the fragment fill is compared against (benchmarks and tests). (A flag on
    /// `Renderer`'s internal path, not a `RenderOptions` field: a stored property added to `RenderOptions` made the
    /// serve tests abort in the concurrency runtime, "freed pointer was not the last allocation".)
    public static func renderClippingEveryFragment(_ root: Layer, size: CGSize, options: RenderOptions) throws -> RenderedImage {
        try Renderer.rendered(RenderTree(root: root, limits: options.limits), size: size, options: options,
                              clipsEveryFragment: true)
    }

    /// The BSP fragments of the root's scene (the first member's sublayer scene, as `Scenes` builds it) in the
    /// painter's order, in that member's bounds space after the divide (z dropped), with their member indices.
    public static func fragments(_ members: [RenderMember]) -> [(member: Int, points: [(x: Double, y: Double)])] {
        Painter.depthOrder(members).map { f in (f.member, f.points.map { ($0.x, $0.y) }) }
    }
}
