import Foundation
import Origami
import Fixtures
import Testing
@testable import OrigamiRender

/// Issue 20: a scene's plain faces are extended under their seals from one pool of later polygons
/// (`Painter.SceneSeals`, `SealPolygons`, `Ring.extended(along:under:by:tolerance:appendingTo:scratch:)`): each later
/// polygon mapped and its winding found once, each seal a segment and an index, the strips clipped in fixed buffers
/// through pointers. The general path (`drawNode`'s) keeps `EdgeSeal`s with a ring each and clips on arrays: the two must
/// give the same points to the bit, and the pooled seals must be the pairwise-deduplicated ones in the same order.
@Suite struct PooledSealTests {
    static func bits(_ ring: Ring) -> [UInt64] { ring.flatMap { [$0.x.bitPattern, $0.y.bitPattern] } }

    /// The seals' edge length: √(dx² + dy²) where that is safe, `hypot`'s guarded answer where squaring would overflow
    /// or underflow — never ∞ for a finite edge, never 0 for a non-zero one.
    @Test func edgeLengthIsSafeAtTheExtremes() {
        #expect(planeLength(3, 4) == 5)
        #expect(planeLength(-5, 12) == 13)
        #expect(planeLength(0, 0) == 0)
        #expect(planeLength(1e200, -1e200) == hypot(1e200, 1e200))   // the squares overflow: ≈ 1.414e200, finite
        #expect(planeLength(1e-170, 1e-170) == hypot(1e-170, 1e-170)) // the squares underflow: ≈ 1.414e-170, not 0
        #expect(planeLength(.greatestFiniteMagnitude, 1).isFinite)
        #expect(planeLength(.leastNonzeroMagnitude, 0) == .leastNonzeroMagnitude)
        #expect(planeLength(.infinity, .nan) == .infinity)
        #expect(planeLength(.nan, 1).isNaN)
        // In the normal range it is within two ulps of `hypot` (each square, their sum and the root round once).
        var g = SplitMix(20)
        for _ in 0 ..< 1000 {
            let dx = g.next(-1, 1) * pow(10, g.next(-100, 100)), dy = g.next(-1, 1) * pow(10, g.next(-100, 100))
            let h = hypot(dx, dy)
            #expect(abs(planeLength(dx, dy) - h) <= 2 * h.ulp, "dx \(dx), dy \(dy)")
        }
    }

    /// A convex polygon on the far side of edge p→q (outward normal `n`): the edge itself with a shifted quad beyond it
    /// (a neighbouring face, its corners off by rounding-sized amounts or more), a many-sided round one near the strip
    /// (it cuts the strip many times: more points than the buffers start with), or one that covers part of the edge.
    static func under(_ g: inout SplitMix, p: PlanePoint, q: PlanePoint, normal n: (Double, Double), reach: Double) -> Ring {
        let kind = Int(g.next(0, 4))
        let dx = q.x - p.x, dy = q.y - p.y
        func at(_ t: Double, _ s: Double) -> PlanePoint { PlanePoint(p.x + dx * t + n.0 * s, p.y + dy * t + n.1 * s) }
        var ring: Ring
        switch kind {
        case 0:
            // A neighbour sharing the edge to rounding (its corners on the edge's line, up to a hair).
            let e = g.next(0, 1) < 0.5 ? 0 : 1e-9
            ring = [at(0, e), at(1, -e), at(1 + g.next(-0.3, 0.3), reach * g.next(0.2, 4)),
                    at(g.next(-0.3, 0.3), reach * g.next(0.2, 4))]
        case 1:
            // A round polygon around a point just beyond the edge, about the strip's width across.
            let sides = 40 + Int(g.next(0, 160)), c = at(g.next(0.2, 0.8), reach * g.next(0, 0.8)), r = reach * g.next(0.5, 2)
            ring = (0 ..< sides).map { k in
                let a = 2 * Double.pi * Double(k) / Double(sides)
                return PlanePoint(c.x + r * cos(a), c.y + r * sin(a))
            }
        case 2:
            // A neighbour along part of the edge only (a later face split into fragments along it).
            let t0 = g.next(-0.2, 0.6), t1 = t0 + g.next(0.1, 0.6)
            ring = [at(t0, 0), at(t1, 0), at(t1, reach * 3), at(t0, reach * 3)]
        default:
            // A triangle with a corner on the edge, or one of no area.
            ring = g.next(0, 1) < 0.8 ? [at(g.next(0, 1), 0), at(1.2, reach * 2), at(-0.2, reach * 2)]
                : [at(0, 0), at(0.5, 0), at(1, 0)]
        }
        return g.next(0, 1) < 0.5 ? ring : ring.reversed()
    }

    @Test("a face extended from the pool of later polygons is the general path's ring, to the bit")
    func pooledExtensionIsTheGeneralOne() {
        var g = SplitMix(8)
        var scratch = SealScratch()
        var out: Ring = [PlanePoint(7, 7)]
        var pieces = 0, severalOnAnEdge = 0, manyPoints = 0, gridded = 0
        for round in 0 ..< 3000 {
            // A face: a quad seen in perspective or a convex polygon, either winding.
            let sides = round % 3 == 0 ? 3 + Int(g.next(0, 8)) : 4
            let c = PlanePoint(g.next(100, 700), g.next(100, 500)), r = g.next(5, 120)
            var face: Ring = (0 ..< sides).map { k in
                let a = 2 * Double.pi * (Double(k) + g.next(-0.3, 0.3)) / Double(sides)
                return PlanePoint(c.x + r * cos(a) * g.next(0.7, 1.3), c.y + r * sin(a) * g.next(0.7, 1.3))
            }
            if !face.isConvex { face = [face[0], face[1], face[2]] }
            if g.next(0, 1) < 0.5 { face.reverse() }
            let n = face.count, distance = g.next(0.5, 4), tolerance = 1e-2
            var area = 0.0
            for i in 0 ..< n { let a = face[i], b = face[(i + 1) % n]; area += a.x * b.y - b.x * a.y }
            let sign: Double = area > 0 ? 1 : -1
            // Seals along some edges (a whole edge or a part of it), a few under the same polygon; now and then
            // more than `SealGrid.linearLimit` (the grid's path), and stray seals along no edge.
            var general: [EdgeSeal] = [], pooled: [PooledSeal] = [], polygons = SealPolygons()
            let count = round % 10 == 0 ? 20 + Int(g.next(0, 10)) : 1 + Int(g.next(0, 4))
            for _ in 0 ..< count {
                let i = Int(g.next(0, Double(n))), p = face[i], q = face[(i + 1) % n]
                let l = hypot(q.x - p.x, q.y - p.y)
                guard l > 0 else { continue }
                let normal = (sign * (q.y - p.y) / l, -sign * (q.x - p.x) / l)
                let segment: PlaneSegment
                if g.next(0, 1) < 0.15 {
                    segment = PlaneSegment(a: PlanePoint(g.next(0, 800), g.next(0, 600)), b: PlanePoint(g.next(0, 800), g.next(0, 600)))
                } else {
                    let t0 = g.next(0, 1) < 0.6 ? 0 : g.next(0, 0.5), t1 = g.next(0, 1) < 0.6 ? 1 : g.next(0.5, 1)
                    segment = PlaneSegment(a: PlanePoint(p.x + (q.x - p.x) * t0, p.y + (q.y - p.y) * t0),
                                           b: PlanePoint(p.x + (q.x - p.x) * t1, p.y + (q.y - p.y) * t1))
                }
                let ring = Self.under(&g, p: p, q: q, normal: normal, reach: distance)
                // Under a polygon of the pool already, or a new one.
                let k: Int
                if polygons.count > 0, g.next(0, 1) < 0.2 { k = Int(g.next(0, Double(polygons.count))) } else {
                    k = polygons.count
                    polygons.append(ring)
                }
                if ring.count > 30 { manyPoints += 1 }
                general.append(EdgeSeal(segment: segment, under: polygons.ring(k)))
                pooled.append(PooledSeal(segment: segment, under: k))
            }
            guard !general.isEmpty else { continue }
            if general.count > SealGrid.linearLimit { gridded += 1 }
            let expected = face.extended(along: general, by: distance, tolerance: tolerance)
            // Into a pool that holds the previous face's points, with the scratch of the previous faces.
            let start = out.count
            face.extended(along: pooled, under: polygons, by: distance, tolerance: tolerance, appendingTo: &out,
                          scratch: &scratch)
            #expect(Self.bits(Array(out[start...])) == Self.bits(expected), "round \(round)")
            if expected.count > n { pieces += 1 }
            if expected.count > n + 10 { severalOnAnEdge += 1 }
            if out.count > 4_000 { out.removeAll(keepingCapacity: true) }
        }
        // Every kind was asked: faces extended, edges with several pieces or many far corners, many-sided polygons
        // (a strip clipped to more points than the buffers start with), the grid.
        #expect(pieces > 1_000 && severalOnAnEdge > 100 && manyPoints > 300 && gridded > 200)
    }

    @Test("a pooled seal's run-along test is its segment's, to the answer")
    func pooledRunAlongIsTheSegments() {
        var g = SplitMix(9)
        var along = 0
        for _ in 0 ..< 20_000 {
            // A segment, and an edge near its line (on it, a hair off, or well off), overlapping it or not; now and
            // then a segment of no length or one shorter than the tolerance.
            let a = PlanePoint(g.next(0, 800), g.next(0, 600)), len = g.next(0, 1) < 0.05 ? g.next(0, 0.02) : g.next(0.5, 200)
            let angle = g.next(0, 2 * .pi), d = (cos(angle), sin(angle))
            let b = g.next(0, 1) < 0.02 ? a : PlanePoint(a.x + d.0 * len, a.y + d.1 * len)
            func near(_ t: Double) -> PlanePoint {
                let off = [0, 1e-9, 5e-3, 1e-2, 2e-2, 1][Int(g.next(0, 6))] * (g.next(0, 1) < 0.5 ? 1 : -1)
                return PlanePoint(a.x + d.0 * len * t - d.1 * off, a.y + d.1 * len * t + d.0 * off)
            }
            let p = near(g.next(-0.5, 1.5)), q = near(g.next(-0.5, 1.5))
            let segment = PlaneSegment(a: a, b: b), tolerance = 1e-2
            let expected = segment.isRunAlong(from: p, to: q, tolerance: tolerance)
            #expect(PooledSeal(segment: segment, under: 0).isRunAlong(from: p, to: q, tolerance: tolerance) == expected)
            if expected { along += 1 }
        }
        #expect(along > 2_000 && along < 18_000)
    }

    /// A prism's cap seals under each side it shares an edge with: hundreds of seals for one fragment.
    static func prismMembers(sides: Int, turn: Double) throws -> [RenderMember] {
        let container = BookCube.container()
        let prism = try Solid.prism(sides: sides, radius: 80, height: 60)
        prism.position = CGPoint(x: 150, y: 150)
        prism.transform = Transform3D(rotationAngle: turn, x: 1, y: 0.3, z: 0)
        for (i, face) in prism.faces.enumerated() { face.backgroundColor = Color(white: 0.2 + 0.6 * Double(i % 2)) }
        try container.addSublayer(prism)
        let tree = try RenderTree(root: container)
        return try #require(tree.members.first).node.members
    }

    @Test("a scene's pooled seals are the first seal under each later fragment, in order, with its polygon mapped",
          arguments: [100, 300, 7])
    func sceneSealsAreThePairwiseFirstOnes(sides: Int) throws {
        var g = SplitMix(UInt64(sides))
        var most = 0, total = 0, repeated = 0
        // Turned several ways: the faces seen are painted in some order, and in some the cap comes before the sides,
        // with a seal under each of them (hundreds for one fragment). And crossing and touching solids, whose split
        // fragments have several edges along one later fragment (the edges after the first add no seal).
        var scenes = try [0.5, -0.5, 1.2, 2.6, 3.5, -2.0].map { try Self.prismMembers(sides: sides, turn: $0) }
        for seed in 0 ..< 4 as Range<UInt64> {
            for layout in [SealBySolidTests.Layout.crossing, .touching] {
                let tree = try RenderTree(root: try SealBySolidTests.scene(layout, seed: seed + UInt64(sides)))
                scenes.append(try #require(tree.members.first).node.members)
            }
        }
        for (n, members) in scenes.enumerated() {
            let order = Painter.sceneOrder(members, seals: true, collectsEveryFragment: true)
            guard let real = order.sealing else { continue }
            // Every other scene's fragments with their sealed edges as they are; the rest with edges along later
            // fragments already met added among them (a fragment's edges that run along one later fragment: as split
            // fragments can have), which must add no seal.
            var sealedEdges = real.edges.sealed.map { Array($0) }
            if n % 2 == 1 {
                for k in sealedEdges.indices where !sealedEdges[k].isEmpty {
                    var edges = sealedEdges[k]
                    for _ in 0 ..< Int(g.next(0, 4)) {
                        let e = edges[Int(g.next(0, Double(edges.count)))]
                        let at = Int(g.next(0, Double(edges.count + 1)))
                        edges.insert(SealedEdge(segment: PlaneSegment(a: e.segment.b, b: e.segment.a), later: e.later), at: at)
                    }
                    sealedEdges[k] = edges
                }
            }
            let sealing = (fragments: real.fragments, sealed: sealedEdges)
            for chain in [PlaneChain([Homography(Matrix3(m11: 2, m12: 0, m13: 0, m21: 0, m22: 2, m23: 0, m31: 10, m32: 20, m33: 1))],
                                     canvas: PlaneRect(minX: 0, minY: 0, maxX: 800, maxY: 600)),
                          PlaneChain([PlaneChainTests.perspectiveLevel(&g, distance: 2000),
                                      Homography(Matrix3(m11: 2, m12: 0, m13: 0, m21: 0, m22: 2, m23: 0, m31: 400, m32: 300, m33: 1))],
                                     canvas: PlaneRect(minX: 0, minY: 0, maxX: 800, maxY: 600))] {
                var seals = Painter.SceneSeals(fragments: sealing.fragments, sealed: sealing.sealed)
                var out: [PooledSeal] = [PooledSeal(segment: PlaneSegment(a: PlanePoint(0, 0), b: PlanePoint(1, 1)), under: 0)]
                for k in sealing.fragments.indices {
                    // The pairwise reference: each edge whose later fragment no earlier edge of this fragment has.
                    let edges = sealing.sealed[k]
                    var expected: [(PlaneSegment, Ring)] = []
                    for (i, e) in edges.enumerated() {
                        guard !edges[..<i].contains(where: { $0.later == e.later }) else {
                            repeated += 1
                            continue
                        }
                        guard let segment = chain.map(e.segment) else { continue }
                        let ring = chain.map(sealing.fragments[e.later].flattened)
                        if !ring.isEmpty { expected.append((segment, ring)) }
                    }
                    // As `paintFragments` asks for the rows and corners ahead (hints: no answer may change), here
                    // also past the last fragment.
                    seals.prefetchRows(k + 2 * Painter.prefetchDistance)
                    seals.prefetch(k + Painter.prefetchDistance)
                    seals.seals(k, chain: chain, into: &out)
                    try #require(out.count == expected.count)
                    for (s, e) in zip(out, expected) {
                        #expect(Self.bits([s.segment.a, s.segment.b]) == Self.bits([e.0.a, e.0.b]))
                        #expect(Self.bits(seals.polygons.ring(s.under)) == Self.bits(e.1))
                    }
                    most = max(most, out.count)
                    total += out.count
                }
            }
        }
        // Small fragments, and (of the big prisms) one with a seal per side of the cap.
        #expect(total >= sides && repeated > 10)
        if sides > 50 { #expect(most >= sides / 4) }
    }
}
