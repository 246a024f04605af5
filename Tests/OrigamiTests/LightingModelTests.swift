import Foundation
import Origami
import Testing
import TestSupport

/// Shading models on a face that looks straight at the viewer (N = (0, 0, 1) in every space). Light
/// directions at angle θ from straight on: L = (0, sin θ, −cos θ), so −L·N = cos θ (1 straight on, 0.5 at 60°).
@Suite("Lighting: models")
struct LightingModelTests {
    static func at(degrees: Double) -> Vector3 {
        let t = degrees * .pi / 180
        return Vector3(0, sin(t), -cos(t))
    }

    func front() throws -> (container: Layer, member: SceneMember) {
        let container = BookCube.container(camera: .identity)
        let face = Layer(name: "face", frame: CGRect(x: 150, y: 150, width: 100, height: 100))
        try container.addSublayer(face)
        return (container, try #require(container.sublayerScene().first))
    }

    func shade(_ lighting: Lighting) throws -> FaceShade {
        let (container, member) = try front()
        return try #require(lighting.shade(container.faceTransforms(for: member), bounds: member.layer.bounds))
    }

    func rgb(_ c: Color?) -> [Double] { c.map { [$0.red, $0.green, $0.blue] } ?? [] }

    func close(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-9) }
    }

    @Test("lambert: a + (1 − a)·max(0, −L·N)·I", arguments: [
        // (angle, intensity, ambient, expected): 0.2 + 0.8·1·1 = 1; 0.2 + 0.8·1·0.5 = 0.6;
        // 0.2 + 0.8·0.5 = 0.6 at 60°; 0.5 + 0.5·0.5 = 0.75; the light behind (120°): ambient only, 0.2.
        (0.0, 1.0, 0.2, 1.0), (0, 0.5, 0.2, 0.6), (60, 1, 0.2, 0.6), (60, 1, 0.5, 0.75), (120, 1, 0.2, 0.2),
    ])
    func lambert(_ angle: Double, _ intensity: Double, _ ambient: Double, _ expected: Double) throws {
        let lighting = Lighting(lights: [.directional(Self.at(degrees: angle), intensity: intensity)],
                                model: .lambert, ambient: ambient)
        let s = try shade(lighting)
        #expect(close(rgb(s.multiply), [expected, expected, expected]), "\(rgb(s.multiply))")
        #expect(s.multiply?.alpha == 1 && s.add == nil && s.overlay == nil)
    }

    @Test("a coloured light tints its face and its ambient term: (a + (1 − a)·0.5)·red")
    func coloured() throws {
        let s = try shade(Lighting(lights: [.directional(Self.at(degrees: 60), color: .red)], model: .lambert, ambient: 0.2))
        #expect(close(rgb(s.multiply), [0.6, 0, 0]))
    }

    @Test("several lights add up; the ambient colour is their mean")
    func several() throws {
        // Red straight on, blue at 60°, a = 0.2: ambient 0.2·(0.5, 0, 0.5) = (0.1, 0, 0.1);
        // diffuse 0.8·(1·red + 0.5·blue) = (0.8, 0, 0.4); total (0.9, 0, 0.5).
        let lights: [Light] = [.directional(Self.at(degrees: 0), color: .red), .directional(Self.at(degrees: 60), color: .blue)]
        #expect(close(rgb(try shade(Lighting(lights: lights, model: .lambert, ambient: 0.2)).multiply), [0.9, 0, 0.5]))
    }

    @Test("the sum is clamped for painting, not in the data")
    func clamped() throws {
        // Two white lights straight on, a = 0.5: 0.5 + 0.5·(1 + 1) = 1.5.
        let lighting = Lighting(lights: [.directional(Self.at(degrees: 0)), .directional(Self.at(degrees: 0))],
                                model: .lambert, ambient: 0.5)
        #expect(close(rgb(try shade(lighting).multiply), [1, 1, 1]))
        let (container, _) = try front()
        let row = try #require(try lighting.lightingReport(for: container).first)
        #expect(close(row.unclampedBrightness, [1.5, 1.5, 1.5]) && close(row.brightness, [1, 1, 1]))
    }

    @Test("ambient only: the level times the ambient lights' colour, or white without lights")
    func ambientOnly() throws {
        // 0.5 × 0.5·(0.2, 0.4, 0.6) = (0.05, 0.1, 0.15).
        let tinted = Lighting(lights: [.ambient(color: Color(red: 0.2, green: 0.4, blue: 0.6), intensity: 0.5)],
                              model: .lambert, ambient: 0.5)
        #expect(close(rgb(try shade(tinted).multiply), [0.05, 0.1, 0.15]))
        #expect(close(rgb(try shade(Lighting(lights: [], model: .lambert, ambient: 0.3)).multiply), [0.3, 0.3, 0.3]))
        // A white ambient light with a red light at 60°, a = 0.2: 0.2·white + 0.8·0.5·red = (0.6, 0.2, 0.2).
        let mixed = Lighting(lights: [.ambient(), .directional(Self.at(degrees: 60), color: .red)], model: .lambert, ambient: 0.2)
        #expect(close(rgb(try shade(mixed).multiply), [0.6, 0.2, 0.2]))
    }

    @Test("blinnPhong adds max(0, N·H)^shininess: 1 straight on, cos 30° squared at 60°", arguments: [
        // At 60°, H = normalize((0, −sin 60°, cos 60°) + (0, 0, 1)) = (0, −0.5, cos 30°), N·H = cos 30°:
        // shininess 2 → 0.75, 4 → 0.5625. Straight on H = N: 1 for any shininess.
        (0.0, 32.0, 1.0), (60, 2, 0.75), (60, 4, 0.5625), (120, 2, 0),
    ])
    func blinnPhong(_ angle: Double, _ shininess: Double, _ expected: Double) throws {
        let lighting = Lighting(lights: [.directional(Self.at(degrees: angle))], model: .blinnPhong, ambient: 0.2,
                                shininess: shininess)
        let s = try shade(lighting)
        #expect(close(rgb(s.add), [expected, expected, expected]), "\(rgb(s.add))")
        // The diffuse part is lambert's.
        let diffuse = 0.2 + 0.8 * max(0, cos(angle * .pi / 180))
        #expect(close(rgb(s.multiply), [diffuse, diffuse, diffuse]))
    }

    @Test("the specular term takes the specular colour and the light's colour")
    func specularColour() throws {
        let lighting = Lighting(lights: [.directional(Self.at(degrees: 60), color: Color(red: 1, green: 0.5, blue: 0))],
                                model: .blinnPhong, ambient: 0, specular: Color(white: 0.5), shininess: 2)
        // 0.75 × 0.5 × (1, 0.5, 0).
        #expect(close(rgb(try shade(lighting).add), [0.375, 0.1875, 0]))
    }

    @Test("bookOverlay with two lights sums L·N")
    func bookTwoLights() throws {
        // One light straight on (L·N = −1), one at 120° (L·N = +0.5): 1 − 1 + 0.5 − 0.5 = 0.
        let lights: [Light] = [.directional(Self.at(degrees: 0)), .directional(Self.at(degrees: 120))]
        let s = try shade(Lighting(lights: lights, model: .bookOverlay, ambient: 0.5))
        expectApprox(s.overlay?.alpha, 0, tolerance: 1e-9)
        let one = try shade(Lighting(lights: [.directional(Self.at(degrees: 120))], model: .bookOverlay, ambient: 0.2))
        expectApprox(one.overlay?.alpha, 1, tolerance: 1e-9)  // 1 + 0.5 − 0.2 = 1.3 → 1
        let half = try shade(Lighting(lights: [.directional(Self.at(degrees: 60))], model: .bookOverlay, ambient: 0.2))
        expectApprox(half.overlay?.alpha, 0.3, tolerance: 1e-9)  // 1 − 0.5 − 0.2
    }
}

@Suite("Lighting: point lights")
struct LightingPointTests {
    /// Two 100 × 100 faces in the plane z = 0 of an unturned container: left over x 0…100, right over 200…300,
    /// y 0…100; a white point light between them at (150, 50, 50).
    func twoFaces() throws -> (container: Layer, left: Layer, right: Layer) {
        let container = BookCube.container(camera: .identity)
        let left = Layer(name: "left", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let right = Layer(name: "right", frame: CGRect(x: 200, y: 0, width: 100, height: 100))
        try container.addSublayer(left)
        try container.addSublayer(right)
        return (container, left, right)
    }

    func shades(_ lighting: Lighting) throws -> [FaceShade] {
        let (container, _, _) = try twoFaces()
        return try container.sublayerScene().map { m in
            try #require(lighting.shade(container.faceTransforms(for: m), bounds: m.layer.bounds))
        }
    }

    static let light = Light.point(at: Vector3(150, 50, 50))

    @Test("the nearer corners are brighter, with the hand-computed values")
    func corners() throws {
        // −L·N at a corner = 50/distance: the near corners (x = 100 and 200) are √(50² + 50² + 50²) = √7500
        // away → 0.57735; the far ones (x = 0 and 300) √(150² + 50² + 50²) = √27500 away → 0.30151.
        let near = 50 / 7500.0.squareRoot(), far = 50 / 27500.0.squareRoot()
        let s = try shades(Lighting(lights: [Self.light], model: .lambert, ambient: 0))
        let left = try #require(s[0].vertexMultiply).map(\.red)
        let right = try #require(s[1].vertexMultiply).map(\.red)
        // Corner order (minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY).
        let expectedLeft = [far, near, near, far], expectedRight = [near, far, far, near]
        for i in 0..<4 {
            expectApprox(left[i], expectedLeft[i], tolerance: 1e-9, "corner \(i)")
            expectApprox(right[i], expectedRight[i], tolerance: 1e-9, "corner \(i)")
        }
        #expect(left[1] > left[0] && right[0] > right[1])
        #expect(s[0].multiply == nil && s[0].overlay == nil)
    }

    @Test("sampled at the centre when asked, with attenuation")
    func centre() throws {
        // Left centre (50, 50, 0): the light is at (100, 0, 50) from it, d = √12500, −L·N = 50/d = 0.44721;
        // attenuation 1/(1 + 1e-4·12500) = 1/2.25.
        let light = Light.point(at: Vector3(150, 50, 50), attenuation: .init(constant: 1, quadratic: 1e-4))
        let lighting = Lighting(lights: [light], model: .lambert, ambient: 0, pointLightSampling: .centre)
        let s = try shades(lighting)
        let expected = 50 / 12500.0.squareRoot() / 2.25
        expectApprox(s[0].multiply?.red, expected, tolerance: 1e-9)
        #expect(s[0].vertexMultiply == nil)
        let (container, _, _) = try twoFaces()
        let row = try #require(try lighting.lightingReport(for: container).first)
        expectApprox(row.lights[0].attenuation, 1 / 2.25, tolerance: 1e-12)
        expectApprox(row.lights[0].lDotN, -50 / 12500.0.squareRoot(), tolerance: 1e-12)
    }

    @Test("under bookOverlay, per-corner shading is a grey multiply of 1 − alpha")
    func bookCorners() throws {
        // Near corner: 1 + L·N − 0.5 = 0.5 − 0.57735 < 0 → alpha 0 → grey 1; far: 0.5 − 0.30151 → grey 0.80151.
        let s = try shades(Lighting(lights: [Self.light], model: .bookOverlay, ambient: 0.5))
        let left = try #require(s[0].vertexMultiply).map(\.red)
        expectApprox(left[1], 1, tolerance: 1e-9)
        expectApprox(left[0], 0.5 + 50 / 27500.0.squareRoot(), tolerance: 1e-9)
        #expect(s[0].overlay == nil)
    }

    @Test("blinnPhong delivers a per-corner specular gradient too")
    func specularCorners() throws {
        let s = try shades(Lighting(lights: [Self.light], model: .blinnPhong, ambient: 0))
        #expect(s[0].vertexMultiply?.count == 4 && s[0].vertexAdd?.count == 4)
    }
}

/// `evaluate` asks whether the bounds have corners (`CGRect.hasCorners`) without making the corner array, and
/// makes it only when it samples corners: a finite rect (empty or with a negative size included) is shaded, at
/// the centre and at the corners; a null or non-finite one leaves the face unlit (it has no centre either).
/// Checked to fail with `hasCorners` broken.
@Test("bounds with no corners leave the face unlit; finite bounds are shaded, with or without corner samples")
func shadeNeedsBoundsWithCorners() throws {
    let transforms = FaceTransforms(object: .identity, scene: .identity, view: .identity)
    let centre = Lighting.book
    let corners = Lighting(lights: [.point(at: Vector3(0, 0, 100), space: .object)], model: .lambert, ambient: 0.2)
    for (k, lighting) in [centre, corners].enumerated() {
        for bad in [CGRect.null, CGRect(x: CGFloat.nan, y: 0, width: 10, height: 10), CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 10),
                    CGRect(x: 0, y: -CGFloat.infinity, width: 10, height: 10)] {
            #expect(bad.corners == nil)
            #expect(lighting.shade(transforms, bounds: bad) == nil, "\(bad)")
        }
        for good in [CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 5, y: 5, width: -10, height: -4), CGRect.zero] {
            #expect(good.corners != nil)
            let shade = lighting.shade(transforms, bounds: good)
            #expect(shade != nil, "\(good)")
            if k == 1 { #expect(shade?.vertexMultiply?.count == 4, "\(good)") }
        }
    }
}

/// `Lighting.MemberShading` (what a render asks a context lit by a `Lighting`: validated once, only the light
/// spaces its lights read formed) gives each member exactly the shade `shade(_:bounds:)` gives it with the member's
/// whole `FaceTransforms`: every model, every light space alone and together, point lights per vertex and at the
/// centre, ambient lights (whose space is never read), one-sided, and an invalid lighting (no shade).
@Test("the per-context shading of a Lighting equals shade(_:bounds:) on the member's whole transforms")
func memberShadingMatchesShade() throws {
    var camera = LayerGeometry()
    camera.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
    camera.position = CGPoint(x: 200, y: 150)
    camera.sublayerTransform = Transform3D.perspective(distance: 500)
        .concatenating(Transform3D(rotationAngle: 0.4, x: 1, y: 0.3, z: 0))
    var flipped = camera
    flipped.isGeometryFlipped = true
    var lightings: [Lighting] = []
    for model in Lighting.Model.allCases {
        for spaces in [[Light.Space.object], [.scene], [.view], [.object, .view], [.scene, .view], [.object, .scene, .view]] {
            let lights = spaces.enumerated().map { k, space in
                k % 2 == 0 ? Light.directional(Vector3(0.2, 1, -0.5), space: space)
                    : Light.point(at: Vector3(50, -80, 300), color: Color(red: 1, green: 0.8, blue: 0.6), space: space)
            }
            lightings.append(Lighting(lights: lights, model: model, ambient: 0.3))
            lightings.append(Lighting(lights: lights + [.ambient(intensity: 0.5)], model: model, ambient: 0.3,
                                      twoSided: false, pointLightSampling: .centre))
        }
        lightings.append(Lighting(lights: [.ambient(color: .white, intensity: 0.8)], model: model))
    }
    lightings.append(Lighting(lights: [.directional(Vector3(0, 1, -0.5), space: .view)], ambient: 2))  // invalid
    var tested = 0
    for (c, context) in [camera, flipped].enumerated() {
        let shared = FaceTransforms.Context(context, contentFlipped: c == 1)
        for angle in stride(from: 0.0, to: 6.3, by: 0.9) {
            let object = Transform3D(rotationAngle: angle, x: 0.3, y: 1, z: 0.2)
                .concatenating(Transform3D(translationX: -50, y: 20, z: 30))
            let projected = object.concatenating(Transform3D(translationX: 150, y: 100, z: 0))
                .concatenating(context.sublayerSpaceTransform)
            for bounds in [CGRect(x: 0, y: 0, width: 100, height: 60), CGRect(x: 10, y: 5, width: -40, height: -30), .null] {
                for lighting in lightings {
                    let general = lighting.shade(shared.transforms(projected: projected, object: object), bounds: bounds)
                    let fast = Lighting.MemberShading(lighting, context: shared).shade(projected: projected, object: object,
                                                                                       bounds: bounds)
                    #expect(fast == general, "\(lighting) at \(angle), \(bounds)")
                    if general != nil { tested += 1 }
                }
            }
        }
    }
    #expect(tested > 500)
}
