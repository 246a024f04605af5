import CCairo
import Foundation

/// How hard PNG output is compressed. Every setting is lossless and deterministic (the same pixels give the same
/// bytes on every run); they trade encoding time against file size.
public enum PNGCompression: String, Sendable, Hashable, CaseIterable {
    /// zlib level 1 with run-length matching and the `Sub` filter: several times faster than `smallest` and
    /// than Cairo's own writer, with files a little larger. The default.
    case fast
    /// zlib level 6 with libpng's adaptive filtering (what Cairo's writer does): about the size Cairo produces.
    case balanced
    /// zlib level 9 with adaptive filtering: the smallest files, the slowest encoding.
    case smallest

    /// zlib level, zlib strategy (0 default, 3 `Z_RLE`), libpng filter mask (`PNG_FILTER_SUB` = 0x10,
    /// `PNG_ALL_FILTERS` = 0xF8).
    var settings: (level: Int32, strategy: Int32, filters: Int32) {
        switch self {
        case .fast: return (1, 3, 0x10)
        case .balanced: return (6, 0, 0xF8)
        case .smallest: return (9, 0, 0xF8)
        }
    }
}

/// Writes premultiplied ARGB32 pixels as PNG through libpng directly (8-bit straight alpha; RGB without an
/// alpha channel when every pixel is opaque). Colours are unpremultiplied with Cairo's rounding,
/// `(c·255 + a/2) / a`, so Cairo's reader (and `Bitmap(pngData:)`) gives back exactly the pixels written.
///
/// libpng reports errors by `longjmp`, which Swift cannot catch; the parameters passed here are always valid
/// (the canvas size is checked before rendering and the output goes to memory), so the only error left is
/// running out of memory. The output buffer is probed before it is reserved (`MemoryProbe`); zlib's own small
/// state failing after that would still stop the process.
enum PNGWriter {
    static func encode(width: Int, height: Int, pixels: [UInt32], compression: PNGCompression) throws -> Data {
        guard width > 0, height > 0, width <= 32767, height <= 32767, pixels.count == width * height else {
            throw RenderError.invalidCanvas("cannot encode \(width)×\(height) pixels from \(pixels.count) values")
        }
        var created: png_structp? = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, nil, nil)
        guard let png = created else {
            throw RenderError.cairo(operation: "png_create_write_struct", status: "out of memory")
        }
        var info = png_create_info_struct(png)
        defer { png_destroy_write_struct(&created, &info) }
        guard info != nil else { throw RenderError.cairo(operation: "png_create_info_struct", status: "out of memory") }

        // The output is reserved at half a byte per pixel (most frames compress below that); a canvas at the
        // size limits asks for 128 MiB, so ask the allocator first rather than trap.
        let reserve = width * height / 2
        guard MemoryProbe.canAllocate(reserve) else {
            throw RenderError.invalidCanvas("there is not enough memory to encode \(width)×\(height) pixels as PNG "
                                            + "(\(MemoryProbe.describe(bytes: reserve)))")
        }
        final class Sink { var data = Data() }
        let sink = Sink()
        sink.data.reserveCapacity(reserve)
        png_set_write_fn(png, Unmanaged.passUnretained(sink).toOpaque(), { png, bytes, length in
            guard let png, let bytes, let sink = png_get_io_ptr(png) else { return }
            Unmanaged<Sink>.fromOpaque(sink).takeUnretainedValue().data.append(bytes, count: length)
        }, nil)

        let opaque = pixels.withUnsafeBufferPointer { p in p.reduce(UInt32(0xFF00_0000)) { $0 & $1 } >> 24 == 0xFF }
        let channels = opaque ? 3 : 4
        png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8,
                     opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        let s = compression.settings
        png_set_compression_level(png, s.level)
        png_set_compression_strategy(png, s.strategy)
        png_set_filter(png, 0, s.filters)
        png_write_info(png, info)

        var row = [UInt8](repeating: 0, count: width * channels)
        pixels.withUnsafeBufferPointer { src in
            row.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let line = src.baseAddress! + y * width
                    if opaque {
                        for x in 0..<width {
                            let p = line[x]
                            out[3 * x] = UInt8(truncatingIfNeeded: p >> 16)
                            out[3 * x + 1] = UInt8(truncatingIfNeeded: p >> 8)
                            out[3 * x + 2] = UInt8(truncatingIfNeeded: p)
                        }
                    } else {
                        for x in 0..<width {
                            let (r, g, b, a) = unpremultiplied(line[x])
                            out[4 * x] = r; out[4 * x + 1] = g; out[4 * x + 2] = b; out[4 * x + 3] = a
                        }
                    }
                    png_write_row(png, out.baseAddress)
                }
            }
        }
        png_write_end(png, nil)
        return sink.data
    }

    /// Straight-alpha RGBA bytes of one premultiplied ARGB pixel, rounded as Cairo's writer rounds: the one
    /// unpremultiply (the PNG writer and `RenderedImage.rgba8` use it).
    @inline(__always)
    static func unpremultiplied(_ p: UInt32) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let a = p >> 24
        switch a {
        case 0:
            return (0, 0, 0, 0)
        case 255:
            return (UInt8(truncatingIfNeeded: p >> 16), UInt8(truncatingIfNeeded: p >> 8), UInt8(truncatingIfNeeded: p), 255)
        default:
            @inline(__always) func un(_ c: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: ((c & 0xFF) * 255 + a / 2) / a) }
            return (un(p >> 16), un(p >> 8), un(p), UInt8(a))
        }
    }
}
