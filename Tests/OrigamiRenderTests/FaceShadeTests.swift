import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// Shades the member whose object transform puts its centre at `target` (the book's face translations).
struct TestShader: FaceShader {
    let target: Vector3
    let shade: FaceShade

    func shade(_ transforms: FaceTransforms, bounds: CGRect) -> FaceShade? {
        let t = transforms.object
        // The face centre (100, 100, 0) in its own bounds, carried by the object transform.
        guard let c = t.apply(Vector3(100, 100, 0)) else { return nil }
        return c.isApproximatelyEqual(to: target, absoluteTolerance: 1e-6) ? shade : nil
    }
}

@Suite("Face shading (FaceShade)")
struct FaceShadeTests {
    static let size = CGSize(width: 600, height: 600)

    /// The object transform of a face is T(−100,−100)·F·T(200,200) inside the 400×400 solid whose sublayer
    /// space is the identity, so the front face's centre lands at (200, 200, 100).
    static let front = Vector3(200, 200, 100)

    @Test("a black overlay of alpha 0.5 darkens exactly that face by half")
    func overlay() throws {
        let shader = TestShader(target: Self.front, shade: FaceShade(overlay: Color(white: 0, alpha: 0.5)))
        let cube = try HandCube.make(inSolid: true, lighting: shader).container
        let image = try Renderer.render(cube, size: Self.size)
        let f = HandCube.center(face: 0), r = HandCube.center(face: 1), t = HandCube.center(face: 2)
        Probe.expect(image, f.x, f.y, Color(red: 0.5, green: 0, blue: 0), "front darkened by half")
        Probe.expect(image, r.x, r.y, .green, "right unchanged")
        Probe.expect(image, t.x, t.y, .blue, "top unchanged")
        // Everywhere on the front face (away from its edges) is halved.
        let quad = HandCube.corners(face: 0)
        for (u, v) in [(30.0, 30.0), (170, 40), (100, 170)] {
            let p = HandCube.handMap(face: 0).project(u, v)
            #expect(Probe.inside(p, quad))
            Probe.expect(image, p.x, p.y, Color(red: 0.5, green: 0, blue: 0), "front (\(u), \(v))")
        }
    }

    @Test("multiply scales the colour channels, add adds to them")
    func multiplyAndAdd() throws {
        let shader = TestShader(target: Self.front,
                                shade: FaceShade(multiply: Color(red: 0.5, green: 1, blue: 1), add: Color(red: 0, green: 0.25, blue: 0)))
        let image = try Renderer.render(try HandCube.make(inSolid: true, lighting: shader).container, size: Self.size)
        let f = HandCube.center(face: 0)
        // Red (1, 0, 0) × (0.5, 1, 1) = (0.5, 0, 0), then + (0, 0.25, 0) = (0.5, 0.25, 0).
        Probe.expect(image, f.x, f.y, Color(red: 0.5, green: 0.25, blue: 0), "front multiplied then added")
    }

    /// A flat 200×100 white plane in a lit container: vertex multiply with red at the top corners and blue at
    /// the bottom ones. Without perspective the Gouraud interpolation is bilinear: the middle row is
    /// (0.5, 0, 0.5), a quarter of the way down (0.75, 0, 0.25).
    @Test("vertex multiply is a Gouraud gradient across the plane")
    func vertexMultiply() throws {
        let container = Layer(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        struct Flat: FaceShader {
            func shade(_ transforms: FaceTransforms, bounds: CGRect) -> FaceShade? {
                FaceShade(vertexMultiply: [.red, .red, .blue, .blue])
            }
        }
        container.lighting = Flat()
        let plane = Layer(frame: CGRect(x: 0, y: 0, width: 200, height: 100)); plane.backgroundColor = .white
        try container.addSublayer(plane)
        let image = try Renderer.render(container, size: CGSize(width: 200, height: 100))
        Probe.expect(image, 100, 50, Color(red: 0.5, green: 0, blue: 0.5), tolerance: 0.03, "middle")
        Probe.expect(image, 100, 25, Color(red: 0.75, green: 0, blue: 0.25), tolerance: 0.03, "a quarter down")
    }

    @Test("vertex add brightens a black plane towards the corner colours")
    func vertexAdd() throws {
        let container = Layer(frame: CGRect(x: 0, y: 0, width: 200, height: 100))
        struct Flat: FaceShader {
            func shade(_ transforms: FaceTransforms, bounds: CGRect) -> FaceShade? {
                FaceShade(vertexAdd: [.white, .black, .black, .white])
            }
        }
        container.lighting = Flat()
        let plane = Layer(frame: CGRect(x: 0, y: 0, width: 200, height: 100)); plane.backgroundColor = .black
        try container.addSublayer(plane)
        let image = try Renderer.render(container, size: CGSize(width: 200, height: 100))
        // Left corners white, right black: x = 50 of 200 is a quarter across → 0.75 grey.
        Probe.expect(image, 50, 50, Color(white: 0.75), tolerance: 0.03, "a quarter across")
    }

    @Test("lighting never changes the layers")
    func lightingLeavesLayersAlone() throws {
        let shader = TestShader(target: Self.front, shade: FaceShade(overlay: .black))
        let cube = try HandCube.make(inSolid: true, lighting: shader).container
        let before = cube.subtree.map { ($0.backgroundColor, $0.opacity, $0.transform) }
        _ = try Renderer.render(cube, size: Self.size)
        let after = cube.subtree.map { ($0.backgroundColor, $0.opacity, $0.transform) }
        #expect(before.count == after.count)
        for (a, b) in zip(before, after) { #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2) }
    }
}
