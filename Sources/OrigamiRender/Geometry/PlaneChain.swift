import Foundation
import Origami

/// How one plane reaches the canvas: the homographies of each flattening step, innermost first, the last one
/// ending in device pixels, and the part of the device that can be seen.
///
/// Rings are mapped in homogeneous coordinates and clipped against `w ≥ 0` at every level, so geometry behind
/// the eye at any level is cut away instead of folding back through infinity (DESIGN §3.3), and nothing is
/// divided until the end. There the ring is clipped to `viewport` (in homogeneous coordinates: against the
/// frustum the viewport spans) and only then divided, so what reaches Cairo is never larger than the canvas,
/// whether the layer is a hundred million points wide or a hair's breadth from the eye: Cairo keeps
/// coordinates in 24.8 fixed point, and beyond ±8.3 million device units it silently wraps them around.
/// Points on a plane map exactly under perspective because every path is a polyline mapped vertex by vertex.
struct PlaneChain: Sendable {
    /// Innermost first: `p_device = p · levels[0] · levels[1] · …` with a w-clip after each.
    let levels: [Homography]
    /// Where device geometry is clipped: the visible canvas with a margin, or (for a chain made without one)
    /// the largest square Cairo represents exactly.
    let viewport: PlaneRect

    /// The near-plane margin for a polygon that is divided before it is drawn (`ScenePolygon`, for the BSP):
    /// a point whose w is below this fraction of the polygon's largest w is treated as behind the eye. Such a
    /// point lands a million times farther out than the polygon's farthest point: off the canvas unless the
    /// plane all but passes through the eye.
    static let nearW = 1e-6

    /// Device units the viewport extends beyond the visible canvas on every side, so edges created by the
    /// clip lie outside every pixel that is drawn (antialiasing and the 1.5-pixel seal never reach them).
    static let viewportMargin = 4.0

    /// Half the side of the square Cairo's 24.8 fixed point holds with room to spare.
    static let cairoRange = 4_000_000.0

    /// A chain that clips to the visible `canvas` (device units), enlarged by `viewportMargin`.
    init(_ levels: [Homography], canvas: PlaneRect) {
        self.levels = levels
        let m = Self.viewportMargin
        viewport = PlaneRect(minX: canvas.minX - m, minY: canvas.minY - m, maxX: canvas.maxX + m, maxY: canvas.maxY + m)
    }

    /// A chain that only keeps device geometry within Cairo's range.
    init(_ levels: [Homography]) {
        self.levels = levels
        let r = Self.cairoRange
        viewport = PlaneRect(minX: -r, minY: -r, maxX: r, maxY: r)
    }

    private init(levels: [Homography], viewport: PlaneRect) { self.levels = levels; self.viewport = viewport }

    /// A plane seen through `h` first, then through this chain.
    func prepending(_ h: Homography) -> PlaneChain { PlaneChain(levels: [h] + levels, viewport: viewport) }

    /// The product of every level: exact for points in front of the eye at every level.
    var composite: Homography {
        levels.dropFirst().reduce(levels.first ?? .identity) { $0.concatenating($1) }
    }

    /// The ring mapped into device space and clipped to the viewport; empty when nothing of it is in front of
    /// the eye within the viewport.
    /// A ring with a coordinate that is not finite, or that overflows on the way, draws nothing.
    func map(_ ring: Ring) -> Ring {
        var r = ring.map { HomogeneousPoint(x: $0.x, y: $0.y, w: 1) }
        for h in levels {
            r = Self.map(r, through: h)
            guard r.count >= 3, r.allSatisfy(\.isFinite) else { return [] }
        }
        return r.divided(within: viewport)
    }

    /// One point, or `nil` when it lies behind the eye at some level.
    func map(point p: PlanePoint) -> PlanePoint? {
        var q = CGPoint(x: p.x, y: p.y)
        for h in levels {
            guard let r = h.apply(q) else { return nil }
            q = r
        }
        return PlanePoint(Double(q.x), Double(q.y))
    }

    /// A segment's two ends, or `nil` when one lies behind the eye at some level.
    func map(_ segment: PlaneSegment) -> PlaneSegment? {
        guard let a = map(point: segment.a), let b = map(point: segment.b) else { return nil }
        return PlaneSegment(a: a, b: b)
    }

    func map(_ rings: [Ring]) -> [Ring] { rings.map(map).filter { $0.count >= 3 } }

    /// One level: the homogeneous image, clipped against w ≥ 0 (the positive scale each point carries from the
    /// levels before does not change which side of the eye it is on at this one).
    static func map(_ ring: [HomogeneousPoint], through h: Homography) -> [HomogeneousPoint] {
        let m = h.matrix
        return ring.map { p in
            HomogeneousPoint(x: p.x * m.m11 + p.y * m.m21 + p.w * m.m31,
                             y: p.x * m.m12 + p.y * m.m22 + p.w * m.m32,
                             w: p.x * m.m13 + p.y * m.m23 + p.w * m.m33).normalized
        }.inFrontOfEye
    }
}
