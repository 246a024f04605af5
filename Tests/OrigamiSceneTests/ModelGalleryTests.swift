import Foundation
import Origami
import OrigamiRender
import OrigamiScene
import OrigamiTesting
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
        // Antialiasing may differ by a few levels between builds; a changed picture differs by far more.
        let artifacts = FileManager.default.temporaryDirectory.appendingPathComponent("origami-gallery-\(name)")
        if let failure = ImageCheck.failure(image, matches: renderURL, artifacts: artifacts) {
            Issue.record("\(name): \(failure); run `make demo` if the change is intended")
        }
    }

    static let animatedModels: [String] = models.filter { name in
        let url = OrigamiCommand.packageRoot.appendingPathComponent("Models/\(name)")
        return (try? String(contentsOf: url, encoding: .utf8))?.contains("animations:") == true
    }

    @Test func someModelsAnimate() {
        #expect(Self.animatedModels.count >= 3)
    }

    /// `make demo` writes one cycle of each animated model at 15 fps: frames at 0, 1/15, … before the end of its
    /// animations (`FrameRange`'s rule), each the canvas's pixel size. Read with a block walker of the GIF
    /// format (GIF89a §20–§24), independent of the writer.
    @Test(arguments: animatedModels)
    func animatedModelHasItsGIF(_ name: String) throws {
        let root = OrigamiCommand.packageRoot
        let scene = try Scene.load(contentsOf: root.appendingPathComponent("Models/\(name)"))
        let end = try #require(scene.root.animationEndTime())
        let gifURL = root.appendingPathComponent("Renders/\((name as NSString).deletingPathExtension).gif")
        let bytes = try [UInt8](Data(contentsOf: gifURL))
        let info = try #require(GIFBlocks(bytes), "\(gifURL.lastPathComponent) is not a GIF: run `make demo`")
        #expect(info.width == Int(Double(scene.canvas.size.width) * scene.canvas.scale))
        #expect(info.height == Int(Double(scene.canvas.size.height) * scene.canvas.scale))
        // Frames i with i/15 < end.
        #expect(info.frames == Int((end * 15).rounded(.up)), "\(gifURL.lastPathComponent): run `make demo`")
    }
}

/// The logical screen size and the number of images of a GIF, by walking its blocks; `nil` when malformed.
private struct GIFBlocks {
    let width: Int, height: Int, frames: Int

    init?(_ b: [UInt8]) {
        guard b.count >= 13, b[0..<6].elementsEqual(Array("GIF89a".utf8)) || b[0..<6].elementsEqual(Array("GIF87a".utf8)) else { return nil }
        width = Int(b[6]) | Int(b[7]) << 8
        height = Int(b[8]) | Int(b[9]) << 8
        var i = 13
        if b[10] & 0x80 != 0 { i += 3 << (Int(b[10] & 7) + 1) }   // global colour table
        func skipSubBlocks(_ i: inout Int) -> Bool {
            while i < b.count {
                let n = Int(b[i]); i += 1
                if n == 0 { return true }
                i += n
            }
            return false
        }
        var count = 0
        while i < b.count {
            switch b[i] {
            case 0x3B: frames = count; return   // trailer
            case 0x21:                           // extension: label, then sub-blocks
                i += 2
                guard skipSubBlocks(&i) else { return nil }
            case 0x2C:                           // image descriptor, local colour table, LZW size, data
                guard i + 10 <= b.count else { return nil }
                let packed = b[i + 9]
                i += 10
                if packed & 0x80 != 0 { i += 3 << (Int(packed & 7) + 1) }
                i += 1
                guard skipSubBlocks(&i) else { return nil }
                count += 1
            default: return nil
            }
        }
        return nil
    }
}
