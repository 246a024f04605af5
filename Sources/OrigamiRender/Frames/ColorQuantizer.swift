import Origami

/// One frame reduced to at most 256 colours, as a GIF image needs: a palette and an index per pixel.
///
/// Pixels at least half opaque keep their colour (un-premultiplied); the others become the transparent index.
/// When the frame has few enough distinct colours (flat-shaded faces on a plain background usually do) they are
/// kept exactly; otherwise the palette comes from median cut over a 5-bit-per-channel histogram (Heckbert 1982:
/// split the box with the most pixels × widest side at the weighted median of its widest channel; each palette
/// entry is the mean colour of its box). There is no dithering: Origami's gradients (Gouraud faces) are smooth
/// and median cut gives them the most entries, and dithering would make frame-to-frame noise in a loop.
public struct QuantizedFrame: Sendable {
    /// 8-bit RGB triples; at most 256, padded to a power of two of at least 2 (GIF's colour table sizes).
    public let palette: [(r: UInt8, g: UInt8, b: UInt8)]
    /// Row after row, one palette index per pixel.
    public let indices: [UInt8]
    /// The palette entry meaning "transparent", when some pixel is less than half opaque.
    public let transparentIndex: Int?

    /// Quantizes premultiplied ARGB32 pixels (`Bitmap`'s layout).
    public init(_ pixels: [UInt32]) {
        let bins = 1 << 15
        var count = [Int](repeating: 0, count: bins)
        var sums = [Int](repeating: 0, count: bins * 3)
        // The first colour seen in each bin, and whether every colour in it was that colour.
        var first = [UInt32](repeating: 0, count: bins)
        var uniform = [Bool](repeating: true, count: bins)
        var keys = [UInt16](repeating: 0, count: pixels.count)
        let transparentKey = UInt16.max
        var anyTransparent = false
        // Runs of one value (flat faces, the background) are classified once: the hot loop of a frame.
        pixels.withUnsafeBufferPointer { px in
            keys.withUnsafeMutableBufferPointer { k in
                count.withUnsafeMutableBufferPointer { count in
                    sums.withUnsafeMutableBufferPointer { sums in
                        first.withUnsafeMutableBufferPointer { first in
                            uniform.withUnsafeMutableBufferPointer { uniform in
                                let n = px.count
                                var i = 0
                                while i < n {
                                    let p = px[i]
                                    var j = i + 1
                                    while j < n && px[j] == p { j += 1 }
                                    let a = p >> 24
                                    guard a >= 128 else {
                                        for t in i..<j { k[t] = transparentKey }
                                        anyTransparent = true
                                        i = j
                                        continue
                                    }
                                    var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                                    if a != 255 {
                                        r = min(255, (r * 255 + a / 2) / a); g = min(255, (g * 255 + a / 2) / a)
                                        b = min(255, (b * 255 + a / 2) / a)
                                    }
                                    let key = Int((r >> 3) << 10 | (g >> 3) << 5 | (b >> 3))
                                    for t in i..<j { k[t] = UInt16(key) }
                                    let rgb = r << 16 | g << 8 | b
                                    if count[key] == 0 { first[key] = rgb } else if uniform[key] && first[key] != rgb { uniform[key] = false }
                                    let run = j - i
                                    count[key] += run
                                    sums[key * 3] += Int(r) * run; sums[key * 3 + 1] += Int(g) * run; sums[key * 3 + 2] += Int(b) * run
                                    i = j
                                }
                            }
                        }
                    }
                }
            }
        }
        let used = (0..<bins).filter { count[$0] > 0 }
        let capacity = anyTransparent ? 255 : 256
        var palette: [(r: UInt8, g: UInt8, b: UInt8)] = []
        var lookup = [UInt8](repeating: 0, count: bins)
        if used.count <= capacity && used.allSatisfy({ uniform[$0] }) {
            for key in used {
                lookup[key] = UInt8(palette.count)
                let c = first[key]
                palette.append((UInt8(c >> 16), UInt8((c >> 8) & 0xFF), UInt8(c & 0xFF)))
            }
        } else {
            // Median cut works on the used bins only, numbered 0..<used.count.
            let counts = used.map { count[$0] }
            var means = [Double](repeating: 0, count: used.count * 3)
            for (u, key) in used.enumerated() {
                for c in 0..<3 { means[u * 3 + c] = Double(sums[key * 3 + c]) / Double(count[key]) }
            }
            for box in Self.medianCut(counts: counts, means: means, boxes: capacity) {
                var n = 0, r = 0, g = 0, b = 0
                for u in box {
                    let key = used[u]
                    lookup[key] = UInt8(palette.count)
                    n += count[key]; r += sums[key * 3]; g += sums[key * 3 + 1]; b += sums[key * 3 + 2]
                }
                func channel(_ s: Int) -> UInt8 { UInt8(min(255, (s + n / 2) / max(1, n))) }
                palette.append((channel(r), channel(g), channel(b)))
            }
        }
        var transparentIndex: Int?
        if anyTransparent {
            transparentIndex = palette.count
            palette.append((0, 0, 0))
        }
        var size = 2
        while size < palette.count { size *= 2 }
        palette += Array(repeating: (0, 0, 0), count: size - palette.count)
        let transparentByte = UInt8(transparentIndex ?? 0)
        self.indices = lookup.withUnsafeBufferPointer { lookup in
            keys.map { $0 == transparentKey ? transparentByte : lookup[Int($0)] }
        }
        self.palette = palette
        self.transparentIndex = transparentIndex
    }

    /// Splits bins `0..<counts.count` (`counts[u]` pixels of mean colour `means[3u…3u+2]`) into at most
    /// `boxes` groups.
    private static func medianCut(counts count: [Int], means: [Double], boxes: Int) -> [[Int]] {
        struct Box {
            var keys: [Int]
            var pixels: Int
            var widest: Int
            var extent: Double
        }
        func box(_ keys: [Int]) -> Box {
            var lo = [Double.infinity, .infinity, .infinity], hi = [-Double.infinity, -.infinity, -.infinity]
            var pixels = 0
            for k in keys {
                for i in 0..<3 { lo[i] = min(lo[i], means[k * 3 + i]); hi[i] = max(hi[i], means[k * 3 + i]) }
                pixels += count[k]
            }
            let extents = (0..<3).map { hi[$0] - lo[$0] }
            let widest = extents.indices.max { extents[$0] < extents[$1] } ?? 0
            return Box(keys: keys, pixels: pixels, widest: widest, extent: extents[widest])
        }
        var result = [box(Array(count.indices))]
        while result.count < boxes {
            // The box with the most pixels times its widest side: big boxes with spread split first.
            guard let i = result.indices.filter({ result[$0].keys.count > 1 && result[$0].extent > 0 })
                .max(by: { Double(result[$0].pixels) * result[$0].extent < Double(result[$1].pixels) * result[$1].extent })
            else { break }
            let b = result[i]
            let sorted = b.keys.sorted { means[$0 * 3 + b.widest] < means[$1 * 3 + b.widest] }
            var running = 0, split = 1
            for (j, k) in sorted.enumerated() {
                running += count[k]
                if running * 2 >= b.pixels { split = max(1, min(sorted.count - 1, j + 1)); break }
            }
            result[i] = box(Array(sorted[..<split]))
            result.append(box(Array(sorted[split...])))
        }
        return result.map(\.keys)
    }
}
