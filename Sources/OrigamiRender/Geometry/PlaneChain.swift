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

    /// The product of the levels scaled to m33 = 1, when none has perspective (each level's w column is
    /// (0, 0, positive)): a ring within the viewport then maps point by point, as the homogeneous path would map it
    /// (to rounding), without its clips.
    private let affine: Matrix3?

    /// A chain that clips to the visible `canvas` (device units), enlarged by `viewportMargin`.
    init(_ levels: [Homography], canvas: PlaneRect) {
        let m = Self.viewportMargin
        self.init(levels: levels,
                  viewport: PlaneRect(minX: canvas.minX - m, minY: canvas.minY - m, maxX: canvas.maxX + m, maxY: canvas.maxY + m))
    }

    /// A chain that only keeps device geometry within Cairo's range.
    init(_ levels: [Homography]) {
        let r = Self.cairoRange
        self.init(levels: levels, viewport: PlaneRect(minX: -r, minY: -r, maxX: r, maxY: r))
    }

    private init(levels: [Homography], viewport: PlaneRect) {
        self.levels = levels; self.viewport = viewport
        affine = Self.affineProduct(first: nil, levels)
    }

    /// The affine product of `first` (when given) and then `levels`.
    private static func affineProduct(first: Homography?, _ levels: [Homography]) -> Matrix3? {
        var product: Homography?
        func include(_ h: Homography) -> Bool {
            let m = h.matrix
            guard m.m13 == 0, m.m23 == 0, m.m33 > 0 else { return false }
            product = product.map { $0.concatenating(h) } ?? h
            return true
        }
        if let first, !include(first) { return nil }
        for h in levels where !include(h) { return nil }
        guard let m = product?.matrix, m.m33 > 0, m.m33.isFinite else { return nil }
        let k = m.m33
        return Matrix3(m11: m.m11 / k, m12: m.m12 / k, m13: 0, m21: m.m21 / k, m22: m.m22 / k, m23: 0,
                       m31: m.m31 / k, m32: m.m32 / k, m33: 1)
    }

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
        var out: Ring = []
        map(ring, first: nil, affine: affine, into: &out)
        return out
    }

    /// `prepending(h).map(ring)` (the same arithmetic, the same ring) without making the prepended chain: a face's
    /// outline, mapped once per paint.
    func map(_ ring: Ring, after h: Homography) -> Ring {
        var out: Ring = []
        map(ring, after: h, into: &out)
        return out
    }

    /// `map(_:after:)`'s ring in `out` (its former points removed, its capacity kept): a scratch ring reused from
    /// one face to the next.
    func map(_ ring: Ring, after h: Homography, into out: inout Ring) {
        map(ring, first: h, affine: Self.affineProduct(first: h, levels), into: &out)
    }

    /// The ring through `first` (when given), then `levels`, into `out` (emptied first); `affine` is the product of
    /// those levels when affine.
    private func map(_ ring: Ring, first: Homography?, affine: Matrix3?, into out: inout Ring) {
        out.removeAll(keepingCapacity: true)
        if let m = affine {
            out.reserveCapacity(ring.count)
            var inside = true
            for p in ring {
                let q = PlanePoint(p.x * m.m11 + p.y * m.m21 + m.m31, p.x * m.m12 + p.y * m.m22 + m.m32)
                guard q.x >= viewport.minX, q.x <= viewport.maxX, q.y >= viewport.minY, q.y <= viewport.maxY else {
                    inside = false
                    break
                }
                if out.last != q { out.append(q) }
            }
            if inside {
                if out.count > 1, out.first == out.last { out.removeLast() }
                if out.count < 3 { out.removeAll(keepingCapacity: true) }
                return
            }
            out.removeAll(keepingCapacity: true)
        }
        if mapWithoutClipping(ring, first: first, into: &out) { return }
        var r = ring.map { HomogeneousPoint(x: $0.x, y: $0.y, w: 1) }
        for h in (first.map { [$0] } ?? []) + levels {
            r = Self.map(r, through: h)
            guard r.count >= 3, r.allSatisfy(\.isFinite) else { return }
        }
        out = r.divided(within: viewport)
    }

    /// The homogeneous path for a ring that no clip would cut: every point in front of the eye (w ≥ 0) at every
    /// level and inside the viewport's frustum at the end — a face of a 3D scene on the canvas, the usual case.
    /// Each clip would then hand its ring back unchanged, so this does the same arithmetic (the same products,
    /// `normalized`, the same side tests, division and clamp) on one scratch buffer instead of an array per step;
    /// The ring goes into `out` (empty); false (and `out` still empty) when some clip would cut (the caller then
    /// takes the general path from the start).
    private func mapWithoutClipping(_ ring: Ring, first: Homography?, into out: inout Ring) -> Bool {
        let n = ring.count
        guard n >= 3, n <= 64 else { return false }
        // The side `clipped(a:b:c:)` tests.
        func side(_ p: HomogeneousPoint, _ a: Double, _ b: Double, _ c: Double) -> Double { a * p.x + b * p.y + c * p.w }
        return withUnsafeTemporaryAllocation(of: HomogeneousPoint.self, capacity: n) { r -> Bool in
            for (i, p) in ring.enumerated() { r[i] = HomogeneousPoint(x: p.x, y: p.y, w: 1) }
            // One level: false when some point would be cut.
            func apply(_ h: Homography) -> Bool {
                let m = h.matrix
                for i in 0..<n {
                    let p = r[i]
                    let q = HomogeneousPoint(x: p.x * m.m11 + p.y * m.m21 + p.w * m.m31,
                                             y: p.x * m.m12 + p.y * m.m22 + p.w * m.m32,
                                             w: p.x * m.m13 + p.y * m.m23 + p.w * m.m33).normalized
                    // `inFrontOfEye`'s side (0·x + 0·y + 1·w) and the finiteness the general path asks for.
                    guard side(q, 0, 0, 1) >= 0, q.isFinite else { return false }
                    r[i] = q
                }
                return true
            }
            if let first, !apply(first) { return false }
            for h in levels where !apply(h) { return false }
            let v = viewport
            for i in 0..<n {
                let p = r[i]
                // `divided(within:)`'s clips, in its order: each would keep a point on its inner side.
                guard side(p, 0, 0, 1) >= 0, side(p, 1, 0, -v.minX) >= 0, side(p, -1, 0, v.maxX) >= 0,
                      side(p, 0, 1, -v.minY) >= 0, side(p, 0, -1, v.maxY) >= 0 else { return false }
            }
            out.reserveCapacity(n)
            for i in 0..<n where r[i].w > 0 {
                let p = r[i]
                let q = PlanePoint(Swift.min(Swift.max(p.x / p.w, v.minX), v.maxX), Swift.min(Swift.max(p.y / p.w, v.minY), v.maxY))
                if q.isFinite, out.last != q { out.append(q) }
            }
            if out.count > 1, out.first == out.last { out.removeLast() }
            if out.count < 3 { out.removeAll(keepingCapacity: true) }
            return true
        }
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
