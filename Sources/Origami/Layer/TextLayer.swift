/// A layer that draws a string. Corresponds to `CATextLayer`, with the properties a face label needs.
/// Glyphs are drawn as outlines in the layer's own space, so they stay exact under perspective.
open class TextLayer: Layer {
    /// Horizontal alignment of each line in the bounds. Corresponds to `CATextLayerAlignmentMode` (`left`, `center`,
    /// `right`).
    public enum Alignment: String, Sendable, CaseIterable {
        /// Each line starts at the bounds' left edge.
        case left
        /// Each line is centred between the bounds' edges.
        case center
        /// Each line ends at the bounds' right edge.
        case right
    }
    /// The font's weight: regular or bold.
    public enum Weight: String, Sendable, CaseIterable {
        /// The family's regular weight.
        case regular
        /// The family's bold weight.
        case bold
    }

    /// The text drawn, one line per `\n` (no wrapping). Default empty. Corresponds to `CATextLayer.string`.
    public var string: String = ""
    /// A font family fontconfig knows ("DejaVu Sans" is on every Debian machine with Cairo).
    public var fontFamily: String = "DejaVu Sans"
    /// The font size in points; default 36, as `CATextLayer.fontSize`.
    public var fontSize: Double = 36
    /// The font's weight; default regular.
    public var fontWeight: Weight = .regular
    /// Draws the font's italic (or oblique) style; default false.
    public var isItalic = false
    /// The text colour; default white, as `CATextLayer.foregroundColor`.
    public var foregroundColor: Color = .white
    /// How each line sits between the bounds' left and right edges; default left (Core Animation's natural
    /// alignment for left-to-right text).
    public var alignment: Alignment = .left
    /// Centre the text block vertically in the bounds (Core Animation draws from the top; labels on faces
    /// usually want the middle).
    public var isVerticallyCentered = false
}
