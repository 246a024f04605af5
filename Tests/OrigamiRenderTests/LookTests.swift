import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// Renders a few scenes into /tmp/render-look/ for a person to look at (and checks they were written).
@Suite("Renders to look at")
struct LookTests {
    @Test("write the cube, the flattening pair and a lit cube")
    func writeLooks() throws {
        let cube = try Renderer.render(try HandCube.make(inSolid: true).container, size: CGSize(width: 600, height: 600),
                                       options: RenderOptions(background: .white))
        try Probe.save(cube, "cube.png")
        for tl in [false, true] {
            let pair = try Renderer.render(try CompositingTests.flatteningPair(transformLayerOuter: tl),
                                           size: CGSize(width: 400, height: 400), options: RenderOptions(background: .gray))
            try Probe.save(pair, tl ? "flattening-transformlayer.png" : "flattening-ordinary.png")
        }
        let lit = try HandCube.make(inSolid: true, isDoubleSided: false,
                                    lighting: TestShader(target: FaceShadeTests.front, shade: FaceShade(overlay: Color(white: 0, alpha: 0.5))))
            .container
        let litImage = try Renderer.render(lit, size: CGSize(width: 600, height: 600), options: RenderOptions(scale: 2, background: .white))
        try Probe.save(litImage, "cube-lit-front-scale2.png")
        let (container, face) = LayerDrawingTests.tiltedFace()
        face.contents = LayerDrawingTests.testImage()
        face.borderWidth = 4
        face.borderColor = .black
        face.cornerRadius = 16
        face.masksToBounds = true
        let label = TextLayer()
        label.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        label.string = "Origami\nfaces"
        label.fontSize = 36
        label.fontWeight = .bold
        label.foregroundColor = .white
        label.alignment = .center
        label.isVerticallyCentered = true
        try face.addSublayer(label)
        try container.addSublayer(face)
        let labelled = try Renderer.render(container, size: CGSize(width: 400, height: 400), options: RenderOptions(scale: 2))
        try Probe.save(labelled, "text-and-image-face.png")
        let url = Probe.lookFolder.appendingPathComponent("cube.svg")
        try cube.write(to: url)
        #expect(FileManager.default.fileExists(atPath: url.path))
    }
}
