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
    /// Whether every level is affine (`affineProduct`'s test): else no product with a level prepended is either, and
    /// a face's map need not try one.
    private let levelsAreAffine: Bool

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
        levelsAreAffine = levels.allSatisfy(Self.isAffine)
    }

    /// `affineProduct`'s test of one level: its w column is (0, 0, positive).
    private static func isAffine(_ h: Homography) -> Bool {
        let m = h.matrix
        return m.m13 == 0 && m.m23 == 0 && m.m33 > 0
    }

    /// The affine product of `first` (when given) and then `levels`.
    private static func affineProduct(first: Homography?, _ levels: [Homography]) -> Matrix3? {
        var product: Homography?
        func include(_ h: Homography) -> Bool {
            guard isAffine(h) else { return false }
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
        map(ring, into: &out)
        return out
    }

    /// `map(_:)`'s ring in `out` (its former points removed, its capacity kept): a scratch ring reused from one
    /// fragment to the next.
    func map(_ ring: Ring, into out: inout Ring) {
        ring.withUnsafeBufferPointer { map($0, into: &out) }
    }

    /// `map(_:into:)` for a ring's points in place (on the stack, say).
    func map(_ ring: UnsafeBufferPointer<PlanePoint>, into out: inout Ring) {
        map(ring, first: nil, affine: affine, into: &out)
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
        ring.withUnsafeBufferPointer { map($0, after: h, into: &out) }
    }

    /// `map(r.corners, after: h, into: &out)` without the corners' array (a plain face's outline is its bounds'
    /// corners: one array per face made and freed).
    func map(corners r: PlaneRect, after h: Homography, into out: inout Ring) {
        withUnsafeTemporaryAllocation(of: PlanePoint.self, capacity: 4) { corners in
            // `PlaneRect.corners`' order.
            corners.initializeElement(at: 0, to: PlanePoint(r.minX, r.minY))
            corners.initializeElement(at: 1, to: PlanePoint(r.maxX, r.minY))
            corners.initializeElement(at: 2, to: PlanePoint(r.maxX, r.maxY))
            corners.initializeElement(at: 3, to: PlanePoint(r.minX, r.maxY))
            map(UnsafeBufferPointer(corners), after: h, into: &out)
        }
    }

    private func map(_ ring: UnsafeBufferPointer<PlanePoint>, after h: Homography, into out: inout Ring) {
        // (Only a chain of affine levels can make an affine product with `h`: most faces are seen in perspective.)
        map(ring, first: h, affine: levelsAreAffine ? Self.affineProduct(first: h, levels) : nil, into: &out)
    }

    /// The ring through `first` (when given), then `levels`, into `out` (emptied first); `affine` is the product of
    /// those levels when affine.
    private func map(_ ring: UnsafeBufferPointer<PlanePoint>, first: Homography?, affine: Matrix3?, into out: inout Ring) {
        out.empty()
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
        out = mapThroughClips(ring, first: first)
    }

    /// The homogeneous path, clip after clip: the general case, which `mapWithoutClipping` shortens (and which tests
    /// compare it with).
    func mapThroughClips<Points: Sequence<PlanePoint>>(_ ring: Points, first: Homography?) -> Ring {
        var r = ring.map { HomogeneousPoint(x: $0.x, y: $0.y, w: 1) }
        for h in (first.map { [$0] } ?? []) + levels {
            r = Self.map(r, through: h)
            guard r.count >= 3, r.allSatisfy(\.isFinite) else { return [] }
        }
        return r.divided(within: viewport)
    }

    /// The homogeneous path for a ring that no clip would cut: every point in front of the eye (w ≥ 0) at every
    /// level and inside the viewport's frustum at the end — a face of a 3D scene on the canvas, the usual case.
    /// Each clip would then hand its ring back unchanged, so this does the same arithmetic per point (the same
    /// products, `normalized`, division and clamp, and side tests of the same sign) without an array per step, and
    /// point by point through every level: each point's image does not depend on the others', and the answer is
    /// all or nothing. The ring goes into `out` (empty); false (and `out` empty) when some clip would cut (the
    /// caller then takes the general path from the start).
    private func mapWithoutClipping(_ ring: UnsafeBufferPointer<PlanePoint>, first: Homography?,
                                    into out: inout Ring) -> Bool {
        let n = ring.count
        guard n >= 3, n <= 64 else { return false }
        let v = viewport
        out.reserveCapacity(n)
        let mapped = levels.withUnsafeBufferPointer { levels -> Bool in
            for p in ring {
                var q = HomogeneousPoint(x: p.x, y: p.y, w: 1)
                if let first, !Self.step(&q, first.matrix) { return false }
                for h in levels where !Self.step(&q, h.matrix) { return false }
                // `divided(within:)`'s clips, in its order (each would keep a point on its inner side): the sides
                // `clipped(a:b:c:)` tests, `a·x + b·y + c·w`, whose zero terms add a signed zero, which changes
                // neither the sum of a nonzero term nor the sign test (≥ 0) of a zero sum. A point that is not finite
                // (possible only without levels) fails one of them as it fails `a·x + b·y + c·w` (its own
                // coordinate's two sides are ±∞ or NaN).
                guard q.w >= 0, q.x + -v.minX * q.w >= 0, -q.x + v.maxX * q.w >= 0,
                      q.y + -v.minY * q.w >= 0, -q.y + v.maxY * q.w >= 0 else { return false }
                guard q.w > 0 else { continue }
                let d = PlanePoint(Swift.min(Swift.max(q.x / q.w, v.minX), v.maxX), Swift.min(Swift.max(q.y / q.w, v.minY), v.maxY))
                if d.isFinite, out.last != d { out.append(d) }
            }
            return true
        }
        guard mapped else {
            out.removeAll(keepingCapacity: true)
            return false
        }
        if out.count > 1, out.first == out.last { out.removeLast() }
        if out.count < 3 { out.removeAll(keepingCapacity: true) }
        return true
    }

    /// One level of `mapWithoutClipping` for one point: `map(_:through:)`'s image, normalized as it is, false when
    /// its clip would cut the point (w < 0) or it is not finite (the general path's test after each level).
    @inline(__always)
    private static func step(_ p: inout HomogeneousPoint, _ m: Matrix3) -> Bool {
        p = HomogeneousPoint(x: p.x * m.m11 + p.y * m.m21 + p.w * m.m31,
                             y: p.x * m.m12 + p.y * m.m22 + p.w * m.m32,
                             w: p.x * m.m13 + p.y * m.m23 + p.w * m.m33).normalized
        // `inFrontOfEye`'s side, 0·x + 0·y + 1·w, has the sign of w for a finite point.
        return p.w >= 0 && p.isFinite
    }

    /// One point, or `nil` when it lies behind the eye at some level: `Homography.apply` level by level (the test
    /// compares the two), its arithmetic inline and without `CGPoint`s — a scene's seals map two points each.
    func map(point p: PlanePoint) -> PlanePoint? {
        var x = p.x, y = p.y
        for h in levels {
            let m = h.matrix
            // `Matrix3.apply` of (x, y, 1): `1 · m31` is `m31`, to the bit.
            let hx = x * m.m11 + y * m.m21 + m.m31, hy = x * m.m12 + y * m.m22 + m.m32, hw = x * m.m13 + y * m.m23 + m.m33
            // `Homography.hasImage`: in front of the eye by more than rounding, and finite.
            let ax = abs(hx), ay = abs(hy)
            guard hw > 1e-12 * (ax > ay ? ax : ay), hw < .infinity, ax < .infinity, ay < .infinity else { return nil }
            x = hx / hw
            y = hy / hw
        }
        return PlanePoint(x, y)
    }

    /// `map(point:)` as `Homography.apply` gives it, through `CGPoint`s: what the inline form is tested against.
    func mapThroughHomographies(point p: PlanePoint) -> PlanePoint? {
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

extension Array where Element == PlanePoint {
    /// `removeAll(keepingCapacity: true)`, cheaper for a ring of a face's few points: that call (≈ 85 instructions,
    /// even on an empty array) costs more than taking four points off the end. A scratch ring is emptied so per face.
    mutating func empty() {
        if count > 4 {
            removeAll(keepingCapacity: true)
        } else {
            while !isEmpty { removeLast() }
        }
    }
}
