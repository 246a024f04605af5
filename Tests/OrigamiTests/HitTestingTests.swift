import Foundation
import Origami
import Testing
import TestSupport

/// DESIGN §5: `hitTest` takes a point in the receiver's superlayer space and maps it onto each layer's plane
/// through the renderer's chain; the order is a named policy.
@Suite("Hit testing: the book's 2D examples")
struct HitTesting2DTests {
    /// Seed 000, listings 3.4 and 3.5: a white layer (the layerView's) at (80, 200, 200, 200) in the view,
    /// holding the blue layer at (50, 50, 100, 100).
    func blueWhite() throws -> (view: Layer, white: Layer, blue: Layer) {
        let view = Layer(name: "view", frame: CGRect(0, 0, 360, 600))
        let white = Layer(name: "white", frame: CGRect(80, 200, 200, 200))
        let blue = Layer(name: "blue", frame: CGRect(50.0, 50.0, 100.0, 100.0))
        try view.addSublayer(white)
        try white.addSublayer(blue)
        return (view, white, blue)
    }

    enum Touch: Equatable { case blue, white, outside }

    /// Listing 3.4, line for line: convert into the white layer, containsPoint, convert into blue, containsPoint.
    func listing34(_ touch: CGPoint, _ scene: (view: Layer, white: Layer, blue: Layer)) -> Touch? {
        guard var point = scene.white.convert(touch, from: scene.view) else { return nil }
        if scene.white.contains(point) {
            guard let inBlue = scene.blue.convert(point, from: scene.white) else { return nil }
            point = inBlue
            return scene.blue.contains(point) ? .blue : .white
        }
        return .outside
    }

    @Test("containsPoint + convertPoint (listing 3.4) and hitTest (listing 3.5) agree",
          arguments: [
            // (150, 270) is (70, 70) in white and (20, 20) in blue.
            (CGPoint(150, 270), Touch.blue),
            // (100, 220) is (20, 20) in white, (−30, −30) in blue.
            (CGPoint(100, 220), Touch.white),
            // Blue's min corner is inside, its max edges are outside: (130, 250) is blue's (0, 0).
            (CGPoint(130, 250), Touch.blue),
            (CGPoint(230, 300), Touch.white),
            (CGPoint(180, 350), Touch.white),
            (CGPoint(229.999, 349.999), Touch.blue),
            // White's max edge (280, 400) is outside, as is anything beyond it.
            (CGPoint(280, 300), Touch.outside),
            (CGPoint(79.999, 300), Touch.outside),
            (CGPoint(10, 10), Touch.outside),
          ])
    func blueWhiteExample(touch: CGPoint, expected: Touch) throws {
        let scene = try blueWhite()
        #expect(listing34(touch, scene) == expected)
        // Listing 3.5: hitTest on the white layer with the touch in the view's (its superlayer's) coordinates.
        let layer = scene.white.hitTest(touch)
        switch expected {
        case .blue: #expect(layer === scene.blue)
        case .white: #expect(layer === scene.white)
        case .outside: #expect(layer == nil)
        }
        // All three policies agree in a flat tree without zPosition.
        for policy in HitTestPolicy.allCases {
            #expect(scene.white.hitTest(touch, policy: policy) === layer, "\(policy)")
        }
    }

    @Test("The hit result carries the touch in the hit layer's own coordinates")
    func localPoint() throws {
        let scene = try blueWhite()
        let result = try #require(scene.white.hitTestResult(CGPoint(150, 270)))
        #expect(result.layer === scene.blue)
        expectApprox(result.localPoint, CGPoint(20, 20), tolerance: 0)
        #expect(result.face === scene.blue)
        #expect(result.solid == nil)
        #expect(result.depth == 0)
        // From the view: the view's superlayer space is the same as its bounds here.
        #expect(scene.view.hitTest(CGPoint(150, 270)) === scene.blue)
        #expect(scene.view.hitTest(CGPoint(10, 10)) === scene.view)
    }

    /// Seed 000, listing 3.3: green and red views overlapping, green first in the tree, green.zPosition = 1.
    func greenRed() throws -> (Layer, Layer, Layer) {
        let container = Layer(name: "container", frame: CGRect(0, 0, 300, 300))
        let green = Layer(name: "green", frame: CGRect(50, 50, 150, 150))
        let red = Layer(name: "red", frame: CGRect(100, 100, 150, 150))
        try container.addSublayer(green)
        try container.addSublayer(red)
        green.zPosition = 1.0
        return (container, green, red)
    }

    @Test("zPosition: .coreAnimation and .frontmost give the green layer drawn in front, .treeOrder the red")
    func zPositionGreenRed() throws {
        let (container, green, red) = try greenRed()
        let overlap = CGPoint(150, 150)
        #expect(container.hitTest(overlap, policy: .treeOrder) === red)
        #expect(container.hitTest(overlap) === red)
        #expect(container.hitTest(overlap, policy: .coreAnimation) === green)
        #expect(container.hitTest(overlap, policy: .frontmost) === green)
        // Outside the overlap every policy finds the only layer there.
        for policy in HitTestPolicy.allCases {
            #expect(container.hitTest(CGPoint(60, 60), policy: policy) === green)
            #expect(container.hitTest(CGPoint(240, 240), policy: policy) === red)
            #expect(container.hitTest(CGPoint(260, 20), policy: policy) === container)
        }
        // Without the zPosition, the later sibling is on top for every policy.
        green.zPosition = 0
        for policy in HitTestPolicy.allCases {
            #expect(container.hitTest(overlap, policy: policy) === red, "\(policy)")
        }
        // A negative zPosition sends red behind green for the CA and depth orders.
        red.zPosition = -0.5
        #expect(container.hitTest(overlap, policy: .coreAnimation) === green)
        #expect(container.hitTest(overlap, policy: .frontmost) === green)
        #expect(container.hitTest(overlap, policy: .treeOrder) === red)
    }

    @Test("hitTestAll lists both, with tree rank and depth rank disagreeing")
    func zPositionHitTestAll() throws {
        let (container, green, red) = try greenRed()
        let all = container.hitTestAll(CGPoint(150, 150))
        #expect(all.map(\.layer) == [red, green, container])
        #expect(all.map(\.treeRank) == [0, 1, 2])
        #expect(all.map(\.depthRank) == [1, 0, 2])
        #expect(all.allSatisfy { !$0.isCulled })
    }
}

@Suite("Hit testing: rules")
struct HitTestingRulesTests {
    func parentAndChild(childFrame: CGRect = CGRect(50, 50, 100, 100)) throws -> (Layer, Layer) {
        let parent = Layer(name: "parent", frame: CGRect(0, 0, 200, 200))
        let child = Layer(name: "child", frame: childFrame)
        try parent.addSublayer(child)
        return (parent, child)
    }

    @Test("Hidden layers are skipped, with their sublayers")
    func hidden() throws {
        let (parent, child) = try parentAndChild()
        let grandchild = Layer(name: "grandchild", frame: CGRect(0, 0, 10, 10))
        try child.addSublayer(grandchild)
        child.isHidden = true
        for policy in HitTestPolicy.allCases {
            #expect(parent.hitTest(CGPoint(100, 100), policy: policy) === parent)
            #expect(parent.hitTest(CGPoint(55, 55), policy: policy) === parent)
        }
        parent.isHidden = true
        for policy in HitTestPolicy.allCases { #expect(parent.hitTest(CGPoint(100, 100), policy: policy) == nil) }
        #expect(parent.hitTestAll(CGPoint(100, 100)).isEmpty)
    }

    @Test("allowsHitTesting = false skips the layer and its sublayers")
    func allowsHitTesting() throws {
        let (parent, child) = try parentAndChild()
        let grandchild = Layer(name: "grandchild", frame: CGRect(0, 0, 10, 10))
        try child.addSublayer(grandchild)
        child.allowsHitTesting = false
        for policy in HitTestPolicy.allCases {
            #expect(parent.hitTest(CGPoint(55, 55), policy: policy) === parent)
        }
    }

    @Test("Opacity below 0.01 hides a layer from touches in tree order (UIKit), not from -[CALayer hitTest:]")
    func opacity() throws {
        let (parent, child) = try parentAndChild()
        child.opacity = 0.005
        #expect(parent.hitTest(CGPoint(100, 100), policy: .treeOrder) === parent)
        #expect(parent.hitTest(CGPoint(100, 100), policy: .coreAnimation) === child)
        child.opacity = 0.01
        #expect(parent.hitTest(CGPoint(100, 100), policy: .treeOrder) === child)
    }

    @Test("Sublayers outside their parent's bounds are still found, unless masksToBounds")
    func outsideAndMasks() throws {
        let (parent, child) = try parentAndChild(childFrame: CGRect(250, 0, 50, 50))
        let p = CGPoint(275, 25)
        for policy in HitTestPolicy.allCases { #expect(parent.hitTest(p, policy: policy) === child, "\(policy)") }
        parent.masksToBounds = true
        for policy in HitTestPolicy.allCases { #expect(parent.hitTest(p, policy: policy) == nil, "\(policy)") }
        // Inside the mask, the parent is still hit.
        #expect(parent.hitTest(CGPoint(100, 100)) === parent)
        // A child straddling the edge is found only on the inside.
        child.frame = CGRect(150, 150, 100, 100)
        #expect(parent.hitTest(CGPoint(175, 175)) === child)
        #expect(parent.hitTest(CGPoint(225, 225)) == nil)
        #expect(parent.hitTest(CGPoint(225, 225), policy: .frontmost) == nil)
    }

    @Test("Back-facing layers with isDoubleSided = false still receive hits in tree order; .frontmost skips them")
    func backFacing() throws {
        let (parent, child) = try parentAndChild()
        parent.sublayerTransform = .perspective(distance: 500)
        child.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
        let p = CGPoint(100, 100)
        #expect(parent.hitTest(p, policy: .frontmost) === child)
        child.isDoubleSided = false
        #expect(parent.hitTest(p, policy: .treeOrder) === child)
        #expect(parent.hitTest(p, policy: .coreAnimation) === child)
        #expect(parent.hitTest(p, policy: .frontmost) === parent)
        let all = parent.hitTestAll(p)
        #expect(all.map(\.layer) == [child, parent])
        #expect(all.map(\.isCulled) == [true, false])
        // Seen from behind, the child's local x runs the other way: the touch 20 right of the centre is
        // 20 left of the child's centre.
        let result = try #require(parent.hitTestResult(CGPoint(120, 100)))
        expectApprox(result.localPoint, CGPoint(30, 50), tolerance: 1e-9)
    }

    @Test("A transform layer is never returned, even where nothing else is hit")
    func transformLayerNeverReturned() throws {
        let root = Layer(name: "root", frame: CGRect(0, 0, 200, 200))
        let tl = TransformLayer()
        tl.frame = CGRect(0, 0, 200, 200)
        tl.backgroundColor = .red
        try root.addSublayer(tl)
        for policy in HitTestPolicy.allCases { #expect(root.hitTest(CGPoint(100, 100), policy: policy) === root) }
        #expect(tl.hitTest(CGPoint(100, 100)) == nil)
        #expect(root.hitTestAll(CGPoint(100, 100)).map(\.layer) == [root])
        // Its sublayers are found through it, with its transform applied.
        let leaf = Layer(name: "leaf", frame: CGRect(0, 0, 50, 50))
        try tl.addSublayer(leaf)
        tl.transform = Transform3D(translationX: 100, y: 0)
        #expect(root.hitTest(CGPoint(125, 25)) === leaf)
        #expect(root.hitTest(CGPoint(25, 25)) === root)
        #expect(tl.hitTest(CGPoint(125, 25)) === leaf)
    }

    @Test("Hit testing uses the same geometry as conversion: bounds origin, sublayerTransform, geometryFlipped")
    func sameGeometryAsConversion() throws {
        let (parent, child) = try parentAndChild(childFrame: CGRect(10, 10, 20, 20))
        parent.isGeometryFlipped = true
        // The child shows at y 170…190 (200 − y).
        #expect(parent.hitTest(CGPoint(20, 180)) === child)
        #expect(parent.hitTest(CGPoint(20, 20)) === parent)
        parent.isGeometryFlipped = false
        parent.sublayerTransform = Transform3D(scaleX: 2, y: 2)
        // Scaled about (100, 100): the child covers (−80…−40) — outside the parent, still found.
        #expect(parent.hitTest(CGPoint(-60, -60)) === child)
        #expect(parent.hitTest(CGPoint(20, 20)) === parent)
        parent.sublayerTransform = .identity
        parent.bounds.origin = CGPoint(10, 10)
        // Scrolled by (10, 10): the child now covers (0…20) in the superlayer's space.
        let result = try #require(parent.hitTestResult(CGPoint(5, 5)))
        #expect(result.layer === child)
        expectApprox(result.localPoint, CGPoint(5, 5), tolerance: 0)
    }

    @Test("A receiver below the root takes the point in its own superlayer's space")
    func receiverSpace() throws {
        let root = Layer(name: "root", frame: CGRect(0, 0, 500, 500))
        let (parent, child) = try parentAndChild()
        parent.position = CGPoint(300, 300)
        try root.addSublayer(parent)
        // parent covers 200…400 in root; child 250…350.
        #expect(parent.hitTest(CGPoint(300, 300)) === child)
        #expect(parent.hitTest(CGPoint(210, 210)) === parent)
        #expect(parent.hitTest(CGPoint(100, 100)) == nil)
    }

    @Test("Non-finite points and geometry give no hit, never a crash")
    func specials() throws {
        let (parent, child) = try parentAndChild()
        for p in [CGPoint(.nan, 0), CGPoint(0, .infinity), CGPoint(-.infinity, -.infinity)] {
            for policy in HitTestPolicy.allCases { #expect(parent.hitTest(p, policy: policy) == nil) }
            #expect(parent.hitTestAll(p).isEmpty)
        }
        child.transform.m11 = .nan
        for policy in HitTestPolicy.allCases { #expect(parent.hitTest(CGPoint(100, 100), policy: policy) === parent) }
        parent.position.x = .infinity
        for policy in HitTestPolicy.allCases { #expect(parent.hitTest(CGPoint(100, 100), policy: policy) == nil) }
        // ±0 is inside a bounds that starts at 0.
        let (p2, _) = try parentAndChild()
        #expect(p2.hitTest(CGPoint(-0.0, -0.0)) === p2)
    }

    @Test("containsPoint: min edges inside, max edges outside, in the layer's own bounds space")
    func contains() {
        let l = Layer()
        l.bounds = CGRect(10, 10, 100, 50)
        l.position = CGPoint(1000, 1000)
        #expect(l.contains(CGPoint(10, 10)))
        #expect(l.contains(CGPoint(109.999, 59.999)))
        #expect(!l.contains(CGPoint(110, 30)))
        #expect(!l.contains(CGPoint(50, 60)))
        #expect(!l.contains(CGPoint(9.999, 30)))
        #expect(!l.contains(CGPoint(.nan, 30)))
        #expect(!l.contains(CGPoint(50, .infinity)))
        // Negative sizes are read standardised: (110, 60, −100, −50) is the same rect.
        l.bounds = CGRect(110, 60, -100, -50)
        #expect(l.contains(CGPoint(10, 10)) && !l.contains(CGPoint(110, 60)))
        // An empty bounds contains nothing, not even its origin.
        l.bounds = CGRect(5, 5, 0, 0)
        #expect(!l.contains(CGPoint(5, 5)))
    }

    @Test("A transform layer's masksToBounds is ignored; hits pass through it")
    func transformLayerMasksIgnored() throws {
        let root = Layer(name: "root", frame: CGRect(0, 0, 400, 400))
        let tl = TransformLayer()
        tl.frame = CGRect(0, 0, 100, 100)
        tl.masksToBounds = true
        let leaf = Layer(name: "leaf", frame: CGRect(200, 200, 50, 50))
        try root.addSublayer(tl)
        try tl.addSublayer(leaf)
        for policy in HitTestPolicy.allCases { #expect(root.hitTest(CGPoint(225, 225), policy: policy) === leaf, "\(policy)") }
    }

    @Test("Edge-on layers are not hit")
    func edgeOn() throws {
        let (parent, child) = try parentAndChild()
        parent.sublayerTransform = .perspective(distance: 500)
        child.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0)
        for policy in HitTestPolicy.allCases { #expect(parent.hitTest(CGPoint(100, 100), policy: policy) === parent) }
    }
}

/// The book's cube (ch. 5): faces 4, 5, 6 are added after face 3, so in tree order they intercept touches
/// meant for face 3 (and its button) although they face away.
@Suite("Hit testing: the book's cube")
struct CubeHitTestingTests {
    // The probes and their projection, derived by hand: see `BookCubeProbes` in TestSupport.
    static let p1 = BookCubeProbes.p1, p1Local = BookCubeProbes.p1Local
    static let p2 = BookCubeProbes.p2, p2Local = BookCubeProbes.p2Local
    static func project(_ p: [Double]) -> (point: CGPoint, depth: Double) { BookCubeProbes.project(p) }

    @Test("A batch of points gives, per point, what hitTest gives, numbering each layer once in order of first hit",
          arguments: HitTestPolicy.allCases)
    func batch(policy: HitTestPolicy) throws {
        let cube = try BookCube()
        let p1 = Self.project(Self.p1).point, p2 = Self.project(Self.p2).point
        let points = [p1, CGPoint(5, 5), p2, CGPoint(.nan, 0), p1, CGPoint(-10, 200), p2]
        let batch = cube.container.hitTest(points, policy: policy)
        #expect(batch.hits.count == points.count)
        for (i, p) in points.enumerated() { #expect(batch[i] === cube.container.hitTest(p, policy: policy), "point \(i)") }
        // Derived by hand (see BookCubeProbes): P1 reaches face 5 in tree order and face 3 frontmost, P2 face 6
        // and face 3; (5, 5) is the container's corner; NaN and (−10, 200), left of the container, reach nothing.
        let interceptors = policy == .frontmost ? (cube.face(3), cube.face(3)) : (cube.face(5), cube.face(6))
        let expected: [Layer?] = [interceptors.0, cube.container, interceptors.1, nil, interceptors.0, nil, interceptors.1]
        #expect(zip(points.indices, expected).allSatisfy { batch[$0] === $1 })
        let distinct = policy == .frontmost ? [cube.face(3), cube.container] : [cube.face(5), cube.container, cube.face(6)]
        #expect(batch.layers.count == distinct.count && zip(batch.layers, distinct).allSatisfy { $0 === $1 })
        #expect(batch.hits == (policy == .frontmost ? [0, 1, 0, -1, 0, -1, 0] : [0, 1, 2, -1, 0, -1, 2]))
        #expect(cube.container.hitTest([], policy: policy).hits.isEmpty)
    }

    @Test("Tree order: faces 5 and 6, added after face 3, intercept touches on face 3",
          arguments: [(CubeHitTestingTests.p1, 5), (CubeHitTestingTests.p2, 6)])
    func treeOrderIntercepts(probe: [Double], interceptor: Int) throws {
        let cube = try BookCube()
        let touch = CubeHitTestingTests.project(probe).point
        #expect(cube.container.hitTest(touch) === cube.face(interceptor))
        #expect(cube.container.hitTest(touch, policy: .treeOrder) === cube.face(interceptor))
        // All zPositions are 0, so Core Animation's order is the tree order.
        #expect(cube.container.hitTest(touch, policy: .coreAnimation) === cube.face(interceptor))
        // What the viewer sees there is face 3.
        #expect(cube.container.hitTest(touch, policy: .frontmost) === cube.face(3))
    }

    @Test("The frontmost hit lands on face 3 at the derived local point and depth", arguments: [(CubeHitTestingTests.p1, CubeHitTestingTests.p1Local), (CubeHitTestingTests.p2, CubeHitTestingTests.p2Local)])
    func frontmostLocalPoint(probe: [Double], local: CGPoint) throws {
        let cube = try BookCube()
        let (touch, depth) = CubeHitTestingTests.project(probe)
        let result = try #require(cube.container.hitTestResult(touch, policy: .frontmost))
        #expect(result.layer === cube.face(3))
        #expect(result.face === cube.face(3))
        #expect(result.solid == nil)
        expectApprox(result.localPoint, local, tolerance: 1e-6)
        expectApprox(result.depth, depth, tolerance: 1e-6)
    }

    @Test("The book's fix: userInteractionEnabled = NO on faces 4, 5, 6 lets face 3 receive the touch")
    func booksFix() throws {
        let cube = try BookCube()
        for n in [4, 5, 6] { cube.face(n).allowsHitTesting = false }
        for probe in [CubeHitTestingTests.p1, CubeHitTestingTests.p2] {
            let touch = CubeHitTestingTests.project(probe).point
            for policy in HitTestPolicy.allCases {
                #expect(cube.container.hitTest(touch, policy: policy) === cube.face(3), "\(policy)")
            }
        }
    }

    @Test("The book's other fix: putting face 3 above face 6 in the tree")
    func reorderFix() throws {
        let cube = try BookCube()
        try cube.container.insertSublayer(cube.face(3), above: cube.face(6))
        for probe in [CubeHitTestingTests.p1, CubeHitTestingTests.p2] {
            #expect(cube.container.hitTest(CubeHitTestingTests.project(probe).point) === cube.face(3))
        }
    }

    @Test("isDoubleSided = false does not help tree order (the book), but .frontmost still finds face 3")
    func doubleSidedDoesNotHelp() throws {
        let cube = try BookCube()
        for face in cube.faces { face.isDoubleSided = false }
        let touch = CubeHitTestingTests.project(CubeHitTestingTests.p1).point
        #expect(cube.container.hitTest(touch) === cube.face(5))
        #expect(cube.container.hitTest(touch, policy: .frontmost) === cube.face(3))
        let all = cube.container.hitTestAll(touch)
        #expect(all.map(\.layer) == [cube.face(5), cube.face(3), cube.container])
        #expect(all.map(\.isCulled) == [true, false, false])
    }

    @Test("A button on face 3: intercepted in tree order, reached frontmost or after the fix")
    func buttonOnFace3() throws {
        let cube = try BookCube()
        let button = Layer(name: "button", frame: CGRect(50, 120, 100, 40))
        try cube.face(3).addSublayer(button)
        let touch = CubeHitTestingTests.project(CubeHitTestingTests.p1).point
        #expect(cube.container.hitTest(touch) === cube.face(5))
        let front = try #require(cube.container.hitTestResult(touch, policy: .frontmost))
        #expect(front.layer === button)
        #expect(front.face === cube.face(3))
        // Face 3's (100, 140) is the button's (50, 20).
        expectApprox(front.localPoint, CGPoint(50, 20), tolerance: 1e-6)
        for n in [4, 5, 6] { cube.face(n).allowsHitTesting = false }
        #expect(cube.container.hitTest(touch) === button)
        // Elsewhere on face 3 (P2, local (160, 60)) the button is not under the touch.
        for n in [4, 5, 6] { cube.face(n).allowsHitTesting = true }
        #expect(cube.container.hitTest(CubeHitTestingTests.project(CubeHitTestingTests.p2).point, policy: .frontmost) === cube.face(3))
    }

    @Test("hitTestAll lists every layer under the touch with its tree rank and depth rank")
    func hitTestAll() throws {
        let cube = try BookCube()
        let touch = CubeHitTestingTests.project(CubeHitTestingTests.p1).point
        let all = cube.container.hitTestAll(touch)
        #expect(all.map(\.layer) == [cube.face(5), cube.face(3), cube.container])
        #expect(all.map(\.treeRank) == [0, 1, 2])
        #expect(all.map(\.depthRank) == [1, 0, 2])
        // Face 5's point: (−100, 1.42, −44) in the cube, its local (u, v) = (z + 100, y + 100).
        // The ray from the eye E = (250, −500h, 250) towards P1 reaches x = −100 at s = 1.4.
        let h = BookCubeProbes.h
        let y5 = -500 * h + 1.4 * (-100 + 500 * h)
        expectApprox(all[0].result.localPoint, CGPoint(56, y5 + 100), tolerance: 1e-6)
        let (_, depth5) = CubeHitTestingTests.project([-100, y5, -44])
        expectApprox(all[0].result.depth, depth5, tolerance: 1e-6)
        #expect(all[1].result.depth > all[0].result.depth)
    }

    @Test("Outside the cube's projection the container is hit; outside the container nothing")
    func outsideTheCube() throws {
        let cube = try BookCube()
        for policy in HitTestPolicy.allCases {
            #expect(cube.container.hitTest(CGPoint(5, 5), policy: policy) === cube.container)
            #expect(cube.container.hitTest(CGPoint(-5, 5), policy: policy) == nil)
        }
    }

    // MARK: The same cube as a solid

    @Test("Inside a TransformLayer: same answers, the solid is reported and never returned")
    func cubeInSolid() throws {
        let cube = try BookCube(inSolid: true)
        let solid = try #require(cube.solid)
        let button = Layer(name: "button", frame: CGRect(50, 120, 100, 40))
        try cube.face(3).addSublayer(button)
        let t1 = CubeHitTestingTests.project(CubeHitTestingTests.p1).point
        let t2 = CubeHitTestingTests.project(CubeHitTestingTests.p2).point
        #expect(cube.container.hitTest(t1) === cube.face(5))
        #expect(cube.container.hitTest(t2) === cube.face(6))
        #expect(cube.container.hitTest(t1, policy: .coreAnimation) === cube.face(5))
        let front = try #require(cube.container.hitTestResult(t1, policy: .frontmost))
        #expect(front.layer === button)
        #expect(front.face === cube.face(3))
        #expect(front.solid === solid)
        expectApprox(front.localPoint, CGPoint(50, 20), tolerance: 1e-6)
        expectApprox(front.depth, CubeHitTestingTests.project(CubeHitTestingTests.p1).depth, tolerance: 1e-6)
        let intercepted = try #require(cube.container.hitTestResult(t1))
        #expect(intercepted.face === cube.face(5))
        #expect(intercepted.solid === solid)
        // The transform layer is never in the list, even though its bounds cover the touch.
        let all = cube.container.hitTestAll(t1)
        #expect(all.map(\.layer) == [cube.face(5), button, cube.face(3), cube.container])
        #expect(!all.contains { $0.layer === solid })
        #expect(all.map(\.depthRank) == [2, 0, 1, 3])
        // Outside the cube: the container, not the solid.
        for policy in HitTestPolicy.allCases { #expect(cube.container.hitTest(CGPoint(5, 5), policy: policy) === cube.container) }
        // The fix works through the solid too.
        for n in [4, 5, 6] { cube.face(n).allowsHitTesting = false }
        #expect(cube.container.hitTest(t1) === button)
        #expect(cube.container.hitTest(t2) === cube.face(3))
    }

    @Test("The solid as the receiver takes the touch in the container's space")
    func solidAsReceiver() throws {
        let cube = try BookCube(inSolid: true)
        let solid = try #require(cube.solid)
        let t1 = CubeHitTestingTests.project(CubeHitTestingTests.p1).point
        #expect(solid.hitTest(t1) === cube.face(5))
        #expect(solid.hitTest(t1, policy: .frontmost) === cube.face(3))
        #expect(solid.hitTest(CGPoint(5, 5)) == nil)
        #expect(solid.hitTestAll(t1).map(\.layer) == [cube.face(5), cube.face(3)])
    }

    @Test("Turning the solid as a whole moves the hits with it")
    func turningTheSolid() throws {
        let cube = try BookCube(inSolid: true)
        let solid = try #require(cube.solid)
        // A half turn about y swaps left and right, front and back. The touch at P1's projection now lands on
        // the cube's own point (0, −100, −40), still on face 3, and its ray leaves through world x = −100,
        // where face 2 (the cube's right face) now is. Face 2 is earlier in the tree than face 3, and the
        // world planes of faces 4, 5, 6 miss this ray (see P1's derivation: y = 100, x = 100 and z = 100 all
        // lie outside the cube along it) — so this time tree order gets it right.
        solid.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
        let touch = CubeHitTestingTests.project(CubeHitTestingTests.p1).point
        #expect(cube.container.hitTest(touch, policy: .frontmost) === cube.face(3))
        let result = try #require(cube.container.hitTestResult(touch, policy: .frontmost))
        // Face 3's local point is mirrored through the centre: (200 − 100, 200 − 140).
        expectApprox(result.localPoint, CGPoint(100, 60), tolerance: 1e-6)
        #expect(cube.container.hitTest(touch) === cube.face(3))
        #expect(cube.container.hitTestAll(touch).map(\.layer) == [cube.face(3), cube.face(2), cube.container])
    }
}
