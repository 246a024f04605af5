import Foundation
import Origami

/// A point on a plane, in doubles. The renderer's polygons are lists of these; `CGPoint` stays at the API.
struct PlanePoint: Hashable, Sendable {
    var x: Double
    var y: Double

    init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    var isFinite: Bool { x.isFinite && y.isFinite }
}

/// The length of the vector (dx, dy): √(dx² + dy²) where both squares and their sum stay well inside the normal range
/// (within two ulps of `hypot`'s answer), `hypot` itself outside it, where squaring would overflow to ∞ or underflow to
/// 0. The seals measure ≈ 12 000 edges a lattice render; glibc's `hypot` (≈ 50 instructions a call, scaling its
/// arguments to guard those ranges) was 0.6 % of the render's perf samples.
@inline(__always)
func planeLength(_ dx: Double, _ dy: Double) -> Double {
    let squares = dx * dx + dy * dy
    // (0x1p-900 … 0x1p900: neither square lost to underflow where it matters, nor the sum near overflow.)
    return squares > 0x1p-900 && squares < 0x1p900 ? squares.squareRoot() : hypot(dx, dy)
}

/// A closed polygon (the last point joins the first). Fills use it as one ring of a path.
typealias Ring = [PlanePoint]

/// An axis-aligned rectangle in doubles, for extents.
struct PlaneRect: Hashable, Sendable {
    var minX: Double, minY: Double, maxX: Double, maxY: Double

    var width: Double { maxX - minX }
    var height: Double { maxY - minY }
    var isEmpty: Bool { !(maxX > minX && maxY > minY) }

    var corners: Ring {
        [PlanePoint(minX, minY), PlanePoint(maxX, minY), PlanePoint(maxX, maxY), PlanePoint(minX, maxY)]
    }

    func union(_ o: PlaneRect) -> PlaneRect {
        PlaneRect(minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX), maxY: max(maxY, o.maxY))
    }

    /// The bounding box of `points`; `nil` when there are none.
    static func bounding(_ points: [PlanePoint]) -> PlaneRect? {
        guard let f = points.first else { return nil }
        var r = PlaneRect(minX: f.x, minY: f.y, maxX: f.x, maxY: f.y)
        for p in points.dropFirst() {
            r.minX = min(r.minX, p.x); r.maxX = max(r.maxX, p.x)
            r.minY = min(r.minY, p.y); r.maxY = max(r.maxY, p.y)
        }
        return r
    }
}
