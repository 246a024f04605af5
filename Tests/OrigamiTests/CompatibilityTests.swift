import Foundation
import Origami
import Testing
import TestSupport

/// DESIGN §1: the book's listings port line for line through the Core Animation names. Each test is a
/// listing from the seeds, with only the Objective-C syntax turned into Swift, and checks what the book says
/// the listing does.
@Suite("Core Animation compatibility names")
struct CompatibilityTests {
    @Test("Listing 5.4: CATransform3DMakeRotation(M_PI_4, 0, 1, 0) narrows the layer (no perspective)")
    func listing54() {
        let layerView = CALayer(frame: CGRect(50, 50, 200, 200))
        // .pi / 4 comes from Glibc on Linux, as from Darwin on Apple platforms; Swift marks it deprecated (one
        // warning, kept on purpose to show the book's spelling compiles). The other listings write `.pi / 4`.
        let transform = CATransform3DMakeRotation(M_PI_4, 0, 1, 0)
        layerView.transform = transform
        // "It looks horizontally squashed": without perspective only the affine part shows, 200·cos45 wide.
        let w = 200 * 0.5.squareRoot()
        expectApprox(layerView.frame, CGRect(150 - w / 2, 50, w, 200), tolerance: 1e-9)
        #expect(transform.m13 == -sin(Double.pi / 4) && transform.m31 == sin(Double.pi / 4))
    }

    @Test("Listing 5.5: m34 = −1/500 then CATransform3DRotate(t, M_PI_4, 0, 1, 0)")
    func listing55() {
        var transform = CATransform3DIdentity
        transform.m34 = -1.0 / 500.0
        transform = CATransform3DRotate(transform, .pi / 4, 0, 1, 0)
        // Rotate prepends: t = Ry · P, so m14 = m13·m34 = (−s)(−1/500) = s/500 and m34 = c·(−1/500).
        let s = sin(Double.pi / 4), c = cos(Double.pi / 4)
        expectApprox(transform.m14, s / 500, tolerance: 1e-15)
        expectApprox(transform.m34, -c / 500, tolerance: 1e-15)
        expectApprox(transform.m11, c, tolerance: 1e-15)
        #expect(transform.m44 == 1)
        #expect(!CATransform3DIsAffine(transform))
        #expect(CATransform3DEqualToTransform(transform, CATransform3DConcat(CATransform3DMakeRotation(.pi / 4, 0, 1, 0), {
            var p = CATransform3DIdentity
            p.m34 = -1.0 / 500.0
            return p
        }())))
    }

    @Test("Listing 5.6: one sublayerTransform gives two layers the same vanishing point")
    func listing56() throws {
        let containerView = CALayer(frame: CGRect(0, 0, 400, 200))
        let layerView1 = CALayer(frame: CGRect(20, 50, 100, 100))
        let layerView2 = CALayer(frame: CGRect(280, 50, 100, 100))
        try containerView.addSublayer(layerView1)
        try containerView.addSublayer(layerView2)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        containerView.sublayerTransform = perspective
        let transform1 = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        layerView1.transform = transform1
        let transform2 = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
        layerView2.transform = transform2
        // Mirror images about the container's centre x = 200 (the shared vanishing point): layer 1's right
        // edge and layer 2's left edge recede symmetrically.
        let right1 = try #require(layerView1.convert(CGPoint(100, 0), to: containerView))
        let left2 = try #require(layerView2.convert(CGPoint(0, 0), to: containerView))
        expectApprox(Double(right1.x + left2.x), 400, tolerance: 1e-9)
        expectApprox(Double(right1.y), Double(left2.y), tolerance: 1e-9)
        // By hand for layer 1's right edge: (50, −50, 0) from its anchor → Ry(π/4) → (50c, −50, −50s) placed
        // at (70, 100); relative to the container's centre (200, 100): (−130 + 50c, −50, −50s), w = 1 + 50s/500.
        let c = cos(Double.pi / 4), s = sin(Double.pi / 4), w = 1 + 50 * s / 500
        expectApprox(right1, CGPoint(200 + (-130 + 50 * c) / w, 100 - 50 / w), tolerance: 1e-9)
    }

    @Test("Listing 3.2: anchorPoint = CGPointMake(0.5f, 0.9f)")
    func listing32() {
        let secondHand = CALayer(frame: CGRect(140, 100, 20, 100))
        secondHand.anchorPoint = CGPoint(x: 0.5, y: 0.9)
        secondHand.affineTransform = CGAffineTransformMakeRotation((15 / 60.0) * .pi * 2.0)
        expectApprox(secondHand.frame, CGRect(140, 140, 100, 20), tolerance: 1e-9)
    }

    @Test("Typealiases name Origami's types")
    func typealiases() {
        #expect(CALayer.self == Layer.self)
        #expect(CATransformLayer.self == TransformLayer.self)
        #expect(CATextLayer.self == TextLayer.self)
        #expect(CATransform3D.self == Transform3D.self)
        #expect(CGAffineTransform.self == AffineTransform2D.self)
        #expect(CATransform3DIsIdentity(CATransform3DIdentity))
        #expect(CGAffineTransformIsIdentity(CGAffineTransformIdentity))
    }

    @Test("The make/modify functions forward to the Swift API")
    func forwarding() {
        #expect(CATransform3DMakeTranslation(1, 2, 3) == Transform3D(translationX: 1, y: 2, z: 3))
        #expect(CATransform3DMakeScale(1, 2, 3) == Transform3D(scaleX: 1, y: 2, z: 3))
        #expect(CATransform3DMakeRotation(0.3, 1, 2, 3) == Transform3D(rotationAngle: 0.3, x: 1, y: 2, z: 3))
        let t = Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1)
        #expect(CATransform3DTranslate(t, 1, 2, 3) == t.translated(x: 1, y: 2, z: 3))
        #expect(CATransform3DScale(t, 1, 2, 3) == t.scaled(x: 1, y: 2, z: 3))
        #expect(CATransform3DRotate(t, 0.2, 1, 0, 0) == t.rotated(by: 0.2, x: 1, y: 0, z: 0))
        // The pinned order once more, through the C names.
        #expect(CATransform3DConcat(CATransform3DMakeTranslation(10, 0, 0), CATransform3DMakeScale(2, 2, 2)).m41 == 20)
        #expect(CATransform3DTranslate(CATransform3DMakeScale(2, 2, 2), 10, 0, 0).m41 == 20)
        #expect(CGAffineTransformConcat(CGAffineTransformMakeTranslation(10, 0), CGAffineTransformMakeScale(2, 2)).tx == 20)
        #expect(CGAffineTransformTranslate(CGAffineTransformMakeScale(2, 2), 10, 0).tx == 20)
    }

    @Test("The book's cube builds verbatim (listing 5.9)")
    func listing59() throws {
        let cube = try BookCube()
        #expect(cube.faces.count == 6)
        #expect(cube.container.sublayers == cube.faces)
        // Face 2 (right): MakeTranslation(100, 0, 0) then Rotate(M_PI_2, 0, 1, 0) = Ry(π/2) · T(100, 0, 0):
        // its local +x runs into the screen (−z) and its centre sits at x = +100.
        let right = BookCube.faceTransforms()[1]
        let centre = try #require(right.apply(Vector3.zero))
        expectApprox(centre, Vector3(100, 0, 0), tolerance: 1e-12)
        let xAxis = try #require(right.apply(Vector3(1, 0, 0)))
        expectApprox(xAxis, Vector3(100, 0, -1), tolerance: 1e-12)
        // Every face's +z (its front) points out of the cube: the face centre moved along its normal.
        let outward = [Vector3(0, 0, 1), Vector3(1, 0, 0), Vector3(0, -1, 0), Vector3(0, 1, 0), Vector3(-1, 0, 0), Vector3(0, 0, -1)]
        for (t, n) in zip(BookCube.faceTransforms(), outward) {
            let front = try #require(t.apply(Vector3(0, 0, 1)))
            let middle = try #require(t.apply(.zero))
            expectApprox(front - middle, n, tolerance: 1e-12)
            expectApprox(middle, n * 100, tolerance: 1e-12)
        }
    }
}
