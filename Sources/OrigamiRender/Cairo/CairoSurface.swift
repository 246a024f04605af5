import CCairo
import Foundation

/// An owned `cairo_surface_t`: destroyed on deinit, status checked at creation.
final class CairoSurface {
    let handle: OpaquePointer
    /// Told of this surface's creation and destruction (tests prove every surface is released).
    private let counter = CairoResourceCounter.current

    /// Takes ownership of `handle` (a created surface), throwing — and destroying it — when Cairo reports an error.
    init(taking handle: OpaquePointer?, operation: String) throws {
        guard let handle else { throw RenderError.cairo(operation: operation, status: "null surface") }
        let status = cairo_surface_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(handle)
            throw RenderError.cairo(operation: operation, status: CairoSurface.describe(status))
        }
        self.handle = handle
        counter?.didCreate()
    }

    /// A zero-filled (transparent) image surface.
    convenience init(format: cairo_format_t, width: Int, height: Int) throws {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw RenderError.invalidCanvas("an image of \(width)×\(height) pixels is outside 1…32767")
        }
        let handle = cairo_image_surface_create(format, Int32(width), Int32(height))
        // Cairo reports a failed allocation as a status, like any other; say what could not be had.
        if let handle, cairo_surface_status(handle) == CAIRO_STATUS_NO_MEMORY {
            cairo_surface_destroy(handle)
            let bytes = Int(cairo_format_stride_for_width(format, Int32(width))) * height
            throw RenderError.invalidCanvas("there is not enough memory for a \(width)×\(height)-pixel drawing "
                                            + "surface (\(MemoryProbe.describe(bytes: bytes)))")
        }
        try self.init(taking: handle, operation: "cairo_image_surface_create")
    }

    deinit {
        cairo_surface_destroy(handle)
        counter?.didDestroy()
    }

    var width: Int { Int(cairo_image_surface_get_width(handle)) }
    var height: Int { Int(cairo_image_surface_get_height(handle)) }
    var stride: Int { Int(cairo_image_surface_get_stride(handle)) }

    func check(_ operation: String) throws {
        let status = cairo_surface_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(operation: operation, status: CairoSurface.describe(status))
        }
    }

    /// Runs `body` on the pixel rows of an image surface after flushing, then marks it dirty.
    func withPixels<T>(_ body: (UnsafeMutablePointer<UInt8>, _ stride: Int) throws -> T) throws -> T {
        cairo_surface_flush(handle)
        guard let data = cairo_image_surface_get_data(handle) else {
            throw RenderError.cairo(operation: "cairo_image_surface_get_data", status: "no pixel data")
        }
        defer { cairo_surface_mark_dirty(handle) }
        return try body(data, stride)
    }

    /// Completes pending drawing so the pixels (or a caller's buffer under them) are current.
    func flush() { cairo_surface_flush(handle) }

    /// Fixes a PDF's creation date and creator, so the bytes are the same on every run.
    func setFixedPDFMetadata() {
        cairo_pdf_surface_set_metadata(handle, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00")
        cairo_pdf_surface_set_metadata(handle, CAIRO_PDF_METADATA_CREATOR, "Origami")
    }

    /// Finishes a vector surface so its stream is complete.
    func finish() throws {
        cairo_surface_finish(handle)
        try check("cairo_surface_finish")
    }

    static func describe(_ status: cairo_status_t) -> String {
        cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
    }
}

/// Collects a Cairo output stream.
final class StreamSink {
    var data = Data()
}

extension CairoSurface {
    /// A vector surface made by `create` (`cairo_svg_surface_create_for_stream`, …, given the write function and
    /// its closure) whose output collects in `sink`. `sink` must outlive the surface.
    static func streaming(into sink: StreamSink, operation: String,
                          _ create: (cairo_write_func_t, UnsafeMutableRawPointer) -> OpaquePointer?) throws -> CairoSurface {
        let write: cairo_write_func_t = { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<StreamSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }
        return try CairoSurface(taking: create(write, Unmanaged.passUnretained(sink).toOpaque()), operation: operation)
    }
}
