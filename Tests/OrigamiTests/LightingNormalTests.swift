import Foundation
import Origami
import Testing
import TestSupport

@Suite("Lighting: normals")
struct LightingNormalTests {
    /// A 100 × 100 layer at the centre of a 400 × 400 container with `camera` as its sublayerTransform.
    func single(_ transform: Transform3D, position: CGPoint = CGPoint(x: 200, y: 200),
                camera: Transform3D = .identity) throws -> (container: Layer, member: SceneMember) {
        let container = BookCube.container(camera: camera)
        let face = Layer(name: "face", frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        face.position = position
        face.transform = transform
        try container.addSublayer(face)
        let member = try #require(container.sublayerScene().first)
        return (container, member)
    }

    @Test("a face scaled (1, 3, 1) after turning keeps a normal perpendicular to its surface")
    func nonUniformScale() throws {
        // Turn 45° about x first, then scale y by 3 (the rotation is prepended, so it applies first).
        let t = CATransform3DRotate(CATransform3DMakeScale(1, 3, 1), .pi / 4, 1, 0, 0)
        let (container, member) = try single(t)
        let m = container.faceTransforms(for: member).scene
        // Two in-plane edges carried through the full matrix, and their cross product: the true normal.
        let o = try #require(m.apply(Vector3(50, 50, 0)))
        let ex = try #require(m.apply(Vector3(51, 50, 0))) - o
        let ey = try #require(m.apply(Vector3(50, 51, 0))) - o
        let truth = try #require(ex.cross(ey).normalized())
        let normal = try #require(m.planeNormal(at: CGPoint(x: 50, y: 50)))
        #expect(near(normal, truth))
        expectApprox(normal.dot(ex), 0, tolerance: 1e-12)
        expectApprox(normal.dot(ey), 0, tolerance: 1e-12)
        // By hand: edges (1,0,0) and (0, 3c, s)·… ∝ (0, 3, 1), so N ∝ (0, −1, 3).
        #expect(near(normal, Vector3(0, -1, 3) / 10.0.squareRoot()))
        // The book's plain 3×3 gives the third row (0, −3s, c) ∝ (0, −3, 1): not perpendicular to ey.
        let plain = try #require(Vector3(m.m31, m.m32, m.m33).normalized())
        #expect(abs(plain.dot(try #require(ey.normalized()))) > 0.5)
        // And the lighting uses the right one: a light straight into the screen gives −L·N = 3/√10.
        let lighting = Lighting(lights: [.directional(Vector3(0, 0, -1))], model: .lambert, ambient: 0)
        let row = try #require(try lighting.lightingReport(for: container).first)
        expectApprox(row.brightness[0], 3 / 10.0.squareRoot(), tolerance: 1e-9)
        let scene = try #require(row.sceneNormal)
        #expect(near(Vector3(scene[0], scene[1], scene[2]), truth))
    }

    @Test("a face seen from behind is lit with its flipped normal (two-sided), not by the book's overlay")
    func behind() throws {
        let (container, _) = try single(CATransform3DMakeRotation(.pi, 0, 1, 0))
        let light = Light.directional(Vector3(0, 0, -1))
        let twoSided = Lighting(lights: [light], model: .lambert, ambient: 0)
        let row = try #require(try twoSided.lightingReport(for: container).first)
        #expect(row.isSeenFromBehind)
        // Own normal (0,0,−1): L·N = +1; flipped, −L·N = 1: fully lit.
        expectApprox(row.lights[0].lDotN, 1, tolerance: 1e-9)
        expectApprox(row.brightness[0], 1, tolerance: 1e-9)
        var oneSided = twoSided
        oneSided.twoSided = false
        expectApprox(try #require(try oneSided.lightingReport(for: container).first).brightness[0], 0, tolerance: 1e-9)
        // The book's overlay takes the face's own normal: 1 + 1 − 0.5 = 1.5, clamped to 1.
        let book = Lighting(lights: [light], model: .bookOverlay, ambient: 0.5)
        let bookRow = try #require(try book.lightingReport(for: container).first)
        expectApprox(bookRow.unclampedOverlay, 1.5, tolerance: 1e-9)
        #expect(bookRow.overlayAlpha == 1)
    }

    @Test("under perspective, 'seen from behind' follows where the eye is")
    func perspective() throws {
        // A face turned 90° about y (normal +x) 100 points right of the vanishing point, eye 500 in front.
        // Drawn: after the divide x' = 200 + 100/(1 + u/500) and z' = −u/(1 + u/500) for local x offset u, so at
        // u = 0 the edges are (−0.2, 0, −1) and (0, 1, 0), whose cross product is (1, 0, −0.2): away from us.
        let turn = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        let camera = Transform3D.perspective(distance: 500)
        let right = try single(turn, position: CGPoint(x: 300, y: 200), camera: camera)
        let drawn = try #require(right.container.faceTransforms(for: right.member).projected.planeNormal(at: CGPoint(x: 50, y: 50)))
        #expect(near(drawn, Vector3(1, 0, -0.2) / 1.04.squareRoot()))
        // The view space takes the camera's affine part only (DESIGN §4): the normal stays +x.
        let view = try #require(right.container.faceTransforms(for: right.member).view.planeNormal(at: CGPoint(x: 50, y: 50)))
        #expect(near(view, Vector3(1, 0, 0)))
        let lighting = Lighting(lights: [.directional(Vector3(0, 0, -1), space: .view)])
        #expect(try #require(try lighting.lightingReport(for: right.container).first).isSeenFromBehind)
        // Mirrored on the left of the vanishing point: drawn (1, 0, 0.2), seen from the front.
        let left = try single(turn, position: CGPoint(x: 100, y: 200), camera: camera)
        let m = try #require(left.container.faceTransforms(for: left.member).projected.planeNormal(at: CGPoint(x: 50, y: 50)))
        #expect(near(m, Vector3(1, 0, 0.2) / 1.04.squareRoot()))
        #expect(try #require(try lighting.lightingReport(for: left.container).first).isSeenFromBehind == false)
    }

    @Test("special matrices: squashed z, collapsed plane, behind the eye, not finite")
    func specials() {
        // Scale z = 0 leaves the plane as it is: +z, from x' × y'.
        #expect(Transform3D(scaleX: 2, y: 3, z: 0).planeNormal() == Vector3(0, 0, 1))
        // Mirroring z turns the plane's +z round.
        #expect(Transform3D(scaleX: 1, y: 1, z: -1).planeNormal() == Vector3(0, 0, -1))
        // A plane collapsed to a line has no normal.
        #expect(Transform3D(scaleX: 0, y: 1, z: 1).planeNormal() == nil)
        // w = 1 − 600/500 < 0: behind the eye.
        let behindEye = Transform3D(translationX: 0, y: 0, z: 600).concatenating(.perspective(distance: 500))
        #expect(behindEye.planeNormal() == nil)
        var nan = Transform3D.identity
        nan.m22 = .nan
        #expect(nan.planeNormal() == nil)
    }
}
