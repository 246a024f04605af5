/// What a `TextLayer` draws, frozen at snapshot time. Corresponds to the drawing properties of `CATextLayer`.
public struct TextStyle: Hashable, Sendable {
    /// `TextLayer.string`.
    public let string: String
    /// `TextLayer.fontFamily`.
    public let fontFamily: String
    /// `TextLayer.fontSize`, in points.
    public let fontSize: Double
    /// `TextLayer.fontWeight` is `.bold`.
    public let isBold: Bool
    /// `TextLayer.isItalic`.
    public let isItalic: Bool
    /// `TextLayer.foregroundColor`.
    public let foregroundColor: Color
    /// `TextLayer.alignment`.
    public let alignment: TextLayer.Alignment
    /// `TextLayer.isVerticallyCentered`.
    public let isVerticallyCentered: Bool

    init(_ t: TextLayer) {
        string = t.string; fontFamily = t.fontFamily; fontSize = t.fontSize; isBold = t.fontWeight == .bold
        isItalic = t.isItalic; foregroundColor = t.foregroundColor; alignment = t.alignment
        isVerticallyCentered = t.isVerticallyCentered
    }
}
