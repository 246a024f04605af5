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
    /// Per level (2 bits each, the first level in the lowest; 0 from the 33rd on): which of `Shortcut`'s forms
    /// `mapWithoutClipping` may apply it in, to a point a level before it has normalized. Worked out once per chain:
    /// a context's faces all see its chain.
    private let shortcuts: UInt64

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
        var shortcuts: UInt64 = 0
        for (i, h) in levels.prefix(32).enumerated() { shortcuts |= Shortcut.of(h.matrix) << (2 * UInt64(i)) }
        self.shortcuts = shortcuts
    }

    /// The forms a level can be applied in, to the bit, to a point the level before it has normalized — finite, w ≥ 0,
    /// and its largest coordinate ±1 exactly (`normalized` divides the coordinate whose size it divides by by itself)
    /// — instead of `step`'s nine products, six sums and (for the identity) three divisions:
    /// - `identity`: `(x·1 + y·0) + w·0` is x whenever x ≠ 0 (`x·1` is x, `y·0` and `w·0` are zeros, and a nonzero x
    ///   plus a zero is x), likewise y and w; `normalized` then divides by max(|x|, |y|, |w|) = 1, which changes
    ///   nothing. So the level leaves such a point as it is. (A zero coordinate could come out with the other sign
    ///   of zero: such a point takes `step`.)
    /// - `diagonal` (only m11, m22, m33 may be nonzero: the device's scale): `(x·m11 + y·m21) + w·m31` is `x·m11`
    ///   whenever that product is not zero (the two other terms are zeros: y and w are finite), likewise y and w,
    ///   and `normalized` and the tests follow as in `step`. (A zero product takes `step`.)
    /// Nothing more can be composed without changing the bits: each level's `normalized` divides by the largest
    /// coordinate, which rounds unless it is a power of two, and the next level's products start from the rounded
    /// point — the device's scale (2.56 for the benchmarks' canvas) is not one. (Nor can the first level take a
    /// shortcut when nothing was mapped before it: its point, (x, y, 1), is not normalized.)
    private enum Shortcut {
        static let none: UInt64 = 0, identity: UInt64 = 1, diagonal: UInt64 = 2

        static func of(_ m: Matrix3) -> UInt64 {
            guard m.m12 == 0, m.m13 == 0, m.m21 == 0, m.m23 == 0, m.m31 == 0, m.m32 == 0 else { return none }
            return m.m11 == 1 && m.m22 == 1 && m.m33 == 1 ? identity : diagonal
        }
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
    ///
    /// In perspective (the usual face) `mapWithoutClipping` is asked straight away, without emptying `out` first: it
    /// writes the four points over the scratch ring's (the face before's four) in place.
    func map(corners r: PlaneRect, after h: Homography, into out: inout Ring) {
        withUnsafeTemporaryAllocation(of: PlanePoint.self, capacity: 4) { corners in
            // `PlaneRect.corners`' order.
            corners.initializeElement(at: 0, to: PlanePoint(r.minX, r.minY))
            corners.initializeElement(at: 1, to: PlanePoint(r.maxX, r.minY))
            corners.initializeElement(at: 2, to: PlanePoint(r.maxX, r.maxY))
            corners.initializeElement(at: 3, to: PlanePoint(r.minX, r.maxY))
            if !(levelsAreAffine && Self.isAffine(h)),
               mapWithoutClipping(UnsafeBufferPointer(corners), first: h, into: &out) { return }
            map(UnsafeBufferPointer(corners), after: h, into: &out)
        }
    }

    private func map(_ ring: UnsafeBufferPointer<PlanePoint>, after h: Homography, into out: inout Ring) {
        // (Only a chain of affine levels can make an affine product with an affine `h`: most faces are seen in
        // perspective.)
        map(ring, first: h, affine: levelsAreAffine && Self.isAffine(h) ? Self.affineProduct(first: h, levels) : nil,
            into: &out)
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
    /// all or nothing. The ring's points are kept on the stack until all are known, then written over `out`'s when
    /// it holds as many (a scratch ring reused from one face to the next: no emptying, no capacity or uniqueness
    /// test per point), else in place of them; false (and `out` untouched) when some clip would cut (the caller then
    /// takes the general path from the start). (Inlined: a face's four corners then keep a loop of four; called, the
    /// lattice's 6 000 faces cost ≈ 0.7 M instructions more a render.)
    @inline(__always)
    private func mapWithoutClipping(_ ring: UnsafeBufferPointer<PlanePoint>, first: Homography?,
                                    into out: inout Ring) -> Bool {
        guard ring.count >= 3, ring.count <= 64 else { return false }
        let v = viewport, shortcuts = shortcuts
        return withUnsafeTemporaryAllocation(of: PlanePoint.self, capacity: ring.count) { kept -> Bool in
            var n = 0
            let mapped = levels.withUnsafeBufferPointer { levels -> Bool in
                for p in ring {
                    guard let d = Self.image(of: p, first: first, levels: levels, shortcuts: shortcuts, viewport: v) else {
                        return false
                    }
                    if d.isFinite, n == 0 || kept[n - 1] != d {
                        kept.initializeElement(at: n, to: d)
                        n += 1
                    }
                }
                return true
            }
            guard mapped else { return false }
            if n > 1, kept[0] == kept[n - 1] { n -= 1 }
            if n < 3 { n = 0 }
            if out.count == n {
                out.withUnsafeMutableBufferPointer { o in
                    for i in 0 ..< n { o[i] = kept[i] }
                }
            } else {
                out.empty()
                out.reserveCapacity(n)
                for i in 0 ..< n { out.append(kept[i]) }
            }
            return true
        }
    }

    /// One point of `mapWithoutClipping`'s ring through `first` (when given) and `levels`, divided: `nil` when some
    /// clip would cut it (the ring then takes the general path), a point that is not finite when it lies at infinity
    /// (w = 0: the point is skipped) or otherwise is not kept (`divided(within:)` drops it).
    @inline(__always)
    private static func image(of p: PlanePoint, first: Homography?, levels: UnsafeBufferPointer<Homography>,
                              shortcuts: UInt64, viewport v: PlaneRect) -> PlanePoint? {
        var q = HomogeneousPoint(x: p.x, y: p.y, w: 1)
        // The level after which the point is normalized (`Shortcut`): `first`, else the first of `levels`.
        var i = 0, kinds = shortcuts
        if let first {
            guard step(&q, first.matrix) else { return nil }
        } else if let h = levels.first {
            guard step(&q, h.matrix) else { return nil }
            i = 1
            kinds >>= 2
        }
        while i < levels.count {
            guard step(&q, levels[i].matrix, shortcut: kinds & 3) else { return nil }
            i += 1
            kinds >>= 2
        }
        // `divided(within:)`'s clips, in its order (each would keep a point on its inner side): the sides
        // `clipped(a:b:c:)` tests, `a·x + b·y + c·w`, whose zero terms add a signed zero, which changes
        // neither the sum of a nonzero term nor the sign test (≥ 0) of a zero sum. A point that is not finite
        // (possible only without levels) fails one of them as it fails `a·x + b·y + c·w` (its own
        // coordinate's two sides are ±∞ or NaN).
        guard q.w >= 0, q.x + -v.minX * q.w >= 0, -q.x + v.maxX * q.w >= 0,
              q.y + -v.minY * q.w >= 0, -q.y + v.maxY * q.w >= 0 else { return nil }
        guard q.w > 0 else { return PlanePoint(.nan, .nan) }
        return PlanePoint(Swift.min(Swift.max(q.x / q.w, v.minX), v.maxX), Swift.min(Swift.max(q.y / q.w, v.minY), v.maxY))
    }

    /// `step(&p, m)` for a point a level before has normalized, in the form `shortcut` (`Shortcut`) when it applies
    /// to the bit, else in full.
    @inline(__always)
    private static func step(_ p: inout HomogeneousPoint, _ m: Matrix3, shortcut: UInt64) -> Bool {
        if shortcut == Shortcut.identity {
            if p.x != 0, p.y != 0, p.w != 0 { return true }
        } else if shortcut == Shortcut.diagonal {
            let x = p.x * m.m11, y = p.y * m.m22, w = p.w * m.m33
            if x != 0, y != 0, w != 0 { return normalized(x, y, w, into: &p) }
        }
        return step(&p, m)
    }

    /// One level of `mapWithoutClipping` for one point: `map(_:through:)`'s image, normalized as it is, false when
    /// its clip would cut the point (w < 0) or it is not finite (the general path's test after each level).
    @inline(__always)
    private static func step(_ p: inout HomogeneousPoint, _ m: Matrix3) -> Bool {
        normalized(p.x * m.m11 + p.y * m.m21 + p.w * m.m31, p.x * m.m12 + p.y * m.m22 + p.w * m.m32,
                   p.x * m.m13 + p.y * m.m23 + p.w * m.m33, into: &p)
    }

    /// `(x, y, w).normalized` into `p` and whether it is finite with w ≥ 0 (`inFrontOfEye`'s side, 0·x + 0·y + 1·w,
    /// has the sign of w for a finite point); `p` is left as it was when not. The same answer and point with fewer
    /// tests: `normalized` divides by the largest size when it is finite and positive, else keeps the point. When the
    /// three are finite this largest size is the same number however it is picked (sizes that tie are the same
    /// bits, `abs` makes no −0), and the quotients are finite (none is above 1 in size); when one is not, the answer
    /// is false either way (`normalized` keeps the point, or a NaN or infinity divided by a finite size stays so).
    /// (w is tested after the division: a negative w divided by a large size can come out −0, which passes.)
    @inline(__always)
    private static func normalized(_ x: Double, _ y: Double, _ w: Double, into p: inout HomogeneousPoint) -> Bool {
        let ax = abs(x), ay = abs(y), aw = abs(w)
        guard ax < .infinity, ay < .infinity, aw < .infinity else { return false }
        let axy = ax > ay ? ax : ay, m = axy > aw ? axy : aw
        guard m > 0 else {
            p = HomogeneousPoint(x: x, y: y, w: w)
            return w >= 0
        }
        let q = HomogeneousPoint(x: x / m, y: y / m, w: w / m)
        guard q.w >= 0 else { return false }
        p = q
        return true
    }

    /// One point, or `nil` when it lies behind the eye at some level: `Homography.apply` level by level, on doubles
    /// (`apply(x:y:)`, its one home) — a scene's seals map two points each.
    func map(point p: PlanePoint) -> PlanePoint? {
        var q = (x: p.x, y: p.y)
        for h in levels {
            guard let r = h.apply(x: q.x, y: q.y) else { return nil }
            q = r
        }
        return PlanePoint(q.x, q.y)
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
