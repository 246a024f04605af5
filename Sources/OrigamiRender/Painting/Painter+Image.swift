import CCairo
import Foundation
import Origami

extension Painter {
    /// Draws `image` stretched over `rect` (bounds space) through the plane's projective map: a Swift span loop
    /// over the face's device-space bounding box that steps the inverse homography's homogeneous coordinates
    /// along each row and divides at every pixel centre (perspective-correct, one division per pixel), then
    /// samples bilinearly between texel centres in fixed point, clamped at the texture's edges.
    /// Coverage comes from an antialiased A8 mask of the face polygon (the polygon clipped against w > ε at
    /// every level), so edges are smooth and nothing lands outside the face. The tile is painted with Cairo,
    /// which also embeds it in SVG and PDF output.
    func drawImage(_ image: Bitmap, in rect: PlaneRect, chain: PlaneChain, filter: ColorFilter) throws {
        let face = chain.map(rect.corners)
        guard face.count >= 3, let box = PlaneRect.bounding(face) else { return }
        // Off the canvas: nothing to sample, and a face at 1e300, whose pixel box does not fit an `Int`, must not
        // reach the conversions below.
        guard box.maxX > visible.minX, box.minX < visible.maxX, box.maxY > visible.minY, box.minY < visible.maxY else { return }
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
        let local = face.map { PlanePoint($0.x - Double(x0), $0.y - Double(y0)) }
        let mask = try CairoSurface(format: CAIRO_FORMAT_A8, width: w, height: h)
        do {
            let mc = try CairoContext(mask)
            mc.setAntialias(antialias)
            mc.setColor((1, 1, 1, 1))
            try mc.fill([local])
        }
        let tile = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: w, height: h)
        let sampler = TextureSampler(image)
        try mask.withPixels { maskData, maskStride in
            try tile.withPixels { tileData, tileStride in
                image.pixels.withUnsafeBufferPointer { texels in
                    for j in 0..<h {
                        let maskRow = maskData + j * maskStride
                        let out = UnsafeMutableRawPointer(tileData + j * tileStride).assumingMemoryBound(to: UInt32.self)
                        // Only the pixels the polygon reaches in this row: the mask is zero elsewhere.
                        guard let span = TextureSampler.span(of: local, row: j, width: w) else { continue }
                        // Homogeneous texture coordinates of pixel centres along the row, `origin + i·step`: the
                        // divide stays per pixel, so the mapping is exactly projective.
                        let py = Double(y0 + j) + 0.5, px = Double(x0) + 0.5
                        let origin = (px * inverse.m11 + py * inverse.m21 + inverse.m31,
                                      px * inverse.m12 + py * inverse.m22 + inverse.m32,
                                      px * inverse.m13 + py * inverse.m23 + inverse.m33)
                        sampler.sampleRow(span, origin: origin, step: (inverse.m11, inverse.m12, inverse.m13),
                                          coverage: maskRow, into: out, texels: texels, filter: filter)
                    }
                }
            }
        }
        try cr.paint(tile, x: Double(x0), y: Double(y0))
    }
}
