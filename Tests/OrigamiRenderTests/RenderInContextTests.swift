import Foundation
import Origami
import OrigamiRender
import Testing

/// `render(in:)` / `render(size:)`: Core Animation's `renderInContext:`. Expected places come from the contract
/// GNUstep QuartzCore's `Tests/quartzcore/CALayer/render.m` records against Apple: a point (x, y) of the
/// receiver's bounds lands at (x, y) of the context, whatever its position, transform and zPosition.
@Suite("render(in:): a layer drawn in its own bounds space")
struct RenderInContextTests {
    /// The box of pixels with any alpha, as [minX, minY, maxX, maxY] exclusive of the max; nil when none.
    static func paintedBox(_ image: RenderedImage) -> [Int]? {
        var box: [Int]?
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[y * image.width + x] >> 24 != 0 {
                let b = box ?? [x, y, x + 1, y + 1]
                box = [min(b[0], x), min(b[1], y), max(b[2], x + 1), max(b[3], y + 1)]
            }
        }
        return box
    }

    static func count(_ image: RenderedImage) -> Int {
        image.pixels.reduce(0) { $0 + ($1 >> 24 != 0 ? 1 : 0) }
    }

    @Test("Apple's measured cases: a frame lands at the origin; a bounds origin moves the drawing, a position and a transform do not")
    func applesMeasuredCases() throws {
        let framed = Layer(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        framed.backgroundColor = .red
        let a = try framed.render(size: CGSize(width: 100, height: 100))
        #expect(Self.paintedBox(a) == [0, 0, 30, 40])
        #expect(Self.count(a) == 30 * 40)

        let offset = Layer()
        offset.bounds = CGRect(x: 10, y: 10, width: 20, height: 20)
        offset.position = CGPoint(x: 50, y: 50)
        offset.backgroundColor = .red
        let b = try offset.render(size: CGSize(width: 100, height: 100))
        #expect(Self.paintedBox(b) == [10, 10, 30, 30])
        #expect(Self.count(b) == 20 * 20)

        let moved = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        moved.backgroundColor = .red
        moved.transform = Transform3D(translationX: 30, y: 0, z: 0)
        let c = try moved.render(size: CGSize(width: 100, height: 100))
        #expect(Self.paintedBox(c) == [0, 0, 20, 20])
    }

    @Test("A receiver with a position, a bounds origin, a rotation and a zPosition: pixels land in its bounds coordinates")
    func receiverLocalCoordinates() throws {
        // Bounds (10, 20, 60, 40): the background covers context points x 10…70, y 20…60. Rotated by π/2 about
        // its centre (40, 40) it would cover x 20…60, y 10…70; placed by its position it would be off the canvas;
        // shifted by −bounds.origin it would cover x 0…60, y 0…40. The probes tell these apart.
        let receiver = Layer()
        receiver.bounds = CGRect(x: 10, y: 20, width: 60, height: 40)
        receiver.position = CGPoint(x: 300, y: 300)
        receiver.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        receiver.zPosition = 50
        receiver.backgroundColor = .red
        // At the top-left of the receiver's bounds: context x 10…30, y 20…30.
        let child = Layer(frame: CGRect(x: 10, y: 20, width: 20, height: 10))
        child.backgroundColor = .blue
        try receiver.addSublayer(child)

        let image = try receiver.render(size: CGSize(width: 100, height: 80))
        #expect(Self.paintedBox(image) == [10, 20, 70, 60])
        Probe.expect(image, 15, 25, .blue, "child at the bounds origin")
        Probe.expect(image, 35, 25, .red, "background right of the child")
        Probe.expect(image, 65, 55, .red, "background near the far corner")
        Probe.expect(image, 5, 5, .clear, "left of and above the bounds")
        Probe.expect(image, 40, 65, .clear, "below the bounds, where the rotation would reach")
        Probe.expect(image, 75, 40, .clear, "right of the bounds")

        // The receiver itself is unchanged, and the compositor still places it by its position.
        #expect(receiver.position == CGPoint(x: 300, y: 300))
        let composited = try Renderer.render(receiver, size: CGSize(width: 100, height: 80))
        #expect(Self.count(composited) == 0)
    }

    @Test("At a scale of 2 every point is 2×2 pixels")
    func scaled() throws {
        let l = Layer()
        l.bounds = CGRect(x: 5, y: 5, width: 10, height: 10)
        l.position = CGPoint(x: -100, y: 40)
        l.backgroundColor = .green
        let image = try l.render(size: CGSize(width: 20, height: 20), options: RenderOptions(scale: 2))
        #expect(image.width == 40 && image.height == 40)
        #expect(Self.paintedBox(image) == [10, 10, 30, 30])
    }

    @Test("Hidden → nothing; opacity 0.5 → the same area, none of it at full strength")
    func hiddenAndOpacity() throws {
        let hidden = Layer(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        hidden.backgroundColor = .red
        hidden.isHidden = true
        #expect(Self.count(try hidden.render(size: CGSize(width: 100, height: 100))) == 0)

        let half = Layer(frame: CGRect(x: 10, y: 20, width: 30, height: 40))
        half.backgroundColor = .red
        half.opacity = 0.5
        let image = try half.render(size: CGSize(width: 100, height: 100))
        #expect(Self.count(image) == 30 * 40)
        #expect(image.pixels.allSatisfy { $0 >> 24 < 255 })
        Probe.expect(image, 15, 15, Color(red: 1, green: 0, blue: 0, alpha: 0.5), "half-transparent red")
    }

    @Test("A TransformLayer receiver is drawn as Apple's renderInContext: draws it: background, border and masksToBounds apply")
    func transformLayerReceiver() throws {
        // GNUstep's fork records, measured against Apple: "a transform layer paints its background over its whole
        // bounds", its sublayers land where a plain layer's would, and masksToBounds cuts them down.
        func make(_ root: Layer) throws -> Layer {
            root.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
            root.position = CGPoint(x: 25, y: 25)
            root.backgroundColor = .green
            root.borderWidth = 2
            root.borderColor = .yellow
            let big = Layer(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
            big.backgroundColor = .red
            try root.addSublayer(big)
            return root
        }
        let t = try make(TransformLayer())
        let plain = try make(Layer())
        let image = try t.render(size: CGSize(width: 100, height: 100))
        let plainImage = try plain.render(size: CGSize(width: 100, height: 100))
        #expect(image.pixels.elementsEqual(plainImage.pixels), "the same pixels as a plain layer")
        Probe.expect(image, 10, 10, .red, "the sublayer")
        Probe.expect(image, 40, 40, .green, "the transform layer's own background")
        Probe.expect(image, 49, 25, .yellow, "the transform layer's own border, on top")
        #expect(Self.paintedBox(image) == [0, 0, 50, 50])

        // The compositor, by contrast, draws a transform layer's sublayers only (DESIGN §3.5).
        let composited = try Renderer.render(t, size: CGSize(width: 100, height: 100))
        Probe.expect(composited, 10, 10, .red, "the sublayer, composited")
        Probe.expect(composited, 40, 40, .clear, "no background, composited")
        Probe.expect(composited, 49, 25, .clear, "no border, composited")

        let clipped = TransformLayer()
        clipped.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        clipped.masksToBounds = true
        let huge = Layer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        huge.backgroundColor = .red
        try clipped.addSublayer(huge)
        let cut = try clipped.render(size: CGSize(width: 100, height: 100))
        #expect(Self.count(cut) == 50 * 50)
    }

    @Test("A sublayer with a 3D transform is drawn through the receiver's sublayerTransform, perspective included")
    func perspectiveSublayer() throws {
        // The receiver's own 3D transform and position are ignored; its sublayerTransform (m34 = −1/500, about its
        // anchor (100, 100)) applies. The sublayer (100×100 at (100, 100), rotated π/3 about y) maps by
        // T(−50,−50)·Ry(π/3)·T(100,100)·T(−100,−100)·P(500)·T(100,100). By hand: its left edge comes toward the
        // viewer (z = +43.3, w = 0.913), top at y ≈ 45.3, x ≈ 72.6; its right edge recedes (z = −43.3,
        // w = 1.087), top at y ≈ 54.0, x ≈ 123.0. Without the perspective both tops would be at y = 50.
        let receiver = Layer()
        receiver.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        receiver.position = CGPoint(x: 900, y: 900)
        receiver.transform = Transform3D(rotationAngle: 1.2, x: 0, y: 1, z: 0)
        var p = Transform3D.identity
        p.m34 = -1.0 / 500
        receiver.sublayerTransform = p
        let face = Layer()
        face.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        face.position = CGPoint(x: 100, y: 100)
        face.transform = Transform3D(rotationAngle: .pi / 3, x: 0, y: 1, z: 0)
        face.backgroundColor = .blue
        try receiver.addSublayer(face)

        let m = HandMatrix.translation(-50, -50, 0).then(.rotationY(.pi / 3)).then(.translation(100, 100, 0))
            .then(.translation(-100, -100, 0)).then(.perspective(500)).then(.translation(100, 100, 0))
        let topLeft = m.project(0, 0), topRight = m.project(100, 0), midLeft = m.project(0, 50), midRight = m.project(100, 50)
        #expect(abs(topLeft.y - 45.26) < 0.05 && abs(topRight.y - 53.99) < 0.05)

        let image = try receiver.render(size: CGSize(width: 200, height: 200))
        Probe.expect(image, midLeft.x + 2, midLeft.y, .blue, "inside the near (left) edge")
        Probe.expect(image, midLeft.x - 2, midLeft.y, .clear, "outside the near edge")
        Probe.expect(image, midRight.x - 2, midRight.y, .blue, "inside the far (right) edge")
        Probe.expect(image, midRight.x + 2, midRight.y, .clear, "outside the far edge")
        Probe.expect(image, topLeft.x + 3, 48, .blue, "the near edge is taller: above y = 50 on the left")
        Probe.expect(image, topRight.x - 3, 51, .clear, "the far edge is shorter: below y = 50 on the right, still empty")
    }

    @Test("render(in:) draws over a caller's bitmap at its scale and keeps what was under it")
    func intoBitmap() throws {
        let l = Layer()
        l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        l.position = CGPoint(x: 500, y: 500)
        l.backgroundColor = .red
        var bitmap = try #require(Bitmap(width: 40, height: 40, color: .green))
        try l.render(in: &bitmap, options: RenderOptions(scale: 2))
        // Premultiplied ARGB: opaque red 0xFFFF0000, opaque green 0xFF00FF00.
        #expect(bitmap[0, 0] == 0xFFFF_0000 && bitmap[19, 19] == 0xFFFF_0000)
        #expect(bitmap[20, 20] == 0xFF00_FF00 && bitmap[20, 0] == 0xFF00_FF00 && bitmap[39, 39] == 0xFF00_FF00)

        // Half-transparent blue over that: each channel is s + d·(1 − αs), αs ≈ 0.5.
        let veil = Layer()
        veil.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        veil.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        try veil.render(in: &bitmap, options: RenderOptions(scale: 2))
        func channels(_ p: UInt32) -> [Int] { [24, 16, 8, 0].map { Int((p >> UInt32($0)) & 0xFF) } }
        let overRed = channels(bitmap[5, 5]), overGreen = channels(bitmap[30, 30])
        #expect(overRed[0] == 255 && abs(overRed[1] - 127) <= 2 && overRed[2] == 0 && abs(overRed[3] - 128) <= 2)
        #expect(overGreen[0] == 255 && overGreen[1] == 0 && abs(overGreen[2] - 127) <= 2 && abs(overGreen[3] - 128) <= 2)
    }

    @Test("render(in:) with a scale that is not positive throws and leaves the bitmap as it was")
    func badScale() throws {
        let l = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        l.backgroundColor = .red
        let original = try #require(Bitmap(width: 8, height: 8, color: .green))
        var bitmap = original
        #expect(throws: RenderError.invalidCanvas("the scale 0.0 must be finite and positive")) {
            try l.render(in: &bitmap, options: RenderOptions(scale: 0))
        }
        #expect(bitmap == original)
    }
}
