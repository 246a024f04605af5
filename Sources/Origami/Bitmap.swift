/// A decoded raster image, the `contents` of a layer.
///
/// Pixels are 32-bit premultiplied ARGB in native byte order, row after row with no padding (Cairo's
/// `CAIRO_FORMAT_ARGB32` with stride `4·width`). Decoding files lives in OrigamiRender; this type is pure data.
public struct Bitmap: Equatable, Sendable {
    /// Width in pixels, > 0.
    public let width: Int
    /// Height in pixels, > 0.
    public let height: Int
    /// `width·height` premultiplied ARGB32 pixels, row after row from the top-left (see the type's description).
    public let pixels: [UInt32]

    /// `nil` when the dimensions are not positive or `pixels.count != width·height`.
    public init?(width: Int, height: Int, pixels: [UInt32]) {
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).overflow == false,
              pixels.count == width * height else { return nil }
        self.width = width; self.height = height; self.pixels = pixels
    }

    /// A bitmap filled with one colour.
    public init?(width: Int, height: Int, color: Color) {
        let c = color.clamped
        let a = c.alpha
        func byte(_ v: Double) -> UInt32 { UInt32((v * 255).rounded()) }
        let px = byte(a) << 24 | byte(c.red * a) << 16 | byte(c.green * a) << 8 | byte(c.blue * a)
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).overflow == false else { return nil }
        self.init(width: width, height: height, pixels: Array(repeating: px, count: width * height))
    }

    /// The premultiplied ARGB pixel at (x, y); x and y must be in range.
    public subscript(x: Int, y: Int) -> UInt32 { pixels[y * width + x] }
}

/// How `contents` is placed in the layer's bounds. Corresponds to `CALayerContentsGravity`; the default,
/// as in Core Animation, is `.resize`.
public enum ContentsGravity: String, Hashable, Sendable, CaseIterable {
    /// Placed at its natural size (`contentsScale` pixels a point), not scaled: centred, or against the named edge or
    /// corner of the bounds (`top` is the bounds' minimum y: y grows downward). Correspond to `center`, `top`, …,
    /// `bottomRight` of `CALayerContentsGravity`.
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    /// Scaled: `resize` fills the bounds, distorting the aspect ratio (the default); `resizeAspect` fits inside them,
    /// keeping the ratio; `resizeAspectFill` covers them, keeping the ratio and cropping what overflows.
    case resize, resizeAspect, resizeAspectFill
}
