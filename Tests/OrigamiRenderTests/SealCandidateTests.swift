import Foundation
import Origami
import Testing
import TestSupport
@testable import OrigamiRender

/// The pre-filters that keep sealing near linear for big solids must never drop a pair the exact tests accept:
/// they are checked here against the plain all-pairs loops they replace, on crowded random input.
@Suite struct SealCandidateTests {
    /// Pieces of a few lines (collinear within rounding, overlapping or touching), near-parallel neighbours a
    /// hair off those lines, short edges and random ones: what a big solid's cap and sides put in one cell.
    static func crowdedEdges(_ g: inout SplitMix) -> [(a: Vector3, b: Vector3)] {
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        var edges: [(a: Vector3, b: Vector3)] = []
        for _ in 0..<6 {
            let origin = Vector3(r(0...300), r(0...300), r(-50...50))
            guard let u = Vector3(r(-1...1), r(-1...1), r(-0.3...0.3)).normalized() else { continue }
            let side = u.cross(.unitZ).normalized() ?? .unitX
            for _ in 0..<30 {
                let t0 = r(-40...40), t1 = t0 + r(0.01...30)
                // On the line (up to rounding), or off it by about the tolerance or well past it.
                let offsets: [Double] = [0, 0, 0, 1e-7, 3e-4, 5e-3, 0.04]
                let off: Double = offsets[Int.random(in: 0..<offsets.count, using: &g)]
                let shift: Vector3 = origin + side * off
                let a: Vector3 = shift + u * t0, b: Vector3 = shift + u * t1
                edges.append((a, b))
            }
        }
        for _ in 0..<60 {
            let a = Vector3(r(0...300), r(0...300), r(-50...50))
            let d = Vector3(r(-20...20), r(-20...20), r(-5...5))
            edges.append((a, a + d))
        }
        return edges.shuffled(using: &g)
    }

    @Test(arguments: 0..<8 as Range<UInt64>)
    func candidatesHoldEveryOverlappingPair(seed: UInt64) {
        var g = SplitMix(seed)
        let edges = Self.crowdedEdges(&g)
        let centre = Vector3(150, 150, 0)
        var found = Set<[Int]>()
        SharedEdges.collinearCandidates(edges, near: centre) { i, j in
            #expect(i < j)
            found.insert([i, j])
        }
        var overlapping = 0
        var missing: [[Int]] = []
        for i in edges.indices {
            for j in (i + 1)..<edges.count {
                let (e, f) = (edges[i], edges[j])
                guard SharedEdges.overlap(e.a, e.b, f.a, f.b) || SharedEdges.overlap(f.a, f.b, e.a, e.b) else { continue }
                overlapping += 1
                if !found.contains([i, j]) { missing.append([i, j]) }
            }
        }
        #expect(missing.isEmpty, "overlapping pairs that are not candidates")
        // The input must exercise the filter: many overlapping pairs, far fewer candidates than all pairs.
        #expect(overlapping > 100)
        #expect(found.count < edges.count * (edges.count - 1) / 4)
    }

    @Test(arguments: 0..<8 as Range<UInt64>)
    func sealGridFindsWhatTheFilterFinds(seed: UInt64) {
        var g = SplitMix(seed)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        // A many-sided ring (a cap) and seals along some of its edges, split into pieces, plus stray seals.
        let n = 400
        let ring: Ring = (0..<n).map { k in
            let a = Double(k) * 2 * .pi / Double(n)
            return PlanePoint(200 + 120 * cos(a), 200 + 90 * sin(a))
        }
        let under: Ring = [PlanePoint(0, 0), PlanePoint(1, 0), PlanePoint(1, 1)]
        var seals: [EdgeSeal] = []
        for k in stride(from: 0, to: n, by: 3) {
            let p = ring[k], q = ring[(k + 1) % n], t = r(0.2...0.8)
            let mx: Double = p.x + (q.x - p.x) * t, my: Double = p.y + (q.y - p.y) * t
            let mid = PlanePoint(mx, my)
            seals.append(EdgeSeal(segment: PlaneSegment(a: p, b: mid), under: under))
            seals.append(EdgeSeal(segment: PlaneSegment(a: mid, b: q), under: under))
        }
        for _ in 0..<50 {
            let a = PlanePoint(r(50...350), r(50...350))
            let b = PlanePoint(a.x + r(-30...30), a.y + r(-30...30))
            seals.append(EdgeSeal(segment: PlaneSegment(a: a, b: b), under: under))
        }
        seals.shuffle(using: &g)
        let tolerance = 1e-6
        let grid = SealGrid(seals, tolerance: tolerance)
        var matched = 0
        for i in ring.indices {
            let p = ring[i], q = ring[(i + 1) % n]
            let expected = seals.indices.filter { seals[$0].segment.isRunAlong(from: p, to: q, tolerance: tolerance) }
            let got = grid.seals(runningAlong: p, q, in: seals, tolerance: tolerance)
            func key(_ s: EdgeSeal) -> [Double] { [s.segment.a.x, s.segment.a.y, s.segment.b.x, s.segment.b.y] }
            #expect(got.map(key) == expected.map { key(seals[$0]) })
            matched += expected.count
        }
        #expect(matched >= 2 * (n / 3))
    }
}
