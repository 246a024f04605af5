import Foundation
import Origami

/// What one render may ask for. Every limit is checked before anything is allocated for the render (the
/// snapshot walks the tree iteratively first; the canvas is sized before any surface exists), and a render
/// over one throws `RenderError.limitExceeded` naming it.
///
/// The defaults follow DESIGN §7 and issue 7: a drawing surface of at most 16384 pixels a side and 256 Mpx
/// (16384², 1 GiB of ARGB32) *after* scale and supersampling; the scene files' 100 000 layers and 64 levels.
/// The snapshot and the painting recurse once per level of ordinary layers (as Core Animation's compositor
/// does), at up to ~16 KiB of stack per level in an unoptimised build: 64 levels stay within 1 MiB, far inside
/// the 8 MiB of a main thread. A deeper tree is refused, by an iterative walk, with an error naming the limit.
public struct RenderLimits: Hashable, Sendable {
    /// Pixels along either side of the drawing surface, after `scale` and `supersample`.
    public var maxCanvasSide = 16384
    /// Pixels of the drawing surface, after `scale` and `supersample`.
    public var maxCanvasPixels = 256 * 1024 * 1024
    /// Layers in one snapshot (hidden subtrees do not count: they are not snapshotted).
    public var maxLayers = 100_000
    /// Levels of sublayers below the root (the root's sublayers are level 1), as `SceneLimits.maxDepth` counts
    /// a scene file's nested `layers`, so a scene that loads also renders. Each level costs stack in the
    /// snapshot and in painting, so this bounds the recursion a programmatic tree can cause (see above before
    /// raising it).
    public var maxDepth = 64
    /// UTF-8 bytes of one text layer's string. Glyph outlines are flattened to polylines (about 165 points per
    /// glyph at 36 pt, 2 600 at the 10 000-pt maximum font size), so an unbounded string — a 16 MB scene file
    /// holds 16 million characters — would need gigabytes.
    public var maxTextBytes = 16_384
    /// Pixels along either side of a decoded image (`contents`).
    public var maxImageSide = 16384
    /// Pixels of a decoded image.
    public var maxImagePixels = 64 * 1024 * 1024
    /// Bytes of an image file.
    public var maxImageBytes = 64 * 1024 * 1024

    /// The default limits.
    public init() {}

    /// The default limits (DESIGN §7).
    public static let `default` = RenderLimits()

    /// The output size in pixels of a `size`-point canvas at `scale`, checking that the drawing surface
    /// (`supersample` × that on each side) is within the limits. Throws `.invalidCanvas` for a size or scale
    /// that is not finite and positive or a supersample outside 1…8, `.limitExceeded` over a limit.
    public func pixelSize(_ size: CGSize, scale: Double, supersample: Int) throws(RenderError) -> (width: Int, height: Int) {
        let w = Double(size.width), h = Double(size.height)
        guard w.isFinite, h.isFinite, w > 0, h > 0 else {
            throw .invalidCanvas("the canvas size \(w)×\(h) must be finite and positive")
        }
        guard scale.isFinite, scale > 0 else { throw .invalidCanvas("the scale \(scale) must be finite and positive") }
        guard (1...8).contains(supersample) else { throw .invalidCanvas("supersample \(supersample) is outside 1…8") }
        // The 1e-9 forgives rounding in size × scale (100 × 1.1 must stay 110 pixels, not 111).
        let pw = max(1, (w * scale - 1e-9).rounded(.up)), ph = max(1, (h * scale - 1e-9).rounded(.up))
        let sw = pw * Double(supersample), sh = ph * Double(supersample)
        let side = max(sw, sh)
        guard side <= Double(maxCanvasSide) else {
            throw .limitExceeded(limit: .maxCanvasSide, value: Self.clampedInt(side), maximum: maxCanvasSide)
        }
        guard sw * sh <= Double(maxCanvasPixels) else {
            throw .limitExceeded(limit: .maxCanvasPixels, value: Self.clampedInt(sw * sh), maximum: maxCanvasPixels)
        }
        return (Int(pw), Int(ph))
    }

    /// Checks the tree a snapshot of `root` would hold — drawable layers only — against `maxLayers`,
    /// `maxDepth` and `maxTextBytes`, without recursion, so that any tree, however deep, gets an error instead of a stack overflow.
    public func check(_ root: Layer) throws(RenderError) {
        // Counting every layer (hidden or not finite ones and their subtrees too) bounds what the exact walk
        // counts, so a tree within every limit that way passes it: the walk below, which asks each layer whether
        // it is drawable (its whole geometry tested for finite values), is only needed for a tree over a limit.
        guard !withinLimitsCountingEveryLayer(root) else { return }
        var count = 0
        var stack: [(Layer, Int)] = [(root, 0)]
        while let (layer, depth) = stack.popLast() {
            guard PresentationTree.isDrawable(layer) else { continue }
            count += 1
            guard count <= maxLayers else { throw .limitExceeded(limit: .maxLayers, value: count, maximum: maxLayers) }
            guard depth <= maxDepth else { throw .limitExceeded(limit: .maxDepth, value: depth, maximum: maxDepth) }
            if let text = layer as? TextLayer, text.string.utf8.count > maxTextBytes {
                throw .limitExceeded(limit: .maxTextBytes, value: text.string.utf8.count, maximum: maxTextBytes)
            }
            for s in layer.sublayers { stack.append((s, depth + 1)) }
        }
    }

    /// Whether the tree of `root` is within `maxLayers`, `maxDepth` and `maxTextBytes` even with every layer
    /// counted, drawable or not: then `check(root)`, which counts drawable layers only (a subset, at the same
    /// depths), cannot throw. Walks a sublayer list at a time (in no particular order: only the totals matter),
    /// and stops at the first list over a limit.
    private func withinLimitsCountingEveryLayer(_ root: Layer) -> Bool {
        guard maxLayers >= 1, maxDepth >= 0, !overTextLimit(root) else { return false }
        var count = 1
        // The lists are read unretained (`Layer.unretainedSublayers`: the caller holds `root`, each list holds its
        // layers, and nothing here changes the tree).
        var pending: [(UnretainedLayers, depth: Int)] = []
        let rootSublayers = Layer.unretainedSublayers(of: .passUnretained(root))
        if rootSublayers.count > 0 { pending.append((rootSublayers, 1)) }
        while let (list, depth) = pending.popLast() {
            count += list.count
            guard count <= maxLayers, depth <= maxDepth else { return false }
            for i in 0..<list.count {
                let layer = list[i]
                guard !layer._withUnsafeGuaranteedRef({ overTextLimit($0) }) else { return false }
                let sublayers = Layer.unretainedSublayers(of: layer)
                if sublayers.count > 0 { pending.append((sublayers, depth + 1)) }
            }
        }
        return true
    }

    /// Whether `layer` is a text layer whose string is over `maxTextBytes`.
    @inline(__always)
    private func overTextLimit(_ layer: Layer) -> Bool {
        // (`Face` is final and no text layer: most layers of a solid-heavy tree are compared by their exact type,
        // without the runtime's cast.)
        if type(of: layer) != Face.self, let text = layer as? TextLayer, text.string.utf8.count > maxTextBytes { return true }
        return false
    }

    /// The same checks on a presentation tree: its rendered nodes.
    public func check(_ tree: PresentationTree) throws(RenderError) {
        var count = 0
        for (i, rendered) in tree.renderedNodes.enumerated() where rendered {
            count += 1
            guard count <= maxLayers else { throw .limitExceeded(limit: .maxLayers, value: count, maximum: maxLayers) }
            let level = tree.level(of: i)
            guard level <= maxDepth else { throw .limitExceeded(limit: .maxDepth, value: level, maximum: maxDepth) }
            if tree.kind(of: i) == .text, let text = tree.text(of: i), text.string.utf8.count > maxTextBytes {
                throw .limitExceeded(limit: .maxTextBytes, value: text.string.utf8.count, maximum: maxTextBytes)
            }
        }
    }

    /// Checks an image's declared dimensions (from its header, before decoding).
    public func checkImage(width: Int, height: Int) throws(RenderError) {
        let side = max(width, height)
        guard side <= maxImageSide else { throw .limitExceeded(limit: .maxImageSide, value: side, maximum: maxImageSide) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxImagePixels else {
            throw .limitExceeded(limit: .maxImagePixels, value: overflow ? .max : pixels, maximum: maxImagePixels)
        }
    }

    static func clampedInt(_ v: Double) -> Int { v.isFinite && v < 9e18 ? Int(v) : .max }
}
