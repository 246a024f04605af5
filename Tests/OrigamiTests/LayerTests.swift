import Foundation
import Origami
import Testing
import TestSupport

/// DESIGN §2: properties and their defaults (CALayer's), and the layer tree.
@Suite("Layer properties and defaults")
struct LayerDefaultsTests {
    @Test("Every default is Core Animation's")
    func defaults() {
        let layer = Layer()
        #expect(layer.bounds == .zero)
        #expect(layer.position == .zero)
        #expect(layer.anchorPoint == CGPoint(0.5, 0.5))
        #expect(layer.anchorPointZ == 0)
        #expect(layer.zPosition == 0)
        #expect(layer.transform == .identity)
        #expect(layer.sublayerTransform == .identity)
        #expect(layer.affineTransform == .identity)
        #expect(layer.isGeometryFlipped == false)
        #expect(layer.masksToBounds == false)
        #expect(layer.isDoubleSided == true)
        #expect(layer.isHidden == false)
        #expect(layer.opacity == 1)
        #expect(layer.backgroundColor == nil)
        #expect(layer.borderWidth == 0)
        #expect(layer.borderColor == .black)
        #expect(layer.cornerRadius == 0)
        #expect(layer.contents == nil)
        #expect(layer.contentsGravity == .resize)
        #expect(layer.contentsScale == 1)
        #expect(layer.name == nil)
        #expect(layer.allowsHitTesting == true)
        #expect(layer.lighting == nil)
        #expect(layer.superlayer == nil)
        #expect(layer.sublayers.isEmpty)
        #expect(layer.frame == .zero)
        #expect(layer.isFlattening)
        #expect(layer.geometry == LayerGeometry())
        #expect(layer.root === layer)
        #expect(layer.ancestors.isEmpty)
    }

    @Test("TransformLayer and TextLayer keep the defaults; a TransformLayer does not flatten")
    func subclasses() {
        let tl = TransformLayer()
        #expect(!tl.isFlattening)
        #expect(tl.anchorPoint == CGPoint(0.5, 0.5) && tl.transform == .identity)
        let text = TextLayer()
        #expect(text.isFlattening)
        #expect(text.string.isEmpty)
        #expect(text.anchorPoint == CGPoint(0.5, 0.5))
    }

    @Test("Geometric properties accept any value, including anchor points outside 0…1")
    func anyValue() {
        let layer = Layer()
        layer.anchorPoint = CGPoint(-1, 2.5)
        #expect(layer.anchorPoint == CGPoint(-1, 2.5))
        layer.zPosition = -0.0
        #expect(layer.zPosition == 0)
        layer.position = CGPoint(.nan, 1)
        #expect(layer.position.x.isNaN)
        #expect(layer.frame.isNull)
    }

    // Apple's answers for -[CALayer affineTransform], as GNUstep QuartzCore's Tests/quartzcore/CALayer/conversion.m
    // records them (checked against Apple): an affine transform reports its six elements, any other the identity.

    @Test("affineTransform of an affine transform is its parts [a b c d tx ty]")
    func affineTransformOfAffine() {
        let layer = Layer()
        #expect(layer.affineTransform == .identity)
        layer.transform = Transform3D(scaleX: 2, y: 3, z: 1)
        #expect(layer.affineTransform == AffineTransform2D(a: 2, b: 0, c: 0, d: 3, tx: 0, ty: 0))
        layer.transform = Transform3D(translationX: 3, y: 4, z: 0)
        #expect(layer.affineTransform == AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: 4))
        // About z by π/4 (DESIGN §1: m11 = c, m12 = s, m21 = −s, m22 = c): a = d = √½, b = √½, c = −√½.
        layer.transform = Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)
        let r = layer.affineTransform, h = 0.5.squareRoot()
        #expect(abs(r.a - h) < 1e-12 && abs(r.b - h) < 1e-12 && abs(r.c + h) < 1e-12 && abs(r.d - h) < 1e-12)
        #expect(r.tx == 0 && r.ty == 0)
        // A shear with a translation: every element kept, by hand m11 m12 m21 m22 m41 m42.
        var t = Transform3D.identity
        t.m11 = 2; t.m12 = 3; t.m21 = 4; t.m22 = 5; t.m41 = 6; t.m42 = 7
        layer.transform = t
        #expect(layer.affineTransform == AffineTransform2D(a: 2, b: 3, c: 4, d: 5, tx: 6, ty: 7))
    }

    @Test("affineTransform of a transform that is not affine is the identity, and CATransform3DGetAffineTransform still reads the parts",
          arguments: [
              ("a scale in z", Transform3D(scaleX: 2, y: 3, z: 4), AffineTransform2D(a: 2, b: 0, c: 0, d: 3, tx: 0, ty: 0)),
              ("a translation in z", Transform3D(translationX: 3, y: 4, z: 5), AffineTransform2D(a: 1, b: 0, c: 0, d: 1, tx: 3, ty: 4)),
              ("a rotation about x by π/2", Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0),
               AffineTransform2D(a: 1, b: 0, c: 0, d: cos(Double.pi / 2), tx: 0, ty: 0)),
              ("a rotation about y by π/3", Transform3D(rotationAngle: .pi / 3, x: 0, y: 1, z: 0),
               AffineTransform2D(a: 0.5, b: 0, c: 0, d: 1, tx: 0, ty: 0)),
              ("a perspective m34 = −1/500 with a 2D scale", Transform3D.perspective(distance: 500).scaled(x: 2, y: 2),
               AffineTransform2D(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)),
          ])
    func affineTransformOfNonAffine(_ name: String, _ transform: Transform3D, _ parts: AffineTransform2D) {
        let layer = Layer()
        layer.transform = transform
        #expect(layer.affineTransform == .identity, "\(name)")
        let read = CATransform3DGetAffineTransform(transform)
        #expect(abs(read.a - parts.a) < 1e-12 && abs(read.b - parts.b) < 1e-12 && abs(read.c - parts.c) < 1e-12
                && abs(read.d - parts.d) < 1e-12 && read.tx == parts.tx && read.ty == parts.ty, "\(name)")
        #expect(layer.transform == transform, "reading affineTransform leaves transform alone")
    }

    @Test("Setting affineTransform replaces transform with its 3D form")
    func settingAffineTransform() {
        let layer = Layer()
        layer.transform = Transform3D(scaleX: 9, y: 9, z: 9)
        layer.affineTransform = AffineTransform2D(a: 2, b: 3, c: 4, d: 5, tx: 6, ty: 7)
        var expected = Transform3D.identity
        expected.m11 = 2; expected.m12 = 3; expected.m21 = 4; expected.m22 = 5; expected.m41 = 6; expected.m42 = 7
        #expect(layer.transform == expected)
        #expect(layer.transform.m33 == 1)
        #expect(layer.affineTransform == AffineTransform2D(a: 2, b: 3, c: 4, d: 5, tx: 6, ty: 7))
    }

    @Test("Names and descriptions")
    func naming() {
        #expect(Layer(name: "blue").description == "Layer \"blue\"")
        #expect(Layer().description == "Layer")
        let tl = TransformLayer()
        tl.name = "cube"
        #expect(tl.description == "TransformLayer \"cube\"")
        #expect(Layer(name: "f", frame: CGRect(10, 20, 30, 40)).frame == CGRect(10, 20, 30, 40))
    }

    @Test("validateGeometry names the first non-finite property")
    func validation() throws {
        let root = Layer(name: "root")
        let child = Layer(name: "child")
        try root.addSublayer(child)
        try root.validateGeometry()
        child.anchorPointZ = .infinity
        let error = #expect(throws: LayerGeometryError.self) { try root.validateGeometry() }
        #expect(error?.property == "anchorPointZ")
        #expect(error?.layer == "Layer \"child\"")
        child.anchorPointZ = 0
        child.opacity = .nan
        let opacityError = #expect(throws: LayerGeometryError.self) { try root.validateGeometry() }
        #expect(opacityError?.property == "opacity")
        child.opacity = 1
        root.sublayerTransform.m34 = .nan
        let rootError = #expect(throws: LayerGeometryError.self) { try root.validateGeometry() }
        #expect(rootError?.layer == "Layer \"root\"" && rootError?.property == "sublayerTransform")
    }
}

@Suite("Layer hierarchy")
struct LayerHierarchyTests {
    /// A parent with sublayers named "a", "b", "c" in that order.
    func family() throws -> (Layer, Layer, Layer, Layer) {
        let parent = Layer(name: "parent"), a = Layer(name: "a"), b = Layer(name: "b"), c = Layer(name: "c")
        try parent.addSublayer(a)
        try parent.addSublayer(b)
        try parent.addSublayer(c)
        return (parent, a, b, c)
    }

    func names(_ layer: Layer) -> [String] { layer.sublayers.map { $0.name ?? "?" } }

    @Test("addSublayer appends on top and sets superlayer")
    func add() throws {
        let (parent, a, b, c) = try family()
        #expect(names(parent) == ["a", "b", "c"])
        #expect(a.superlayer === parent && b.superlayer === parent && c.superlayer === parent)
        #expect(a.root === parent)
        #expect(a.ancestors == [parent])
        #expect(parent.needsLayout)
    }

    @Test("Adding a sublayer that is already there moves it to the top")
    func reAdd() throws {
        let (parent, a, _, _) = try family()
        try parent.addSublayer(a)
        #expect(names(parent) == ["b", "c", "a"])
        #expect(a.superlayer === parent)
    }

    @Test("Adding a layer that has a superlayer moves it")
    func move() throws {
        let (parent, a, _, _) = try family()
        let other = Layer(name: "other")
        try other.addSublayer(a)
        #expect(names(parent) == ["b", "c"])
        #expect(names(other) == ["a"])
        #expect(a.superlayer === other)
    }

    @Test("insertSublayer(at:) counts in the array without the layer")
    func insertAt() throws {
        let (parent, a, _, c) = try family()
        let d = Layer(name: "d")
        try parent.insertSublayer(d, at: 0)
        #expect(names(parent) == ["d", "a", "b", "c"])
        let e = Layer(name: "e")
        try parent.insertSublayer(e, at: 4)
        #expect(names(parent) == ["d", "a", "b", "c", "e"])
        // Moving within the same parent: [d, b, c, e] once a is out, then a at index 2.
        try parent.insertSublayer(a, at: 2)
        #expect(names(parent) == ["d", "b", "a", "c", "e"])
        try parent.insertSublayer(c, at: 0)
        #expect(names(parent) == ["c", "d", "b", "a", "e"])
        #expect(d.superlayer === parent && e.superlayer === parent)
    }

    @Test("An out-of-range index is an error and changes nothing", arguments: [-1, 4, Int.max, Int.min])
    func insertOutOfRange(index: Int) throws {
        let (parent, _, _, _) = try family()
        let d = Layer(name: "d"), holder = Layer(name: "holder")
        try holder.addSublayer(d)
        #expect(throws: LayerHierarchyError.indexOutOfRange(index: index, count: 3)) {
            try parent.insertSublayer(d, at: index)
        }
        #expect(names(parent) == ["a", "b", "c"])
        #expect(d.superlayer === holder)
    }

    @Test("Moving a sublayer within its parent has one fewer slot")
    func insertOutOfRangeSameParent() throws {
        let (parent, a, _, _) = try family()
        #expect(throws: LayerHierarchyError.indexOutOfRange(index: 3, count: 2)) { try parent.insertSublayer(a, at: 3) }
        #expect(names(parent) == ["a", "b", "c"])
        try parent.insertSublayer(a, at: 2)
        #expect(names(parent) == ["b", "c", "a"])
    }

    @Test("insertSublayer(above:) and (below:)")
    func insertAboveBelow() throws {
        let (parent, a, b, c) = try family()
        let d = Layer(name: "d"), e = Layer(name: "e")
        try parent.insertSublayer(d, above: a)
        #expect(names(parent) == ["a", "d", "b", "c"])
        try parent.insertSublayer(e, below: a)
        #expect(names(parent) == ["e", "a", "d", "b", "c"])
        try parent.insertSublayer(c, below: e)
        #expect(names(parent) == ["c", "e", "a", "d", "b"])
        try parent.insertSublayer(c, above: b)
        #expect(names(parent) == ["e", "a", "d", "b", "c"])
        // Relative to itself: nothing moves.
        try parent.insertSublayer(a, above: a)
        #expect(names(parent) == ["e", "a", "d", "b", "c"])
    }

    @Test("insert above/below a layer that is not a sublayer is an error")
    func insertBesideStranger() throws {
        let (parent, _, _, _) = try family()
        let stranger = Layer(name: "stranger"), d = Layer(name: "d")
        let error = #expect(throws: LayerHierarchyError.self) { try parent.insertSublayer(d, above: stranger) }
        guard case .notASublayer = error else { Issue.record("expected notASublayer, got \(String(describing: error))"); return }
        #expect(throws: LayerHierarchyError.self) { try parent.insertSublayer(d, below: stranger) }
        #expect(names(parent) == ["a", "b", "c"])
        #expect(d.superlayer == nil)
    }

    @Test("removeFromSuperlayer detaches; removing a root does nothing")
    func remove() throws {
        let (parent, a, b, _) = try family()
        b.removeFromSuperlayer()
        #expect(names(parent) == ["a", "c"])
        #expect(b.superlayer == nil)
        b.removeFromSuperlayer()
        parent.removeFromSuperlayer()
        #expect(names(parent) == ["a", "c"])
        #expect(a.superlayer === parent)
    }

    @Test("replaceSublayer puts the new layer in the old one's place")
    func replace() throws {
        let (parent, a, b, c) = try family()
        let d = Layer(name: "d"), holder = Layer(name: "holder")
        try holder.addSublayer(d)
        try parent.replaceSublayer(b, with: d)
        #expect(names(parent) == ["a", "d", "c"])
        #expect(b.superlayer == nil && d.superlayer === parent)
        #expect(holder.sublayers.isEmpty)
        // With a sibling: c leaves its slot, then takes a's.
        try parent.replaceSublayer(a, with: c)
        #expect(names(parent) == ["c", "d"])
        #expect(a.superlayer == nil)
        // With itself: nothing happens.
        try parent.replaceSublayer(c, with: c)
        #expect(names(parent) == ["c", "d"])
        // Replacing a stranger is an error.
        #expect(throws: LayerHierarchyError.self) { try parent.replaceSublayer(b, with: a) }
        #expect(names(parent) == ["c", "d"])
    }

    @Test("Adding an ancestor is refused as a cycle and leaves the tree as it was")
    func cycle() throws {
        let root = Layer(name: "root"), middle = Layer(name: "middle"), leaf = Layer(name: "leaf")
        try root.addSublayer(middle)
        try middle.addSublayer(leaf)
        let error = #expect(throws: LayerHierarchyError.self) { try leaf.addSublayer(root) }
        guard case let .cycle(layer, parent) = error else {
            Issue.record("expected a cycle error, got \(String(describing: error))"); return
        }
        #expect(layer == "Layer \"root\"" && parent == "Layer \"leaf\"")
        #expect(error?.description.contains("cycle") == true)
        #expect(throws: LayerHierarchyError.self) { try leaf.insertSublayer(middle, at: 0) }
        #expect(throws: LayerHierarchyError.self) { try middle.addSublayer(root) }
        let sibling = Layer(name: "sibling")
        try leaf.addSublayer(sibling)
        #expect(throws: LayerHierarchyError.self) { try leaf.insertSublayer(root, above: sibling) }
        #expect(throws: LayerHierarchyError.self) { try leaf.replaceSublayer(sibling, with: middle) }
        // Unchanged.
        #expect(root.superlayer == nil)
        #expect(root.sublayers == [middle] && middle.sublayers == [leaf] && leaf.sublayers == [sibling])
        #expect(middle.superlayer === root && leaf.superlayer === middle)
    }

    @Test("A layer cannot be its own sublayer")
    func selfAdd() {
        let layer = Layer(name: "solo")
        let error = #expect(throws: LayerHierarchyError.self) { try layer.addSublayer(layer) }
        guard case .cycle = error else { Issue.record("expected a cycle error"); return }
        #expect(throws: LayerHierarchyError.self) { try layer.insertSublayer(layer, at: 0) }
        #expect(layer.sublayers.isEmpty && layer.superlayer == nil)
    }

    @Test("A sublayer that outlives its superlayer forgets it, at every level of a released tree")
    func outlivesSuperlayer() throws {
        // `superlayer` is unowned: the superlayer's deinit must clear it, or reading it would trap.
        var root: Layer? = Layer(name: "root")
        var kept: Layer? = Layer(name: "kept")         // held here and by root
        let keptChild = Layer(name: "keptChild")       // under a layer that survives
        let orphan = Layer(name: "orphan")             // under a layer that dies with root
        try kept!.addSublayer(keptChild)
        try root!.addSublayer(kept!)
        do {
            let dying = Layer(name: "dying")
            try dying.addSublayer(orphan)
            try root!.addSublayer(dying)
        }
        root = nil
        #expect(kept!.superlayer == nil && kept!.root === kept!)
        #expect(keptChild.superlayer === kept)
        #expect(orphan.superlayer == nil && orphan.ancestors.isEmpty)
        // A conversion or hit test through the survivors walks up only as far as they still go.
        #expect(keptChild.convert(CGPoint(x: 1, y: 2), to: kept) == CGPoint(x: 1, y: 2))
        kept = nil
        #expect(keptChild.superlayer == nil)
    }

    @Test("setSublayers replaces all, and refuses a cycle without changing anything")
    func setSublayers() throws {
        let (parent, a, b, c) = try family()
        let d = Layer(name: "d")
        try parent.setSublayers([d, b])
        #expect(names(parent) == ["d", "b"])
        #expect(a.superlayer == nil && c.superlayer == nil)
        let top = Layer(name: "top")
        try top.addSublayer(parent)
        #expect(throws: LayerHierarchyError.self) { try parent.setSublayers([a, top]) }
        #expect(names(parent) == ["d", "b"])
        #expect(a.superlayer == nil)
    }

    @Test("Tree queries: subtree in pre-order, isDescendant, sublayer(named:)")
    func queries() throws {
        let (parent, a, b, _) = try family()
        let a1 = Layer(name: "a1"), a2 = Layer(name: "a2")
        try a.addSublayer(a1)
        try a.addSublayer(a2)
        #expect(parent.subtree.map { $0.name ?? "?" } == ["parent", "a", "a1", "a2", "b", "c"])
        #expect(a2.isDescendant(of: parent) && a2.isDescendant(of: a2) && !a2.isDescendant(of: b))
        #expect(parent.sublayer(named: "a2") === a2)
        #expect(parent.sublayer(named: "zz") == nil)
        #expect(a2.root === parent)
        #expect(a2.ancestors == [a, parent])
    }

    @Test("A deep chain is handled without recursion limits")
    func deepChain() throws {
        let root = Layer(name: "root")
        var last = root
        for _ in 0..<1000 {
            let next = Layer()
            try last.addSublayer(next)
            last = next
        }
        #expect(root.subtree.count == 1001)
        #expect(last.root === root)
        #expect(throws: LayerHierarchyError.self) { try last.addSublayer(root) }
    }

    @Test("Layout: bounds-size and sublayer changes mark the layer; layoutIfNeeded runs the handler once")
    func layout() throws {
        let parent = Layer(name: "p")
        parent.layoutIfNeeded()
        #expect(!parent.needsLayout)
        var calls = 0
        parent.layoutHandler = { _ in calls += 1 }
        parent.bounds = CGRect(0, 0, 10, 10)
        #expect(parent.needsLayout)
        parent.layoutIfNeeded()
        parent.layoutIfNeeded()
        #expect(calls == 1)
        // Moving the bounds origin (scrolling) does not need layout.
        parent.bounds.origin = CGPoint(5, 5)
        #expect(!parent.needsLayout)
        try parent.addSublayer(Layer())
        #expect(parent.needsLayout)
    }
}
