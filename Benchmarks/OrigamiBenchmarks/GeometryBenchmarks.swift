import Foundation
import Synchronization
import Origami
import Fixtures
@_spi(Benchmarks) import OrigamiRender
import CBenchBSP

/// Geometry: each library call against the same arithmetic written out by hand.
enum GeometryBenchmarks {
    static func run(_ h: Harness) throws {
        let group = "geometry"

        // Frame getter: 64 layers with rotations (and some perspective) about z and x.
        var rng = SplitMix(7)
        var layers: [Layer] = [], hands: [HandLayer] = []
        for i in 0..<64 {
            var t = Transform3D(rotationAngle: rng.next(0, 2 * .pi), x: 0, y: 0, z: 1)
            if i % 2 == 0 { t = t.rotated(by: rng.next(-1, 1), x: 1, y: 0, z: 0) }
            if i % 4 == 0 { t.m34 = -1.0 / 500 }
            let l = Layer()
            l.bounds = CGRect(x: 0, y: 0, width: rng.next(10, 200), height: rng.next(10, 200))
            l.position = CGPoint(x: rng.next(0, 300), y: rng.next(0, 300))
            l.transform = t
            layers.append(l)
            hands.append(HandLayer(width: Double(l.bounds.width), height: Double(l.bounds.height),
                                   positionX: Double(l.position.x), positionY: Double(l.position.y),
                                   transform: Scenes.m4(t)))
        }
        layers = opaque(layers); hands = opaque(hands)
        var i = 0
        h.row(group, "frame getter (rotated layer)", baseline: "hand: 4 corners, min/max → CGRect", target: "≤ 3×") {
            i = (i + 1) & 63
            blackHole(layers[i].frame)
        } against: {
            i = (i + 1) & 63
            let l = hands[i], m = l.transform.a
            let x0 = -l.width * l.anchorX, y0 = -l.height * l.anchorY, x1 = x0 + l.width, y1 = y0 + l.height
            let xs = (x0 * m.0 + y0 * m.4, x1 * m.0 + y0 * m.4, x0 * m.0 + y1 * m.4, x1 * m.0 + y1 * m.4)
            let ys = (x0 * m.1 + y0 * m.5, x1 * m.1 + y0 * m.5, x0 * m.1 + y1 * m.5, x1 * m.1 + y1 * m.5)
            let minX = min(min(xs.0, xs.1), min(xs.2, xs.3)), maxX = max(max(xs.0, xs.1), max(xs.2, xs.3))
            let minY = min(min(ys.0, ys.1), min(ys.2, ys.3)), maxY = max(max(ys.0, ys.1), max(ys.2, ys.3))
            // The API's result type: a CGRect.
            blackHole(CGRect(x: minX + m.12 + l.positionX, y: minY + m.13 + l.positionY, width: maxX - minX,
                             height: maxY - minY))
        }

        let transforms = opaque(layers.map(\.transform)), m4s = opaque(hands.map(\.transform))
        h.row(group, "4×4 concat", baseline: "hand: 64 multiply-adds") {
            i = (i + 1) & 63
            blackHole(transforms[i].concatenating(transforms[(i + 1) & 63]))
        } against: {
            i = (i + 1) & 63
            blackHole(m4s[i].times(m4s[(i + 1) & 63]))
        }
        h.row(group, "4×4 inverse", baseline: "hand: cofactor inverse") {
            i = (i + 1) & 63
            blackHole(transforms[i].inverted())
        } against: {
            i = (i + 1) & 63
            blackHole(m4s[i].inverse())
        }

        try conversion(h, group)
        try hitTests(h, group)
        try depthSort(h, group)
    }

    /// Three nested 3D-transformed layers under a root with perspective: the library's tree and the same
    /// geometry as plain data for the hand-written loop (index 0 is the root).
    static func conversionChain() throws -> (root: Layer, leaf: Layer, hand: [HandLayer]) {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        var p = Transform3D.identity; p.m34 = -1.0 / 600
        root.sublayerTransform = p
        var handChain: [HandLayer] = [HandLayer(width: 400, height: 400, positionX: 200, positionY: 200,
                                                transform: .identity, sublayerTransform: Scenes.m4(p))]
        var parent = root
        for (k, angle) in [0.5, -0.4, 0.3].enumerated() {
            let l = Layer()
            l.bounds = CGRect(x: 0, y: 0, width: 200 - 40 * Double(k), height: 150)
            l.position = CGPoint(x: 200 - 30 * Double(k), y: 180)
            l.transform = Transform3D(rotationAngle: angle, x: 1, y: k == 1 ? 1 : 0, z: 0.2)
            if k < 2 { l.sublayerTransform = p }
            try parent.addSublayer(l)
            handChain.append(HandLayer(width: Double(l.bounds.width), height: 150, positionX: Double(l.position.x),
                                       positionY: 180, transform: Scenes.m4(l.transform),
                                       sublayerTransform: k < 2 ? Scenes.m4(p) : .identity))
            parent = l
        }
        return (root, parent, handChain)
    }

    /// A point converted from the innermost of three nested 3D-transformed layers to the root.
    static func conversion(_ h: Harness, _ group: String) throws {
        let (root, parent, handChain) = try conversionChain()
        let leaf = opaque(parent), top = opaque(root), chain = opaque(handChain)
        var i = 0
        h.row(group, "convert point, 3-level 3D chain", baseline: "hand: 3 homographies + divides") {
            i = (i + 1) & 63
            blackHole(top.convert(CGPoint(x: 20 + Double(i), y: 30), from: leaf))
        } against: {
            i = (i + 1) & 63
            var x = 20 + Double(i), y = 30.0
            for level in stride(from: 3, through: 1, by: -1) {
                let m = chain[level].placement.times(chain[level - 1].sublayerSpace).plane
                let (X, Y, W) = m.apply(x, y)
                guard W > 0 else { blackHole(0); return }
                x = X / W; y = Y / W
            }
            blackHole((x, y))
        }
    }

    /// The book's cube: one point per call, cycling over 64 points across the cube. Steady state: one
    /// presentation tree asked again and again, against the hand loop with the faces' inverses computed once (as
    /// the tree has them) that answers as `hitTest` must, with the `Layer`. After a change: the layer tree is
    /// edited, so the next query freezes it first, against the hand loop that derives every matrix and inverse per
    /// call.
    static func hitTests(_ h: Harness, _ group: String) throws {
        let cube = opaque(try BookCube(faceColors: Scenes.faceColors).container)
        let tree = opaque(PresentationTree(cube))
        let (container, faces) = Scenes.handCube()
        let inverses = HandInverses(container: container, faces: faces)
        let handLayers = opaque(cube.sublayers + [cube])   // as the hand loop numbers its answers
        let points = opaque(hitPoints)
        let policies: [(HitTestPolicy, String)] = [(.treeOrder, "tree order"), (.coreAnimation, "CA order"),
                                                  (.frontmost, "frontmost")]
        // Like for like: the hand loop answers with the same layer as `hitTest` at every point the rows ask.
        for (policy, label) in policies {
            let grid = tree.hitTest(hitGrid, policy: policy)
            let hand = handGrid(hitGrid, inverses, frontmost: policy == .frontmost)
            for (k, p) in (points + hitGrid).enumerated() {
                let answer = k < points.count ? tree.hitTest(p, policy: policy) : grid[k - points.count]
                let expected = handLayers.answer(k < points.count
                    ? inverses.hit(p, frontmost: policy == .frontmost) : Int(hand[k - points.count]))
                guard answer === expected else {
                    throw BenchError("hit test, \(label), at \(p): the hand loop answers \(expected?.name ?? "nothing"), hitTest \(answer?.name ?? "nothing")")
                }
            }
        }
        var i = 0
        for (policy, label) in policies {
            h.row(group, "hit test book cube, \(label)", baseline: "hand: 6 faces, inverses precomputed, answers the Layer",
                  target: "≤ 1.5×") {
                i = (i + 1) & 63
                blackHole(tree.hitTest(points[i], policy: policy))
            } against: {
                i = (i + 1) & 63
                blackHole(handLayers.answer(inverses.hit(points[i], frontmost: policy == .frontmost)))
            }
        }
        // Not judged: what answering with the `Layer` (as `hitTest` and the baselines above must) costs the hand
        // loop — an array read, a retain and the caller's release per query — against the same loop answering with
        // an index. The retain is an atomic operation, whose price differs a lot between machines.
        h.row(group, "hand loop returning its Layer, tree order (API floor)", baseline: "hand: 6 faces, inverses precomputed, answers an index",
              note: "the retain/release a `Layer` answer costs") {
            i = (i + 1) & 63
            let k = inverses.hit(points[i], frontmost: false)
            blackHole(handLayers.answer(k))
        } against: {
            i = (i + 1) & 63
            blackHole(inverses.hit(points[i], frontmost: false))
        }
        let face = opaque(cube.sublayers[0])
        for (policy, label) in [policies[0], policies[2]] {
            h.row(group, "first hit test after a change, \(label)", baseline: "hand: 6 faces, 3×3 inverse each") {
                i = (i + 1) & 63
                face.zPosition = Double(i & 1) * 1e-9   // an edit: the next query must see the tree anew
                blackHole(cube.hitTest(points[i], policy: policy))
            } against: {
                i = (i + 1) & 63
                blackHole(handHit(points[i], container: container, faces: faces, frontmost: policy == .frontmost))
            }
        }
        face.zPosition = 0

        // Every 8th pixel of a 1024² canvas over the cube: 128×128 touches per call, one core — the cost of a
        // query in bulk, through the batch API `origami hit --grid` calls (an answer per point as a number, each
        // layer reached once), without the hit map's bookkeeping.
        let grid = hitGrid
        for (policy, label) in [policies[0], policies[2]] {
            h.row("rendering", "hit grid 128² over 1024² cube, \(label)", baseline: "hand: the same 16384 queries, an answer per point",
                  target: "≤ 1.5×", samples: 9) {
                blackHole(tree.hitTest(grid, policy: policy).hits.count { $0 >= 0 })
            } against: {
                blackHole(handGrid(grid, inverses, frontmost: policy == .frontmost).count { $0 >= 0 })
            }
        }
    }

    /// The hand loop's answers at `points`, one number per point as the batch hit test gives them (`HandInverses.hit`'s).
    static func handGrid(_ points: [CGPoint], _ inverses: HandInverses, frontmost: Bool) -> [Int32] {
        points.map { Int32(inverses.hit($0, frontmost: frontmost)) }
    }

    /// The single-point rows' 64 points across the cube (also `--profile hit-rows-*`).
    static let hitPoints: [CGPoint] = {
        var rng = SplitMix(11)
        return (0..<64).map { _ in CGPoint(x: rng.next(80, 320), y: rng.next(80, 320)) }
    }()

    /// Every 8th pixel centre of the 1024² canvas (also `--profile hit-grid-*`).
    static let hitGrid: [CGPoint] = (0..<128).flatMap { y in (0..<128).map { x in
        CGPoint(x: (Double(x * 8) + 0.5) / Scenes.scale, y: (Double(y * 8) + 0.5) / Scenes.scale) } }

    /// `HitMap` of the book cube at 1024² (both policies at every pixel centre, rows shared among the cores)
    /// against the hand-written loop on the same 2 × 1024² queries, split among the cores the same way.
    static func hitMap(_ h: Harness) throws {
        let tree = opaque(PresentationTree(try BookCube(faceColors: Scenes.faceColors).container))
        let (container, faces) = Scenes.handCube()
        let inverses = HandInverses(container: container, faces: faces)
        let cores = ProcessInfo.processInfo.activeProcessorCount, n = Scenes.pixels, bands = cores * 4
        var intercepted = 0, handIntercepted = 0
        try h.row("rendering", "hitmap 1024² of the book cube, all cores",
                  baseline: "hand: the same 2 × 1024² queries (inverses precomputed), all cores", target: "≤ 1.5×",
                  note: "\(cores) cores; \(intercepted) px intercepted (tree order ≠ frontmost; the hand loop: \(handIntercepted))",
                  samples: 5) {
            let map = try HitMap(tree: tree, size: Scenes.canvas, scale: Scenes.scale) { $0.name ?? "?" }
            intercepted = map.interceptedCount
            blackHole(map)
        } against: {
            // The hand loop counts what the map counts, the pixels whose two answers differ: every answer is read
            // whole (a count of answers ≥ 0 would let the compiler skip the faces, every point inside the cube
            // answering ≥ 0).
            let hits = Mutex(0)
            DispatchQueue.concurrentPerform(iterations: bands) { b in
                var differ = 0
                for y in b * n / bands ..< (b + 1) * n / bands {
                    for x in 0..<n {
                        let p = CGPoint(x: (Double(x) + 0.5) / Scenes.scale, y: (Double(y) + 0.5) / Scenes.scale)
                        if inverses.hit(p, frontmost: false) != inverses.hit(p, frontmost: true) { differ += 1 }
                    }
                }
                hits.withLock { $0 += differ }
            }
            handIntercepted = hits.withLock { $0 }
        }
    }

    /// The face a touch reaches: later faces first (tree order) or the nearest at the point (frontmost);
    /// `faces.count` for the container itself (inside it, on no face), −1 for none (outside it).
    @inline(__always)
    static func handHit(_ p: CGPoint, container: HandLayer, faces: [HandLayer], frontmost: Bool) -> Int {
        // The container is placed at its own position with an identity transform: local = point − position + anchor.
        let (ax, ay) = container.anchor
        let x = Double(p.x) - container.positionX + ax, y = Double(p.y) - container.positionY + ay
        guard container.contains(x, y) else { return -1 }
        let space = container.sublayerSpace
        var best = -1, bestDepth = -Double.infinity
        for k in stride(from: faces.count - 1, through: 0, by: -1) {
            let m = faces[k].placement.times(space)
            let inv = m.plane.adjugate()
            guard inv.determinant != 0 else { continue }
            let (X, Y, W) = inv.apply(x, y)
            // The adjugate is the inverse times det: the forward w is positive when W·det > 0.
            guard W * m.plane.determinant > 0 else { continue }
            let u = X / W, v = Y / W
            guard faces[k].contains(u, v) else { continue }
            if !frontmost { return k }
            let depth = m.project(u, v, 0).2
            if depth > bestDepth { bestDepth = depth; best = k }
        }
        return best < 0 ? faces.count : best
    }

    /// The book cube's faces with their plane maps and inverses computed once: the hand-written counterpart
    /// of a presentation tree.
    struct HandInverses: Sendable {
        let anchorX: Double, anchorY: Double, positionX: Double, positionY: Double
        let container: HandLayer
        let faces: [(face: HandLayer, forward: M4, inverse: H3, determinant: Double)]

        init(container: HandLayer, faces: [HandLayer]) {
            self.container = container
            (anchorX, anchorY) = container.anchor
            positionX = container.positionX; positionY = container.positionY
            self.faces = faces.map { f in
                let m = f.placement.times(container.sublayerSpace)
                return (f, m, m.plane.adjugate(), m.plane.determinant)
            }
        }

        /// As `handHit`, reading the precomputed matrices.
        @inline(__always)
        func hit(_ p: CGPoint, frontmost: Bool) -> Int {
            let x = Double(p.x) - positionX + anchorX, y = Double(p.y) - positionY + anchorY
            guard container.contains(x, y) else { return -1 }
            var best = -1, bestDepth = -Double.infinity
            for k in stride(from: faces.count - 1, through: 0, by: -1) {
                let f = faces[k]
                guard f.inverse.determinant != 0 else { continue }
                let (X, Y, W) = f.inverse.apply(x, y)
                guard W * f.determinant > 0 else { continue }
                let u = X / W, v = Y / W
                guard f.face.contains(u, v) else { continue }
                if !frontmost { return k }
                let depth = f.forward.project(u, v, 0).2
                if depth > bestDepth { bestDepth = depth; best = k }
            }
            return best < 0 ? faces.count : best
        }
    }

    /// BSP depth sort: the cube's faces and 32 random intersecting quads against the hand-written BSP, then
    /// scenes of 10, 100 and 1000 cubes against a plain sort of their faces' depths (painter's algorithm).
    static func depthSort(_ h: Harness, _ group: String) throws {
        let cubeTree = try RenderTree(root: try BookCube(faceColors: Scenes.faceColors).container)
        let cubeFaces = BenchmarkProbes.scenePolygons(cubeTree.members[0].node.members)
        for (label, polygons) in [("BSP of the cube's 6 faces", cubeFaces), ("BSP of 32 random intersecting quads", Scenes.randomQuads(32))] {
            // The C baseline's input: every corner end to end, polygon i at start[i] ..< start[i + 1].
            let flat = opaque(polygons.flatMap { $0.flatMap { [$0.x, $0.y, $0.z] } })
            let start = opaque(polygons.reduce(into: [Int32(0)]) { $0.append($0[$0.count - 1] + Int32($1.count)) })
            var output = cbsp_output()
            defer { cbsp_free(&output) }
            let reference = Int(cbsp_back_to_front(flat, start, Int32(polygons.count), 1e-3, &output))
            let fragments = BenchmarkProbes.backToFront(polygons)
            // The same fragments, in the same order, from the same polygons: the two sorts do the same work.
            let same = fragments.count == reference && fragments.enumerated().allSatisfy { k, f in
                Int(output.polygon[k]) == f.polygon && f.points.count == Int(output.start[k + 1] - output.start[k])
            }
            h.row(group, label, baseline: "C: the same BSP on flat arrays (CBenchBSP)", target: "≤ 3×",
                  note: "\(polygons.count) → \(fragments.count) fragments (C: \(reference), \(same ? "the same" : "DIFFERENT"))") {
                blackHole(BenchmarkProbes.backToFront(polygons))
            } against: {
                blackHole(cbsp_back_to_front(flat, start, Int32(polygons.count), 1e-3, &output))
            }
        }
        for cubes in [10, 100, 1000] {
            let tree = try RenderTree(root: try Scenes.lattice(cubes: cubes, lighting: nil))
            let members = tree.members[0].node.members
            let depths = BenchmarkProbes.scenePolygons(members).map { p in p.reduce(0) { $0 + $1.z } / Double(p.count) }
            let fragments = BenchmarkProbes.depthOrder(members).count
            var perFace = Duration.zero
            h.row(group, "depth sort \(members.count) faces (\(cubes) cubes)", baseline: "sort of \(members.count) centroid depths",
                  target: "linear-ish", note: "\(fragments) fragments; \(format(perFace))/face", samples: cubes >= 1000 ? 7 : nil) {
                blackHole(BenchmarkProbes.depthOrder(members))
            } against: {
                blackHole(depths.sorted())
            }
            if let last = h.rows.last, last.name.hasPrefix("depth sort \(members.count)") {
                perFace = last.median / members.count
                h.rows[h.rows.count - 1].note = "\(fragments) fragments; \(format(perFace))/face"
            }
        }
    }
}

extension Array where Element == Layer {
    /// The hand loop's answer as `hitTest` gives it, from `self` = the book cube's sublayers and then the cube (the
    /// hand cube's faces are the book cube's sublayers, in order; `faces.count` is the container): `self[k]`, or
    /// `nil` for −1.
    @inline(__always)
    func answer(_ k: Int) -> Layer? { k < 0 ? nil : self[k] }
}
