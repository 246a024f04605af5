import Foundation
import Origami
import Testing
import TestSupport

/// Lighting data at a time: the report reads the presentation at that time, so normals follow turning faces and
/// an animated lighting reports its animated values.
@Suite("Time: lighting data at a time")
struct TimeLightingTests {
    static func turningCube(lighting: Lighting) throws -> BookCube {
        let cube = try BookCube(inSolid: true, faceColors: [.white], lighting: lighting)
        let turn = BasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = 0; turn.toValue = .number(.pi); turn.duration = 2
        try #require(cube.solid).add(turn, forKey: "turn")
        return cube
    }

    /// At t = 1 the cube has turned 90° about y: Ry(90°) takes a direction (x, y, z) to (z, y, −x), so face 1's
    /// outward normal (0, 0, 1) becomes (1, 0, 0) in the container's scene space, while relative to its solid
    /// (object space) it stays (0, 0, 1).
    @Test("normals follow the turning faces in scene space and stay put in object space")
    func normalsFollowTheTurn() throws {
        let light = Lighting(lights: [.directional(Vector3(0, 0, -1), space: .scene)], model: .lambert, ambient: 0.2)
        let cube = try Self.turningCube(lighting: light)
        let model = try cube.container.lightingReport()
        let turned = try cube.container.lightingReport(time: 1)
        #expect(model.count == 6 && turned.count == 6)
        let before = try #require(model.first { $0.layerName == "face 1" })
        let after = try #require(turned.first { $0.layerName == "face 1" })
        func near(_ a: [Double]?, _ b: [Double]) -> Bool {
            guard let a else { return false }
            return zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }
        }
        #expect(near(before.sceneNormal, [0, 0, 1]) && near(after.sceneNormal, [1, 0, 0]))
        #expect(near(before.objectNormal, [0, 0, 1]) && near(after.objectNormal, [0, 0, 1]))
        // Lambert against a light travelling along −z: brightness a + (1 − a)·max(0, −L·N) = 1 facing it, 0.2 side-on.
        #expect(near(before.brightness, [1, 1, 1]) && near(after.brightness, [0.2, 0.2, 0.2]))
        // The Lighting-level report at a time uses the lighting it is called on with the layers at that time.
        #expect(try light.lightingReport(for: cube.container, time: 1).map(\.brightness) == turned.map(\.brightness))
    }

    @Test("an animated lighting reports its value at the time")
    func animatedLighting() throws {
        let light = Lighting(lights: [.directional(Vector3(0, 0, -1), space: .scene)], model: .lambert, ambient: 0)
        let cube = try BookCube(inSolid: true, faceColors: [.white], lighting: light)
        let up = BasicAnimation(keyPath: "lighting.ambient")
        up.fromValue = 0; up.toValue = 1; up.duration = 1
        cube.container.add(up, forKey: "ambient")
        // Face 2's scene normal (1, 0, 0) is side-on to the light: brightness = ambient = 0.25 at t = 0.25.
        let face2 = try #require(try cube.container.lightingReport(time: 0.25).first { $0.layerName == "face 2" })
        #expect(face2.brightness.allSatisfy { abs($0 - 0.25) < 1e-12 })
        let still = try #require(try cube.container.lightingReport().first { $0.layerName == "face 2" })
        #expect(still.brightness.allSatisfy { abs($0) < 1e-12 })
    }
}
