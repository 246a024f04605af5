import CCairo
import Foundation
import Origami

/// Renders layer trees the way Core Animation composites them (DESIGN §3), painted with Cairo.
///
/// The canvas is the root layer's superlayer space, `size` points wide and high, origin top-left; the root
/// is placed by its own position, transform and zPosition. Rendering works on a `RenderTree` snapshot, so it
/// may run on several threads at once.
public enum Renderer {
    /// Snapshots `root` (at `time` of its parent, animations applied; `nil`: the model) and renders it into pixels.
    public static func render(_ root: Layer, size: CGSize, options: RenderOptions = RenderOptions(),
                              time: Double? = nil) throws(RenderError) -> RenderedImage {
        try render(RenderTree(root: root, limits: options.limits, time: time), size: size, options: options)
    }

    /// Renders a snapshot into pixels.
    public static func render(_ tree: RenderTree, size: CGSize, options: RenderOptions = RenderOptions()) throws(RenderError) -> RenderedImage {
        try RenderError.typed("render") { try rendered(tree, size: size, options: options) }
    }

    /// `clipsEveryFragment`: every fragment of a split plane drawn through a hard clip and the whole face, as before
    /// issue 20 (`BenchmarkProbes`: the reference the fragment fill is compared against).
    static func rendered(_ tree: RenderTree, size: CGSize, options: RenderOptions,
                         clipsEveryFragment: Bool = false) throws -> RenderedImage {
        let (width, height) = try pixelSize(size, options: options)
        let n = options.supersample
        // The frame's array (and the supersampled surface) would trap, not throw, when memory is short.
        let frameBytes = 4 * width * height, surfaceBytes = n == 1 ? 0 : frameBytes * n * n
        guard MemoryProbe.canAllocate(frameBytes, surfaceBytes) else {
            throw RenderError.invalidCanvas("there is not enough memory for a \(width * n)×\(height * n)-pixel frame "
                                            + "(\(MemoryProbe.describe(bytes: frameBytes + surfaceBytes)))")
        }
        if n == 1 {
            let pixels = try renderInPlace(tree, size: size, width: width, height: height, options: options,
                                           clipsEveryFragment: clipsEveryFragment)
            return RenderedImage(width: width, height: height, pixels: pixels, tree: tree, size: size, options: options)
        }
        let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: width * n, height: height * n)
        let cr = try CairoContext(surface)
        try paint(tree, into: cr, deviceScale: options.scale * Double(n), size: size, options: options, pixel: Double(n),
                  clipsEveryFragment: clipsEveryFragment)
        surface.flush()
        let pixels = try downsample(surface, factor: n, width: width, height: height)
        return RenderedImage(width: width, height: height, pixels: pixels, tree: tree, size: size, options: options)
    }

    /// Snapshots `root` (at `time`, as `render(_:size:options:time:)`) and renders it as a complete file in `format`.
    public static func data(_ root: Layer, size: CGSize, options: RenderOptions = RenderOptions(),
                            format: OutputFormat, time: Double? = nil) throws(RenderError) -> Data {
        try data(RenderTree(root: root, limits: options.limits, time: time), size: size, options: options, format: format)
    }

    /// Renders a snapshot as a complete file in `format`.
    public static func data(_ tree: RenderTree, size: CGSize, options: RenderOptions = RenderOptions(),
                            format: OutputFormat) throws(RenderError) -> Data {
        try RenderError.typed("render") {
            switch format {
            case .png: return try render(tree, size: size, options: options).pngData()
            case .svg, .pdf: return try vectorData(tree, size: size, options: options, format: format)
            }
        }
    }

    /// Snapshots `root` (at `time`, as `render(_:size:options:time:)`), renders it and writes it to `url` through `WritableDestination` (atomic, never over
    /// a device, a read-only file or one of `protectedFiles`), checked before rendering. The format is
    /// `OutputFormat.forFile`'s: the extension's, which must agree with `format` when both are given.
    /// On error nothing is left at `url` or beside it.
    public static func write(_ root: Layer, size: CGSize, options: RenderOptions = RenderOptions(),
                             to url: URL, format: OutputFormat? = nil,
                             protecting protectedFiles: [ProtectedFile] = [], time: Double? = nil) throws {
        let f = try OutputFormat.forFile(url, requested: format)
        let destination = try WritableDestination(url, protecting: protectedFiles)
        let tree = try RenderTree(root: root, limits: options.limits, time: time)
        try destination.write(data(tree, size: size, options: options, format: f))
    }

    // MARK: - Internals

    static func pixelSize(_ size: CGSize, options: RenderOptions) throws -> (Int, Int) {
        let s = try options.limits.pixelSize(size, scale: options.scale, supersample: options.supersample)
        return (s.width, s.height)
    }

    /// Without supersampling Cairo paints straight into the array the image keeps (ARGB32's stride is 4·width),
    /// so no copy of the frame is made.
    ///
    /// The array starts transparent — unless the background alone sets every pixel (`backgroundCoversEveryPixel`),
    /// when zeroing it first would only be overwritten: at 1024² that zeroing was 5 % of a turntable frame on one
    /// core and 9 % on two (a freshly reused 4 MiB block is cold in the cache). Tests only: `alwaysZeroes` zeroes
    /// the array anyway (the reference); `scribble` fills an array that is not zeroed with a pattern first, so a
    /// test sees any pixel the background does not cover.
    static func renderInPlace(_ tree: RenderTree, size: CGSize, width: Int, height: Int,
                              options: RenderOptions, clipsEveryFragment: Bool = false,
                              alwaysZeroes: Bool = false, scribble: UInt32? = nil) throws -> [UInt32] {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        guard stride == 4 * width else { throw RenderError.invalidCanvas("unexpected stride \(stride) for \(width) pixels") }
        let count = width * height
        var pixels = !alwaysZeroes && backgroundCoversEveryPixel(size: size, width: width, height: height, options: options)
            ? [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
                if let scribble { buffer.initialize(repeating: scribble) }
                // Not read before the background's fill has written every element.
                initialized = count
            }
            : [UInt32](repeating: 0, count: count)
        try pixels.withUnsafeMutableBytes { raw in
            let surface = try CairoSurface(
                taking: cairo_image_surface_create_for_data(raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
                                                            CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride)),
                operation: "cairo_image_surface_create_for_data")
            // Finishing detaches Cairo from the array before the closure returns, whatever still holds the surface.
            defer { try? surface.finish() }
            let cr = try CairoContext(surface)
            try paint(tree, into: cr, deviceScale: options.scale, size: size, options: options, pixel: 1,
                      clipsEveryFragment: clipsEveryFragment)
            surface.flush()
        }
        return pixels
    }

    /// Whether `paint`'s background fill sets every pixel of a `width` × `height` frame whatever was there: an
    /// opaque colour (OVER then gives the colour itself) over a canvas of exactly that many device pixels, so no
    /// edge pixel is only partly covered. Without supersampling only (the supersampled surface is Cairo's).
    static func backgroundCoversEveryPixel(size: CGSize, width: Int, height: Int, options: RenderOptions) -> Bool {
        guard options.supersample == 1, let background = options.background, background.clamped.alpha == 1 else { return false }
        return Double(size.width) * options.scale == Double(width) && Double(size.height) * options.scale == Double(height)
    }

    /// Paints the canvas: background, then the root's scene. `deviceScale` is device units per point, `pixel`
    /// device units per output pixel (the supersampling factor). `collectsEveryFragment`, `drawsFacesThroughNode`:
    /// see `Painter` (tests only).
    static func paint(_ tree: RenderTree, into cr: CairoContext, deviceScale: Double, size: CGSize,
                      options: RenderOptions, pixel: Double, clipsEveryFragment: Bool = false,
                      collectsEveryFragment: Bool = false, drawsFacesThroughNode: Bool = false) throws {
        cr.setAntialias(options.antialias)
        let visible = PlaneRect(minX: 0, minY: 0, maxX: Double(size.width) * deviceScale,
                                maxY: Double(size.height) * deviceScale)
        if let bg = options.background {
            let c = bg.clamped
            cr.setColor((c.red, c.green, c.blue, c.alpha))
            try cr.fill([visible.corners])
        }
        let device = Homography(Matrix3(m11: deviceScale, m12: 0, m13: 0, m21: 0, m22: deviceScale, m23: 0,
                                        m31: 0, m32: 0, m33: 1))
        let painter = Painter(cr, visible: visible, pixel: pixel, sealsEdges: options.sealsEdges,
                              antialias: options.antialias, clipsEveryFragment: clipsEveryFragment,
                              collectsEveryFragment: collectsEveryFragment, drawsFacesThroughNode: drawsFacesThroughNode)
        try painter.drawScene(tree.members, chain: PlaneChain([device], canvas: visible), filter: .identity)
        try cr.check("render")
    }

    /// Box filter: each output pixel is the mean of an N×N block (premultiplied, so edges blend correctly).
    static func downsample(_ surface: CairoSurface, factor n: Int, width: Int, height: Int) throws -> [UInt32] {
        try surface.withPixels { data, stride in
            var out = [UInt32](repeating: 0, count: width * height)
            let area = UInt32(n * n)
            for y in 0..<height {
                for x in 0..<width {
                    var sums: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
                    for dy in 0..<n {
                        let row = UnsafeRawPointer(data + (y * n + dy) * stride).assumingMemoryBound(to: UInt32.self)
                        for dx in 0..<n {
                            let p = row[x * n + dx]
                            sums.0 += p >> 24; sums.1 += (p >> 16) & 0xFF; sums.2 += (p >> 8) & 0xFF; sums.3 += p & 0xFF
                        }
                    }
                    let half = area / 2
                    let a = (sums.0 + half) / area, r = (sums.1 + half) / area
                    let g = (sums.2 + half) / area, b = (sums.3 + half) / area
                    out[y * width + x] = (a << 24) | (r << 16) | (g << 8) | b
                }
            }
            return out
        }
    }

    /// SVG or PDF: the page is in points; the painter works in device units of `scale` per point (so image
    /// faces are rasterised at that resolution) under a CTM of 1/scale.
    static func vectorData(_ tree: RenderTree, size: CGSize, options: RenderOptions, format: OutputFormat) throws -> Data {
        _ = try pixelSize(size, options: options)
        let sink = StreamSink()
        let w = Double(size.width), h = Double(size.height)
        let surface: CairoSurface
        switch format {
        case .svg:
            surface = try CairoSurface.streaming(into: sink, operation: "cairo_svg_surface_create_for_stream") {
                cairo_svg_surface_create_for_stream($0, $1, w, h)
            }
        default:
            surface = try CairoSurface.streaming(into: sink, operation: "cairo_pdf_surface_create_for_stream") {
                cairo_pdf_surface_create_for_stream($0, $1, w, h)
            }
            surface.setFixedPDFMetadata()
        }
        do {
            let cr = try CairoContext(surface)
            try cr.scale(by: 1 / options.scale)
            try paint(tree, into: cr, deviceScale: options.scale, size: size, options: options, pixel: 1)
        }
        try surface.finish()
        return format == .svg ? SVGIdentifiers.normalized(sink.data) : sink.data
    }
}
