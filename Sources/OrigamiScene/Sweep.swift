import Dispatch
import Foundation
import Origami
import OrigamiRender

/// A sweep over scene parameters, lighting fields and time: the cartesian grid of its parameters' values (or,
/// zipped, their n-th values together), each variant rendered from the same decoded scene, with the per-face
/// lighting data of every variant.
///
/// The scene file is decoded once, into a `SceneDescription`; each variant is that description with its
/// parameter values set (`SceneDescription.setting(_:)`, from the parsed file) and the lighting it varies
/// replaced, instantiated into its own layer tree. Variants are numbered from 1; in a grid the last parameter
/// varies fastest. Every variant writes `frames/variant-NNNN.png` and `.json` (its parameters, its
/// `FaceLightingData` rows and the digest of the plan it belongs to) into the output folder, beside the sweep's
/// `manifest.json` (see `SweepFolder`), so a batch system can render shards anywhere and `merge` assembles
/// `sheet.png`, `lighting.csv`, `lighting.json` and `plots/` from them. Memory stays flat: a worker holds one frame
/// at a time.
public struct Sweep: Sendable {
    /// How the parameters' values combine into variants.
    public enum Combination: String, Codable, Hashable, Sendable {
        /// Every combination (the cartesian product).
        case grid
        /// The n-th values of every parameter together (all parameters have as many values).
        case zip
    }

    /// The decoded scene every variant is instantiated from.
    public let scene: SceneDescription
    /// The parameters varied, in the order given.
    public let parameters: [SweepParameter]
    /// How the parameters' values are combined into variants.
    public let combination: Combination
    /// How many variants the sweep renders.
    public let variantCount: Int
    /// Where each lighting parameter's lit layer is in `scene` (`nil` for scene parameters and time).
    private let targets: [LayerAddress?]

    /// The scene file and its images: no output of the sweep may replace them.
    public var protectedFiles: [ProtectedFile] { scene.protectedFiles }

    /// The scene file, when the scene was read from one.
    public var sceneURL: URL? { scene.url }

    /// Reads the scene file (once) and checks the parameters against it; see `init(scene:parameters:maxVariants:)`.
    public init(scene url: URL, parameters: [SweepParameter], combination: Combination = .grid,
                maxVariants: Int = 10_000, limits: SceneLimits = .default) throws {
        try self.init(scene: SceneDescription.load(contentsOf: url, limits: limits), parameters: parameters,
                      combination: combination, maxVariants: maxVariants)
    }

    /// Checks the parameters against the scene (the lit layers they name exist, light indices are in range)
    /// and the grid's size against `maxVariants`. Without parameters, the scene's `sweep:` section is used.
    public init(scene: SceneDescription, parameters: [SweepParameter], combination: Combination = .grid,
                maxVariants: Int = 10_000) throws {
        let parameters = parameters.isEmpty ? scene.sweep : parameters
        guard !parameters.isEmpty else {
            throw SweepError("nothing to vary", hint: "pass --vary PATH=VALUES or add a `sweep:` section to the scene")
        }
        var seen: Set<String> = []
        for p in parameters where !seen.insert(p.path).inserted {
            throw SweepError("`\(p.path)` is varied twice", hint: "give all its values in one --vary")
        }
        var count = 1
        var targets: [LayerAddress?] = []
        switch combination {
        case .grid:
            for p in parameters {
                let (product, overflow) = count.multipliedReportingOverflow(by: p.values.count)
                guard !overflow, product <= maxVariants else {
                    throw SweepError("the sweep has more than \(maxVariants) variants", hint: "vary fewer values, or raise the limit")
                }
                count = product
            }
        case .zip:
            count = parameters[0].values.count
            if let other = parameters.first(where: { $0.values.count != count }) {
                throw SweepError("--zip varies parameters together, but `\(parameters[0].path)` has \(count) values and `\(other.path)` has \(other.values.count)",
                                 hint: "give every varied parameter as many values, or drop --zip for a grid")
            }
            guard count <= maxVariants else {
                throw SweepError("the sweep has more than \(maxVariants) variants", hint: "vary fewer values, or raise the limit")
            }
        }
        for p in parameters {
            guard p.isLighting else {
                if let name = p.sceneParameterName {
                    do { _ = try scene.parameter(named: name) } catch { throw SweepError(error.message, hint: error.hint) }
                }
                targets.append(nil)
                continue
            }
            let (address, found) = try Self.litLayer(for: p, in: scene)
            var lighting = found
            try p.apply(p.values[0], to: &lighting)
            targets.append(address)
        }
        self.scene = scene; self.parameters = parameters; self.combination = combination
        self.variantCount = count; self.targets = targets
    }

    /// The values of variant `number` (1-based), one per parameter.
    public func values(ofVariant number: Int) -> [SweepParameter.Value] {
        if combination == .zip { return parameters.map { $0.values[number - 1] } }
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

    /// `variant-0007`: zero-padded to the digits of the variant count, at least 4, so names sort in variant order.
    public func frameName(_ number: Int) -> String {
        let digits = String(number)
        let width = max(4, String(variantCount).count)
        return "variant-" + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Checks, before anything is rendered, that each frame and the contact sheet stay within the render
    /// limits with these options, naming the command-line options that change their size.
    public func checkSizes(options: RenderOptions, thumbnail: Int) throws(SweepError) {
        let frame: (width: Int, height: Int)
        do { frame = try scene.frameSize(options: options) } catch { throw SweepError(error.message, hint: error.hint) }
        let layout = ContactSheet.Layout(sweep: self, thumbnail: thumbnail, frame: frame)
        let limits = RenderLimits.default
        // The sheet is rendered a band at a time (see `ContactSheet.write`): its width is a canvas's, its height
        // is bounded by `ContactSheet.maxHeight`, which the layout shrinks thumbnails to meet.
        let (width, height) = layout.pixelSize
        guard width > limits.maxCanvasSide || height > ContactSheet.maxHeight else { return }
        throw SweepError("the contact sheet would be \(width)×\(height) pixels even with the smallest thumbnails, over the limit of \(limits.maxCanvasSide) pixels wide and \(ContactSheet.maxHeight) tall",
                         hint: "vary fewer values")
    }

    /// The lit layer a parameter refers to (found in the order of the layer tree, faces before a solid's own
    /// sublayers) and its lighting.
    static func litLayer(for p: SweepParameter, in scene: SceneDescription) throws(SweepError) -> (LayerAddress, Lighting) {
        let lit = scene.litLayers()
        let candidates = p.layerName.map { name in lit.filter { $0.name == name } } ?? lit
        guard let found = candidates.first else {
            if let name = p.layerName { throw SweepError("no lit layer named `\(name)` for `\(p.path)`") }
            throw SweepError("the scene has no layer with `lighting` to vary")
        }
        guard candidates.count == 1 else {
            throw SweepError("several layers are lit", hint: "prefix the layer's name: `\(lit.compactMap(\.name).first ?? "container").\(p.path)`")
        }
        return (found.address, found.lighting)
    }

    /// The scene time of variant `number`, when the sweep varies `time`.
    public func time(ofVariant number: Int) -> Double? {
        for (p, v) in zip(parameters, values(ofVariant: number)) {
            if case .time = p.field, case let .number(t) = v { return t }
        }
        return nil
    }

    /// The scene of variant `number`: the sweep's scene with its scene parameters set and each lighting
    /// parameter's value set on its lit layer.
    public func scene(ofVariant number: Int) throws(SweepError) -> SceneDescription {
        let values = values(ofVariant: number)
        var settings: [String: Double] = [:]
        for (p, v) in zip(parameters, values) {
            if let name = p.sceneParameterName, case let .number(x) = v { settings[name] = x }
        }
        var d: SceneDescription
        do {
            d = try scene.setting(settings)
        } catch let error as SceneError {
            throw SweepError("variant \(number) (\(label(ofVariant: number).replacingOccurrences(of: "\n", with: ", "))) is not a valid scene: \(error.description)")
        } catch let error as ParameterError {
            throw SweepError(error.message, hint: error.hint)
        } catch {
            throw SweepError("\(error)")
        }
        for ((p, v), target) in zip(zip(parameters, values), targets) {
            guard let address = target else { continue }
            guard var lighting = d.lighting(at: address) else { throw SweepError("`\(p.path)` names no lit layer") }
            try p.apply(v, to: &lighting)
            d.setLighting(lighting, at: address)
        }
        return d
    }

    /// The variants shard `index` of `count` (1-based) renders: every `count`-th, starting at `index`.
    public func variants(shard: (index: Int, count: Int)?) -> [Int] {
        guard let shard else { return Array(1...variantCount) }
        return Array(stride(from: shard.index, through: variantCount, by: shard.count))
    }

    /// Renders `variants` into `folder`'s frames on `jobs` threads, each frame recording `folder`'s plan (which
    /// should be the plan of this sweep with `options`); `progress` is called after each variant (from any
    /// thread) with the number done so far.
    public func render(variants: [Int], into folder: SweepFolder, options: RenderOptions, jobs: Int,
                       progress: @escaping @Sendable (Int) -> Void = { _ in }) throws {
        let frames = folder.frames
        let plan = folder.plan.digest
        let state = SweepState()
        let workers = max(1, min(jobs, variants.count))
        let writer = SweepFileWriter(threads: 2 * workers, capacity: 4 * workers, state: state)
        // Each worker claims the next variant when it is free rather than taking every `workers`-th: the writers
        // and the kernel take turns on the same cores, and a fixed share would leave one worker with the tail.
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            do {
                while let i = state.claim(below: variants.count) {
                    let number = variants[i]
                    let scene = try scene(ofVariant: number).instantiate()
                    let time = time(ofVariant: number)
                    let image = try Renderer.render(scene.root, size: scene.canvas.size, options: options, time: time)
                    let png = try image.data(format: .png)
                    let record = VariantRecord(
                        variant: number, plan: plan,
                        parameters: zip(parameters, values(ofVariant: number)).map { [$0.path, $1.description] },
                        faces: try lightingRows(scene, time: time))
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    let json = try encoder.encode(record)
                    let base = frames.appendingPathComponent(frameName(number))
                    writer.submit {
                        try write(png, to: base.appendingPathExtension("png"))
                        try write(json, to: base.appendingPathExtension("json"))
                        progress(state.finishOne())
                    }
                }
            } catch {
                state.fail(error)
            }
        }
        writer.finish()
        if let error = state.error { throw error }
    }

    /// Every file the sweep writes goes through `WritableDestination`.
    private func write(_ data: Data, to url: URL) throws {
        try WritableDestination(url, protecting: protectedFiles).write(data)
    }

    /// Every lit layer's lighting data, at `time` of the scene (each lit layer's parent's time converted from it)
    /// when the variant has one.
    private func lightingRows(_ scene: Scene, time: Double?) throws -> [FaceLightingData] {
        var rows: [FaceLightingData] = []
        for layer in scene.root.subtree where layer.lighting is Lighting {
            let local = time.map { t in layer.superlayer?.convertTime(t, from: nil) ?? t }
            rows += try layer.lightingReport(time: local)
        }
        return rows
    }

    /// Assembles `sheet.png`, `lighting.csv`, `lighting.json` and `plots/` in `folder` from every variant's frame
    /// and data.
    /// Throws, naming the missing variants, when some shard has not been rendered yet, and naming the first frame
    /// that does not belong to `folder`'s plan (or cannot be read). Memory stays flat in the number of variants:
    /// the records are streamed into the CSV and JSON, and the sheet is rendered a band at a time. Returns a
    /// note when the sheet could not be laid out as asked (see `ContactSheet.Layout.note`).
    @discardableResult
    public func merge(in folder: SweepFolder, thumbnail: Int = 256) throws -> String? {
        let frames = folder.frames
        let missing = (1...variantCount).filter { n in
            ["json", "png"].contains {
                !FileManager.default.fileExists(atPath: frames.appendingPathComponent(frameName(n) + "." + $0).path)
            }
        }
        guard missing.isEmpty else {
            let list = missing.prefix(5).map(String.init).joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
            throw SweepError("\(missing.count) of \(variantCount) variants are not rendered yet (\(list))",
                             hint: "run every shard before --merge")
        }
        // Two passes over the records, holding one at a time: the first checks them all (so nothing is written
        // for a folder with a foreign frame) and finds the CSV's light columns, the second streams the rows.
        // The plots keep only what they draw of each record.
        var lightCount = 0
        var plotted: [PlotRecord] = []
        plotted.reserveCapacity(variantCount)
        for n in 1...variantCount {
            let record = try readRecord(n, in: folder)
            lightCount = max(lightCount, record.faces.map(\.lights.count).max() ?? 0)
            plotted.append(record.plotted)
        }
        let csvFile = try WritableDestination(folder.url.appendingPathComponent("lighting.csv"), protecting: protectedFiles).open()
        let jsonFile = try WritableDestination(folder.url.appendingPathComponent("lighting.json"), protecting: protectedFiles).open()
        do {
            // CSV: the variant and its parameters, then one row per face.
            try csvFile.write(Data(((["variant"] + parameters.map(\.path)).map(csvField).joined(separator: ",") + ","
                + FaceLightingData.csvHeader(lightCount: lightCount) + "\n").utf8))
            // JSON: the array `JSONEncoder` would write for all the records, one pretty-printed record at a time.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try jsonFile.write(Data("[\n".utf8))
            for n in 1...variantCount {
                let r = try readRecord(n, in: folder)
                let prefix = ([String(r.variant)] + r.parameters.map { $0[1] }).map(csvField).joined(separator: ",")
                try csvFile.write(Data(r.faces.map { prefix + "," + $0.csvRow + "\n" }.joined().utf8))
                let text = String(decoding: try encoder.encode(r), as: UTF8.self)
                let indented = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n")
                try jsonFile.write(Data((indented + (n < variantCount ? ",\n" : "\n")).utf8))
            }
            try jsonFile.write(Data("]".utf8))
            try csvFile.commit()
            try jsonFile.commit()
        } catch {
            csvFile.discard(); jsonFile.discard()
            throw error
        }
        let sheetNote = try ContactSheet(sweep: self, frames: frames, thumbnail: thumbnail).write(to: folder.url.appendingPathComponent("sheet.png"))
        try SweepPlots(sweep: self, records: plotted).write(into: folder.url)
        return sheetNote
    }

    /// The record of variant `n` in `folder`, checked against its plan.
    private func readRecord(_ n: Int, in folder: SweepFolder) throws -> VariantRecord {
        let name = "frames/" + frameName(n) + ".json"
        let record: VariantRecord
        do {
            let data = try Data(contentsOf: folder.frames.appendingPathComponent(frameName(n) + ".json"))
            record = try JSONDecoder().decode(VariantRecord.self, from: data)
        } catch let error as DecodingError {
            throw SweepError("\(name) cannot be read: \(Self.reason(error))",
                             hint: "render its variant again (--shard, or the whole sweep with --force)")
        } catch let error as SweepError {
            throw error
        } catch {
            throw SweepError("\(name) cannot be read: \(error.localizedDescription)")
        }
        try check(record, variant: n, named: name, against: folder.plan)
        return record
    }

    /// Refuses a frame record, read from the frame of variant `number`, that belongs to another plan, another
    /// variant or other parameter values.
    private func check(_ record: VariantRecord, variant number: Int, named name: String,
                       against plan: SweepPlan) throws(SweepError) {
        let hint = "render its variant again, or the whole sweep with --force"
        guard let recorded = record.plan else {
            throw SweepError("\(name) records no sweep plan (made by an older origami)", hint: hint)
        }
        guard recorded == plan.digest else {
            throw SweepError("\(name) belongs to another sweep (plan \(recorded.prefix(12)), this sweep's plan is \(plan.digest.prefix(12)))",
                             hint: hint)
        }
        let expected = zip(parameters, values(ofVariant: number)).map { [$0.path, $1.description] }
        guard record.variant == number, record.parameters == expected else {
            throw SweepError("\(name) records variant \(record.variant) with "
                             + record.parameters.map { $0.joined(separator: "=") }.joined(separator: ", ")
                             + ", not variant \(number) with " + expected.map { $0.joined(separator: "=") }.joined(separator: ", "),
                             hint: hint)
        }
    }

    /// A decoding error in a sentence: what is wrong, and where in the file.
    static func reason(_ error: DecodingError) -> String {
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "" : " at `\(path.hasPrefix(".") ? String(path.dropFirst()) : path)`"
        }
        switch error {
        case let .keyNotFound(key, context): return "the key `\(key.stringValue)` is missing" + at(context)
        case let .typeMismatch(type, context): return "expected \(type)" + at(context)
        case let .valueNotFound(type, context): return "expected \(type), found null" + at(context)
        case let .dataCorrupted(context): return "not valid JSON" + at(context)
        @unknown default: return "not a frame record"
        }
    }
}

/// What one variant wrote beside its frame.
struct VariantRecord: Codable {
    var variant: Int
    /// The digest of the plan the frame was rendered for (`nil` in frames from before manifests).
    var plan: String?
    /// `[path, value]` pairs, in parameter order.
    var parameters: [[String]]
    var faces: [FaceLightingData]

    /// What the plots draw of this record.
    var plotted: PlotRecord { PlotRecord(variant: variant, faces: faces.map(PlotFace.init)) }
}

func csvField(_ s: String) -> String {
    s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
}

/// The next variant to render, progress and the first error, shared by the workers.
private final class SweepState: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = 0
    private var done = 0
    private(set) var error: Error?
    var failed: Bool { lock.withLock { error != nil } }
    /// The next index below `count` to render, in order; `nil` when there is none or a worker has failed.
    func claim(below count: Int) -> Int? {
        lock.withLock {
            guard error == nil, claimed < count else { return nil }
            claimed += 1
            return claimed - 1
        }
    }
    func finishOne() -> Int { lock.withLock { done += 1; return done } }
    func fail(_ e: Error) { lock.withLock { if error == nil { error = e } } }
}

/// Writes the rendered variants' files on threads of their own, so the renderers go on to the next variant.
///
/// Every file is synced before it is renamed into place (`WritableDestination`), and a sync waits for the disk
/// without using a core: on the rendering threads those waits left the cores idle (200 variants of 300² frames
/// spent 0.16 s of a 0.43 s `--jobs 1` run in 401 `fsync`s, and `--jobs 2` kept 1.15–1.3 cores busy). Writers
/// sync side by side, so the file system can commit their syncs together: the sweep gives each renderer two
/// writers, since a variant's two files take two syncs (≈ 0.4 ms each on ext4 here) and one writer per renderer
/// fell behind a 300² frame's rendering (200 variants: `--jobs 2` 0.26–0.35 s with one, 0.22–0.25 s with two). A
/// waiting writer costs no core. At most `capacity` variants wait to be written: a slow disk holds the renderers
/// back instead of letting encoded frames pile up in memory.
private final class SweepFileWriter: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [@Sendable () throws -> Void] = []
    private var closed = false
    private let capacity: Int
    private let state: SweepState
    private let group = DispatchGroup()

    init(threads: Int, capacity: Int, state: SweepState) {
        self.capacity = max(1, capacity)
        self.state = state
        for _ in 0..<max(1, threads) {
            group.enter()
            Thread { [self] in
                defer { group.leave() }
                run()
            }.start()
        }
    }

    /// Queues `job` (one variant's writes), first waiting while `capacity` jobs are queued.
    func submit(_ job: @escaping @Sendable () throws -> Void) {
        condition.lock()
        while pending.count >= capacity { condition.wait() }
        pending.append(job)
        condition.broadcast()
        condition.unlock()
    }

    /// Runs queued jobs until `finish` and the queue is empty. Once a job has failed the rest are dropped
    /// (still taken off the queue, so no renderer waits for room forever).
    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty && !closed { condition.wait() }
            guard !pending.isEmpty else {
                condition.unlock()
                return
            }
            let job = pending.removeFirst()
            condition.broadcast()
            condition.unlock()
            guard !state.failed else { continue }
            do { try job() } catch { state.fail(error) }
        }
    }

    /// Waits until every queued job has been run (or dropped after an error) and the threads have ended.
    func finish() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
        group.wait()
    }
}
