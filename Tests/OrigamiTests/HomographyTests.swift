import Foundation
import Origami
import Testing
import TestSupport

/// DESIGN §2: one plane maps onto another by the 3×3 homography made of rows and columns 1, 2, 4 of the 4×4
/// chain; W ≤ 0 is behind the viewer and a singular map is an edge-on plane.
@Suite("Homography, Matrix3 and vectors")
struct HomographyTests {
    /// The book's listing 5.x: rotate 45° about y, then perspective m34 = −1/500.
    static let tilted = Transform3D(rotationAngle: .pi / 4, x: 0, y: 1, z: 0)
        .concatenating(.perspective(distance: 500))

    @Test("From a Transform3D: rows and columns 1, 2, 4")
    func fromTransform() {
        guard let t = Transform3D(rowMajor: (1...16).map(Double.init)) else { return }
        #expect(Homography(t).matrix.elements == [1, 2, 4, 5, 6, 8, 13, 14, 16])
        #expect(Homography(Transform3D.identity) == .identity)
        // A pure perspective does nothing to the z = 0 plane: its m34 lives in the dropped z row.
        #expect(Homography(Transform3D.perspective(distance: 500)) == .identity)
    }

    @Test("Applying the tilted plane's map: (x, y) ↦ (c·x, y) / (1 + s·x/500)")
    func applyTilted() throws {
        // Ry(π/4)·P has m11 = c, m14 = m13·m34 = (−s)(−1/500) = s/500, so (x, y, 1)·H = (c·x, y, 1 + s·x/500).
        let h = Homography(HomographyTests.tilted)
        let s = 0.5.squareRoot()
        let w = 1 + s * 100 / 500
        expectApprox(h.apply(CGPoint(100, 50)), CGPoint(s * 100 / w, 50 / w), tolerance: 1e-12)
        let homogeneous = h.applyHomogeneous(CGPoint(100, 50))
        expectApprox(homogeneous, Vector3(s * 100, 50, w), tolerance: 1e-12)
        // And back.
        expectApprox(h.unapply(CGPoint(s * 100 / w, 50 / w)), CGPoint(100, 50), tolerance: 1e-9)
    }

    @Test("Apply then unapply is the identity on visible points", arguments: [(0.0, 0.0), (-200, 30), (350, -120), (-0.0, -0.0)])
    func roundTrip(point: (Double, Double)) throws {
        let h = Homography(HomographyTests.tilted.concatenating(Transform3D(translationX: 100, y: 50, z: 0)))
        let p = CGPoint(point.0, point.1)
        let image = try #require(h.apply(p))
        expectApprox(h.unapply(image), p, tolerance: 1e-9)
    }

    @Test("A point at or behind the eye (W ≤ 0) has no image")
    func behindTheEye() {
        let h = Homography(HomographyTests.tilted)
        let s = 0.5.squareRoot()
        // W = 1 + s·x/500 is 0 at x = −500/s and negative beyond.
        #expect(h.apply(CGPoint(-500 / s, 0)) == nil)
        #expect(h.apply(CGPoint(-1000, 0)) == nil)
        // Images of visible points satisfy c·x/(1 + s·x/500) < 500 (the vanishing line is X = 500); X = 600
        // solves to x = −600/(0.2·s) ≈ −4243, where W = −5: behind the viewer.
        #expect(h.unapply(CGPoint(600, 0)) == nil)
        #expect(h.apply(CGPoint(-4243, 0)) == nil)
        // Close to the vanishing line but in front: x = −700 gives W = 1 − 700s/500 ≈ 0.0101, a large but real image.
        let w = 1 - 700 * s / 500
        expectApprox(h.apply(CGPoint(-700, 0)), CGPoint(-700 * s / w, 0), tolerance: 1e-6)
    }

    @Test("An edge-on plane (90° about y with perspective) cannot be unapplied")
    func edgeOn() {
        let h = Homography(Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0).concatenating(.perspective(distance: 500)))
        #expect(h.inverted() == nil)
        #expect(h.unapply(CGPoint(0, 0)) == nil)
        #expect(h.unapply(CGPoint(10, 20)) == nil)
        // Without perspective too: every point lands on the line x = 0.
        #expect(Homography(Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0)).unapply(CGPoint(5, 5)) == nil)
    }

    @Test("Non-finite points and maps give nil")
    func nonFinite() {
        let h = Homography(HomographyTests.tilted)
        #expect(h.apply(CGPoint(.nan, 0)) == nil)
        #expect(h.apply(CGPoint(0, .infinity)) == nil)
        #expect(h.unapply(CGPoint(.nan, 0)) == nil)
        var m = Matrix3.identity
        m.m31 = .nan
        #expect(Homography(m).apply(CGPoint(1, 1)) == nil)
        #expect(Homography(m).unapply(CGPoint(1, 1)) == nil)
        #expect(Homography(m).inverted() == nil)
    }

    @Test("concatenating applies self first")
    func concatenation() throws {
        let translate = Homography(Transform3D(translationX: 10, y: 0, z: 0))
        let scale = Homography(Transform3D(scaleX: 2, y: 2, z: 1))
        expectApprox(translate.concatenating(scale).apply(.zero), CGPoint(20, 0), tolerance: 0)
        expectApprox(scale.concatenating(translate).apply(.zero), CGPoint(10, 0), tolerance: 0)
        let inverse = try #require(translate.concatenating(scale).inverted())
        expectApprox(inverse.apply(CGPoint(20, 0)), .zero, tolerance: 1e-12)
    }

    // MARK: Matrix3

    @Test("Matrix3: product, determinant, transpose, inverse")
    func matrix3() throws {
        let m = Matrix3(m11: 2, m12: 0, m13: 1, m21: 1, m22: 3, m23: 0, m31: 0, m32: 1, m33: 4)
        // det = 2(12 − 0) − 0 + 1(1 − 0) = 25.
        #expect(m.determinant == 25)
        #expect(m.transposed.elements == [2, 1, 0, 0, 3, 1, 1, 0, 4])
        #expect(m.concatenating(.identity) == m && Matrix3.identity * m == m)
        let inverse = try #require(m.inverted())
        expectApprox(m * inverse, .identity, tolerance: 1e-15)
        expectApprox(inverse * m, .identity, tolerance: 1e-15)
        // Row vector: (1, 1, 1)·M = column sums = (3, 4, 5).
        #expect(m.apply(Vector3(1, 1, 1)) == Vector3(3, 4, 5))
    }

    @Test("Matrix3: singular, scaled and non-finite")
    func matrix3Specials() {
        let singular = Matrix3(m11: 1, m12: 2, m13: 3, m21: 2, m22: 4, m23: 6, m31: 0, m32: 0, m33: 1)
        #expect(singular.inverted() == nil)
        let tiny = Matrix3(m11: 1e-7, m12: 0, m13: 0, m21: 0, m22: 1e-7, m23: 0, m31: 0, m32: 0, m33: 1e-7)
        #expect(tiny.inverted() != nil)
        // A row collapsed to rounding noise next to the others (cos(π/2) ≈ 6e-17): singular, although
        // Hadamard's bound alone would scale the row away.
        let collapsed = Matrix3(m11: 1, m12: 0, m13: 0, m21: 0, m22: cos(Double.pi / 2), m23: 0, m31: 100, m32: 50, m33: 1)
        #expect(collapsed.inverted() == nil)
        // Anisotropic but real (1 : 1e-6) is fine.
        let thin = Matrix3(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1e-6, m23: 0, m31: 0, m32: 0, m33: 1)
        #expect(thin.inverted() != nil)
        var inf = Matrix3.identity
        inf.m22 = .infinity
        #expect(inf.inverted() == nil)
        #expect(!inf.isFinite)
    }

    // MARK: Vectors

    @Test("Vector3 arithmetic")
    func vector3() {
        let a = Vector3(1, 2, 3), b = Vector3(4, -5, 6)
        #expect(a + b == Vector3(5, -3, 9))
        #expect(a - b == Vector3(-3, 7, -3))
        #expect(-a == Vector3(-1, -2, -3))
        #expect(a * 2 == Vector3(2, 4, 6) && 2 * a == a * 2)
        #expect(b / 2 == Vector3(2, -2.5, 3))
        #expect(a.dot(b) == 4 - 10 + 18)
        // Right-handed: x × y = z.
        #expect(Vector3.unitX.cross(.unitY) == .unitZ)
        #expect(Vector3.unitY.cross(.unitX) == -Vector3.unitZ)
        #expect(Vector3(3, 4, 0).length == 5)
        #expect(Vector3(3, 4, 0).normalized() == Vector3(0.6, 0.8, 0))
        #expect(Vector3.zero.normalized() == nil)
        #expect(Vector3(.nan, 0, 0).normalized() == nil)
        #expect(Vector3(.infinity, 0, 0).normalized() == nil)
        #expect(!Vector3(0, .nan, 0).isFinite)
        #expect(Vector3(x: 1, y: 2, z: 3) == a)
    }
}
