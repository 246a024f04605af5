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
        // The size first: `width * height` is formed only for sides that cannot overflow it.
        guard takes(width: width, height: height), pixels.count == width * height else {
            throw RenderError.invalidCanvas("cannot encode \(width)×\(height) pixels from \(pixels.count) values")
        }
        return try pixels.withUnsafeBufferPointer { src in
            try encode(width: width, height: height, compression: compression) { src.baseAddress! + $0 * width }
        }
    }

    /// Whether `encode` takes a `width` × `height` image (each side 1 to 32 767 pixels).
    private static func takes(width: Int, height: Int) -> Bool {
        width > 0 && height > 0 && width <= 32767 && height <= 32767
    }

    /// `encode` of pixels read in place, a row at a time (`row(y)`: row `y`'s first pixel), as a Cairo surface
    /// holds them: no copy of the whole image.
    static func encode(width: Int, height: Int, compression: PNGCompression,
                       row pixelRow: (Int) -> UnsafePointer<UInt32>) throws -> Data {
        guard takes(width: width, height: height) else {
            throw RenderError.invalidCanvas("cannot encode \(width)×\(height) pixels")
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

        let opaque = (0..<height).allSatisfy { y in
            UnsafeBufferPointer(start: pixelRow(y), count: width).reduce(UInt32(0xFF00_0000)) { $0 & $1 } >> 24 == 0xFF
        }
        begin(png, info, width: width, height: height, opaque: opaque, compression: compression)
        var row = [UInt8](repeating: 0, count: width * (opaque ? 3 : 4))
        for y in 0..<height { writeRow(png, pixelRow(y), width: width, opaque: opaque, into: &row) }
        png_write_end(png, nil)
        // Most images use a small part of the reservation; the rest would be held as long as the data is (a
        // frame waiting in the pipeline held 80 KB for 12 KB of PNG), so a small result is copied out.
        guard sink.data.count < reserve / 2 else { return sink.data }
        return sink.data.withUnsafeBytes { Data(bytes: $0.baseAddress!, count: $0.count) }
    }

    /// The header and compression settings, shared by `encode` and `PNGRowWriter` so both give the same bytes.
    static func begin(_ png: png_structp, _ info: png_infop?, width: Int, height: Int, opaque: Bool,
                      compression: PNGCompression) {
        png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8,
                     opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        let s = compression.settings
        png_set_compression_level(png, s.level)
        png_set_compression_strategy(png, s.strategy)
        png_set_filter(png, 0, s.filters)
        png_write_info(png, info)
    }

    /// Converts one row of premultiplied pixels (RGB when `opaque`, else straight RGBA) and hands it to libpng.
    static func writeRow(_ png: png_structp, _ line: UnsafePointer<UInt32>, width: Int, opaque: Bool,
                         into row: inout [UInt8]) {
        row.withUnsafeMutableBufferPointer { out in
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

/// A PNG written a band of rows at a time straight into an `OutputFile`, for images too tall to hold whole (a
/// sweep's contact sheet): memory holds one band, never the image. Whether the image is opaque must be known
/// up front (the colour type comes first in the file); with `opaque` the alpha of every pixel is ignored.
/// The file is committed by `finish`, and discarded when an error stops the writer or it is dropped unfinished.
public final class PNGRowWriter {
    /// Image width in pixels.
    public let width: Int
    /// Image height in pixels.
    public let height: Int
    private let opaque: Bool
    private var png: png_structp?
    private var info: png_infop?
    private let sink: Sink
    private var row: [UInt8]
    private var written = 0
    private var finished = false

    /// Collects libpng's small writes into 256 KiB pieces; a failed write is kept and reported by the writer
    /// (libpng's callback cannot throw).
    private final class Sink {
        let file: OutputFile
        var buffer: [UInt8] = []
        var error: RenderError?
        init(_ file: OutputFile) { self.file = file; buffer.reserveCapacity(1 << 18) }
        func flush() {
            guard error == nil, !buffer.isEmpty else { buffer.removeAll(keepingCapacity: true); return }
            buffer.withUnsafeBytes { raw in
                do throws(RenderError) { try file.write(raw) } catch { self.error = error }
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// Opens `destination` (through its temporary file) for a `width` × `height` PNG. Each side is at most
    /// 1 000 000 pixels (libpng's limit).
    public init(_ destination: WritableDestination, width: Int, height: Int, opaque: Bool,
                compression: PNGCompression) throws(RenderError) {
        guard width > 0, height > 0, width <= 1_000_000, height <= 1_000_000 else {
            throw RenderError.invalidCanvas("cannot encode \(width)×\(height) pixels as PNG")
        }
        self.width = width; self.height = height; self.opaque = opaque
        row = [UInt8](repeating: 0, count: width * (opaque ? 3 : 4))
        sink = Sink(try destination.open())
        png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, nil, nil)
        guard let png else {
            sink.file.discard()
            throw RenderError.cairo(operation: "png_create_write_struct", status: "out of memory")
        }
        info = png_create_info_struct(png)
        guard info != nil else {
            sink.file.discard()
            throw RenderError.cairo(operation: "png_create_info_struct", status: "out of memory")
        }
        png_set_write_fn(png, Unmanaged.passUnretained(sink).toOpaque(), { png, bytes, length in
            guard let png, let bytes, let raw = png_get_io_ptr(png) else { return }
            let sink = Unmanaged<Sink>.fromOpaque(raw).takeUnretainedValue()
            sink.buffer.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
            if sink.buffer.count >= 1 << 18 { sink.flush() }
        }, nil)
        PNGWriter.begin(png, info, width: width, height: height, opaque: opaque, compression: compression)
    }

    deinit {
        png_destroy_write_struct(&png, &info)
        if !finished { sink.file.discard() }
    }

    /// Appends `pixels` (premultiplied ARGB, whole rows of `width`) below the rows written so far.
    public func append(_ pixels: ArraySlice<UInt32>) throws(RenderError) {
        guard let png, !finished, pixels.count % width == 0, written + pixels.count / width <= height else {
            throw RenderError.invalidCanvas("a band of \(pixels.count) pixels does not continue a \(width)×\(height) PNG at row \(written)")
        }
        pixels.withUnsafeBufferPointer { src in
            for y in 0..<(pixels.count / width) {
                PNGWriter.writeRow(png, src.baseAddress! + y * width, width: width, opaque: opaque, into: &row)
            }
        }
        written += pixels.count / width
        if let error = sink.error { finished = true; sink.file.discard(); throw error }
    }

    /// Ends the image once every row is written and commits the file.
    public func finish() throws(RenderError) {
        guard let png, !finished, written == height else {
            throw RenderError.invalidCanvas("the PNG has \(written) of its \(height) rows")
        }
        png_write_end(png, nil)
        sink.flush()
        finished = true
        if let error = sink.error { sink.file.discard(); throw error }
        try sink.file.commit()
    }
}
