/// A layer that draws a string. Corresponds to `CATextLayer`, with the properties a face label needs.
/// Glyphs are drawn as outlines in the layer's own space, so they stay exact under perspective.
open class TextLayer: Layer {
    public enum Alignment: String, Sendable, CaseIterable { case left, center, right }
    public enum Weight: String, Sendable, CaseIterable { case regular, bold }

    public var string: String = ""
    /// A font family fontconfig knows ("DejaVu Sans" is on every Debian machine with Cairo).
    public var fontFamily: String = "DejaVu Sans"
    public var fontSize: Double = 36
    public var fontWeight: Weight = .regular
    public var isItalic = false
    public var foregroundColor: Color = .white
    public var alignment: Alignment = .left
    /// Centre the text block vertically in the bounds (Core Animation draws from the top; labels on faces
    /// usually want the middle).
    public var isVerticallyCentered = false
}
