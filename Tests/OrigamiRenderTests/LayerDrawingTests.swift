import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

@Suite("Layer drawing: group opacity, masks, borders, text, images")
struct LayerDrawingTests {
    @Test("opacity is group opacity: overlapping sublayers of a 50 % layer do not show each other")
    func groupOpacity() throws {
        let group = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        group.opacity = 0.5
        let red = Layer(frame: CGRect(x: 10, y: 10, width: 50, height: 50)); red.backgroundColor = .red
        let blue = Layer(frame: CGRect(x: 30, y: 30, width: 50, height: 50)); blue.backgroundColor = .blue
        try group.addSublayer(red); try group.addSublayer(blue)
        let image = try Renderer.render(group, size: CGSize(width: 100, height: 100), options: RenderOptions(background: .white))
        // Overlap: blue (opaque inside the group) at 50 % over white = (0.5, 0.5, 1); red must not show.
        Probe.expect(image, 45, 45, Color(red: 0.5, green: 0.5, blue: 1), "overlap")
        Probe.expect(image, 15, 15, Color(red: 1, green: 0.5, blue: 0.5), "red alone")
    }

    @Test("masksToBounds clips sublayers to the rounded bounds")
    func masksToBoundsWithCornerRadius() throws {
        let parent = Layer(frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        parent.masksToBounds = true
        parent.cornerRadius = 30
        let child = Layer(frame: CGRect(x: -20, y: -20, width: 140, height: 140)); child.backgroundColor = .red
        try parent.addSublayer(child)
        let image = try Renderer.render(parent, size: CGSize(width: 200, height: 200))
        Probe.expect(image, 100, 100, .red, "centre")
        // (53, 53) is 3 pt inside the corner of the bounds; the arc's centre is (80, 80), radius 30:
        // distance √2·27 ≈ 38.2 > 30, so the corner is cut away.
        Probe.expect(image, 53, 53, .clear, "rounded corner")
        Probe.expect(image, 40, 100, .clear, "outside the bounds")
        Probe.expect(image, 52, 100, .red, "inside along the straight edge")
    }

    @Test("the border is drawn on top of the sublayers, inside the bounds")
    func borderOnTop() throws {
        let parent = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        parent.borderWidth = 10; parent.borderColor = .black; parent.backgroundColor = .white
        let child = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100)); child.backgroundColor = .red
        try parent.addSublayer(child)
        let image = try Renderer.render(parent, size: CGSize(width: 100, height: 100))
        Probe.expect(image, 5, 50, .black, "border over the child")
        Probe.expect(image, 95, 95, .black, "border corner")
        Probe.expect(image, 15, 50, .red, "child inside the border")
    }

    // MARK: Text and image on a tilted face

    /// A 200×200 face rotated 40° about y at the centre of a 400×400 container with perspective 500.
    static let tilt = 40.0 * .pi / 180
    static func tiltedFace() -> (container: Layer, face: Layer) {
        let c = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        var p = Transform3D.identity; p.m34 = -1.0 / 500
        c.sublayerTransform = p
        let face = Layer(frame: CGRect(x: 100, y: 100, width: 200, height: 200))
        face.transform = Transform3D(rotationAngle: tilt, x: 0, y: 1, z: 0)
        return (c, face)
    }
    /// Face-local → canvas: T(−100,−100)·Ry(40°)·T(200,200)·[T(−200,−200)·P·T(200,200)].
    static let faceMap = HandMatrix.translation(-100, -100, 0).then(.rotationY(tilt)).then(.translation(200, 200, 0))
        .then(.translation(-200, -200, 0)).then(.perspective(500)).then(.translation(200, 200, 0))

    @Test("a text label on a tilted face lands where the geometry puts it")
    func textOnTiltedFace() throws {
        let (container, face) = Self.tiltedFace()
        face.backgroundColor = .white
        let label = TextLayer()
        label.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        label.string = "\u{2588}"  // FULL BLOCK: a solid glyph around the centre
        label.fontSize = 100
        label.foregroundColor = .black
        label.alignment = .center
        label.isVerticallyCentered = true
        try face.addSublayer(label)
        try container.addSublayer(face)
        let image = try Renderer.render(container, size: CGSize(width: 400, height: 400), options: RenderOptions(background: .gray))
        let centre = Self.faceMap.project(100, 100)
        Probe.expect(image, centre.x, centre.y, .black, "glyph at the face's projected centre")
        // The block is narrower than the face: 10 pt from the left edge is still the face's white.
        let side = Self.faceMap.project(10, 100)
        Probe.expect(image, side.x, side.y, .white, "face beside the glyph")
        try Probe.save(image, "text-on-tilted-face.png")
    }

    /// A smooth test picture (premultiplied, opaque) so bilinear sampling is meaningful.
    static func testImage(width: Int = 64, height: Int = 48) -> Bitmap? {
        var pixels: [UInt32] = []
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32(x * 255 / (width - 1)), g = UInt32(y * 255 / (height - 1))
                let b = UInt32((x / 8 + y / 8) % 2 == 0 ? 230 : 40)
                pixels.append(0xFF00_0000 | r << 16 | g << 8 | b)
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The inverse of a 3×3 matrix by cofactors (the reference sampler's own, not the library's).
    static func inverse3(_ m: [[Double]]) -> [[Double]] {
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        func c(_ r: Int, _ k: Int) -> Double {
            let rows = [0, 1, 2].filter { $0 != r }, cols = [0, 1, 2].filter { $0 != k }
            let minor = m[rows[0]][cols[0]] * m[rows[1]][cols[1]] - m[rows[0]][cols[1]] * m[rows[1]][cols[0]]
            return ((r + k) % 2 == 0 ? 1 : -1) * minor
        }
        return (0..<3).map { r in (0..<3).map { k in c(k, r) / det } }
    }

    @Test("an image on a tilted face matches an exact projective bilinear reference (PSNR ≥ 45 dB)")
    func imageOnTiltedFace() throws {
        let (container, face) = Self.tiltedFace()
        let bitmap = try #require(Self.testImage())
        face.contents = bitmap
        try container.addSublayer(face)
        let image = try Renderer.render(container, size: CGSize(width: 400, height: 400))
        try Probe.save(image, "image-on-tilted-face.png")

        // Reference: texel (u, v) → face (u·200/64, v·200/48) → canvas through the hand matrix (z = 0 row and
        // the z column dropped); inverted per pixel centre, bilinear between texel centres, clamped at edges.
        let f = Self.faceMap.m
        let h = [[f[0][0], f[0][1], f[0][3]], [f[1][0], f[1][1], f[1][3]], [f[3][0], f[3][1], f[3][3]]]
        let sx = 200.0 / 64, sy = 200.0 / 48
        let texToCanvas = [[sx * h[0][0], sx * h[0][1], sx * h[0][2]], [sy * h[1][0], sy * h[1][1], sy * h[1][2]], h[2]]
        let inv = Self.inverse3(texToCanvas)
        let quad = [(0.0, 0.0), (200, 0), (200, 200), (0, 200)].map { Self.faceMap.project($0.0, $0.1) }
        var squaredError = 0.0, count = 0, outside = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = (x: Double(x) + 0.5, y: Double(y) + 0.5)
                let isInside = Probe.inside(p, quad), edge = Probe.edgeDistance(p, quad)
                if !isInside && edge > 1.5 {
                    if let c = image.pixel(x: x, y: y), c.alpha > 0 { outside += 1 }
                    continue
                }
                guard isInside, edge > 1.5, let actual = image.rgba8(x: x, y: y) else { continue }
                let w = p.x * inv[0][2] + p.y * inv[1][2] + inv[2][2]
                let u = (p.x * inv[0][0] + p.y * inv[1][0] + inv[2][0]) / w - 0.5
                let v = (p.x * inv[0][1] + p.y * inv[1][1] + inv[2][1]) / w - 0.5
                let u0 = u.rounded(.down), v0 = v.rounded(.down)
                func texel(_ i: Double, _ j: Double) -> UInt32 {
                    bitmap[Int(min(63, max(0, i))), Int(min(47, max(0, j)))]
                }
                for (shift, value) in [(16, actual.r), (8, actual.g), (0, actual.b)] as [(UInt32, UInt8)] {
                    func ch(_ t: UInt32) -> Double { Double((t >> shift) & 0xFF) }
                    let top = ch(texel(u0, v0)) * (1 - (u - u0)) + ch(texel(u0 + 1, v0)) * (u - u0)
                    let bottom = ch(texel(u0, v0 + 1)) * (1 - (u - u0)) + ch(texel(u0 + 1, v0 + 1)) * (u - u0)
                    let expected = top * (1 - (v - v0)) + bottom * (v - v0)
                    squaredError += (expected - Double(value)) * (expected - Double(value))
                    count += 1
                }
            }
        }
        try #require(count > 10_000)
        let mse = squaredError / Double(count)
        let psnr = mse == 0 ? Double.infinity : 10 * log10(255 * 255 / mse)
        #expect(psnr >= 45, "PSNR \(psnr) dB")
        #expect(outside == 0, "\(outside) pixels painted outside the face")
        // The image's centre lands on the face's projected centre: texel (31.5, 23.5) is mid-grey-ish.
        let centre = Self.faceMap.project(100, 100)
        let c = try #require(Probe.color(image, centre.x, centre.y))
        expectApprox(c.red, 0.5, tolerance: 0.03)
        expectApprox(c.green, 0.5, tolerance: 0.03)
    }

    @Test("contentsGravity places the image", arguments: [ContentsGravity.resize, .resizeAspect, .resizeAspectFill, .center])
    func gravity(_ gravity: ContentsGravity) throws {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        layer.contents = Bitmap(width: 20, height: 20, color: .red)
        layer.contentsGravity = gravity
        let image = try Renderer.render(layer, size: CGSize(width: 100, height: 50))
        // Hand placement in the 100×50 bounds: resize fills; aspect 50×50 centred (x 25…75);
        // aspect fill 100×100 centred (overflows vertically; no mask); center 20×20 at (40, 15).
        switch gravity {
        case .resize: Probe.expect(image, 5, 5, .red, "resize corner")
        case .resizeAspect:
            Probe.expect(image, 20, 25, .clear, "aspect: left margin"); Probe.expect(image, 30, 25, .red, "aspect inside")
        case .resizeAspectFill: Probe.expect(image, 2, 2, .red, "aspect fill corner")
        default:
            Probe.expect(image, 35, 25, .clear, "center: left of image"); Probe.expect(image, 45, 20, .red, "center inside")
            Probe.expect(image, 50, 10, .clear, "center: above image")
        }
    }
}
