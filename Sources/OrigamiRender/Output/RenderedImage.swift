import CCairo
import Foundation
import Origami

/// A finished raster render, with the snapshot it came from (so it can also be written as SVG or PDF).
public struct RenderedImage: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Premultiplied ARGB32 in native byte order, row after row (Cairo's layout, stride `4·width`).
    public let pixels: [UInt32]
    /// The snapshot the pixels were rendered from.
    public let tree: RenderTree
    /// The canvas in points.
    public let size: CGSize
    /// The options it was rendered with.
    public let options: RenderOptions

    /// The pixels as a `Bitmap` (for use as another layer's `contents`).
    public var bitmap: Bitmap? { Bitmap(width: width, height: height, pixels: pixels) }

    /// The pixel at (x, y) (0,0 top-left) as straight-alpha 8-bit RGBA; `nil` outside the image.
    public func rgba8(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8)? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return PNGWriter.unpremultiplied(pixels[y * width + x])
    }

    /// The pixel at (x, y) as an unpremultiplied `Color`; `nil` outside the image.
    public func pixel(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let p = pixels[y * width + x]
        let a = Double((p >> 24) & 0xFF) / 255
        guard a > 0 else { return .clear }
        func un(_ v: UInt32) -> Double { min(1, Double(v) / 255 / a) }
        return Color(red: un((p >> 16) & 0xFF), green: un((p >> 8) & 0xFF), blue: un(p & 0xFF), alpha: a)
    }

    /// The image as PNG bytes, compressed as `compression` says (default: the options' `pngCompression`),
    /// written through libpng. Deterministic: the same pixels and setting give the same bytes.
    public func pngData(compression: PNGCompression? = nil) throws -> Data {
        try PNGWriter.encode(width: width, height: height, pixels: pixels,
                             compression: compression ?? options.pngCompression)
    }

    /// The render as a file in `format`: PNG from these pixels; SVG and PDF re-painted from the snapshot.
    public func data(format: OutputFormat) throws -> Data {
        format == .png ? try pngData() : try Renderer.data(tree, size: size, options: options, format: format)
    }

    /// Writes through `WritableDestination` (atomic, never over a device, a read-only file or one of
    /// `protectedFiles`). The format is `OutputFormat.forFile`'s: the extension's, which must agree with
    /// `format` when both are given.
    public func write(to url: URL, format: OutputFormat? = nil,
                      protecting protectedFiles: [ProtectedFile] = []) throws {
        let f = try OutputFormat.forFile(url, requested: format)
        let destination = try WritableDestination(url, protecting: protectedFiles)
        try destination.write(data(format: f))
    }
}
