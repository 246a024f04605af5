/// The limits `RenderError.limitExceeded` names: each a field of `RenderLimits`, with how a message says what
/// went over it and what to change.
public enum RenderLimit: String, Hashable, Sendable, CaseIterable {
    /// `RenderLimits.maxCanvasSide`: pixels along a side of the drawing surface.
    case maxCanvasSide
    /// `RenderLimits.maxCanvasPixels`: pixels of the drawing surface.
    case maxCanvasPixels
    /// `RenderLimits.maxLayers`: layers in one snapshot.
    case maxLayers
    /// `RenderLimits.maxDepth`: levels of nested sublayers.
    case maxDepth
    /// `RenderLimits.maxTextBytes`: UTF-8 bytes of one text layer's string.
    case maxTextBytes
    /// `RenderLimits.maxImageSide`: pixels along a side of a decoded image.
    case maxImageSide
    /// `RenderLimits.maxImagePixels`: pixels of a decoded image.
    case maxImagePixels
    /// `RenderLimits.maxImageBytes`: bytes of an image file.
    case maxImageBytes

    /// What exceeded the limit, as the start of a sentence.
    func phrase(_ value: Int) -> String {
        switch self {
        case .maxCanvasSide: return "cannot render: the drawing surface would be \(value) pixels on a side (after scale and supersampling)"
        case .maxCanvasPixels: return "cannot render: the drawing surface would have \(value) pixels (after scale and supersampling)"
        case .maxLayers: return "cannot render: the tree has at least \(value) layers"
        case .maxDepth: return "cannot render: the tree has sublayers nested \(value) levels deep"
        case .maxTextBytes: return "cannot render: a text layer's string has \(value) bytes"
        case .maxImageSide: return "cannot decode: the image is \(value) pixels on a side"
        case .maxImagePixels: return "cannot decode: the image has \(value) pixels"
        case .maxImageBytes: return "cannot decode: the image file has \(value) bytes"
        }
    }

    /// What a user of the command line or a scene file can change to stay within the limit.
    var remedy: String {
        switch self {
        case .maxCanvasSide, .maxCanvasPixels: return "lower --scale or --supersample, or the scene's canvas `size`"
        case .maxLayers: return "the scene needs fewer `layers` and `sublayers`"
        case .maxDepth: return "nest the scene's `sublayers` less deeply"
        case .maxTextBytes: return "shorten the text layer's `string`"
        case .maxImagePixels: return "give `contents` a smaller image, or raise the limit with --max-image-pixels"
        case .maxImageSide, .maxImageBytes: return "give `contents` a smaller image"
        }
    }
}
