import Foundation
import Origami
@testable import OrigamiRender
import CCairo
import Testing

// Issue 7: hostile input to the renderer. Every case asserts the exact error (or the exact pixels that are
// defined) and that nothing else happened: no crash, no output, no Cairo object left alive.

/// A 20×20 red square at (10, 10) on a 40×40 canvas: the witness that the rest of a scene still renders when
/// one layer is refused.
private func witness() -> Layer {
    let l = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
    l.backgroundColor = .red
    return l
}

/// A canvas-sized root holding the witness and `hostile`.
private func scene(with hostile: Layer) throws -> Layer {
    let root = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
    try root.addSublayer(witness())
    try root.addSublayer(hostile)
    return root
}

/// A chain of `depth` layers (root included), each the only sublayer of the one above. Built from the leaf up,
/// so each `addSublayer` finds no ancestors to check for a cycle (top-down would cost O(depth²)).
func chain(depth: Int) -> Layer {
    var top = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    for _ in 1..<depth {
        let l = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        try? l.addSublayer(top)
        top = l
    }
    return top
}

private let canvas = CGSize(width: 40, height: 40)

/// Renders with a Cairo object counter installed: the image, or the error, plus how many objects were left.
private func countedRender(_ body: () throws -> RenderedImage) -> (Result<RenderedImage, Error>, created: Int, live: Int) {
    let (result, counter) = CairoResourceCounter.counting { Result { try body() } }
    return (result, counter.createdCount, counter.liveCount)
}

@Suite("Hostile input: limits")
struct HostileLimitTests {
    @Test("the default limits are the design's: 16384 a side and 256 Mpx after scale and supersampling")
    func defaults() {
        let l = RenderLimits.default
        #expect(l.maxCanvasSide == 16384)
        #expect(l.maxCanvasPixels == 268_435_456) // 256 × 1024 × 1024 = 16384²
        #expect(l.maxLayers == 100_000)
        #expect(l.maxDepth == 64) // SceneLimits.maxDepth: a scene file that loads also renders
    }

    @Test("a surface exactly at the side limit is allowed; one pixel more is refused, supersampling included")
    func canvasSide() throws {
        let l = RenderLimits.default
        let ok = try l.pixelSize(CGSize(width: 16384, height: 1), scale: 1, supersample: 1)
        #expect(ok.width == 16384 && ok.height == 1)
        // 8192 points × scale 1 × supersample 2 = 16384 device pixels: allowed, and the output is 8192 wide.
        #expect(try l.pixelSize(CGSize(width: 8192, height: 1), scale: 1, supersample: 2).width == 8192)
        #expect(throws: RenderError.limitExceeded(limit: .maxCanvasSide, value: 16385, maximum: 16384)) {
            _ = try l.pixelSize(CGSize(width: 16385, height: 1), scale: 1, supersample: 1)
        }
        // 4097 × 4 = 16388.
        #expect(throws: RenderError.limitExceeded(limit: .maxCanvasSide, value: 16388, maximum: 16384)) {
            _ = try l.pixelSize(CGSize(width: 1, height: 4097), scale: 1, supersample: 4)
        }
        // 5000 points at scale 4 = 20000 pixels.
        #expect(throws: RenderError.limitExceeded(limit: .maxCanvasSide, value: 20000, maximum: 16384)) {
            _ = try l.pixelSize(CGSize(width: 5000, height: 10), scale: 4, supersample: 1)
        }
    }

    @Test("every limit is configurable")
    func configurable() throws {
        var l = RenderLimits()
        l.maxCanvasSide = 100
        l.maxCanvasPixels = 1000
        #expect(throws: RenderError.limitExceeded(limit: .maxCanvasSide, value: 101, maximum: 100)) {
            _ = try l.pixelSize(CGSize(width: 101, height: 1), scale: 1, supersample: 1)
        }
        // 40 × 26 = 1040 > 1000, each side within 100.
        #expect(throws: RenderError.limitExceeded(limit: .maxCanvasPixels, value: 1040, maximum: 1000)) {
            _ = try l.pixelSize(CGSize(width: 20, height: 13), scale: 2, supersample: 1)
        }
        #expect(try l.pixelSize(CGSize(width: 20, height: 12.5), scale: 2, supersample: 1) == (40, 25))
    }

    @Test("the message names the limit and the number asked for")
    func message() {
        let e = RenderError.limitExceeded(limit: .maxDepth, value: 65, maximum: 64)
        #expect(e.description == "cannot render: the tree has sublayers nested 65 levels deep, over the limit of 64; nest the scene's `sublayers` less deeply")
    }

    @Test("a canvas over the design's side limit is refused by the renderer before any surface exists")
    func rendererUsesLimits() {
        let (result, created, _) = countedRender { try Renderer.render(witness(), size: CGSize(width: 20000, height: 10)) }
        #expect(throws: RenderError.limitExceeded(limit: .maxCanvasSide, value: 20000, maximum: 16384)) { try result.get() }
        #expect(created == 0)
    }

    @Test("a tree deeper than maxDepth is refused with the depth, before anything is snapshotted")
    func depth() throws {
        let root = chain(depth: 100)
        #expect(throws: RenderError.limitExceeded(limit: .maxDepth, value: 65, maximum: 64)) { _ = try RenderTree(root: root) }
        let (result, created, _) = countedRender { try Renderer.render(root, size: canvas) }
        #expect(throws: RenderError.limitExceeded(limit: .maxDepth, value: 65, maximum: 64)) { try result.get() }
        #expect(created == 0)
        var limits = RenderLimits()
        limits.maxDepth = 100
        #expect(try RenderTree(root: root, limits: limits).members.count == 1)
    }

    @Test("a tree 200 000 levels deep gets the same error, not a stack overflow")
    func veryDeep() {
        let root = chain(depth: 200_000)
        #expect(throws: RenderError.limitExceeded(limit: .maxDepth, value: 65, maximum: 64)) { _ = try RenderTree(root: root) }
    }

    @Test("a tree with more layers than maxLayers is refused; hidden subtrees do not count")
    func layerCount() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        for _ in 0..<20 { try root.addSublayer(Layer()) }
        var limits = RenderLimits()
        limits.maxLayers = 10
        // Root + 20 sublayers: the 11th layer counted is over.
        #expect(throws: RenderError.limitExceeded(limit: .maxLayers, value: 11, maximum: 10)) {
            _ = try RenderTree(root: root, limits: limits)
        }
        for l in root.sublayers.dropFirst(9) { l.isHidden = true }
        #expect(try RenderTree(root: root, limits: limits).members.count == 1)
    }

    @Test("layers a render leaves out count toward neither the depth nor the text limit")
    func leftOutLayersDoNotCount() throws {
        // Counted with every layer, this tree is over both limits; the check must then walk it exactly.
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let deep = chain(depth: RenderLimits.default.maxDepth + 5)
        deep.isHidden = true
        let text = TextLayer()
        text.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        text.string = String(repeating: "é", count: 8193)
        text.opacity = .nan
        try root.addSublayer(deep)
        try root.addSublayer(text)
        #expect(throws: Never.self) { _ = try RenderTree(root: root) }
        deep.isHidden = false
        #expect(throws: RenderError.limitExceeded(limit: .maxDepth, value: 65, maximum: 64)) { _ = try RenderTree(root: root) }
        deep.isHidden = true
        text.opacity = 1
        #expect(throws: RenderError.limitExceeded(limit: .maxTextBytes, value: 16386, maximum: 16384)) {
            _ = try RenderTree(root: root)
        }
    }

    @Test("a text layer's string over maxTextBytes is refused before any glyph is laid out")
    func longText() throws {
        let text = TextLayer()
        text.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        text.string = String(repeating: "é", count: 8193) // 2 UTF-8 bytes each: 16 386 bytes
        let (result, created, _) = countedRender { try Renderer.render(text, size: canvas) }
        #expect(throws: RenderError.limitExceeded(limit: .maxTextBytes, value: 16386, maximum: 16384)) { try result.get() }
        #expect(created == 0)
        text.string = String(repeating: "é", count: 8192)
        #expect(throws: Never.self) { _ = try RenderTree(root: text) }
    }

    @Test("a tree at exactly the depth limit renders on a 1 MiB thread stack")
    func depthFitsSmallStack() throws {
        // The root plus maxDepth levels of sublayers.
        let root = chain(depth: RenderLimits.default.maxDepth + 1)
        root.subtree.last?.backgroundColor = .blue
        // Snapshot and painting both on the small stack; nothing else touches the tree meanwhile.
        nonisolated(unsafe) let tree = root
        nonisolated(unsafe) var outcome: Result<RenderedImage, Error>?
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            outcome = Result { try Renderer.render(tree, size: canvas) }
            done.signal()
        }
        // The budget RenderLimits documents for an unoptimised build; sanitizers (make check sets
        // ORIGAMI_SANITIZER) make every frame several times larger.
        thread.stackSize = ProcessInfo.processInfo.environment["ORIGAMI_SANITIZER"] == nil ? 1 << 20 : 8 << 20
        thread.start()
        done.wait()
        let image = try #require(outcome).get()
        Probe.expect(image, 5, 5, .blue, "the deepest layers cover (0, 0, 10, 10)")
    }
}

@Suite("Hostile input: numbers")
struct HostileNumberTests {
    /// A 20×20 layer at (10, 10) whose `transform` is `t` and whose colour is blue.
    private func layer(transform t: Transform3D) -> Layer {
        let l = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        l.backgroundColor = .blue
        l.transform = t
        return l
    }

    private func renderKeepsWitness(_ hostile: Layer, _ note: Comment) throws -> RenderedImage {
        let (result, created, live) = countedRender { try Renderer.render(try scene(with: hostile), size: canvas) }
        let image = try result.get()
        #expect(created > 0 && live == 0, "every Cairo object released")
        return image
    }

    @Test("NaN and ∞ in a transform: the layer is skipped, the rest renders",
          arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteTransform(_ v: Double) throws {
        var t = Transform3D.identity
        t.m41 = v
        let image = try renderKeepsWitness(layer(transform: t), "non-finite m41")
        Probe.expect(image, 20, 20, .red, "witness, not the skipped blue layer")
        Probe.expect(image, 35, 35, .clear, "nothing else drawn")
    }

    @Test("a singular transform (scale 0) draws nothing and cannot be hit")
    func singular() throws {
        let l = layer(transform: Transform3D(scaleX: 0, y: 1))
        let image = try renderKeepsWitness(l, "scale x 0")
        Probe.expect(image, 20, 20, .red, "hostile")
        #expect(l.hitTest(CGPoint(x: 20, y: 20)) == nil)
        #expect(l.convert(CGPoint(x: 20, y: 20), from: nil) == nil)
    }

    @Test("a near-singular transform (scale 1e-300) draws nothing visible and hit testing answers nil")
    func nearSingular() throws {
        let l = layer(transform: Transform3D(scaleX: 1e-300, y: 1e-300))
        let image = try renderKeepsWitness(l, "scale 1e-300")
        Probe.expect(image, 20, 20, .red, "hostile")
        #expect(l.hitTest(CGPoint(x: 20, y: 20)) == nil)
    }

    @Test("a layer wholly behind the eye (w ≤ 0) draws nothing; converting onto it is nil")
    func behindTheEye() throws {
        // Perspective d = 100 with the layer pushed to z = +200: w = 1 − z/d = −1 at every point.
        var t = Transform3D(translationX: 0, y: 0, z: 200)
        t = t.concatenating(Transform3D.perspective(distance: 100))
        let l = layer(transform: t)
        let image = try renderKeepsWitness(l, "behind the eye")
        Probe.expect(image, 20, 20, .red, "hostile")
        #expect(l.convert(CGPoint(x: 20, y: 20), from: nil) == nil)
        #expect(l.hitTest(CGPoint(x: 20, y: 20)) == nil)
    }

    @Test("a plane seen exactly edge-on draws nothing and cannot be hit")
    func edgeOn() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        root.sublayerTransform = Transform3D.perspective(distance: 500)
        let l = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        l.backgroundColor = .blue
        l.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0)
        try root.addSublayer(l)
        let (result, _, live) = countedRender { try Renderer.render(root, size: canvas) }
        let image = try result.get()
        #expect(live == 0)
        // Edge-on the plane projects onto the vertical line x = 20; at most that column's antialiasing is touched.
        Probe.expect(image, 15, 20, .clear, "hostile")
        Probe.expect(image, 25, 20, .clear, "hostile")
        #expect(root.hitTest(CGPoint(x: 20, y: 20)) === root)
        #expect(l.convert(CGPoint(x: 20, y: 20), from: root) == nil)
    }

    @Test("zero-size bounds draw nothing of their own but their sublayers still draw (as in Core Animation)")
    func zeroSize() throws {
        let empty = Layer(frame: CGRect(x: 30, y: 30, width: 0, height: 0))
        empty.backgroundColor = .blue
        empty.borderWidth = 3
        empty.cornerRadius = 5
        let child = Layer(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
        child.backgroundColor = .green
        try empty.addSublayer(child)
        let image = try renderKeepsWitness(empty, "zero-size")
        Probe.expect(image, 20, 20, .red, "hostile")
        // The zero-size layer's bounds origin sits at its position (30, 30); the child's frame starts there.
        Probe.expect(image, 32.5, 32.5, .green, "hostile")
        Probe.expect(image, 37, 37, .clear, "nothing beyond the child")
    }

    @Test("huge coordinates (1e300) render without a crash; the rest of the scene is intact",
          arguments: [1e300, -1e300, 1e20, 1.7e308])
    func huge(_ v: Double) throws {
        let l = Layer(frame: CGRect(x: v, y: v, width: 20, height: 20))
        l.backgroundColor = .blue
        l.borderWidth = 2
        l.cornerRadius = 4
        l.contents = Bitmap(width: 2, height: 2, color: .green)
        let image = try renderKeepsWitness(l, "at \(v)")
        Probe.expect(image, 20, 20, .red, "hostile")
        Probe.expect(image, 35, 35, .clear, "hostile")
    }

    @Test("huge sizes (1e300 wide) and huge translations in perspective render without a crash",
          arguments: [1e300, 1e15])
    func hugeSizes(_ v: Double) throws {
        let l = Layer()
        l.bounds = CGRect(x: 0, y: 0, width: v, height: v)
        l.position = CGPoint(x: 20, y: 20)
        l.backgroundColor = .blue
        l.contents = Bitmap(width: 2, height: 2, color: .green)
        l.transform = Transform3D.perspective(distance: 500).rotated(by: 0.3, x: 1, y: 1, z: 0)
        let (result, _, live) = countedRender { try Renderer.render(l, size: canvas) }
        _ = try result.get()
        #expect(live == 0)
    }

    @Test("contents far outside the canvas are not sampled and do not crash")
    func contentsOffCanvas() throws {
        for offset in [1e12, -1e12, 1e20] {
            let l = Layer(frame: CGRect(x: offset, y: 10, width: 20, height: 20))
            l.contents = Bitmap(width: 2, height: 2, color: .green)
            let image = try renderKeepsWitness(l, "contents at \(offset)")
            Probe.expect(image, 20, 20, .red, "hostile")
        }
    }

    @Test("drawImage itself survives a face whose pixel box lies at 1e20 (defence in depth behind Painter's check)")
    func drawImageFarAway() throws {
        let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: 40, height: 40)
        let painter = Painter(try CairoContext(surface), visible: PlaneRect(minX: 0, minY: 0, maxX: 40, maxY: 40), sealsEdges: false)
        let far = Homography(Matrix3(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 1e20, m32: 10, m33: 1))
        let image = try #require(Bitmap(width: 2, height: 2, color: .green))
        try painter.drawImage(image, in: PlaneRect(minX: 0, minY: 0, maxX: 20, maxY: 20), chain: PlaneChain([far]),
                              filter: .identity)
    }

    @Test("a perspective plane crossing the eye is clipped at the near plane: the part in front is drawn")
    func crossingTheEye() throws {
        let root = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        root.sublayerTransform = Transform3D.perspective(distance: 20)
        let l = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        l.backgroundColor = .blue
        // Tilted 80° about x: its top edge comes toward the viewer past z = d, its bottom recedes.
        l.transform = Transform3D(rotationAngle: 80 * .pi / 180, x: 1, y: 0, z: 0)
        try root.addSublayer(l)
        let (result, _, live) = countedRender { try Renderer.render(root, size: canvas) }
        _ = try result.get()
        #expect(live == 0)
    }

    @Test("non-finite opacity, border, radius and contentsScale skip the layer; hit testing still terminates",
          arguments: ["opacity", "borderWidth", "cornerRadius", "contentsScale"])
    func nonFiniteProperties(_ property: String) throws {
        let l = Layer(frame: CGRect(x: 25, y: 25, width: 10, height: 10))
        l.backgroundColor = .blue
        switch property {
        case "opacity": l.opacity = .nan
        case "borderWidth": l.borderWidth = .infinity
        case "cornerRadius": l.cornerRadius = .nan
        default: l.contentsScale = .nan
        }
        let image = try renderKeepsWitness(l, "\(property) not finite")
        Probe.expect(image, 20, 20, .red, "hostile")
        Probe.expect(image, 30, 30, .clear, "hostile")
        #expect(throws: LayerGeometryError.self) { try l.validateGeometry() }
    }

    @Test("NaN-filled colours are clamped, not propagated into Cairo")
    func nanColour() throws {
        let l = Layer(frame: CGRect(x: 25, y: 25, width: 10, height: 10))
        l.backgroundColor = Color(red: .nan, green: .infinity, blue: -1, alpha: .nan)
        l.borderColor = Color(red: .nan, green: 0, blue: 0, alpha: 1)
        l.borderWidth = 2
        _ = try renderKeepsWitness(l, "NaN colours")
    }
}

@Suite("Hostile input: files")
struct HostileFileTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("origami-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A valid 2×2 opaque red PNG, built by hand: signature, IHDR (2×2, 8-bit RGBA), one zlib-stored IDAT, IEND.
    static func tinyPNG(width: UInt32 = 2, height: UInt32 = 2) -> Data {
        var raw: [UInt8] = []
        for _ in 0..<height { raw.append(0); for _ in 0..<width { raw += [255, 0, 0, 255] } }
        return png(width: width, height: height, idat: zlibStored(raw))
    }

    static func png(width: UInt32, height: UInt32, idat: [UInt8]) -> Data {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let t = Array(type.utf8)
            return be(UInt32(body.count)) + t + body + be(crc32(t + body))
        }
        let ihdr = be(width) + be(height) + [8, 6, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", []))
    }

    /// zlib with one stored (uncompressed) block: header 78 01, BFINAL=1 BTYPE=00, LEN, NLEN, bytes, Adler-32.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        let n = UInt16(data.count)
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let adler = b << 16 | a
        return [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + data
            + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
    }

    /// CRC-32 (ISO 3309, as PNG uses), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    @Test("the hand-built PNG decodes (the fixture the fault cases below damage)")
    func fixture() throws {
        let b = try Bitmap(pngData: Self.tinyPNG())
        #expect(b.width == 2 && b.height == 2)
        #expect(b[1, 1] == 0xFFFF_0000)
    }

    @Test("a missing image names the file and says so")
    func missing() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("absent.png")
        #expect(throws: RenderError.unreadableImage(path: url.path, reason: "no such file")) { _ = try Bitmap(contentsOfPNG: url) }
    }

    @Test("an unreadable image (a folder named .png) names the file and says so")
    func unreadable() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("folder.png")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        #expect(throws: RenderError.unreadableImage(path: url.path, reason: "it cannot be read")) { _ = try Bitmap(contentsOfPNG: url) }
    }

    @Test("truncated and corrupt PNGs are errors naming the file and the fault",
          arguments: [("empty", "it is not a PNG file (it is empty)"),
                      ("signature only", "not a valid PNG (it ends inside its header)"),
                      ("cut in IDAT", "not a valid PNG (it is cut short)"),
                      ("bad CRC", "not a valid PNG (its header's checksum is wrong)"),
                      ("bad zlib", "not a valid PNG (its image data is damaged)"),
                      ("not a PNG", "it is not a PNG file (it starts with `GIF89a n`)")])
    func damaged(_ fault: String, _ expected: String) throws {
        let good = [UInt8](Self.tinyPNG())
        var bytes: [UInt8]
        switch fault {
        case "empty": bytes = []
        case "signature only": bytes = Array(good.prefix(8))
        case "cut in IDAT": bytes = Array(good.prefix(good.count - 20))
        case "bad CRC": bytes = good; bytes[29] ^= 0xFF // IHDR's CRC starts at 8 + 4 + 4 + 13 = 29
        case "bad zlib": bytes = [UInt8](Self.png(width: 2, height: 2, idat: [0x78, 0x01, 0xFF, 0xFF, 0xFF]))
        default: bytes = Array("GIF89a not a png".utf8)
        }
        let (result, counter) = CairoResourceCounter.counting { Result { try Bitmap(pngData: Data(bytes), name: "damaged.png") } }
        #expect(counter.liveCount == 0)
        do {
            _ = try result.get()
            Issue.record("\(fault): decoding should fail")
        } catch let RenderError.unreadableImage(path, reason) {
            #expect(path == "damaged.png")
            #expect(reason == expected, "\(fault)")
        } catch {
            Issue.record("\(fault): unexpected \(error)")
        }
    }

    @Test("a PNG declaring a huge image is refused from its header, before decoding",
          arguments: [(UInt32(30000), UInt32(30000)), (UInt32(0x7FFF_FFFF), UInt32(1)), (UInt32(16384), UInt32(8192))])
    func hugeHeader(_ size: (UInt32, UInt32)) throws {
        let data = Self.png(width: size.0, height: size.1, idat: Self.zlibStored([0]))
        let (result, counter) = CairoResourceCounter.counting { Result { try Bitmap(pngData: data, name: "huge.png", limits: .default) } }
        #expect(counter.createdCount == 0, "refused before Cairo allocates anything")
        let side = Int(max(size.0, size.1))
        let expected: RenderError = side > 16384
            ? .limitExceeded(limit: .maxImageSide, value: side, maximum: 16384)
            : .limitExceeded(limit: .maxImagePixels, value: Int(size.0) * Int(size.1), maximum: 64 << 20)
        #expect(throws: expected) { try result.get() }
    }

    @Test("an image file over maxImageBytes is refused before it is read")
    func hugeFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("big.png")
        try Self.tinyPNG().write(to: url)
        var limits = RenderLimits()
        limits.maxImageBytes = 10
        let size = Self.tinyPNG().count
        #expect(throws: RenderError.limitExceeded(limit: .maxImageBytes, value: size, maximum: 10)) {
            _ = try Bitmap(contentsOfPNG: url, limits: limits)
        }
        #expect(try Bitmap(contentsOfPNG: url, limits: .default).width == 2)
    }

    @Test("unwritable destinations are named before any rendering",
          arguments: ["missing folder", "folder is a file", "destination is a folder"])
    func unwritable(_ fault: String) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let url: URL, reason: String
        switch fault {
        case "missing folder":
            url = folder.appendingPathComponent("nope/out.png"); reason = "the folder \(folder.path)/nope does not exist"
        case "folder is a file":
            url = file.appendingPathComponent("out.png"); reason = "\(file.path) is not a folder"
        default:
            url = folder.appendingPathComponent("dir.png")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
            reason = "it is a folder"
        }
        #expect(throws: RenderError.writeFailed(path: url.path, reason: reason)) { try WritableDestination.check(url) }
        // Whatever Renderer.write does, it fails with writeFailed and leaves no file (or temporary) behind.
        #expect(throws: RenderError.self) { try Renderer.write(witness(), size: canvas, to: url) }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == (fault == "destination is a folder" ? ["dir.png", "file"] : ["file"]))
    }

    @Test("Renderer.write checks the destination before it renders")
    func writeChecksFirst() throws {
        let url = URL(fileURLWithPath: "/nonexistent-origami-folder/out.png")
        let (result, counter) = CairoResourceCounter.counting { Result { try Renderer.write(witness(), size: canvas, to: url) } }
        #expect(throws: RenderError.writeFailed(path: url.path, reason: "the folder /nonexistent-origami-folder does not exist")) {
            try result.get()
        }
        #expect(counter.createdCount == 0)
    }
}
