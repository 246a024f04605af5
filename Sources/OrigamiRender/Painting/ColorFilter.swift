import Origami

/// The uniform part of a `FaceShade` (multiply, then add, on colour channels; alpha unchanged), carried down
/// the painting of a plane and applied to every colour it paints.
///
/// Source-over compositing is linear in the colour channels, so filtering each paint operation equals filtering
/// the plane's composite (up to clamping): exact for translucent content too, on every back end.
struct ColorFilter: Sendable {
    struct Stage: Sendable {
        let multiply: Color, add: Color

        /// This stage on colour channels.
        @inline(__always)
        func apply(_ r: inout Double, _ g: inout Double, _ b: inout Double) {
            r = min(r * multiply.red + add.red, 1)
            g = min(g * multiply.green + add.green, 1)
            b = min(b * multiply.blue + add.blue, 1)
        }
    }
    let stages: [Stage]

    static let identity = ColorFilter(stages: [])

    /// A shade's uniform part (`FaceShade.multiply`, `.add`) applied first, then this (outer) filter. It takes the
    /// two colours rather than the shade, so a caller reads them where the shade is kept without copying it.
    func inner(multiply: Color?, add: Color?) -> ColorFilter {
        guard multiply != nil || add != nil else { return self }
        let stage = Stage(multiply: (multiply ?? .white).clamped, add: (add ?? .black).clamped)
        return ColorFilter(stages: [stage] + stages)
    }

    func apply(_ c: Color) -> Color {
        var r = c.red, g = c.green, b = c.blue
        for s in stages { s.apply(&r, &g, &b) }
        return Color(red: r, green: g, blue: b, alpha: c.alpha)
    }

    /// `inner(multiply:add:).apply(c)` without the inner filter's array: a face's fill, worked out per face.
    func apply(_ c: Color, innerMultiply multiply: Color?, add: Color?) -> Color {
        guard multiply != nil || add != nil else { return apply(c) }
        var r = c.red, g = c.green, b = c.blue
        Stage(multiply: (multiply ?? .white).clamped, add: (add ?? .black).clamped).apply(&r, &g, &b)
        for s in stages { s.apply(&r, &g, &b) }
        return Color(red: r, green: g, blue: b, alpha: c.alpha)
    }

    /// A premultiplied channel value `v` (0…1) of a pixel with alpha `a`, for channel 0 (red), 1, 2.
    func applyPremultiplied(_ v: Double, alpha a: Double, channel: Int) -> Double {
        var v = v
        for s in stages {
            let (m, ad): (Double, Double) = channel == 0 ? (s.multiply.red, s.add.red)
                : channel == 1 ? (s.multiply.green, s.add.green) : (s.multiply.blue, s.add.blue)
            v = min(v * m + ad * a, a)
        }
        return v
    }

    var isIdentity: Bool { stages.isEmpty }
}
