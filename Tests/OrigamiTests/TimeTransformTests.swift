import Foundation
import Origami
import Testing

/// Transform animations: a whole `transform` interpolates by decomposition (CSS Transforms 2, "Interpolation of 3D
/// matrices"), a sub-path animates its scalar and becomes a matrix as CAValueFunction does.
@Suite("Time: transform animations")
struct TimeTransformTests {
    static func rotation(_ a: Double, x: Double = 0, y: Double = 0, z: Double = 0) -> Transform3D {
        Transform3D(rotationAngle: a, x: x, y: y, z: z)
    }

    /// The presented transform of a root with a `path` animation from → to over 1 s, at fraction `f`.
    static func presented(_ path: String = "transform", from: AnimationValue?, to: AnimationValue?, at f: Double,
                          model: Transform3D = .identity, additive: Bool = false) -> Transform3D {
        let layer = Layer()
        layer.transform = model
        let a = BasicAnimation(keyPath: path)
        a.fromValue = from; a.toValue = to; a.duration = 1; a.isAdditive = additive
        a.fillMode = .forwards; a.isRemovedOnCompletion = false
        layer.add(a, forKey: "t")
        return PresentationTree(layer, time: f)[0].geometry.transform
    }

    static func expectClose(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.isApproximatelyEqual(to: b, absoluteTolerance: tolerance), "\(a)\nexpected\n\(b)", sourceLocation: sourceLocation)
    }

    /// Two rotations about one axis: their quaternions (axis·sin(θ/2), cos(θ/2)) slerp along the great circle, so
    /// the angle grows linearly: 0 → 90° about z is 22.5° at ¼ and 45° at ½; 0 → 180° about y is 45° and 90°.
    @Test("rotation pairs interpolate their angle", arguments: [0.25, 0.5])
    func rotations(f: Double) {
        Self.expectClose(Self.presented(from: .transform(.identity), to: .transform(Self.rotation(.pi / 2, z: 1)), at: f),
                         Self.rotation(f * .pi / 2, z: 1))
        Self.expectClose(Self.presented(from: .transform(.identity), to: .transform(Self.rotation(.pi, y: 1)), at: f),
                         Self.rotation(f * .pi, y: 1))
        // 30° → 90° about x: 45° at ¼, 60° at ½.
        Self.expectClose(Self.presented(from: .transform(Self.rotation(.pi / 6, x: 1)),
                                        to: .transform(Self.rotation(.pi / 2, x: 1)), at: f),
                         Self.rotation(.pi / 6 + f * .pi / 3, x: 1))
    }

    /// Scale 1 → 3 then a translation 0 → (100, 40, 20) (row vectors: scale applied first, so the translation row
    /// is not scaled): both parts linear, scale 1.5 / 2 and translation (25, 10, 5) / (50, 20, 10).
    @Test("scale and translation pairs interpolate each part linearly", arguments: [0.25, 0.5])
    func scaleAndTranslation(f: Double) {
        let to = Transform3D(scaleX: 3, y: 3, z: 3).concatenating(Transform3D(translationX: 100, y: 40, z: 20))
        let s = 1 + 2 * f
        let expected = Transform3D(scaleX: s, y: s, z: s).concatenating(Transform3D(translationX: 100 * f, y: 40 * f, z: 20 * f))
        Self.expectClose(Self.presented(from: .transform(.identity), to: .transform(to), at: f), expected)
    }

    /// A perspective `m34 = −1/d` decomposes to the perspective vector (0, 0, −1/d, 1), which interpolates linearly:
    /// identity → d 100 is m34 −0.0025 at ¼ and −0.005 at ½; d 100 → d 200 (−0.01 → −0.005) is −0.00875 and −0.0075.
    @Test("perspective pairs interpolate m34 linearly", arguments: [0.25, 0.5])
    func perspective(f: Double) {
        var expected = Transform3D.identity
        expected.m34 = -0.01 * f
        Self.expectClose(Self.presented(from: .transform(.identity), to: .transform(.perspective(distance: 100)), at: f), expected)
        expected.m34 = -0.01 + 0.005 * f
        Self.expectClose(Self.presented(from: .transform(.perspective(distance: 100)),
                                        to: .transform(.perspective(distance: 200)), at: f), expected)
    }

    @Test("a matrix that cannot be decomposed jumps half-way, as CSS says")
    func singular() {
        let flat = Transform3D(scaleX: 0, y: 1, z: 1)
        let turned = Self.rotation(.pi / 2, z: 1)
        #expect(Self.presented(from: .transform(flat), to: .transform(turned), at: 0.49) == flat)
        #expect(Self.presented(from: .transform(flat), to: .transform(turned), at: 0.5) == turned)
    }

    /// M = X · T(t) · P with X a scale, a skew and a rotation, and P a perspective (m34 = −1/400): its parts are X's,
    /// t and P's column. Two such matrices differing only in t meet half-way at X · T(mean t) · P, every other part
    /// recomposed from its decomposition unchanged — divided through by its m44 (1 − t_z/400), as the decomposition
    /// normalises the matrix first (the same projective transform).
    @Test("a compound matrix decomposes and recomposes: only the part that differs moves")
    func compound() {
        var skew = Transform3D.identity
        skew.m21 = 0.3
        let x = Transform3D(scaleX: 2, y: -0.5, z: 1.5).concatenating(skew).concatenating(Self.rotation(0.7, x: 1, y: 2, z: -1))
        var p = Transform3D.identity
        p.m34 = -1.0 / 400
        func m(_ tx: Double) -> Transform3D {
            let m = x.concatenating(Transform3D(translationX: tx, y: -20, z: 30)).concatenating(p)
            return Transform3D(rowMajor: m.rowMajor.map { $0 / m.m44 }) ?? m
        }
        Self.expectClose(Self.presented(from: .transform(m(10)), to: .transform(m(18)), at: 0.5), m(14))
        Self.expectClose(Self.presented(from: .transform(m(10)), to: .transform(m(18)), at: 0.25), m(12))
    }

    // MARK: Sub-paths

    @Test("transform.rotation.y 0 → 2π turns once; the animated matrix replaces the model transform")
    func rotationSubPath() {
        let model = Transform3D(translationX: 50, y: 0, z: 0)
        for f in [0.25, 0.5, 0.75] {
            Self.expectClose(Self.presented("transform.rotation.y", from: 0, to: .number(2 * .pi), at: f, model: model),
                             Self.rotation(2 * .pi * f, y: 1))
        }
        // `rotation` is about z.
        Self.expectClose(Self.presented("transform.rotation", from: 0, to: .number(.pi), at: 0.5), Self.rotation(.pi / 2, z: 1))
    }

    @Test("an additive sub-path is applied before the model transform")
    func additiveSubPath() {
        // Rz(90°) then T(50, 0): the point (1, 0) goes to (0, 1) and then to (50, 1).
        let model = Transform3D(translationX: 50, y: 0, z: 0)
        let m = Self.presented("transform.rotation.z", from: 0, to: .number(.pi / 2), at: 1, model: model, additive: true)
        let p = m.apply(Vector3(1, 0, 0))
        #expect(p.map { abs($0.x - 50) < 1e-12 && abs($0.y - 1) < 1e-12 } == true)
    }

    @Test("scale, translation and their axes", arguments: [
        ("transform.scale", AnimationValue.number(3), Transform3D(scaleX: 2, y: 2, z: 2)),
        ("transform.scale.y", 3, Transform3D(scaleX: 1, y: 2, z: 1)),
        ("transform.translation", .size(CGSize(width: 40, height: -20)), Transform3D(translationX: 20, y: -10, z: 0)),
        ("transform.translation.z", 40, Transform3D(translationX: 0, y: 0, z: 20)),
        ("sublayerTransform.rotation.x", .number(.pi), Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0)),
    ])
    func subPaths(path: String, to: AnimationValue, half: Transform3D) {
        // From the value read off the identity model (scale 1, translation 0, rotation 0) to `to`, half-way.
        let layer = Layer()
        let a = BasicAnimation(keyPath: path)
        a.toValue = to; a.duration = 1
        layer.add(a, forKey: "t")
        let g = PresentationTree(layer, time: 0.5)[0].geometry
        Self.expectClose(path.hasPrefix("sublayer") ? g.sublayerTransform : g.transform, half)
    }
}
