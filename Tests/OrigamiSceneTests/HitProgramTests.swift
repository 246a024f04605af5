import Foundation
@testable import Origami
import OrigamiScene
import Testing
import TestSupport

/// The first-hit queries (`firstHit`: a compiled tree-order program, a frontmost pass that sorts only when a
/// candidate has a scene of its own) must answer what the general visitors answer first — the visitors are the
/// plain statement of DESIGN §5's policies, and `hitTestAll` still reads them. Held together on every Model and on
/// random trees built to reach every branch: masks, hidden and untouchable layers, zero opacity, transform layers,
/// perspective, planes seen from behind or edge-on, outlines, zPositions.
@Suite("First-hit queries agree with the policy visitors")
struct HitProgramTests {
    /// The visitors' first answer: the first tree-order visit, or the first depth-order visit that is not culled.
    static func reference(_ tree: PresentationTree, _ p: CGPoint, _ policy: HitTestPolicy) -> (node: Int, local: CGPoint)? {
        guard p.x.isFinite, p.y.isFinite else { return nil }
        var found: (node: Int, local: CGPoint)?
        switch policy {
        case .treeOrder, .coreAnimation:
            tree.visitInTreeOrder(point: p, policy: policy) { node, local in
                found = (node, local)
                return true
            }
        case .frontmost:
            tree.visitInDepthOrder(point: p) { node, local, culled in
                if !culled { found = (node, local) }
                return !culled
            }
        }
        return found
    }

    static func compare(_ tree: PresentationTree, points: [CGPoint], _ label: String) -> Int {
        var hits = 0
        for policy in [HitTestPolicy.treeOrder, .coreAnimation, .frontmost] {
            let batch = tree.hitNodes(points, policy: policy)
            for (k, p) in points.enumerated() {
                let expected = reference(tree, p, policy)
                var local = CGPoint(x: -1e9, y: -1e9)
                let node = tree.firstHit(p, policy: policy, local: &local)
                #expect(node == expected?.node ?? -1 && (node < 0 || local == expected?.local),
                        "\(label) at \(p), \(policy): \(node) at \(local) ≠ \(String(describing: expected))")
                #expect(Int(batch[k]) == expected?.node ?? -1, "\(label) at \(p), \(policy) (batch)")
                if expected != nil { hits += 1 }
            }
        }
        return hits
    }

    static let models = ModelGalleryTests.models

    @Test(arguments: models)
    func model(_ name: String) throws {
        let scene = try Scene.load(contentsOf: OrigamiCommand.packageRoot.appendingPathComponent("Models/\(name)"))
        let size = scene.canvas.size
        // A 41 × 41 grid over the canvas and a margin, and points on the grid's lines (edges meet there).
        let w = Double(size.width) + 20, h = Double(size.height) + 20
        var points: [CGPoint] = []
        for j in 0...40 {
            for i in 0...40 { points.append(CGPoint(x: -10 + w * Double(i) / 40, y: -10 + h * Double(j) / 40)) }
        }
        let tree = PresentationTree(scene.root)
        let hits = Self.compare(tree, points: points, name)
        #expect(hits > 0, "\(name): no point hit anything, so nothing was compared")
        if scene.root.animationEndTime() != nil {
            _ = Self.compare(PresentationTree(scene.root, time: 0.7), points: points, "\(name) at 0.7 s")
        }
    }

    /// A random tree of `count` layers under a 200 × 200 root: a quarter transform layers, some perspective.
    static func randomTree(seed: UInt64, count: Int) throws -> Layer {
        var rng = SplitMix(seed)
        let root = Layer(name: "root", frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        var layers: [Layer] = [root]
        for k in 1..<count {
            let parent = layers[Int(rng.next(0, Double(layers.count) - 0.001))]
            let layer: Layer
            if rng.next(0, 1) < 0.25 {
                layer = TransformLayer()
            } else if rng.next(0, 1) < 0.2 {
                let face = Face(kind: .polygon(k), index: k)
                face.polygon = [CGPoint(x: 0, y: 0), CGPoint(x: rng.next(20, 80), y: rng.next(0, 30)), CGPoint(x: rng.next(0, 40), y: rng.next(30, 80))]
                layer = face
            } else {
                layer = Layer()
            }
            layer.name = "n\(k)"
            layer.bounds = CGRect(x: rng.next(-10, 10), y: rng.next(-10, 10), width: rng.next(0, 120), height: rng.next(5, 120))
            layer.position = CGPoint(x: rng.next(0, 200), y: rng.next(0, 200))
            layer.zPosition = rng.next(0, 1) < 0.3 ? rng.next(-40, 40).rounded() : 0
            var t = Transform3D.identity
            if rng.next(0, 1) < 0.6 { t = t.rotated(by: rng.next(-3.2, 3.2), x: rng.next(-1, 1), y: rng.next(-1, 1), z: rng.next(-1, 1)) }
            if rng.next(0, 1) < 0.3 { t = t.translated(x: 0, y: 0, z: rng.next(-60, 60)) }
            if rng.next(0, 1) < 0.05 { t = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0) }   // edge-on
            layer.transform = t
            if rng.next(0, 1) < 0.3 { layer.sublayerTransform.m34 = -1 / rng.next(150, 600) }
            layer.masksToBounds = rng.next(0, 1) < 0.2
            layer.isDoubleSided = rng.next(0, 1) < 0.6
            layer.isHidden = rng.next(0, 1) < 0.05
            layer.allowsHitTesting = rng.next(0, 1) > 0.05
            layer.opacity = rng.next(0, 1) < 0.05 ? 0 : 1
            try parent.addSublayer(layer)
            layers.append(layer)
        }
        return root
    }

    @Test(arguments: 0..<24)
    func randomTrees(_ seed: Int) throws {
        let root = try Self.randomTree(seed: UInt64(seed) &* 7919 &+ 3, count: 5 + seed * 3)
        var rng = SplitMix(UInt64(seed) &+ 1000)
        let points = (0..<400).map { _ in CGPoint(x: rng.next(-20, 220), y: rng.next(-20, 220)) }
        // Placed in its superlayer (none: the root's own space) and rendered in its own space.
        for placement in [PresentationTree.RootPlacement.superlayer, .renderedInOwnSpace] {
            _ = Self.compare(PresentationTree(root, placement: placement), points: points, "seed \(seed) \(placement)")
        }
    }

    /// Deeper than the single query's fixed slots (8) and wider than its fixed candidate buffer (16): the general
    /// buffers. A chain of 40 nested layers, each slightly turned and offset, each holding 20 small leaves.
    @Test("deep and wide trees take the general buffers and agree")
    func deepAndWide() throws {
        let root = Layer(name: "root", frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        var parent = root
        var rng = SplitMix(77)
        for depth in 0..<40 {
            let inner = Layer(name: "level \(depth)", frame: CGRect(x: 2, y: 1, width: 196, height: 196))
            inner.transform = Transform3D(rotationAngle: 0.02, x: 0.2, y: 1, z: 0.1)
            if depth % 7 == 3 { inner.sublayerTransform.m34 = -1 / 500 }
            for k in 0..<20 {
                let leaf = Layer(name: "leaf \(depth).\(k)", frame: CGRect(x: rng.next(0, 180), y: rng.next(0, 180), width: 12, height: 12))
                leaf.zPosition = rng.next(-5, 5).rounded()
                try parent.addSublayer(leaf)
            }
            try parent.addSublayer(inner)
            parent = inner
        }
        let points = (0..<600).map { _ in CGPoint(x: rng.next(-5, 205), y: rng.next(-5, 205)) }
        let hits = Self.compare(PresentationTree(root), points: points, "deep tree")
        #expect(hits > 100)
    }

    /// The cases the compiled queries decide apart from the visitors' own code, each on purpose: planes seen
    /// edge-on (no inverse), planes reaching behind the eye (W ≤ 0 over part of the canvas), single-sided planes
    /// seen from behind (left out of the frontmost members when compiled), a transform whose z row is not finite
    /// (the frontmost depth's general path), hidden, untouchable and transparent layers, masks, an outline, and
    /// sibling subtrees at one depth (the tree-order program reuses their slot) — asked on every half point, so
    /// many points lie exactly on edges.
    static func edgeCaseTree() throws -> Layer {
        let root = Layer(name: "root", frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        root.sublayerTransform.m34 = -1 / 120   // a short eye distance: tilted planes cross W = 0
        func layer(_ name: String, _ frame: CGRect, in parent: Layer, _ configure: (Layer) -> Void = { _ in }) throws -> Layer {
            let l = Layer(name: name, frame: frame)
            configure(l)
            try parent.addSublayer(l)
            return l
        }
        _ = try layer("edge-on", CGRect(x: 10, y: 10, width: 80, height: 80), in: root) {
            $0.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0)
        }
        let tilted = try layer("behind the eye", CGRect(x: 20, y: 20, width: 160, height: 160), in: root) {
            $0.transform = Transform3D(rotationAngle: 1.2, x: 1, y: 0.3, z: 0)
        }
        _ = try layer("on the tilted plane", CGRect(x: 0, y: 0, width: 60, height: 160), in: tilted)
        _ = try layer("back, single-sided", CGRect(x: 50, y: 50, width: 60, height: 60), in: root) {
            $0.transform = Transform3D(rotationAngle: .pi * 0.9, x: 0, y: 1, z: 0)
            $0.isDoubleSided = false
        }
        _ = try layer("back, double-sided", CGRect(x: 90, y: 40, width: 60, height: 60), in: root) {
            $0.transform = Transform3D(rotationAngle: .pi * 0.9, x: 0, y: 1, z: 0)
        }
        _ = try layer("z row not finite", CGRect(x: 30, y: 120, width: 50, height: 50), in: root) {
            $0.transform.m33 = .infinity
        }
        _ = try layer("hidden", CGRect(x: 0, y: 0, width: 100, height: 100), in: root) { $0.isHidden = true }
        _ = try layer("untouchable", CGRect(x: 100, y: 100, width: 100, height: 100), in: root) { $0.allowsHitTesting = false }
        _ = try layer("transparent", CGRect(x: 60, y: 0, width: 80, height: 80), in: root) { $0.opacity = 0 }
        for k in 0..<2 {
            // Siblings at one depth, each with a sublayer reaching out of it, one masked.
            let group = try layer("group \(k)", CGRect(x: 20 + 90 * Double(k), y: 110, width: 70, height: 70), in: root) {
                $0.masksToBounds = k == 1
                $0.zPosition = Double(10 * k)
                $0.transform = Transform3D(rotationAngle: 0.4, x: 0, y: 1, z: 0)
            }
            _ = try layer("in group \(k)", CGRect(x: 40, y: 40, width: 60, height: 60), in: group)
        }
        let face = Face(kind: .polygon(0), index: 0)
        face.name = "outlined"
        face.frame = CGRect(x: 120, y: 10, width: 60, height: 60)
        face.polygon = [CGPoint(x: 0, y: 0), CGPoint(x: 60, y: 0), CGPoint(x: 0, y: 60)]
        let solid = TransformLayer()
        solid.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        try solid.addSublayer(face)
        try root.addSublayer(solid)
        return root
    }

    @Test("edge cases the compiled queries special-case agree with the visitors")
    func edgeCases() throws {
        let root = try Self.edgeCaseTree()
        let points = (0...440).flatMap { j in (0...440).map { i in CGPoint(x: -10 + Double(i) / 2, y: -10 + Double(j) / 2) } }
        for placement in [PresentationTree.RootPlacement.superlayer, .renderedInOwnSpace] {
            let hits = Self.compare(PresentationTree(root, placement: placement), points: points, "edge cases \(placement)")
            #expect(hits > 1000)
        }
    }

    /// A tree with no perspective: every map affine (W exactly 1), so the tree-order program's affine steps and
    /// the frontmost query's affine contexts answer — nested groups (enter and leaf steps), a mask, a flipped
    /// layer, siblings on one spot with zPositions, and a layer scaled down so far that most of the canvas lands past
    /// |X| = 1e12 (no image: the affine test must still say so). One perspective layer in a group makes that
    /// group's context mixed, which takes the dividing loop.
    static func affineTree() throws -> Layer {
        let root = Layer(name: "root", frame: CGRect(x: 0, y: 0, width: 200, height: 200))
        func layer(_ name: String, _ frame: CGRect, in parent: Layer, _ configure: (Layer) -> Void = { _ in }) throws -> Layer {
            let l = Layer(name: name, frame: frame)
            configure(l)
            try parent.addSublayer(l)
            return l
        }
        let group = try layer("group", CGRect(x: 10, y: 10, width: 120, height: 120), in: root) {
            $0.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
        }
        _ = try layer("in group", CGRect(x: 30, y: 30, width: 70, height: 50), in: group) { $0.zPosition = 5 }
        _ = try layer("flipped", CGRect(x: 60, y: 0, width: 60, height: 90), in: group) { $0.isGeometryFlipped = true }
        let masked = try layer("masked", CGRect(x: 100, y: 90, width: 80, height: 80), in: root) {
            $0.masksToBounds = true
            $0.transform = Transform3D(scaleX: 1.5, y: 0.5, z: 1)
        }
        _ = try layer("reaching out", CGRect(x: -30, y: 20, width: 90, height: 30), in: masked)
        _ = try layer("tilted, in the mask", CGRect(x: 10, y: 10, width: 50, height: 50), in: masked) {
            $0.transform = Transform3D(rotationAngle: 0.8, x: 0, y: 1, z: 0)
            $0.transform.m34 = -1 / 80
        }
        // Scaled by 2⁻³⁷ (a power of two: its inverse is exactly affine) about its centre, 2e13 wide, placed so
        // that its corner sits at the origin (a translation row of zeros keeps the map invertible by
        // `Matrix3.inverted`'s row test): the local x is x·2³⁷, inside the bounds for x in [0, 145.5) but below
        // 1e12 (an image) only up to x = 7.28.
        _ = try layer("huge", CGRect(x: 0, y: 0, width: 1, height: 1), in: root) {
            $0.bounds = CGRect(x: 0, y: 0, width: 2e13, height: 2e13)
            $0.position = CGPoint(x: 1e13 * 0x1p-37, y: 1e13 * 0x1p-37)
            $0.transform = Transform3D(scaleX: 0x1p-37, y: 0x1p-37, z: 1)
        }
        // A depth z/w past the largest double from a finite z and w (z = 1.7e308, w = 0.5): no depth, so no
        // candidate — the frontmost depth's test |z| < w·2¹⁰⁰⁰ fails and its division says so. In a group of its
        // own, so the root's context stays affine.
        let far = try layer("far group", CGRect(x: 120, y: 0, width: 80, height: 80), in: root)
        _ = try layer("near", CGRect(x: 0, y: 0, width: 50, height: 50), in: far)
        _ = try layer("depth overflows", CGRect(x: 10, y: 10, width: 60, height: 60), in: far) {
            $0.transform.m43 = 1.7e308
            $0.transform.m44 = 0.5
        }
        // The same alone in its group: a context of one member, whose touched member has no depth (its depth is
        // not proved when compiled, so the query must ask).
        let lonely = try layer("lonely group", CGRect(x: 0, y: 150, width: 50, height: 50), in: root)
        _ = try layer("lonely, depth overflows", CGRect(x: 5, y: 5, width: 40, height: 40), in: lonely) {
            $0.transform.m43 = 1.7e308
            $0.transform.m44 = 0.5
        }
        _ = try layer("front", CGRect(x: 50, y: 50, width: 60, height: 60), in: root) { $0.zPosition = -3 }
        _ = try layer("back", CGRect(x: 70, y: 70, width: 60, height: 60), in: root) { $0.zPosition = -3 }
        return root
    }

    @Test("affine trees take the division-free paths and agree")
    func affine() throws {
        let root = try Self.affineTree()
        let points = (0...220).flatMap { j in (0...220).map { i in CGPoint(x: -10 + Double(i), y: -10 + Double(j)) } }
        for placement in [PresentationTree.RootPlacement.superlayer, .renderedInOwnSpace] {
            let hits = Self.compare(PresentationTree(root, placement: placement), points: points, "affine \(placement)")
            #expect(hits > 10_000)
        }
    }

    /// The hit map's batch (`hitNodes(pixelRows:…)`): both policies per pixel centre, written into two buffers,
    /// must equal one query per pixel — on the edge-case tree and on a random one, bands starting mid-canvas.
    @Test("pixel-row batches answer what single queries answer")
    func pixelRows() throws {
        for root in [try Self.edgeCaseTree(), try Self.randomTree(seed: 41, count: 60)] {
            let tree = PresentationTree(root, placement: .canvas)
            let (width, rows, scale) = (90, 17 ..< 70, 0.4)
            var treeOrder = [Int32](repeating: -2, count: rows.count * width), frontmost = treeOrder
            treeOrder.withUnsafeMutableBufferPointer { t in
                frontmost.withUnsafeMutableBufferPointer { f in
                    tree.hitNodes(pixelRows: rows, width: width, scale: scale, treeOrder: t.baseAddress!, frontmost: f.baseAddress!)
                }
            }
            for (r, y) in rows.enumerated() {
                for x in 0..<width {
                    // Pixel (x, y)'s centre, in points.
                    let p = CGPoint(x: (Double(x) + 0.5) / scale, y: (Double(y) + 0.5) / scale)
                    var local = CGPoint.zero
                    #expect(Int(treeOrder[r * width + x]) == tree.firstHit(p, policy: .treeOrder, local: &local), "\(x), \(y)")
                    #expect(Int(frontmost[r * width + x]) == tree.firstHit(p, policy: .frontmost, local: &local), "\(x), \(y)")
                }
            }
            #expect(treeOrder.contains { $0 >= 0 } && !treeOrder.contains(-2) && !frontmost.contains(-2))
        }
    }

    /// The tree-order queries ask no finiteness of the point up front: their programs must reach nothing from it
    /// whatever they start with — an affine, translated or perspective root, a transform layer's leaves, masks.
    @Test("non-finite points reach nothing")
    func nonFinite() throws {
        let placed = try Self.randomTree(seed: 5, count: 20)
        placed.position = CGPoint(x: 130, y: 95)   // the root's map a translation
        let grouped = TransformLayer()             // a root whose sublayers read the query's point itself
        grouped.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        try grouped.addSublayer(try Self.randomTree(seed: 9, count: 20))
        try grouped.addSublayer(Layer(name: "plain", frame: CGRect(x: 0, y: 0, width: 300, height: 300)))
        let roots = [try Self.randomTree(seed: 5, count: 20), placed, grouped, try Self.edgeCaseTree(), try Self.affineTree()]
        let values = [Double.nan, .infinity, -.infinity, 1, 0]
        for root in roots {
            for placement in [PresentationTree.RootPlacement.superlayer, .renderedInOwnSpace] {
                let tree = PresentationTree(root, placement: placement)
                for x in values {
                    for y in values where !(x.isFinite && y.isFinite) {
                        for policy in [HitTestPolicy.treeOrder, .coreAnimation, .frontmost] {
                            var local = CGPoint.zero
                            #expect(tree.firstHit(CGPoint(x: x, y: y), policy: policy, local: &local) == -1,
                                    "(\(x), \(y)) \(policy) \(placement)")
                        }
                    }
                }
            }
        }
    }

    /// `applyTranslationIfImage` is `applyAffineIfImage` to the bit wherever `isTranslation` holds, zeros' signs
    /// included (an answer's local point carries them), and `nil` where it is: translations and cross terms of
    /// ±0, subnormal, ordinary and huge values, against points of the same and non-finite coordinates.
    @Test("a translation step maps points exactly as the affine step does")
    func translationBits() {
        let values: [Double] = [0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 1e-300, 0.5, -3.25, 100, -1e12, 1e12, 3e300, -1.7e308]
        let coordinates = values + [.infinity, -.infinity, .nan]
        var translations = 0, images = 0
        for t1 in values {
            for t2 in values {
                for cross in [0.0, -0.0] {
                    let map = Homography(Matrix3(m11: 1, m12: cross, m13: 0, m21: -cross, m22: 1, m23: 0,
                                                 m31: t1, m32: t2, m33: 1))
                    let excluded = (t1 == 0 && t1.sign == .minus) || (t2 == 0 && t2.sign == .minus)
                    #expect(map.isTranslation == !excluded)
                    guard map.isTranslation else { continue }
                    translations += 1
                    for x in coordinates {
                        for y in coordinates {
                            let p = CGPoint(x: x, y: y)
                            let affine = map.applyAffineIfImage(p), fast = map.applyTranslationIfImage(p)
                            #expect(affine?.x.bitPattern == fast?.x.bitPattern && affine?.y.bitPattern == fast?.y.bitPattern,
                                    "t = (\(t1), \(t2)), p = (\(x), \(y)): \(String(describing: affine)) against \(String(describing: fast))")
                            if affine != nil { images += 1 }
                        }
                    }
                }
            }
        }
        #expect(translations == 2 * 11 * 11 && images > 2_000)
        #expect(!Homography(Matrix3(m11: 1, m12: 0, m13: 0, m21: 0, m22: 2, m23: 0, m31: 1, m32: 1, m33: 1)).isTranslation)
    }

    /// Roots placed by a translation (a position, a bounds origin) start their tree-order programs with the
    /// translation step, and answer what the visitors answer.
    @Test("translated roots take the translation step and agree")
    func translatedRoots() throws {
        let offsets = [CGPoint(x: 37.25, y: -12.5), CGPoint(x: 0.1, y: 1e-9), CGPoint(x: -150, y: 3)]
        for (k, offset) in offsets.enumerated() {
            let root = try Self.randomTree(seed: UInt64(40 + k), count: 30)
            root.position = CGPoint(x: root.position.x + offset.x, y: root.position.y + offset.y)
            root.bounds.origin = CGPoint(x: offset.y, y: -offset.x)
            let tree = PresentationTree(root)
            #expect(tree.hitPrograms.pointee.treeOrder.first?.kind == .enterTranslation)
            var rng = SplitMix(UInt64(k))
            let points = (0..<600).map { _ in
                CGPoint(x: rng.next(-200, 400), y: rng.next(-200, 400))
            }
            let hits = Self.compare(tree, points: points, "translated root \(k)")
            #expect(hits > 50)
        }
    }

    /// A context of one member skips its touched member's depth when `FrontmostMember.hasDepthInBounds` proved,
    /// when compiled, that every point inside the bounds has one: wherever it says so, `depthFraction` must answer
    /// at the bounds' corners and edges and inside them — for bounds and matrix entries up to and past the bound's
    /// 2⁹⁹⁹ — and it must not say so where w is not exactly 1 or an entry is not finite.
    @Test("a single member's depth bound holds wherever it is claimed")
    func depthInBounds() throws {
        var rng = SplitMix(77)
        var claimed = 0, refused = 0
        let magnitudes: [Double] = [1, 400, 1e10, 0x1p480, 0x1p497, 0x1p498, 0x1p499, 0x1p500, 0x1p520]
        for trial in 0..<4000 {
            let scale = magnitudes[trial % magnitudes.count], bound = magnitudes[(trial / 9) % magnitudes.count]
            var t = Transform3D.identity
            t.m11 = rng.next(-2, 2) * scale; t.m12 = rng.next(-2, 2) * scale; t.m13 = rng.next(-2, 2) * scale
            t.m21 = rng.next(-2, 2) * scale; t.m22 = rng.next(-2, 2) * scale; t.m23 = rng.next(-2, 2) * scale
            t.m41 = rng.next(-2, 2) * scale * bound; t.m42 = rng.next(-2, 2) * scale * bound
            t.m43 = rng.next(-2, 2) * scale * bound
            switch trial % 7 {
            case 1: t.m14 = 1e-3   // w not exactly 1
            case 2: t.m44 = 2
            case 3: t.m31 = .infinity   // not planar
            default: break
            }
            let x0 = rng.next(-1, 0) * bound, x1 = rng.next(0, 1) * bound
            let y0 = rng.next(-1, 0) * bound, y1 = rng.next(0, 1) * bound
            let bounds = PresentationTree.ContentBounds(minX: x0, minY: y0, maxX: x1, maxY: y1, isFlipped: trial % 2 == 0)
            let planar = t.m31.isFinite && t.m32.isFinite && t.m33.isFinite && t.m34.isFinite
            guard FrontmostMember.hasDepthInBounds(t, bounds, planar: planar) else {
                refused += 1
                continue
            }
            #expect(trial % 7 == 0 || trial % 7 > 3, "claimed with w not 1 or not planar: \(t)")
            claimed += 1
            let member = FrontmostMember(node: 0, order: 0, masksToBounds: false, hasOutline: false, hasScene: false,
                                         planar: planar, affineContext: true, sceneFreeContext: true, zPosition: 0,
                                         map: .identity, bounds: bounds, toOwner: t, depthInBounds: true)
            let xs = [x0, x1, x1.nextDown, rng.next(x0, x1)], ys = [y0, y1, y0.nextUp, rng.next(y0, y1)]
            for x in xs { for y in ys {
                #expect(member.depthFraction(CGPoint(x: x, y: y)) != nil, "no depth at (\(x), \(y)) in \(bounds) by \(t)")
            } }
        }
        #expect(claimed > 1000 && refused > 1000)
        // The book's cube: its container, its context's only member, takes the skip.
        let tree = PresentationTree(try BookCube(faceColors: [.red, .green, .blue, .white, .black, .gray]).container)
        let programs = tree.hitPrograms.pointee
        #expect(programs.frontmostStart[1] - programs.frontmostStart[0] == 1 && programs.frontmost[0].depthInBounds)
    }
}
