import Foundation
import Origami
import OrigamiRender
import OrigamiScene
import Testing
import TestSupport

// Issue 7: hostile scene files. Each fault gives its exact located message; nothing is built or written.

private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("origami-hostile-scene-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The issues of loading `url` (empty when it loads).
private func loadIssues(_ url: URL, limits: SceneLimits = .default) -> [SceneIssue] {
    do { _ = try Scene.load(contentsOf: url, limits: limits); return [] } catch { return error.issues }
}

private func decodeIssues(_ text: String, limits: SceneLimits = .default, base: URL? = nil) -> [SceneIssue] {
    do { _ = try Scene.decode(text, file: "s.yaml", baseURL: base, limits: limits); return [] } catch { return error.issues }
}

/// A valid 1×1 opaque red PNG, byte for byte (IHDR 1×1 8-bit RGBA; IDAT a zlib stored block of the row
/// [filter 0, 255, 0, 0, 255] with its Adler-32; CRCs per ISO 3309), written out by hand with Python's zlib.
private var onePixelPNG: Data { Data([
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A,
    0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89,
    0x00, 0x00, 0x00, 0x10, 0x49, 0x44, 0x41, 0x54, 0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF,
    0x00, 0xFF, 0x00, 0x00, 0xFF, 0x05, 0x00, 0x01, 0xFF, 0xFA, 0x5C, 0x88, 0xD1,
    0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
]) }

@Suite("Hostile input: scene files")
struct HostileSceneFileTests {
    @Test("a missing scene file is one located error")
    func missing() throws {
        let url = try folder().appendingPathComponent("absent.yaml")
        let issues = loadIssues(url)
        #expect(issues.map(\.description) == ["\(url.path): cannot read the scene file: no such file"])
    }

    @Test("a folder given as the scene file is one located error")
    func notAFile() throws {
        let url = try folder()
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(loadIssues(url).map(\.message) == ["cannot read the scene file (permission denied or not a file)"])
    }

    @Test("a file over maxFileBytes is refused before it is read")
    func tooBig() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("big.yaml")
        let text = "canvas: {size: [10, 10]}\nlayers: []\n" // 36 bytes
        try Data(text.utf8).write(to: url)
        var limits = SceneLimits()
        limits.maxFileBytes = 20
        #expect(loadIssues(url, limits: limits).map(\.message) == ["the file is 36 bytes, over the limit of 20"])
        #expect(loadIssues(url).isEmpty)
    }

    @Test("bytes that are not UTF-8 are refused")
    func notUTF8() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("binary.yaml")
        try Data([0x63, 0x61, 0xFF, 0xFE, 0x00, 0xC3]).write(to: url)
        #expect(loadIssues(url).map(\.message) == ["the scene file is not UTF-8 text"])
    }

    @Test("an expectations file is read like a scene file: missing, a folder or not UTF-8 is one located error")
    func expectationsFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        func issues(_ url: URL) -> [String] {
            do { _ = try HitExpectations.load(contentsOf: url, displayName: "e.yaml"); return [] } catch {
                return error.issues.map(\.description)
            }
        }
        #expect(issues(dir.appendingPathComponent("absent.yaml")) == ["e.yaml: cannot read the expectations file: no such file"])
        #expect(issues(dir) == ["e.yaml: cannot read the expectations file (permission denied or not a file)"])
        let binary = dir.appendingPathComponent("binary.yaml")
        try Data([0x70, 0x6F, 0xFF, 0xFE]).write(to: binary)
        #expect(issues(binary) == ["e.yaml: the expectations file is not UTF-8 text"])
        let good = dir.appendingPathComponent("good.yaml")
        try Data("points:\n  - {at: [1, 2], tree: null}\n".utf8).write(to: good)
        #expect(issues(good).isEmpty)
    }

    @Test("a truncated scene file is located at the line where it breaks",
          arguments: ["canvas: {size: [10, 10]}\nlayers: [{name: a, frame: [0, 0,", "canvas: {size: [10, 1"])
    func truncated(_ text: String) {
        let issues = decodeIssues(text)
        #expect(issues.count == 1)
        #expect(issues.first?.message.hasPrefix("not valid YAML: ") == true)
        #expect((issues.first?.line ?? 0) == text.split(separator: "\n").count + 1 || (issues.first?.line ?? 0) >= 1)
    }

    @Test("an empty file says so")
    func empty() {
        #expect(decodeIssues("").map(\.description) == ["s.yaml: the scene is empty; a scene needs at least `canvas` and `layers`"])
    }

    @Test("100 000 nested brackets are refused by the YAML reader's nesting limit, not a stack overflow")
    func deepFlow() {
        let depth = 100_000
        let text = "canvas: {size: [10, 10]}\nlayers: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let issues = decodeIssues(text)
        #expect(issues.count == 1)
        #expect(issues.first?.line == 2)
        #expect(issues.first?.message.hasPrefix("not valid YAML: Maximum nesting level reached") == true)
    }

    @Test("sublayers nested past SceneLimits.maxDepth are named at the first layer too deep")
    func deepLayers() {
        // 65 levels of `- sublayers:` blocks: the 65th layer is over the default 64.
        var text = "canvas: {size: [10, 10]}\nlayers:\n"
        var indent = ""
        for _ in 0..<65 { text += indent + "- sublayers:\n"; indent += "    " }
        text += indent + "- {}\n"
        let issues = decodeIssues(text)
        #expect(issues.map(\.message) == ["layers are nested more than 64 deep"])
        // Line 3 + 64 = 67 holds the 65th `- sublayers:`; column = 64 levels × 4 spaces + 3 (after "- ").
        #expect(issues.first?.line == 67)
    }

    @Test("a scene at exactly SceneLimits.maxDepth loads and renders (the renderer's depth limit agrees)")
    func deepestScene() throws {
        var text = "canvas: {size: [10, 10]}\nlayers:\n"
        var indent = ""
        for _ in 0..<63 { text += indent + "- sublayers:\n"; indent += "    " }
        text += indent + "- {frame: [0, 0, 10, 10], backgroundColor: red}\n"
        let scene = try Scene.decode(text, file: "s.yaml")
        let image = try Renderer.render(scene.root, size: scene.canvas.size)
        #expect(image.pixel(x: 5, y: 5) == .red)
    }

    @Test("more layers than SceneLimits.maxLayers is one error")
    func tooManyLayers() {
        var limits = SceneLimits()
        limits.maxLayers = 5
        let text = "canvas: {size: [10, 10]}\nlayers: [{}, {}, {}, {}, {}, {}, {}]"
        #expect(decodeIssues(text, limits: limits).map(\.message) == ["the scene has more than 5 layers"])
    }

    @Test("a canvas over the pixel limits after scale is refused",
          arguments: [("[5000, 10]", "4", "canvas of 20000×40 pixels is too large"),
                      ("[16384, 16385]", "1", "canvas of 16384×16385 pixels is too large")])
    func hugeCanvas(_ size: String, _ scale: String, _ message: String) {
        #expect(decodeIssues("canvas: {size: \(size), scale: \(scale)}\nlayers: []").map(\.message) == [message])
    }

    @Test("NaN and infinities are refused where they are written", arguments: [".nan", ".inf", "-.inf", ".NaN"])
    func nonFinite(_ v: String) {
        let issues = decodeIssues("canvas: {size: [10, 10]}\nlayers: [{position: [\(v), 0]}]")
        #expect(issues.map(\.description) == ["s.yaml:2:22: layers[0].position[0]: expected a finite number, found \(v); NaN and infinities are not allowed"])
    }

    @Test("image paths may not leave the scene's folder", arguments: ["../outside.png", "/etc/passwd", "sub/../../x.png"])
    func escapingImage(_ path: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let issues = decodeIssues("canvas: {size: [10, 10]}\nlayers: [{contents: \"\(path)\"}]", base: dir)
        #expect(issues.map(\.message) == ["image path `\(path)` leaves the scene's folder"])
    }

    @Test("missing and corrupt images are located at their key")
    func badImages() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("GIF89a".utf8).write(to: dir.appendingPathComponent("corrupt.png"))
        try onePixelPNG.prefix(40).write(to: dir.appendingPathComponent("truncated.png"))
        try onePixelPNG.write(to: dir.appendingPathComponent("good.png"))
        let text = """
            canvas: {size: [10, 10]}
            layers:
              - contents: absent.png
              - contents: corrupt.png
              - contents: truncated.png
              - contents: good.png
            """
        let issues = decodeIssues(text, base: dir)
        #expect(issues.map(\.description) == [
            "s.yaml:3:15: layers[0].contents: image `absent.png` not found; paths are relative to the scene file's folder",
            "s.yaml:4:15: layers[1].contents: cannot read image `corrupt.png`: it is not a PNG file (it starts with `GIF89a`)",
            "s.yaml:5:15: layers[2].contents: cannot read image `truncated.png`: not a valid PNG (it is cut short)",
        ])
    }

    @Test("a scene image whose header declares 30000×30000 pixels is refused before decoding")
    func hugeImage() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var header = [UInt8](onePixelPNG.prefix(33))
        header[16...23] = [0x00, 0x00, 0x75, 0x30, 0x00, 0x00, 0x75, 0x30] // 30000 × 30000
        let crc = PNGFixture.crc32(Array(header[12..<29]))
        header[29...32] = [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        try Data(header).write(to: dir.appendingPathComponent("huge.png"))
        let issues = decodeIssues("canvas: {size: [10, 10]}\nlayers: [{contents: huge.png}]", base: dir)
        #expect(issues.map(\.message) == ["cannot read image `huge.png`: cannot decode: the image is 30000 pixels on a side, over the limit of 16384; give `contents` a smaller image"])
    }

    @Test("the one-pixel PNG fixture decodes")
    func fixture() throws {
        let b = try Bitmap(pngData: onePixelPNG)
        #expect(b.width == 1 && b.pixels == [0xFFFF_0000])
    }
}

/// Every input the fuzzer (Fuzz/fuzz.sh) ever crashed on, kept in Fuzz/crashes, replayed through the same path
/// as the fuzz target: decode with small limits, snapshot, render, SVG, hit-test, convert, validate.
@Suite("Fuzz regressions")
struct ReliabilityFuzzRegressionTests {
    static let crashes = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/crashes").standardizedFileURL
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/fixtures").standardizedFileURL

    static var inputs: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: crashes.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test("the crash corpus is there") func present() { #expect(!Self.inputs.isEmpty) }

    @Test("each input found by the fuzzer is handled", arguments: inputs)
    func replay(_ name: String) throws {
        let data = try Data(contentsOf: Self.crashes.appendingPathComponent(name))
        var limits = SceneLimits()
        limits.maxCanvasSide = 4096
        limits.maxCanvasPixels = 4096 * 4096
        limits.maxLayers = 300
        limits.maxDepth = 24
        guard let scene = try? Scene.decode(String(decoding: data, as: UTF8.self), file: name, baseURL: Self.fixtures,
                                            limits: limits) else { return }
        let size = CGSize(width: min(64, scene.canvas.size.width), height: min(64, scene.canvas.size.height))
        let options = RenderOptions(scale: min(2, scene.canvas.scale), supersample: scene.canvas.scale > 1.5 ? 2 : 1,
                                    background: scene.canvas.background)
        if let tree = try? RenderTree(root: scene.root) {
            _ = try? Renderer.render(tree, size: size, options: options)
            _ = try? Renderer.data(tree, size: size, options: options, format: .svg)
        }
        for policy in HitTestPolicy.allCases { _ = scene.root.hitTestResult(CGPoint(x: 1, y: 1), policy: policy) }
        _ = scene.root.hitTestAll(CGPoint(x: size.width / 2, y: size.height / 2))
        _ = try? scene.root.validateGeometry()
    }
}
