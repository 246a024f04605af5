import Dispatch
import Foundation
import Origami
import OrigamiRender

/// A lighting-parameter sweep: the cartesian grid of its parameters' values, each variant rendered from the
/// same scene, with the per-face lighting data of every variant.
///
/// Variants are numbered from 1; the last parameter varies fastest. Every variant writes
/// `frames/variant-NNNN.png` and `frames/variant-NNNN.json` (its parameters and `FaceLightingData` rows) into the
/// output folder, so a batch system can render shards anywhere and `merge` assembles `sheet.png`,
/// `lighting.csv` and `lighting.json` from them. Memory stays flat: a worker holds one frame at a time.
public struct Sweep: Sendable {
    public let sceneURL: URL
    public let parameters: [SweepParameter]
    public let variantCount: Int
    /// The scene file and its images: no output of the sweep may replace them.
    public let protectedFiles: [ProtectedFile]
    private let sceneText: String
    private let limits: SceneLimits

    /// Checks the parameters against the scene (the lit layers they name exist, light indices are in range)
    /// and the grid's size against `maxVariants`.
    public init(scene url: URL, parameters: [SweepParameter], maxVariants: Int = 10_000,
                limits: SceneLimits = .default) throws {
        let scene = try Scene.load(contentsOf: url, limits: limits)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw SweepError("cannot read \(url.path)")
        }
        let parameters = parameters.isEmpty ? scene.sweep : parameters
        guard !parameters.isEmpty else {
            throw SweepError("nothing to vary", hint: "pass --vary PATH=VALUES or add a `sweep:` section to the scene")
        }
        var count = 1
        for p in parameters {
            let (product, overflow) = count.multipliedReportingOverflow(by: p.values.count)
            guard !overflow, product <= maxVariants else {
                throw SweepError("the sweep has more than \(maxVariants) variants", hint: "vary fewer values, or raise the limit")
            }
            count = product
            var lighting = try Self.lighting(for: p, in: scene).1
            try p.apply(p.values[0], to: &lighting)
        }
        self.sceneURL = url; self.parameters = parameters; self.variantCount = count
        self.sceneText = text; self.limits = limits; self.protectedFiles = scene.protectedFiles
    }

    /// The values of variant `number` (1-based), one per parameter.
    public func values(ofVariant number: Int) -> [SweepParameter.Value] {
        var rest = number - 1
        var result: [SweepParameter.Value] = []
        for p in parameters.reversed() {
            result.append(p.values[rest % p.values.count])
            rest /= p.values.count
        }
        return result.reversed()
    }

    /// `ambient=0.5` lines, one per parameter.
    public func label(ofVariant number: Int) -> String {
        zip(parameters, values(ofVariant: number)).map { "\($0.path)=\($1)" }.joined(separator: "\n")
    }

    public static func frameName(_ number: Int) -> String { String(format: "variant-%04d", number) }

    /// The lit layer a parameter refers to and its lighting.
    static func lighting(for p: SweepParameter, in scene: Scene) throws(SweepError) -> (Layer, Lighting) {
        let lit = scene.root.subtree.filter { $0.lighting is Lighting }
        let candidates = p.layerName.map { name in lit.filter { $0.name == name } } ?? lit
        guard let layer = candidates.first, let lighting = layer.lighting as? Lighting else {
            if let name = p.layerName { throw SweepError("no lit layer named `\(name)` for `\(p.path)`") }
            throw SweepError("the scene has no layer with `lighting` to vary")
        }
        guard candidates.count == 1 else {
            throw SweepError("several layers are lit", hint: "prefix the layer's name: `\(lit.compactMap(\.name).first ?? "container").\(p.path)`")
        }
        return (layer, lighting)
    }

    /// Sets variant `number`'s values on `scene` (a scene decoded from this sweep's file).
    func apply(variant number: Int, to scene: Scene) throws {
        for (p, v) in zip(parameters, values(ofVariant: number)) {
            var (layer, lighting) = try Self.lighting(for: p, in: scene)
            try p.apply(v, to: &lighting)
            layer.lighting = lighting
        }
    }

    /// The variants shard `index` of `count` (1-based) renders: every `count`-th, starting at `index`.
    public func variants(shard: (index: Int, count: Int)?) -> [Int] {
        guard let shard else { return Array(1...variantCount) }
        return Array(stride(from: shard.index, through: variantCount, by: shard.count))
    }

    /// Renders `variants` into `folder/frames/` on `jobs` threads; `progress` is called after each variant
    /// (from any thread) with the number done so far.
    public func render(variants: [Int], into folder: URL, options: RenderOptions, jobs: Int,
                       progress: @escaping @Sendable (Int) -> Void = { _ in }) throws {
        let frames = folder.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: frames, withIntermediateDirectories: true)
        let state = SweepState()
        let workers = max(1, min(jobs, variants.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                let scene = try Scene.decode(sceneText, file: sceneURL.path, baseURL: sceneURL.deletingLastPathComponent(),
                                             url: sceneURL, limits: limits)
                for (i, number) in variants.enumerated() where i % workers == worker {
                    if state.failed { return }
                    try apply(variant: number, to: scene)
                    let image = try Renderer.render(scene.root, size: scene.canvas.size, options: options)
                    let base = frames.appendingPathComponent(Self.frameName(number))
                    try image.write(to: base.appendingPathExtension("png"), format: .png, protecting: protectedFiles)
                    let record = VariantRecord(
                        variant: number,
                        parameters: zip(parameters, values(ofVariant: number)).map { [$0.path, $1.description] },
                        faces: try lightingRows(scene))
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    try write(encoder.encode(record), to: base.appendingPathExtension("json"))
                    progress(state.finishOne())
                }
            } catch {
                state.fail(error)
            }
        }
        if let error = state.error { throw error }
    }

    /// Every file the sweep writes goes through `WritableDestination`.
    private func write(_ data: Data, to url: URL) throws {
        try WritableDestination(url, protecting: protectedFiles).write(data)
    }

    private func lightingRows(_ scene: Scene) throws -> [FaceLightingData] {
        var rows: [FaceLightingData] = []
        for layer in scene.root.subtree {
            guard let lighting = layer.lighting as? Lighting else { continue }
            rows += try lighting.lightingReport(for: layer)
        }
        return rows
    }

    /// Assembles `sheet.png`, `lighting.csv` and `lighting.json` in `folder` from every variant's frame and data.
    /// Throws, naming the missing variants, when some shard has not been rendered yet.
    public func merge(in folder: URL, thumbnail: Int = 256) throws {
        let frames = folder.appendingPathComponent("frames")
        let missing = (1...variantCount).filter {
            !FileManager.default.fileExists(atPath: frames.appendingPathComponent(Self.frameName($0) + ".json").path)
        }
        guard missing.isEmpty else {
            let list = missing.prefix(5).map(String.init).joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
            throw SweepError("\(missing.count) of \(variantCount) variants are not rendered yet (\(list))",
                             hint: "run every shard before --merge")
        }
        var records: [VariantRecord] = []
        for n in 1...variantCount {
            let data = try Data(contentsOf: frames.appendingPathComponent(Self.frameName(n) + ".json"))
            records.append(try JSONDecoder().decode(VariantRecord.self, from: data))
        }
        // CSV: the variant and its parameters, then one row per face.
        let lightCount = records.flatMap(\.faces).map(\.lights.count).max() ?? 0
        var csv = (["variant"] + parameters.map(\.path)).map(csvField).joined(separator: ",") + ","
            + FaceLightingData.csvHeader(lightCount: lightCount) + "\n"
        for r in records {
            let prefix = ([String(r.variant)] + r.parameters.map { $0[1] }).map(csvField).joined(separator: ",")
            for f in r.faces { csv += prefix + "," + f.csvRow + "\n" }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try write(Data(csv.utf8), to: folder.appendingPathComponent("lighting.csv"))
        try write(encoder.encode(records), to: folder.appendingPathComponent("lighting.json"))
        try ContactSheet(sweep: self, frames: frames, thumbnail: thumbnail).write(to: folder.appendingPathComponent("sheet.png"))
    }
}

/// What one variant wrote beside its frame.
struct VariantRecord: Codable {
    var variant: Int
    /// `[path, value]` pairs, in parameter order.
    var parameters: [[String]]
    var faces: [FaceLightingData]
}

private func csvField(_ s: String) -> String {
    s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
}

/// Progress and the first error, shared by the workers.
private final class SweepState: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private(set) var error: Error?
    var failed: Bool { lock.withLock { error != nil } }
    func finishOne() -> Int { lock.withLock { done += 1; return done } }
    func fail(_ e: Error) { lock.withLock { if error == nil { error = e } } }
}
