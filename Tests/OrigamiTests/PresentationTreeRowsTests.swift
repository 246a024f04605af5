import Foundation
@testable import Origami
import Testing

/// The presentation tree keeps plain rows and columns, not a `Node` per layer: `tree[i]` is made on demand. These
/// tests hold every field of a node made that way, and every one-field accessor, to what the layers say.
@Suite("Presentation tree: nodes made from the rows")
struct PresentationTreeRowsTests {
    /// The bytes of a plain value (no padding in the types compared: `Double`s, `CGFloat`s, a trailing `Bool`), so
    /// −0 and NaN compare as they were stored.
    static func same<T>(_ a: T, _ b: T) -> Bool {
        withUnsafeBytes(of: a) { x in withUnsafeBytes(of: b) { y in x.elementsEqual(y) } }
    }

    static func same<T>(_ a: T?, _ b: T?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x?, y?): same(x, y)
        default: false
        }
    }

    static func image(_ w: Int, _ h: Int, _ seed: UInt32) -> Bitmap {
        Bitmap(width: w, height: h, pixels: (0 ..< UInt32(w * h)).map { 0xFF00_0000 | ($0 &* 2_654_435_761 &+ seed) & 0xFF_FFFF })!
    }

    /// A tree with text, images, outlines, lighting (a `Lighting` and a shader of another type), animations, transform
    /// layers, hidden, non-finite and non-receiving layers, and contents scales 1, 2, −0, 0 and NaN.
    static func tree() throws -> Layer {
        let root = Layer(name: "root")
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.4)
        root.borderWidth = 2; root.borderColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5); root.cornerRadius = 6

        let text = TextLayer()
        text.name = "text"
        text.frame = CGRect(x: 10, y: 10, width: 120, height: 40)
        text.string = "rows\nand columns"
        text.fontSize = 14
        try root.addSublayer(text)

        let picture = Layer(name: "picture")
        picture.frame = CGRect(x: 150, y: 10, width: 64, height: 48)
        picture.contents = image(8, 6, 3)
        picture.contentsGravity = .topLeft
        picture.contentsScale = 2
        picture.masksToBounds = true
        try root.addSublayer(picture)

        for (name, scale) in [("scale -0", -0.0), ("scale 0", 0.0), ("scale NaN", Double.nan)] {
            let l = Layer(name: name)
            l.frame = CGRect(x: 230, y: 10, width: 20, height: 20)
            l.contentsScale = scale
            try root.addSublayer(l)
        }
        let gravityOnly = Layer()  // no name, no image: an extra for its gravity alone
        gravityOnly.contentsGravity = .bottomRight
        try root.addSublayer(gravityOnly)

        // A lit container holding a pyramid (faces with outlines) and a cube in a half-transparent transform layer.
        let container = Layer(name: "container")
        container.frame = CGRect(x: 50, y: 80, width: 300, height: 200)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        container.sublayerTransform = perspective.rotated(by: 0.4, x: 1, y: 1, z: 0)
        container.lighting = Lighting.book
        try root.addSublayer(container)
        let pyramid = try Solid.pyramid(sides: 5, radius: 40, height: 60)
        pyramid.name = "pyramid"
        pyramid.position = CGPoint(x: 80, y: 100)
        try container.addSublayer(pyramid)
        let group = TransformLayer()
        group.name = "group"
        group.opacity = 0.5
        group.frame = container.bounds
        try container.addSublayer(group)
        let cube = try Solid.cube(size: 50)
        cube.position = CGPoint(x: 220, y: 100)
        cube.zPosition = 20
        cube.faces[2].isDoubleSided = false
        cube.faces[3].backgroundColor = Color(red: 0, green: 1, blue: 0)
        cube.faces[4].allowsHitTesting = false
        cube.faces[5].opacity = 0.005
        try group.addSublayer(cube)

        // Hidden, with a sublayer; a non-finite position; a border width that is not finite; a shader of another type.
        let hidden = Layer(name: "hidden")
        hidden.isHidden = true
        try hidden.addSublayer(Layer(name: "under hidden"))
        try root.addSublayer(hidden)
        let lost = Layer(name: "lost")
        lost.position = CGPoint(x: Double.nan, y: 4)
        try lost.addSublayer(Layer(name: "under lost"))
        try root.addSublayer(lost)
        let wide = Layer(name: "wide border")
        wide.borderWidth = .infinity
        try root.addSublayer(wide)
        let shaded = Layer(name: "shaded")
        shaded.frame = CGRect(x: 0, y: 200, width: 100, height: 100)
        shaded.lighting = Flat()
        try shaded.addSublayer(Layer(name: "shaded member"))
        try root.addSublayer(shaded)

        // Animated: position and opacity of one layer, the colours of another, the solid's transform.
        let moving = Layer(name: "moving")
        moving.frame = CGRect(x: 300, y: 20, width: 30, height: 30)
        let slide = BasicAnimation(keyPath: "position.x")
        slide.fromValue = 100; slide.toValue = 200; slide.duration = 2
        moving.add(slide, forKey: "slide")
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1; fade.toValue = 0.2; fade.duration = 4
        moving.add(fade, forKey: "fade")
        try root.addSublayer(moving)
        let tint = BasicAnimation(keyPath: "backgroundColor")
        tint.fromValue = .color(Color(red: 1, green: 1, blue: 0)); tint.toValue = .color(Color(red: 0, green: 0, blue: 1))
        tint.duration = 2
        picture.add(tint, forKey: "tint")
        let turn = BasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = 0; turn.toValue = 1; turn.duration = 3
        cube.add(turn, forKey: "turn")
        return root
    }

    /// A face shader that is not a `Lighting`.
    struct Flat: FaceShader {
        func shade(_ transforms: FaceTransforms, bounds: CGRect) -> FaceShade? { nil }
    }

    /// Every field of `tree[i]`, and every one-field accessor, against the layers (animated at `time`).
    static func check(_ tree: PresentationTree, time: Double?, placement: PresentationTree.RootPlacement) {
        var index: [ObjectIdentifier: Int] = [:]
        for i in 0 ..< tree.count { index[ObjectIdentifier(tree.layer(i))] = i }
        var localTime: [Double] = [], level: [Int] = [], drawable: [Bool] = [], receives: [Bool] = []
        for i in 0 ..< tree.count {
            let node = tree[i], layer = tree.layer(i)
            let parent = i == 0 ? -1 : index[ObjectIdentifier(layer.superlayer!)]!
            let t = time.map { layer.localTime(fromParent: parent < 0 ? $0 : localTime[parent]) } ?? 0
            localTime.append(t)
            let a = time != nil && !layer.animationEntries.isEmpty ? layer.animatedProperties(atLocalTime: t) : nil
            let g = a?.geometry ?? layer.geometry, opacity = a?.opacity ?? layer.opacity
            let borderWidth = a?.borderWidth ?? layer.borderWidth, cornerRadius = a?.cornerRadius ?? layer.cornerRadius
            let lighting = a != nil ? a!.lighting : layer.lighting

            #expect(node.name == layer.name, "node \(i)")
            let kind: PresentationTree.Kind = layer is TransformLayer && !(i == 0 && placement == .renderedInOwnSpace)
                ? .transformLayer : layer is TextLayer ? .text : layer is Face ? .face : .layer
            #expect(node.kind == kind, "node \(i)")
            #expect(same(node.geometry, g), "node \(i)")
            #expect(same(node.backgroundColor, a?.backgroundColor ?? layer.backgroundColor), "node \(i)")
            #expect(node.contents == layer.contents, "node \(i)")
            #expect(node.contentsGravity == layer.contentsGravity, "node \(i)")
            #expect(same(node.contentsScale, layer.contentsScale), "node \(i)")
            #expect(same(node.borderWidth, borderWidth), "node \(i)")
            #expect(same(node.borderColor, a?.borderColor ?? layer.borderColor), "node \(i)")
            #expect(same(node.cornerRadius, cornerRadius), "node \(i)")
            #expect(same(node.opacity, opacity), "node \(i)")
            #expect(node.masksToBounds == layer.masksToBounds, "node \(i)")
            #expect(node.isDoubleSided == layer.isDoubleSided, "node \(i)")
            #expect(node.isHidden == layer.isHidden, "node \(i)")
            #expect(node.allowsHitTesting == layer.allowsHitTesting, "node \(i)")
            #expect((node.lighting == nil) == (lighting == nil), "node \(i)")
            #expect(node.lighting as? Lighting == lighting as? Lighting, "node \(i)")
            #expect((node.lighting is Flat) == (lighting is Flat), "node \(i)")
            #expect(node.isLit == (lighting != nil), "node \(i)")
            #expect(node.text == (layer as? TextLayer).map(TextStyle.init), "node \(i)")
            #expect(node.outline == (layer as? Face)?.polygon, "node \(i)")
            #expect(node.parent == parent, "node \(i)")
            level.append(parent < 0 ? 0 : level[parent] + 1)
            #expect(node.level == level[i], "node \(i)")
            // Lighting's object space (no flips in this tree): the placement, times the parent's sublayer space when the
            // parent is a transform layer.
            let placementMatrix = i == 0 ? g.placementTransform : g.placementTransform
            let object = parent >= 0 && tree.kind(of: parent) == .transformLayer
                ? placementMatrix.concatenating(tree[parent].geometry.contentSublayerSpaceTransform(contentFlipped: false))
                : placementMatrix
            #expect(same(node.objectTransform, object), "node \(i)")
            let ownDrawable = !layer.isHidden && g.isFinite && opacity.isFinite && borderWidth.isFinite
                && cornerRadius.isFinite && layer.contentsScale.isFinite
            let chained = parent < 0 || tree.kind(of: parent) != .transformLayer
            drawable.append(ownDrawable && (chained || drawable[parent]))
            #expect(node.isDrawableInContext == drawable[i], "node \(i)")
            let ownReceives = !layer.isHidden && layer.allowsHitTesting && opacity >= 0.01
            receives.append(ownReceives && (chained || receives[parent]))
            #expect(node.receivesInContext == receives[i], "node \(i)")
            #expect(same(node.bounds, g.bounds), "node \(i)")

            // The one-field accessors read the same values in place.
            #expect(tree.kind(of: i) == node.kind && tree.parent(of: i) == node.parent && tree.level(of: i) == node.level)
            #expect(tree.name(of: i) == node.name && tree.text(of: i) == node.text)
            #expect(same(tree.geometry(of: i), node.geometry) && same(tree.objectTransform(of: i), node.objectTransform))
            #expect(tree.lighting(of: i) as? Lighting == node.lighting as? Lighting)
            #expect((tree.lighting(of: i) == nil) == (node.lighting == nil))
        }
    }

    @Test("every field of a node made on demand is what the layers say: the model, and animated at three times")
    func nodesMadeFromRows() throws {
        let root = try Self.tree()
        let model = PresentationTree(root)
        // The fixture has what it should: every kind of extra, and nodes left out of a render.
        #expect((0 ..< model.count).contains { model.kind(of: $0) == .text })
        #expect((0 ..< model.count).contains { model[$0].contents != nil })
        #expect((0 ..< model.count).filter { model[$0].outline != nil }.count >= 5)
        #expect((0 ..< model.count).filter { model[$0].isLit }.count == 2)
        #expect(model.renderedNodes.filter { !$0 }.count >= 6)
        Self.check(model, time: nil, placement: .superlayer)
        for t in [0.0, 1.0, 2.5] {
            Self.check(PresentationTree(root, time: t), time: t, placement: .superlayer)
        }
        for placement in [PresentationTree.RootPlacement.canvas, .ownSpace, .renderedInOwnSpace] {
            Self.check(PresentationTree(root, placement: placement, time: 1.5), time: 1.5, placement: placement)
        }
    }

    @Test("a tree frozen for a render alone answers what a render reads as the whole tree does")
    func renderingOnlyTree() throws {
        let root = try Self.tree()
        for time in [nil, 1.5] as [Double?] {
            for placement in [PresentationTree.RootPlacement.canvas, .superlayer, .renderedInOwnSpace] {
                let whole = PresentationTree(root, placement: placement, time: time)
                let render = PresentationTree(root, placement: placement, time: time, renderingOnly: true)
                #expect(render.count == whole.count)
                #expect(render.renderedNodes == whole.renderedNodes)
                for c in -1 ..< whole.count {
                    #expect(render.members(of: c) == whole.members(of: c))
                    #expect(render.drawableMembers(of: c) == whole.drawableMembers(of: c))
                    // (Asked of contexts only: a layer with sublayers, or the canvas.)
                    guard c < 0 || !whole.layer(c).sublayers.isEmpty else { continue }
                    #expect(Self.same(render.faceTransformsContext(of: c).transforms(projected: .identity, object: .identity),
                                      whole.faceTransformsContext(of: c).transforms(projected: .identity, object: .identity)))
                }
                for i in 0 ..< whole.count {
                    #expect(render.context(of: i) == whole.context(of: i) && render.parent(of: i) == whole.parent(of: i))
                    #expect(render.kind(of: i) == whole.kind(of: i) && render.name(of: i) == whole.name(of: i))
                    #expect(Self.same(render.transform(of: i), whole.transform(of: i)))
                    #expect(Self.same(render.objectTransform(of: i), whole.objectTransform(of: i)))
                    #expect(Self.same(render.inheritedOpacity(of: i), whole.inheritedOpacity(of: i)))
                    #expect(render.isFace(i) == whole.isFace(i) && render.isSeenFromBehind(i) == whole.isSeenFromBehind(i))
                    // A layer with sublayers keeps its geometry; every layer's bounds are its row's.
                    if !whole.layer(i).sublayers.isEmpty { #expect(Self.same(render.geometry(of: i), whole.geometry(of: i))) }
                    render.withRows { r in
                        whole.withRows { w in
                            #expect(Self.same(r.rows[i].bounds, whole.geometry(of: i).bounds))
                            #expect(Self.same(w.rows[i].bounds, whole.geometry(of: i).bounds))
                            #expect(r.rendered[i] == w.rendered[i] && r.rows[i].extra == w.rows[i].extra)
                            #expect(Self.same(r.planes[i].toOwner, w.planes[i].toOwner) && r.planes[i].owner == w.planes[i].owner)
                        }
                    }
                }
            }
        }
    }

    @Test("a transform layer frozen as the root: a node per layer, the same fields")
    func transformLayerRoot() throws {
        let cube = try Solid.cube(size: 30)
        cube.faces[0].name = nil
        for placement in [PresentationTree.RootPlacement.superlayer, .ownSpace, .renderedInOwnSpace] {
            Self.check(PresentationTree(cube, placement: placement), time: nil, placement: placement)
        }
    }
}
