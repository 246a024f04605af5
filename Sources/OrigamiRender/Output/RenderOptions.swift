import Origami

/// The file formats a render can be written as.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Raster, at the options' pixel scale.
    case png
    /// Vector paths in points; image faces embedded as rasters at the options' pixel scale.
    case svg
    /// Like `svg`, as a one-page PDF.
    case pdf

    /// The format named by a file extension (case-insensitive), or `nil`.
    public init?(pathExtension: String) { self.init(rawValue: pathExtension.lowercased()) }
}

/// How a layer tree becomes pixels or a document.
public struct RenderOptions: Hashable, Sendable {
    /// Pixels per point, like `contentsScale`: a 300×200-point canvas at scale 2 is 600×400 pixels.
    public var scale: Double
    /// Render at `supersample`× the pixel size, then average each N×N block (1…8; raster output only).
    public var supersample: Int
    /// Painted under everything; `nil` leaves the canvas transparent.
    public var background: Color?
    /// Dilate opaque 3D faces by half a pixel so the shared edges of a closed solid show no background cracks.
    public var sealsEdges: Bool
    /// How PNG output is compressed: `.fast` by default; `.smallest` for smaller files. Lossless either way.
    public var pngCompression: PNGCompression
    /// Canvas, tree, text and image limits, checked before anything is allocated for a render.
    public var limits: RenderLimits

    public init(scale: Double = 1, supersample: Int = 1, background: Color? = nil, sealsEdges: Bool = true,
                pngCompression: PNGCompression = .fast, limits: RenderLimits = .default) {
        self.scale = scale; self.supersample = supersample; self.background = background; self.sealsEdges = sealsEdges
        self.pngCompression = pngCompression; self.limits = limits
    }
}
