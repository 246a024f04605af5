import CCairo
import Foundation

/// An owned `cairo_t` drawing into a surface it keeps alive. Every public operation checks `cairo_status`
/// afterwards and throws, because Cairo's errors are sticky and otherwise silent.
final class CairoContext {
    let handle: OpaquePointer
    let surface: CairoSurface
    /// Told of this context's creation and destruction (tests prove every context is released).
    private let counter = CairoResourceCounter.current

    init(_ surface: CairoSurface) throws {
        guard let h = cairo_create(surface.handle) else {
            throw RenderError.cairo(operation: "cairo_create", status: "null context")
        }
        let status = cairo_status(h)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(h)
            throw RenderError.cairo(operation: "cairo_create", status: CairoSurface.describe(status))
        }
        handle = h
        self.surface = surface
        counter?.didCreate()
    }

    deinit {
        cairo_destroy(handle)
        counter?.didDestroy()
    }

    func check(_ operation: String) throws {
        let status = cairo_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(operation: operation, status: CairoSurface.describe(status))
        }
    }

    /// `cairo_save` … `cairo_restore`, always balanced, even when `body` throws.
    func withSavedState<T>(_ body: () throws -> T) throws -> T {
        cairo_save(handle)
        defer { cairo_restore(handle) }
        let result = try body()
        try check("cairo_restore")
        return result
    }

    func setColor(_ c: (r: Double, g: Double, b: Double, a: Double)) {
        cairo_set_source_rgba(handle, c.r, c.g, c.b, c.a)
    }

    /// Replaces the current path by `rings` (each closed).
    func setPath(_ rings: [Ring]) {
        cairo_new_path(handle)
        for ring in rings { addToPath(ring) }
    }

    /// Adds `ring` to the current path as a closed subpath (nothing when it has fewer than 3 points).
    private func addToPath<Points: RandomAccessCollection<PlanePoint>>(_ ring: Points) {
        guard ring.count >= 3, let first = ring.first else { return }
        cairo_move_to(handle, first.x, first.y)
        for p in ring.dropFirst() { cairo_line_to(handle, p.x, p.y) }
        cairo_close_path(handle)
    }

    /// Fills `rings` (device space) with the current source.
    func fill(_ rings: [Ring], evenOdd: Bool = false) throws {
        guard !rings.isEmpty else { return }
        setPath(rings)
        cairo_set_fill_rule(handle, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_fill(handle)
        try check("cairo_fill")
    }

    /// `fill([ring])` (the same calls) without making the array: a face or fragment filled once per paint, or a
    /// ring in a pool of them (`Painter.PlainFills`).
    func fill<Points: RandomAccessCollection<PlanePoint>>(_ ring: Points) throws {
        cairo_new_path(handle)
        addToPath(ring)
        cairo_set_fill_rule(handle, CAIRO_FILL_RULE_WINDING)
        cairo_fill(handle)
        try check("cairo_fill")
    }

    /// Fills `rings` (device space) with `pattern`, composited by `op`.
    func fill(_ rings: [Ring], with pattern: CairoPattern, operator op: cairo_operator_t = CAIRO_OPERATOR_OVER) throws {
        try withSavedState {
            cairo_set_operator(handle, op)
            cairo_set_source(handle, pattern.handle)
            try fill(rings)
        }
    }

    /// Paints `pattern` wherever the clip allows.
    func paint(_ pattern: CairoPattern) throws {
        cairo_set_source(handle, pattern.handle)
        cairo_paint(handle)
        try check("cairo_paint (pattern)")
    }

    /// Paints `source` through the alpha of `mask`, composited by `op`.
    func mask(_ source: CairoPattern, with mask: CairoPattern, operator op: cairo_operator_t) throws {
        try withSavedState {
            cairo_set_operator(handle, op)
            cairo_set_source(handle, source.handle)
            cairo_mask(handle, mask.handle)
            try check("cairo_mask")
        }
    }

    /// Scales the user space (a vector page in points over a painter working in device units).
    func scale(by s: Double) throws {
        cairo_scale(handle, s, s)
        try check("cairo_scale")
    }

    /// Fills and clips from now on: coverage antialiasing or hard edges.
    func setAntialias(_ antialias: Antialias) {
        cairo_set_antialias(handle, antialias == .gray ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
    }

    /// Intersects the clip with `rings` (device space), with the context's antialiasing; `antialias == false`
    /// gives a hard pixel partition whatever it is, used for BSP fragments so two fragments of one plane leave no
    /// seam between them.
    func clip(_ rings: [Ring], evenOdd: Bool = false, antialias: Bool = true) throws {
        setPath(rings)
        cairo_set_fill_rule(handle, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        let previous = cairo_get_antialias(handle)
        if !antialias { cairo_set_antialias(handle, CAIRO_ANTIALIAS_NONE) }
        if rings.isEmpty { cairo_rectangle(handle, 0, 0, 0, 0) }
        cairo_clip(handle)
        cairo_set_antialias(handle, previous)
        try check("cairo_clip")
    }

    func pushGroup() throws {
        cairo_push_group(handle)
        try check("cairo_push_group")
    }

    /// Pops the group and paints it with `alpha` (Core Animation's group opacity).
    func popGroup(alpha: Double) throws {
        cairo_pop_group_to_source(handle)
        if alpha >= 1 { cairo_paint(handle) } else { cairo_paint_with_alpha(handle, alpha) }
        try check("cairo_paint_with_alpha")
    }

    /// Pops the group as a pattern the caller owns.
    func popGroupPattern() throws -> CairoPattern {
        try CairoPattern(taking: cairo_pop_group(handle), operation: "cairo_pop_group")
    }

    /// Paints an image surface with its top-left at (x, y) of the current user space, scaled by `scale`.
    func paint(_ image: CairoSurface, x: Double, y: Double, scale: Double = 1) throws {
        try withSavedState {
            cairo_translate(handle, x, y)
            if scale != 1 { cairo_scale(handle, scale, scale) }
            cairo_set_source_surface(handle, image.handle, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(handle), CAIRO_FILTER_NEAREST)
            cairo_paint(handle)
            try check("cairo_paint (image)")
        }
    }
}

/// An owned `cairo_pattern_t`.
final class CairoPattern {
    let handle: OpaquePointer
    private let counter = CairoResourceCounter.current

    init(taking handle: OpaquePointer?, operation: String) throws {
        guard let handle else { throw RenderError.cairo(operation: operation, status: "null pattern") }
        let status = cairo_pattern_status(handle)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_pattern_destroy(handle)
            throw RenderError.cairo(operation: operation, status: CairoSurface.describe(status))
        }
        self.handle = handle
        counter?.didCreate()
    }

    deinit {
        cairo_pattern_destroy(handle)
        counter?.didDestroy()
    }

    /// One Coons patch of a mesh: four device corners in order, an RGB colour at each.
    struct Patch {
        let corners: [PlanePoint]
        let colors: [(red: Double, green: Double, blue: Double)]
    }

    /// A mesh pattern of `patches` (Gouraud shading: colours blend across each patch).
    static func mesh(_ patches: [Patch]) throws -> CairoPattern {
        let mesh = try CairoPattern(taking: cairo_pattern_create_mesh(), operation: "cairo_pattern_create_mesh")
        for patch in patches where patch.corners.count == 4 && patch.colors.count == 4 {
            cairo_mesh_pattern_begin_patch(mesh.handle)
            for (corner, (p, c)) in zip(patch.corners, patch.colors).enumerated() {
                if corner == 0 { cairo_mesh_pattern_move_to(mesh.handle, p.x, p.y) } else {
                    cairo_mesh_pattern_line_to(mesh.handle, p.x, p.y)
                }
                cairo_mesh_pattern_set_corner_color_rgb(mesh.handle, UInt32(corner), c.red, c.green, c.blue)
            }
            cairo_mesh_pattern_end_patch(mesh.handle)
        }
        let status = cairo_pattern_status(mesh.handle)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError.cairo(operation: "cairo_mesh_pattern", status: CairoSurface.describe(status))
        }
        return mesh
    }
}
