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
}
