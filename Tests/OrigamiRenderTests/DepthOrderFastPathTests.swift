import Foundation
import Origami
import Fixtures
import Testing
import TestSupport
@testable import OrigamiRender

/// The depth order's and the seals' shortcuts must decide exactly as the general tests they skip: each is compared here
/// with that test, bit for bit, on input crowded at the shortcut's boundary.
@Suite struct DepthOrderFastPathTests {
    /// The BSP's fragments of `polygons` (tie-break: later polygons on top), corners as bit patterns.
    static func fragments(_ polygons: [[Vector3]]) -> [[UInt64]] {
        let input = ScenePolygons(polygons.enumerated().map { ($1, $0) })
        return BSPTree.backToFront(input, rank: { (0, $0) }).map { f in
            [UInt64(f.member)] + f.points.flatMap { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] }
        }
    }

    /// Quads at a hair more or less than the BSP's thickness (1e-3) from a turned base quad's plane, parallel or
    /// tilted so that one corner or one edge comes that close, and the same far away: where the sphere test must give
    /// way to the corners.
    static func nearScene(_ seed: UInt64) -> [[Vector3]] {
        var g = SplitMix(seed)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        let n = Vector3(r(-1...1), r(-1...1), r(0.2...1)).normalized() ?? .unitZ
        let u = n.cross(abs(n.x) < 0.9 ? .unitX : .unitY).normalized() ?? .unitX, v = n.cross(u)
        let centre = Vector3(r(-50...50), r(-50...50), r(-50...50))
        func quad(_ c: Vector3, _ a: Vector3, _ b: Vector3) -> [Vector3] { [c - a - b, c + a - b, c + a + b, c - a + b] }
        var out = [quad(centre, u * 40, v * 40)]
        for _ in 0..<24 {
            let side = r(0...1) < 0.5 ? -1.0 : 1.0
            let gap = 1e-3 * (1 + Double(Int.random(in: -3...3, using: &g)) * 1e-9) * (r(0...1) < 0.8 ? 1 : r(2...2000))
            let at = centre + u * r(-60...60) + v * r(-60...60)
            let w = r(1...30), h = r(1...30)
            switch Int.random(in: 0..<3, using: &g) {
            case 0:  // parallel, at the gap
                out.append(quad(at + n * (side * gap), u * w, v * h))
            case 1:  // tilted about its lowest corner, which lies at the gap
                let tilt = n * (side * r(0.05...0.6))
                let a = (u + tilt).normalized() ?? u
                let corner = at + n * (side * gap)
                out.append([corner, corner + a * (2 * w), corner + a * (2 * w) + v * (2 * h), corner + v * (2 * h)])
            default:  // tilted about its lowest edge
                let tilt = n * (side * r(0.05...0.6))
                let a = (v + tilt).normalized() ?? v
                let corner = at + n * (side * gap) - u * w
                out.append([corner, corner + u * (2 * w), corner + u * (2 * w) + a * (2 * h), corner + a * (2 * h)])
            }
        }
        return out
    }

    @Test(arguments: 0..<40 as Range<UInt64>)
    func sphereTestSplitsAsTheCorners(seed: UInt64) {
        for scene in [Self.nearScene(seed), DepthOrderReferenceTests.randomScene(seed)] {
            let bySpheres = Self.fragments(scene)
            let byCorners = BSPTree.$classifiesByCorners.withValue(true) { Self.fragments(scene) }
            #expect(bySpheres == byCorners)
        }
    }

    @Test func sphereTestPaintsTheLatticeAsTheCorners() throws {
        let tree = try RenderTree(root: try BookCube.lattice(cubes: 64, faceColors: [.red, .green, .blue], lighting: nil))
        let members = try #require(tree.members.first).node.members
        let bySpheres = Painter.depthOrder(members)
        let byCorners = BSPTree.$classifiesByCorners.withValue(true) { Painter.depthOrder(members) }
        #expect(bySpheres.count == byCorners.count)
        #expect(zip(bySpheres, byCorners).allSatisfy { $0.member == $1.member && $0.points == $1.points })
    }

    /// `SharedEdges.overlap` as it was before it skipped the square roots for ends far off the line.
    static func referenceOverlap(_ a: Vector3, _ b: Vector3, _ c: Vector3, _ d: Vector3) -> Bool {
        let tol = Swift.max(SharedEdges.tolerance(a, b), SharedEdges.tolerance(c, d))
        let length = (b - a).length
        guard length > tol else { return false }
        let u = (b - a) / length
        func distance(_ p: Vector3) -> (Double, Double) {
            let ap = p - a, t = ap.dot(u)
            return ((ap - u * t).length, t)
        }
        let (dc, tc) = distance(c), (dd, td) = distance(d)
        guard dc <= tol, dd <= tol else { return false }
        return Swift.min(length, Swift.max(tc, td)) - Swift.max(0, Swift.min(tc, td)) > tol
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func overlapAsTheDistances(seed: UInt64) {
        var g = SplitMix(seed)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        var accepted = 0, differing = 0
        for _ in 0..<20_000 {
            let scale = [1.0, 300, 1e5][Int.random(in: 0..<3, using: &g)]
            let a = Vector3(r(-1...1), r(-1...1), r(-1...1)) * scale
            let b = a + Vector3(r(-1...1), r(-1...1), r(-1...1)) * (scale * r(0.001...1))
            let tol = SharedEdges.tolerance(a, b)
            let side = ((b - a).cross(Vector3(r(-1...1), r(-1...1), r(-1...1)))).normalized() ?? .unitX
            // Ends off the line by a few tolerances down to a hair either side of the tolerance itself.
            func end(_ t: Double) -> Vector3 { a + (b - a) * t + side * (tol * r(0.9...1.1) * [0, 0.5, 1, 1.2, 3][Int.random(in: 0..<5, using: &g)]) }
            let c = end(r(-0.5...1.5)), d = end(r(-0.5...1.5))
            let fast = SharedEdges.overlap(a, b, c, d), reference = Self.referenceOverlap(a, b, c, d)
            if fast != reference { differing += 1 }
            if reference { accepted += 1 }
        }
        #expect(differing == 0)
        #expect(accepted > 1_000)   // the input exercises both answers
    }

    /// `stableKeyOrder` (the scene's polygons put in order by their keys' leading bits) is the stable comparison sort
    /// of the indices by key: well-mixed keys, keys repeated (ties keep index order), keys sharing their leading bits
    /// (a crowded bucket, sorted by `sort`) and a few in one bucket (by insertion), from a handful to 70 000 keys.
    @Test(arguments: 0..<6 as Range<UInt64>)
    func keyOrderIsTheStableSort(seed: UInt64) {
        var g = SplitMix(seed)
        for n in [1, 2, 7, 255, 256, 1_000, 6_000, 70_000] {
            let keys: [UInt64] = (0..<n).map { _ in
                switch Int.random(in: 0..<4, using: &g) {
                case 0: return UInt64.random(in: 0 ... .max, using: &g)
                case 1: return UInt64.random(in: 0 ..< 8, using: &g)   // repeated, all in the first bucket
                case 2: return 0xABCD_0000_0000_0000 | UInt64.random(in: 0 ..< 1 << 20, using: &g)   // one crowded bucket
                default: return UInt64(seed &* 977 &+ UInt64(n)) << 40   // one key many times
                }
            }
            let reference = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
            #expect(keys.withUnsafeBufferPointer { $0.stableKeyOrder() } == reference, "\(n) keys")
        }
    }

    /// `SharedEdges.mayRunAlong` (the direction test before `overlap`) never turns away a pair `overlap` accepts either
    /// way round, and turns away most pairs that only share a corner: edges along a line (up to the tolerance off it, a
    /// hair either side), turned by small and large angles, a few tolerances long down to shorter than the tolerance,
    /// and pairs meeting at a corner at any angle.
    @Test(arguments: 0..<4 as Range<UInt64>)
    func directionTestKeepsEveryOverlap(seed: UInt64) {
        var g = SplitMix(seed)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        var overlapping = 0, turnedAway = 0, wrong = 0
        for n in 0..<20_000 {
            let scale = [1.0, 300, 1e5][Int.random(in: 0..<3, using: &g)]
            let a = Vector3(r(-1...1), r(-1...1), r(-1...1)) * scale
            // Lengths from a fraction of the tolerance to the scene's size.
            let length = scale * [1e-7, 1e-6, 4e-6, 1e-5, 1e-3, r(0.01...1)][Int.random(in: 0..<6, using: &g)]
            let b = a + (Vector3(r(-1...1), r(-1...1), r(-1...1)).normalized() ?? .unitX) * length
            let tol = SharedEdges.tolerance(a, b)
            let side = ((b - a).cross(Vector3(r(-1...1), r(-1...1), r(-1...1)))).normalized() ?? .unitX
            let c: Vector3, d: Vector3
            if n % 2 == 0 {
                // Along ab, each end up to about the tolerance off the line.
                func end(_ t: Double) -> Vector3 { a + (b - a) * t + side * (tol * r(0...1.1) * [0, 1, 1][Int.random(in: 0..<3, using: &g)]) }
                c = end(r(-1...2)); d = end(r(-1...2))
            } else {
                // From a corner of ab, turned by an angle up to a right angle, up to twice as long.
                let turn = [1e-9, 1e-6, 1e-3, 0.1, 0.5, r(0...1.6), .pi / 2][Int.random(in: 0..<7, using: &g)]
                let u = (b - a) / length, direction = u * cos(turn) + side * sin(turn)
                c = r(0...1) < 0.5 ? a : b
                d = c + direction * (length * r(0.01...2)) * (r(0...1) < 0.5 ? 1 : -1)
            }
            let e = SharedEdges.Line(a, b), f = SharedEdges.Line(c, d)
            let overlaps = SharedEdges.overlap(a, b, c, d) || SharedEdges.overlap(c, d, a, b)
            let may = SharedEdges.mayRunAlong(e, f)
            if overlaps { overlapping += 1 }
            if !may { turnedAway += 1 }
            if overlaps && !may { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(overlapping > 1_000)   // the input exercises both answers
        #expect(turnedAway > 1_000)
    }

    /// `SharedEdges.grouped` (a counting sort on buffers in place) hands out each key's indices in increasing order, the
    /// keys in increasing order, only keys that have some: as a dictionary grouping sorted by key.
    @Test(arguments: 0..<4 as Range<UInt64>)
    func groupedAsADictionaryGroups(seed: UInt64) {
        var g = SplitMix(seed)
        for n in [0, 1, 2, 7, 100, 6_000] {
            let spread = [1, 3, n + 1][Int.random(in: 0..<3, using: &g)]
            let keys = (0..<n).map { _ in Int.random(in: 0..<spread, using: &g) * 6 }
            let reference = Dictionary(grouping: keys.indices, by: { keys[$0] }).sorted { $0.key < $1.key }.map { Array($0.value) }
            #expect(SharedEdges.grouped(keys).map { Array($0) } == reference, "\(n) keys")
        }
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func spanFewCellsAsTheGridCounts(seed: UInt64) {
        var g = SplitMix(seed)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        var fewer = 0, more = 0
        for _ in 0..<2_000 {
            let origin = Vector3(r(-1e3...1e3), r(-1e3...1e3), r(-1e3...1e3)), size = r(0.01...50)
            // `SharedEdges.init`'s cell.
            func cell(_ p: Vector3) -> (Int, Int, Int)? {
                let c = ((p.x - origin.x) / size).rounded(.down), d = ((p.y - origin.y) / size).rounded(.down),
                    e = ((p.z - origin.z) / size).rounded(.down)
                guard c.isFinite, d.isFinite, e.isFinite, abs(c) < 1e5, abs(d) < 1e5, abs(e) < 1e5 else { return nil }
                return (Int(c), Int(d), Int(e))
            }
            let boxes = (0..<Int.random(in: 1...4, using: &g)).map { _ -> (lo: Vector3, hi: Vector3) in
                // Anywhere up to the grid's range, at most a few cells wide (about two: the shortcut's bound).
                let far = [1.0, 1e3, 99_990][Int.random(in: 0..<3, using: &g)]
                let lo = origin + Vector3(r(0...far), r(0...far), r(0...far)) * size
                let width = { size * [r(0...2), 2, 2 * (1 + 1e-15), r(2...3.5)][Int.random(in: 0..<4, using: &g)] }
                // (Half of them as wide along every axis: boxes past 64 cells.)
                if r(0...1) < 0.5 { let w = width(); return (lo, lo + Vector3(w, w, w)) }
                return (lo, lo + Vector3(width(), width(), width()))
            }
            let counted = boxes.allSatisfy { b in
                guard let lo = cell(b.lo), let hi = cell(b.hi) else { return false }
                return (hi.0 - lo.0 + 1) * (hi.1 - lo.1 + 1) * (hi.2 - lo.2 + 1) <= 64
            }
            #expect(SharedEdges.spanFewCells(boxes, origin: origin, size: size, cell: cell) == counted)
            if counted { fewer += 1 } else { more += 1 }
        }
        #expect(fewer > 100 && more > 100)   // both answers exercised
    }

    /// `SharedEdges.Slabs`: two groups of edges it tells apart have no pair that passes `overlap` either way round. One
    /// edge of the second group runs along one of the first at 0–3 tolerances across its line (along one of the slabs'
    /// axes, so the groups' intervals there are that far apart), each group's other edge on its own side: the margin
    /// of two tolerances is crossed both ways.
    @Test(arguments: 0..<4 as Range<UInt64>)
    func slabsPartNoSealingEdges(seed: UInt64) {
        var g = SplitMix(seed)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        var apart = 0, sealing = 0, wrong = 0
        for _ in 0..<5_000 {
            let scale = [1.0, 300, 1e5][Int.random(in: 0..<3, using: &g)]
            let a = Vector3(r(-1...1), r(-1...1), r(-1...1)) * scale
            let b = a + Vector3(r(-1...1), r(-1...1), r(-1...1)) * (scale * r(0.001...1))
            let tol = SharedEdges.tolerance(a, b), length = (b - a).length
            let side = ((b - a).cross(Vector3(r(-1...1), r(-1...1), r(-1...1)))).normalized() ?? .unitX
            let across = (b - a).cross(side).normalized() ?? .unitY
            let off = tol * r(0.9...1.1) * [0, 0.5, 1, 1.5, 2, 2.2, 3][Int.random(in: 0..<7, using: &g)]
            func end(_ t: Double) -> Vector3 { a + (b - a) * t + side * off }
            let c = end(r(-0.5...1.5)), d = end(r(-0.5...1.5))
            let edges: [(Vector3, Vector3)] = [
                (a, b), (a - side * (length * r(0.1...1)), b + across * (length * r(-1...1)) - side * (length * r(0...1))),
                (c, d), (c + side * (length * r(0.1...1)), d + across * (length * r(-1...1)) + side * (length * r(0...1))),
            ]
            // One to three axes, `side` among them.
            let axes = ([side] + [(b - a) / length, across].prefix(Int.random(in: 0...2, using: &g))).shuffled(using: &g)
            let slabs = SharedEdges.Slabs([[0, 1][...], [2, 3][...]], axes: axes,
                                          tolerance: edges.reduce(0.0) { Swift.max($0, SharedEdges.tolerance($1.0, $1.1)) },
                                          ends: { edges[$0].0 }, following: { edges[$0].1 })
            var seals = false
            for i in 0..<2 { for j in 2..<4 {
                let (p, q) = edges[i], (s, t) = edges[j]
                if SharedEdges.overlap(p, q, s, t) || SharedEdges.overlap(s, t, p, q) { seals = true }
            } }
            let isApart = slabs.apart(0, 1)
            if isApart { apart += 1 }
            if seals { sealing += 1 }
            if isApart && seals { wrong += 1 }
        }
        #expect(wrong == 0)
        // Both answers are exercised, each many times.
        #expect(apart > 1_000)
        #expect(sealing > 500)
    }
}
