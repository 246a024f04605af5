import CCairo
import Foundation
import Origami

/// The vector outlines a layer draws, built in the layer's own bounds space as closed polylines so that
/// mapping them vertex by vertex through a homography stays exact under perspective.
enum Outlines {
    /// How far a polyline may stray from the true curve, in points of the layer's own space. Fine enough for a
    /// face magnified several times by perspective and supersampling.
    static let tolerance = 0.01

    /// The radius `roundedRect` rounds `r`'s corners by: 0 (or less) when its ring is `r.corners`.
    static func cornerRadius(_ r: PlaneRect, radius: Double) -> Double { max(0, min(radius, r.width / 2, r.height / 2)) }

    /// The rectangle with corners rounded by `radius` (clamped to half the shorter side, as Core Animation does).
    static func roundedRect(_ r: PlaneRect, radius: Double) -> Ring {
        let radius = cornerRadius(r, radius: radius)
        guard radius > 0 else { return r.corners }
        // Segments per quarter so the chord's sagitta stays under `tolerance`.
        let step = 2 * acos(max(-1, 1 - tolerance / radius))
        let n = max(2, min(256, Int((Double.pi / 2 / max(step, 1e-6)).rounded(.up))))
        var ring: Ring = []
        ring.reserveCapacity(4 * (n + 1))
        let centres = [(r.maxX - radius, r.minY + radius, -Double.pi / 2), (r.maxX - radius, r.maxY - radius, 0),
                       (r.minX + radius, r.maxY - radius, Double.pi / 2), (r.minX + radius, r.minY + radius, Double.pi)]
        for (cx, cy, start) in centres {
            for i in 0...n {
                let a = start + Double(i) / Double(n) * Double.pi / 2
                ring.append(PlanePoint(cx + radius * cos(a), cy + radius * sin(a)))
            }
        }
        return ring
    }

    /// Core Animation's border: a band of `width` inside the bounds, following the corner radius.
    /// Two rings, to be filled even-odd.
    static func border(_ r: PlaneRect, radius: Double, width: Double) -> [Ring] {
        let w = min(width, r.width / 2, r.height / 2)
        guard w > 0 else { return [] }
        let outer = roundedRect(r, radius: radius)
        let inner = PlaneRect(minX: r.minX + w, minY: r.minY + w, maxX: r.maxX - w, maxY: r.maxY - w)
        guard !inner.isEmpty else { return [outer] }
        return [outer, roundedRect(inner, radius: max(0, radius - w)).reversed()]
    }

    /// Glyph outlines of a text layer's string, laid out line by line (explicit newlines; no wrapping),
    /// in the layer's bounds space, flattened to `tolerance`.
    static func text(_ style: TextStyle, in bounds: PlaneRect) throws -> [Ring] {
        try CairoContext.glyphOutlines(style, in: bounds, tolerance: tolerance)
    }
}
