import Foundation
import Origami
import Testing
import TestSupport

/// DESIGN §2 and the seed "Understanding Frame": frame is derived from bounds.size, anchorPoint, the affine part
/// of transform and position — nothing else.
@Suite("Layer frame")
struct LayerFrameTests {
    static let r2 = 2.0.squareRoot()

    func layer(bounds: CGRect, position: CGPoint = .zero) -> Layer {
        let l = Layer()
        l.bounds = bounds
        l.position = position
        return l
    }

    // MARK: Getter

    @Test("Identity: origin = position − anchor·size")
    func identityGetter() {
        let l = layer(bounds: CGRect(0, 0, 100, 50), position: CGPoint(60, 45))
        #expect(l.frame == CGRect(10, 20, 100, 50))
        l.anchorPoint = .zero
        #expect(l.frame == CGRect(60, 45, 100, 50))
        l.anchorPoint = CGPoint(1, 1)
        #expect(l.frame == CGRect(-40, -5, 100, 50))
        // Outside 0…1: the anchor lies outside the layer and the frame moves past the position.
        l.anchorPoint = CGPoint(-1, 2)
        #expect(l.frame == CGRect(160, -55, 100, 50))
    }

    @Test("DESIGN §2: a 100×100 layer at (0, 0) rotated by π/4 has frame (−70.71, −70.71, 141.42, 141.42)")
    func rotatedGetter() {
        let l = layer(bounds: CGRect(0, 0, 100, 100))
        l.transform = Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)
        // The corners (±50, ±50) turned by 45° reach ±50·√2 on both axes.
        expectApprox(l.frame, CGRect(-50 * LayerFrameTests.r2, -50 * LayerFrameTests.r2, 100 * LayerFrameTests.r2,
                                     100 * LayerFrameTests.r2), tolerance: 1e-9)
        // The same through the affine property.
        let m = layer(bounds: CGRect(0, 0, 100, 100))
        m.affineTransform = CGAffineTransformMakeRotation(.pi / 4)
        expectApprox(m.frame, l.frame, tolerance: 0)
    }

    @Test("bounds.origin, zPosition, anchorPointZ and sublayerTransform do not move the frame")
    func whatDoesNotMoveIt() throws {
        let l = layer(bounds: CGRect(0, 0, 100, 50), position: CGPoint(60, 45))
        let expected = CGRect(10, 20, 100, 50)
        l.bounds.origin = CGPoint(37, -12)
        #expect(l.frame == expected)
        l.zPosition = 40
        #expect(l.frame == expected)
        l.anchorPointZ = -25
        #expect(l.frame == expected)
        l.sublayerTransform = Transform3D(scaleX: 3, y: 3).concatenating(.perspective(distance: 100))
        #expect(l.frame == expected)
        // Nor does the superlayer's sublayerTransform or position.
        let parent = layer(bounds: CGRect(0, 0, 300, 300), position: CGPoint(500, 500))
        parent.sublayerTransform = Transform3D(rotationAngle: 0.5, x: 0, y: 0, z: 1)
        try parent.addSublayer(l)
        #expect(l.frame == expected)
    }

    @Test("Only the affine part of transform counts: perspective and z terms are ignored")
    func affinePartOnly() {
        let l = layer(bounds: CGRect(0, 0, 100, 100), position: CGPoint(100, 100))
        // Ry(π/4)·P: affine part [c 0 0 1 0 0], so the frame narrows to 100·c = 70.71 wide.
        l.transform = Transform3D(rotationAngle: .pi / 4, x: 0, y: 1, z: 0).concatenating(.perspective(distance: 500))
        let half = 50 / LayerFrameTests.r2
        expectApprox(l.frame, CGRect(100 - half, 50, 2 * half, 100), tolerance: 1e-9)
        l.transform = Transform3D(translationX: 5, y: 6, z: 70)
        #expect(l.frame == CGRect(55, 56, 100, 100))
    }

    @Test("Changing bounds.size keeps position: the frame grows about the anchor")
    func boundsSizeKeepsPosition() {
        let l = Layer(frame: CGRect(0, 0, 100, 100))
        #expect(l.position == CGPoint(50, 50))
        l.bounds.size = CGSize(width: 200, height: 50)
        #expect(l.position == CGPoint(50, 50))
        #expect(l.frame == CGRect(-50, 25, 200, 50))
        l.anchorPoint = .zero
        l.bounds.size = CGSize(width: 10, height: 10)
        #expect(l.frame == CGRect(50, 50, 10, 10))
    }

    @Test("Changing anchorPoint keeps position and moves the frame (seed 000, figure 3.3)")
    func anchorMovesFrame() {
        let l = Layer(frame: CGRect(100, 100, 100, 100))
        l.anchorPoint = .zero
        #expect(l.position == CGPoint(150, 150))
        #expect(l.frame == CGRect(150, 150, 100, 100))
    }

    @Test("Negative bounds sizes are read standardised")
    func negativeBounds() {
        let l = layer(bounds: CGRect(0, 0, -100, -50), position: CGPoint(60, 45))
        #expect(l.frame == CGRect(10, 20, 100, 50))
    }

    @Test("A non-finite geometry gives a null frame", arguments: ["position", "bounds", "anchor", "transform"])
    func nonFiniteGetter(property: String) {
        let l = layer(bounds: CGRect(0, 0, 10, 10), position: CGPoint(5, 5))
        switch property {
        case "position": l.position = CGPoint(.nan, 0)
        case "bounds": l.bounds.size.width = .infinity
        case "anchor": l.anchorPoint = CGPoint(0.5, .nan)
        default: l.transform.m41 = .infinity
        }
        #expect(l.frame.isNull)
    }

    // MARK: Setter

    @Test("Identity setter: size = frame.size, position = origin + anchor·size")
    func identitySetter() {
        let l = Layer()
        l.frame = CGRect(10, 20, 100, 50)
        #expect(l.bounds == CGRect(0, 0, 100, 50))
        #expect(l.position == CGPoint(60, 45))
        l.anchorPoint = CGPoint(0, 1)
        l.frame = CGRect(10, 20, 30, 40)
        #expect(l.position == CGPoint(10, 60))
        #expect(l.frame == CGRect(10, 20, 30, 40))
    }

    @Test("The setter keeps bounds.origin")
    func setterKeepsBoundsOrigin() {
        let l = layer(bounds: CGRect(7, 8, 1, 1))
        l.frame = CGRect(10, 20, 100, 50)
        #expect(l.bounds == CGRect(7, 8, 100, 50))
        #expect(l.position == CGPoint(60, 45))
    }

    @Test("DESIGN §2: scale(2, 4) and frame (10, 20, 100, 50) → bounds 50×12.5, position (60, 45)")
    func scaledSetter() {
        let l = Layer()
        l.transform = Transform3D(scaleX: 2, y: 4)
        l.frame = CGRect(10, 20, 100, 50)
        #expect(l.bounds.size == CGSize(width: 50, height: 12.5))
        #expect(l.position == CGPoint(60, 45))
        #expect(l.frame == CGRect(10, 20, 100, 50))
        // A mirrored scale maps sizes back through |scale|.
        l.transform = Transform3D(scaleX: -2, y: 1)
        l.frame = CGRect(10, 20, 100, 50)
        #expect(l.bounds.size == CGSize(width: 50, height: 50))
        #expect(l.position == CGPoint(60, 45))
        #expect(l.frame == CGRect(10, 20, 100, 50))
    }

    @Test("Setter with a translation in transform: position absorbs it")
    func translatedSetter() {
        let l = Layer()
        l.transform = Transform3D(translationX: 10, y: 5)
        l.frame = CGRect(0, 0, 100, 50)
        // Getter: position + (−50 + 10, −25 + 5) = (0, 0) ⇒ position (40, 20).
        #expect(l.bounds.size == CGSize(width: 100, height: 50))
        #expect(l.position == CGPoint(40, 20))
    }

    @Test("Setter with a 90° rotation swaps the size back through the linear part", arguments: [Double.pi / 2, -Double.pi / 2, 3 * Double.pi / 2])
    func quarterTurnSetter(angle: Double) {
        let l = Layer()
        l.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
        l.frame = CGRect(10, 20, 100, 50)
        // A quarter turn maps bounds (w, h) to a frame (h, w): bounds 50 wide, 100 high, centred at (60, 45).
        expectApprox(l.bounds.size, CGSize(width: 50, height: 100), tolerance: 1e-9)
        expectApprox(l.position, CGPoint(60, 45), tolerance: 1e-9)
        expectApprox(l.frame, CGRect(10, 20, 100, 50), tolerance: 1e-9)
    }

    @Test("Setter with a 180° rotation keeps the size")
    func halfTurnSetter() {
        let l = Layer()
        l.transform = Transform3D(rotationAngle: .pi, x: 0, y: 0, z: 1)
        l.frame = CGRect(10, 20, 100, 50)
        expectApprox(l.bounds.size, CGSize(width: 100, height: 50), tolerance: 1e-9)
        expectApprox(l.position, CGPoint(60, 45), tolerance: 1e-9)
    }

    @Test("Setter with any other rotation keeps bounds.size and matches the frame's origin")
    func obliqueSetter() {
        let l = layer(bounds: CGRect(0, 0, 100, 100))
        l.transform = Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)
        l.frame = CGRect(0, 0, 500, 500)
        #expect(l.bounds.size == CGSize(width: 100, height: 100))
        // The rotated square's box is 141.42 wide and centred on position, so position = (70.71, 70.71).
        expectApprox(l.position, CGPoint(50 * LayerFrameTests.r2, 50 * LayerFrameTests.r2), tolerance: 1e-9)
        expectApprox(l.frame.origin, CGPoint(0, 0), tolerance: 1e-9)
    }

    @Test("Negative frame sizes are standardised")
    func negativeFrame() {
        let l = Layer()
        l.frame = CGRect(110, 120, -100, -100)
        #expect(l.bounds == CGRect(0, 0, 100, 100))
        #expect(l.position == CGPoint(60, 70))
        #expect(l.frame == CGRect(10, 20, 100, 100))
    }

    @Test("A frame with NaN or ∞ is ignored", arguments: [
        CGRect(.nan, 0, 10, 10), CGRect(0, .infinity, 10, 10), CGRect(0, 0, .nan, 10), CGRect(0, 0, 10, -.infinity),
    ])
    func nonFiniteFrame(frame: CGRect) {
        let l = Layer(frame: CGRect(1, 2, 3, 4))
        l.frame = frame
        #expect(l.bounds == CGRect(0, 0, 3, 4))
        #expect(l.position == CGPoint(2.5, 4))
    }

    @Test("A setter through a singular transform leaves the layer unchanged")
    func singularTransformSetter() {
        let l = Layer(frame: CGRect(1, 2, 3, 4))
        l.transform = Transform3D(scaleX: 0, y: 1)
        l.frame = CGRect(10, 20, 100, 50)
        // No size maps to width 100 through a zero scale; whatever happens, nothing becomes non-finite.
        #expect(l.bounds.size.width.isFinite && l.bounds.size.height.isFinite)
        #expect(l.position.x.isFinite && l.position.y.isFinite)
    }

    // MARK: The book's clock (seed 000, listings 3.1 and 3.2)

    /// A 20×100 hand laid out, as in Interface Builder, centred on the clock's centre (150, 150).
    func hand() -> Layer { Layer(name: "hand", frame: CGRect(140, 100, 20, 100)) }

    @Test("Moving the anchor to (0.5, 0.9) keeps position and lifts the hand so its pivot sits on the centre")
    func clockAnchor() throws {
        let h = hand()
        #expect(h.position == CGPoint(150, 150))
        h.anchorPoint = CGPoint(0.5, 0.9)
        #expect(h.position == CGPoint(150, 150))
        // origin = position − anchor·size = (150 − 10, 150 − 90): 40 points higher than before.
        expectApprox(h.frame, CGRect(140, 60, 20, 100), tolerance: 1e-12)
        // The pivot, 90% down the hand, is the clock's centre.
        let parent = Layer(frame: CGRect(0, 0, 300, 300))
        try parent.addSublayer(h)
        expectApprox(h.convert(CGPoint(10, 90), to: parent), CGPoint(150, 150), tolerance: 1e-12)
    }

    @Test("15 s (π/2): the re-anchored hand points right from the centre")
    func clockQuarterPast() throws {
        let parent = Layer(frame: CGRect(0, 0, 300, 300))
        let h = hand()
        try parent.addSublayer(h)
        h.anchorPoint = CGPoint(0.5, 0.9)
        h.affineTransform = CGAffineTransformMakeRotation(15.0 / 60.0 * .pi * 2.0)
        // Local rect (−10, −90, 20, 100) turned a quarter clockwise: x ∈ −10…90, y ∈ −10…10.
        expectApprox(h.frame, CGRect(140, 140, 100, 20), tolerance: 1e-9)
        // The tip (10, 0) is 90 points right of the centre; the pivot has not moved.
        expectApprox(h.convert(CGPoint(10, 0), to: parent), CGPoint(240, 150), tolerance: 1e-9)
        expectApprox(h.convert(CGPoint(10, 90), to: parent), CGPoint(150, 150), tolerance: 1e-9)
    }

    @Test("30 s (π): the re-anchored hand points down; without the anchor it turns about its middle (figure 3.6)")
    func clockHalfPast() throws {
        let parent = Layer(frame: CGRect(0, 0, 300, 300))
        let fixed = hand(), naive = hand()
        try parent.addSublayer(fixed)
        try parent.addSublayer(naive)
        fixed.anchorPoint = CGPoint(0.5, 0.9)
        fixed.affineTransform = CGAffineTransformMakeRotation(.pi)
        naive.affineTransform = CGAffineTransformMakeRotation(.pi)
        // Re-anchored: local y −90…10 flips to −10…90 below the centre.
        expectApprox(fixed.frame, CGRect(140, 140, 20, 100), tolerance: 1e-9)
        expectApprox(fixed.convert(CGPoint(10, 0), to: parent), CGPoint(150, 240), tolerance: 1e-9)
        // Default anchor: the hand still covers 100…200 and its tip is at 200 — it spins about its middle.
        expectApprox(naive.frame, CGRect(140, 100, 20, 100), tolerance: 1e-9)
        expectApprox(naive.convert(CGPoint(10, 0), to: parent), CGPoint(150, 200), tolerance: 1e-9)
    }

    // MARK: The book's affine listing applied to a layer

    @Test("The book's Scale 0.5 · Rotate 30° · Translate 200 on a 100×100 layer at (150, 150)")
    func booksAffineListingFrame() {
        let l = Layer(frame: CGRect(100, 100, 100, 100))
        var transform = CGAffineTransformIdentity
        transform = CGAffineTransformScale(transform, 0.5, 0.5)
        transform = CGAffineTransformRotate(transform, .pi / 180.0 * 30.0)
        transform = CGAffineTransformTranslate(transform, 200, 0)
        l.affineTransform = transform
        // The centre moves by (100·cos30, 100·sin30) = (86.60, 50); the box of a 50×50 square turned by 30°
        // is 50·(cos30 + sin30) = 68.30 wide.
        let c30 = 3.0.squareRoot() / 2
        let side = 50 * (c30 + 0.5)
        expectApprox(l.frame, CGRect(150 + 100 * c30 - side / 2, 200 - side / 2, side, side), tolerance: 1e-9)
    }

    @Test("The book's shear leans a 100×100 layer into a 200-wide frame")
    func shearFrame() {
        let l = Layer(frame: CGRect(100, 100, 100, 100))
        var shear = CGAffineTransformIdentity
        shear.c = -1
        shear.b = 0
        l.affineTransform = shear
        // Corners (±50, ±50) ↦ (x − y, y): x from −100 to 100.
        #expect(l.frame == CGRect(50, 100, 200, 100))
    }

    @Test("In 2D the frame is the superlayer-space box of the bounds")
    func frameIsConvertedBounds() throws {
        let parent = Layer(frame: CGRect(0, 0, 400, 400))
        let l = Layer(frame: CGRect(30, 40, 100, 60))
        try parent.addSublayer(l)
        l.bounds.origin = CGPoint(-20, 15)
        l.anchorPoint = CGPoint(0.2, 0.7)
        l.affineTransform = AffineTransform2D(rotationAngle: 0.3).scaledBy(x: 1.5, y: 0.5)
        expectApprox(l.convert(l.bounds, to: parent), l.frame, tolerance: 1e-9)
    }
}
