import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

@Suite("Silhouettes")
struct SilhouetteTests {
    /// The book's cube with double-sided faces: the hidden faces 4, 5, 6 are drawn first and covered. Their
    /// colour (yellow here) may show along the silhouette only as antialiasing allows: an edge pixel a hidden face
    /// covers by α is covered by α by the visible face whose edge runs along the same line, painted over it, so the
    /// hidden face keeps α(1 − α) ≤ 1/4 of it — never more (a hidden face sealed or pushed past the silhouette
    /// would). Over the white canvas, with visible faces red, green and blue, a pixel mixing yellow y, white w and
    /// a visible face f has min(red, green) − blue = y − f·(the face's blue) ≤ y, and = y beside red and green faces.
    @Test func hiddenFacesDoNotFringeTheSilhouette() throws {
        let cube = try HandCube.make(inSolid: true, isDoubleSided: true)
        for face in cube.faces[3...] {
            face.backgroundColor = .yellow
        }
        let image = try Renderer.render(cube.container, size: CGSize(width: 600, height: 600), options: RenderOptions(background: .white))
        var worst = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                guard let c = image.pixel(x: x, y: y) else { continue }
                worst = max(worst, min(c.red, c.green) - c.blue)
            }
        }
        #expect(worst <= 0.25 + 2.0 / 255, "a hidden face shows \(worst) of a pixel")
    }
}
