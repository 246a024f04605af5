import Foundation
import Origami
import Testing
import TestSupport

/// DESIGN §1: Core Animation's matrix conventions — row vectors, translation in m41…m43, prepending
/// operations, rotation signs — pinned first, because every other result depends on them.
@Suite("Transform3D conventions")
struct Transform3DTests {
    // MARK: Order of composition

    @Test("Concat(Translate 10, Scale 2) applies the translation first: the origin lands on x = 20")
    func concatAppliesLeftFirst() throws {
        // (0,0,0) → translate → (10,0,0) → scale 2 → (20,0,0).
        let m = Transform3D(translationX: 10, y: 0, z: 0).concatenating(Transform3D(scaleX: 2, y: 2, z: 2))
        let origin = try #require(m.apply(Vector3.zero))
        expectApprox(origin, Vector3(20, 0, 0), tolerance: arithmeticTolerance)
        #expect(m.m41 == 20)
        // The operator is the same product.
        #expect(Transform3D(translationX: 10, y: 0) * Transform3D(scaleX: 2, y: 2) == m.with(m33: 1))
    }

    @Test("Translate(Scale 2, 10, 0, 0) prepends the translation: m41 = 20")
    func translatedPrepends() {
        // T · S: translate by 10 in the scaled layer's local space, then scale: 10 · 2 = 20.
        let m = Transform3D(scaleX: 2, y: 2, z: 2).translated(x: 10, y: 0, z: 0)
        #expect(m.m41 == 20)
        #expect(m.m11 == 2 && m.m22 == 2 && m.m33 == 2)
        // Whereas appending the translation (S · T) leaves it unscaled.
        let appended = Transform3D(scaleX: 2, y: 2, z: 2).concatenating(Transform3D(translationX: 10, y: 0, z: 0))
        #expect(appended.m41 == 10)
    }

    @Test("scaled and rotated also prepend")
    func scaledAndRotatedPrepend() throws {
        // Translate(100,0,0) then Scale(2) prepended: p·S·T, so (1,0,0) → (2,0,0) → (102,0,0).
        let scaled = Transform3D(translationX: 100, y: 0, z: 0).scaled(x: 2, y: 2, z: 2)
        expectApprox(try #require(scaled.apply(Vector3(1, 0, 0))), Vector3(102, 0, 0), tolerance: arithmeticTolerance)
        // Translate(100,0,0) then Rotate(π/2 about z) prepended: (1,0,0) → (0,1,0) → (100,1,0).
        let rotated = Transform3D(translationX: 100, y: 0, z: 0).rotated(by: .pi / 2, x: 0, y: 0, z: 1)
        expectApprox(try #require(rotated.apply(Vector3(1, 0, 0))), Vector3(100, 1, 0), tolerance: 1e-12)
    }

    @Test("Mutating forms equal the non-mutating ones")
    func mutatingForms() {
        var t = Transform3D.identity
        t.translate(x: 1, y: 2, z: 3)
        t.scale(x: 2, y: 3, z: 4)
        t.rotate(by: 0.3, x: 1, y: 2, z: 3)
        t.concatenate(Transform3D(translationX: 5, y: 6, z: 7))
        let expected = Transform3D.identity.translated(x: 1, y: 2, z: 3).scaled(x: 2, y: 3, z: 4)
            .rotated(by: 0.3, x: 1, y: 2, z: 3).concatenating(Transform3D(translationX: 5, y: 6, z: 7))
        #expect(t == expected)
    }

    @Test("Concatenation is not commutative")
    func notCommutative() {
        let r = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let t = Transform3D(translationX: 10, y: 0, z: 0)
        // r·t: (rotation then translation) keeps the translation (10, 0); t·r rotates it to (0, 10).
        let rt = r.concatenating(t), tr = t.concatenating(r)
        expectApprox(rt.m41, 10); expectApprox(rt.m42, 0)
        expectApprox(tr.m41, 0, tolerance: 1e-12); expectApprox(tr.m42, 10, tolerance: 1e-12)
    }

    // MARK: Factories

    @Test("Translation and scale put their values where CATransform3D does")
    func translationAndScaleLayout() {
        let t = Transform3D(translationX: 1, y: 2, z: 3)
        #expect(t.rowMajor == [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1])
        let s = Transform3D(scaleX: 4, y: 5, z: 6)
        #expect(s.rowMajor == [4, 0, 0, 0, 0, 5, 0, 0, 0, 0, 6, 0, 0, 0, 0, 1])
        #expect(Transform3D(scaleX: 4, y: 5).m33 == 1)
        #expect(Transform3D(translationX: 4, y: 5).m43 == 0)
    }

    @Test("Rotation about z: m11 = c, m12 = s, m21 = −s, m22 = c", arguments: [0.3, -1.2, .pi / 2, 2.5])
    func rotationAboutZ(angle: Double) {
        let c = cos(angle), s = sin(angle)
        let m = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
        let expected = Transform3D(
            m11: c, m12: s, m13: 0, m14: 0, m21: -s, m22: c, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
        expectApprox(m, expected, tolerance: 1e-15)
    }

    @Test("Rotation about y: m13 = −s, m31 = s", arguments: [0.3, -1.2, .pi / 4])
    func rotationAboutY(angle: Double) {
        let c = cos(angle), s = sin(angle)
        let m = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)
        let expected = Transform3D(
            m11: c, m12: 0, m13: -s, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
            m31: s, m32: 0, m33: c, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
        expectApprox(m, expected, tolerance: 1e-15)
    }

    @Test("Rotation about x: m23 = s, m32 = −s", arguments: [0.3, -1.2, -.pi / 4])
    func rotationAboutX(angle: Double) {
        let c = cos(angle), s = sin(angle)
        let m = Transform3D(rotationAngle: angle, x: 1, y: 0, z: 0)
        let expected = Transform3D(
            m11: 1, m12: 0, m13: 0, m14: 0, m21: 0, m22: c, m23: s, m24: 0,
            m31: 0, m32: -s, m33: c, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
        expectApprox(m, expected, tolerance: 1e-15)
    }

    @Test("With y down, a positive rotation about z turns +x towards +y (clockwise on screen)")
    func positiveZRotationIsClockwise() throws {
        let p = try #require(Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1).apply(Vector3(1, 0, 0)))
        expectApprox(p, Vector3(0, 1, 0), tolerance: 1e-15)
    }

    @Test("A non-normalised axis gives the same rotation as the unit axis")
    func nonNormalisedAxis() {
        expectApprox(Transform3D(rotationAngle: 0.7, x: 0, y: 0, z: 5),
                     Transform3D(rotationAngle: 0.7, x: 0, y: 0, z: 1), tolerance: 1e-15)
        expectApprox(Transform3D(rotationAngle: 0.7, x: 0, y: -3, z: 0),
                     Transform3D(rotationAngle: -0.7, x: 0, y: 1, z: 0), tolerance: 1e-15)
        // 120° about (1,1,1) is the cyclic permutation x → y → z → x (a right-handed turn about the
        // diagonal), so row i is the unit vector the i-th axis goes to.
        let m = Transform3D(rotationAngle: 2 * .pi / 3, x: 2, y: 2, z: 2)
        let expected = Transform3D(
            m11: 0, m12: 1, m13: 0, m14: 0, m21: 0, m22: 0, m23: 1, m24: 0,
            m31: 1, m32: 0, m33: 0, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
        expectApprox(m, expected, tolerance: 1e-15)
    }

    @Test("A zero or non-finite axis gives the identity",
          arguments: [(0.0, 0.0, 0.0), (-0.0, 0.0, -0.0), (.nan, 0, 1), (.infinity, 0, 0), (1, -.infinity, 0)])
    func degenerateAxis(axis: (Double, Double, Double)) {
        #expect(Transform3D(rotationAngle: 1, x: axis.0, y: axis.1, z: axis.2).isIdentity)
        #expect(CATransform3DMakeRotation(1, axis.0, axis.1, axis.2).isIdentity)
    }

    @Test("A rotation by ±0 is the identity; a NaN angle gives a non-finite matrix that does not invert")
    func specialAngles() {
        #expect(Transform3D(rotationAngle: 0, x: 0, y: 1, z: 0).isIdentity)
        #expect(Transform3D(rotationAngle: -0.0, x: 1, y: 1, z: 0).isIdentity)
        let nan = Transform3D(rotationAngle: .nan, x: 0, y: 0, z: 1)
        #expect(!nan.isFinite)
        #expect(nan.inverted() == nil)
    }

    @Test("Rotations preserve lengths and have determinant 1")
    func rotationIsOrthonormal() {
        let m = Transform3D(rotationAngle: 1.1, x: 1, y: -2, z: 0.5)
        expectApprox(m.determinant, 1, tolerance: 1e-12)
        let mmt = m.concatenating(m.transposed)
        expectApprox(mmt, .identity, tolerance: 1e-12)
    }

    // MARK: Perspective

    @Test("perspective(distance:) is the book's m34 = −1/d")
    func perspectiveHelper() throws {
        let p = Transform3D.perspective(distance: 500)
        #expect(p.m34 == -1.0 / 500.0)
        var book = Transform3D.identity
        book.m34 = -1.0 / 500.0
        #expect(p == book)
        // (100, 0, 100): w = 1 + 100·(−1/500) = 0.8, so x = z = 100/0.8 = 125.
        let q = try #require(p.apply(Vector3(100, 0, 100)))
        expectApprox(q, Vector3(125, 0, 125), tolerance: 1e-12)
        // On the z = 0 plane perspective does nothing.
        expectApprox(try #require(p.apply(Vector3(30, -40, 0))), Vector3(30, -40, 0), tolerance: 0)
    }

    @Test("perspective(distance:) with a non-positive or non-finite distance is the identity",
          arguments: [0.0, -0.0, -500, .infinity, -.infinity, .nan])
    func perspectiveDegenerate(distance: Double) {
        #expect(Transform3D.perspective(distance: distance).isIdentity)
    }

    @Test("A point at or behind the eye has no image", arguments: [500.0, 501, 1000, .infinity])
    func behindTheEye(z: Double) {
        #expect(Transform3D.perspective(distance: 500).apply(Vector3(10, 10, z)) == nil)
    }

    @Test("Homogeneous application keeps w")
    func homogeneousApply() {
        // (1,2,3,1)·P₅₀₀ = (1, 2, 3, 1 − 3/500).
        let v = Transform3D.perspective(distance: 500).apply(Vector4(x: 1, y: 2, z: 3, w: 1))
        #expect(v.x == 1 && v.y == 2 && v.z == 3)
        expectApprox(v.w, 1 - 3.0 / 500, tolerance: 1e-15)
        #expect(Vector4(x: 1, y: 1, z: 1, w: 0).projected == nil)
        #expect(Vector4(x: 1, y: 1, z: 1, w: -0.0).projected == nil)
        #expect(Vector4(x: .nan, y: 1, z: 1, w: 1).projected == nil)
        #expect(Vector4(x: 2, y: 4, z: 6, w: 2).projected == Vector3(1, 2, 3))
    }

    // MARK: Predicates and parts

    @Test("isIdentity is exact, and treats −0 as 0")
    func isIdentity() {
        #expect(Transform3D.identity.isIdentity)
        var negativeZero = Transform3D.identity
        negativeZero.m12 = -0.0
        negativeZero.m43 = -0.0
        #expect(negativeZero.isIdentity)
        var tiny = Transform3D.identity
        tiny.m41 = 1e-300
        #expect(!tiny.isIdentity)
        // sin(2π) is not exactly 0, and CATransform3DIsIdentity is an exact comparison.
        #expect(!Transform3D(rotationAngle: 2 * .pi, x: 0, y: 0, z: 1).isIdentity)
        var nan = Transform3D.identity
        nan.m11 = .nan
        #expect(!nan.isIdentity)
    }

    @Test("isAffine: only m11 m12 m21 m22 m41 m42 may differ from the identity")
    func isAffine() {
        #expect(Transform3D.identity.isAffine)
        #expect(Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1).translated(x: 3, y: 4).scaled(x: 2, y: -1).isAffine)
        #expect(!Transform3D.perspective(distance: 500).isAffine)
        #expect(!Transform3D(rotationAngle: 0.4, x: 0, y: 1, z: 0).isAffine)
        #expect(!Transform3D(translationX: 0, y: 0, z: 1).isAffine)
        #expect(!Transform3D(scaleX: 1, y: 1, z: 2).isAffine)
        for index in [2, 3, 6, 7, 8, 9, 11, 15] {
            var values = Transform3D.identity.rowMajor
            values[index] += 0.5
            #expect(Transform3D(rowMajor: values)?.isAffine == false, "element \(index) set")
        }
    }

    @Test("The affine part round-trips and ignores the other elements")
    func affinePart() {
        let a = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = Transform3D(a)
        #expect(t.rowMajor == [1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1])
        #expect(t.affinePart == a)
        #expect(t.isAffine)
        var noisy = t
        noisy.m34 = -0.002; noisy.m13 = 7; noisy.m43 = 9
        #expect(noisy.affinePart == a)
        // Through the compatibility names.
        #expect(CATransform3DGetAffineTransform(CATransform3DMakeAffineTransform(a)) == a)
    }

    @Test("rowMajor and the subscript address the same elements")
    func elementAccess() {
        let values = (1...16).map(Double.init)
        guard let t = Transform3D(rowMajor: values) else { Issue.record("16 values refused"); return }
        #expect(t.rowMajor == values)
        #expect(t.m34 == 12 && t.m41 == 13)
        #expect(t[0, 0] == 1 && t[2, 3] == 12 && t[3, 0] == 13 && t[3, 3] == 16)
        var u = t
        u[1, 2] = -7
        #expect(u.m23 == -7)
        #expect(Transform3D(rowMajor: Array(values.dropLast())) == nil)
        #expect(Transform3D(rowMajor: []) == nil)
        #expect(Transform3D(rowMajor: values + [17]) == nil)
    }

    @Test("Determinant, transpose and linear part")
    func determinantTransposeLinear() {
        #expect(Transform3D(scaleX: 2, y: 3, z: 4).determinant == 24)
        #expect(Transform3D(translationX: 7, y: 8, z: 9).determinant == 1)
        // Perspective: the block [[1, −1/500],[0, 1]] in rows/cols 3, 4 has determinant 1.
        #expect(Transform3D.perspective(distance: 500).determinant == 1)
        guard let t = Transform3D(rowMajor: (1...16).map(Double.init)) else { return }
        #expect(t.transposed.rowMajor == [1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, 4, 8, 12, 16])
        #expect(t.transposed.transposed == t)
        #expect(t.determinant == 0) // rows in arithmetic progression are dependent
        #expect(t.linearPart.elements == [1, 2, 3, 5, 6, 7, 9, 10, 11])
    }

    // MARK: Inverse

    @Test("Inverses of known transforms")
    func knownInverses() throws {
        let t = try #require(Transform3D(translationX: 3, y: -4, z: 5).inverted())
        expectApprox(t, Transform3D(translationX: -3, y: 4, z: -5), tolerance: arithmeticTolerance)
        let s = try #require(Transform3D(scaleX: 2, y: -4, z: 0.5).inverted())
        expectApprox(s, Transform3D(scaleX: 0.5, y: -0.25, z: 2), tolerance: arithmeticTolerance)
        let r = Transform3D(rotationAngle: 0.9, x: 1, y: 2, z: -2)
        expectApprox(try #require(r.inverted()), r.transposed, tolerance: 1e-12)
        // The inverse of a perspective m34 = −1/d is m34 = +1/d.
        let p = try #require(Transform3D.perspective(distance: 500).inverted())
        expectApprox(p.m34, 1.0 / 500, tolerance: 1e-15)
        #expect(Transform3D.identity.inverted() == .identity)
    }

    @Test("M · M⁻¹ ≈ I for well-conditioned random matrices", arguments: 0..<20)
    func randomInverse(seed: Int) throws {
        var rng = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 1)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &rng) }
        // Rotation, non-degenerate scale, translation and a mild perspective: all invertible with a condition
        // number far below 1e6.
        var m = Transform3D(rotationAngle: r(-3...3), x: r(-1...1), y: r(-1...1), z: r(0.1...1))
            .concatenating(Transform3D(scaleX: r(0.5...2), y: r(0.5...2), z: r(0.5...2)))
            .concatenating(Transform3D(translationX: r(-100...100), y: r(-100...100), z: r(-100...100)))
        m.m34 = -1 / r(300...1000)
        let inverse = try #require(m.inverted())
        expectApprox(m.concatenating(inverse), .identity, tolerance: 1e-9)
        expectApprox(inverse.concatenating(m), .identity, tolerance: 1e-9)
    }

    @Test("Inversion does not depend on the overall scale of the matrix", arguments: [1e-6, 1e-3, 1e3, 1e8])
    func scaleIndependentInverse(k: Double) throws {
        let inverse = try #require(Transform3D(scaleX: k, y: k, z: k).inverted())
        expectApprox(inverse.m11 * k, 1, tolerance: 1e-12)
        expectApprox(inverse.m33 * k, 1, tolerance: 1e-12)
    }

    @Test("Singular matrices have no inverse; CATransform3DInvert returns them unchanged")
    func singular() {
        let flat = Transform3D(scaleX: 1, y: 1, z: 0)
        #expect(flat.inverted() == nil)
        #expect(CATransform3DInvert(flat) == flat)
        let zero = Transform3D(rowMajor: Array(repeating: 0, count: 16)) ?? .identity
        #expect(zero.inverted() == nil)
        #expect(CATransform3DInvert(zero) == zero)
        // Dependent rows: row 2 = 2 · row 1.
        let dependent = Transform3D(
            m11: 1, m12: 2, m13: 3, m14: 0, m21: 2, m22: 4, m23: 6, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0, m41: 5, m42: 6, m43: 7, m44: 1)
        #expect(dependent.inverted() == nil)
        #expect(CATransform3DInvert(dependent) == dependent)
        // A rotation by 90° about y of a plane is fine in 3D (only the 2D plane map becomes singular).
        #expect(Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0).inverted() != nil)
        // And an invertible one is inverted by the compat name too.
        let s = Transform3D(scaleX: 2, y: 2, z: 2)
        #expect(CATransform3DInvert(s) == Transform3D(scaleX: 0.5, y: 0.5, z: 0.5))
    }

    @Test("NaN or ∞ anywhere: no inverse, and CATransform3DInvert returns the input",
          arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteInverse(value: Double) {
        for index in [0, 5, 11, 14] {
            var values = Transform3D.identity.rowMajor
            values[index] = value
            guard let t = Transform3D(rowMajor: values) else { continue }
            #expect(!t.isFinite)
            #expect(t.inverted() == nil)
            let r = CATransform3DInvert(t)
            #expect(r.rowMajor.map(\.bitPattern) == t.rowMajor.map(\.bitPattern))
        }
    }

    @Test("isFinite (summed residues, one test) equals every element's own test, for each element and edge value")
    func isFiniteElementByElement() {
        // Finite extremes (their residues are exact zeros too) and every non-finite value.
        let values: [Double] = [.greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -0.0,
                                1e308, .nan, -.nan, .signalingNaN, .infinity, -.infinity]
        for value in values {
            for index in 0..<16 {
                var values = Transform3D.identity.rowMajor
                values[index] = value
                let t = Transform3D(rowMajor: values)!
                #expect(t.isFinite == values.allSatisfy(\.isFinite))
                var geometry = LayerGeometry()
                geometry.transform = t
                #expect(geometry.isFinite == value.isFinite)
                geometry = LayerGeometry()
                geometry.sublayerTransform = t
                #expect(geometry.isFinite == value.isFinite)
                if index < 9 {
                    var e = Array(repeating: 1.0, count: 9)
                    e[index] = value
                    let m = Matrix3(m11: e[0], m12: e[1], m13: e[2], m21: e[3], m22: e[4], m23: e[5],
                                    m31: e[6], m32: e[7], m33: e[8])
                    #expect(m.isFinite == value.isFinite)
                }
            }
            // The scalar properties, each alone: `isFinite` agrees with `nonFiniteProperty`.
            let edits: [(inout LayerGeometry) -> Void] = [
                { $0.bounds.origin.x = CGFloat(value) }, { $0.bounds.origin.y = CGFloat(value) },
                { $0.bounds.size.width = CGFloat(value) }, { $0.bounds.size.height = CGFloat(value) },
                { $0.position.x = CGFloat(value) }, { $0.position.y = CGFloat(value) },
                { $0.anchorPoint.x = CGFloat(value) }, { $0.anchorPoint.y = CGFloat(value) },
                { $0.anchorPointZ = value }, { $0.zPosition = value },
            ]
            for edit in edits {
                var geometry = LayerGeometry()
                edit(&geometry)
                #expect(geometry.isFinite == value.isFinite)
                #expect(geometry.isFinite == (geometry.nonFiniteProperty == nil))
            }
        }
    }

    @Test("Approximate equality is per element and not exact equality")
    func approximateEquality() {
        var t = Transform3D.identity
        t.m42 = 1e-10
        #expect(t.isApproximatelyEqual(to: .identity))
        #expect(t != .identity)
        t.m42 = 1e-8
        #expect(!t.isApproximatelyEqual(to: .identity))
        #expect(t.isApproximatelyEqual(to: .identity, absoluteTolerance: 1e-7))
        var nan = Transform3D.identity
        nan.m11 = .nan
        #expect(!nan.isApproximatelyEqual(to: nan))
    }
}

extension Transform3D {
    /// A copy with `m33` replaced, for comparing 2D-only products.
    fileprivate func with(m33 value: Double) -> Transform3D {
        var t = self
        t.m33 = value
        return t
    }
}
