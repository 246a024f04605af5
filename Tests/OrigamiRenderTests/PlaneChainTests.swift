import Foundation
import Origami
import Testing
import TestSupport
@testable import OrigamiRender

/// Issue 20: `PlaneChain` maps a ring that no clip cuts point by point through every level (`mapWithoutClipping`),
/// and a face's bounds without the corners' array (`map(corners:after:into:)`). Both must give the general
/// homogeneous path's ring (`mapThroughClips`: an array and a clip per level, then the viewport's four clips) bit for
/// bit, on rings it does not cut and on rings it does (behind the eye, off the canvas).
@Suite("Plane chain")
struct PlaneChainTests {
    static let canvas = PlaneRect(minX: 0, minY: 0, maxX: 800, maxY: 600)

    /// A level seen in perspective: a turned plane placed in front of an eye `distance` away, as a 3D context's member
    /// and its owner make one.
    static func perspectiveLevel(_ g: inout SplitMix, distance: Double) -> Homography {
        var t = Transform3D(rotationAngle: g.next(-1.4, 1.4), x: g.next(-1, 1), y: g.next(-1, 1), z: g.next(-0.3, 0.3))
        t = t.concatenating(Transform3D(translationX: g.next(-200, 200), y: g.next(-200, 200), z: g.next(-300, 150)))
        return Homography(t.concatenating(Transform3D.perspective(distance: distance)))
    }

    /// A chain of a perspective level and the device's scale and offset (never affine as a whole).
    static func chain(_ g: inout SplitMix) -> PlaneChain {
        let device = Homography(Matrix3(m11: 2, m12: 0, m13: 0, m21: 0, m22: 2, m23: 0,
                                        m31: g.next(100, 500), m32: g.next(100, 400), m33: 1))
        return PlaneChain([perspectiveLevel(&g, distance: g.next(300, 1000)), device], canvas: canvas)
    }

    /// A random ring: a rectangle's corners (the usual outline), a convex polygon, or a star (not convex).
    static func ring(_ g: inout SplitMix, scale: Double) -> Ring {
        let kind = Int(g.next(0, 3)), cx = g.next(-scale, scale), cy = g.next(-scale, scale)
        if kind == 0 {
            let w = g.next(1, scale), h = g.next(1, scale)
            return PlaneRect(minX: cx, minY: cy, maxX: cx + w, maxY: cy + h).corners
        }
        let n = 3 + Int(g.next(0, 6)), r = g.next(1, scale)
        return (0..<n).map { i in
            let a = 2 * Double.pi * Double(i) / Double(n), k = kind == 2 && i % 2 == 1 ? 0.4 : 1
            return PlanePoint(cx + k * r * cos(a), cy + k * r * sin(a))
        }
    }

    static func bits(_ ring: Ring) -> [UInt64] { ring.flatMap { [$0.x.bitPattern, $0.y.bitPattern] } }

    @Test("a ring mapped point by point through every level is the homogeneous path's ring, to the bit")
    func fastPathIsTheGeneralPath() {
        var g = SplitMix(20)
        var whole = 0, cut = 0
        // A scratch ring reused throughout: it holds the previous ring (fewer points, more, or as many) when written.
        var scratch: Ring = []
        for _ in 0..<400 {
            let chain = Self.chain(&g)
            for _ in 0..<10 {
                // Small rings stay on the canvas; big ones reach behind the eye or off the canvas.
                let r = Self.ring(&g, scale: g.next(0, 1) < 0.7 ? 150 : 5_000)
                let general = chain.mapThroughClips(r, first: nil)
                #expect(Self.bits(chain.map(r)) == Self.bits(general))
                let h = Self.perspectiveLevel(&g, distance: g.next(400, 2000))
                let after = chain.mapThroughClips(r, first: h)
                #expect(Self.bits(chain.map(r, after: h)) == Self.bits(after))
                #expect(Self.bits(chain.prepending(h).map(r)) == Self.bits(after))
                chain.map(r, into: &scratch)
                #expect(Self.bits(scratch) == Self.bits(general))
                chain.map(r, after: h, into: &scratch)
                #expect(Self.bits(scratch) == Self.bits(after))
                if after.count == r.count { whole += 1 } else { cut += 1 }
            }
        }
        // Both kinds were asked: rings no clip cuts (the fast path) and rings it does.
        #expect(whole > 1000 && cut > 1000)
    }

    /// A level `mapWithoutClipping` applies in a shortcut form or in full: the identity (also with −0 off its
    /// diagonal), a diagonal scale (the device's 2.56, powers of two, one that underflows or overflows a coordinate,
    /// a −0 off the diagonal, m33 ≠ 1), the device's scale and offset, or a perspective level.
    static func anyLevel(_ g: inout SplitMix) -> Homography {
        switch Int(g.next(0, 7)) {
        case 0: return .identity
        case 1: return Homography(Matrix3(m11: 1, m12: -0.0, m13: 0, m21: 0, m22: 1, m23: -0.0, m31: -0.0, m32: 0, m33: 1))
        case 2, 3:
            let scales = [2.56, 1, 2, 0.5, 3, Double.leastNormalMagnitude, 1e300, -1]
            let s = scales[Int(g.next(0, Double(scales.count)))], t = g.next(0, 1) < 0.5 ? s : g.next(0.5, 3)
            return Homography(Matrix3(m11: s, m12: 0, m13: -0.0, m21: -0.0, m22: t, m23: 0,
                                      m31: 0, m32: -0.0, m33: g.next(0, 1) < 0.7 ? 1 : g.next(0.5, 2)))
        case 4:
            return Homography(Matrix3(m11: 2, m12: 0, m13: 0, m21: 0, m22: 2, m23: 0,
                                      m31: g.next(-100, 300), m32: g.next(-100, 300), m33: 1))
        default: return perspectiveLevel(&g, distance: g.next(300, 2000))
        }
    }

    /// A level in perspective that keeps x = 0 and y = 0 on the axes (its X and Y take no part of the other
    /// coordinate or of w): corners on an axis come out with a zero coordinate, which no shortcut may take.
    static func axisKeepingLevel(_ g: inout SplitMix) -> Homography {
        Homography(Matrix3(m11: g.next(0.5, 2), m12: 0, m13: g.next(-1e-3, 1e-3),
                           m21: 0, m22: g.next(0.5, 2), m23: g.next(-1e-3, 1e-3), m31: 0, m32: 0, m33: 1))
    }

    @Test("levels that are the identity or diagonal are applied in short forms to the bit (zeros, overflow, behind the eye)")
    func shortcutLevelsAreTheGeneralPath() {
        var g = SplitMix(23)
        var whole = 0, withZeros = 0, cut = 0
        var scratch: Ring = []
        for k in 0..<1500 {
            let chain = PlaneChain((0..<(1 + k % 4)).map { _ in Self.anyLevel(&g) }, canvas: Self.canvas)
            let affine = chain.levels.allSatisfy { $0.matrix.m13 == 0 && $0.matrix.m23 == 0 && $0.matrix.m33 > 0 }
            for _ in 0..<8 {
                // Rectangles and polygons on the canvas, big ones reaching behind the eye, rectangles with a corner on
                // an axis, and now and then a point that is not finite.
                var r: Ring
                switch Int(g.next(0, 4)) {
                case 0: r = Self.ring(&g, scale: 150)
                case 1: r = Self.ring(&g, scale: 5_000)
                default:
                    let w = g.next(1, 300), h = g.next(1, 300), left = g.next(0, 1) < 0.5, y = g.next(0, 1) < 0.5 ? 0 : -h
                    r = PlaneRect(minX: left ? 0 : -w, minY: y, maxX: left ? w : 0, maxY: y + h).corners
                }
                if g.next(0, 1) < 0.03 { r[0] = PlanePoint(k % 2 == 0 ? .infinity : .nan, r[0].y) }
                let h = g.next(0, 1) < 0.5 ? Self.axisKeepingLevel(&g) : Self.perspectiveLevel(&g, distance: g.next(400, 2000))
                let after = chain.mapThroughClips(r, first: h)
                #expect(Self.bits(chain.map(r, after: h)) == Self.bits(after))
                chain.map(r, after: h, into: &scratch)
                #expect(Self.bits(scratch) == Self.bits(after))
                if !affine {
                    // (An affine chain maps a ring with no level before it through its product instead.)
                    #expect(Self.bits(chain.map(r)) == Self.bits(chain.mapThroughClips(r, first: nil)))
                }
                if after.count == r.count {
                    whole += 1
                    if after.contains(where: { $0.x == 0 || $0.y == 0 }) { withZeros += 1 }
                } else {
                    cut += 1
                }
            }
        }
        #expect(whole > 2000 && cut > 1000 && withZeros > 300)
    }

    @Test("a face's bounds mapped without the corners' array are its corners' ring mapped, to the bit")
    func cornersAreTheCornersRing() {
        var g = SplitMix(21)
        for k in 0..<2000 {
            // Every fourth chain is affine (a flat context: the affine product's path).
            let chain = k % 4 == 0
                ? PlaneChain([Homography(Matrix3(m11: g.next(0.5, 2), m12: g.next(-0.5, 0.5), m13: 0,
                                                 m21: g.next(-0.5, 0.5), m22: g.next(0.5, 2), m23: 0,
                                                 m31: g.next(0, 400), m32: g.next(0, 300), m33: 1))], canvas: Self.canvas)
                : Self.chain(&g)
            let x = g.next(-300, 300), y = g.next(-300, 300)
            let rect = PlaneRect(minX: x, minY: y, maxX: x + g.next(1, 400), maxY: y + g.next(1, 400))
            let h = k % 8 == 0 ? Homography.identity : Self.perspectiveLevel(&g, distance: g.next(400, 2000))
            // Into a ring that holds a former ring's points (as many as a face's, or fewer, or more).
            var out: Ring = Array(repeating: PlanePoint(1, 2), count: k % 7)
            chain.map(corners: rect, after: h, into: &out)
            #expect(Self.bits(out) == Self.bits(chain.map(rect.corners, after: h)))
        }
    }

    /// `map(corners:after:into:)` in perspective maps the four corners on the stack and writes them over the scratch
    /// ring when it holds as many (the face before's four): against the general path, on every kind of chain level
    /// (identity, diagonal, offsets, perspective), corners on an axis, rings that are cut, scratch rings of any length.
    @Test("a face's bounds in perspective, written over a scratch ring, are the general path's ring to the bit")
    func cornersOverScratchAreTheGeneralPath() {
        var g = SplitMix(24)
        var whole = 0, cut = 0, overwritten = 0
        var scratch: Ring = []
        for k in 0..<3000 {
            let chain = PlaneChain((0..<(1 + k % 4)).map { _ in Self.anyLevel(&g) }, canvas: Self.canvas)
            let rect: PlaneRect
            switch k % 3 {
            case 0:
                let x = g.next(-300, 300), y = g.next(-300, 300)
                rect = PlaneRect(minX: x, minY: y, maxX: x + g.next(1, 400), maxY: y + g.next(1, 400))
            case 1:
                let w = g.next(1, 300), h = g.next(1, 300), left = g.next(0, 1) < 0.5, y = g.next(0, 1) < 0.5 ? 0 : -h
                rect = PlaneRect(minX: left ? 0 : -w, minY: y, maxX: left ? w : 0, maxY: y + h)
            default:
                rect = PlaneRect(minX: -5_000, minY: g.next(-5_000, 0), maxX: g.next(0, 5_000), maxY: 5_000)
            }
            let h = g.next(0, 1) < 0.3 ? Self.axisKeepingLevel(&g) : Self.perspectiveLevel(&g, distance: g.next(400, 2000))
            // Mostly the face before's four points (the in-place write), now and then fewer or more.
            if k % 5 == 0 { scratch = Array(repeating: PlanePoint(7, 8), count: k % 9) }
            if scratch.count == 4 { overwritten += 1 }
            chain.map(corners: rect, after: h, into: &scratch)
            let general = chain.mapThroughClips(rect.corners, first: h)
            #expect(Self.bits(scratch) == Self.bits(general))
            if general.count == 4 { whole += 1 } else { cut += 1 }
        }
        #expect(whole > 1000 && cut > 300 && overwritten > 1000)
    }

    @Test("a point mapped inline is Homography.apply's point level by level, to the bit, and nil where it is")
    func pointsAreTheHomographiesPoints() {
        var g = SplitMix(22)
        var mapped = 0, behind = 0
        for k in 0..<400 {
            var chain = Self.chain(&g)
            if k % 3 == 0 { chain = chain.prepending(Self.perspectiveLevel(&g, distance: g.next(100, 2000))) }
            for _ in 0..<25 {
                // Near points stay in front of the eye; far ones reach behind it; now and then a coordinate that is not
                // finite or one past any level's reach.
                let scale = g.next(0, 1) < 0.6 ? 200 : 1e5
                var p = PlanePoint(g.next(-scale, scale), g.next(-scale, scale))
                if g.next(0, 1) < 0.02 { p = PlanePoint(k % 2 == 0 ? .infinity : .nan, p.y) }
                if g.next(0, 1) < 0.02 { p = PlanePoint(p.x, 1e300) }
                let fast = chain.map(point: p), general = chain.mapThroughHomographies(point: p)
                #expect(fast.map { Self.bits([$0]) } == general.map { Self.bits([$0]) })
                if general == nil { behind += 1 } else { mapped += 1 }
            }
        }
        #expect(mapped > 3000 && behind > 300)
    }
}
