import Foundation
import Origami
import OrigamiRender
import Testing

/// Every face gets the same shade, whatever its transforms.
private struct UniformShader: FaceShader {
    let shade: FaceShade
    func shade(_ transforms: FaceTransforms, bounds: CGRect) -> FaceShade? { shade }
}

@Suite("Gouraud shading on sealed faces")
struct VertexShadeSealTests {
    /// A white face tilted in 3D (so its edges are sealed by half a pixel) with a uniform grey 0.5 Gouraud
    /// multiply, on black: every pixel is 0.5·coverage at most. The unshaded fringe the seal used to leave
    /// showed as white edge pixels well above 0.5.
    @Test func sealedFringeIsShadedToo() throws {
        let (container, face) = LayerDrawingTests.tiltedFace()
        face.backgroundColor = .white
        container.backgroundColor = .black
        let grey = Color(white: 0.5)
        container.lighting = UniformShader(shade: FaceShade(vertexMultiply: [grey, grey, grey, grey]))
        try container.addSublayer(face)
        let image = try Renderer.render(container, size: CGSize(width: 400, height: 400))
        var brightest = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                if let c = image.pixel(x: x, y: y) { brightest = max(brightest, c.red, c.green, c.blue) }
            }
        }
        // Interior pixels are exactly 0.5. On a partly covered edge pixel (coverage a) Cairo's MULTIPLY, masked
        // by the drawing, gives 1.5a − a² instead of 0.5a (its cross terms): at most 0.5625 at a = 0.75, the
        // documented edge approximation. The unshaded fringe this guards against reached 0.76.
        #expect(brightest <= 0.5625 + 2.0 / 255, "brightest pixel \(brightest)")
        #expect(brightest >= 0.5 - 3.0 / 255)
    }
}
