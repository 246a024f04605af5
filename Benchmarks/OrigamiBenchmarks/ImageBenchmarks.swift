import Foundation
import Origami
import OrigamiRender
import OrigamiScene

/// Issue 13's memory budget: a scene whose N layers all show one 8000×7900 PNG (50 KB on disk, 252.8 MB
/// decoded), loaded and rendered in a fresh child process, N = 1 and 12. The file is decoded once per process,
/// so the peak resident memory (the child's VmHWM, as the sweep row reads it) must not grow with N. The same
/// scene loaded `.sizeOnly`, as `hit` and `inspect` load it, decodes nothing.
enum ImageBenchmarks {
    static let side = (width: 8000, height: 7900)

    /// The image (black, made by the renderer and written by the PNG writer) and the scenes `s1.yaml`,
    /// `s12.yaml` showing it once and twelve times.
    static func makeScenes() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-bench-images-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let black = Layer()
        black.frame = CGRect(x: 0, y: 0, width: side.width, height: side.height)
        black.backgroundColor = .black
        let image = try Renderer.render(black, size: CGSize(width: side.width, height: side.height))
        try image.pngData().write(to: dir.appendingPathComponent("big.png"))
        for n in [1, 12] {
            var text = "canvas: {size: [256, 256]}\nlayers:\n"
            for i in 0..<n { text += "  - {contents: big.png, frame: [\(i * 8), \(i * 8), 160, 160]}\n" }
            try Data(text.utf8).write(to: dir.appendingPathComponent("s\(n).yaml"))
        }
        return dir
    }

    /// The child's work: load `scene` (decoding, then rendering, or `.sizeOnly`, then one hit test). Prints
    /// "wall-ms peak-RSS-KiB".
    static func child(scene: String, mode: String) throws {
        let url = URL(fileURLWithPath: scene)
        let clock = ContinuousClock()
        let t = try clock.measure {
            if mode == "render" {
                let s = try Scene.load(contentsOf: url)
                blackHole(try Renderer.render(s.root, size: s.canvas.size).pixels.count)
            } else {
                let s = try Scene.load(contentsOf: url, images: .sizeOnly)
                blackHole(s.root.hitTest(CGPoint(x: 100, y: 100)))
            }
        }
        print(milliseconds(t), try SweepBenchmarks.peakResidentKiB())
    }

    static func spawn(scene: URL, mode: String) throws -> (ms: Double, rssKiB: Int) {
        let fields = try SweepBenchmarks.childNumbers(["--image-child", scene.path, mode], count: 2, what: "image child")
        return (fields[0], Int(fields[1]))
    }

    static func run(_ h: Harness) throws {
        let group = "memory"
        let name = "12 layers showing one 8000×7900 PNG: load + render"
        guard h.wants(group, name) else { return }
        let dir = try makeScenes()
        defer { try? FileManager.default.removeItem(at: dir) }
        let one = dir.appendingPathComponent("s1.yaml"), twelve = dir.appendingPathComponent("s12.yaml")
        // Each run decodes 63 Mpx (about half a second); five keep the median steady.
        let runs = max(3, h.plan.samples / 3)
        var t12: [Duration] = [], t1: [Duration] = [], rss12: [Int] = [], rss1: [Int] = [], rssHit: [Int] = []
        for _ in 0..<runs {
            let a = try spawn(scene: twelve, mode: "render"), b = try spawn(scene: one, mode: "render")
            t12.append(.milliseconds(a.ms)); t1.append(.milliseconds(b.ms))
            rss12.append(a.rssKiB); rss1.append(b.rssKiB)
            rssHit.append(try spawn(scene: twelve, mode: "hit").rssKiB)
        }
        let peak12 = rss12.max() ?? 0, peak1 = rss1.max() ?? 0
        h.add(Row(group: group, name: name, median: h.median(t12), baselineName: "the same with 1 layer",
                  baselineMedian: h.median(t1), target: "peak memory flat in N",
                  note: String(format: "peak RSS %d MiB (1 layer: %d MiB, %+.1f %%); loaded .sizeOnly as hit/inspect do: %d MiB; decoded image 241 MiB",
                               peak12 / 1024, peak1 / 1024, 100 * Double(peak12 - peak1) / Double(max(1, peak1)),
                               (rssHit.max() ?? 0) / 1024)))
    }
}
