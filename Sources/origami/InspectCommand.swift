import ArgumentParser
import Foundation
import Origami
import OrigamiScene

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print the layer tree with frames, anchors, matrices and face normals."
    )

    @OptionGroup var scene: SceneArgument

    @Flag(help: "Also print each layer's 4×4 matrix to its superlayer and its plane map to the canvas.")
    var matrices = false

    @OptionGroup var time: TimeOption

    func run() throws {
        let s = try scene.load(images: .sizeOnly)
        print("scene \(scene.displayName): canvas \(fmt(s.canvas.size.width, 0))×\(fmt(s.canvas.size.height, 0)) @\(fmt(s.canvas.scale, 2))x")
        if !s.summary.isEmpty { print(s.summary.split(separator: "\n").map { "  # \($0)" }.joined(separator: "\n")) }
        let tree = PresentationTree(s.root, time: time.time)
        // Nodes are in tree pre-order: the root's sublayers and theirs, as the file nests them.
        for i in 1..<tree.count {
            let node = tree[i], g = node.geometry
            let indent = String(repeating: "  ", count: node.level)
            let kind = switch node.kind { case .transformLayer: "transformLayer"; case .text: "text"; default: "layer" }
            var line = "\(indent)\(label(of: tree.layer(i), in: s)) [\(kind)] frame \(fmt(g.frame)) position \(fmt(g.position))"
            if g.anchorPoint != CGPoint(x: 0.5, y: 0.5) { line += " anchor \(fmt(g.anchorPoint))" }
            if g.zPosition != 0 { line += " z \(fmt(g.zPosition))" }
            if node.isHidden { line += " hidden" }
            if !node.allowsHitTesting { line += " no-hits" }
            print(line)
            if !g.transform.isIdentity { print("\(indent)  transform \(g.transform)") }
            if !g.sublayerTransform.isIdentity { print("\(indent)  sublayerTransform \(g.sublayerTransform)") }
            if let normal = viewNormal(of: i, in: tree) {
                print("\(indent)  normal (view space) (\(fmt(normal.x, 4)), \(fmt(normal.y, 4)), \(fmt(normal.z, 4)))")
            }
            if matrices {
                print("\(indent)  to superlayer \(g.transform(toSuperlayer: tree[node.parent].geometry))")
                let h = tree.planeMaps(of: i, upTo: 0).reduce(Homography.identity) { $0.concatenating($1) }
                print("\(indent)  plane map to canvas \(h.matrix.elements.map { fmt($0, 4) }.joined(separator: " "))")
            }
        }
    }

    /// The +z axis of a face of a 3D context (not hidden there), carried into the context's space (with the
    /// camera's rotation, without its perspective) by the inverse transpose of the linear part of its matrix.
    private func viewNormal(of i: Int, in tree: PresentationTree) -> Vector3? {
        guard tree.isFace(i), tree[i].kind != .transformLayer, ([i] + tree.transformLayers(of: i)).allSatisfy({ !tree[$0].isHidden }),
              let inv = tree.faceTransforms(of: i).view.linearPart.inverted() else { return nil }
        return inv.transposed.apply(.unitZ).normalized()
    }
}
