import Origami

/// Bilinear sampling of a premultiplied ARGB32 texture in fixed point: the four channels of a pixel are spread
/// into 16-bit lanes of one `UInt64`, so each interpolation step is two multiplies for all channels at once
/// (the trick pixman's bilinear fetchers use). Weights have 8 bits; each step rounds to nearest, so a result
/// is within one unit of the exact bilinear value.
struct TextureSampler {
    let width: Int
    let height: Int
    private let maxU: Double
    private let maxV: Double

    init(_ image: Bitmap) {
        width = image.width; height = image.height
        maxU = Double(image.width); maxV = Double(image.height)
    }

    /// ARGB bytes → 16-bit lanes `0x00AA_00RR_00GG_00BB`.
    @inline(__always) static func spread(_ p: UInt32) -> UInt64 {
        let q = UInt64(p)
        return (q & 0xFF) | (q & 0xFF00) << 8 | (q & 0xFF_0000) << 16 | (q & 0xFF00_0000) << 24
    }

    @inline(__always) static func pack(_ l: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: (l & 0xFF) | (l >> 8) & 0xFF00 | (l >> 16) & 0xFF_0000 | (l >> 24) & 0xFF00_0000)
    }

    private static let laneMask: UInt64 = 0x00FF_00FF_00FF_00FF
    private static let half: UInt64 = 0x0080_0080_0080_0080

    /// `a·(256 − w) + b·w`, rounded, per lane (w in 0…256).
    @inline(__always) static func lerp(_ a: UInt64, _ b: UInt64, _ w: UInt64) -> UInt64 {
        ((a &* (256 - w) &+ b &* w &+ half) >> 8) & laneMask
    }

    /// Every lane times `coverage`/255, rounded (coverage in 0…255).
    @inline(__always) static func scale(_ l: UInt64, by coverage: UInt64) -> UInt64 {
        let t = l &* coverage &+ half
        return ((t &+ ((t >> 8) & laneMask)) >> 8) & laneMask
    }

    /// The texture at (u, v) in texel units (texel centres at integers), edges clamped.
    @inline(__always) func bilinear(_ u: Double, _ v: Double, _ texels: UnsafeBufferPointer<UInt32>) -> UInt64 {
        // Shifted to be positive, truncation is the floor (and cheaper than calling floor).
        let su = min(max(u, -1), maxU) + 1, sv = min(max(v, -1), maxV) + 1
        let tu = Int(su), tv = Int(sv)
        let wx = UInt64((su - Double(tu)) * 256), wy = UInt64((sv - Double(tv)) * 256)
        let iu = tu - 1, iv = tv - 1
        let u0 = max(0, min(width - 1, iu)), u1 = max(0, min(width - 1, iu + 1))
        let v0 = max(0, min(height - 1, iv)), v1 = max(0, min(height - 1, iv + 1))
        let r0 = v0 * width, r1 = v1 * width
        let top = TextureSampler.lerp(TextureSampler.spread(texels[r0 + u0]), TextureSampler.spread(texels[r0 + u1]), wx)
        let bottom = TextureSampler.lerp(TextureSampler.spread(texels[r1 + u0]), TextureSampler.spread(texels[r1 + u1]), wx)
        return TextureSampler.lerp(top, bottom, wy)
    }

    /// Samples one row of pixels `span`: pixel `i` has homogeneous texture coordinates `origin + i·step` (pixel
    /// centres), divided per pixel, shifted by half a texel so texel centres sit at integers. Pixels whose
    /// `coverage` is 0 are left alone; partial coverage scales the premultiplied sample.
    func sampleRow(_ span: Range<Int>, origin: (Double, Double, Double), step: (Double, Double, Double),
                   coverage: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt32>,
                   texels: UnsafeBufferPointer<UInt32>, filter: ColorFilter) {
        var lo = span.lowerBound, hi = span.upperBound
        while lo < hi, coverage[lo] == 0 { lo += 1 }
        while hi > lo, coverage[hi - 1] == 0 { hi -= 1 }
        guard lo < hi else { return }
        // A homography maps the row (a segment in front of the eye) onto a segment of the texture plane, and the
        // part of a segment inside the texture's interior is one stretch: find it from both ends (the antialiased
        // pixels near the face's edges, whose centres may fall outside the face, take the careful path) and
        // sample it without clamping.
        var a = lo, b = hi
        if filter.isIdentity {
            while a < b, !interior(origin, step, a) { a += 1 }
            while b > a, !interior(origin, step, b - 1) { b -= 1 }
        } else {
            a = hi; b = hi
        }
        sampleCarefully(lo..<a, origin, step, coverage, out, texels, filter)
        sampleInterior(a..<b, origin, step, coverage, out, texels)
        sampleCarefully(b..<hi, origin, step, coverage, out, texels, filter)
    }

    private func interior(_ o: (Double, Double, Double), _ s: (Double, Double, Double), _ i: Int) -> Bool {
        let x = Double(i), hw = o.2 + s.2 * x
        guard hw > 0 else { return false }
        let u = (o.0 + s.0 * x) / hw - 0.5, v = (o.1 + s.1 * x) / hw - 0.5
        return u >= 0 && v >= 0 && u < Double(width - 1) && v < Double(height - 1)
    }

    private func sampleInterior(_ span: Range<Int>, _ o: (Double, Double, Double), _ s: (Double, Double, Double),
                                _ coverage: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt32>,
                                _ texels: UnsafeBufferPointer<UInt32>) {
        let x = Double(span.lowerBound)
        var hx = o.0 + s.0 * x, hy = o.1 + s.1 * x, hw = o.2 + s.2 * x
        // The interior ends one texel short of the last row and column, so the right and lower neighbours always
        // exist; the clamps only guard against rounding at the stretch's ends.
        let w = width, maxU = (width - 1) * 256 - 1, maxV = (height - 1) * 256 - 1
        for i in span {
            defer { hx += s.0; hy += s.1; hw += s.2 }
            let c = coverage[i]
            guard c > 0 else { continue }
            let r = 256 / hw
            // 24.8 fixed point; non-negative, so the conversion's truncation is the floor.
            let fu = min(max(Int(hx * r - 128), 0), maxU), fv = min(max(Int(hy * r - 128), 0), maxV)
            let k = (fv >> 8) * w + (fu >> 8)
            let p = TextureSampler.interpolate(texels[k], texels[k + 1], texels[k + w], texels[k + w + 1],
                                               UInt32(fu & 0xFF), UInt32(fv & 0xFF))
            out[i] = c == 255 ? p : TextureSampler.pack(TextureSampler.scale(TextureSampler.spread(p), by: UInt64(c)))
        }
    }

    /// Bilinear interpolation of four premultiplied ARGB pixels with 8-bit weights, rounded to nearest: the four
    /// weight products (summing to 65536) applied to the four channels at once in 32-bit vector lanes.
    @inline(__always)
    static func interpolate(_ tl: UInt32, _ tr: UInt32, _ bl: UInt32, _ br: UInt32, _ dx: UInt32, _ dy: UInt32) -> UInt32 {
        @inline(__always) func lanes(_ p: UInt32) -> SIMD4<UInt32> {
            SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(p, to: SIMD4<UInt8>.self))
        }
        let wbr = dx * dy, wbl = (256 - dx) * dy, wtr = dx * (256 - dy), wtl = (256 - dx) * (256 - dy)
        let sum = lanes(tl) &* wtl &+ lanes(tr) &* wtr &+ lanes(bl) &* wbl &+ lanes(br) &* wbr &+ 0x8000
        return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: sum &>> 16), to: UInt32.self)
    }

    private func sampleCarefully(_ span: Range<Int>, _ o: (Double, Double, Double), _ s: (Double, Double, Double),
                                 _ coverage: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt32>,
                                 _ texels: UnsafeBufferPointer<UInt32>, _ filter: ColorFilter) {
        for i in span {
            let c = UInt64(coverage[i])
            let x = Double(i), hw = o.2 + s.2 * x
            guard c > 0, hw != 0 else { continue }
            let u = (o.0 + s.0 * x) / hw - 0.5, v = (o.1 + s.1 * x) / hw - 0.5
            guard u.isFinite, v.isFinite else { continue }
            var lanes = bilinear(u, v, texels)
            if !filter.isIdentity { lanes = filtered(lanes, filter) }
            if c < 255 { lanes = TextureSampler.scale(lanes, by: c) }
            out[i] = TextureSampler.pack(lanes)
        }
    }

    /// The pixel columns `0..<width` whose centres' row band `[row, row + 1)` the polygon can touch: the x
    /// extent of the polygon's edges within the band (exact for any simple polygon), widened to whole pixels.
    static func span(of polygon: [PlanePoint], row: Int, width: Int) -> Range<Int>? {
        let top = Double(row), bottom = top + 1
        var lo = Double.infinity, hi = -Double.infinity
        for i in polygon.indices {
            let a = polygon[i], b = polygon[i + 1 == polygon.count ? 0 : i + 1]
            guard max(a.y, b.y) >= top, min(a.y, b.y) <= bottom else { continue }
            // The edge's x at the band's top and bottom (clamped to the edge's own y range).
            let dy = b.y - a.y
            for y in [max(top, min(a.y, b.y)), min(bottom, max(a.y, b.y))] {
                let x = dy == 0 ? (y == a.y ? a.x : b.x) : a.x + (b.x - a.x) * (y - a.y) / dy
                lo = min(lo, x, dy == 0 ? min(a.x, b.x) : x); hi = max(hi, x, dy == 0 ? max(a.x, b.x) : x)
            }
        }
        guard lo <= hi else { return nil }
        let start = max(0, Int(max(lo, -1).rounded(.down)) - 1), end = min(width, Int(min(hi, Double(width) + 1).rounded(.up)) + 1)
        return start < end ? start..<end : nil
    }

    /// The shade's colour filter on a premultiplied sample (the slow path: lit image faces only).
    func filtered(_ l: UInt64, _ filter: ColorFilter) -> UInt64 {
        let a = Double((l >> 48) & 0xFF) / 255
        var out = l & 0xFF_0000_0000_0000
        for (c, shift) in [(0, UInt64(32)), (1, 16), (2, 0)] {
            let v = filter.applyPremultiplied(Double((l >> shift) & 0xFF) / 255, alpha: a, channel: c)
            out |= UInt64(max(0, min(255, (v * 255).rounded()))) << shift
        }
        return out
    }
}
