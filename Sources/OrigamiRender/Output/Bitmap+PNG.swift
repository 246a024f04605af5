import CCairo
import Foundation
import Origami

extension Bitmap {
    /// The pixels as PNG bytes (libpng), as `RenderedImage.pngData` writes a render.
    public func pngData(compression: PNGCompression = .fast) throws -> Data {
        try PNGWriter.encode(width: width, height: height, pixels: pixels, compression: compression)
    }

    /// Decodes a PNG file into premultiplied ARGB32 pixels (any PNG colour type; Cairo converts), within the
    /// default `RenderLimits`. Throws `RenderError.unreadableImage` naming the file when it is missing,
    /// unreadable or not a valid PNG, and `.limitExceeded` for an oversized one.
    public init(contentsOfPNG url: URL) throws {
        try self.init(contentsOfPNG: url, limits: .default)
    }

    /// Decodes PNG bytes; `name` is what errors call the source. Bytes that are not a PNG are named by what
    /// they start with; a decode that would not fit in memory (the Cairo surface and the pixel array, both
    /// `4·width·height` bytes, are held at once) is an error saying so, never a trap.
    public init(pngData: Data, name: String = "<data>") throws {
        let header = try PNGHeader(pngData, name: name)
        let bytes = 4 * header.pixelCount
        guard MemoryProbe.canAllocate(bytes, bytes) else {
            throw RenderError.unreadableImage(path: name, reason: "there is not enough memory to decode its "
                + "\(header.width)×\(header.height) pixels (\(MemoryProbe.describe(bytes: 2 * bytes)))")
        }
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
        let readStatus = handle.map(cairo_surface_status)
        let surface: CairoSurface
        do {
            surface = try CairoSurface(taking: handle, operation: "cairo_image_surface_create_from_png_stream")
        } catch let RenderError.cairo(_, status) {
            // Cairo reports every libpng error as "out of memory" (its guess at the likeliest one); the memory
            // was probed above, so that status here means damaged data. A read error is our reader running out.
            let why = switch readStatus {
            case CAIRO_STATUS_NO_MEMORY?: "its image data is damaged"
            case CAIRO_STATUS_READ_ERROR?: "it is cut short"
            default: status
            }
            throw RenderError.unreadableImage(path: name, reason: "not a valid PNG (\(why))")
        }
        let width = surface.width, height = surface.height
        let format = cairo_image_surface_get_format(surface.handle)
        guard [CAIRO_FORMAT_ARGB32, CAIRO_FORMAT_RGB24, CAIRO_FORMAT_A8].contains(format), width > 0, height > 0 else {
            throw RenderError.unreadableImage(path: name, reason: "empty image")
        }
        let pixels = try surface.withPixels { data, stride in
            [UInt32](unsafeUninitializedCapacity: width * height) { out, count in
                for y in 0..<height {
                    let row = data + y * stride
                    let line = out.baseAddress! + y * width
                    switch format {
                    case CAIRO_FORMAT_ARGB32:
                        UnsafeMutableRawPointer(line).copyMemory(from: row, byteCount: 4 * width)
                    case CAIRO_FORMAT_RGB24:
                        let source = UnsafeRawPointer(row).assumingMemoryBound(to: UInt32.self)
                        for x in 0..<width { line[x] = source[x] | 0xFF00_0000 }
                    default: // A8
                        for x in 0..<width { line[x] = UInt32(row[x]) << 24 }
                    }
                }
                count = width * height
            }
        }
        guard let bitmap = Bitmap(width: width, height: height, pixels: pixels) else {
            throw RenderError.unreadableImage(path: name, reason: "empty image")
        }
        self = bitmap
    }
}
