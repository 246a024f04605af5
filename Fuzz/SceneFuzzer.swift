// libFuzzer target over the scene decoder and the whole render path (issue 7).
//
// Each input is either a PNG (it starts with the PNG signature: decoded, then drawn as a face's contents) or
// scene text (decoded with small limits, then snapshotted, rendered, hit-tested and converted through; a
// `sweep:` section's variants instantiated; the bytes read as a sweep manifest too).
// Canvas size, scale and supersampling are capped so one input takes milliseconds. Anything the product
// refuses with an error is fine; a trap, a sanitizer report, a leak or a timeout is a finding.
//
// Built by Fuzz/fuzz.sh (swiftc -sanitize=fuzzer,address -parse-as-library against the package's modules).
import Foundation
import Origami
import OrigamiRender
import OrigamiScene

/// The folder relative image paths resolve against: Fuzz/fixtures (a small PNG `image.png`), passed in by
/// fuzz.sh through `ORIGAMI_FUZZ_FIXTURES`.
private let fixtures: URL? = ProcessInfo.processInfo.environment["ORIGAMI_FUZZ_FIXTURES"].map {
    URL(fileURLWithPath: $0, isDirectory: true)
}

private let limits: SceneLimits = {
    var l = SceneLimits()
    l.maxCanvasSide = 4096
    l.maxCanvasPixels = 4096 * 4096
    l.maxLayers = 300
    l.maxDepth = 24
    l.maxFileBytes = 1 << 20
    return l
}()

private let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    if count >= 8, Array(data.prefix(8)) == pngSignature {
        fuzzPNG(data)
    } else {
        fuzzScene(String(decoding: data, as: UTF8.self))
    }
    return 0
}

private func fuzzPNG(_ data: Data) {
    guard let bitmap = try? Bitmap(pngData: data, name: "<fuzz>") else { return }
    // Bound the work: a valid PNG header may claim a huge image, which the decoder must survive, but drawing
    // a 30000×30000 texture is not what this target is for.
    guard bitmap.width * bitmap.height <= 1 << 20 else { return }
    let layer = Layer(frame: CGRect(x: 4, y: 4, width: 40, height: 30))
    layer.contents = bitmap
    layer.transform = Transform3D.perspective(distance: 80).rotated(by: 0.7, x: 0, y: 1, z: 0)
    _ = try? Renderer.render(layer, size: CGSize(width: 48, height: 40))
}

private func fuzzScene(_ text: String) {
    let scene = try? Scene.decode(text, file: "<fuzz>", baseURL: fixtures, limits: limits)
    fuzzDestination(text, protecting: scene?.protectedFiles ?? [])
    guard let scene else { return }
    let root = scene.root
    // Caps: at most 64×64 points at scale ≤ 2, no supersampling beyond 2.
    let size = CGSize(width: min(64, scene.canvas.size.width), height: min(64, scene.canvas.size.height))
    let options = RenderOptions(scale: min(2, scene.canvas.scale), supersample: scene.canvas.scale > 1.5 ? 2 : 1,
                                background: scene.canvas.background)
    if let tree = try? RenderTree(root: root) {
        _ = try? Renderer.render(tree, size: size, options: options)
        // The vector back ends share the painter but not the surface: one of them per input is enough.
        if text.utf8.count % 7 == 0 { _ = try? Renderer.data(tree, size: size, options: options, format: .svg) }
    }
    // Hit testing and conversion on the same tree, at the canvas centre and a corner, under every policy.
    let layers = root.subtree
    for p in [CGPoint(x: size.width / 2, y: size.height / 2), CGPoint(x: 1, y: 1)] {
        for policy in HitTestPolicy.allCases { _ = root.hitTestResult(p, policy: policy) }
        _ = root.hitTestAll(p)
        if let last = layers.last {
            _ = last.convert(p, from: nil)
            _ = last.convert(CGRect(x: p.x, y: p.y, width: 3, height: 3), to: layers.first)
        }
    }
    // The batch path and the hit map's bands (a 16 × 16-pixel map at most).
    _ = try? HitMap(root: root, size: size, scale: 0.25) { $0.name ?? "" }
    _ = try? root.validateGeometry()
    _ = try? root.lightingReport()
    // A sweep's variants instantiate from the decoded description; a manifest is read from the same bytes
    // (JSON is YAML, so the corpus holds JSON too).
    if !scene.sweep.isEmpty, let sweep = try? Sweep(scene: scene.sceneDescription, parameters: [], maxVariants: 64) {
        _ = try? sweep.scene(ofVariant: 1 + text.utf8.count % sweep.variantCount).instantiate()
    }
    _ = try? JSONDecoder().decode(SweepPlan.self, from: Data(text.utf8))
}

/// The output rules (issue 13): the input's first line, made a plain file name, is read as a format and checked
/// as a destination in the fixtures folder, against the scene's own files. Checks only: nothing is written.
private func fuzzDestination(_ text: String, protecting protectedFiles: [ProtectedFile]) {
    let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    let name = String(firstLine.prefix(64).map { $0 == "/" || $0 == "\0" ? "_" : $0 })
    guard !name.isEmpty else { return }
    // Chosen from the input, so one input always takes one path.
    let requested: OutputFormat? = [nil, .png, .svg, .pdf][text.utf8.count % 4]
    _ = try? OutputFormat.forFile(URL(fileURLWithPath: "/nonexistent-origami-fuzz/" + name), requested: requested)
    _ = try? OutputFormat.forFile(URL(fileURLWithPath: name), allowed: [.png], writer: "hitmap")
    if let fixtures { _ = try? WritableDestination(fixtures.appendingPathComponent(name), protecting: protectedFiles) }
}

