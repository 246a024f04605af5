import Foundation
import Origami

extension HitMap {
    /// The legend beside the map: one row per layer touched, under a title and above the hatch's row.
    static let legendRow = 22.0, legendPadding = 12.0, legendWidth = 300.0

    /// The size (pixels) of `legendImage()`'s picture for a `mapWidth`×`mapHeight` map listing `entries` layers.
    static func legendSize(mapWidth: Int, mapHeight: Int, entries: Int) -> CGSize {
        CGSize(width: Double(mapWidth) + legendWidth,
               height: max(Double(mapHeight), legendPadding * 2 + legendRow * Double(entries + 3)))
    }

    /// Checks, before a single pixel is hit-tested, that the map of `tree` on a `size`-point canvas at `scale`
    /// and its legend will fit `limits`. The legend lists each layer that takes a touch somewhere; that is not
    /// known before the pass, so every layer that could (any shown layer but a transform layer, which is never
    /// returned) counts. A scene of 1 000 layers used to fail only after five seconds of hit testing.
    public static func checkLimits(tree: PresentationTree, size: CGSize, scale: Double,
                                   limits: RenderLimits = .default) throws {
        let map = try limits.pixelSize(size, scale: scale, supersample: 1)
        var layers = 0
        var shown = [Bool](repeating: false, count: tree.count)
        for i in 0..<tree.count {
            let parent = tree[i].parent
            shown[i] = !tree[i].isHidden && (parent < 0 || shown[parent])
            if shown[i] && tree[i].kind != .transformLayer { layers += 1 }
        }
        let legend = legendSize(mapWidth: map.width, mapHeight: map.height, entries: layers)
        guard legend.height <= Double(limits.maxCanvasSide) else {
            let rows = Int((Double(limits.maxCanvasSide) - 2 * legendPadding) / legendRow) - 3
            throw RenderError.limitExceeded(limit: .hitMapLegendRows, value: layers, maximum: rows)
        }
        // The legend's own size, at the 1 pixel per point it is drawn at.
        _ = try limits.pixelSize(legend, scale: 1, supersample: 1)
    }
}
