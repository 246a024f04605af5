import Foundation

/// The lights of a 3D context and how they shade its faces: a render-time pass that never changes the layers.
/// Set it as the context's `lighting` (`container.lighting = Lighting(...)`); the renderer asks it for each
/// member of the container's sublayer scene through `FaceShader.shade(_:bounds:)`. The same numbers are
/// available as data through `lightingReport(for:)`.
///
/// Core Animation has no lighting; the book (ch. 5, listing 5.10) adds a black sublayer to each face with
/// alpha `1 + L·N − AMBIENT_LIGHT`. `Model.bookOverlay` reproduces that exactly; `lambert` and `blinnPhong`
/// multiply the face's colours instead.
///
/// **Normals.** A face's normal in a light's space is its `+z` axis carried by the inverse transpose of the
/// linear part of its matrix in that space (`FaceTransforms.object/scene/view`), normalised — right under
/// non-uniform scale, where the book's plain 3×3 is not. The `view` space takes the camera's rotation and
/// scale but not its perspective (DESIGN §4). See `Transform3D.planeNormal(at:)`.
///
/// **Seen from behind.** A face whose normal as drawn (`FaceTransforms.projected`, perspective included) has
/// z < 0 at its centre faces away from the viewer: the same test as the projected winding that hides
/// `isDoubleSided == false` layers. With `twoSided` (the default) `lambert` and `blinnPhong` light such a face
/// with its flipped normal, so the inside of an open box is lit from the side the viewer sees; `bookOverlay`
/// never flips, because the book does not.
///
/// **Terms.** With `a = ambient`, lights i (directional or point) of colour Cᵢ and intensity Iᵢ, attenuation
/// fᵢ (1 for directional lights), Lᵢ the normalised direction of travel at the point and N the (lit) normal:
/// - `bookOverlay`: overlay black with alpha `clamp(1 + Σ Iᵢ·fᵢ·(Lᵢ·N) − a, 0, 1)`, N the face's own normal.
///   With one light of intensity 1 this is exactly the book (which does not negate L). Colours and ambient
///   lights are ignored: the book's overlay is black.
/// - `lambert`: multiply by `clamp(a·Cₐ + (1 − a)·Σ Iᵢ·fᵢ·max(0, −Lᵢ·N)·Cᵢ)`, where the ambient colour Cₐ
///   is the sum of the ambient lights' `intensity × color` if there are any, else the mean colour of the
///   other lights, else white. One light of colour C gives `(a + (1 − a)·max(0, −L·N)·I) × C`.
/// - `blinnPhong`: `lambert`, plus an added `clamp(Σ Iᵢ·fᵢ·max(0, N·Hᵢ)^shininess·Cᵢ × specular)` for the
///   lights in front of the face (−L·N > 0), `Hᵢ = normalize(−Lᵢ + V)`, the viewer along `V = +z` of the
///   light's space.
///
/// **Point lights** are evaluated at the four corners of the bounds and delivered as
/// `FaceShade.vertexMultiply`/`vertexAdd` (the renderer paints a Gouraud gradient), unless
/// `pointLightSampling == .centre`. Under `bookOverlay`, per-corner shading is delivered as
/// `vertexMultiply` grey `1 − alpha`, which is what a black overlay of that alpha does to an opaque face.
public struct Lighting: Hashable, Sendable {
    /// How faces are shaded from the lights: see the type's description for each model's formula.
    public enum Model: String, Hashable, Sendable, Codable, CaseIterable {
        /// The book's black overlay with alpha `1 + L·N − ambient` (listing 5.10); diffuse shading that multiplies the
        /// face's colours; diffuse plus a specular highlight of exponent `shininess`.
        case bookOverlay, lambert, blinnPhong
    }

    /// Where point lights are evaluated.
    public enum PointLightSampling: String, Hashable, Sendable, Codable, CaseIterable {
        /// At the four corners of each face, painted as a gradient.
        case vertices
        /// At the face's centre, painted flat.
        case centre
    }

    /// The lights, in order; with none, faces get the ambient term alone.
    public var lights: [Light]
    /// The shading model; default `.lambert`.
    public var model: Model
    /// The ambient level, 0…1: the book's `AMBIENT_LIGHT`.
    public var ambient: Double
    /// The specular colour of `blinnPhong`.
    public var specular: Color
    /// The specular exponent of `blinnPhong`, ≥ 0.
    public var shininess: Double
    /// Light faces seen from behind with their flipped normal (`lambert`, `blinnPhong`).
    public var twoSided: Bool
    /// Where point lights are evaluated; default `.vertices` (per corner, painted as a gradient).
    public var pointLightSampling: PointLightSampling

    /// A lighting with the given lights; defaults: Lambert, ambient 0.5, white specular,
    /// shininess 32, two-sided, point lights per vertex.
    public init(lights: [Light], model: Model = .lambert, ambient: Double = 0.5, specular: Color = .white,
                shininess: Double = 32, twoSided: Bool = true, pointLightSampling: PointLightSampling = .vertices) {
        self.lights = lights; self.model = model; self.ambient = ambient; self.specular = specular
        self.shininess = shininess; self.twoSided = twoSided; self.pointLightSampling = pointLightSampling
    }

    /// The book's lighting (ch. 5): `LIGHT_DIRECTION 0, 1, -0.5`, `AMBIENT_LIGHT 0.5`, a black overlay, the
    /// normal from each face's own transform (object space).
    public static let book = Lighting(
        lights: [.directional(Light.bookDirection, space: .object)], model: .bookOverlay, ambient: 0.5)
}

/// Why a `Lighting` cannot be used. A lighting that fails `validate()` shades nothing.
public enum LightingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `ambient` is not a number in 0…1.
    case invalidAmbient(Double)
    /// `shininess` is negative or not finite.
    case invalidShininess(Double)
    /// A component of `specular` is not finite.
    case invalidSpecular
    /// `light` is the index in `lights`, from 0.
    case invalidLight(light: Int, reason: String)

    public var description: String {
        switch self {
        case let .invalidAmbient(a): return "ambient must be a number in 0...1, got \(a)"
        case let .invalidShininess(s): return "shininess must be a finite number ≥ 0, got \(s)"
        case .invalidSpecular: return "the specular colour has a component that is not finite"
        case let .invalidLight(i, reason): return "light \(i): \(reason)"
        }
    }
}

extension Lighting {
    /// Throws the first problem: ambient outside 0…1, a negative or non-finite shininess or intensity,
    /// a non-finite colour, a zero or non-finite direction, a non-finite position, a light with both a
    /// direction and a position, negative or all-zero attenuation coefficients.
    public func validate() throws(LightingError) {
        guard ambient.isFinite, (0...1).contains(ambient) else { throw .invalidAmbient(ambient) }
        guard shininess.isFinite, shininess >= 0 else { throw .invalidShininess(shininess) }
        guard specular.isFinite else { throw .invalidSpecular }
        for (i, light) in lights.enumerated() {
            func fail(_ reason: String) -> LightingError { .invalidLight(light: i, reason: reason) }
            guard light.intensity.isFinite, light.intensity >= 0 else {
                throw fail("intensity must be a finite number ≥ 0, got \(light.intensity)")
            }
            guard light.color.isFinite else { throw fail("the colour has a component that is not finite") }
            if light.direction != nil, light.position != nil {
                throw fail("a light has either a direction (directional) or a position (point), not both")
            }
            if let d = light.direction, d.normalized() == nil {
                throw fail("the direction \(d) is zero or not finite")
            }
            if let p = light.position {
                guard p.isFinite else { throw fail("the position \(p) is not finite") }
                let a = light.attenuation
                let coefficients = [a.constant, a.linear, a.quadratic]
                guard coefficients.allSatisfy({ $0.isFinite && $0 >= 0 }), coefficients.contains(where: { $0 > 0 }) else {
                    throw fail("attenuation coefficients must be finite, ≥ 0 and not all zero")
                }
            }
        }
    }
}
