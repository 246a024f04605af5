import Foundation
import Origami
import Fixtures
import OrigamiRender

/// Big convex polyhedra (issue 13, item 5): building one must be near-linear in its faces, and the
/// 20 000-face prism must render and inspect, as whole `origami` processes, in under 2 s each.
enum PolyhedronBenchmarks {
    /// A right prism with `sides` sides as `Solid.polyhedron(faces:)` takes it (TestSupport's).
    static func prismFaces(sides n: Int) -> [[Vector3]] { prismPolyhedronFaces(sides: n, radius: 120, height: 80) }

    /// The prism in the book's container (perspective, turned), its sides single-sided, lit by the book's light.
    static func container(faces: [[Vector3]]) throws -> Layer {
        let container = BookCube.container()
        container.lighting = Lighting.book
        let solid = try Solid.polyhedron(faces: faces)
        solid.position = CGPoint(x: 200, y: 200)
        for (k, face) in solid.faces.enumerated() {
            face.backgroundColor = Scenes.faceColors[k % Scenes.faceColors.count]
            face.isDoubleSided = false
        }
        try container.addSublayer(solid)
        return container
    }

    /// The same prism as a scene file for the command line.
    static func sceneText(faces: [[Vector3]]) -> String {
        func v(_ p: Vector3) -> String { "[\(p.x), \(p.y), \(p.z)]" }
        var lines = ["canvas: {size: [400, 400]}", "layers:", "  - name: container", "    frame: [0, 0, 400, 400]",
                     "    sublayerTransform: [perspective 500, rotate x -45, rotate y -45]", "    lighting: book",
                     "    sublayers:", "      - name: prism", "        type: solid", "        shape: polyhedron",
                     "        position: [200, 200]", "        allFaces: {backgroundColor: \"#3498db\", doubleSided: false}",
                     "        polygons:"]
        lines += faces.map { "          - [" + $0.map(v).joined(separator: ", ") + "]" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The least any builder does: each face's centroid and Newell normal, one pass over every vertex.
    static func newellPass(_ faces: [[Vector3]]) -> Double {
        var sum = 0.0
        for f in faces {
            var n = Vector3.zero, c = Vector3.zero
            for i in f.indices {
                let a = f[i], b = f[(i + 1) % f.count]
                n = n + a.cross(b)
                c = c + a
            }
            sum += n.length + c.x
        }
        return sum
    }

    static func run(_ h: Harness, origami: String?) throws {
        let group = "solids"
        for sides in [4998, 19_998] {
            let faces = opaque(prismFaces(sides: sides))
            try h.row(group, "build a \(sides + 2)-face convex polyhedron", baseline: "hand: one Newell-normal pass over the faces",
                  note: "checks every vertex against every face plane through a box tree", samples: 7) {
                blackHole(try Solid.polyhedron(faces: faces))
            } against: {
                blackHole(newellPass(faces))
            }
        }

        let faces = prismFaces(sides: 19_998)
        let container = opaque(try container(faces: faces))
        let polygons = try RenderBenchmarks.rawPolygons(container)
        try h.row(group, "render the 20 000-face polyhedron", baseline: "raw Cairo: fill 20 000 projected polygons",
              samples: 5) {
            blackHole(try Renderer.render(container, size: Scenes.canvas, options: RenderBenchmarks.options))
        } against: {
            blackHole(try RenderBenchmarks.rawCairoFill(polygons))
        }

        guard let origami, FileManager.default.isExecutableFile(atPath: origami) else {
            FileHandle.standardError.write(Data("  (skipping the polyhedron process rows: no origami executable)\n".utf8))
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-bench-poly-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("prism-20000.yaml").path
        let text = sceneText(faces: faces)
        try text.write(toFile: scene, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("prism.png").path
        let note = String(format: "scene file %.1f MB: reading it is part of the time", Double(text.utf8.count) / 1_000_000)
        for (command, arguments) in [("render", ["render", scene, "-o", out]), ("inspect", ["inspect", scene])] {
            try h.row(group, "process: origami \(command) of the 20 000-face polyhedron", baseline: "process: /bin/true",
                  target: "≤ 2 s wall", note: note, samples: 5) {
                try OutputBenchmarks.runProcess(origami, arguments + ["--max-polyhedron-faces", "20000"])
            } against: {
                try OutputBenchmarks.runProcess("/bin/true", [])
            }
        }
    }
}
