import Foundation
import Origami
import Testing
import TestSupport
@testable import OrigamiRender

/// Issue 20: a split fragment's cut and plain piece are made in rings kept from one fragment to the next
/// (`Painter.FragmentScratch`): `PlaneChain.map(_:into:)`, `offsettingEdges(by:into:)`, `pixelCentres(within:into:)`
/// and `formClipped(toConvex:spare:)` are given rings that still hold the previous fragment's points. Each must give
/// what it gives into a new ring, to the bit, whatever the ring held before.
@Suite("Fragment scratch rings")
struct FragmentScratchTests {
    static let canvas = PlaneRect(minX: 0, minY: 0, maxX: 800, maxY: 600)

    /// A convex ring on (or partly off) the canvas: a turned rectangle or a regular polygon, any size from a pixel.
    static func convexRing(_ g: inout SplitMix) -> Ring {
        let n = g.next(0, 1) < 0.4 ? 4 : 3 + Int(g.next(0, 9))
        let cx = g.next(-50, 850), cy = g.next(-50, 650), r = g.next(0.3, g.next(0, 1) < 0.7 ? 40 : 400)
        let turn = g.next(0, 2 * Double.pi), squash = g.next(0.2, 1)
        return (0..<n).map { i in
            let a = turn + 2 * Double.pi * Double(i) / Double(n)
            return PlanePoint(cx + r * cos(a), cy + squash * r * sin(a))
        }
    }

    static func bits(_ ring: Ring) -> [UInt64] { ring.flatMap { [$0.x.bitPattern, $0.y.bitPattern] } }

    @Test("each ring made in a reused ring is the ring made afresh, to the bit")
    func reusedRingsAreFreshRings() {
        var g = SplitMix(70)
        let chain = PlaneChainTests.chain(&g)
        // The scratch rings, never emptied by the test: each call finds the previous one's points.
        var mapped: Ring = [], offset: Ring = [], staircase: Ring = [], piece: Ring = [], spare: Ring = []
        var pieces = 0, cut = 0
        for _ in 0..<3_000 {
            let ring = Self.convexRing(&g)
            // A ring in the plane a chain maps (small, so most reach the canvas).
            let plane = ring.map { PlanePoint(($0.x - 400) / 4, ($0.y - 300) / 4) }
            chain.map(plane, into: &mapped)
            #expect(Self.bits(mapped) == Self.bits(chain.map(plane)))

            let distances = ring.indices.map { _ in g.next(0, 1) < 0.5 ? 2.0 : 0 }
            distances.withUnsafeBufferPointer { ring.offsettingEdges(by: $0, into: &offset) }
            #expect(Self.bits(offset) == Self.bits(ring.offsettingEdges(by: distances)))

            ring.pixelCentres(within: Self.canvas, into: &staircase)
            let fresh = ring.pixelCentres(within: Self.canvas)
            #expect(Self.bits(staircase) == Self.bits(fresh))

            // The staircase cut to a face a little smaller or larger than the ring, as a fragment's piece is.
            let k = g.next(0.9, 1.1), cx = ring.map(\.x).reduce(0, +) / Double(ring.count)
            let cy = ring.map(\.y).reduce(0, +) / Double(ring.count)
            let face = ring.map { PlanePoint(cx + k * ($0.x - cx), cy + k * ($0.y - cy)) }
            piece.removeAll(keepingCapacity: true)
            piece.append(contentsOf: staircase)
            piece.formClipped(toConvex: face, spare: &spare)
            let clipped = fresh.clipped(toConvex: face)
            #expect(Self.bits(piece) == Self.bits(clipped))
            if clipped.count >= 3 { pieces += 1 }
            if clipped.count >= 3, clipped != fresh { cut += 1 }
        }
        // Pieces were made, and some of them were cut by the face (the passes that swap the two rings).
        #expect(pieces > 1_000 && cut > 300)
    }

    @Test("a staircase is the pixels whose centres the ring holds, row by row")
    func staircaseRowsAreThePixelCentres() {
        var g = SplitMix(71)
        var checked = 0
        for _ in 0..<1_000 {
            let ring = Self.convexRing(&g)
            let staircase = ring.pixelCentres(within: Self.canvas)
            guard staircase.count >= 4 else { continue }
            // The ring as Cairo holds it (24.8 fixed point), and each row's pixels whose centres lie inside by a margin
            // (centres on an edge, or within rounding of it, may go either way).
            let held = ring.map { PlanePoint(($0.x * 256).rounded() / 256, ($0.y * 256).rounded() / 256) }
            var area = 0.0
            for i in held.indices { let a = held[i], b = held[(i + 1) % held.count]; area += a.x * b.y - b.x * a.y }
            let sign: Double = area > 0 ? 1 : -1
            func inside(_ x: Double, _ y: Double, by margin: Double) -> Bool {
                held.indices.allSatisfy { i in
                    let a = held[i], b = held[(i + 1) % held.count]
                    let l = hypot(b.x - a.x, b.y - a.y)
                    return l == 0 || sign * ((b.x - a.x) * (y - a.y) - (b.y - a.y) * (x - a.x)) / l > margin
                }
            }
            let ys = held.map(\.y), xs = held.map(\.x)
            guard ys.max()! - ys.min()! < 80, xs.max()! - xs.min()! < 80 else { continue }
            let x0 = Int(Swift.max(0, xs.min()!.rounded(.down))), x1 = Int(Swift.min(800, xs.max()!.rounded(.up)))
            let y0 = Int(Swift.max(0, ys.min()!.rounded(.down))), y1 = Int(Swift.min(600, ys.max()!.rounded(.up)))
            guard x0 < x1, y0 < y1 else { continue }
            for py in y0 ..< y1 {
                // The staircase (a simple ring along pixel boundaries) holds a point when an odd number of its edges
                // cross the row to the point's right.
                let cy = Double(py) + 0.5
                var crossings: [Double] = []
                for i in staircase.indices {
                    let a = staircase[i], b = staircase[(i + 1) % staircase.count]
                    if (a.y > cy) != (b.y > cy) { crossings.append(a.x + (cy - a.y) / (b.y - a.y) * (b.x - a.x)) }
                }
                for px in x0 ..< x1 {
                    let cx = Double(px) + 0.5
                    let covered = crossings.count(where: { cx < $0 }) % 2 == 1
                    if inside(cx, cy, by: 1e-6) { #expect(covered, "pixel \(px), \(py)") }
                    if !inside(cx, cy, by: -1e-6) { #expect(!covered, "pixel \(px), \(py)") }
                }
            }
            checked += 1
        }
        #expect(checked > 300)
    }
}
