import Foundation

/// The numbers behind one face's shade: at the centre, and at the bounds' corners when point lights ask for
/// them. Shared by `shade(_:bounds:)` and `lightingReport(for:)` so the data is exactly what is painted.
struct FaceEvaluation {
    /// The face's own (unflipped) normal in each space, where defined.
    var normals: [Light.Space: Vector3]
    var isSeenFromBehind: Bool
    var centre: PointLighting
    /// The centre's terms, one per light, in `lights` order (ambient lights included, with zero terms); empty
    /// unless reported.
    var centreTerms: [FaceLightingData.LightTerm]
    /// Corners (minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY); `nil` unless asked for and defined.
    var corners: [PointLighting]?
}

/// The lighting of one point of a face.
struct PointLighting {
    /// `a·Cₐ + (1 − a)·Σ Iᵢ·fᵢ·max(0, −Lᵢ·N)·Cᵢ`, unclamped (red, green, blue).
    var brightness: Vector3
    /// The Blinn–Phong term, unclamped (zero for the other models).
    var specular: Vector3
    /// `1 + Σ Iᵢ·fᵢ·(Lᵢ·N) − a`, unclamped, N the face's own normal.
    var overlay: Double
    // (The per-light terms a report reads are handed out beside it, so that a point's lighting is plain numbers:
    // an array in it made every optional or tuple holding one a value-witness copy and destroy per face.)
}

extension Lighting {
    var usesVertices: Bool {
        pointLightSampling == .vertices && lights.contains { $0.kind == .point }
    }

    /// `nil` when the face has no normal at its centre in a space a light needs (edge-on, behind the eye).
    /// `report`: also the normals in every space, whether the face is seen from behind and the per-light terms
    /// (`lightingReport`); painting (`shade`) needs none of them, and skipping them keeps its per-face cost to
    /// the samples the lights ask for, with no allocations.
    func evaluate(_ transforms: FaceTransforms, bounds: CGRect, corners wantsCorners: Bool,
                  report: Bool = true) -> FaceEvaluation? {
        let b = bounds.standardized
        guard b.hasCorners else { return nil }
        let middle = CGPoint(x: b.midX, y: b.midY)
        var normals: [Light.Space: Vector3] = [:]
        if report {
            for space in Light.Space.allCases {
                normals[space] = transforms.matrix(for: space).planeSample(at: middle)?.normal
            }
        }
        guard let points = evaluatePoints(transforms, bounds: b, middle: middle, corners: wantsCorners, report: report,
                                          ambientColour: self.ambientColour) else { return nil }
        return FaceEvaluation(normals: normals, isSeenFromBehind: points.behind, centre: points.centre,
                              centreTerms: points.centreTerms, corners: points.corners)
    }

    /// `evaluate`'s points — centre (with its terms when `report`), and corners when asked for and defined — and
    /// whether the face is seen from behind (always false unless `report` or the model flips such faces): what
    /// `shade` reads, with no
    /// `FaceEvaluation` (its dictionary) to make and destroy per face. `b` is the standardized bounds, known to
    /// have corners, `middle` its centre; `ambientColour` is `self.ambientColour`.
    private func evaluatePoints(_ transforms: FaceTransforms, bounds b: CGRect, middle: CGPoint, corners wantsCorners: Bool,
                                report: Bool, ambientColour: Vector3)
        -> (behind: Bool, centre: PointLighting, centreTerms: [FaceLightingData.LightTerm],
            corners: [PointLighting]?)? {
        let (behind, flip) = facing(transforms.projected, middle: middle, report: report)
        var centreTerms: [FaceLightingData.LightTerm]? = report ? [] : nil
        guard let centre = evaluate(transforms, at: middle, flip: flip, ambientColour: ambientColour,
                                    terms: &centreTerms)
        else { return nil }
        var corners: [PointLighting]?
        if wantsCorners {
            var noTerms: [FaceLightingData.LightTerm]?
            let sampled = (b.corners ?? []).compactMap {
                evaluate(transforms, at: $0, flip: flip, ambientColour: ambientColour, terms: &noTerms)
            }
            corners = sampled.count == 4 ? sampled : nil
        }
        return (behind, centre, centreTerms ?? [], corners)
    }

    /// Whether the face is seen from behind (always false unless `report` or the model flips such faces) and
    /// whether its normals are flipped for that: the face's +z points away from the viewer as drawn, after the
    /// camera and its perspective divide (the projected winding the renderer culls by).
    fileprivate func facing(_ projected: Transform3D, middle: CGPoint, report: Bool) -> (behind: Bool, flip: Bool) {
        let flips = twoSided && model != .bookOverlay
        let behind = report || flips ? (projected.planeNormal(at: middle)?.z ?? 0) < 0 : false
        return (behind, behind && flips)
    }

    /// A light space's sample of the plane (position and normal), asked for once per space a light uses.
    fileprivate struct Samples {
        typealias Sample = (position: Vector3, normal: Vector3)
        var object: Sample?, scene: Sample?, view: Sample?

        subscript(space: Light.Space) -> Sample? {
            get {
                switch space {
                case .object: return object
                case .scene: return scene
                case .view: return view
                }
            }
            set {
                switch space {
                case .object: object = newValue
                case .scene: scene = newValue
                case .view: view = newValue
                }
            }
        }
    }

    /// One light as the evaluation reads it: its colour as a vector and its direction normalised. The general
    /// path prepares each light at each point it lights (`evaluate(_:at:…)`), `MemberShading` its lights once for
    /// all the members of a context: the same numbers either way (the same operations on the same fields).
    struct PreparedLight: Sendable {
        var kind: Light.Kind
        var space: Light.Space
        var colour: Vector3
        var intensity: Double
        /// `direction?.normalized()`: set for a directional light.
        var travel: Vector3?
        var position: Vector3?
        var attenuation: Light.Attenuation

        init(_ light: Light) {
            kind = light.kind; space = light.space
            colour = Vector3(light.color.red, light.color.green, light.color.blue)
            intensity = light.intensity
            travel = light.direction?.normalized()
            position = light.position; attenuation = light.attenuation
        }
    }

    /// The lighting at `point`; `terms`, when not `nil`, gets the per-light terms appended (a report's).
    private func evaluate(_ transforms: FaceTransforms, at point: CGPoint, flip: Bool, ambientColour: Vector3,
                          terms: inout [FaceLightingData.LightTerm]?) -> PointLighting? {
        var samples = Samples()
        for light in lights where light.kind != .ambient && samples[light.space] == nil {
            guard let s = transforms.matrix(for: light.space).planeSample(at: point) else { return nil }
            samples[light.space] = s
        }
        return lit(samples, lights: lights.lazy.map(PreparedLight.init), flip: flip, ambientColour: ambientColour,
                   terms: &terms)
    }

    /// The lighting of a point from its samples in the spaces the lights read (every one of them set) and the
    /// lights, in `lights` order: the one home of the terms' arithmetic. (Specialized for `MemberShading`'s
    /// array and the general path's lazily prepared `lights`; ≈ 290 instructions a face for the book's one light,
    /// most of it the terms' and the three spaces' bookkeeping: `@inline(__always)` was not honoured.)
    fileprivate func lit<Lights: Sequence<PreparedLight>>(
        _ samples: Samples, lights: Lights, flip: Bool, ambientColour: Vector3,
        terms: inout [FaceLightingData.LightTerm]?) -> PointLighting? {
        var diffuse = Vector3.zero, specularSum = Vector3.zero, overlaySum = 0.0
        terms?.reserveCapacity(self.lights.count)
        for light in lights {
            let colour = light.colour
            guard let sample = samples[light.space], light.kind != .ambient else {
                terms?.append(.init(kind: light.kind, space: light.space, lDotN: 0, diffuse: 0, specular: 0,
                                    attenuation: 1))
                continue
            }
            let own = sample.normal
            let lit = flip ? -own : own
            let travel: Vector3, attenuation: Double
            if let p = light.position {
                let delta = sample.position - p
                // A light exactly on the surface shines straight into it.
                travel = delta.normalized() ?? -lit
                attenuation = light.attenuation.factor(atDistance: delta.length)
            } else {
                travel = light.travel ?? -lit
                attenuation = 1
            }
            let strength = light.intensity * attenuation
            let facing = -travel.dot(lit)
            let d = max(0, facing) * strength
            var s = 0.0
            if model == .blinnPhong, facing > 0, let h = (-travel + .unitZ).normalized() {
                s = pow(max(0, lit.dot(h)), shininess) * strength
            }
            diffuse = diffuse + colour * d
            specularSum = specularSum + colour * s
            overlaySum += strength * travel.dot(own)
            terms?.append(.init(kind: light.kind, space: light.space, lDotN: travel.dot(own), diffuse: d, specular: s,
                                attenuation: attenuation))
        }
        let spec = Vector3(specularSum.x * specular.red, specularSum.y * specular.green, specularSum.z * specular.blue)
        let brightness = ambientColour * ambient + diffuse * (1 - ambient)
        let result = PointLighting(brightness: brightness, specular: model == .blinnPhong ? spec : .zero,
                                   overlay: 1 + overlaySum - ambient)
        guard result.brightness.isFinite, result.specular.isFinite, result.overlay.isFinite else { return nil }
        return result
    }

    /// Cₐ: the ambient lights' `intensity × color` summed if any; else the mean colour of the other lights
    /// (so one coloured light tints its own ambient term); else white.
    var ambientColour: Vector3 {
        func rgb(_ c: Color) -> Vector3 { Vector3(c.red, c.green, c.blue) }
        // Plain loops, in `lights` order (the same sums as `filter` and `reduce`, without an array per face).
        var sum = Vector3.zero, anyAmbient = false
        for light in lights where light.kind == .ambient {
            sum = sum + rgb(light.color) * light.intensity
            anyAmbient = true
        }
        if anyAmbient { return sum }
        guard !lights.isEmpty else { return Vector3(1, 1, 1) }
        for light in lights { sum = sum + rgb(light.color) }
        return sum / Double(lights.count)
    }
}

extension FaceTransforms {
    /// The matrix that carries a face into `space`.
    public func matrix(for space: Light.Space) -> Transform3D {
        switch space {
        case .object: return object
        case .scene: return scene
        case .view: return view
        }
    }
}

// MARK: - FaceShader

extension Lighting: FaceShader {
    /// The face's shade (see `Lighting` for the terms), or `nil` — the face left unlit — when the lighting
    /// fails `validate()` or the face has no normal in a light's space (edge-on, behind the eye, not finite).
    public func shade(_ transforms: FaceTransforms, bounds: CGRect) -> FaceShade? {
        guard (try? validate()) != nil else { return nil }
        return shadeValidated(transforms, bounds: bounds, corners: usesVertices, ambientColour: ambientColour)
    }

    /// `shade(_:bounds:)` of a lighting known to pass `validate()`, with its `usesVertices` and `ambientColour` given.
    fileprivate func shadeValidated(_ transforms: FaceTransforms, bounds: CGRect, corners: Bool,
                                    ambientColour: Vector3) -> FaceShade? {
        let b = bounds.standardized
        guard b.hasCorners else { return nil }
        let middle = CGPoint(x: b.midX, y: b.midY)
        guard corners else {
            // The centre alone (every face of a lattice under a directional light): `evaluatePoints`'s centre,
            // without its tuple and the optional corner array to make and destroy per face.
            let flip = facing(transforms.projected, middle: middle, report: false).flip
            var noTerms: [FaceLightingData.LightTerm]?
            guard let centre = evaluate(transforms, at: middle, flip: flip, ambientColour: ambientColour, terms: &noTerms)
            else { return nil }
            return shade(centre: centre)
        }
        guard let e = evaluatePoints(transforms, bounds: b, middle: middle, corners: true, report: false,
                                     ambientColour: ambientColour) else { return nil }
        guard let corners = e.corners else { return shade(centre: e.centre) }
        switch model {
        case .bookOverlay:
            // A black overlay of alpha α leaves an opaque colour c as c·(1 − α).
            return FaceShade(vertexMultiply: corners.map { Color(white: 1 - Self.alpha($0)) })
        case .lambert:
            return FaceShade(vertexMultiply: corners.map { Self.colour($0.brightness) })
        case .blinnPhong:
            return FaceShade(vertexMultiply: corners.map { Self.colour($0.brightness) },
                             vertexAdd: corners.map { Self.colour($0.specular) })
        }
    }

    /// A flat shade from the centre's lighting. (Inlined: called, its result was copied and destroyed through
    /// `FaceShade`'s outlined value witnesses per face.)
    @inline(__always)
    fileprivate func shade(centre: PointLighting) -> FaceShade {
        switch model {
        case .bookOverlay: return FaceShade(overlay: Color(white: 0, alpha: Self.alpha(centre)))
        case .lambert: return FaceShade(multiply: Self.colour(centre.brightness))
        case .blinnPhong: return FaceShade(multiply: Self.colour(centre.brightness), add: Self.colour(centre.specular))
        }
    }

    private static func colour(_ v: Vector3) -> Color { Color(red: v.x, green: v.y, blue: v.z).clamped }
    private static func alpha(_ p: PointLighting) -> Double { min(max(p.overlay, 0), 1) }
}

extension Lighting {
    /// `shade(_:bounds:)` for the members of one 3D context, with what they share worked out once: whether the
    /// lighting passes `validate()` (which `shade` asks per face), which light spaces its lights read, so a
    /// member's transforms into the other spaces are not formed (the book's lighting reads the object space alone:
    /// no 4×4 product per face), and the lights prepared (directions normalised, colours as vectors). A face shaded
    /// from its centre alone (no point light sampled at the vertices: every face of a lattice) is sampled in the
    /// spaces its lights read straight from the matrices that carry it there, with no `FaceTransforms` of four
    /// matrices formed. Each shade is `shade(_:bounds:)`'s for the member's `FaceTransforms`, bit for bit: the same
    /// arithmetic on the same matrices (`LightingFastPathTests`). What a renderer asks a context lit by a
    /// `Lighting`. A class, so that a renderer holding one per context passes a reference around rather than copies
    /// of the lighting, and each shade reads the context where it lies (passed to each call, its 392 bytes were
    /// copied for the call, a `memcpy` a face).
    package final class MemberShading: Sendable {
        let lighting: Lighting
        /// What the context's members' transforms share.
        let context: FaceTransforms.Context
        let isValid: Bool
        /// A light other than an ambient one is given in the object, the scene or the view space (`evaluate` reads
        /// those spaces' matrices, and `projected`).
        let readsObject: Bool, readsScene: Bool, readsView: Bool
        /// `lighting.usesVertices` and `lighting.ambientColour`: each a walk over the lights.
        let usesVertices: Bool, ambientColour: Vector3
        /// `lighting.lights`, prepared once rather than per face.
        let lights: [PreparedLight]

        package init(_ lighting: Lighting, context: FaceTransforms.Context) {
            self.lighting = lighting
            self.context = context
            isValid = (try? lighting.validate()) != nil
            func reads(_ space: Light.Space) -> Bool { lighting.lights.contains { $0.kind != .ambient && $0.space == space } }
            readsObject = reads(.object)
            readsScene = reads(.scene)
            readsView = reads(.view)
            usesVertices = lighting.usesVertices
            ambientColour = lighting.ambientColour
            lights = lighting.lights.map(PreparedLight.init)
        }

        /// The shade of a member drawn through `projected` into the context, `object` relative to its solid, with
        /// bounds `bounds`: `lighting.shade(context.transforms(projected: projected, object: object), bounds:)`.
        package func shade(projected: Transform3D, object: Transform3D, bounds: CGRect) -> FaceShade? {
            guard isValid else { return nil }
            guard !usesVertices else {
                return lighting.shadeValidated(
                    context.transforms(projected: projected, object: object, scene: readsScene, view: readsView),
                    bounds: bounds, corners: true, ambientColour: ambientColour)
            }
            // `shadeValidated`'s centre-only path, the samples taken as `evaluate(_:at:…)` takes them (in another
            // order, which changes none of them nor whether one is missing).
            let b = bounds.standardized
            guard b.hasCorners else { return nil }
            let middle = CGPoint(x: b.midX, y: b.midY)
            let flip = lighting.facing(projected, middle: middle, report: false).flip
            var samples = Samples()
            if readsObject {
                guard let s = object.planeSample(at: middle) else { return nil }
                samples.object = s
            }
            if readsScene || readsView {
                let placed = context.placed(projected)
                if readsScene {
                    guard let s = context.scene(placed: placed).planeSample(at: middle) else { return nil }
                    samples.scene = s
                }
                if readsView {
                    guard let s = context.view(placed: placed).planeSample(at: middle) else { return nil }
                    samples.view = s
                }
            }
            var noTerms: [FaceLightingData.LightTerm]?
            guard let centre = lighting.lit(samples, lights: lights, flip: flip, ambientColour: ambientColour,
                                            terms: &noTerms) else { return nil }
            return lighting.shade(centre: centre)
        }
    }
}
