import Foundation
import Origami

/// What a render paints: a `PresentationTree` with the paint payloads the painter needs per ordinary layer
/// (glyph outlines, extents, the shades its context's lighting decides). Immutable and `Sendable`, so it is
/// rendered any number of times on any threads (DESIGN §3.8). Layers the presentation tree marks undrawable
/// (hidden, or with non-finite geometry, opacity, border width, corner radius or contents scale) are left out
/// with their subtrees; lighting shaders are asked here, once per member, and never change the layers.
public struct RenderTree: Sendable {
    /// The canvas's scene: the root placed in the canvas — or, when the root is a `TransformLayer`, its expanded
    /// sublayers, which then share the canvas's 3D space.
    public let members: [RenderMember]

    /// Freezes the tree of `root` and prepares it for painting. The canvas is `root`'s superlayer space; `root`
    /// is placed by its own position, transform and zPosition. `time`: the presentation at that time of the root's
    /// parent, animations applied (`PresentationTree.init(_:placement:time:)`); `nil`, the model.
    ///
    /// Throws `RenderError.limitExceeded` when the drawable tree has more layers or more levels than `limits`
    /// allow — checked by an iterative walk before anything is frozen.
    public init(root: Layer, limits: RenderLimits = .default, time: Double? = nil) throws(RenderError) {
        try limits.check(root)
        // (A tree for this render alone: no layers column retained, no child or hit-member lists; never handed out.)
        let tree = PresentationTree(root, placement: .canvas, time: time, renderingOnly: true)
        self = try RenderError.typed("snapshot") { try RenderTree(tree, checkedWithin: nil) }
    }

    /// Prepares a presentation tree for painting; its context −1 is the canvas. Throws `.invalidLighting` for a
    /// context whose `Lighting` fails `validate()`: an invalid lighting is refused, not rendered unlit.
    public init(_ tree: PresentationTree, limits: RenderLimits = .default) throws(RenderError) {
        self = try RenderError.typed("snapshot") { try RenderTree(tree, checkedWithin: limits) }
    }

    private init(_ tree: PresentationTree, checkedWithin limits: RenderLimits?) throws {
        try limits?.check(tree)
        // (Whether a node is rendered is read in place, `Rows.rendered`: no `renderedNodes` array made.)
        guard tree.withRows({ $0.rendered[0] }) else { members = []; return }
        // The nodes' records and the scenes' member rows, one table for the tree (`RenderNodeTable`): no object per
        // node.
        // (The records are written in place into the buffer the table takes; freed here if the freeze throws.)
        let records = UnsafeMutablePointer<RenderNode.Record>.allocate(capacity: tree.count)
        // The records' names, by record, in a buffer the table takes too (`RenderNodeTable.names`).
        let names = UnsafeMutablePointer<String?>.allocate(capacity: tree.count)
        var built = 0
        // The scenes' member rows and which records hold a reference (`RenderNodeTable.members`, `.referencing`),
        // and the root's scene.
        let memberRows: [RenderNodeTable.Member], referencing: [Int], rootScene: Range<Int>
        do {
            // The nodes' rows are read in place: a `RenderNode` takes the fields painting reads, no node is made.
            // (The tables are the closure's own and handed out at the end: `memberRows` captured from here took a
            // dynamic exclusivity check a node, 0.6 M instructions a lattice render.)
            (memberRows, referencing, rootScene) = try tree.withRows { nodes in
                var memberRows: [RenderNodeTable.Member] = [], referencing: [Int] = []
                // Reverse pre-order: every node's members are built before the node itself. `record[i]`: node `i`'s row
                // in `records` (−1: not built).
                var record = [Int](repeating: -1, count: tree.count)
                // Appends context `c`'s scene to `memberRows`: its rows.
                func scene(of c: Int) -> Range<Int> {
                    let start = memberRows.count
                    // Most nodes (a solid's faces) have no sublayer scene: told in place. The members are read in place
                    // too (`drawableMembers(of:)` made an array of them, an append each).
                    let members = nodes.memberStart[c + 1] ..< nodes.memberStart[c + 2]
                    guard !members.isEmpty else { return start ..< start }
                    memberRows.reserveCapacity(start + members.count)
                    // The transform layer the previous member sits in (−1: none) and its solid number; `order`: the
                    // member's place among the drawable ones.
                    var solidLayer = -1, solid = 0, order = -1
                    for k in members {
                        let m = nodes.memberList[k]
                        guard nodes.rows[m].isDrawableInContext else { continue }
                        order += 1
                        let node = record[m]
                        guard node >= 0 else { continue }
                        // A member whose superlayer is not its context (`c`) sits in a transform layer.
                        let parent = nodes.rows[m].parent, inSolid = parent >= 0 && parent != c
                        if !inSolid || parent != solidLayer { solid = memberRows.count - start }
                        solidLayer = inSolid ? parent : -1
                        memberRows.append(RenderNodeTable.Member(node: node, treeIndex: order, solid: solid))
                    }
                    return start ..< memberRows.count
                }
                // Per context, what its members' light spaces share (`FaceTransforms.Context`, a 4×4 inversion), worked
                // out on its first lit member: `space[contextSlot[c]]`.
                var contextSlot = [Int](repeating: -1, count: tree.count), space: [FaceTransforms.Context] = []
                // The context of the last member shaded, and how its members are shaded: worked out once per run of
                // members of one context (all of a lattice's faces), not per member. A `Lighting` is asked through
                // `Lighting.MemberShading` (validated once, the light spaces it does not read not formed), any other
                // shader through `FaceShader.shade(_:bounds:)` with the member's whole `FaceTransforms`.
                // (Each shade is asked through an unmanaged reference to the shading, held by `shadings` until the
                // freeze ends: `if let` on an optional shading retained and released it for every member.)
                var shaderContext = -1, lightingShading: Unmanaged<Lighting.MemberShading>?, shader: (any FaceShader)?
                var shadings: [Lighting.MemberShading] = []
                // Node `i`'s shade as a member of its context's scene (drawn through `transform`), with the node's bounds
                // as frozen.
                func shade(of i: Int, transform: Transform3D) -> FaceShade? {
                    let c = nodes.planes[i].owner
                    guard c >= 0 else { return nil }
                    if c != shaderContext {
                        shaderContext = c
                        lightingShading = nil; shader = nil
                        if nodes.rows[c].isLit {
                            if contextSlot[c] < 0 {
                                contextSlot[c] = space.count
                                space.append(tree.faceTransformsContext(of: c))
                            }
                            if let lighting = nodes.lighting(c) as? Lighting {
                                let shading = Lighting.MemberShading(lighting, context: space[contextSlot[c]])
                                shadings.append(shading)
                                lightingShading = .passUnretained(shading)
                            } else {
                                shader = nodes.lighting(c)
                            }
                        }
                    }
                    if let lightingShading {
                        return lightingShading._withUnsafeGuaranteedRef {
                            $0.shade(projected: transform, object: nodes.objectTransforms[i], bounds: nodes.rows[i].bounds)
                        }
                    }
                    guard shader != nil else { return nil }
                    // (The context is read in the call: bound to a local, its three 4×4 matrices were copied per member.)
                    return shader?.shade(tree.faceTransforms(of: i, in: space[contextSlot[c]]), bounds: nodes.rows[i].bounds)
                }
                for i in stride(from: tree.count - 1, through: 0, by: -1) where nodes.rendered[i] {
                    guard nodes.rows[i].kind != .transformLayer else { continue }
                    // (The flag is read in place; the cast copies the existential, so only a lit node pays it.)
                    if nodes.rows[i].isLit, let lighting = nodes.lighting(i) as? Lighting {
                        do throws(LightingError) { try lighting.validate() } catch {
                            throw RenderError.invalidLighting(layer: nodes.names[i].map { "layer \"\($0)\"" } ?? "layer \(i)",
                                                              reason: error)
                        }
                    }
                    // The node's member data is its own: it is the member of exactly one scene, its context's. (Its
                    // context's lighting is validated on the context's turn, after this: a `Lighting` that fails
                    // `validate()` shades nothing, and the render throws then.)
                    let transform = nodes.planes[i].toOwner, members = scene(of: i)
                    // (The record consumes the shade as made, and is written in place: see `RenderNode.Record.write`.)
                    if try RenderNode.Record.write(
                        to: records + built, nodes, i, scene: members, records: records, members: memberRows,
                        transform: transform, inheritedOpacity: nodes.planes[i].inheritedOpacity,
                        shade: shade(of: i, transform: transform)) {
                        referencing.append(built)
                    }
                    (names + built).initialize(to: nodes.names[i])
                    record[i] = built
                    built += 1
                }
                let rootScene = scene(of: -1)  // (before `memberRows` is handed out: it appends the root's rows)
                return (memberRows, referencing, rootScene)
            }
        } catch {
            records.deinitialize(count: built)
            records.deallocate()
            PresentationTree.destroy(names: names, count: built)
            throw error
        }
        members = RenderNodeTable(records: records, count: built, members: memberRows, names: names, referencing: referencing).scene(rootScene)
    }
}
