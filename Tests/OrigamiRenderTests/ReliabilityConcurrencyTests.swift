import Foundation
import Origami
@testable import OrigamiRender
import Testing

// Issue 7: one snapshot rendered on several threads at once, while the model tree keeps changing. Run under
// ThreadSanitizer by `make check` (swift test --sanitize=thread): any shared mutable state between renders,
// or between a render and the model layers, is reported there as a data race.

/// A scene with every kind of drawing: a perspective cube through a transform layer, a translucent group, an
/// image face, a text layer, rounded borders and a lit solid.
private func richScene() throws -> Layer {
    let root = Layer(frame: CGRect(x: 0, y: 0, width: 120, height: 120))
    root.backgroundColor = .white
    root.sublayerTransform = Transform3D.perspective(distance: 300)
    let cube = try Solid.cube(size: 50)
    cube.position = CGPoint(x: 60, y: 60)
    cube.transform = Transform3D(rotationAngle: 0.6, x: 1, y: 1, z: 0)
    for (i, face) in cube.faces.enumerated() {
        face.backgroundColor = [Color.red, .green, .blue, .yellow, .cyan, .magenta][i]
        face.isDoubleSided = false
    }
    cube.faces[0].contents = Bitmap(width: 3, height: 3, color: Color(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8))
    let label = TextLayer()
    label.string = "Hi"
    label.fontSize = 14
    label.frame = CGRect(x: 5, y: 5, width: 40, height: 20)
    try cube.faces[2].addSublayer(label)
    try root.addSublayer(cube)
    let group = Layer(frame: CGRect(x: 10, y: 80, width: 40, height: 30))
    group.opacity = 0.5
    group.backgroundColor = .black
    group.cornerRadius = 6
    group.borderWidth = 2
    group.borderColor = .red
    try root.addSublayer(group)
    return root
}

@Suite("Reliability: concurrency")
struct ReliabilityConcurrencyTests {
    @Test("one snapshot renders to PNG, SVG and PDF on four threads at once, identically, releasing every Cairo object")
    func parallelRenders() async throws {
        let tree = try RenderTree(root: try richScene())
        let size = CGSize(width: 120, height: 120)
        let reference = try Renderer.render(tree, size: size).pixels
        let results = try await withThrowingTaskGroup(of: (pixels: [UInt32], live: Int, vector: Int).self) { group in
            for i in 0..<4 {
                group.addTask {
                    let (result, counter) = try CairoResourceCounter.counting { () throws -> ([UInt32], Int) in
                        let image = try Renderer.render(tree, size: size, options: RenderOptions(supersample: 1 + i % 2))
                        let pixels = i % 2 == 0 ? image.pixels : try Renderer.render(tree, size: size).pixels
                        let vector = try Renderer.data(tree, size: size, format: i % 2 == 0 ? .svg : .pdf).count
                        return (pixels, vector)
                    }
                    return (result.0, counter.liveCount, result.1)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 4)
        #expect(results.allSatisfy { $0.pixels == reference }, "every thread's pixels equal the serial render")
        #expect(results.allSatisfy { $0.live == 0 }, "every surface, context and pattern released on every thread")
        #expect(results.allSatisfy { $0.vector > 0 })
    }

    @Test("renders of a snapshot are unaffected by edits to the model tree made meanwhile")
    func snapshotIsolation() async throws {
        let root = try richScene()
        let tree = try RenderTree(root: root)
        let size = CGSize(width: 120, height: 120)
        let before = try Renderer.render(tree, size: size).pixels
        nonisolated(unsafe) let model = root
        let renders = Task.detached {
            try (0..<3).map { _ in try Renderer.render(tree, size: size).pixels }
        }
        // Meanwhile, on this task: reshape the model layers the snapshot was taken from.
        for step in 0..<50 {
            for l in model.subtree {
                l.backgroundColor = step % 2 == 0 ? .black : .white
                l.transform = Transform3D(rotationAngle: Double(step) * 0.1, x: 0, y: 0, z: 1)
                l.contents = nil
            }
            let extra = Layer(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
            try model.addSublayer(extra)
        }
        let after = try await renders.value
        #expect(after.allSatisfy { $0 == before })
    }

    @Test("hit testing and conversion read the model from several threads at once")
    func parallelHitTesting() async throws {
        nonisolated(unsafe) let root = try richScene()
        let answers = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    (0..<50).map { i in
                        let p = CGPoint(x: Double(i) * 2.4, y: 60)
                        let hit = root.hitTest(p, policy: .frontmost).map(\.description) ?? "nil"
                        let all = root.hitTestAll(p).count
                        return "\(hit) \(all)"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(answers).count == 1)
    }
}
