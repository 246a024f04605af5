import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

/// A 4×4 matrix for row vectors, written out by hand from DESIGN §1 so the tests' expected positions do not
/// come from the library under test.
struct HandMatrix {
    var m: [[Double]]

    static let identity = HandMatrix(m: (0..<4).map { r in (0..<4).map { $0 == r ? 1 : 0 } })

    static func translation(_ x: Double, _ y: Double, _ z: Double) -> HandMatrix {
        var t = identity; t.m[3] = [x, y, z, 1]; return t
    }
    /// About y: m11 = c, m13 = −s, m31 = s, m33 = c.
    static func rotationY(_ a: Double) -> HandMatrix {
        var t = identity; t.m[0][0] = cos(a); t.m[0][2] = -sin(a); t.m[2][0] = sin(a); t.m[2][2] = cos(a); return t
    }
    /// About x: m22 = c, m23 = s, m32 = −s, m33 = c.
    static func rotationX(_ a: Double) -> HandMatrix {
        var t = identity; t.m[1][1] = cos(a); t.m[1][2] = sin(a); t.m[2][1] = -sin(a); t.m[2][2] = cos(a); return t
    }
    static func perspective(_ d: Double) -> HandMatrix { var t = identity; t.m[2][3] = -1 / d; return t }

    /// `self` applied first, then `b` (the product self · b).
    func then(_ b: HandMatrix) -> HandMatrix {
        HandMatrix(m: (0..<4).map { r in (0..<4).map { c in (0..<4).reduce(0) { $0 + m[r][$1] * b.m[$1][c] } } })
    }

    /// (x, y, z, 1) · M, divided.
    func project(_ x: Double, _ y: Double, _ z: Double = 0) -> (x: Double, y: Double) {
        let v = [x, y, z, 1]
        let o = (0..<4).map { c in (0..<4).reduce(0) { $0 + v[$1] * m[$1][c] } }
        return (o[0] / o[3], o[1] / o[3])
    }

    var transform: Transform3D {
        Transform3D(m11: m[0][0], m12: m[0][1], m13: m[0][2], m14: m[0][3],
                    m21: m[1][0], m22: m[1][1], m23: m[1][2], m24: m[1][3],
                    m31: m[2][0], m32: m[2][1], m33: m[2][2], m34: m[2][3],
                    m41: m[3][0], m42: m[3][1], m43: m[3][2], m44: m[3][3])
    }
}

enum Probe {
    static let lookFolder = URL(fileURLWithPath: "/tmp/render-look")

    /// The colour at point (x, y) of the canvas (points), from the pixel containing it.
    static func color(_ image: RenderedImage, _ x: Double, _ y: Double) -> Color? {
        let s = image.options.scale
        return image.pixel(x: Int((x * s).rounded(.down)), y: Int((y * s).rounded(.down)))
    }

    static func close(_ a: Color?, _ b: Color, tolerance: Double = 0.02) -> Bool {
        guard let a else { return false }
        return abs(a.red - b.red) <= tolerance && abs(a.green - b.green) <= tolerance
            && abs(a.blue - b.blue) <= tolerance && abs(a.alpha - b.alpha) <= tolerance
    }

    /// Checks the colour at a point; on failure saves the render for a look and says where.
    static func expect(_ image: RenderedImage, _ x: Double, _ y: Double, _ expected: Color, tolerance: Double = 0.02,
                       _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = color(image, x, y)
        if !close(actual, expected, tolerance: tolerance) {
            let name = "failed-\(label.filter { $0.isLetter || $0.isNumber }).png"
            try? FileManager.default.createDirectory(at: lookFolder, withIntermediateDirectories: true)
            try? image.write(to: lookFolder.appendingPathComponent(name))
            Issue.record("\(label) at (\(x), \(y)): expected \(expected), got \(actual.map(\.description) ?? "nil"); saved \(name)",
                         sourceLocation: sourceLocation)
        }
    }

    /// Writes a render into /tmp/render-look for a human look.
    static func save(_ image: RenderedImage, _ name: String) throws {
        try FileManager.default.createDirectory(at: lookFolder, withIntermediateDirectories: true)
        try image.write(to: lookFolder.appendingPathComponent(name))
    }

    /// The distance from p to the nearest edge of the polygon.
    static func edgeDistance(_ p: (x: Double, y: Double), _ poly: [(x: Double, y: Double)]) -> Double {
        var best = Double.infinity
        for i in poly.indices {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let dx = b.x - a.x, dy = b.y - a.y
            let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
            best = min(best, hypot(p.x - a.x - t * dx, p.y - a.y - t * dy))
        }
        return best
    }

    /// Whether p lies inside the convex polygon (either winding).
    static func inside(_ p: (x: Double, y: Double), _ poly: [(x: Double, y: Double)]) -> Bool {
        var sign = 0.0
        for i in poly.indices {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let c = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
            if c != 0 { if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false } }
        }
        return true
    }
}

/// The book's cube (TestSupport's `BookCube`) as the render tests place it — its container at (100, 100),
/// centred on a 600×600 canvas — and where its faces land there, derived by hand with `HandMatrix`
/// independently of the library's chain and of the fixture's own code.
enum HandCube {
    static let colors: [Color] = [.red, .green, .blue, .yellow, .cyan, .magenta]
    static let origin = CGPoint(x: 100, y: 100)

    /// The cube on the canvas, faces coloured `colors`; `inSolid`: the faces live in a TransformLayer.
    static func make(inSolid: Bool, isDoubleSided: Bool = true, lighting: (any FaceShader)? = nil) throws -> BookCube {
        try BookCube(inSolid: inSolid, origin: origin, faceColors: colors, isDoubleSided: isDoubleSided,
                     lighting: lighting)
    }

    /// The book's face transforms by hand: a rotation applied first, then the translation.
    static let handFaces: [HandMatrix] = [
        .translation(0, 0, 100),
        HandMatrix.rotationY(.pi / 2).then(.translation(100, 0, 0)),
        HandMatrix.rotationX(.pi / 2).then(.translation(0, -100, 0)),
        HandMatrix.rotationX(-.pi / 2).then(.translation(0, 100, 0)),
        HandMatrix.rotationY(-.pi / 2).then(.translation(-100, 0, 0)),
        HandMatrix.rotationY(.pi).then(.translation(0, 0, -100)),
    ]

    /// Face-local point (x, y in 0…200) → canvas. Face: T(−100,−100)·F_i·T(200,200) [position], container
    /// sublayer space: T(−200,−200)·Ry(−π/4)·Rx(−π/4)·P·T(200,200) (Rotate prepends, so the last Rotate in
    /// the code — about y — applies first), container → canvas: T(−200,−200)·T(300,300).
    static func handMap(face i: Int) -> HandMatrix {
        HandMatrix.translation(-100, -100, 0).then(handFaces[i]).then(.translation(200, 200, 0))
            .then(.translation(-200, -200, 0)).then(.rotationY(-.pi / 4)).then(.rotationX(-.pi / 4))
            .then(.perspective(500)).then(.translation(200, 200, 0)).then(.translation(100, 100, 0))
    }

    static func center(face i: Int) -> (x: Double, y: Double) { handMap(face: i).project(100, 100) }
    static func corners(face i: Int) -> [(x: Double, y: Double)] {
        [(0, 0), (200, 0), (200, 200), (0, 200)].map { handMap(face: i).project($0.0, $0.1) }
    }
}
