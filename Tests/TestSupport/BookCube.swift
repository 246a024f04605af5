import Foundation
import Origami

/// The book's cube (ch. 5, "Solid objects"), built the way its listing does: a container whose
/// `sublayerTransform` is `m34 = −1/500`, then `Rotate(−π/4 about x)`, then `Rotate(−π/4 about y)`, and six
/// 200×200 faces centred in the container, each with `t = MakeTranslation(…); t = Rotate(t, …)`, added in the
/// order 1…6 — so faces 4, 5, 6 are later siblings than face 3.
///
/// With `inSolid`, the faces hang on a `TransformLayer` covering the container instead (DESIGN §4's solid).
public struct BookCube {
    /// The container: 400×400 at (0, 0) of its (virtual) superlayer, so its superlayer space and its bounds
    /// space coincide and a point means the same in both.
    public let container: Layer
    /// The transform layer holding the faces, when built `inSolid`.
    public let solid: TransformLayer?
    /// `faces[0]` is the book's face 1 (front), …, `faces[5]` face 6 (back).
    public let faces: [Layer]

    public static let containerSize = 400.0
    public static let faceSize = 200.0

    /// The container's sublayerTransform, exactly as the book writes it.
    public static var perspective: Transform3D {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
        perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
        return perspective
    }

    /// The six face transforms in the book's code order.
    public static var faceTransforms: [Transform3D] {
        var result: [Transform3D] = []
        var transform = CATransform3DMakeTranslation(0, 0, 100)
        result.append(transform)
        transform = CATransform3DMakeTranslation(100, 0, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 0, 1, 0)
        result.append(transform)
        transform = CATransform3DMakeTranslation(0, -100, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 1, 0, 0)
        result.append(transform)
        transform = CATransform3DMakeTranslation(0, 100, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 1, 0, 0)
        result.append(transform)
        transform = CATransform3DMakeTranslation(-100, 0, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 0, 1, 0)
        result.append(transform)
        transform = CATransform3DMakeTranslation(0, 0, -100)
        transform = CATransform3DRotate(transform, .pi, 0, 1, 0)
        result.append(transform)
        return result
    }

    public init(inSolid: Bool = false) throws {
        let size = BookCube.containerSize
        container = Layer(name: "container", frame: CGRect(x: 0, y: 0, width: size, height: size))
        container.sublayerTransform = BookCube.perspective
        var holder = container
        if inSolid {
            let tl = TransformLayer()
            tl.name = "cube"
            tl.frame = container.bounds
            try container.addSublayer(tl)
            holder = tl
            solid = tl
        } else {
            solid = nil
        }
        var faces: [Layer] = []
        for (index, transform) in BookCube.faceTransforms.enumerated() {
            // The book's addFace:withTransform: — centre the face in the container, then set its transform.
            let face = Layer(name: "face \(index + 1)")
            face.bounds = CGRect(x: 0, y: 0, width: BookCube.faceSize, height: BookCube.faceSize)
            face.position = CGPoint(x: size / 2, y: size / 2)
            face.transform = transform
            try holder.addSublayer(face)
            faces.append(face)
        }
        self.faces = faces
    }

    /// Face `number` (1…6), as the book numbers them.
    public func face(_ number: Int) -> Layer { faces[number - 1] }
}
