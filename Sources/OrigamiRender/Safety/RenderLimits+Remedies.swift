extension RenderLimits {
    /// What a person can change to stay within `limit`, in the terms of the command line and the scene file (the
    /// Swift field is no use to someone running `origami`); `nil` for a limit this does not know.
    static func remedy(_ limit: String) -> String? {
        switch limit {
        case "maxCanvasSide", "maxCanvasPixels": return "lower --scale or --supersample, or the scene's canvas `size`"
        case "maxLayers": return "the scene needs fewer `layers` and `sublayers`"
        case "maxDepth": return "nest the scene's `sublayers` less deeply"
        case "maxTextBytes": return "shorten the text layer's `string`"
        case "maxImageSide", "maxImagePixels", "maxImageBytes": return "give `contents` a smaller image"
        case "hitMapLegendRows": return "hit-map a smaller part of the scene, or ask `origami hit` at single points"
        default: return nil
        }
    }
}
