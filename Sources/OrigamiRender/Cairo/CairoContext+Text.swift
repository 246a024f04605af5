import CCairo
import Foundation
import Origami

extension CairoContext {
    /// Glyph outlines of a text layer's string, laid out line by line (explicit newlines; no wrapping),
    /// in the layer's bounds space. Uses Cairo's toy font API through fontconfig (DejaVu on Debian).
    static func glyphOutlines(_ style: TextStyle, in bounds: PlaneRect, tolerance: Double) throws -> [Ring] {
        guard !style.string.isEmpty, style.fontSize.isFinite, style.fontSize > 0 else { return [] }
        // An unbounded recording surface: on a small image surface Cairo 1.16 leaves glyphs out of
        // `cairo_text_path` (a 1×1 target kept 28 of 54 outlines of a 36-character line).
        let surface = try CairoSurface(taking: cairo_recording_surface_create(CAIRO_CONTENT_ALPHA, nil),
                                       operation: "cairo_recording_surface_create")
        let cr = try CairoContext(surface)
        let h = cr.handle
        cairo_select_font_face(h, style.fontFamily,
                               style.isItalic ? CAIRO_FONT_SLANT_ITALIC : CAIRO_FONT_SLANT_NORMAL,
                               style.isBold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(h, min(style.fontSize, 10_000))
        // Unhinted outlines and metrics: the glyphs will be seen at every angle, so no pixel grid applies.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(h, options)
        cairo_font_options_destroy(options)
        cairo_set_tolerance(h, tolerance)
        try cr.check("cairo_select_font_face")

        var fontExtents = cairo_font_extents_t()
        cairo_font_extents(h, &fontExtents)
        let lines = style.string.components(separatedBy: "\n")
        let lineHeight = fontExtents.height
        let blockHeight = fontExtents.ascent + fontExtents.descent + lineHeight * Double(lines.count - 1)
        var baseline = bounds.minY + fontExtents.ascent
        if style.isVerticallyCentered { baseline += (bounds.height - blockHeight) / 2 }

        cairo_new_path(h)
        for line in lines {
            var extents = cairo_text_extents_t()
            cairo_text_extents(h, line, &extents)
            let x: Double
            switch style.alignment {
            case .left: x = bounds.minX
            case .center: x = bounds.minX + (bounds.width - extents.x_advance) / 2
            case .right: x = bounds.maxX - extents.x_advance
            }
            cairo_move_to(h, x, baseline)
            cairo_text_path(h, line)
            baseline += lineHeight
        }
        try cr.check("cairo_text_path")
        return try cr.flattenedPath()
    }

    /// The current path as closed polylines (`cairo_copy_path_flat`).
    func flattenedPath() throws -> [Ring] {
        guard let path = cairo_copy_path_flat(handle) else { return [] }
        defer { cairo_path_destroy(path) }
        guard path.pointee.status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(operation: "cairo_copy_path_flat", status: CairoSurface.describe(path.pointee.status))
        }
        var rings: [Ring] = []
        var current: Ring = []
        var i = 0
        let count = Int(path.pointee.num_data)
        while i < count {
            let header = path.pointee.data[i].header
            switch header.type {
            case CAIRO_PATH_MOVE_TO:
                if current.count >= 3 { rings.append(current) }
                let p = path.pointee.data[i + 1].point
                current = [PlanePoint(p.x, p.y)]
            case CAIRO_PATH_LINE_TO:
                let p = path.pointee.data[i + 1].point
                current.append(PlanePoint(p.x, p.y))
            case CAIRO_PATH_CLOSE_PATH:
                if current.count >= 3 { rings.append(current) }
                current = current.first.map { [$0] } ?? []
            default:
                break
            }
            i += max(1, Int(header.length))
        }
        if current.count >= 3 { rings.append(current) }
        return rings
    }
}
