import Foundation
import Origami
import OrigamiRender
import Testing
import TestSupport

@Suite("Output: PNG, SVG, PDF, atomic writes, decoding")
struct OutputTests {
    static func scene() throws -> Layer { try HandCube.make(inSolid: true).container }
    static let size = CGSize(width: 600, height: 600)

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("origami-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("PNG written to disk decodes back to the rendered pixels, at the chosen pixel scale")
    func pngRoundTrip() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("cube.png")
        let image = try Renderer.render(try Self.scene(), size: Self.size, options: RenderOptions(scale: 0.5))
        #expect(image.width == 300 && image.height == 300)
        try image.write(to: url)
        let decoded = try Bitmap(contentsOfPNG: url)
        #expect(decoded.width == 300 && decoded.height == 300)
        let front = HandCube.center(face: 0)
        let p = decoded[Int(front.x * 0.5), Int(front.y * 0.5)]
        #expect(p == 0xFFFF_0000, "front face centre decodes as opaque red, got \(String(p, radix: 16))")
        #expect(decoded.pixels == image.pixels)
    }

    @Test("SVG is XML with paths; PDF starts with %PDF; both deterministic", arguments: [OutputFormat.svg, .pdf, .png])
    func vectorFormats(_ format: OutputFormat) throws {
        let tree = try RenderTree(root: try Self.scene())
        let a = try Renderer.data(tree, size: Self.size, format: format)
        let b = try Renderer.data(tree, size: Self.size, format: format)
        #expect(a == b, "the same input gives the same bytes")
        #expect(a.count > 100)
        switch format {
        case .svg:
            let text = String(decoding: a, as: UTF8.self)
            #expect(text.hasPrefix("<?xml") && text.contains("<svg") && text.contains("<path"))
        case .pdf:
            #expect(a.starts(with: Array("%PDF".utf8)))
        case .png:
            #expect(a.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
    }

    @Test("an image face is embedded in SVG output")
    func imageInSVG() throws {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        layer.contents = Bitmap(width: 4, height: 4, color: .blue)
        let data = try Renderer.data(try RenderTree(root: layer), size: CGSize(width: 40, height: 40), format: .svg)
        #expect(String(decoding: data, as: UTF8.self).contains("<image"))
    }

    @Test("writing into a missing folder fails with an error and leaves nothing behind")
    func atomicWriteFailure() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("no-such-folder/cube.png")
        #expect(throws: RenderError.self) { try Renderer.write(try Self.scene(), size: Self.size, to: missing) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("an existing file is replaced whole, or left untouched when rendering fails")
    func atomicReplace() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.svg")
        try Data("old".utf8).write(to: url)
        #expect(throws: RenderError.self) {
            try Renderer.write(try Self.scene(), size: CGSize(width: 0, height: 10), to: url)
        }
        #expect(try Data(contentsOf: url) == Data("old".utf8))
        try Renderer.write(try Self.scene(), size: Self.size, to: url)
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self).contains("<svg"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.svg"])
    }

    @Test("PNG decoding errors name the file")
    func decodeErrors() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.png")
        let corrupt = folder.appendingPathComponent("corrupt.png")
        try Data("not a png".utf8).write(to: corrupt)
        for url in [missing, corrupt] {
            do {
                _ = try Bitmap(contentsOfPNG: url)
                Issue.record("decoding \(url.lastPathComponent) should fail")
            } catch let error as RenderError {
                #expect(error.description.contains(url.lastPathComponent))
            }
        }
    }

    @Test("bad canvases are errors, not crashes",
          arguments: [CGSize(width: 0, height: 10), CGSize(width: CGFloat.nan, height: 10), CGSize(width: 1e9, height: 10)])
    func badCanvas(_ size: CGSize) throws {
        #expect(throws: RenderError.self) { try Renderer.render(Layer(), size: size) }
    }

    @Test("one snapshot renders on several threads at once with identical results")
    func concurrentRenders() async throws {
        let tree = try RenderTree(root: try Self.scene())
        let results = try await withThrowingTaskGroup(of: [UInt32].self) { group in
            for _ in 0..<3 { group.addTask { try Renderer.render(tree, size: CGSize(width: 300, height: 300)).pixels } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 3 && Set(results.map { $0.hashValue }).count == 1)
    }

    @Test("supersampling keeps face colours and smooths edges")
    func supersampling() throws {
        let image = try Renderer.render(try Self.scene(), size: Self.size, options: RenderOptions(supersample: 3))
        #expect(image.width == 600)
        for i in 0..<3 {
            let c = HandCube.center(face: i)
            Probe.expect(image, c.x, c.y, HandCube.colors[i], "supersampled face \(i + 1)")
        }
    }
}
