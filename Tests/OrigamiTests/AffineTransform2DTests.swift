import Foundation
import Origami
import Testing
import TestSupport

/// DESIGN §1: `[a b c d tx ty]` with `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty` (CGAffineTransform.h), and
/// the same order rules as Transform3D.
@Suite("AffineTransform2D")
struct AffineTransform2DTests {
    @Test("Factories match Apple's documented matrices")
    func factories() {
        #expect(AffineTransform2D.identity == AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        #expect(AffineTransform2D(translationX: 3, y: -4) == AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: -4))
        #expect(AffineTransform2D(scaleX: 2, y: -5) == AffineTransform2D(a: 2, b: 0, c: 0, d: -5, tx: 0, ty: 0))
        // CGAffineTransformMakeRotation: a = cos, b = sin, c = −sin, d = cos.
        let angle = 0.7
        expectApprox(AffineTransform2D(rotationAngle: angle),
                     AffineTransform2D(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0),
                     tolerance: 0)
    }

    @Test("Points: x' = a·x + c·y + tx, y' = b·x + d·y + ty")
    func applyPoint() {
        let t = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        // (10, 100): x' = 10 + 300 + 5 = 315, y' = 20 + 400 + 6 = 426.
        #expect(t.apply(CGPoint(10, 100)) == CGPoint(315, 426))
        #expect(AffineTransform2D(translationX: 10, y: 20).apply(CGPoint(1, 2)) == CGPoint(11, 22))
        #expect(AffineTransform2D(scaleX: 2, y: 3).apply(CGPoint(1, 2)) == CGPoint(2, 6))
        // A quarter turn clockwise on screen (y down): +x goes to +y.
        expectApprox(AffineTransform2D(rotationAngle: .pi / 2).apply(CGPoint(1, 0)), CGPoint(0, 1), tolerance: 1e-15)
    }

    @Test("Sizes use the linear part only, and are not standardised (CGSizeApplyAffineTransform)")
    func applySize() {
        let t = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 500, ty: 600)
        // (10, 100): w' = 10 + 300 = 310, h' = 20 + 400 = 420; the translation is ignored.
        #expect(t.apply(CGSize(width: 10, height: 100)) == CGSize(width: 310, height: 420))
        // A quarter turn of (10, 20): w' = a·10 + c·20 = −20, h' = b·10 + d·20 = 10.
        expectApprox(AffineTransform2D(rotationAngle: .pi / 2).apply(CGSize(width: 10, height: 20)),
                     CGSize(width: -20, height: 10), tolerance: 1e-12)
    }

    @Test("Rects become the bounding box of the four transformed corners (CGRectApplyAffineTransform)")
    func applyRect() {
        // 45° of (0, 0, 100, 100): corners (0,0), (70.71, 70.71), (−70.71, 70.71), (0, 141.42).
        let h = 100 / 2.0.squareRoot()
        expectApprox(AffineTransform2D(rotationAngle: .pi / 4).apply(CGRect(0, 0, 100, 100)),
                     CGRect(-h, 0, 2 * h, 2 * h), tolerance: 1e-9)
        // Scale (−2, 1) flips: (10, 0, 20, 5) → x in −60…−20.
        #expect(AffineTransform2D(scaleX: -2, y: 1).apply(CGRect(10, 0, 20, 5)) == CGRect(-60, 0, 40, 5))
        // A rect with negative size is standardised first.
        #expect(AffineTransform2D(translationX: 10, y: 0).apply(CGRect(100, 100, -100, -100)) == CGRect(10, 0, 100, 100))
        #expect(AffineTransform2D(translationX: 10, y: 0).apply(CGRect.null).isNull)
        // An empty rect maps to an empty rect at the transformed origin.
        #expect(AffineTransform2D(translationX: 10, y: 5).apply(CGRect.zero) == CGRect(10, 5, 0, 0))
        // Non-finite corners: no bounding box.
        #expect(AffineTransform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0).apply(CGRect(0, 0, 1, 1)).isNull)
    }

    @Test("concatenating applies self first; translatedBy/scaledBy/rotated prepend")
    func order() {
        let t = AffineTransform2D(translationX: 10, y: 0), s = AffineTransform2D(scaleX: 2, y: 2)
        // Concat(T10, S2): origin → 10 → 20.
        #expect(t.concatenating(s).apply(.zero) == CGPoint(20, 0))
        #expect((t * s) == t.concatenating(s))
        // Translate(S2, 10, 0) = T·S: tx = 20. Scale(T10, 2) = S·T: tx stays 10.
        #expect(s.translatedBy(x: 10, y: 0).tx == 20)
        #expect(t.scaledBy(x: 2, y: 2).tx == 10)
        // Rotate(T10, π/2) = R·T: (1, 0) → (0, 1) → (10, 1).
        expectApprox(t.rotated(by: .pi / 2).apply(CGPoint(1, 0)), CGPoint(10, 1), tolerance: 1e-12)
        // The compat names agree.
        #expect(CGAffineTransformConcat(t, s) == t.concatenating(s))
        #expect(CGAffineTransformTranslate(s, 10, 0) == s.translatedBy(x: 10, y: 0))
        #expect(CGAffineTransformScale(t, 2, 3) == t.scaledBy(x: 2, y: 3))
        #expect(CGAffineTransformRotate(t, 0.5) == t.rotated(by: 0.5))
    }

    @Test("The book's listing: Scale 0.5, Rotate 30°, Translate 200 — in that code order")
    func booksListing() {
        var transform = CGAffineTransformIdentity
        transform = CGAffineTransformScale(transform, 0.5, 0.5)
        transform = CGAffineTransformRotate(transform, .pi / 180.0 * 30.0)
        transform = CGAffineTransformTranslate(transform, 200, 0)
        // Each call prepends, so the matrix is T·R·S (translate first, then rotate, then scale):
        // R·S = [0.5·cos30, 0.5·sin30, −0.5·sin30, 0.5·cos30, 0, 0] = [0.4330127, 0.25, −0.25, 0.4330127, 0, 0];
        // (200, 0)·RS = (200·0.4330127, 200·0.25) = (86.60254, 50): the layer moves 100 points along 30°,
        // not 200 to the right — the book's point that the order matters.
        let c30 = 3.0.squareRoot() / 2
        expectApprox(transform, AffineTransform2D(a: 0.5 * c30, b: 0.25, c: -0.25, d: 0.5 * c30, tx: 100 * c30, ty: 50),
                     tolerance: 1e-12)
    }

    @Test("The book's shear: CGAffineTransformMakeShear(1, 0) is x' = x − y")
    func booksShear() {
        func CGAffineTransformMakeShear(_ x: CGFloat, _ y: CGFloat) -> CGAffineTransform {
            var transform = CGAffineTransformIdentity
            transform.c = -x
            transform.b = y
            return transform
        }
        let shear = CGAffineTransformMakeShear(1, 0)
        #expect(shear == AffineTransform2D(a: 1, b: 0, c: -1, d: 1, tx: 0, ty: 0))
        // Leans the vertical edges by 45°: the bottom of a 100-high layer moves 100 to the left.
        #expect(shear.apply(CGPoint(0, 100)) == CGPoint(-100, 100))
        #expect(shear.apply(CGPoint(100, 0)) == CGPoint(100, 0))
        #expect(shear.determinant == 1)
    }

    @Test("isIdentity, determinant and isFinite")
    func predicates() {
        #expect(AffineTransform2D.identity.isIdentity)
        #expect(AffineTransform2D(a: 1, b: -0.0, c: 0, d: 1, tx: -0.0, ty: 0).isIdentity)
        #expect(!AffineTransform2D(translationX: 1e-300, y: 0).isIdentity)
        #expect(CGAffineTransformIsIdentity(CGAffineTransformIdentity))
        #expect(AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6).determinant == -2)
        #expect(AffineTransform2D(rotationAngle: 1).determinant.isApproximatelyEqual(to: 1, absoluteTolerance: 1e-15))
        #expect(AffineTransform2D.identity.isFinite)
        #expect(!AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0).isFinite)
        #expect(!AffineTransform2D(a: 1, b: 0, c: 0, d: .nan, tx: 0, ty: 0).isFinite)
    }

    @Test("Inverse of a regular transform")
    func inverse() throws {
        // x' = 2x + 10 ⇒ x = 0.5x' − 5; y' = 4y + 20 ⇒ y = 0.25y' − 5.
        let t = AffineTransform2D(a: 2, b: 0, c: 0, d: 4, tx: 10, ty: 20)
        let inverse = try #require(t.inverted())
        expectApprox(inverse, AffineTransform2D(a: 0.5, b: 0, c: 0, d: 0.25, tx: -5, ty: -5), tolerance: 1e-15)
        let general = AffineTransform2D(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let gi = try #require(general.inverted())
        expectApprox(general.concatenating(gi), .identity, tolerance: 1e-12)
        expectApprox(gi.concatenating(general), .identity, tolerance: 1e-12)
        #expect(CGAffineTransformInvert(t) == inverse)
        // Tiny but regular.
        expectApprox(try #require(AffineTransform2D(scaleX: 1e-8, y: 1e-8).inverted()).a, 1e8, tolerance: 1e-3)
    }

    @Test("Singular or non-finite: no inverse, and CGAffineTransformInvert returns the input")
    func singularInverse() {
        for t in [AffineTransform2D(scaleX: 0, y: 1), AffineTransform2D(a: 1, b: 2, c: 2, d: 4, tx: 3, ty: 3),
                  AffineTransform2D(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)] {
            #expect(t.inverted() == nil)
            #expect(CGAffineTransformInvert(t) == t)
        }
        let nan = AffineTransform2D(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        #expect(nan.inverted() == nil)
        #expect(CGAffineTransformInvert(nan).a.isNaN)
        #expect(AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0).inverted() == nil)
    }

    @Test("Compat point/size/rect functions forward")
    func compatApply() {
        let t = CGAffineTransformMake(1, 2, 3, 4, 5, 6)
        #expect(CGPointApplyAffineTransform(CGPoint(10, 100), t) == CGPoint(315, 426))
        #expect(CGSizeApplyAffineTransform(CGSize(width: 10, height: 100), t) == CGSize(width: 310, height: 420))
        #expect(CGRectApplyAffineTransform(CGRect(0, 0, 1, 1), CGAffineTransformMakeTranslation(2, 3)) == CGRect(2, 3, 1, 1))
        #expect(CGAffineTransformMakeScale(2, 3) == AffineTransform2D(scaleX: 2, y: 3))
        #expect(CGAffineTransformEqualToTransform(CGAffineTransformMakeRotation(1), AffineTransform2D(rotationAngle: 1)))
    }

    @Test("boundingBox(of:) needs at least one finite point")
    func boundingBox() {
        #expect(CGRect.boundingBox(of: []) == nil)
        #expect(CGRect.boundingBox(of: [CGPoint(3, 4)]) == CGRect(3, 4, 0, 0))
        #expect(CGRect.boundingBox(of: [CGPoint(3, 4), CGPoint(-1, 10)]) == CGRect(-1, 4, 4, 6))
        #expect(CGRect.boundingBox(of: [CGPoint(3, 4), CGPoint(.nan, 10)]) == nil)
        #expect(CGRect.boundingBox(of: [CGPoint(.infinity, 4)]) == nil)
    }
}
