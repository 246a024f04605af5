import Foundation
import OrigamiScene
import Yams

/// Issue 20, item 8: reading a big scene file must cost about what parsing its YAML costs; and item 5: memory of
/// `origami animate` and `origami hitmap` flat in the work's size (whole processes, peak RSS as the sweep rows read it).
enum LoadMemoryBenchmarks {
    /// The 1 000-cube lattice of `ServeBenchmarks.lattice` written out as face layers: each cube a transform layer
    /// holding six explicit faces (frame, colour, single-sided, transform), as a scene exported from code would be.
    static func faceLayerLattice(cubes count: Int = 1000) -> String {
        var side = 1
        while side * side * side < count { side += 1 }
        let spacing = 260.0 / Double(side), size = spacing * 0.55, half = size / 2
        func place(_ k: Int) -> Double { (Double(k) - Double(side - 1) / 2) * spacing }
        func n(_ v: Double) -> String { format(v) }
        let faces = [("front", "translate 0 0 \(n(half))"), ("right", "translate \(n(half)) 0 0, rotate y 90"),
                     ("top", "translate 0 \(n(-half)) 0, rotate x 90"), ("bottom", "translate 0 \(n(half)) 0, rotate x -90"),
                     ("left", "translate \(n(-half)) 0 0, rotate y -90"), ("back", "translate 0 0 \(n(-half)), rotate y 180")]
        let colors = ["#e74c3c", "#2ecc71", "#3498db", "#f1c40f", "#9b59b6", "#e67e22"]
        var lines = ["canvas: {size: [400, 400], background: \"#dddddd\"}", "layers:", "  - name: container",
                     "    frame: [0, 0, 400, 400]", "    sublayerTransform: [perspective 500, rotate x -45, rotate y -45]",
                     "    lighting: {model: bookOverlay, ambient: 0.5, lights: [{direction: [0, 1, -0.5], space: object}]}",
                     "    sublayers:"]
        for i in 0..<count {
            let (ix, iy, iz) = (i % side, (i / side) % side, i / (side * side))
            lines += ["      - name: cube\(i)", "        type: transformLayer",
                      "        position: [\(n(200 + place(ix))), \(n(200 + place(iy)))]", "        zPosition: \(n(place(iz)))",
                      "        sublayers:"]
            for (k, (name, transform)) in faces.enumerated() {
                lines += ["          - name: cube\(i)-\(name)", "            frame: [\(n(-half)), \(n(-half)), \(n(size)), \(n(size))]",
                          "            backgroundColor: \"\(colors[(i + k) % colors.count])\"", "            doubleSided: false",
                          "            transform: [\(transform)]"]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `count` flat layers tiling a 360-point square in a container turned away under a perspective (one 3D
    /// context, so the hit map's tree holds a row per layer and every layer is reached somewhere).
    static func tiledLayers(_ count: Int) -> String {
        var side = 1
        while side * side < count { side += 1 }
        let cell = 360.0 / Double(side)
        var lines = ["canvas: {size: [400, 400]}", "layers:", "  - name: container", "    frame: [0, 0, 400, 400]",
                     "    sublayerTransform: [perspective 500, rotate x -20]", "    sublayers:"]
        for i in 0..<count {
            let x = 20 + Double(i % side) * cell, y = 20 + Double(i / side) * cell
            lines.append("      - {name: tile\(i), frame: [\(format(x)), \(format(y)), \(format(cell)), \(format(cell))], "
                         + "backgroundColor: \"\(i % 2 == 0 ? "#3498db" : "#e67e22")\"}")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func run(_ h: Harness, origami: String?, models: String) throws {
        try loading(h)
        try memory(h, origami: origami, models: models)
    }

    static func loading(_ h: Harness) throws {
        let group = "scene loading"
        let files = [("1000-cube lattice as 6000 face layers", faceLayerLattice()),
                     ("20 000-face polyhedron", PolyhedronBenchmarks.sceneText(faces: PolyhedronBenchmarks.prismFaces(sides: 19_998)))]
        for (name, text) in files {
            let mib = String(format: "%.1f MB", Double(text.utf8.count) / 1_000_000)
            let rowName = "Scene.decode: \(name) (\(mib))"
            guard h.wants(group, rowName) else { continue }
            var limits = SceneLimits()
            limits.maxPolyhedronFaces = 20_000
            try h.row(group, rowName, baseline: "Yams.compose of the same text (the YAML parser's node tree)",
                      target: "≤ 3×", note: "decode = compose + checking and building every value", samples: 7) {
                blackHole(try Scene.decode(text, file: "bench.yaml", limits: limits))
            } against: {
                blackHole(try Yams.compose(yaml: text))
            }
        }
    }

    static func memory(_ h: Harness, origami: String?, models: String) throws {
        let group = "memory"
        let animateNames = ["gif": "origami animate process: 10 and 1 000 frames to a GIF, peak RSS",
                            "png": "origami animate process: 10 and 1 000 frames to a PNG folder, peak RSS"]
        let hitmapName = "origami hitmap process: 1 000 and 10 000 layers, peak RSS"
        guard animateNames.values.contains(where: { h.wants(group, $0) }) || h.wants(group, hitmapName) else { return }
        let scene = "\(models)/turntable.yaml"
        guard let origami, FileManager.default.isExecutableFile(atPath: origami), FileManager.default.fileExists(atPath: scene),
              FileManager.default.isExecutableFile(atPath: SweepProcessBenchmarks.time) else {
            FileHandle.standardError.write(Data("  (skipping the animate/hitmap memory rows: origami, \(scene) or GNU time missing)\n".utf8))
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-bench-memory-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let runs = max(3, h.plan.samples / 5)

        /// Medians of wall time and the largest peak over `runs` alternating runs of each argument list.
        func compare(runs: Int = runs, _ small: () throws -> [String], _ large: () throws -> [String]) throws
            -> (small: (Duration, Int), large: (Duration, Int))
        {
            var ts: [Duration] = [], tl: [Duration] = [], ps = 0, pl = 0
            for _ in 0..<runs {
                let a = try SweepProcessBenchmarks.measured(origami, try large())
                let b = try SweepProcessBenchmarks.measured(origami, try small())
                tl.append(a.wall); pl = max(pl, a.peakKiB)
                ts.append(b.wall); ps = max(ps, b.peakKiB)
            }
            return ((h.median(ts), ps), (h.median(tl), pl))
        }
        /// What the hit map adds to what any query of the scene holds (the layers, the frozen tree, the hit
        /// programs): its peak less `hit`'s at one point, at both sizes, and what that grows by a layer.
        func ownPart(map: (small: (Duration, Int), large: (Duration, Int)), hit: (small: (Duration, Int), large: (Duration, Int)),
                     layers: (small: Int, large: Int)) -> String {
            let small = map.small.1 - hit.small.1, large = map.large.1 - hit.large.1
            return String(format: "; the hit map's own part (its peak less `hit`'s): %.1f MiB, %.1f MiB: %.2f KB a layer",
                          Double(small) / 1024, Double(large) / 1024,
                          Double(large - small) * 1024 / 1000 / Double(layers.large - layers.small))
        }
        func note(_ small: String, _ large: String, _ r: (small: (Duration, Int), large: (Duration, Int))) -> String {
            String(format: "peak RSS %@: %.1f MiB, %@: %.1f MiB (%+.0f %%)", small, Double(r.small.1) / 1024,
                   large, Double(r.large.1) / 1024, 100 * (Double(r.large.1) / Double(max(1, r.small.1)) - 1))
        }

        for kind in ["gif", "png"] {
            guard let name = animateNames[kind], h.wants(group, name) else { continue }
            func arguments(_ frames: Int) throws -> [String] {
                let out = dir.appendingPathComponent(kind == "gif" ? "t.gif" : "frames").path
                try? FileManager.default.removeItem(atPath: out)
                return ["animate", scene, "-o", kind == "gif" ? out : out + "/", "--frames", String(frames)]
            }
            let r = try compare({ try arguments(10) }, { try arguments(1000) })
            h.add(Row(group: group, name: name, median: r.large.0, baselineName: "the same with 10 frames",
                      baselineMedian: r.small.0, target: "peak RSS within 20 %",
                      note: note("10 frames", "1 000", r) + "; turntable.yaml at 400², every core"))
        }

        if h.wants(group, hitmapName) {
            var files: [Int: String] = [:]
            for n in [1000, 10_000] {
                let file = dir.appendingPathComponent("tiles-\(n).yaml").path
                try tiledLayers(n).write(toFile: file, atomically: true, encoding: .utf8)
                files[n] = file
            }
            // At half scale (200² pixels): every pixel's query walks every tile, so 10 000 layers at full size take
            // half a minute a run; the peak is about the scene and the tree, which the scale does not change.
            let out = dir.appendingPathComponent("hitmap.png").path
            let map = ["-o", out, "--scale", "0.5"]
            let r = try compare(runs: 2, { ["hitmap", files[1000] ?? ""] + map }, { ["hitmap", files[10_000] ?? ""] + map })
            let hit = try compare(runs: 1, { ["hit", files[1000] ?? "", "200,200"] }, { ["hit", files[10_000] ?? "", "200,200"] })
            h.add(Row(group: group, name: hitmapName, median: r.large.0, baselineName: "the same with 1 000 layers",
                      baselineMedian: r.small.0, target: "grows by the tables only",
                      note: note("1 000 layers", "10 000", r) + "; 400² canvas at scale 0.5; "
                          + note("`origami hit` at one point, 1 000 layers", "10 000", hit)
                          + ownPart(map: r, hit: hit, layers: (1000, 10_000))))
        }
    }
}
