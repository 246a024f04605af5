import CCairo
import Foundation
import Origami

extension Bitmap {
    /// Decodes a PNG file into premultiplied ARGB32 pixels (any PNG colour type; Cairo converts), within the
    /// default `RenderLimits`. Throws `RenderError.unreadableImage` naming the file when it is missing,
    /// unreadable or not a valid PNG, and `.limitExceeded` for an oversized one.
    public init(contentsOfPNG url: URL) throws {
        try self.init(contentsOfPNG: url, limits: .default)
    }

    /// Decodes PNG bytes; `name` is what errors call the source.
    public init(pngData: Data, name: String = "<data>") throws {
        final class Reader { let data: Data; var offset = 0; init(_ d: Data) { data = d } }
        let reader = Reader(pngData)
        let handle = cairo_image_surface_create_from_png_stream({ closure, buffer, length in
            guard let closure, let buffer else { return CAIRO_STATUS_READ_ERROR }
            let r = Unmanaged<Reader>.fromOpaque(closure).takeUnretainedValue()
            let n = Int(length)
            guard r.offset + n <= r.data.count else { return CAIRO_STATUS_READ_ERROR }
            r.data.copyBytes(to: buffer, from: r.offset..<(r.offset + n))
            r.offset += n
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(reader).toOpaque())
        let surface: CairoSurface
        do {
            surface = try CairoSurface(taking: handle, operation: "cairo_image_surface_create_from_png_stream")
        } catch {
            throw RenderError.unreadableImage(path: name, reason: "not a valid PNG (\(error))")
        }
        let width = surface.width, height = surface.height
        let format = cairo_image_surface_get_format(surface.handle)
        var pixels = [UInt32](repeating: 0, count: width * height)
        try surface.withPixels { data, stride in
            for y in 0..<height {
                for x in 0..<width {
                    let row = data + y * stride
                    switch format {
                    case CAIRO_FORMAT_ARGB32:
                        pixels[y * width + x] = UnsafeRawPointer(row).assumingMemoryBound(to: UInt32.self)[x]
                    case CAIRO_FORMAT_RGB24:
                        pixels[y * width + x] = UnsafeRawPointer(row).assumingMemoryBound(to: UInt32.self)[x] | 0xFF00_0000
                    case CAIRO_FORMAT_A8:
                        let a = UInt32(row[x])
                        pixels[y * width + x] = a << 24
                    default:
                        break
                    }
                }
            }
        }
        guard let bitmap = Bitmap(width: width, height: height, pixels: pixels) else {
            throw RenderError.unreadableImage(path: name, reason: "empty image")
        }
        self = bitmap
    }
}
