import Foundation
import Origami
import OrigamiRender
import OrigamiScene
import Testing
import TestSupport

/// Each seed figure's Model shows the figure's point: the pixels that carry it, with the geometry derived by hand
/// in each test. Probes sit at least a pixel inside an edge, so antialiasing does not decide them.
@Suite("Seed figures: the pixels that carry each figure's point")
struct SeedModelTests {
    static let background: UInt32 = 0xFFEC_F0F1   // "#ecf0f1", most figures' canvas
    static let blue: UInt32 = 0xFF34_98DB         // "#3498db"

    private func render(_ name: String, _ edit: (Scene) -> Void = { _ in }) throws -> (Scene, Bitmap) {
        let scene = try Scene.load(contentsOf: OrigamiCommand.packageRoot.appendingPathComponent("Models/\(name).yaml"))
        edit(scene)
        let image = try Renderer.render(scene.root, size: scene.canvas.size,
                                        options: RenderOptions(scale: scene.canvas.scale, background: scene.canvas.background))
        return (scene, try #require(image.bitmap))
    }

    /// Whether two ARGB pixels agree within `tolerance` levels per channel.
    private func near(_ a: UInt32, _ b: UInt32, _ tolerance: Int = 6) -> Bool {
        [24, 16, 8, 0].allSatisfy { (s: UInt32) in abs(Int((a >> s) & 0xFF) - Int((b >> s) & 0xFF)) <= tolerance }
    }

    private func expectPixel(_ image: Bitmap, _ x: Int, _ y: Int, _ color: UInt32, _ what: String,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        let p = image[x, y]
        #expect(near(p, color), "\(what): pixel (\(x), \(y)) is \(String(p, radix: 16)), expected \(String(color, radix: 16))",
                sourceLocation: sourceLocation)
    }

    /// Fig. 3.2: a 100×100 layer at (150, 150) turned 45°: frame = (150 − 50√2, 150 − 50√2, 100√2, 100√2)
    /// = (79.289, 79.289, 141.421, 141.421). Its corners are outside the turned square (the square's vertices touch
    /// the frame's sides at their middles).
    @Test func frameVersusBounds() throws {
        let (scene, image) = try render("frame-vs-bounds")
        let view = try #require(scene.layer(named: "view"))
        let h = 50 * 2.0.squareRoot()
        expectApprox(Double(view.frame.minX), 150 - h, tolerance: 1e-9)
        expectApprox(Double(view.frame.width), 2 * h, tolerance: 1e-9)
        #expect(view.bounds.size == CGSize(width: 100, height: 100))
        expectPixel(image, 85, 85, Self.background, "the frame's top-left corner, outside the square")
        expectPixel(image, 214, 214, Self.background, "the frame's bottom-right corner, outside the square")
        expectPixel(image, 150, 84, Self.blue, "the square's top vertex reaches the frame's top side")
        expectPixel(image, 84, 150, Self.blue, "the square's left vertex reaches the frame's left side")
        expectPixel(image, 80, 120, 0xFFE7_4C3C, "the frame outline (border 2 inside 79.29…)")
    }

    /// Fig. 3.3: the same position (100, 100) / (280, 100); anchor (0.5, 0.5) → frame (50, 60, 100, 80), anchor (0, 0)
    /// → frame (280, 100, 100, 80): the layer hangs down and right from its position.
    @Test func anchorPointMovesTheFrame() throws {
        let (_, image) = try render("anchor-point-frame")
        expectPixel(image, 52, 62, Self.blue, "centred layer's top-left inside")
        expectPixel(image, 48, 62, Self.background, "left of the centred layer")
        expectPixel(image, 290, 95, Self.background, "above the moved layer, right of its position")
        expectPixel(image, 290, 105, Self.blue, "the moved layer starts at its position's y")
        expectPixel(image, 377, 177, Self.blue, "the moved layer reaches (380, 180)")
        expectPixel(image, 277, 150, Self.background, "nothing left of the position")
    }

    /// Listing 3.1 / fig. 3.6: hands turned about their centre (150, 150). The minute hand (110 long) turned 51°
    /// clockwise points along (sin 51°, −cos 51°) = (0.7771, −0.6293); about its middle, its other half reaches 55
    /// points the other way: 40 points back, (150 − 40·0.7771, 150 + 40·0.6293) = (118.9, 175.2), is hand.
    /// With anchorPoint (0.5, 0.9) (clock-anchor-point) the tail reaches only 11 points back: that pixel is face.
    @Test func handsTurnAboutTheirMiddle() throws {
        let (_, wrong) = try render("clock-wrong-pivot")
        expectPixel(wrong, 118, 175, 0xFF34_495E, "the minute hand's far half, 40 behind the centre")
        // The hour hand (304°) points along (−0.8290, −0.5592); 30 back: (174.9, 166.8).
        expectPixel(wrong, 174, 166, 0xFF2C_3E50, "the hour hand's far half, 30 behind the centre")
        let (_, fixed) = try render("clock-anchor-point")
        expectPixel(fixed, 118, 175, 0xFFEC_F0F1, "the fixed clock: only face there")
        expectPixel(fixed, 174, 166, 0xFFEC_F0F1, "the fixed clock: only face there")
    }

    /// geometryFlipped: container (210, 20, 160, 200) flipped, sublayer frame (20, 20, 120, 40) → y from the bottom:
    /// 20 + 200 − 20 − 40 = 160, so canvas (230…350, 160…200); unflipped (30, 20): (50…170, 40…80). The flipped
    /// sublayer's text is the same picture, not mirrored: the two 120×40 blocks agree pixel for pixel.
    @Test func flippedSublayersFromTheBottomTextUpright() throws {
        let (_, image) = try render("geometry-flipped")
        expectPixel(image, 52, 42, Self.blue, "unflipped first sublayer near the top")
        expectPixel(image, 232, 162, Self.blue, "flipped first sublayer near the bottom")
        expectPixel(image, 232, 42, 0xFFFF_FFFF, "flipped container: nothing at the top")
        var differing = 0
        for y in 0..<40 { for x in 0..<120 where !near(image[50 + x, 40 + y], image[230 + x, 160 + y], 12) { differing += 1 } }
        #expect(differing < 10, "\(differing) pixels of the flipped text differ from the upright one")
    }

    /// Seed 004: bounds.origin (20, 30) makes the point (20, 30) the container's top-left, so the sublayer at
    /// (20, 30) is drawn at the container's corner, canvas (210…270, 20…80); the plain one at (50…110, 50…110).
    @Test func boundsOriginMovesTheSublayers() throws {
        let (scene, image) = try render("bounds-origin")
        #expect(scene.layer(named: "shifted")?.frame == CGRect(x: 210, y: 20, width: 160, height: 160))
        expectPixel(image, 52, 52, Self.blue, "plain sublayer")
        expectPixel(image, 45, 45, 0xFFFF_FFFF, "plain container above-left of it")
        expectPixel(image, 212, 22, Self.blue, "shifted sublayer at the container's corner")
        expectPixel(image, 268, 78, Self.blue, "shifted sublayer's far corner")
        expectPixel(image, 275, 85, 0xFFFF_FFFF, "container beyond it")
    }

    /// Listing 4-2: A (150, 137.5, 100, 25), B (150, 10, 100, 117.5) in theLayer's coordinates (derived in
    /// AutoresizingAndConstraintTests.seedConstraintExample). theLayer is flipped over its 300 height, so B is
    /// drawn at y 300 − 127.5 = 172.5 … 290, below A (137.5 … 162.5).
    @Test func constraintsLayOutTheFigure() throws {
        let (scene, image) = try render("constraints-layout")
        #expect(scene.layer(named: "layerA")?.frame == CGRect(x: 150, y: 137.5, width: 100, height: 25))
        #expect(scene.layer(named: "layerB")?.frame == CGRect(x: 150, y: 10, width: 100, height: 117.5))
        expectPixel(image, 155, 150, 0xFFAE_D6F1, "layerA")
        expectPixel(image, 155, 280, 0xFFF5_CBA7, "layerB, below A")
        expectPixel(image, 155, 60, Self.background, "nothing above A")
    }

    /// Fig. 4-3: the sublayer (−20, −20, 120, 120) of a 140×140 layer with corner radius 30. Unclipped at (40, 50)
    /// it shows at canvas (20, 30); clipped at (240, 50) it stops at the bounds and at the rounded corner: (243, 53)
    /// is 3 in from the corner, √2·27 = 38.2 from the corner circle's centre, more than 30, so outside.
    @Test func masksToBoundsClipsWithTheCorners() throws {
        let (_, image) = try render("masks-to-bounds")
        let orange: UInt32 = 0xFFE6_7E22
        expectPixel(image, 25, 35, orange, "unclipped sublayer beyond its superlayer")
        expectPixel(image, 225, 35, Self.background, "clipped: nothing beyond the bounds")
        expectPixel(image, 243, 53, Self.background, "clipped by the rounded corner")
        expectPixel(image, 270, 80, orange, "clipped sublayer inside the bounds")
    }

    /// Listing 5.2: t = Scale(0.5) then Rotate(30°) then Translate(200, 0), each applied first: the layer is moved
    /// by (200, 0) rotated 30° and halved = (86.60, 50), its centre (190, 150) → (276.60, 200). Local (0, −35) of
    /// the 200-point layer (above the text) halved and turned 30°: (17.5·sin 30°, −17.5·cos 30°) = (8.75, −15.16)
    /// → (285.35, 184.84).
    @Test func transformOrder() throws {
        let (scene, image) = try render("transform-order")
        let view = try #require(scene.layer(named: "layerView"))
        let centre = try #require(scene.root.convert(CGPoint(x: 100, y: 100), from: view))
        expectApprox(Double(centre.x), 190 + 100 * 3.0.squareRoot() / 2, tolerance: 1e-9)
        expectApprox(Double(centre.y), 200, tolerance: 1e-9)
        expectPixel(image, 285, 184, Self.blue, "inside the moved, turned, halved view")
        expectPixel(image, 190, 150, Self.background, "not at the original centre")
        expectPixel(image, 380, 150, Self.background, "not 200 to the right")
    }

    /// Listing 5.3: x' = x − y about the anchor (200, 130) for the 160×160 view: the top row (local y −80) spans
    /// canvas x 200…360, the bottom row (y +80) 40…200; at y = 55 (local −75): 195…355; at y = 205: 45…205.
    @Test func shearSlantsTheView() throws {
        let (_, image) = try render("shear")
        expectPixel(image, 350, 55, Self.blue, "the top is pushed right")
        expectPixel(image, 190, 55, Self.background, "left of the top row")
        expectPixel(image, 50, 205, Self.blue, "the bottom is pushed left")
        expectPixel(image, 210, 205, Self.background, "right of the bottom row")
    }

    /// Listing 5.4: 45° about y without perspective: x scales by cos 45°, so the 200-point view is 141.42 wide
    /// (129.29…270.71) and still 200 high (50…250).
    @Test func rotationWithoutPerspectiveOnlySquashes() throws {
        let (_, image) = try render("rotate-y-no-perspective")
        expectPixel(image, 131, 60, Self.blue, "left edge at 129.29")
        expectPixel(image, 127, 60, Self.background, "left of it")
        expectPixel(image, 269, 60, Self.blue, "right edge at 270.71")
        expectPixel(image, 273, 60, Self.background, "right of it")
        expectPixel(image, 131, 247, Self.blue, "full height on the left")
        expectPixel(image, 269, 247, Self.blue, "full height on the right: no perspective")
    }

    /// Listing 5.5: the same turn with m34 = −1/500. A point (u, v) about the centre goes to x = u·cos 45°,
    /// z = −u·sin 45°, w = 1 − z/500. Left edge (u = −100): w = 0.85858, x = −82.36, y = ±116.47 → canvas
    /// x 117.64, y 33.53…266.47; right edge (u = 100): w = 1.14142, x = 61.95, y = ±87.61 → x 261.95, y 62.39…237.61.
    @Test func perspectiveMakesTheNearEdgeTaller() throws {
        let (_, image) = try render("single-layer-perspective")
        expectPixel(image, 120, 40, Self.blue, "the near left edge reaches above y 40")
        expectPixel(image, 120, 262, Self.blue, "and below y 262")
        expectPixel(image, 259, 58, Self.background, "the far right edge starts below 62")
        expectPixel(image, 259, 70, Self.blue, "the far right edge")
        expectPixel(image, 259, 242, Self.background, "and ends above 238")
    }

    /// Fig. 5.12: turned 180° about y, the view (30…230) is its front mirrored about x = 130: the orange tab at
    /// local 10…50 (canvas 40…80) is seen at 180…220, and every pixel of the view is the unturned view's pixel
    /// mirrored (column i ↔ 259 − i). The doubleSided = NO copy is not drawn at all.
    @Test func backFaceIsMirrored() throws {
        let (_, back) = try render("back-face")
        expectPixel(back, 200, 60, 0xFFE6_7E22, "the tab, seen from behind, top right")
        expectPixel(back, 60, 60, Self.blue, "no tab top left")
        expectPixel(back, 350, 130, Self.background, "the single-sided view is not drawn")
        let (_, front) = try render("back-face") { scene in scene.layer(named: "layerView")?.transform = .identity }
        var differing = 0
        for y in 30..<230 { for x in 30..<230 where !near(back[x, y], front[259 - x, y], 12) { differing += 1 } }
        #expect(differing < 40, "\(differing) pixels of the back differ from the mirrored front")
    }

    /// Listing 5.7: outer +45° and inner −45° about z, both about the same centre (150, 150): they cancel, and the
    /// inner 100×100 view stands upright at (100…200, 100…200) — a 45° diamond would leave its corners white.
    @Test func oppositeZRotationsCancel() throws {
        let (scene, image) = try render("flattening-2d")
        let inner = try #require(scene.layer(named: "innerView"))
        let corner = try #require(scene.root.convert(CGPoint(x: 0, y: 0), from: inner))
        expectApprox(Double(corner.x), 100, tolerance: 1e-9)
        expectApprox(Double(corner.y), 100, tolerance: 1e-9)
        let red: UInt32 = 0xFFE7_4C3C
        expectPixel(image, 102, 102, red, "top-left corner of an upright square")
        expectPixel(image, 197, 197, red, "bottom-right corner")
        expectPixel(image, 97, 150, 0xFFFF_FFFF, "outer view beside it")
    }

    /// Fig. 5.20: head-on, face 1 at z = 100 covers the cube; under m34 = −1/500 it scales by 1/(1 − 100/500) = 1.25:
    /// a 250×250 square about (200, 200), 75…325.
    @Test func cubeHeadOnIsASquare() throws {
        let (_, image) = try render("cube-head-on")
        let grey: UInt32 = 0xFFBD_C3C7
        expectPixel(image, 77, 77, 0xFFFF_FFFF, "inside the top-left corner")
        expectPixel(image, 73, 73, grey, "outside it")
        expectPixel(image, 323, 323, 0xFFFF_FFFF, "inside the bottom-right corner")
        expectPixel(image, 327, 200, grey, "outside the right side")
    }

    /// Seed 002's autoresizing: the panel designed at 300×200 is resized to the defaults 460×260, Δ = (160, 60).
    /// content (10, 40, 280, 110), width and height sizable → (10, 40, 440, 170): canvas (30…470, 60…230), its
    /// margins to the panel's right (480) and to the button row kept. button (210, 160, 80, 30) with both minimum
    /// margins flexible → (370, 220, 80, 30): canvas (390…470, 240…270), 10 from the panel's corner as designed.
    @Test func autoresizingKeepsTheMargins() throws {
        let (scene, image) = try render("autoresizing")
        #expect(scene.layer(named: "content")?.frame == CGRect(x: 10, y: 40, width: 440, height: 170))
        #expect(scene.layer(named: "button")?.frame == CGRect(x: 370, y: 220, width: 80, height: 30))
        #expect(scene.layer(named: "titleBar")?.frame == CGRect(x: 0, y: 0, width: 460, height: 30))
        let content: UInt32 = 0xFFAE_D6F1
        expectPixel(image, 468, 100, content, "content reaches 470")
        expectPixel(image, 472, 100, 0xFFFF_FFFF, "the 10-point right margin")
        expectPixel(image, 100, 228, content, "content reaches 230")
        expectPixel(image, 100, 233, 0xFFFF_FFFF, "the margin above the button row")
        expectPixel(image, 395, 255, 0xFFE6_7E22, "the button, moved with the corner")
    }
}
