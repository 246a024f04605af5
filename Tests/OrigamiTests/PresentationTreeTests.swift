import Dispatch
import Foundation
import Origami
import Synchronization
import Testing
import TestSupport

/// The presentation tree (DESIGN §8): one frozen model of the 3D contexts that every reader shares.
@Suite("Presentation tree")
struct PresentationTreeTests {
    /// The book's cube on a transform layer: container (node 0), cube (1), faces 1…6 (nodes 2…7) in tree order.
    @Test("the book's cube: contexts, members in tree order, transform-layer chain, facing")
    func bookCubeStructure() throws {
        let cube = try BookCube(inSolid: true)
        let tree = PresentationTree(cube.container)
        #expect(tree.count == 8)
        #expect(tree.layer(0) === cube.container && tree.layer(1) === cube.solid)
        for n in 1...6 { #expect(tree.layer(n + 1) === cube.face(n)) }
        #expect(tree[1].kind == .transformLayer && tree[2].kind == .layer)
        // The faces are drawn into the container's context, through the cube; the container into the query plane.
        #expect(tree.members(of: -1) == [0])
        #expect(tree.members(of: 0) == Array(2...7))
        #expect(tree.members(of: 2).isEmpty)
        for i in 2...7 {
            #expect(tree.context(of: i) == 0)
            #expect(tree.transformLayers(of: i) == [1])
            #expect(tree.isFace(i))
            #expect(tree[i].parent == 1 && tree[i].level == 2)
        }
        #expect(tree.context(of: 1) == 0 && tree.context(of: 0) == -1)
        #expect(!tree.isFace(0))
        // Under the book's camera (Rx(−45°)·Ry(−45°) after each face's own turn) the outward normals of faces
        // 1 (0,0,1), 2 (1,0,0) and 3 (0,−1,0) end with z = +½, +½ and +√½ (towards the eye); faces 4, 5, 6 with the
        // opposite signs. See BookCubeProbes for the two rotations.
        for n in 1...3 { #expect(!tree.isSeenFromBehind(n + 1), "face \(n)") }
        for n in 4...6 { #expect(tree.isSeenFromBehind(n + 1), "face \(n)") }
    }

    @Test("a face's matrix into its context is its placement, the cube's sublayer space, the container's")
    func memberTransform() throws {
        let cube = try BookCube(inSolid: true)
        let tree = PresentationTree(cube.container)
        let face3 = cube.face(3)
        // Chained without flattening: T(−A)·t·T(position) of the face, the cube's (identity sublayer space, the
        // cube centred on the container's centre), then the container's T(−A)·sublayerTransform·T(A).
        let expected = face3.geometry.placementTransform
            .concatenating(try #require(cube.solid).geometry.sublayerSpaceTransform)
            .concatenating(try #require(cube.solid).geometry.placementTransform)
            .concatenating(cube.container.geometry.sublayerSpaceTransform)
        expectApprox(tree.transform(of: 4), expected, tolerance: 1e-9)
        expectApprox(tree.transform(of: 4), try #require(face3.transform3D(to: cube.container)), tolerance: 1e-9)
    }

    @Test("inherited opacity multiplies the transform layers' opacities, each clamped to 0…1")
    func inheritedOpacity() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let outer = TransformLayer(), inner = TransformLayer(), face = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        outer.opacity = 0.5
        inner.opacity = 0.4
        try root.addSublayer(outer)
        try outer.addSublayer(inner)
        try inner.addSublayer(face)
        var tree = PresentationTree(root)
        #expect(tree.transformLayers(of: 3) == [1, 2])
        expectApprox(tree.inheritedOpacity(of: 3), 0.2, tolerance: 1e-12)
        #expect(tree.inheritedOpacity(of: 0) == 1)
        inner.opacity = 2
        tree = PresentationTree(root)
        expectApprox(tree.inheritedOpacity(of: 3), 0.5, tolerance: 1e-12)
    }

    /// The answers of a frozen tree are made of its own numbers: editing, moving, hiding and removing layers
    /// afterwards changes the next tree, not this one.
    @Test("a frozen tree keeps its answers while the layers change")
    func frozenAnswers() throws {
        let cube = try BookCube(inSolid: true)
        let centre = CGPoint(x: 200, y: 200)
        let tree = PresentationTree(cube.container)
        let before = HitTestPolicy.allCases.map { tree.hitTestResult(centre, policy: $0) }
        let all = tree.hitTestAll(centre)
        let transforms = (0..<tree.count).map { tree.transform(of: $0) }
        // The book: face 4 receives the touch at the centre, face 3 is what the eye sees there.
        #expect(before[0]?.layer === cube.face(4) && before[2]?.layer === cube.face(3))

        cube.face(3).isHidden = true
        cube.face(4).removeFromSuperlayer()
        try #require(cube.solid).transform = Transform3D(rotationAngle: 1, x: 0, y: 1, z: 0)
        cube.container.position = CGPoint(x: 900, y: 900)
        cube.face(5).allowsHitTesting = false

        let live = cube.container.hitTest(centre, policy: .frontmost)
        #expect(live == nil, "the moved container is no longer under the point")
        for (policy, old) in zip(HitTestPolicy.allCases, before) {
            let again = tree.hitTestResult(centre, policy: policy)
            #expect(again?.layer === old?.layer && again?.face === old?.face && again?.solid === old?.solid)
            #expect(again?.localPoint == old?.localPoint && again?.depth == old?.depth)
        }
        let allAgain = tree.hitTestAll(centre)
        #expect(allAgain.map(\.layer) == all.map(\.layer))
        #expect(allAgain.map(\.depthRank) == all.map(\.depthRank))
        #expect((0..<tree.count).map { tree.transform(of: $0) } == transforms)
        #expect(tree[4].isHidden == false)
    }

    @Test("an answer's depth is the number the depth order sorted by: ranks follow depth")
    func depthRanksFollowDepth() throws {
        let cube = try BookCube(inSolid: true)
        let tree = PresentationTree(cube.container)
        for point in [CGPoint(x: 200, y: 200), CGPoint(x: 150, y: 230), CGPoint(x: 260, y: 170)] {
            let faces = tree.hitTestAll(point).filter { $0.layer !== cube.container }.sorted { $0.depthRank < $1.depthRank }
            #expect(faces.count >= 2)
            for (a, b) in zip(faces, faces.dropFirst()) { #expect(a.result.depth >= b.result.depth) }
            #expect(tree.hitTestResult(point, policy: .frontmost)?.depth == faces.first { !$0.isCulled }?.result.depth)
        }
    }

    @Test("several threads query one tree at once and get the single-threaded answers")
    func concurrentReaders() throws {
        let cube = try BookCube(inSolid: true)
        let tree = PresentationTree(cube.container)
        let points = (0..<400).map { CGPoint(x: 80 + Double($0 % 20) * 12, y: 80 + Double($0 / 20) * 12) }
        let expected = HitTestPolicy.allCases.map { tree.hitNodes(points, policy: $0) }
        let ranks = points.map { tree.hitTestAll($0).map(\.depthRank) }
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { k in
            var bad = 0
            for (p, policy) in HitTestPolicy.allCases.enumerated() where tree.hitNodes(points, policy: policy) != expected[p] {
                bad += 1
            }
            for (i, point) in points.enumerated() where i % 8 == k && tree.hitTestAll(point).map(\.depthRank) != ranks[i] {
                bad += 1
            }
            mismatches.withLock { $0 += bad }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }

    @Test("threads racing to make a new tree's query tables (inverse plane maps, programs) get the single-threaded answers")
    func concurrentFirstQueries() throws {
        let cube = try BookCube(inSolid: true)
        let reference = PresentationTree(cube.container)
        let points = (0..<400).map { CGPoint(x: 80 + Double($0 % 20) * 12, y: 80 + Double($0 / 20) * 12) }
        let expected = HitTestPolicy.allCases.map { reference.hitNodes(points, policy: $0) }
        let ranks = points.map { reference.hitTestAll($0).map(\.depthRank) }
        let mismatches = Mutex(0)
        for _ in 0..<10 {
            // Nothing has been asked of this tree: its first queries make its tables, on several threads at once.
            let tree = PresentationTree(cube.container)
            DispatchQueue.concurrentPerform(iterations: 4) { k in
                var bad = 0
                if k % 2 == 0 {
                    for (i, point) in points.enumerated() where i % 2 == k / 2 && tree.hitTestAll(point).map(\.depthRank) != ranks[i] {
                        bad += 1
                    }
                } else {
                    for (p, policy) in HitTestPolicy.allCases.enumerated() where tree.hitNodes(points, policy: policy) != expected[p] {
                        bad += 1
                    }
                }
                mismatches.withLock { $0 += bad }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }

    @Test("layers the renderer cannot draw, and their subtrees, are marked not rendered; hidden ones still listed")
    func renderedNodes() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let hidden = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10)), child = Layer()
        let broken = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10)), ok = Layer()
        hidden.isHidden = true
        broken.zPosition = .nan
        try root.addSublayer(hidden)
        try hidden.addSublayer(child)
        try root.addSublayer(broken)
        try root.addSublayer(ok)
        let tree = PresentationTree(root)
        #expect(tree.count == 5)
        #expect(tree.renderedNodes == [true, false, false, false, true])
        #expect(tree.members(of: 0) == [1, 3, 4])
    }
}
