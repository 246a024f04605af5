import Foundation
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

    /// What the format is called in messages: PNG, SVG, PDF.
    public var name: String { rawValue.uppercased() }
}

extension OutputFormat {
    /// The format a file at `url` is written in: the one place a file's extension is read as a format.
    ///
    /// The extension decides (case-insensitive); a name without one takes `requested`, else the first of
    /// `allowed`. An extension that is not one of `allowed`'s, or that names another format than `requested`,
    /// is refused with the name to use instead, so a file's bytes always agree with its extension.
    /// - Parameters:
    ///   - url: the file to write.
    ///   - requested: the format asked for (`--format`), if any.
    ///   - allowed: the formats this output can write.
    ///   - writer: what writes the file, for "hitmap writes PNG only".
    ///   - requestedBy: where `requested` came from, for "names SVG but --format is pdf".
    /// - Throws: `RenderError.writeFailed` naming `url`.
    public static func forFile(_ url: URL, requested: OutputFormat? = nil, allowed: [OutputFormat] = allCases,
                               writer: String = "this output", requestedBy: String = "the format asked for")
        throws(RenderError) -> OutputFormat {
        let name = url.lastPathComponent
        let stem = url.deletingPathExtension().lastPathComponent
        let ext = url.pathExtension
        func refuse(_ reason: String) -> RenderError { .writeFailed(path: url.path, reason: reason) }
        if let requested, !allowed.contains(requested) {
            throw refuse("\(writer) writes \(phrase(allowed.map(\.name))) only, not \(requested.rawValue)")
        }
        guard !ext.isEmpty else { return requested ?? allowed.first ?? .png }
        guard let named = OutputFormat(pathExtension: ext) else {
            throw refuse("unsupported extension .\(ext): use \(phrase(allowed.map { "." + $0.rawValue }))")
        }
        guard allowed.contains(named) else {
            let right = requested ?? allowed.first ?? .png
            throw refuse("\(writer) writes \(phrase(allowed.map(\.name))) only; use \(stem).\(right.rawValue)")
        }
        if let requested, requested != named {
            throw refuse("\(name) names \(named.name) but \(requestedBy) is \(requested.rawValue); "
                         + "use \(stem).\(requested.rawValue)")
        }
        return named
    }

    /// "a", "a or b", "a, b or c".
    private static func phrase(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + (items.last ?? "")
    }
}

/// How the edges of filled shapes (faces, text, borders) meet the pixel grid.
public enum Antialias: String, Sendable, CaseIterable {
    /// Each edge pixel takes the fraction of it the shape covers (Cairo's `CAIRO_ANTIALIAS_GRAY`): faces are
    /// antialiased at their exact outline.
    case gray
    /// Hard edges (`CAIRO_ANTIALIAS_NONE`): a pixel is the shape's when its centre is inside, for comparing with
    /// aliased references. Shared edges stay sealed, so solids still show no cracks.
    case none
}

/// How a layer tree becomes pixels or a document.
public struct RenderOptions: Hashable, Sendable {
    /// Pixels per point, like `contentsScale`: a 300×200-point canvas at scale 2 is 600×400 pixels.
    public var scale: Double
    /// Render at `supersample`× the pixel size, then average each N×N block (1…8; raster output only).
    public var supersample: Int
    /// Painted under everything; `nil` leaves the canvas transparent.
    public var background: Color?
    /// Where two opaque faces in perspective share an edge (a solid's neighbouring faces), the one painted first is
    /// extended under the later one along that edge, so no background shows through the seam and the edge's pixels
    /// do not depend on paint order. Free edges are never moved (DESIGN §3.7).
    public var sealsEdges: Bool
    /// Coverage antialiasing (`.gray`, the default) or hard edges (`.none`).
    public var antialias: Antialias
    /// How PNG output is compressed: `.fast` by default; `.smallest` for smaller files. Lossless either way.
    public var pngCompression: PNGCompression
    /// Canvas, tree, text and image limits, checked before anything is allocated for a render.
    public var limits: RenderLimits

    /// Options for a render at `scale` pixels per point; every other option has the default documented on its
    /// property.
    public init(scale: Double = 1, supersample: Int = 1, background: Color? = nil, sealsEdges: Bool = true,
                antialias: Antialias = .gray, pngCompression: PNGCompression = .fast, limits: RenderLimits = .default) {
        self.scale = scale; self.supersample = supersample; self.background = background; self.sealsEdges = sealsEdges
        self.antialias = antialias; self.pngCompression = pngCompression; self.limits = limits
    }
}
