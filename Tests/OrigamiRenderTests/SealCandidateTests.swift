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

    /// A prism of `sides` sides (its caps' edges, each side's four), turned so that no edge is along an axis.
    static func prismEdges(sides n: Int) -> [(a: Vector3, b: Vector3)] {
        let turn = { (p: Vector3) -> Vector3 in
            let (c1, s1, c2, s2) = (cos(0.5), sin(0.5), cos(0.3), sin(0.3))
            let q = Vector3(p.x, p.y * c1 - p.z * s1, p.y * s1 + p.z * c1)
            return Vector3(q.x * c2 + q.z * s2 + 400, q.y + 300, -q.x * s2 + q.z * c2 - 200)
        }
        let bottom = (0..<n).map { k -> Vector3 in
            let a = Double(k) * 2 * .pi / Double(n)
            return turn(Vector3(150 * cos(a), 150 * sin(a), 0))
        }
        let top = (0..<n).map { k -> Vector3 in
            let a = Double(k) * 2 * .pi / Double(n)
            return turn(Vector3(150 * cos(a), 150 * sin(a), 200))
        }
        var edges: [(a: Vector3, b: Vector3)] = []
        for k in 0..<n {
            let l = (k + 1) % n
            edges += [(bottom[k], bottom[l]), (bottom[l], top[l]), (top[l], top[k]), (top[k], bottom[k])]
            edges += [(top[k], top[l]), (bottom[l], bottom[k])]
        }
        return edges
    }

    /// A fan of `n` short spokes from one point (each twice, once each way: the two triangles that share it) and its
    /// rim, among a few long edges through the fan.
    static func fanEdges(spokes n: Int, _ g: inout SplitMix) -> [(a: Vector3, b: Vector3)] {
        let centre = Vector3(210, 170, -40)
        var edges: [(a: Vector3, b: Vector3)] = []
        let ends = (0..<n).map { k -> Vector3 in
            let a = Double(k) * 2 * .pi / Double(n)
            return centre + Vector3(0.4 * cos(a), 0.3 * sin(a), 0.2 * sin(a))
        }
        for k in 0..<n {
            edges += [(centre, ends[k]), (ends[k], centre), (ends[k], ends[(k + 1) % n])]
        }
        for _ in 0..<40 {
            let u = Vector3(Double.random(in: -1...1, using: &g), Double.random(in: -1...1, using: &g), 0.2)
            edges.append((centre - u * 60, centre + u * 60))
        }
        return edges.shuffled(using: &g)
    }

    /// The pairs of `edges` whose boxes (grown by the tolerance) meet first in the grid cell holding `point` (a grid
    /// as `SharedEdges` makes it: cells one mean edge wide) and that overlap either way round: among
    /// `collinearCandidates`' pairs for the cell, and among every pair. Each candidate must be handed out once.
    static func cellPairs(_ all: [(a: Vector3, b: Vector3)], at point: Vector3, size: Double? = nil)
        -> (candidates: Set<[Int]>, every: Set<[Int]>, count: Int) {
        typealias Box = (lo: Vector3, hi: Vector3)
        let boxes: [Box] = all.map { e in
            let t = SharedEdges.tolerance(e.a, e.b)
            return (Vector3(min(e.a.x, e.b.x) - t, min(e.a.y, e.b.y) - t, min(e.a.z, e.b.z) - t),
                    Vector3(max(e.a.x, e.b.x) + t, max(e.a.y, e.b.y) + t, max(e.a.z, e.b.z) + t))
        }
        let size = size ?? all.reduce(0.0) { $0 + ($1.b - $1.a).length } / Double(all.count)
        let origin = boxes.reduce(boxes[0].lo) { o, b in Vector3(min(o.x, b.lo.x), min(o.y, b.lo.y), min(o.z, b.lo.z)) }
        func cell(_ p: Vector3) -> (Int, Int, Int) {
            (Int(((p.x - origin.x) / size).rounded(.down)), Int(((p.y - origin.y) / size).rounded(.down)),
             Int(((p.z - origin.z) / size).rounded(.down)))
        }
        let here = cell(point)
        let list = boxes.indices.filter { k in
            let lo = cell(boxes[k].lo), hi = cell(boxes[k].hi)
            return lo.0 <= here.0 && here.0 <= hi.0 && lo.1 <= here.1 && here.1 <= hi.1 && lo.2 <= here.2 && here.2 <= hi.2
        }
        func keep(_ i: Int, _ j: Int) -> Bool {
            let p = boxes[list[i]], q = boxes[list[j]]
            guard SharedEdges.meet(p, q),
                  cell(Vector3(max(p.lo.x, q.lo.x), max(p.lo.y, q.lo.y), max(p.lo.z, q.lo.z))) == here else { return false }
            let (e, f) = (all[list[i]], all[list[j]])
            return SharedEdges.overlap(e.a, e.b, f.a, f.b) || SharedEdges.overlap(f.a, f.b, e.a, e.b)
        }
        let edges = list.map { all[$0] }
        var candidates = Set<[Int]>(), every = Set<[Int]>()
        let centre = Vector3(origin.x + (Double(here.0) + 0.5) * size, origin.y + (Double(here.1) + 0.5) * size,
                             origin.z + (Double(here.2) + 0.5) * size)
        SharedEdges.collinearCandidates(edges, near: centre) { i, j in
            #expect(i < j)
            if keep(i, j) { #expect(candidates.insert([i, j]).inserted, "a pair handed out twice") }
        }
        for i in list.indices { for j in (i + 1)..<list.count where keep(i, j) { every.insert([i, j]) } }
        return (candidates, every, list.count)
    }

    @Test(arguments: [500, 2_000])
    func candidatesHoldEveryOverlappingPairOnAPrism(sides: Int) {
        let edges = Self.prismEdges(sides: sides)
        // Cells at a corner of the top cap, at one of the bottom cap, part way along a side, and across the bottom cap.
        var overlapping = 0, crowded = 0
        for point in [edges[2].a, edges[0].a, (edges[1].a + edges[1].b) / 2, edges[2 * sides].a] {
            let found = Self.cellPairs(edges, at: point)
            #expect(found.candidates == found.every)
            overlapping += found.every.count
            crowded = max(crowded, found.count)
        }
        #expect(crowded > 100, "no crowded cell")
        #expect(overlapping > sides / 20, "few overlapping pairs: the input does not exercise the search")
    }

    @Test(arguments: 0..<4 as Range<UInt64>)
    func candidatesHoldEveryOverlappingPairInAFan(seed: UInt64) {
        var g = SplitMix(seed)
        let edges = Self.fanEdges(spokes: 300, &g)
        var overlapping = 0
        for size in [1.0, 0.35, 0.15] {
            let found = Self.cellPairs(edges, at: Vector3(210, 170, -40), size: size)
            #expect(found.count > 32)
            #expect(found.candidates == found.every)
            overlapping += found.every.count
        }
        #expect(overlapping >= 150)
    }

    /// Short edges whose ends lie just inside the tolerance of a long edge's line, on opposite sides of it, far from
    /// the centre along it: their keys differ by almost the proven reach, so a reach any shorter drops them.
    @Test(arguments: 0..<4 as Range<UInt64>)
    func candidatesHoldPairsAtTheReach(seed: UInt64) {
        var g = SplitMix(seed)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        let centre = Vector3(r(-5...5), r(-5...5), r(-5...5))
        var edges: [(a: Vector3, b: Vector3)] = []
        for _ in 0..<20 {
            guard let u = Vector3(r(-1...1), r(-1...1), r(-1...1)).normalized(),
                  let w = u.cross(Vector3(r(-1...1), r(-1...1), r(-1...1))).normalized() else { continue }
            let a = centre + u * 10, b = centre + u * 200
            let off = 0.99 * SharedEdges.tolerance(a, b), x0 = r(20...180), l = r(0.05...2)
            edges.append((a, b))
            edges.append((centre + u * x0 + w * off, centre + u * (x0 + l) - w * off))
        }
        var found = Set<[Int]>()
        SharedEdges.collinearCandidates(edges, near: centre) { i, j in found.insert([i, j]) }
        var overlapping = 0
        for i in edges.indices {
            for j in (i + 1)..<edges.count {
                let (e, f) = (edges[i], edges[j])
                guard SharedEdges.overlap(e.a, e.b, f.a, f.b) || SharedEdges.overlap(f.a, f.b, e.a, e.b) else { continue }
                overlapping += 1
                #expect(found.contains([i, j]), "an overlapping pair at the reach is not a candidate")
            }
        }
        #expect(overlapping >= 15)
    }
}
