import Foundation
import Origami
import OrigamiRender
import OrigamiScene
import Testing
import TestSupport

/// Every scene in Models/ decodes, renders, and matches its committed picture in Renders/, so the gallery in
/// the README cannot go stale. `make demo` regenerates Renders/.
@Suite("Models and their renders")
struct ModelGalleryTests {
    static let models: [String] = {
        let dir = OrigamiCommand.packageRoot.appendingPathComponent("Models")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted()
    }()

    @Test func thereAreModels() {
        #expect(Self.models.count >= 9)
    }

    @Test(arguments: models)
    func modelMatchesItsRender(_ name: String) throws {
        let root = OrigamiCommand.packageRoot
        let scene = try Scene.load(contentsOf: root.appendingPathComponent("Models/\(name)"))
        #expect(!scene.summary.isEmpty, "\(name) needs a comment saying which figure it reproduces")
        let image = try Renderer.render(scene.root, size: scene.canvas.size,
                                        options: RenderOptions(scale: scene.canvas.scale, background: scene.canvas.background))
        let renderURL = root.appendingPathComponent("Renders/\((name as NSString).deletingPathExtension).png")
        let committed = try Bitmap(contentsOfPNG: renderURL)
        try #require(committed.width == image.width && committed.height == image.height,
                     "\(renderURL.lastPathComponent) is \(committed.width)×\(committed.height), the render \(image.width)×\(image.height): run `make demo`")
        // Antialiasing may differ by a few levels between builds; a changed picture differs by far more.
        var differing = 0
        var diff = [UInt32](repeating: 0xFFFF_FFFF, count: image.width * image.height)
        for i in 0..<diff.count {
            let a = image.pixels[i], b = committed.pixels[i]
            if channelDistance(a, b) > 12 { differing += 1; diff[i] = 0xFFFF_0000 }
        }
        let allowed = diff.count / 500
        if differing > allowed {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("origami-gallery-\(name)")
            try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try? image.write(to: out.appendingPathComponent("actual.png"))
            if let d = Bitmap(width: image.width, height: image.height, pixels: diff) {
                try? Renderer.render(imageLayer(d), size: CGSize(width: d.width, height: d.height))
                    .write(to: out.appendingPathComponent("diff.png"))
            }
            Issue.record("\(name): \(differing) pixels differ from Renders/ (allowed \(allowed)); actual.png and diff.png in \(out.path); run `make demo` if the change is intended")
        }
    }

    /// The largest difference between the two pixels' channels, 0…255.
    private func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
        var d = 0
        for shift: UInt32 in [24, 16, 8, 0] {
            let x = Int((a >> shift) & 0xFF), y = Int((b >> shift) & 0xFF)
            d = max(d, abs(x - y))
        }
        return d
    }

    private func imageLayer(_ bitmap: Bitmap) -> Layer {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: bitmap.width, height: bitmap.height))
        layer.contents = bitmap
        return layer
    }
}
