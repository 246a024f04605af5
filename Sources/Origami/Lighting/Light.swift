import Foundation

/// A light, as a small value (ShapeScript style): its kind follows from which of `direction` and `position`
/// is set — neither: ambient; `direction`: directional; `position`: point. Core Animation has no lights; the
/// book shades each face by hand from one directional light (`LIGHT_DIRECTION`) and an ambient level.
public struct Light: Hashable, Sendable {
    /// Which transforms carry a face's normal (and position) into the space the light is given in
    /// (DESIGN §4; the matrices are the fields of `FaceTransforms`).
    public enum Space: String, Hashable, Sendable, Codable, CaseIterable {
        /// The face relative to its solid (the solid's bounds space — for a `Solid`, its model space with the
        /// origin at its centre): the light turns with the solid. For a face that is a direct sublayer of the
        /// context, its own placement in the context. This is the book's choice (`face.transform`).
        case object
        /// The 3D context's bounds space before its `sublayerTransform` (the camera): the light stays put
        /// while the camera moves and turns the solid under it.
        case scene
        /// The 3D context's bounds space after the affine part of the camera (its rotation and scale, not its
        /// perspective): a head-lamp that turns with the camera.
        case view
    }

    /// What a light is, which follows from the fields set: neither `direction` nor `position` is `ambient`,
    /// `direction` is `directional`, `position` is `point`.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A uniform level added to every face (`ambient`); parallel rays along `direction` (`directional`: the book's
        /// `LIGHT_DIRECTION`); rays from `position`, attenuated with distance (`point`).
        case ambient, directional, point
    }

    /// Distance attenuation of a point light: the light is divided by `constant + linear·d + quadratic·d²`
    /// (d in points, measured in the light's space). All coefficients are ≥ 0 and not all zero.
    public struct Attenuation: Hashable, Sendable, Codable {
        /// The coefficients of `constant + linear·d + quadratic·d²`; defaults 1, 0, 0 (no attenuation).
        public var constant: Double, linear: Double, quadratic: Double

        /// Attenuation by `constant + linear·d + quadratic·d²`, d in points.
        public init(constant: Double = 1, linear: Double = 0, quadratic: Double = 0) {
            self.constant = constant; self.linear = linear; self.quadratic = quadratic
        }

        /// No attenuation: `1 / (1 + 0·d + 0·d²)`.
        public static let none = Attenuation()

        /// The factor at distance `d`.
        public func factor(atDistance d: Double) -> Double { 1 / (constant + linear * d + quadratic * d * d) }
    }

    /// The direction the light **travels** (it need not be normalised): the book's `(0, 1, −0.5)` comes from
    /// above and in front and goes down and into the screen. Set for a directional light.
    public var direction: Vector3?
    /// Where a point light is, in its `space`.
    public var position: Vector3?
    /// The light's colour; default white.
    public var color: Color
    /// Scales the light's contribution; ≥ 0.
    public var intensity: Double
    /// The space `direction` and `position` are given in; default `.scene`.
    public var space: Space
    /// For point lights only.
    public var attenuation: Attenuation

    /// A light whose kind follows from the fields given (neither `direction` nor `position`: ambient).
    /// Giving both is refused by `Lighting.validate()`.
    public init(direction: Vector3? = nil, position: Vector3? = nil, color: Color = .white, intensity: Double = 1,
                space: Space = .scene, attenuation: Attenuation = .none) {
        self.direction = direction; self.position = position; self.color = color; self.intensity = intensity
        self.space = space; self.attenuation = attenuation
    }

    /// A point light if `position` is set, else directional if `direction` is, else ambient.
    public var kind: Kind { position != nil ? .point : direction != nil ? .directional : .ambient }
}

extension Light {
    /// A light travelling along `direction` (not necessarily normalised).
    public static func directional(_ direction: Vector3, color: Color = .white, intensity: Double = 1,
                                   space: Space = .scene) -> Light {
        Light(direction: direction, color: color, intensity: intensity, space: space)
    }

    /// A light shining from `position` in all directions.
    public static func point(at position: Vector3, color: Color = .white, intensity: Double = 1,
                             space: Space = .scene, attenuation: Attenuation = .none) -> Light {
        Light(position: position, color: color, intensity: intensity, space: space, attenuation: attenuation)
    }

    /// Light from everywhere: it sets the colour of the ambient term (see `Lighting`).
    public static func ambient(color: Color = .white, intensity: Double = 1) -> Light {
        Light(color: color, intensity: intensity)
    }

    /// The book's `LIGHT_DIRECTION 0, 1, -0.5` (ch. 5, listing 5.10).
    public static let bookDirection = Vector3(0, 1, -0.5)
}
