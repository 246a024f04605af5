import CCairo
import Foundation
import Origami
import OrigamiRender
import Fixtures

/// Output: PNG encoding against Cairo's own PNG writer, and a whole `origami render` process against a process
/// that does nothing.
enum OutputBenchmarks {
    static func run(_ h: Harness, origami: String?, models: String) throws {
        let group = "output"
        let flatCube = try BookCube(faceColors: Scenes.faceColors, lighting: Lighting.book)
        let flat = try Renderer.render(flatCube.container, size: Scenes.canvas, options: RenderBenchmarks.options)
        let images = (0..<6).map(Scenes.testImage)
        let heavy = try Renderer.render(try BookCube(images: images).container, size: Scenes.canvas,
                                        options: RenderBenchmarks.options)
        // Like for like: `.balanced` is zlib level 6 with libpng's adaptive filters, the settings of Cairo's
        // writer, so the row compares the two writers' own work. The `.fast` rows (zlib 1, RLE, `Sub` filter: the
        // default) say what the default buys, against Cairo at its only setting.
        for (label, image) in [("flat", flat), ("image-heavy", heavy)] {
            for (compression, name) in [(PNGCompression.balanced, "balanced (zlib 6, adaptive filters: Cairo's settings)"),
                                        (.fast, "fast default (zlib 1, RLE) against Cairo's zlib 6")] {
                let ours = try image.pngData(compression: compression).count, cairo = try cairoPNG(image).count
                try h.row(group, "PNG encode 1024², \(label) frame, \(name)", baseline: "cairo_surface_write_to_png_stream",
                      note: "\(ours / 1024) KiB vs \(cairo / 1024) KiB", samples: 9) {
                    blackHole(try image.pngData(compression: compression))
                } against: {
                    blackHole(try cairoPNG(image))
                }
            }
        }

        guard let origami else { return }
        let model = "\(models)/lit-cube.yaml"
        guard FileManager.default.fileExists(atPath: model), FileManager.default.isExecutableFile(atPath: origami) else {
            FileHandle.standardError.write(Data("  (skipping the process row: \(origami) or \(model) missing)\n".utf8))
            return
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("origami-bench-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        try h.row(group, "process: origami render lit-cube.yaml", baseline: "process: /bin/true",
              target: "≤ 100 ms wall", samples: 11) {
            try runProcess(origami, ["render", model, "-o", out])
        } against: {
            try runProcess("/bin/true", [])
        }

        // Issue 19: hit order over a grid used to take one process per point (90 s for 3 600 points on two cores).
        let cube = "\(models)/cube-button-interception.yaml"
        guard FileManager.default.fileExists(atPath: cube) else { return }
        try h.row(group, "process: origami hit --grid 60x60 (3 600 points × 3 policies)",
                  baseline: "process: origami hit at one point", target: "≪ 1 s wall", samples: 11) {
            try runProcess(origami, ["hit", cube, "--grid", "60x60"])
        } against: {
            try runProcess(origami, ["hit", cube, "200,200"])
        }
    }

    /// The PNG writer the library used before: pixels copied into a Cairo surface, then Cairo's writer.
    static func cairoPNG(_ image: RenderedImage) throws -> Data {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height)),
              let data = cairo_image_surface_get_data(surface) else { throw BenchError("surface") }
        defer { cairo_surface_destroy(surface) }
        let stride = Int(cairo_image_surface_get_stride(surface))
        image.pixels.withUnsafeBytes { src in
            for y in 0..<image.height {
                UnsafeMutableRawPointer(data + y * stride).copyMemory(
                    from: src.baseAddress! + y * image.width * 4, byteCount: image.width * 4)
            }
        }
        cairo_surface_mark_dirty(surface)
        final class Sink { var data = Data() }
        let sink = Sink()
        let status = cairo_surface_write_to_png_stream(surface, { closure, bytes, length in
            guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw BenchError("cairo png") }
        return sink.data
    }

    /// Runs a program and waits for it: `posix_spawn` + `waitpid`, so the row measures the process, not
    /// Foundation's `Process` machinery (which polls for the exit on Linux).
    ///
    /// `normalPriority`: the program runs under the ordinary time-sharing policy even when this benchmark runs at
    /// real-time priority (`chrt -f 50 make bench`), as a user's program does. For programs that sync files: a sync
    /// waits for the kernel's journal and writeback threads, which real-time threads busy on every core keep off the
    /// cores — on both cores in a 2-core run, while a run pinned to one core (`taskset`) leaves them the other.
    static func runProcess(_ path: String, _ arguments: [String], normalPriority: Bool = false) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if normalPriority {
            var parameters = sched_param()
            parameters.sched_priority = 0
            posix_spawnattr_setschedpolicy(&attributes, SCHED_OTHER)
            posix_spawnattr_setschedparam(&attributes, &parameters)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSCHEDULER))
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw BenchError("cannot start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else { throw BenchError("\(path) exited with status \(status)") }
    }
}
