import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// Renders and hit tests at a time (DESIGN §9): the book's cube turning about its vertical axis.
@Suite("Time: renders and hit tests at a time")
struct TimeRenderTests {
    static let canvas = CGSize(width: 600, height: 600)

    /// The render tests' cube (faces red, green, blue, yellow, cyan, magenta on a transform layer) with the cube
    /// turning `transform.rotation.y` 0 → π over 2 s.
    static func turningCube() throws -> BookCube {
        let cube = try HandCube.make(inSolid: true)
        let turn = BasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = 0; turn.toValue = .number(.pi); turn.duration = 2
        try #require(cube.solid).add(turn, forKey: "turn")
        return cube
    }

    /// Face i's centre on the canvas with the cube turned by `angle` about y: `HandCube.handMap` with the cube's own
    /// transform about its anchor (the container's centre, (200, 200)) inserted between the face's placement and
    /// the camera — written out with `HandMatrix`, not read from the library.
    static func centre(face i: Int, turnedBy angle: Double) -> (x: Double, y: Double) {
        HandMatrix.translation(-100, -100, 0).then(HandCube.handFaces[i]).then(.translation(200, 200, 0))
            .then(.translation(-200, -200, 0)).then(.rotationY(angle)).then(.translation(200, 200, 0))
            .then(.translation(-200, -200, 0)).then(.rotationY(-.pi / 4)).then(.rotationX(-.pi / 4))
            .then(.perspective(500)).then(.translation(200, 200, 0)).then(.translation(100, 100, 0))
            .project(100, 100)
    }

    /// At t = 1 the cube has turned 90° about y: Ry(90°) takes (x, y, z) to (z, y, −x), so face 5 (left, centre
    /// (−100, 0, 0)) comes to the front (0, 0, 100), face 1 (front) to the right (100, 0, 0), face 3 (top) stays on
    /// top. The three visible positions therefore show cyan, red and blue; at t = 0 (the model) red, green, blue.
    @Test("a render at t = 1 shows the faces the turned geometry puts there; t = 0 shows the model")
    func renderAtTime() throws {
        let cube = try Self.turningCube()
        let turned = try Renderer.render(cube.container, size: Self.canvas, time: 1)
        try Probe.save(turned, "time-cube-t1.png")
        try Probe.save(try Renderer.render(cube.container, size: Self.canvas, time: 0.5), "time-cube-t0.5.png")
        let front = Self.centre(face: 4, turnedBy: .pi / 2), right = Self.centre(face: 0, turnedBy: .pi / 2)
        let top = Self.centre(face: 2, turnedBy: .pi / 2)
        // The front position is where face 1's centre was before the turn.
        let before = HandCube.center(face: 0)
        #expect(abs(front.x - before.x) < 1e-9 && abs(front.y - before.y) < 1e-9)
        Probe.expect(turned, front.x, front.y, .cyan, "face 5 in front at t = 1")
        Probe.expect(turned, right.x, right.y, .red, "face 1 on the right at t = 1")
        Probe.expect(turned, top.x, top.y, .blue, "face 3 on top at t = 1")
        let model = try Renderer.render(cube.container, size: Self.canvas)
        let atZero = try Renderer.render(cube.container, size: Self.canvas, time: 0)
        #expect(model.pixels == atZero.pixels)
        Probe.expect(model, front.x, front.y, .red, "face 1 in front in the model")
        Probe.expect(model, right.x, right.y, .green, "face 2 on the right in the model")
        // After the animation (removed on completion) the model is back.
        #expect(try Renderer.render(cube.container, size: Self.canvas, time: 2).pixels == model.pixels)
    }

    @Test("a hit test at a time agrees with the render at that time; Layer.hitTest stays the model's answer")
    func hitTestAtTime() throws {
        let cube = try Self.turningCube()
        let front = Self.centre(face: 4, turnedBy: .pi / 2), right = Self.centre(face: 0, turnedBy: .pi / 2)
        let at = { (p: (x: Double, y: Double)) in CGPoint(x: p.x, y: p.y) }
        // The canvas is the container's superlayer space: the tree's placement space.
        let tree = PresentationTree(cube.container, time: 1)
        #expect(tree.hitTest(at(front), policy: .frontmost) === cube.face(5))
        #expect(tree.hitTest(at(right), policy: .frontmost) === cube.face(1))
        #expect(cube.container.hitTest(at(front), policy: .frontmost) === cube.face(1))
        #expect(cube.container.hitTest(at(right), policy: .frontmost) === cube.face(2))
        // The hit map at t = 1 names the same faces at those pixels.
        let map = try HitMap(root: cube.container, size: Self.canvas, time: 1) { $0.name ?? "?" }
        func frontmost(_ p: (x: Double, y: Double)) -> String? {
            let i = map.frontmost[Int(p.y) * map.width + Int(p.x)]
            return i < 0 ? nil : map.names[Int(i)]
        }
        #expect(frontmost(front) == "face 5" && frontmost(right) == "face 1")
    }

    @Test("lighting animates: the ambient level changes a lit face's brightness over time")
    func lightingOverTime() throws {
        let lighting = Lighting(lights: [.directional(Vector3(0, 0, -1), space: .scene)], model: .lambert, ambient: 0)
        let cube = try BookCube(inSolid: true, origin: HandCube.origin, faceColors: [.white], lighting: lighting)
        let up = BasicAnimation(keyPath: "lighting.ambient")
        up.fromValue = 0; up.toValue = 1; up.duration = 1
        cube.container.add(up, forKey: "ambient")
        // Face 1's normal in scene space is +z, against the light's −z travel: lambert gives (a + (1 − a)·1)·white
        // = white at any ambient. Face 2's normal (1, 0, 0) is perpendicular: a·white — 0.5 half-way, 0 at the start.
        let c2 = HandCube.center(face: 1)
        let half = try Renderer.render(cube.container, size: Self.canvas, time: 0.5)
        let start = try Renderer.render(cube.container, size: Self.canvas, time: 0)
        Probe.expect(half, c2.x, c2.y, Color(white: 0.5), tolerance: 0.02, "face 2 at ambient 0.5")
        Probe.expect(start, c2.x, c2.y, .black, "face 2 at ambient 0")
        let c1 = HandCube.center(face: 0)
        Probe.expect(half, c1.x, c1.y, .white, "face 1 faces the light")
    }
}

/// The README's time example, as written there.
@Suite("README time example")
struct ReadmeTimeExampleTests {
    @Test func turntable() throws {
        let container = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        container.sublayerTransform = BookCube.camera
        let cube = try Solid.cube(size: 200)
        cube.position = CGPoint(x: 200, y: 200)
        try container.addSublayer(cube)
        let touch = CGPoint(x: 200, y: 200)

        let turn = BasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = 0
        turn.toValue = .number(2 * .pi)
        turn.duration = 4
        turn.repeatCount = .infinity
        cube.add(turn, forKey: "turntable")
        let frame = try Renderer.render(container, size: CGSize(width: 400, height: 400), time: 1)
        #expect(frame.width == 400)
        // The touch through the vanishing point reaches the top face (3) first in depth (README example); a turn
        // about the vertical axis keeps the top on top.
        #expect(PresentationTree(container, time: 1).hitTest(touch, policy: .frontmost) === cube.face(number: 3))
        #expect(container.hitTest(touch) === cube.face(number: 4))
        #expect(container.animationEndTime() == 4)
        // A quarter turn later the face on the right of the picture is another one: face 2 (right, +x) has gone
        // to the back (Ry(90°): (x, y, z) → (z, y, −x)) and face 1 (front, +z) has come to the right.
        let right = CGPoint(x: 300, y: 230)
        #expect(container.hitTest(right, policy: .frontmost) === cube.face(number: 2))
        #expect(PresentationTree(container, time: 1).hitTest(right, policy: .frontmost) === cube.face(number: 1))
    }
}
