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

    func run() throws {
        let s = try scene.load(images: .sizeOnly)
        print("scene \(scene.scene): canvas \(fmt(s.canvas.size.width, 0))×\(fmt(s.canvas.size.height, 0)) @\(fmt(s.canvas.scale, 2))x")
        if !s.summary.isEmpty { print(s.summary.split(separator: "\n").map { "  # \($0)" }.joined(separator: "\n")) }
        var stack: [(Layer, Int)] = s.root.sublayers.reversed().map { ($0, 1) }
        while let (layer, depth) = stack.popLast() {
            let indent = String(repeating: "  ", count: depth)
            let kind = layer is TransformLayer ? "transformLayer" : layer is TextLayer ? "text" : "layer"
            var line = "\(indent)\(label(of: layer, in: s)) [\(kind)] frame \(fmt(layer.frame)) position \(fmt(layer.position))"
            if layer.anchorPoint != CGPoint(x: 0.5, y: 0.5) { line += " anchor \(fmt(layer.anchorPoint))" }
            if layer.zPosition != 0 { line += " z \(fmt(layer.zPosition))" }
            if layer.isHidden { line += " hidden" }
            if !layer.allowsHitTesting { line += " no-hits" }
            print(line)
            if !layer.transform.isIdentity { print("\(indent)  transform \(layer.transform)") }
            if !layer.sublayerTransform.isIdentity { print("\(indent)  sublayerTransform \(layer.sublayerTransform)") }
            if let normal = viewNormal(of: layer) {
                print("\(indent)  normal (view space) (\(fmt(normal.x, 4)), \(fmt(normal.y, 4)), \(fmt(normal.z, 4)))")
            }
            if matrices {
                print("\(indent)  to superlayer \(layer.transformToSuperlayer)")
                if let maps = layer.planeMaps(to: s.root) {
                    let h = maps.reduce(Homography.identity) { $0.concatenating($1) }
                    print("\(indent)  plane map to canvas \(h.matrix.elements.map { fmt($0, 4) }.joined(separator: " "))")
                }
            }
            stack.append(contentsOf: layer.sublayers.reversed().map { ($0, depth + 1) })
        }
    }

    /// The +z axis of a layer placed in 3D, carried into its context's space (with the camera's rotation, without
    /// its perspective) by the inverse transpose of the linear part of its matrix.
    private func viewNormal(of layer: Layer) -> Vector3? {
        guard layer.face === layer, let s = layer.superlayer,
              !s.isFlattening || !layer.transformToSuperlayer.isAffine else { return nil }
        var context: Layer? = s
        while let c = context, !c.isFlattening { context = c.superlayer }
        guard let context, let member = context.sublayerScene().first(where: { $0.layer === layer }),
              let inv = context.faceTransforms(for: member).view.linearPart.inverted() else { return nil }
        return inv.transposed.apply(.unitZ).normalized()
    }
}
