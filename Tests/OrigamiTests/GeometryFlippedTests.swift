import Foundation
import Origami
import Testing
import TestSupport

/// DESIGN §2 `geometryFlipped` (issue 14 item 4): a flipped layer positions its sublayers from the bottom of its
/// bounds, `y ↦ 2·minY + H − y`, but no content is drawn upside down and no face counts as seen from behind
/// because of a flip; `contentsAreFlipped()` is the parity of the flips from a layer up to its root.
@Suite("geometryFlipped: positions from the bottom, content upright, contentsAreFlipped")
struct GeometryFlippedTests {
    /// A 100×100 root R holding a flipped 100×100 container C at its origin, holding L: bounds 20×20 at
    /// position (10, 10), anchor at the centre.
    func flippedPair() throws -> (root: Layer, container: Layer, sublayer: Layer) {
        let root = Layer(name: "root", frame: CGRect(0, 0, 100, 100))
        let container = Layer(name: "container", frame: CGRect(0, 0, 100, 100))
        container.isGeometryFlipped = true
        let sublayer = Layer(name: "L")
        sublayer.bounds = CGRect(0, 0, 20, 20)
        sublayer.position = CGPoint(10, 10)
        try root.addSublayer(container)
        try container.addSublayer(sublayer)
        return (root, container, sublayer)
    }

    @Test("a sublayer at (10, 10) in a flipped 100×100 layer lands at (10, 90): frame, convert and hitTest agree")
    func positions() throws {
        let (root, container, l) = try flippedPair()
        // frame is in the placement space of C's sublayers, which the flip does not change: (10 − 10, 10 − 10, 20, 20).
        expectApprox(l.frame, CGRect(0, 0, 20, 20))
        // The flip sits between that placement space and C's bounds (DESIGN §2): L's anchor, its bounds centre
        // (10, 10), is placed at (10, 10) and flipped by y ↦ 2·0 + 100 − y to (10, 90) in C's bounds, which at
        // C's origin are R's too.
        expectApprox(l.convert(CGPoint(10, 10), to: container), CGPoint(10, 90))
        expectApprox(l.convert(CGPoint(10, 10), to: root), CGPoint(10, 90))
        // L covers placement y 0…20, which is R's y 80…100; x 0…20.
        expectApprox(l.convert(l.bounds, to: root), CGRect(0, 80, 20, 20))
        #expect(root.hitTest(CGPoint(10, 90)) === l)
        #expect(root.hitTest(CGPoint(10, 10)) === container, "the top of R is C's far end, not L")
        // L's own bounds space is the placement space shifted, so it is measured from the bottom as well: R's
        // (15, 85) is placement (15, 100 − 85) = (15, 15), L's (15 − 0, 15 − 0). Hit answer and conversion agree.
        let hit = try #require(root.hitTestResult(CGPoint(15, 85)))
        #expect(hit.layer === l)
        expectApprox(hit.localPoint, CGPoint(15, 15))
        expectApprox(root.convert(CGPoint(15, 85), to: l), CGPoint(15, 15))
        // Edges as `contains` has them, in L's bounds: R's y 80 is L's y 20 = maxY (outside), R's y 99.5 is
        // L's y 0.5 (inside).
        #expect(l.contains(try #require(root.convert(CGPoint(5, 80), to: l))) == false)
        #expect(root.hitTest(CGPoint(5, 80)) === container)
        #expect(root.hitTest(CGPoint(5, 99.5)) === l)
    }

    @Test("contentsAreFlipped is the parity of flips up to the root, itself included, and follows removal")
    func contentsAreFlipped() throws {
        // A (flipped) ⊃ B ⊃ C (flipped) ⊃ D. Counting flips from each layer up to the root:
        // A: A → 1, true; B: A → 1, true; C: C, A → 2, false; D: C, A → 2, false.
        let a = Layer(name: "A"), b = Layer(name: "B"), c = Layer(name: "C"), d = Layer(name: "D")
        a.isGeometryFlipped = true
        c.isGeometryFlipped = true
        try a.addSublayer(b)
        try b.addSublayer(c)
        try c.addSublayer(d)
        #expect([a, b, c, d].map { $0.contentsAreFlipped() } == [true, true, false, false])
        // C removed: C's tree is C ⊃ D, with one flip (C) for both; A ⊃ B keeps A's one flip.
        c.removeFromSuperlayer()
        #expect([a, b, c, d].map { $0.contentsAreFlipped() } == [true, true, true, true])
        // B removed too: B is a root without flips.
        b.removeFromSuperlayer()
        #expect(b.contentsAreFlipped() == false)
        // Unflipping C leaves no flip above D.
        c.isGeometryFlipped = false
        #expect(d.contentsAreFlipped() == false)
    }

    /// The book's cube (faces 1 front … 6 back, single-sided) with its container flipped.
    ///
    /// Derivation. In cube coordinates (origin at the container's centre, as the faces' positions and the
    /// camera's anchor put it) the flip of the container is R = diag(1, −1, 1) between the faces' placement and
    /// the camera: the face planes become the cube mirrored in y, which is the same cube with face 3's plane
    /// (y = −100) and face 4's (y = +100) swapped. A face's content is drawn upright, i.e. mirrored once more in
    /// its own bounds (R in its local y), so face i is drawn through R · Tᵢ · R: a proper rotation (det = +1),
    /// taking the local normal +z to R·nᵢ, nᵢ the outward normal Tᵢ gives it. R maps the cube onto itself and
    /// outward normals to outward normals, so every face still faces outwards: face 4 now faces −y, face 3 +y.
    /// The eye in cube coordinates is (250, −353.55, 250) (`BookCubeProbes`): the faces seen are those whose
    /// outward normals point towards +x, −y, +z — faces 2, 4 and 1. Faces 3, 5, 6 face away.
    /// The ray from the eye through the cube's centre (which the camera draws at (200, 200)) enters the cube
    /// first through y = −100 (along (0.5, −0.707, 0.5) from the centre, y = −100 is reached at 141, x and
    /// z = 100 only at 200): `.frontmost` at (200, 200) is face 4.
    @Test("the book's cube in a flipped container is not inside out: faces 1, 2, 4 face the viewer, frontmost is face 4")
    func cube() throws {
        let cube = try BookCube(isDoubleSided: false)
        cube.container.isGeometryFlipped = true
        let light = Lighting(lights: [.directional(Vector3(0, 1, 0))], model: .lambert, ambient: 0)
        let rows = try light.lightingReport(for: cube.container)
        let behind = Dictionary(uniqueKeysWithValues: rows.compactMap { r in r.layerName.map { ($0, r.isSeenFromBehind) } })
        #expect(behind == ["face 1": false, "face 2": false, "face 3": true, "face 4": false, "face 5": true, "face 6": true])
        #expect(cube.container.hitTest(CGPoint(200, 200), policy: .frontmost) === cube.face(4))
        // Face 4's scene normal is R·(0, 1, 0) = (0, −1, 0); the light travels along +y, so −L·N = 1: fully lit.
        // Its view normal is (0, −1, 0) · Ry(−π/4) · Rx(−π/4) = (0, −h, h), h = √½ (the probes' matrices).
        let face4 = try #require(rows.first { $0.layerName == "face 4" })
        let scene = try #require(face4.sceneNormal), view = try #require(face4.viewNormal)
        #expect(near(Vector3(scene[0], scene[1], scene[2]), Vector3(0, -1, 0)))
        #expect(near(Vector3(view[0], view[1], view[2]), Vector3(0, -BookCubeProbes.h, BookCubeProbes.h)))
        expectApprox(face4.brightness[0], 1, tolerance: 1e-9)
        // Hit-testing one face on its own (its point in the container's space) sees the same facing: behind the
        // centre, along the same ray, lies y = +100 — face 3's plane now — reached at (−70.7, 100, −70.7), and
        // face 3 faces away, so single-sided it takes no touch under `.frontmost`; face 4 does.
        #expect(cube.face(4).hitTest(CGPoint(200, 200), policy: .frontmost) === cube.face(4))
        #expect(cube.face(3).hitTest(CGPoint(200, 200), policy: .frontmost) == nil)
    }

    @Test("the cube under a flipped superlayer of its container: the picture is mirrored after the camera, facing unchanged")
    func cubeUnderFlippedSuperlayer() throws {
        // X (flipped, 400×400 at the origin) ⊃ the book's container. X's mirror y ↦ 400 − y acts after the
        // camera, on the finished picture: a 2D mirror of the screen does not turn any face towards or away from
        // the viewer, so the faces seen are the unflipped cube's, 1, 2, 3, and through the centre (200, 200) —
        // its own mirror image — the front face is face 3 (the ray leaves the centre through y = −100 first,
        // as in the derivation above without R). Asked of a face alone, the point is in the container's space,
        // itself mirrored on screen by X: the facing must still be judged on screen.
        let cube = try BookCube(isDoubleSided: false)
        let x = Layer(name: "X", frame: CGRect(0, 0, 400, 400))
        x.isGeometryFlipped = true
        try x.addSublayer(cube.container)
        let rows = try Lighting(lights: [.directional(Vector3(0, 1, 0))], model: .lambert, ambient: 0)
            .lightingReport(for: cube.container)
        #expect(Set(rows.filter { !$0.isSeenFromBehind }.compactMap(\.layerName)) == ["face 1", "face 2", "face 3"])
        #expect(x.hitTest(CGPoint(200, 200), policy: .frontmost) === cube.face(3))
        #expect(cube.face(3).hitTest(CGPoint(200, 200), policy: .frontmost) === cube.face(3))
        #expect(cube.face(4).hitTest(CGPoint(200, 200), policy: .frontmost) == nil)
    }

    @Test("the cube in a solid (a transform layer) under a flipped container: the same faces, frontmost face 4")
    func cubeInSolid() throws {
        // The transform layer covers the container and is not flipped: the mirror is still the container's
        // alone, so the derivation above holds unchanged.
        let cube = try BookCube(inSolid: true, isDoubleSided: false)
        cube.container.isGeometryFlipped = true
        let rows = try Lighting(lights: [.directional(Vector3(0, 1, 0))], model: .lambert, ambient: 0)
            .lightingReport(for: cube.container)
        let seen = Set(rows.filter { !$0.isSeenFromBehind }.compactMap(\.layerName))
        #expect(seen == ["face 1", "face 2", "face 4"])
        #expect(cube.container.hitTest(CGPoint(200, 200), policy: .frontmost) === cube.face(4))
    }
}
