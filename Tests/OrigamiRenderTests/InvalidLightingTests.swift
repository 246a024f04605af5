import Foundation
import Origami
import OrigamiRender
import Testing

@Suite("Invalid lighting is refused, not rendered unlit")
struct InvalidLightingTests {
    @Test("an ambient of 2 (outside 0…1) makes the render throw, naming the layer and the reason")
    func refused() throws {
        let container = Layer(name: "container", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let face = Layer(frame: CGRect(x: 10, y: 10, width: 50, height: 50))
        face.backgroundColor = .red
        try container.addSublayer(face)
        var lighting = Lighting.book
        lighting.ambient = 2
        container.lighting = lighting
        do {
            _ = try Renderer.render(container, size: CGSize(width: 100, height: 100))
            Issue.record("the render succeeded")
        } catch {
            #expect(error == .invalidLighting(layer: "layer \"container\"", reason: .invalidAmbient(2)))
            #expect(error.description == "cannot render: the lighting of layer \"container\" is invalid: ambient must be a number in 0...1, got 2.0")
        }
        container.lighting = Lighting.book
        let image = try Renderer.render(container, size: CGSize(width: 100, height: 100))
        #expect(image.pixel(x: 30, y: 30) != nil)
    }
}
