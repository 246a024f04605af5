import Foundation
import Origami

extension HitMap {
    /// The legend beside the map: one row per layer touched, under a title and above the hatch's row.
    static let legendRow = 22.0, legendPadding = 12.0, legendWidth = 300.0

    /// The most rows the legend lists; past that the smallest shares fold into one "… N more layers" row, so
    /// a scene of thousands of layers still gets a legend of a readable, bounded size.
    public static let legendMaxEntries = 40

    /// The size (pixels) of `legendImage()`'s picture for a `mapWidth`×`mapHeight` map listing `entries` layers
    /// (folded to `legendMaxEntries` rows).
    public static func legendSize(mapWidth: Int, mapHeight: Int, entries: Int) -> CGSize {
        CGSize(width: Double(mapWidth) + legendWidth,
               height: max(Double(mapHeight), legendPadding * 2 + legendRow * Double(min(entries, legendMaxEntries) + 3)))
    }

    /// Checks, before a single pixel is hit-tested, that the map of `tree` on a `size`-point canvas at `scale`
    /// and its legend will fit `limits`. The legend's height is bounded (`legendMaxEntries`), so only the map's
    /// size and the legend's width beside it can exceed them.
    public static func checkLimits(tree: PresentationTree, size: CGSize, scale: Double,
                                   limits: RenderLimits = .default) throws {
        let map = try limits.pixelSize(size, scale: scale, supersample: 1)
        let legend = legendSize(mapWidth: map.width, mapHeight: map.height, entries: legendMaxEntries)
        // The legend's own size, at the 1 pixel per point it is drawn at.
        _ = try limits.pixelSize(legend, scale: 1, supersample: 1)
    }
}
