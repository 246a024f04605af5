import CCairo
import Foundation
import Origami

extension Painter {
    /// Draws `image` stretched over `rect` (bounds space) through the plane's projective map: a Swift span loop
    /// over the face's device-space bounding box that inverts the composite homography at every pixel centre
    /// (perspective-correct) and samples bilinearly between texel centres, clamped at the texture's edges.
    /// Coverage comes from an antialiased A8 mask of the face polygon (the polygon clipped against w > ε at
    /// every level), so edges are smooth and nothing lands outside the face. The tile is painted with Cairo,
    /// which also embeds it in SVG and PDF output.
    func drawImage(_ image: Bitmap, in rect: PlaneRect, chain: PlaneChain, filter: ColorFilter) throws {
        let face = chain.map(rect.corners)
        guard face.count >= 3, let box = PlaneRect.bounding(face) else { return }
        let x0 = Int(max(box.minX, visible.minX).rounded(.down)), y0 = Int(max(box.minY, visible.minY).rounded(.down))
        let x1 = Int(min(box.maxX, visible.maxX).rounded(.up)), y1 = Int(min(box.maxY, visible.maxY).rounded(.up))
        guard x1 > x0, y1 > y0 else { return }
        // Texture pixels → bounds space → device.
        let toBounds = Homography(Matrix3(
            m11: rect.width / Double(image.width), m12: 0, m13: 0,
            m21: 0, m22: rect.height / Double(image.height), m23: 0,
            m31: rect.minX, m32: rect.minY, m33: 1))
        guard let inverse = toBounds.concatenating(chain.composite).inverted()?.matrix else { return }

        let w = x1 - x0, h = y1 - y0
        let mask = try CairoSurface(format: CAIRO_FORMAT_A8, width: w, height: h)
        do {
            let mc = try CairoContext(mask)
            mc.setColor((1, 1, 1, 1))
            try mc.fill([face.map { PlanePoint($0.x - Double(x0), $0.y - Double(y0)) }])
        }
        let tile = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: w, height: h)
        let tw = image.width, th = image.height
        try mask.withPixels { maskData, maskStride in
            try tile.withPixels { tileData, tileStride in
                image.pixels.withUnsafeBufferPointer { texels in
                    for j in 0..<h {
                        let maskRow = maskData + j * maskStride
                        let out = UnsafeMutableRawPointer(tileData + j * tileStride).assumingMemoryBound(to: UInt32.self)
                        let py = Double(y0 + j) + 0.5
                        for i in 0..<w {
                            let coverage = maskRow[i]
                            guard coverage > 0 else { continue }
                            let px = Double(x0 + i) + 0.5
                            let hw = px * inverse.m13 + py * inverse.m23 + inverse.m33
                            guard hw != 0 else { continue }
                            let u = (px * inverse.m11 + py * inverse.m21 + inverse.m31) / hw - 0.5
                            let v = (px * inverse.m12 + py * inverse.m22 + inverse.m32) / hw - 0.5
                            guard u.isFinite, v.isFinite else { continue }
                            let fu = u.rounded(.down), fv = v.rounded(.down)
                            let ax = u - fu, ay = v - fv
                            let iu = Int(max(-1, min(Double(tw), fu))), iv = Int(max(-1, min(Double(th), fv)))
                            let ua = max(0, min(tw - 1, iu)), ub = max(0, min(tw - 1, iu + 1))
                            let va = max(0, min(th - 1, iv)), vb = max(0, min(th - 1, iv + 1))
                            let p00 = texels[va * tw + ua], p10 = texels[va * tw + ub]
                            let p01 = texels[vb * tw + ua], p11 = texels[vb * tw + ub]
                            let k = Double(coverage) / 255
                            var channels = [0.0, 0.0, 0.0, 0.0]
                            for (c, shift) in [(0, 24), (1, 16), (2, 8), (3, 0)] as [(Int, UInt32)] {
                                func ch(_ p: UInt32) -> Double { Double((p >> shift) & 0xFF) }
                                let top = ch(p00) + (ch(p10) - ch(p00)) * ax
                                let bottom = ch(p01) + (ch(p11) - ch(p01)) * ax
                                channels[c] = (top + (bottom - top) * ay) / 255
                            }
                            let a = channels[0]
                            if !filter.isIdentity {
                                for c in 1...3 { channels[c] = filter.applyPremultiplied(channels[c], alpha: a, channel: c - 1) }
                            }
                            func byte(_ x: Double) -> UInt32 { UInt32(max(0, min(255, (x * k * 255).rounded()))) }
                            out[i] = byte(a) << 24 | byte(channels[1]) << 16 | byte(channels[2]) << 8 | byte(channels[3])
                        }
                    }
                }
            }
        }
        try cr.paint(tile, x: Double(x0), y: Double(y0))
    }
}
