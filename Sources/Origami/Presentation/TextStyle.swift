/// What a `TextLayer` draws, frozen at snapshot time. Corresponds to the drawing properties of `CATextLayer`.
public struct TextStyle: Hashable, Sendable {
    public let string: String
    public let fontFamily: String
    public let fontSize: Double
    public let isBold: Bool
    public let isItalic: Bool
    public let foregroundColor: Color
    public let alignment: TextLayer.Alignment
    public let isVerticallyCentered: Bool

    init(_ t: TextLayer) {
        string = t.string; fontFamily = t.fontFamily; fontSize = t.fontSize; isBold = t.fontWeight == .bold
        isItalic = t.isItalic; foregroundColor = t.foregroundColor; alignment = t.alignment
        isVerticallyCentered = t.isVerticallyCentered
    }
}
