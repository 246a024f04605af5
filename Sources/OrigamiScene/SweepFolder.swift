import Foundation
import Origami
import OrigamiRender
#if canImport(Glibc)
import Glibc
#endif

/// What a sweep renders and how: the scene's digest, the parameter grid and the render options, written to the
/// output folder as `manifest.json`. Its `digest` is recorded in every frame, so frames from another sweep are
/// recognised (by reruns, by `--merge`) however they got into the folder.
public struct SweepPlan: Codable, Hashable, Sendable {
    /// One varied parameter as the manifest records it: its path and its values as text.
    public struct Parameter: Codable, Hashable, Sendable {
        /// As written: `container.light[1].direction`.
        public var path: String
        /// Each value as text, in order.
        public var values: [String]
    }

    /// The render options every frame of the sweep is rendered with.
    public struct Render: Codable, Hashable, Sendable {
        /// Pixels per point.
        public var scale: Double
        /// Each pixel is the average of `supersample × supersample` samples (1: none).
        public var supersample: Int
        /// `#rrggbb(aa)`, or `nil` for a transparent canvas.
        public var background: String?
        /// Whether edges shared by faces are sealed (`RenderOptions.sealsEdges`).
        public var sealsEdges: Bool
        /// `none` for hard edges; absent (antialiased) in plans written before the option existed.
        public var antialias: String?
        /// `fast`, `balanced` or `smallest` (`PNGCompression`).
        public var pngCompression: String
    }

    /// The version of origami recorded in manifests (a new version may render differently, so it is part of
    /// the plan).
    public static let toolVersion = "0.1.0"

    /// The program that wrote the plan: `origami`.
    public var tool = "origami"
    /// The version of `tool` that wrote the plan.
    public var toolVersion = SweepPlan.toolVersion
    /// The scene file as it was named.
    public var scene: String
    /// SHA-256 of the scene file's text.
    public var sceneSHA256: String
    /// The parameters varied, in order.
    public var parameters: [Parameter]
    /// The scene parameters `--set` gave other values than their defaults (`nil` when none).
    public var settings: [String: Double]?
    /// `grid` or `zip` (`nil` in manifests from before `--zip`: a grid).
    public var combination: String?
    /// How many variants the plan renders.
    public var variantCount: Int
    /// How every frame is rendered.
    public var render: Render
    /// SHA-256 of everything above but the scene's name, at full precision.
    public var digest: String

    /// The plan of `sweep` rendered with `options`.
    public init(sweep: Sweep, options: RenderOptions) {
        scene = sweep.scene.file
        sceneSHA256 = SHA256.hex(sweep.scene.source.utf8)
        parameters = sweep.parameters.map { Parameter(path: $0.path, values: $0.values.map(\.description)) }
        combination = sweep.combination.rawValue
        let changed = sweep.scene.parameters.filter { sweep.scene.parameterValues[$0.name] != $0.defaultValue }
        settings = changed.isEmpty ? nil
            : Dictionary(uniqueKeysWithValues: changed.map { ($0.name, sweep.scene.parameterValues[$0.name] ?? $0.defaultValue) })
        variantCount = sweep.variantCount
        render = Render(scale: options.scale, supersample: options.supersample,
                        background: options.background?.description, sealsEdges: options.sealsEdges,
                        antialias: options.antialias == .gray ? nil : options.antialias.rawValue,
                        pngCompression: options.pngCompression.rawValue)
        var text = "origami sweep plan\ntool \(toolVersion)\nscene \(sceneSHA256)\nvariants \(variantCount)\n"
        // A grid's text is as before `--zip` existed, so its digest (and older frames) stay valid.
        if sweep.combination != .grid { text += "combination \(sweep.combination.rawValue)\n" }
        for (name, value) in (settings ?? [:]).sorted(by: { $0.key < $1.key }) { text += "set \(name) \(value)\n" }
        for p in sweep.parameters { text += "parameter \(p.path): " + p.values.map(\.canonical).joined(separator: " | ") + "\n" }
        let background = options.background.map { "\($0.red) \($0.green) \($0.blue) \($0.alpha)" } ?? "none"
        text += "render scale \(options.scale) supersample \(options.supersample) background \(background) "
            + "seals \(options.sealsEdges) png \(options.pngCompression.rawValue)"
            // Only when not the default, so the digests of earlier plans stay valid.
            + (options.antialias == .gray ? "" : " antialias \(options.antialias.rawValue)") + "\n"
        digest = SHA256.hex(text.utf8)
    }

    /// `ambient=0.2,0.5 light.direction=(0, 1, -0.5),(1, 0, 0)`.
    var parameterText: String {
        parameters.map { "\($0.path)=\($0.values.joined(separator: ","))" }.joined(separator: " ")
            + (combination == "zip" ? " (zipped)" : "")
            + (settings ?? [:]).sorted(by: { $0.key < $1.key }).map { " --set \($0.key)=\(format($0.value))" }.joined()
    }

    /// `scene.yaml varying ambient, light.direction: 9 variants`.
    var summary: String {
        "\(scene) varying \(parameters.map(\.path).joined(separator: ", ")): \(variantCount) variants"
    }
}

/// A sweep's output folder, held for one plan: `manifest.json`, `frames/`, and the merged outputs.
///
/// While a sweep uses the folder it holds a shared `flock` on `.origami-sweep.lock` in it, so shards of one
/// plan may run at once while a sweep of another plan is refused. Claims are serialised by an exclusive `flock`
/// on the folder itself, held only while the folder is checked. The kernel releases both when the process ends,
/// however it ends.
public final class SweepFolder {
    /// The folder.
    public let url: URL
    /// The plan the folder holds frames of.
    public let plan: SweepPlan
    private let lock: Int32

    /// The plan's file in the folder.
    public static let manifestName = "manifest.json"
    /// The lock file a sweep holds a shared `flock` on while it uses the folder.
    public static let lockName = ".origami-sweep.lock"
    /// What a sweep writes besides its frames (and so what `--force` clears).
    static let mergedOutputs = ["sheet.png", "lighting.csv", "lighting.json", manifestName]

    /// Where the frames are: `frames/` in the folder.
    public var frames: URL { url.appendingPathComponent("frames") }

    private init(url: URL, plan: SweepPlan, lock: Int32) {
        self.url = url; self.plan = plan; self.lock = lock
    }

    deinit { close(lock) }

    /// Claims `url` for rendering `plan`: refuses a folder that holds another sweep's outputs (or, with `force`,
    /// clears them first) and one that another sweep is writing into; writes the manifest.
    /// `protecting`: the scene's own files, which are neither cleared by `force` nor written over.
    public static func claim(_ url: URL, for plan: SweepPlan, force: Bool,
                             protecting protected: [ProtectedFile] = []) throws -> SweepFolder {
        // Before anything is created in the folder (its lock, `frames/`).
        try refuseInputs(among: ownedFiles(url), protected)
        do {
            try FileManager.default.createDirectory(at: url.appendingPathComponent("frames"), withIntermediateDirectories: true)
        } catch {
            throw SweepError("cannot create the output folder \(url.path)")
        }
        return try hold(url, plan: plan) {
            try prepare(url, for: plan, force: force, protecting: protected)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let manifest = url.appendingPathComponent(manifestName)
            do { try WritableDestination(manifest, protecting: []).write(encoder.encode(plan)) } catch {
                throw SweepError("cannot write \(manifest.path): \(error)")
            }
        }
    }

    /// Opens `url` to merge `sweep`: its manifest must describe the same scene and parameters.
    public static func openForMerge(_ url: URL, sweep: Sweep) throws -> SweepFolder {
        let plan: SweepPlan
        switch readManifest(url) {
        case .missing:
            throw SweepError("\(url.path) holds no sweep (no \(manifestName))", hint: "render the sweep (or its shards) into it first")
        case let .unreadable(reason):
            throw SweepError("\(url.appendingPathComponent(manifestName).path) cannot be read: \(reason)")
        case let .plan(p): plan = p
        }
        let ours = SweepPlan(sweep: sweep, options: RenderOptions())
        guard plan.sceneSHA256 == ours.sceneSHA256 else {
            throw SweepError("\(url.path) holds a sweep of another scene (\(plan.scene), SHA-256 \(plan.sceneSHA256.prefix(12))); "
                             + "this scene's SHA-256 is \(ours.sceneSHA256.prefix(12))",
                             hint: "run --merge with the scene the shards rendered")
        }
        guard plan.parameters == ours.parameters, (plan.combination ?? "grid") == ours.combination,
              plan.settings == ours.settings else {
            throw SweepError("\(url.path) holds a sweep of other parameters (\(plan.parameterText)); this sweep varies \(ours.parameterText)",
                             hint: "run --merge with the --vary, --zip and --set the shards used")
        }
        return try hold(url, plan: plan) {}
    }

    /// Takes the folder's lock for `plan`: when no sweep holds it, after `whenFree` has checked and prepared the
    /// folder; when sweeps of the same plan hold it, alongside them; otherwise not at all.
    private static func hold(_ url: URL, plan: SweepPlan, whenFree: () throws -> Void) throws -> SweepFolder {
        let folder = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw SweepError("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        defer { close(folder) }
        try lockFile(folder, LOCK_EX, url)
        let path = url.appendingPathComponent(lockName).path
        let lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw SweepError("cannot open the lock file \(path): \(String(cString: strerror(errno)))") }
        do {
            if try tryLock(lock, LOCK_EX, url) {
                try whenFree()
                try lockFile(lock, LOCK_SH, url)
            } else {
                let other: SweepPlan?
                if case let .plan(p) = readManifest(url) { other = p } else { other = nil }
                guard let other, other.digest == plan.digest, try tryLock(lock, LOCK_SH, url) else {
                    throw SweepError("another sweep is writing into \(url.path)" + (other.map { " (\($0.summary))" } ?? ""),
                                     hint: "wait for it to finish, or choose another --output folder (shards of one sweep may run at once)")
                }
            }
        } catch {
            close(lock)
            throw error
        }
        return SweepFolder(url: url, plan: plan, lock: lock)
    }

    private static func lockFile(_ fd: Int32, _ operation: Int32, _ url: URL) throws {
        while flock(fd, operation) != 0 {
            guard errno == EINTR else { throw SweepError("cannot lock \(url.path): \(String(cString: strerror(errno)))") }
        }
    }

    /// `false` when another process holds a conflicting lock.
    private static func tryLock(_ fd: Int32, _ operation: Int32, _ url: URL) throws -> Bool {
        while flock(fd, operation | LOCK_NB) != 0 {
            if errno == EWOULDBLOCK { return false }
            guard errno == EINTR else { throw SweepError("cannot lock \(url.path): \(String(cString: strerror(errno)))") }
        }
        return true
    }

    /// Leaves a folder that holds this plan's frames as it is; refuses (or with `force` clears) one holding
    /// another sweep's outputs.
    private static func prepare(_ url: URL, for plan: SweepPlan, force: Bool, protecting protected: [ProtectedFile]) throws {
        let owned = ownedFiles(url)
        try refuseInputs(among: owned, protected)
        let existing = readManifest(url)
        if case let .plan(p) = existing, p.digest == plan.digest { return }
        guard !owned.isEmpty else { return }
        guard force else {
            let frameCount = owned.filter { $0.deletingLastPathComponent().lastPathComponent == "frames" }.count
            let what: String
            switch existing {
            case let .plan(p): what = p.summary
            case .missing: what = "no \(manifestName)"
            case .unreadable: what = "an unreadable \(manifestName)"
            }
            throw SweepError("\(url.path) holds another sweep (\(what); \(frameCount) frame files)",
                             hint: "pass --force to clear its frames and outputs first, or choose another --output folder")
        }
        for file in owned {
            do { try FileManager.default.removeItem(at: file) } catch {
                throw SweepError("cannot clear \(file.path): \(error.localizedDescription)")
            }
        }
    }

    /// A file with an output's name that is the scene itself (or an image it reads) is never cleared or replaced.
    private static func refuseInputs(among files: [URL], _ protected: [ProtectedFile]) throws {
        for file in files { _ = try WritableDestination(file, protecting: protected) }
    }

    /// The files a sweep writes that are in `url`: frames (`variant-<digits>.png/.json`), merged outputs and
    /// plots.
    static func ownedFiles(_ url: URL) -> [URL] {
        let frames = url.appendingPathComponent("frames")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: frames.path)) ?? []
        let frameFiles = names.sorted().filter { name in
            guard name.hasPrefix("variant-") else { return false }
            let stem = name.hasSuffix(".png") ? name.dropLast(4) : name.hasSuffix(".json") ? name.dropLast(5) : nil
            guard let digits = stem?.dropFirst("variant-".count) else { return false }
            return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
        }.map { frames.appendingPathComponent($0) }
        let merged = mergedOutputs.map { url.appendingPathComponent($0) }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        let plots = url.appendingPathComponent("plots")
        let plotFiles = ((try? FileManager.default.contentsOfDirectory(atPath: plots.path)) ?? []).sorted()
            .filter { name in [".png", ".svg", ".csv"].contains { name.hasSuffix($0) } && !name.hasPrefix(".") }
            .map { plots.appendingPathComponent($0) }
        return frameFiles + merged + plotFiles
    }

    enum Manifest { case missing, unreadable(String), plan(SweepPlan) }

    static func readManifest(_ url: URL) -> Manifest {
        let file = url.appendingPathComponent(manifestName)
        guard FileManager.default.fileExists(atPath: file.path) else { return .missing }
        do {
            return .plan(try JSONDecoder().decode(SweepPlan.self, from: Data(contentsOf: file)))
        } catch let error as DecodingError {
            return .unreadable(Sweep.reason(error))
        } catch {
            return .unreadable(error.localizedDescription)
        }
    }
}

extension SweepPlan {
    /// The render options the plan records (what `--merge` checks the contact sheet's size with).
    public var renderOptions: RenderOptions {
        RenderOptions(scale: render.scale, supersample: render.supersample,
                      background: render.background.flatMap(Color.init(parsing:)), sealsEdges: render.sealsEdges,
                      antialias: render.antialias.flatMap(Antialias.init(rawValue:)) ?? .gray, pngCompression: PNGCompression(rawValue: render.pngCompression) ?? .fast)
    }
}
