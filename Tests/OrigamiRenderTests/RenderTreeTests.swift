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
}
