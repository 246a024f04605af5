import Foundation
@testable import Origami
import Testing

/// The shortcuts a render's lighting takes, against the general paths they stand for.
@Suite("Lighting: fast paths")
struct LightingFastPathTests {
    /// Every model, every light space alone and together, point lights per vertex and at the centre, ambient lights,
    /// one-sided and two-sided.
    static var lightings: [Lighting] {
        var lightings: [Lighting] = []
        for model in Lighting.Model.allCases {
            for spaces in [[Light.Space.object], [.scene], [.view], [.object, .view], [.object, .scene, .view]] {
                let lights = spaces.enumerated().map { k, space in
                    k % 2 == 0 ? Light.directional(Vector3(0.2, 1, -0.5), space: space)
                        : Light.point(at: Vector3(50, -80, 300), color: Color(red: 1, green: 0.8, blue: 0.6), space: space)
                }
                for twoSided in [true, false] {
                    for sampling in Lighting.PointLightSampling.allCases {
                        lightings.append(Lighting(lights: lights, model: model, ambient: 0.3, twoSided: twoSided,
                                                  pointLightSampling: sampling))
                        lightings.append(Lighting(lights: lights + [.ambient(intensity: 0.5)], model: model,
                                                  ambient: 0.3, twoSided: twoSided, pointLightSampling: sampling))
                    }
                }
            }
            lightings.append(Lighting(lights: [.ambient(color: .white, intensity: 0.8)], model: model))
        }
        lightings.append(.book)
        return lightings
    }

    /// `shade(centre:)` / the corner shades as `shadeValidated` formed them from `evaluatePoints` before the centre
    /// alone got its own path (the model's flat shade from the centre; per-vertex shades from four corners).
    static func expectedShade(_ lighting: Lighting, _ e: FaceEvaluation?) -> FaceShade? {
        guard let e else { return nil }
        func colour(_ v: Vector3) -> Color { Color(red: v.x, green: v.y, blue: v.z).clamped }
        func alpha(_ p: PointLighting) -> Double { min(max(p.overlay, 0), 1) }
        switch (lighting.model, e.corners) {
        case (.bookOverlay, nil): return FaceShade(overlay: Color(white: 0, alpha: alpha(e.centre)))
        case let (.bookOverlay, corners?): return FaceShade(vertexMultiply: corners.map { Color(white: 1 - alpha($0)) })
        case (.lambert, nil): return FaceShade(multiply: colour(e.centre.brightness))
        case let (.lambert, corners?): return FaceShade(vertexMultiply: corners.map { colour($0.brightness) })
        case (.blinnPhong, nil): return FaceShade(multiply: colour(e.centre.brightness), add: colour(e.centre.specular))
        case let (.blinnPhong, corners?):
            return FaceShade(vertexMultiply: corners.map { colour($0.brightness) },
                             vertexAdd: corners.map { colour($0.specular) })
        }
    }

    /// The faces both bit-equality tests shade: two cameras (one flipped) × 14 turns of a face × 4 bounds (two
    /// degenerate), each as (its context's shared part, projected transform, object transform, bounds, turn).
    static func forEachFace(_ body: (FaceTransforms.Context, Transform3D, Transform3D, CGRect, Double) -> Void) {
        var camera = LayerGeometry()
        camera.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        camera.position = CGPoint(x: 200, y: 150)
        camera.sublayerTransform = Transform3D.perspective(distance: 500)
            .concatenating(Transform3D(rotationAngle: 0.4, x: 1, y: 0.3, z: 0))
        var flipped = camera
        flipped.isGeometryFlipped = true
        for (c, context) in [camera, flipped].enumerated() {
            let shared = FaceTransforms.Context(context, contentFlipped: c == 1)
            for angle in stride(from: 0.0, to: 6.3, by: 0.45) {
                let object = Transform3D(rotationAngle: angle, x: 0.3, y: 1, z: 0.2)
                    .concatenating(Transform3D(translationX: -50, y: 20, z: 30))
                let projected = object.concatenating(Transform3D(translationX: 150, y: 100, z: 0))
                    .concatenating(context.sublayerSpaceTransform)
                for bounds in [CGRect(x: 0, y: 0, width: 100, height: 60), CGRect(x: 10, y: 5, width: -40, height: -30),
                               CGRect(x: 0, y: 0, width: 0, height: 20), .null] {
                    body(shared, projected, object, bounds, angle)
                }
            }
        }
    }

    /// A shade's numbers as bits (each colour's four components, in the fields' order, with a marker for each field
    /// set): equal only when bit for bit the same, `-0` and `+0` and NaN payloads included.
    static func bits(_ shade: FaceShade?) -> [UInt64]? {
        guard let shade else { return nil }
        var out: [UInt64] = []
        func add(_ c: Color?, _ field: UInt64) {
            guard let c else { return }
            out += [field, c.red.bitPattern, c.green.bitPattern, c.blue.bitPattern, c.alpha.bitPattern]
        }
        add(shade.multiply, 1); add(shade.add, 2); add(shade.overlay, 3)
        for c in shade.vertexMultiply ?? [] { add(c, 4) }
        for c in shade.vertexAdd ?? [] { add(c, 5) }
        return out
    }

    /// `shade(_:bounds:)` — which takes the centre-only path when no corners are sampled (every face of a lattice
    /// under a directional light) — equals the shade formed from the general evaluation (`evaluatePoints`, as a
    /// report makes it, without the report's extras), bit for bit; and a point's lighting is the same whether its
    /// terms are reported or not. Faces turned all the way round (so two-sided lightings flip some), under two
    /// cameras (one flipped), with good and degenerate bounds.
    @Test("the centre-only shade equals the shade formed from the general evaluation")
    func centreOnlyShadeMatchesGeneralEvaluation() {
        var centreOnly = 0, withCorners = 0, flippedFaces = 0
        Self.forEachFace { shared, projected, object, bounds, angle in
            let transforms = shared.transforms(projected: projected, object: object)
            for lighting in Self.lightings {
                let general = lighting.evaluate(transforms, bounds: bounds, corners: lighting.usesVertices,
                                                report: false)
                let shade = lighting.shade(transforms, bounds: bounds)
                #expect(Self.bits(shade) == Self.bits(Self.expectedShade(lighting, general)),
                        "\(lighting) at \(angle), \(bounds)")
                if shade != nil { if lighting.usesVertices { withCorners += 1 } else { centreOnly += 1 } }
                let reported = lighting.evaluate(transforms, bounds: bounds, corners: lighting.usesVertices)
                #expect(reported?.centre.brightness == general?.centre.brightness
                            && reported?.centre.specular == general?.centre.specular
                            && reported?.centre.overlay == general?.centre.overlay)
                #expect(reported.map { $0.centreTerms.count == lighting.lights.count } ?? true)
                #expect(general?.centreTerms.isEmpty ?? true)
                if reported?.isSeenFromBehind == true, lighting.twoSided, lighting.model != .bookOverlay,
                   !lighting.usesVertices, shade != nil { flippedFaces += 1 }
            }
        }
        #expect(centreOnly > 2000)
        #expect(withCorners > 500)
        #expect(flippedFaces > 200)
    }

    /// `Lighting.MemberShading` — validated once, the lights prepared once (directions normalised, colours as
    /// vectors), a centre-only face sampled straight from the matrices of the spaces its lights read, no
    /// `FaceTransforms` formed — equals `shade(_:bounds:)` of the member's whole `FaceTransforms`, bit for bit, over
    /// the same lightings (and an invalid one), cameras, turns and bounds as above.
    @Test("a context's member shading equals shade(_:bounds:) bit for bit")
    func memberShadingMatchesShadeBitForBit() {
        let lightings = Self.lightings + [Lighting(lights: [.directional(Vector3(0, 1, -0.5), space: .view)], ambient: 2)]
        var centreOnly = 0, withCorners = 0, unlit = 0
        Self.forEachFace { shared, projected, object, bounds, angle in
            let transforms = shared.transforms(projected: projected, object: object)
            for lighting in lightings {
                let general = lighting.shade(transforms, bounds: bounds)
                let member = Lighting.MemberShading(lighting, context: shared).shade(projected: projected, object: object,
                                                                                     bounds: bounds)
                #expect(Self.bits(member) == Self.bits(general), "\(lighting) at \(angle), \(bounds)")
                if general == nil { unlit += 1 } else if lighting.usesVertices { withCorners += 1 } else { centreOnly += 1 }
            }
        }
        #expect(centreOnly > 2000)
        #expect(withCorners > 500)
        #expect(unlit > 500)
    }
}

/// `Layer.hasLighting` follows `lighting` however it is set, and a frozen node is lit exactly when it has a lighting.
@Suite("Layer: lighting flag")
struct LayerLightingFlagTests {
    @Test("hasLighting follows lighting; a frozen node is lit when its layer has a lighting")
    func hasLightingFollowsLighting() throws {
        let root = Layer(name: "root")
        let lit = Layer(name: "lit"), unlit = Layer(name: "unlit"), byKeyPath = Layer(name: "key path")
        for l in [lit, unlit, byKeyPath] { try root.addSublayer(l) }
        #expect(!root.hasLighting && !lit.hasLighting)
        lit.lighting = Lighting.book
        #expect(lit.hasLighting)
        unlit.lighting = Lighting.book
        unlit.lighting = nil
        #expect(!unlit.hasLighting)
        byKeyPath[keyPath: \Layer.lighting] = Lighting(lights: [.ambient()])
        #expect(byKeyPath.hasLighting)
        let solid = try Solid.cube(size: 40)
        solid.lighting = Lighting.book
        try root.addSublayer(solid)
        let tree = PresentationTree(root)
        var litNodes = 0
        for i in 0..<tree.count {
            #expect(tree[i].isLit == (tree[i].lighting != nil), "node \(i)")
            #expect(tree[i].isLit == tree.layer(i).hasLighting, "node \(i)")
            if tree[i].isLit { litNodes += 1 }
        }
        #expect(litNodes == 3)
    }
}
