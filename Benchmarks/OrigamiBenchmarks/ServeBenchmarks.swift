import Foundation
import Origami
import OrigamiRender
import OrigamiScene
import OrigamiServe

/// `origami serve`'s slider-to-picture latency: what the server does for one `/render.png?ambient=…` (the query
/// checked, the scene instantiated from its decoded description with the new value, rendered, PNG-encoded),
/// against rendering and encoding layers already built. The page adds a request round trip on loopback.
enum ServeBenchmarks {
    static func run(_ h: Harness) throws {
        let group = "live viewer"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("origami-serve-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text, target) in [("lit book cube (400², Models/lit-cube.yaml)", try litCube(), "≤ 50 ms"),
                                     ("1000 lit cubes (6000 faces, 400²)", lattice(cubes: 1000), "")] {
            let file = folder.appendingPathComponent("scene.yaml")
            try Data(text.utf8).write(to: file)
            let viewer = try Viewer(source: SceneSource(url: file, displayName: "scene.yaml"))
            let scene = try Scene.load(contentsOf: file)
            let options = RenderOptions(scale: 1, background: scene.canvas.background)
            var ambient = 0.0
            try h.row(group, "slider → picture: \(name)", baseline: "render + encode the built layers", target: target,
                      samples: text.count > 100_000 ? 7 : nil) {
                // A new value each time, as a dragged slider sends.
                ambient = ambient >= 0.99 ? 0 : ambient + 0.01
                blackHole(try viewer.renderPNG(query: "ambient=\(ambient)"))
            } against: {
                blackHole(try Renderer.render(scene.root, size: scene.canvas.size, options: options).pngData())
            }
        }
    }

    static func litCube() throws -> String {
        try String(contentsOfFile: "Models/lit-cube.yaml", encoding: .utf8)
    }

    /// `Scenes.lattice` as a scene file: `count` cubes in a lattice under the book's camera and lighting.
    static func lattice(cubes count: Int) -> String {
        var side = 1
        while side * side * side < count { side += 1 }
        let extent = 260.0, spacing = extent / Double(side)
        func place(_ k: Int) -> Double { (Double(k) - Double(side - 1) / 2) * spacing }
        var text = """
            canvas: {size: [400, 400], background: "#dddddd"}
            layers:
              - name: container
                frame: [0, 0, 400, 400]
                sublayerTransform: [perspective 500, rotate x -45, rotate y -45]
                lighting: {model: bookOverlay, ambient: 0.5, lights: [{direction: [0, 1, -0.5], space: object}]}
                sublayers:

            """
        let colors = ["#e74c3c", "#2ecc71", "#3498db", "#f1c40f", "#9b59b6", "#e67e22"]
        for i in 0..<count {
            let (ix, iy, iz) = (i % side, (i / side) % side, i / (side * side))
            text += "      - {type: solid, shape: cube, size: \(spacing * 0.55), position: [\(200 + place(ix)), \(200 + place(iy))], "
                + "zPosition: \(place(iz)), allFaces: {backgroundColor: \"\(colors[i % colors.count])\"}}\n"
        }
        return text
    }
}
