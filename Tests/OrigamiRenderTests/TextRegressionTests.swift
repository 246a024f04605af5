import Foundation
import Origami
import OrigamiRender
import Testing

@Suite("Text regressions")
struct TextRegressionTests {
    /// Cairo 1.16 drops glyph outlines from `cairo_text_path` on a small target surface; a long line must be
    /// drawn whole. DejaVu Sans at 12 pt advances about 7.6 points per digit (1233/2048 em), so 40 digits end
    /// near x = 10 + 40·7.2 ≈ 300: the last quarter of the line, x 230…290, must have ink.
    @Test func longLineIsDrawnToItsEnd() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 320, height: 30))
        root.backgroundColor = .white
        let text = TextLayer()
        text.frame = CGRect(x: 10, y: 5, width: 300, height: 20)
        text.string = String(repeating: "8", count: 40)
        text.fontSize = 12
        text.foregroundColor = .black
        try root.addSublayer(text)
        let image = try Renderer.render(root, size: CGSize(width: 320, height: 30))
        var ink = 0
        for x in 230..<290 {
            for y in 5..<25 {
                if let c = image.pixel(x: x, y: y), c.red < 0.5 { ink += 1 }
            }
        }
        #expect(ink > 50, "the end of the line has \(ink) dark pixels")
    }
}
