import CCairo
import Foundation
import Origami
import Synchronization

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
        try GlyphOutlineMemo.shared.outlines(style, in: bounds) {
            try CairoContext.glyphOutlines(style, in: bounds, tolerance: tolerance)
        }
    }
}

/// Glyph outlines already laid out, by everything that shapes them (not the colour). Every frame of an animation
/// and every variant of a sweep freezes its text layers again, and laying a string out through Cairo's font
/// machinery and flattening its curves is the most expensive part of freezing a text face (≈ 17 % of a turntable
/// frame's instructions); the same inputs give the same rings, so they are worked out once per process. Bounded:
/// past `capacity` layouts or `maxPoints` points in all it starts again empty, so a sweep's contact sheet, which
/// lays out thousands of distinct labels once each and gains nothing, holds at most `maxPoints` points (1 MiB)
/// rather than `capacity` layouts (256 labels' outlines were 7.7 MB of a 1 000-variant sweep's 18.6 MB peak).
final class GlyphOutlineMemo: Sendable {
    static let shared = GlyphOutlineMemo(capacity: 256, maxPoints: 1 << 16)

    /// What the outlines depend on; sizes and positions by their bits, so that NaN keys equal themselves.
    struct Key: Hashable {
        let string: String, fontFamily: String
        let fontSize: UInt64, minX: UInt64, minY: UInt64, maxX: UInt64, maxY: UInt64
        let isBold: Bool, isItalic: Bool, isVerticallyCentered: Bool
        let alignment: TextLayer.Alignment

        init(_ style: TextStyle, _ bounds: PlaneRect) {
            string = style.string; fontFamily = style.fontFamily; fontSize = style.fontSize.bitPattern
            minX = bounds.minX.bitPattern; minY = bounds.minY.bitPattern
            maxX = bounds.maxX.bitPattern; maxY = bounds.maxY.bitPattern
            isBold = style.isBold; isItalic = style.isItalic; isVerticallyCentered = style.isVerticallyCentered
            alignment = style.alignment
        }
    }

    let capacity: Int
    let maxPoints: Int
    private let table = Mutex<(layouts: [Key: [Ring]], points: Int)>(([:], 0))

    init(capacity: Int, maxPoints: Int = .max) { self.capacity = capacity; self.maxPoints = maxPoints }

    /// `style`'s outlines in `bounds`: the ones `layOut` gave for the same inputs before, or `layOut`'s now.
    /// (Laid out outside the lock: two threads meeting a new string both lay it out, and get the same rings.)
    func outlines(_ style: TextStyle, in bounds: PlaneRect, layOut: () throws -> [Ring]) throws -> [Ring] {
        let key = Key(style, bounds)
        if let known = table.withLock({ $0.layouts[key] }) { return known }
        let rings = try layOut()
        let points = rings.reduce(0) { $0 + $1.count }
        guard points <= maxPoints else { return rings }
        table.withLock { table in
            guard table.layouts[key] == nil else { return }
            if table.layouts.count >= capacity || table.points + points > maxPoints { table = ([:], 0) }
            table.layouts[key] = rings
            table.points += points
        }
        return rings
    }

    /// How many layouts are kept (for tests).
    var count: Int { table.withLock { $0.layouts.count } }
    /// How many points the kept layouts have in all (for tests).
    var points: Int { table.withLock { $0.points } }
}
