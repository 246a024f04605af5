import Foundation
import Origami

/// The book's cube (ch. 5, "Solid objects"), built the way its listing does: a 400×400 container whose
/// `sublayerTransform` is `m34 = −1/500`, then `Rotate(−π/4 about x)`, then `Rotate(−π/4 about y)`, and six
/// 200×200 faces centred in the container, each with `t = MakeTranslation(…); t = Rotate(t, …)`, added in the
/// order 1…6 — so faces 4, 5, 6 are later siblings than face 3.
///
/// The one home of this scene for the tests and the benchmarks. Expected values about it (where a face shows,
/// which face a point hits) are derived independently — `BookCubeProbes`, the render tests' `HandCube`, the
/// benchmarks' `HandLayer` — never read back from here.
public struct BookCube {
    /// The container: 400×400 at `origin` of its (virtual) superlayer. At the default origin (0, 0) its
    /// superlayer space and its bounds space coincide and a point means the same in both.
    public let container: Layer
    /// The transform layer holding the faces, when built `inSolid`.
    public let solid: TransformLayer?
    /// `faces[0]` is the book's face 1 (front), …, `faces[5]` face 6 (back); named "face 1" … "face 6".
    public let faces: [Layer]

    public static let containerSize = 400.0
    public static let faceSize = 200.0

    /// The container's sublayerTransform (the camera), exactly as the book writes it.
    public static var camera: Transform3D {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
        perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
        return perspective
    }

    /// The book's six face transforms for a cube of side `size`, in its code order 1 front … 6 back.
    public static func faceTransforms(size: Double = faceSize) -> [Transform3D] {
        let h = size / 2
        var result: [Transform3D] = []
        var transform = CATransform3DMakeTranslation(0, 0, h)
        result.append(transform)
        transform = CATransform3DMakeTranslation(h, 0, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 0, 1, 0)
        result.append(transform)
        transform = CATransform3DMakeTranslation(0, -h, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 1, 0, 0)
        result.append(transform)
        transform = CATransform3DMakeTranslation(0, h, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 1, 0, 0)
        result.append(transform)
        transform = CATransform3DMakeTranslation(-h, 0, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 0, 1, 0)
        result.append(transform)
        transform = CATransform3DMakeTranslation(0, 0, -h)
        transform = CATransform3DRotate(transform, .pi, 0, 1, 0)
        result.append(transform)
        return result
    }

    /// An empty book container (400×400 at `origin`) with `camera` as its sublayerTransform.
    public static func container(origin: CGPoint = .zero, camera: Transform3D = BookCube.camera) -> Layer {
        let size = CGSize(width: containerSize, height: containerSize)
        let container = Layer(name: "container", frame: CGRect(origin: origin, size: size))
        container.sublayerTransform = camera
        return container
    }

    /// `solid` placed at the centre of a book container.
    public static func container(holding solid: Solid, camera: Transform3D = BookCube.camera) throws -> Layer {
        let container = Self.container(camera: camera)
        solid.position = CGPoint(x: containerSize / 2, y: containerSize / 2)
        try container.addSublayer(solid)
        return container
    }

    /// - Parameters:
    ///   - inSolid: the faces hang on a `TransformLayer` named "cube" covering the container (DESIGN §4's
    ///     solid) instead of being the container's own sublayers.
    ///   - origin: where the container sits in its superlayer.
    ///   - faceColors: face `i` (0 front … 5 back) has `faceColors[i % faceColors.count]` as its background; none
    ///     by default.
    ///   - images: face `i` shows `images[i % images.count]` as its contents; none by default.
    ///   - isDoubleSided: every face's `isDoubleSided`.
    ///   - lighting: the container's lighting.
    public init(inSolid: Bool = false, origin: CGPoint = .zero, faceColors: [Color]? = nil, images: [Bitmap]? = nil,
                isDoubleSided: Bool = true, lighting: (any FaceShader)? = nil) throws {
        container = BookCube.container(origin: origin)
        container.lighting = lighting
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
        for (index, transform) in BookCube.faceTransforms().enumerated() {
            // The book's addFace:withTransform: — centre the face in the container, then set its transform.
            let face = Layer(name: "face \(index + 1)")
            face.bounds = CGRect(x: 0, y: 0, width: BookCube.faceSize, height: BookCube.faceSize)
            face.position = CGPoint(x: BookCube.containerSize / 2, y: BookCube.containerSize / 2)
            face.transform = transform
            face.isDoubleSided = isDoubleSided
            if let faceColors { face.backgroundColor = faceColors[index % faceColors.count] }
            if let images { face.contents = images[index % images.count] }
            try holder.addSublayer(face)
            faces.append(face)
        }
        self.faces = faces
    }

    /// Face `number` (1…6), as the book numbers them.
    public func face(_ number: Int) -> Layer { faces[number - 1] }
}

extension BookCube {
    /// `count` cubes in a lattice inside one container with the book's perspective and camera (`container()`),
    /// 260 points across: every face is a member of the container's one 3D context (each cube is a `Solid`, a
    /// transform layer). Cube `i`'s face `k` has `faceColors[(k + i) % faceColors.count]` as its background. The
    /// "1000 lit cubes" benchmark's scene, and the tests' picture of it.
    public static func lattice(cubes count: Int, faceColors: [Color], lighting: (any FaceShader)?) throws -> Layer {
        let container = BookCube.container()
        container.lighting = lighting
        var side = 1
        while side * side * side < count { side += 1 }
        let extent = 260.0, spacing = extent / Double(side)
        for i in 0..<count {
            let (ix, iy, iz) = (i % side, (i / side) % side, i / (side * side))
            let cube = try Solid.cube(size: spacing * 0.55)
            func place(_ k: Int) -> Double { (Double(k) - Double(side - 1) / 2) * spacing }
            cube.position = CGPoint(x: 200 + place(ix), y: 200 + place(iy))
            cube.zPosition = place(iz)
            for (k, face) in cube.faces.enumerated() { face.backgroundColor = faceColors[(k + i) % faceColors.count] }
            try container.addSublayer(cube)
        }
        return container
    }
}
