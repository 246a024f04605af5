import Foundation
import Origami
@_spi(Benchmarks) import OrigamiRender
import Fixtures
import OrigamiScene

/// `--profile NAME [--iterations N]`: one library subject in a loop, for `perf record` or
/// `valgrind --tool=callgrind` (instruction counts repeat exactly, so two implementations compare without noise).
enum Profile {
    static func run(_ name: String, iterations: Int) throws {
        let options = RenderBenchmarks.options
        switch name {
        case "flat":
            let cube = try BookCube(faceColors: Scenes.faceColors, lighting: Lighting.book).container
            for _ in 0..<iterations { blackHole(try Renderer.render(cube, size: Scenes.canvas, options: options)) }
        case "image":
            let cube = try BookCube(images: (0..<6).map(Scenes.testImage)).container
            for _ in 0..<iterations { blackHole(try Renderer.render(cube, size: Scenes.canvas, options: options)) }
        case "lattice":
            let lattice = try Scenes.lattice(cubes: 1000)
            for _ in 0..<iterations { blackHole(try Renderer.render(lattice, size: Scenes.canvas, options: options)) }
        case "lattice-raw", "polyhedron-raw":
            // The two rows' baselines: raw Cairo filling the scenes' projected polygons.
            let scene = name == "lattice-raw" ? try Scenes.lattice(cubes: 1000)
                : try PolyhedronBenchmarks.container(faces: PolyhedronBenchmarks.prismFaces(sides: 19_998))
            let polygons = try RenderBenchmarks.rawPolygons(scene)
            for _ in 0..<iterations { blackHole(try RenderBenchmarks.rawCairoFill(polygons)) }
        case "polyhedron":
            // The 20 000-face polyhedron row's subject (its set-up is outside the loop).
            let prism = try PolyhedronBenchmarks.container(faces: PolyhedronBenchmarks.prismFaces(sides: 19_998))
            for _ in 0..<iterations { blackHole(try Renderer.render(prism, size: Scenes.canvas, options: options)) }
        case "planes-count":
            for n in [50, 200, 500] { print(n, try RenderBenchmarks.fragmentPolygons(try Scenes.crossingPlanes(n)).count) }
        case "planes-walk":
            // The depth order's walk alone, fragments not kept: what it makes and the most it holds at once.
            for n in [50, 200, 500] {
                let tree = try RenderTree(root: try Scenes.crossingPlanes(n))
                guard let container = tree.members.first else { throw BenchError("no container") }
                let s = BenchmarkProbes.depthOrderStatistics(container.node.members)
                print(n, "planes:", s.fragments, "fragments; at most", s.peakPendingPolygons, "polygons pending,",
                      s.peakPoints, "corners in the pool;", s.sealCandidates, "members may seal;", "peak RSS", try SweepBenchmarks.peakResidentKiB() / 1024, "MiB")
            }
        case "planes50", "planes200", "planes500", "planes50-clip", "planes200-clip", "planes500-clip":
            // `-clip`: every fragment through a hard clip and the whole face, as before issue 20.
            let parts = name.dropFirst(6).split(separator: "-")
            let scene = try Scenes.crossingPlanes(Int(parts[0]) ?? 50)
            let (size, options) = (RenderBenchmarks.planesCanvas, RenderBenchmarks.planesOptions)
            for _ in 0..<iterations {
                blackHole(parts.count > 1 ? try BenchmarkProbes.renderClippingEveryFragment(scene, size: size, options: options)
                          : try Renderer.render(scene, size: size, options: options))
            }
        case "png-flat", "png-image":
            let cube = name == "png-flat"
                ? try BookCube(faceColors: Scenes.faceColors, lighting: Lighting.book).container
                : try BookCube(images: (0..<6).map(Scenes.testImage)).container
            let image = try Renderer.render(cube, size: Scenes.canvas, options: options)
            for _ in 0..<iterations { blackHole(try image.pngData()) }
        case "gif":
            // The GIF encoder on the turntable's frames (quantizing, LZW, giflib's writes).
            let description = try OrigamiScene.SceneDescription.load(contentsOf: URL(fileURLWithPath: "Models/turntable.yaml"))
            let turntable = try AnimateBenchmarks.Turntable(description)
            let frames = try (0..<24).map { try turntable.frame($0 * 5) }
            let gif = FileManager.default.temporaryDirectory.appendingPathComponent("origami-profile-\(getpid()).gif")
            defer { try? FileManager.default.removeItem(at: gif) }
            for _ in 0..<max(1, iterations / 10) { try AnimateBenchmarks.encode(frames, to: gif) }
        case "turntable", "turntable-serial", "turntable-1024", "turntable-1024-serial":
            // `origami animate`'s rendering: the real turntable's frames through `FramePipeline` on every core, or
            // in one loop (for `perf stat`: CPU time and instructions of the two, against their wall time); the
            // rows' 120 frames, at 400² or 1024².
            FramePipeline.keepLargeBuffersInTheHeap()
            let description = try OrigamiScene.SceneDescription.load(contentsOf: URL(fileURLWithPath: "Models/turntable.yaml"))
            let jobs = name.hasSuffix("-serial") ? 1 : ProcessInfo.processInfo.activeProcessorCount
            let scale = name.contains("1024") ? 2.56 : 1.0
            for _ in 0..<iterations {
                try AnimateBenchmarks.pipeline(description, jobs: jobs, scale: scale, prepare: { $0 }) { _, f in blackHole(f) }
            }
        case "hit-tree", "hit-frontmost":
            let tree = PresentationTree(try BookCube(faceColors: Scenes.faceColors).container)
            let policy: HitTestPolicy = name == "hit-tree" ? .treeOrder : .frontmost
            for _ in 0..<iterations * 1000 { blackHole(tree.hitTest(opaque(CGPoint(x: 200, y: 150)), policy: policy)) }
        case "hit-rows-tree", "hit-rows-ca", "hit-rows-frontmost", "hand-rows-tree", "hand-rows-frontmost":
            // The single-point rows' subjects and baselines: the same 64 points, cycled.
            let points = GeometryBenchmarks.hitPoints
            let policy: HitTestPolicy = name.hasSuffix("tree") ? .treeOrder : name.hasSuffix("ca") ? .coreAnimation : .frontmost
            if name.hasPrefix("hand") {
                let (container, faces) = Scenes.handCube()
                let inverses = opaque(GeometryBenchmarks.HandInverses(container: container, faces: faces))
                let cube = try BookCube(faceColors: Scenes.faceColors).container
                let layers = opaque(cube.sublayers + [cube])
                for k in 0..<iterations * 1000 {
                    blackHole(layers.answer(inverses.hit(points[k & 63], frontmost: policy == .frontmost)))
                }
            } else {
                let tree = opaque(PresentationTree(try BookCube(faceColors: Scenes.faceColors).container))
                for k in 0..<iterations * 1000 { blackHole(tree.hitTest(points[k & 63], policy: policy)) }
            }
        case "hit-grid-tree", "hit-grid-frontmost", "hand-grid-tree", "hand-grid-frontmost":
            // The 128² grid rows' subjects and baselines, once per iteration.
            let grid = GeometryBenchmarks.hitGrid, frontmost = name.hasSuffix("frontmost")
            if name.hasPrefix("hand") {
                let (container, faces) = Scenes.handCube()
                let inverses = opaque(GeometryBenchmarks.HandInverses(container: container, faces: faces))
                for _ in 0..<iterations {
                    blackHole(GeometryBenchmarks.handGrid(grid, inverses, frontmost: frontmost).count { $0 >= 0 })
                }
            } else {
                let tree = opaque(PresentationTree(try BookCube(faceColors: Scenes.faceColors).container))
                let policy: HitTestPolicy = frontmost ? .frontmost : .treeOrder
                for _ in 0..<iterations { blackHole(tree.hitTest(grid, policy: policy).hits.count { $0 >= 0 }) }
            }
        case "hit-after-change":
            // An edit, then a query: the tree is frozen again for every query.
            let cube = try BookCube(faceColors: Scenes.faceColors).container
            let face = cube.sublayers[0]
            for i in 0..<iterations * 100 {
                face.zPosition = Double(i & 1) * 1e-9
                blackHole(cube.hitTest(opaque(CGPoint(x: 200, y: 150)), policy: .treeOrder))
            }
        case "freeze", "freeze-animated":
            // Freezing the book cube's tree, as a frame of an animation does: with no animation, or at a time with
            // the container's camera turning (one animated layer, a transform sub-path).
            let cube = try BookCube(faceColors: Scenes.faceColors).container
            if name == "freeze-animated" {
                let turn = BasicAnimation(keyPath: "sublayerTransform.rotation.y")
                turn.fromValue = 0; turn.toValue = .number(2 * .pi); turn.duration = 4; turn.isAdditive = true
                turn.repeatCount = .infinity
                cube.add(turn, forKey: "turn")
            }
            for i in 0..<iterations * 100 {
                blackHole(PresentationTree(cube, time: name == "freeze" ? nil : Double(i) * 0.01))
            }
        case "lattice-freeze":
            // The lattice row's freeze alone (`RenderTree(root:)`: the limits' count, the presentation tree, the
            // render tree and its teardown), to time what the render's freeze does to the caches in isolation.
            let lattice = try Scenes.lattice(cubes: 1000)
            for _ in 0..<iterations { blackHole(try RenderTree(root: lattice)) }
        case "frame":
            let layer = Layer(frame: CGRect(x: 10, y: 20, width: 100, height: 50))
            layer.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
            for _ in 0..<iterations * 10_000 { blackHole(opaque(layer).frame) }
        case "hitmap":
            let cube = try BookCube(faceColors: Scenes.faceColors).container
            for _ in 0..<iterations {
                blackHole(try HitMap(root: cube, size: Scenes.canvas, scale: Scenes.scale) { $0.name ?? "?" })
            }
        case "convert":
            let (root, leaf, _) = try GeometryBenchmarks.conversionChain()
            for _ in 0..<iterations * 1000 { blackHole(root.convert(opaque(CGPoint(x: 20, y: 30)), from: leaf)) }
        default:
            throw BenchError("unknown profile \(name): flat, image, lattice[-raw], polyhedron[-raw], planes50/200/500[-clip], planes-count, planes-walk, "
                             + "png-flat, png-image, hit-tree, hit-frontmost, hit-rows-{tree,ca,frontmost}, "
                             + "hand-rows-{tree,frontmost}, hit-grid-{tree,frontmost}, hand-grid-{tree,frontmost}, hitmap, frame, "
                             + "convert, freeze, freeze-animated, lattice-freeze, gif, turntable, "
                             + "turntable-serial, turntable-1024, turntable-1024-serial")
        }
    }
}
