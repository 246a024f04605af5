import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

@Suite("Silhouettes")
struct SilhouetteTests {
    /// The book's cube with double-sided faces: the hidden faces 4, 5, 6 are drawn first and covered. Their
    /// colour (yellow here) must not show around the silhouette: edge sealing dilates only faces turned toward
    /// the viewer. A pixel counts as yellow fringe when red and green are high and blue is low (a yellow face
    /// covering more than 40 % of it over the white canvas); blends of the visible red, green and blue faces
    /// with each other or with white never pass that test.
    @Test func hiddenFacesDoNotFringeTheSilhouette() throws {
        let cube = try HandCube.make(inSolid: true, isDoubleSided: true)
        for face in cube.faces[3...] {
            face.backgroundColor = .yellow
        }
        let image = try Renderer.render(cube.container, size: CGSize(width: 600, height: 600), options: RenderOptions(background: .white))
        var fringe = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                guard let c = image.pixel(x: x, y: y) else { continue }
                if c.red > 0.75, c.green > 0.75, c.blue < 0.6 { fringe += 1 }
            }
        }
        #expect(fringe == 0, "\(fringe) yellow fringe pixels")
    }
}
