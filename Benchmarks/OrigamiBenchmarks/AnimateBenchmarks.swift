import Foundation
import Origami
import OrigamiRender
import OrigamiScene

/// `origami animate`'s work: `Models/turntable.yaml` (the book's lit cube with its digit faces turning about y,
/// a `transform.rotation.y` animation; 400×400, and 1024×1024 at scale 2.56; issues 15 and 20), each frame the
/// presentation at its time, rendered through `FramePipeline` on every core against a serial loop, and the GIF
/// encoder's share of the time.
enum AnimateBenchmarks {
    static let frames = 120

    /// One thread's turntable: its own layer tree, instantiated from the decoded scene as `animate` does.
    struct Turntable {
        let scene: Scene
        let options: RenderOptions
        /// One turn, spread over `AnimateBenchmarks.frames` frames.
        let period: Double

        init(_ description: SceneDescription, scale: Double = 1) throws {
            scene = try description.instantiate()
            guard let end = scene.root.animationEndTime() else { throw BenchError("turntable.yaml does not animate") }
            period = end
            options = RenderOptions(scale: scale, background: scene.canvas.background)
        }

        func frame(_ i: Int) throws -> Bitmap {
            let image = try Renderer.render(scene.root, size: scene.canvas.size, options: options,
                                            time: period * Double(i) / Double(AnimateBenchmarks.frames))
            guard let bitmap = image.bitmap else { throw BenchError("empty frame") }
            return bitmap
        }
    }

    static func pipeline<T: Sendable>(_ description: SceneDescription, jobs: Int, scale: Double = 1,
                                      prepare: @escaping @Sendable (Bitmap) throws -> T,
                                      deliver: (Int, T) throws -> Void) throws {
        // The window `SceneDescription.renderFrames` gives: 256 MiB ÷ 8 bytes a pixel, at most 64 (64 at 400²,
        // 32 at 1024²).
        let window = min(64, max(2 * jobs, (256 << 20) / (8 * Int(400 * scale) * Int(400 * scale))))
        try FramePipeline.run(count: frames, jobs: jobs, window: window,
                              makeWorker: { try Turntable(description, scale: scale) },
                              render: { t, i in try prepare(t.frame(i)) }, deliver: deliver)
    }

    /// Run last: it tunes the process's allocator as `origami animate` does (`keepLargeBuffersInTheHeap`).
    static func run(_ h: Harness, models: String) throws {
        FramePipeline.keepLargeBuffersInTheHeap()
        let group = "animate"
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let description = try SceneDescription.load(contentsOf: URL(fileURLWithPath: models).appendingPathComponent("turntable.yaml"))
        let serial = try Turntable(description)
        var sum: UInt64 = 0
        func checksum(_ frame: Bitmap) { sum = sum &* 31 &+ UInt64(frame.pixels[frame.pixels.count / 2]) }

        // One turn in the same 120 frames at both sizes (`origami animate` renders it in 180, at 30 fps). At 1024² it was
        // 48 frames: a run's fixed part on two threads (starting the second, its own layer tree, the last frame
        // with one thread idle; ≈ 1 ms) was 3–4 % of so short a run, 1.76–1.85× where 192 frames read 1.86–1.91×.
        for (side, scale) in [(400, 1.0), (1024, 2.56)] {
            let turntable = "turntable \(frames) frames \(side)², FramePipeline on \(cores) cores"
            try h.rowOnEveryCore(group, turntable, baseline: "the same frames in a serial loop",
                                 target: "≤ 0.56× (≥ 1.8× on 2 cores)", threads: cores) {
                try pipeline(description, jobs: cores, scale: scale, prepare: { $0 }) { _, f in checksum(f) }
            } against: {
                // Like for like: `--jobs 1` instantiates its one layer tree too.
                let own = try Turntable(description, scale: scale)
                for i in 0..<frames { checksum(try own.frame(i)) }
            }
            annotate(h, turntable) { String(format: "%.1f fps against %.1f fps serial: %.2f× faster; ", fps($0.median),
                                            fps($0.baselineMedian), seconds($0.baselineMedian) / seconds($0.median)) + $0.note }
        }

        // The encoder alone: quantizing and LZW-compressing the frames, against rendering them.
        let rendered = try (0..<frames).map { try serial.frame($0) }
        let gif = FileManager.default.temporaryDirectory.appendingPathComponent("origami-bench-\(getpid()).gif")
        defer { try? FileManager.default.removeItem(at: gif) }
        let encoding = "GIF encoding of the \(frames) turntable frames (median cut + giflib), one thread"
        try h.row(group, encoding, baseline: "rendering them, serially", samples: 5) {
            try encode(rendered, to: gif)
        } against: {
            for i in 0..<frames { checksum(try serial.frame(i)) }
        }
        annotate(h, encoding) { String(format: "the encoder's share of serial animate work: %.0f%%; %.1f ms a frame",
                                       100 * seconds($0.median) / (seconds($0.median) + seconds($0.baselineMedian)),
                                       1000 * seconds($0.median) / Double(frames)) }

        let endToEnd = "turntable → GIF on \(cores) cores (what `origami animate` does)"
        try h.row(group, endToEnd, baseline: "the same render on \(cores) cores, frames discarded", samples: 5) {
            // Quantizing on the rendering threads, LZW in order on this one, as `origami animate` does.
            let writer = try GIFWriter(destination: WritableDestination(gif), width: 400, height: 400, fps: 24)
            try pipeline(description, jobs: cores, prepare: writer.preparation) { _, f in try writer.add(prepared: f) }
            try writer.finish()
        } against: {
            try pipeline(description, jobs: cores, prepare: { $0 }) { _, f in checksum(f) }
        }
        annotate(h, endToEnd) { String(format: "%.1f fps to GIF; the encoder adds %.0f%% to the wall time",
                                       fps($0.median), 100 * (seconds($0.median) / seconds($0.baselineMedian) - 1)) }
        blackHole(sum)
    }

    static func encode(_ frames: [Bitmap], to url: URL) throws {
        let writer = try GIFWriter(destination: WritableDestination(url), width: 400, height: 400, fps: 24)
        for f in frames { try writer.add(f) }
        try writer.finish()
    }

    /// Notes from the row's medians (the harness measures first; a filtered-out row is not there).
    static func annotate(_ h: Harness, _ name: String, _ note: (Row) -> String) {
        guard let i = h.rows.lastIndex(where: { $0.name == name }) else { return }
        h.rows[i].note = note(h.rows[i])
    }

    static func fps(_ d: Duration) -> Double { Double(frames) / seconds(d) }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }
}
