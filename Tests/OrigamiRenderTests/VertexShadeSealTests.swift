import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// Every face gets the same shade, whatever its transforms.
private struct UniformShader: FaceShader {
    let shade: FaceShade
    func shade(_ transforms: FaceTransforms, bounds: CGRect) -> FaceShade? { shade }
}

@Suite("Gouraud shading")
struct VertexShadeSealTests {
    /// The book's cube in white with a uniform grey 0.5 Gouraud multiply, on black: every pixel is 0.5·coverage
    /// at most. Along the shared edges the face painted first reaches under the later one (the seal): that
    /// extension is shaded too, so a seam pixel is 0.5·α + 0.5·(1 − α). An unshaded extension would show as white
    /// above 0.5 there (the unshaded fringe the old half-pixel seal left reached 0.76).
    @Test func sealedFringeIsShadedToo() throws {
        let grey = Color(white: 0.5)
        let cube = try HandCube.make(inSolid: true, isDoubleSided: false,
                                     lighting: UniformShader(shade: FaceShade(vertexMultiply: [grey, grey, grey, grey])))
        for face in cube.faces { face.backgroundColor = .white }
        let image = try Renderer.render(cube.container, size: CGSize(width: 600, height: 600),
                                        options: RenderOptions(background: .black))
        var brightest = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                if let c = image.pixel(x: x, y: y) { brightest = max(brightest, c.red, c.green, c.blue) }
            }
        }
        // Interior pixels are exactly 0.5, and a partly covered edge pixel (coverage a) is 0.5a: a plain colour
        // face is filled with the shaded mesh itself. (Shading by MULTIPLY over the drawn face, masked by its
        // coverage, gave 1.5a − a² through the cross terms: up to 0.5625. The unshaded fringe the seal once
        // left reached 0.76.)
        #expect(brightest <= 0.5 + 2.0 / 255, "brightest pixel \(brightest)")
        #expect(brightest >= 0.5 - 3.0 / 255)
    }

    /// The face centre on the canvas, from the hand-written matrices of `LayerDrawingTests`.
    static var centre: (x: Int, y: Int) {
        let c = LayerDrawingTests.faceMap.project(100, 100)
        return (Int(c.x), Int(c.y))
    }

    @Test("corner multiply, then add, then overlay, as the interior shows them",
          arguments: [
            // (multiply, add, overlay, expected red/green/blue at the centre): a white face;
            // 0.5 multiply → 0.5; + 0.25 → 0.75; 0.5 red overlay over 0.5 → (0.75, 0.25, 0.25);
            // all three: 0.5 + 0.25 = 0.75, then the overlay → (0.875, 0.375, 0.375).
            (0.5, nil, false, [0.5, 0.5, 0.5]),
            (0.5, 0.25, false, [0.75, 0.75, 0.75]),
            (0.5, nil, true, [0.75, 0.25, 0.25]),
            (0.5, 0.25, true, [0.875, 0.375, 0.375]),
          ] as [(Double, Double?, Bool, [Double])])
    func shadeTerms(multiply: Double, add: Double?, overlay: Bool, expected: [Double]) throws {
        let (container, face) = LayerDrawingTests.tiltedFace()
        face.backgroundColor = .white
        container.backgroundColor = .black
        let shade = FaceShade(vertexMultiply: Array(repeating: Color(white: multiply), count: 4),
                              vertexAdd: add.map { Array(repeating: Color(white: $0), count: 4) },
                              overlay: overlay ? Color(red: 1, green: 0, blue: 0, alpha: 0.5) : nil)
        container.lighting = UniformShader(shade: shade)
        try container.addSublayer(face)
        let image = try Renderer.render(container, size: CGSize(width: 400, height: 400))
        let c = try #require(image.pixel(x: Self.centre.x, y: Self.centre.y))
        for (got, want) in zip([c.red, c.green, c.blue], expected) {
            expectApprox(got, want, tolerance: 2.0 / 255)
        }
    }

    @Test("corner shades blend in the face's plane, not on the screen", arguments: [0.5, 0.375, 0.8125])
    func perspectiveCorrect(u: Double) throws {
        let (container, face) = LayerDrawingTests.tiltedFace()
        face.backgroundColor = .white
        container.backgroundColor = .black
        // Left corners (minX) 0.2, right corners 1: at a fraction u across the face the shade is 0.2 + 0.8u.
        let dark = Color(white: 0.2)
        container.lighting = UniformShader(shade: FaceShade(vertexMultiply: [dark, .white, .white, dark]))
        try container.addSublayer(face)
        let image = try Renderer.render(container, size: CGSize(width: 400, height: 400))
        // Where u lands on screen, from the hand-written matrices. Turned 40° about y under m34 = −1/500, the
        // face's centre sits at 0.436 of the way across its projection, so blending on the screen would give
        // 0.549 there instead of 0.6.
        let p = LayerDrawingTests.faceMap.project(200 * u, 100)
        let c = try #require(image.pixel(x: Int(p.x), y: Int(p.y)))
        expectApprox(c.red, 0.2 + 0.8 * u, tolerance: 2.0 / 255, "at u = \(u)")
    }

    @Test("a face with a sublayer is shaded the same inside as a plain one (the grouped path)")
    func groupedPathInterior() throws {
        let (container, face) = LayerDrawingTests.tiltedFace()
        face.backgroundColor = .white
        container.backgroundColor = .black
        // A small sublayer in a corner sends the face down the grouped path; its centre stays plain white.
        let dot = Layer(frame: CGRect(x: 10, y: 10, width: 10, height: 10))
        dot.backgroundColor = .white
        try face.addSublayer(dot)
        container.lighting = UniformShader(shade: FaceShade(vertexMultiply: Array(repeating: Color(white: 0.5), count: 4)))
        try container.addSublayer(face)
        let image = try Renderer.render(container, size: CGSize(width: 400, height: 400))
        let c = try #require(image.pixel(x: Self.centre.x, y: Self.centre.y))
        expectApprox(c.red, 0.5, tolerance: 2.0 / 255)
        expectApprox(c.green, 0.5, tolerance: 2.0 / 255)
    }
}
