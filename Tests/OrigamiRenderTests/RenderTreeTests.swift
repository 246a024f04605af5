import Foundation
import Origami
import Testing
@testable import OrigamiRender

/// A `RenderNode` keeps what painting reads of its presentation node, and — being the member of exactly one scene —
/// its member values (transform, inherited opacity, zPosition, shade); a `RenderMember` is the node with its place
/// in the scene. Both must say what the presentation tree and the context's shader say.
@Suite("Render tree")
struct RenderTreeTests {
    @Test("Each member's node carries its presentation node's values and its context's shade")
    func membersCarryTheirValues() throws {
        let container = try PlainFaceFillTests.lattice(8)
        // A cube seen through its transform layer's opacity, one with a zPosition, one face with a border.
        let cubes = container.sublayers.compactMap { $0 as? Solid }
        cubes[1].opacity = 0.5
        cubes[2].faces[3].zPosition = 4
        cubes[3].faces[1].borderWidth = -2
        cubes[3].faces[1].backgroundColor = Color(red: 1.5, green: -0.5, blue: 0.5)
        let presentation = PresentationTree(container, placement: .canvas)
        let tree = try RenderTree(presentation)
        let root = try #require(tree.members.first)
        #expect(tree.members.count == 1 && root.treeIndex == 0 && root.transform == presentation.transform(of: 0))
        let drawn = presentation.drawableMembers(of: 0)
        let members = root.node.members
        #expect(members.count == drawn.count && drawn.count == 48)
        for (order, (m, i)) in zip(members, drawn).enumerated() {
            let node = presentation[i]
            #expect(m.treeIndex == order)
            #expect(m.solid == order / 6 * 6, "member \(order): one solid per cube")
            #expect(m.transform == presentation.transform(of: i))
            #expect(m.inheritedOpacity == presentation.inheritedOpacity(of: i))
            #expect(m.zPosition == node.geometry.zPosition)
            #expect(m.shade == Lighting.book.shade(presentation.faceTransforms(of: i), bounds: node.bounds))
            #expect(m.node.bounds == node.bounds.standardized)
            #expect(m.node.backgroundColor == node.backgroundColor?.clamped)
            #expect(m.node.borderWidth == max(0, node.borderWidth))
            #expect(m.node.opacity == node.opacity && m.node.isDoubleSided == node.isDoubleSided)
        }
        #expect(members[6].inheritedOpacity == 0.5 && members[15].zPosition == 4)
        #expect(members[19].node.backgroundColor == Color(red: 1, green: 0, blue: 0.5))
        // The container has no context above it with lighting: no shade.
        #expect(root.shade == nil && members.allSatisfy { $0.shade != nil })
    }

    /// A node's image, text and their placement are the presentation node's (the scale made usable), whether the
    /// node keeps them out of line or has none: default placement with nothing to place (kept as `nil`), a
    /// gravity or a scale of its own with no image, an image, a text, a scale that is not positive.
    @Test("Each node's contents, gravity, scale, text and glyph rings are its presentation node's")
    func contentValuesKept() throws {
        let container = Layer(name: "container")
        container.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        container.position = CGPoint(x: 100, y: 100)
        let image = try #require(Bitmap(width: 4, height: 2, color: Color(red: 0.2, green: 0.4, blue: 0.6)))
        var layers: [Layer] = []
        for k in 0..<8 {
            let l = k == 5 ? TextLayer() : Layer()
            l.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
            l.position = CGPoint(x: 20 + 20 * Double(k), y: 50)
            switch k {
            case 1: l.contentsGravity = .topLeft
            case 2: l.contentsScale = 2
            case 3: l.contents = image
            case 4: l.contents = image; l.contentsGravity = .bottomRight; l.contentsScale = 3
            case 5: (l as? TextLayer)?.string = "Hi"
            case 6: l.contentsScale = -2
            case 7: l.contentsScale = 1; l.contentsGravity = .resize
            default: break
            }
            try container.addSublayer(l)
            layers.append(l)
        }
        let presentation = PresentationTree(container, placement: .canvas)
        let tree = try RenderTree(presentation)
        let members = try #require(tree.members.first).node.members
        #expect(members.count == layers.count)
        for (k, m) in members.enumerated() {
            let node = presentation[k + 1]
            #expect(m.node.contents == node.contents, "layer \(k)")
            #expect(m.node.contentsGravity == node.contentsGravity, "layer \(k)")
            #expect(m.node.contentsScale == RenderNode.usable(contentsScale: node.contentsScale), "layer \(k)")
            #expect(m.node.text == node.text, "layer \(k)")
            #expect(m.node.textRings.isEmpty == (k != 5), "layer \(k)")
        }
        #expect(members[2].node.contentsScale == 2 && members[1].node.contentsGravity == .topLeft)
        #expect(members[6].node.contentsScale == 1 && members[4].node.contentsScale == 3)
    }

    /// A tree with text, an image, outlines (a pyramid's faces), lighting, a hidden subtree, a context inside a face,
    /// nested transform layers and a layer that masks to its bounds.
    static func mixedTree() throws -> Layer {
        let root = Layer(name: "root")
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.4)
        root.borderWidth = 2; root.borderColor = Color(red: 1.5, green: 0, blue: 0, alpha: 0.5); root.cornerRadius = 6
        let text = TextLayer()
        text.name = "text"
        text.frame = CGRect(x: 10, y: 10, width: 120, height: 40)
        text.string = "table rows"
        try root.addSublayer(text)
        let picture = Layer(name: "picture")
        picture.frame = CGRect(x: 150, y: 10, width: 64, height: 48)
        picture.contents = Bitmap(width: 8, height: 6, color: Color(red: 0.2, green: 0.4, blue: 0.6))
        picture.contentsGravity = .bottomLeft
        picture.contentsScale = 0.5  // the image overhangs the bounds: the extent grows
        try root.addSublayer(picture)
        let masked = Layer(name: "masked")
        masked.frame = CGRect(x: 230, y: 10, width: 40, height: 40)
        masked.masksToBounds = true
        let overhang = Layer(name: "overhang")
        overhang.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
        try masked.addSublayer(overhang)
        try root.addSublayer(masked)
        let hidden = Layer(name: "hidden")
        hidden.isHidden = true
        try hidden.addSublayer(Layer(name: "under hidden"))
        try root.addSublayer(hidden)

        let container = Layer(name: "container")
        container.frame = CGRect(x: 50, y: 80, width: 300, height: 200)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        container.sublayerTransform = perspective.rotated(by: 0.4, x: 1, y: 1, z: 0)
        container.lighting = Lighting.book
        try root.addSublayer(container)
        let pyramid = try Solid.pyramid(sides: 5, radius: 40, height: 60)
        pyramid.position = CGPoint(x: 80, y: 100)
        try container.addSublayer(pyramid)
        // Transform layers two deep, the inner one half transparent, holding a cube whose face holds a context.
        let outer = TransformLayer(), inner = TransformLayer()
        outer.frame = container.bounds
        inner.frame = container.bounds
        inner.opacity = 0.5
        inner.transform = Transform3D.identity.rotated(by: 0.3, x: 0, y: 1, z: 0)
        try container.addSublayer(outer)
        try outer.addSublayer(inner)
        let cube = try Solid.cube(size: 50)
        cube.position = CGPoint(x: 220, y: 100)
        cube.zPosition = 20
        cube.faces[2].isDoubleSided = false
        cube.faces[3].backgroundColor = Color(red: 0, green: 1, blue: 0)
        try inner.addSublayer(cube)
        let badge = Layer(name: "badge")
        badge.frame = CGRect(x: 30, y: 30, width: 40, height: 10)  // overhangs its face
        badge.backgroundColor = Color(red: 1, green: 1, blue: 1)
        try cube.faces[3].addSublayer(badge)
        let flat = Layer(name: "flat")
        flat.frame = CGRect(x: 10, y: 150, width: 30, height: 30)
        flat.zPosition = -3
        try outer.addSublayer(flat)
        return root
    }

    /// The node table (`RenderNodeTable`): every node reached through the members answers what the presentation
    /// node it was frozen from says — drawing values, the member values, the scene (which members, their order and
    /// solids), the contents, the glyph rings and the extent (its bounds, image and text, and its members' extents
    /// unless it masks to its bounds) — for a tree with text, an image, outlines, lighting, a hidden subtree, nested
    /// transform layers and a context inside a face; and nodes stay readable, on other threads too, after the tree
    /// that made them is gone.
    @Test("Every node read from the node table answers what its presentation node says")
    func nodeTableAnswersThePresentationTree() async throws {
        let presentation = PresentationTree(try Self.mixedTree(), placement: .canvas)
        let tree = try RenderTree(presentation)
        var checked = 0, lit = 0, withMembers = 0
        // Node `i` and its members, depth first; returns its extent.
        func check(_ node: RenderNode, _ i: Int) throws -> PlaneRect {
            checked += 1
            let p = presentation[i]
            #expect(p.kind != .transformLayer, "node \(i)")
            #expect(node.bounds == p.bounds.standardized, "node \(i)")
            #expect(node.name == p.name, "node \(i)")
            #expect(node.backgroundColor == p.backgroundColor?.clamped, "node \(i)")
            #expect(node.borderWidth == max(0, p.borderWidth) && node.borderColor == p.borderColor.clamped, "node \(i)")
            #expect(node.cornerRadius == max(0, p.cornerRadius), "node \(i)")
            #expect(node.opacity == min(max(p.opacity, 0), 1) && node.masksToBounds == p.masksToBounds, "node \(i)")
            #expect(node.isDoubleSided == p.isDoubleSided && node.zPosition == p.geometry.zPosition, "node \(i)")
            #expect(node.transform == presentation.transform(of: i), "node \(i)")
            #expect(node.inheritedOpacity == presentation.inheritedOpacity(of: i), "node \(i)")
            #expect(node.shape == p.outline, "node \(i)")
            #expect(node.contents == p.contents && node.contentsGravity == p.contentsGravity, "node \(i)")
            #expect(node.contentsScale == RenderNode.usable(contentsScale: p.contentsScale), "node \(i)")
            #expect(node.text == p.text, "node \(i)")
            let b = node.planeBounds
            let rings = try p.text.map { try Outlines.text($0, in: b) } ?? []
            #expect(node.textRings == rings, "node \(i)")
            let c = presentation.context(of: i)
            if c >= 0, let lighting = presentation.lighting(of: c) {
                lit += 1
                #expect(node.shade == lighting.shade(presentation.faceTransforms(of: i), bounds: p.bounds), "node \(i)")
            } else {
                #expect(node.shade == nil, "node \(i)")
            }
            // The scene: the drawable members in tree order, a solid numbered by its first member.
            let members = node.members, drawn = presentation.drawableMembers(of: i)
            #expect(members.map(\.treeIndex) == Array(drawn.indices), "node \(i)")
            if !members.isEmpty { withMembers += 1 }
            var extent = b
            for (order, (m, k)) in zip(members, drawn).enumerated() {
                let parent = presentation.parent(of: k)
                let first = drawn.firstIndex { presentation.parent(of: $0) == parent && parent != i } ?? order
                #expect(m.solid == (parent == i ? order : first), "node \(i) member \(order)")
                #expect(m.transform == m.node.transform && m.shade == m.node.shade && m.zPosition == m.node.zPosition,
                        "node \(i) member \(order)")
                let e = try check(m.node, k)
                if !node.masksToBounds, var r = RenderNode.flatBounds(e, transform: m.transform) {
                    r = PlaneRect(minX: max(r.minX, -1e7), minY: max(r.minY, -1e7), maxX: min(r.maxX, 1e7), maxY: min(r.maxY, 1e7))
                    extent = extent.union(r)
                }
            }
            if !node.masksToBounds {
                if let image = node.contents,
                   let r = RenderNode.contentsRect(image, gravity: node.contentsGravity, scale: node.contentsScale, in: b) {
                    extent = extent.union(r)
                }
                if let t = PlaneRect.bounding(rings.flatMap { $0 }) { extent = extent.union(t) }
            }
            #expect(node.extent == extent, "node \(i)")
            return node.extent
        }
        let root = try #require(tree.members.first)
        #expect(tree.members.count == 1 && root.treeIndex == 0 && root.solid == 0)
        _ = try check(root.node, 0)
        // Every drawn layer but the transform layers, once each (not the hidden one and its sublayer): the root,
        // text, picture, masked and its sublayer, container, the pyramid's and the cube's faces, the badge, flat;
        // lit, the container's members; with a scene, the root, masked, container and the badge's face.
        let drawn = (0 ..< presentation.count).filter { presentation.renderedNodes[$0] && presentation.kind(of: $0) != .transformLayer }
        let container = try #require((0 ..< presentation.count).first { presentation.name(of: $0) == "container" })
        let pyramidFaces = presentation.drawableMembers(of: container).count - 7
        #expect(checked == drawn.count && checked == 14 + pyramidFaces && pyramidFaces >= 5)
        #expect(lit == pyramidFaces + 7 && withMembers == 4)
        #expect(presentation.drawableMembers(of: 0).count == 4)

        // A scene's nodes outlive the tree they came from, and are read on other threads.
        let faces = try #require(RenderTree(presentation).members.first).node.members[3].node.members
        #expect(faces.count == pyramidFaces + 7)
        let bounds = await withTaskGroup(of: [CGRect].self) { group in
            for _ in 0 ..< 4 { group.addTask { faces.map(\.node.bounds) } }
            var all: [[CGRect]] = []
            for await b in group { all.append(b) }
            return all
        }
        #expect(bounds.allSatisfy { $0 == faces.map(\.node.bounds) })
    }

    /// A shader that gives some members per-vertex colours (with flat ones beside), some a flat shade with −0 and
    /// NaN components, and some none — by the member's bounds, so the three kinds mix in one scene.
    struct MixedShader: FaceShader {
        func shade(_ transforms: FaceTransforms, bounds: CGRect) -> FaceShade? {
            let c = Color(red: 0.25 + transforms.projected.m41 / 1e4, green: -0.0, blue: 0.5, alpha: 1)
            switch Int(bounds.width) % 3 {
            case 0: return FaceShade(multiply: c, vertexMultiply: [c, c, c, Color(red: .nan, green: 1, blue: 0, alpha: 1)],
                                     vertexAdd: [c, c, c, c], overlay: Color(red: 0, green: 0, blue: 0, alpha: 0.25))
            case 1: return FaceShade(multiply: c, add: Color(red: -0.0, green: .nan, blue: 0, alpha: 0))
            default: return nil
            }
        }
    }

    /// The node table destroys only the records it lists as holding a reference (`RenderNodeTable.referencing`) and
    /// frees the rest unread: every record it leaves out must hold none — no shape, no content (image, text or a
    /// placement of its own), no per-vertex shade — and every one it lists must hold one. Checked over the mixed tree
    /// plus a context whose shader gives per-vertex, flat and no shades (`MixedShader`), images, a text, and solids
    /// with and without outlines; and each node's name, from the table's name column, is its layer's.
    @Test("The node table destroys exactly the records that hold a reference; names come from its name column")
    func onlyRecordsWithReferencesAreDestroyed() throws {
        let root = try Self.mixedTree()
        let container = Layer(name: "mixed")
        container.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        container.sublayerTransform = Transform3D.identity.rotated(by: 0.2, x: 0, y: 1, z: 0)
        container.lighting = MixedShader()
        for k in 0 ..< 7 {
            let layer = k == 2 ? Layer() : Layer(name: "plane \(k)")
            layer.frame = CGRect(x: 10 * Double(k), y: 10, width: 30 + Double(k), height: 20)
            if k == 4 { layer.contents = Bitmap(width: 2, height: 2, color: Color(red: 1, green: 0, blue: 0)) }
            if k == 5 { layer.contentsGravity = .topLeft }
            try container.addSublayer(layer)
        }
        try container.addSublayer(try Solid.cube(size: 31))  // faces of width 31: flat shades
        try container.addSublayer(try Solid.pyramid(sides: 4, radius: 30, height: 40))
        try root.addSublayer(container)
        let presentation = PresentationTree(root, placement: .canvas)
        let tree = try RenderTree(presentation)
        let rootNode = try #require(tree.members.first).node
        let table = rootNode.table
        var listed = 0, unlisted = 0, vertexShaded = 0, checked = 0
        func check(_ node: RenderNode, _ i: Int) {
            checked += 1
            #expect(node.name == presentation.name(of: i), "node \(i)")
            let r = node.record.pointee
            let holds = r.shape != nil || r.content != nil || r.shade?.vertexMultiply != nil || r.shade?.vertexAdd != nil
            let row = UnsafePointer(table.records).distance(to: node.record)
            #expect(table.referencing.contains(row) == holds, "node \(i)")
            if holds { listed += 1 } else { unlisted += 1 }
            if r.shade?.vertexMultiply != nil { vertexShaded += 1 }
            for (m, k) in zip(node.members, presentation.drawableMembers(of: i)) { check(m.node, k) }
        }
        check(rootNode, 0)
        #expect(checked == table.count && table.referencing == table.referencing.sorted())
        // Text, picture, the pyramids' faces, the image and gravity planes, the per-vertex shaded planes; the cube
        // faces, flat planes and plain layers not.
        #expect(listed >= 8 + 4 && unlisted >= 12 && vertexShaded >= 2)
    }

    /// `RenderNode.flatBounds`' divided-corner path (a quad wholly in front of the eye) is the bounding box of
    /// `ScenePolygon.corners(extent:transform:)` flattened, bit for bit (so −0, the first corner's exact
    /// coordinates and `nil`s count), over turned, tilted, scaled, mirrored and perspective transforms and extents
    /// with zero, negative-zero, tiny and huge coordinates; most cases take the divided path.
    @Test("A member's flat bounds are its scene polygon's bounding box, bit for bit")
    func flatBoundsMatchScenePolygon() {
        func bits(_ r: PlaneRect?) -> [UInt64]? { r.map { [$0.minX, $0.minY, $0.maxX, $0.maxY].map(\.bitPattern) } }
        let extents = [
            PlaneRect(minX: 0, minY: 0, maxX: 100, maxY: 100), PlaneRect(minX: -0.0, minY: -0.0, maxX: 0, maxY: 50),
            PlaneRect(minX: -50, minY: -20, maxX: 50, maxY: -0.0), PlaneRect(minX: 3, minY: 3, maxX: 3, maxY: 3),
            PlaneRect(minX: 1e-300, minY: -1e-300, maxX: 2e-300, maxY: 1e-300), PlaneRect(minX: -1e300, minY: 0, maxX: 1e300, maxY: 1e308),
        ]
        var transforms: [Transform3D] = [.identity, Transform3D(scaleX: -1, y: 1), Transform3D(scaleX: 0, y: 2),
                                         Transform3D(scaleX: 1e200, y: 1e200, z: 1)]
        for angle in stride(from: 0.0, to: 2 * Double.pi, by: Double.pi / 7) {
            for axis in [(0.0, 1.0, 0.0), (1.0, 0.0, 0.0), (0.3, 0.9, 0.1), (0.0, 0.0, 1.0)] {
                let turn = Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: axis.2)
                    .concatenating(Transform3D(translationX: -0.0, y: 40, z: -30))
                for distance in [0.0, 500.0, 90.0] {
                    transforms.append(turn.concatenating(Transform3D(translationX: 200, y: 150))
                                          .concatenating(.perspective(distance: distance)))
                }
            }
        }
        var divided = 0, nils = 0
        for (k, m) in transforms.enumerated() {
            for e in extents {
                let fast = RenderNode.flatBounds(e, transform: m)
                let general = ScenePolygon.corners(extent: e, transform: m).flatMap { PlaneRect.bounding($0.map { PlanePoint($0.x, $0.y) }) }
                #expect(bits(fast) == bits(general), "transform \(k), extent \(e)")
                let ws = [(e.minX, e.minY), (e.maxX, e.minY), (e.maxX, e.maxY), (e.minX, e.maxY)]
                    .map { m.apply(Vector4(x: $0.0, y: $0.1, z: 0, w: 1)).w }
                if ws.allSatisfy({ $0 - PlaneChain.nearW * ws.max()! >= 0 }) { divided += 1 }
                if fast == nil { nils += 1 }
            }
        }
        #expect(divided > 500 && nils > 0 && nils < divided)
    }
}
