import Foundation
import Origami
import Testing
import TestSupport

/// Light spaces (DESIGN §4): `object` turns with the solid, `scene` stays put while the camera (the context's
/// sublayerTransform) moves, `view` moves with the camera.
@Suite("Lighting: spaces")
struct LightingSpaceTests {
    static let direction = Vector3(0.3, 0.8, -0.5)

    /// Per face: brightness (one-sided, so that which side is seen does not enter) and the raw L·N.
    func brightness(_ container: Layer, space: Light.Space) throws -> [Double] {
        let lighting = Lighting(lights: [.directional(Self.direction, space: space)], model: .lambert, ambient: 0.1,
                                twoSided: false)
        return try lighting.lightingReport(for: container).flatMap { [$0.unclampedBrightness[0], $0.lights[0].lDotN] }
    }

    func same(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-12) }
    }

    @Test("moving the camera changes view lighting, not scene or object lighting")
    func camera() throws {
        let cube = try Solid.cube(size: 200)
        let container = try BookCube.container(holding: cube)
        let before = try Light.Space.allCases.map { try brightness(container, space: $0) }
        var camera = Transform3D.perspective(distance: 800)
        camera = CATransform3DRotate(camera, 0.6, 0, 1, 0)
        container.sublayerTransform = camera
        let after = try Light.Space.allCases.map { try brightness(container, space: $0) }
        #expect(same(before[0], after[0]), "object")
        #expect(same(before[1], after[1]), "scene")
        #expect(!same(before[2], after[2]), "view")
    }

    @Test("turning the solid changes scene and view lighting, not object lighting")
    func turnSolid() throws {
        let cube = try Solid.cube(size: 200)
        let container = try BookCube.container(holding: cube)
        let before = try Light.Space.allCases.map { try brightness(container, space: $0) }
        cube.transform = CATransform3DMakeRotation(0.9, 0, 1, 0)
        let after = try Light.Space.allCases.map { try brightness(container, space: $0) }
        #expect(same(before[0], after[0]), "object")
        #expect(!same(before[1], after[1]), "scene")
        #expect(!same(before[2], after[2]), "view")
    }

    @Test("two-sided lighting follows the camera: a face turned away is lit on its other side")
    func twoSidedFollowsCamera() throws {
        let cube = try Solid.cube(size: 200)
        let container = try BookCube.container(holding: cube, camera: .identity)
        let lighting = Lighting(lights: [.directional(Vector3(1, 0, 0), space: .scene)], model: .lambert, ambient: 0)
        // The left face's normal (−1,0,0) meets a light travelling +x head on: −L·N = 1. Unturned, the left
        // face is edge-on (view normal z = 0), not seen from behind.
        expectApprox(try lighting.lightingReport(for: container)[4].brightness[0], 1, tolerance: 1e-9)
        // Turn the camera by θ = −30° about y. Row vectors, Ry has first row (cos θ, 0, −sin θ), so the left
        // face's view normal is (−1,0,0)·Ry = (−cos θ, 0, sin θ) = (−0.866, 0, −0.5): z < 0, seen from behind,
        // and it is lit with the flipped normal (1,0,0): −L·N = −1 → 0.
        container.sublayerTransform = CATransform3DMakeRotation(-.pi / 6, 0, 1, 0)
        let row = try lighting.lightingReport(for: container)[4]
        #expect(row.isSeenFromBehind)
        expectApprox(row.brightness[0], 0, tolerance: 1e-9)
        expectApprox(row.lights[0].lDotN, -1, tolerance: 1e-9, "the data keeps the face's own L·N")
        let view = try #require(row.viewNormal)
        #expect(near(Vector3(view[0], view[1], view[2]), Vector3(-(3.0.squareRoot()) / 2, 0, -0.5)))
        // Turned +30° instead, the face comes round towards the viewer (z = +0.5) and stays lit.
        container.sublayerTransform = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
        expectApprox(try lighting.lightingReport(for: container)[4].brightness[0], 1, tolerance: 1e-9)
    }

    @Test("a camera turned 60° about y: a head-lamp sees −L·N = cos 60°, a scene light still 1")
    func headLamp() throws {
        // View normal of an unturned face = (0,0,1)·Ry(60°) = third row (sin 60°, 0, cos 60°);
        // L = (0, 0, −1), so −L·N = cos 60° = 0.5 in view space and 1 in scene (and object) space.
        let container = BookCube.container(camera: CATransform3DMakeRotation(.pi / 3, 0, 1, 0))
        try container.addSublayer(Layer(frame: CGRect(x: 150, y: 150, width: 100, height: 100)))
        let lights = Light.Space.allCases.map { Light.directional(Vector3(0, 0, -1), space: $0) }
        let row = try #require(try Lighting(lights: lights, model: .lambert, ambient: 0).lightingReport(for: container).first)
        expectApprox(row.lights[0].diffuse, 1, tolerance: 1e-9)
        expectApprox(row.lights[1].diffuse, 1, tolerance: 1e-9)
        expectApprox(row.lights[2].diffuse, 0.5, tolerance: 1e-9)
        let view = try #require(row.viewNormal)
        #expect(near(Vector3(view[0], view[1], view[2]), Vector3(sin(.pi / 3), 0, 0.5)))
    }

    @Test("a scene light fixed in the world: turning the cube 90° about y brings the right face to the front")
    func sceneTurn() throws {
        let cube = try Solid.cube(size: 200)
        let container = try BookCube.container(holding: cube, camera: .identity)
        // Row vectors: (1,0,0)·Ry(θ) = Ry's first row (cos θ, 0, −sin θ) = (0, 0, 1) for θ = −90°: the right
        // face now looks at the viewer, and the front face's (0,0,1)·Ry = (sin θ, 0, cos θ) = (−1, 0, 0).
        cube.transform = CATransform3DMakeRotation(-.pi / 2, 0, 1, 0)
        let lighting = Lighting(lights: [.directional(Vector3(0, 0, -1), space: .scene)], model: .lambert, ambient: 0)
        let report = try lighting.lightingReport(for: container)
        expectApprox(report[1].brightness[0], 1, tolerance: 1e-9, "right face, now in front")
        expectApprox(report[0].brightness[0], 0, tolerance: 1e-9, "front face, now on the left")
    }
}

@Suite("Lighting: bad input")
struct LightingValidationTests {
    static let good = Light.directional(Vector3(0, 1, -0.5))

    // Passed by index: Swift Testing prints its arguments, and `Color.description` traps on NaN.
    static let invalidLightings: [Lighting] = [
        Lighting(lights: [good], ambient: 1.5),
        Lighting(lights: [good], ambient: .nan),
        Lighting(lights: [good], shininess: -1),
        Lighting(lights: [good], specular: Color(red: .infinity, green: 0, blue: 0)),
        Lighting(lights: [.directional(.zero)]),
        Lighting(lights: [.directional(Vector3(.nan, 0, 0))]),
        Lighting(lights: [.directional(Vector3(0, 0, -1), intensity: -1)]),
        Lighting(lights: [.directional(Vector3(0, 0, -1), color: Color(white: .nan))]),
        Lighting(lights: [Light(direction: Vector3(0, 0, -1), position: Vector3(0, 0, 10))]),
        Lighting(lights: [.point(at: Vector3(0, 0, .infinity))]),
        Lighting(lights: [.point(at: .zero, attenuation: .init(constant: 0, linear: 0, quadratic: 0))]),
        Lighting(lights: [.point(at: .zero, attenuation: .init(constant: 1, linear: -1))]),
    ]

    @Test("invalid lightings are refused with a message, shade nothing and report nothing",
          arguments: invalidLightings.indices)
    func invalid(_ index: Int) throws {
        let lighting = Self.invalidLightings[index]
        let error = try #require(throws: LightingError.self) { try lighting.validate() }
        #expect(!error.description.isEmpty)
        let container = try BookCube().container
        let member = try #require(container.sublayerScene().first)
        #expect(lighting.shade(container.faceTransforms(for: member), bounds: member.layer.bounds) == nil)
        #expect(throws: LightingError.self) { try lighting.lightingReport(for: container) }
    }

    @Test("a light's kind follows from its fields")
    func kinds() {
        #expect(Light().kind == .ambient)
        #expect(Light(direction: .unitZ).kind == .directional)
        #expect(Light(position: .zero).kind == .point)
        #expect(LightingError.invalidAmbient(2).description == "ambient must be a number in 0...1, got 2.0")
    }

    @Test("a layer whose lighting is not a Lighting reports nothing")
    func otherShader() throws {
        let container = try BookCube().container
        #expect(try container.lightingReport().isEmpty)
    }
}
