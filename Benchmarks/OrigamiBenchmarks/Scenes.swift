import Foundation
import Origami
import Fixtures

/// The scenes the benchmarks render and query, each also given as plain numbers for the hand-written baselines.
enum Scenes {
    /// The book's face colours (Models/cube-button-interception.yaml), 1 front … 6 back.
    static let faceColors: [Color] = ["#e74c3c", "#2ecc71", "#3498db", "#f1c40f", "#9b59b6", "#e67e22"]
        .map { Color(parsing: $0) ?? .gray }
    static let background = Color(white: 0.87)

    /// The canvas every render benchmark uses: 1024×1024 pixels over the 400×400-point container.
    static let canvas = CGSize(width: 400, height: 400)
    static let pixels = 1024
    static let scale = Double(pixels) / 400

    /// The book's cube (TestSupport's `BookCube`: a 400×400 container holding six 200×200 faces, added 1…6) as
    /// plain numbers.
    static func handCube() -> (container: HandLayer, faces: [HandLayer]) {
        let container = HandLayer(width: 400, height: 400, positionX: 200, positionY: 200, transform: .identity,
                                  sublayerTransform: m4(BookCube.camera))
        let faces = BookCube.faceTransforms().map {
            HandLayer(width: 200, height: 200, positionX: 200, positionY: 200, transform: m4($0))
        }
        return (container, faces)
    }

    static func m4(_ t: Transform3D) -> M4 {
        M4(a: (t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
               t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44))
    }

    /// `count` cubes in a lattice under the book's camera (`BookCube.lattice`), in the book's face colours.
    static func lattice(cubes count: Int, lighting: (any FaceShader)? = Lighting.book) throws -> Layer {
        try BookCube.lattice(cubes: count, faceColors: faceColors, lighting: lighting)
    }

    /// `count` coloured 175-point squares about the centre of a 400-point container with perspective 800, each
    /// turned about its own random axis and placed at random within 90 points of the centre: most pairs cross, so
    /// the BSP cuts them into many fragments (issue 20's crossing planes, rendered at 800×800).
    static func crossingPlanes(_ count: Int, seed: UInt64 = 20) throws -> Layer {
        let container = Layer()
        container.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        container.position = CGPoint(x: 200, y: 200)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 800
        container.sublayerTransform = perspective
        var rng = SplitMix(seed)
        for i in 0..<count {
            let plane = Layer()
            plane.bounds = CGRect(x: 0, y: 0, width: 175, height: 175)
            plane.position = CGPoint(x: 200 + rng.next(-90, 90), y: 200 + rng.next(-90, 90))
            plane.zPosition = rng.next(-90, 90)
            plane.transform = Transform3D(rotationAngle: rng.next(0, .pi), x: rng.next(-1, 1), y: rng.next(-1, 1),
                                          z: rng.next(-0.3, 0.3))
            let hue = Double(i) / Double(max(1, count))
            plane.backgroundColor = Color(red: 0.5 + 0.45 * cos(2 * .pi * hue), green: 0.5 + 0.45 * cos(2 * .pi * (hue - 1.0 / 3)),
                                          blue: 0.5 + 0.45 * cos(2 * .pi * (hue - 2.0 / 3)))
            try container.addSublayer(plane)
        }
        return container
    }

    /// A 256×256 opaque test card: smooth gradients with a grid, so bilinear sampling has real work to do.
    static func testImage(_ seed: Int) -> Bitmap {
        let n = 256
        var pixels = [UInt32](repeating: 0, count: n * n)
        for y in 0..<n {
            for x in 0..<n {
                let grid = (x % 32 < 2 || y % 32 < 2) ? 0 : 1
                let r = UInt32((x + seed * 40) & 0xFF) * UInt32(grid)
                let g = UInt32((y * 3 / 4 + seed * 20) & 0xFF) * UInt32(grid)
                let b = UInt32(((x ^ y) + seed * 60) & 0xFF)
                pixels[y * n + x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return Bitmap(width: n, height: n, pixels: pixels) ?? Bitmap(width: 1, height: 1, color: .gray)!
    }

    /// `count` random quads (60×60, random orientation) inside a 120-point box: most of them intersect.
    static func randomQuads(_ count: Int, seed: UInt64 = 42) -> [[Vector3]] {
        var rng = SplitMix(seed)
        return (0..<count).map { _ in
            let c = Vector3(rng.next(-60, 60), rng.next(-60, 60), rng.next(-60, 60))
            let axis = Vector3(rng.next(-1, 1), rng.next(-1, 1), rng.next(-1, 1))
            let t = Transform3D(rotationAngle: rng.next(0, 2 * .pi), x: axis.x, y: axis.y, z: axis.z)
            return [(-30.0, -30.0), (30, -30), (30, 30), (-30, 30)].map { (x, y) in
                let p = t.apply(Vector4(x: x, y: y, z: 0, w: 1))
                return Vector3(c.x + p.x, c.y + p.y, c.z + p.z)
            }
        }
    }
}
