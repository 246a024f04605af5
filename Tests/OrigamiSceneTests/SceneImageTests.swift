import Dispatch
import Foundation
import Origami
import OrigamiRender
@testable import OrigamiScene
import Synchronization
import Testing
import TestSupport

// Issue 13 item 3: each image file is decoded once per process, the scene's images have a pixel budget checked
// from their headers, and loading `.sizeOnly` decodes nothing. Item 6: the small scene-file messages.

private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("origami-scene-images-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A scene showing the images at `paths`, one layer each, written into `dir` as `s.yaml`. Layer `i` is on line
/// `i + 3` and its `contents` value starts at column 26.
private func scene(_ paths: [String], in dir: URL) throws -> URL {
    var text = "canvas: {size: [20, 20]}\nlayers:\n"
    for (i, p) in paths.enumerated() { text += "  - {name: l\(i), contents: \(p), frame: [0, 0, 20, 20]}\n" }
    let url = dir.appendingPathComponent("s.yaml")
    try Data(text.utf8).write(to: url)
    return url
}

private func issues(_ url: URL, limits: SceneLimits = .default, images: ImageLoading = .decode) -> [String] {
    do {
        _ = try Scene.load(contentsOf: url, displayName: "s.yaml", limits: limits, images: images)
        return []
    } catch { return error.issues.map(\.description) }
}

@Suite("Scene images: decoded once, within a budget")
struct SceneImageMemoryTests {
    @Test("twelve layers showing one image decode it once and share its pixels")
    func twelveLayersOneDecode() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = dir.appendingPathComponent("big.png")
        try PNGFixture.black(width: 300, height: 200).write(to: image)
        let url = try scene(Array(repeating: "big.png", count: 12), in: dir)
        let s = try Scene.load(contentsOf: url)
        #expect(ImageCache.shared.decodeCount(of: image) == 1)
        let bitmaps = (0..<12).compactMap { s.layer(named: "l\($0)")?.contents }
        #expect(bitmaps.count == 12)
        #expect(bitmaps.allSatisfy { $0.width == 300 && $0.height == 200 && $0[299, 199] == 0xFF00_0000 })
        // One buffer, not twelve copies of it.
        let addresses = Set(bitmaps.map { $0.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } })
        #expect(addresses.count == 1)
        // The process keeps it: loading the scene again decodes nothing.
        _ = try Scene.load(contentsOf: url)
        #expect(ImageCache.shared.decodeCount(of: image) == 1)
    }

    @Test("four threads loading one scene at once decode its image once")
    func concurrentLoads() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = dir.appendingPathComponent("shared.png")
        // Large enough (16 MB decoded) that the threads overlap: three of them wait for the first one's decode.
        try PNGFixture.black(width: 2000, height: 2000).write(to: image)
        let url = try scene(Array(repeating: "shared.png", count: 3), in: dir)
        let text = try String(contentsOf: url, encoding: .utf8)
        // Each thread writes its own slot, so the test itself needs no lock.
        var widths = [Int](repeating: 0, count: 4)
        widths.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out
            DispatchQueue.concurrentPerform(iterations: 4) { i in
                out[i] = (try? Scene.decode(text, baseURL: dir))?.layer(named: "l2")?.contents?.width ?? 0
            }
        }
        #expect(widths == [2000, 2000, 2000, 2000])
        #expect(ImageCache.shared.decodeCount(of: image) == 1)
    }

    @Test("a link, a second spelling and the file itself count once against the budget")
    func oneFileManyNames() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = dir.appendingPathComponent("a.png")
        try PNGFixture.black(width: 64, height: 64).write(to: image)
        try FileManager.default.createSymbolicLink(at: dir.appendingPathComponent("link.png"), withDestinationURL: image)
        var limits = SceneLimits()
        limits.imagePixelBudget = 64 * 64
        let url = try scene(["a.png", "./a.png", "link.png"], in: dir)
        #expect(issues(url, limits: limits) == [])
        #expect(ImageCache.shared.decodeCount(of: image) == 1)
    }

    @Test("a file rewritten in place is decoded afresh")
    func rewrittenFile() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let image = dir.appendingPathComponent("a.png")
        try PNGFixture.black(width: 10, height: 10).write(to: image)
        let url = try scene(["a.png"], in: dir)
        #expect(try Scene.load(contentsOf: url).layer(named: "l0")?.contents?.width == 10)
        try PNGFixture.black(width: 30, height: 10).write(to: image)
        #expect(try Scene.load(contentsOf: url).layer(named: "l0")?.contents?.width == 30)
    }

    @Test("an image past the budget is refused, located, before it is decoded")
    func overBudget() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try PNGFixture.black(width: 64, height: 64).write(to: dir.appendingPathComponent("a.png"))
        try PNGFixture.black(width: 100, height: 50).write(to: dir.appendingPathComponent("b.png"))
        let url = try scene(["a.png", "a.png", "b.png"], in: dir)
        var limits = SceneLimits()
        // 64·64 = 4096 fits; a second reference to it costs nothing; b's 5000 more would make 9096.
        limits.imagePixelBudget = 9000
        let hint = "raise the budget with --max-image-pixels; an image shown by several layers counts once"
        #expect(issues(url, limits: limits) == [
            "s.yaml:5:26: layers[2].contents: image `b.png` has 100×50 = 5000 pixels, which with the scene's other images (4096 pixels) is over the budget of 9000; \(hint)",
        ])
        #expect(ImageCache.shared.decodeCount(of: dir.appendingPathComponent("b.png")) == 0)
        limits.imagePixelBudget = 4000
        let alone = try scene(["a.png"], in: dir)
        #expect(issues(alone, limits: limits) == [
            "s.yaml:3:26: layers[0].contents: image `a.png` has 64×64 = 4096 pixels, over the budget of 4000 for the scene's images; \(hint)",
        ])
        // The same checks without decoding: a command that only hit-tests gets the same answer.
        #expect(issues(alone, limits: limits, images: .sizeOnly).count == 1)
        limits.imagePixelBudget = 9096
        #expect(issues(url, limits: limits) == [])
    }

    @Test("loading sizeOnly decodes nothing, yet still checks every image's header")
    func sizeOnly() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good.png")
        try PNGFixture.black(width: 64, height: 64).write(to: good)
        // Cut after the header: only decoding would notice.
        try PNGFixture.black(width: 64, height: 64).prefix(40).write(to: dir.appendingPathComponent("cut.png"))
        var damaged = [UInt8](PNGFixture.black(width: 64, height: 64))
        damaged[23] ^= 0x01 // the height's last byte (IHDR data is bytes 16–28): the IHDR checksum no longer matches
        try Data(damaged).write(to: dir.appendingPathComponent("damaged.png"))

        let s = try Scene.load(contentsOf: try scene(["good.png", "cut.png", "good.png"], in: dir), images: .sizeOnly)
        #expect(s.layer(named: "l0")?.contents == nil && s.layer(named: "l2")?.frame.width == 20)
        #expect(ImageCache.shared.decodeCount(of: good) == 0)
        #expect(issues(try scene(["good.png", "damaged.png"], in: dir), images: .sizeOnly) == [
            "s.yaml:4:26: layers[1].contents: cannot read image `damaged.png`: not a valid PNG (its header's checksum is wrong)",
        ])
        // Decoding finds what the header could not tell.
        #expect(issues(try scene(["cut.png"], in: dir)) == [
            "s.yaml:3:26: layers[0].contents: cannot read image `cut.png`: not a valid PNG (it is cut short)",
        ])
    }
}

@Suite("Scene images that are not files")
struct SceneImageFileTypeTests {
    @Test("a FIFO or a folder named .png is refused, located, without reading it (a FIFO would block forever)",
          arguments: ["fifo", "folder"])
    func notARegularFile(_ kind: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("x.png")
        if kind == "fifo" {
            try #require(mkfifo(url.path, 0o600) == 0)
        } else {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        }
        for loading in [ImageLoading.decode, .sizeOnly] {
            #expect(issues(try scene(["x.png"], in: dir), images: loading) == [
                "s.yaml:3:26: layers[0].contents: cannot read image `x.png`: it is not a regular file",
            ])
        }
    }
}

@Suite("Image cache")
struct ImageCacheTests {
    @Test("entries past the capacity are forgotten least recently used first; a failed decode is not kept")
    func eviction() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        var ids: [ImageCache.FileIdentity] = []
        for name in ["a", "b", "c"] {
            let url = dir.appendingPathComponent("\(name).png")
            try PNGFixture.black(width: 8, height: 8).write(to: url)
            ids.append(try #require(ImageCache.FileIdentity(url)))
        }
        // Room for two 8×8 images.
        let cache = ImageCache(capacity: 128)
        let eight = try #require(Bitmap(width: 8, height: 8, color: .black))
        let decodes = Mutex(0)
        func get(_ i: Int) throws -> Bitmap {
            try cache.bitmap(for: ids[i]) { decodes.withLock { $0 += 1 }; return eight }
        }
        _ = try get(0); _ = try get(1); _ = try get(0)   // a was used last: b is the oldest
        _ = try get(2)                                   // over capacity: b goes
        #expect(decodes.withLock { $0 } == 3)
        _ = try get(0); _ = try get(2)
        #expect(decodes.withLock { $0 } == 3)
        _ = try get(1)                                   // a is now the oldest, and goes
        #expect(decodes.withLock { $0 } == 4)
        struct Refused: Error {}
        // A cached image is returned without decoding; an image that failed to decode is tried again.
        #expect(try cache.bitmap(for: ids[2]) { throw Refused() } == eight)
        #expect(throws: Refused.self) { _ = try cache.bitmap(for: ids[0]) { throw Refused() } }
        let fresh = ImageCache(capacity: 128)
        #expect(throws: Refused.self) { _ = try fresh.bitmap(for: ids[0]) { throw Refused() } }
        #expect(try fresh.bitmap(for: ids[0]) { eight } == eight)
    }
}

@Suite("Scene files: text and image-path messages (issue 13 item 6)")
struct SceneTextAndPathMessageTests {
    private func decodeIssues(_ text: String, base: URL? = nil, limits: SceneLimits = .default) -> [String] {
        do { _ = try Scene.decode(text, file: "s.yaml", baseURL: base, limits: limits); return [] } catch {
            return error.issues.map(\.description)
        }
    }

    @Test("a NUL in a text string is refused where it is written")
    func nulInText() {
        let text = "canvas: {size: [10, 10]}\nlayers:\n  - {type: text, string: \"ab\\0cd\"}\n"
        #expect(decodeIssues(text) == [
            "s.yaml:3:26: layers[0].string: the text contains a NUL character; remove the `\\0` (or `\\x00`) from the string",
        ])
    }

    @Test("a text over the byte limit is located at its string")
    func textOverTheLimit() {
        var limits = SceneLimits()
        limits.render.maxTextBytes = 8
        // "héllo wö" is 10 bytes of UTF-8 (é and ö take two each) in 8 characters.
        let text = "canvas: {size: [10, 10]}\nlayers:\n  - {type: text, string: héllo wö}\n"
        #expect(decodeIssues(text, limits: limits) == [
            "s.yaml:3:26: layers[0].string: the text has 10 bytes, over the limit of 8; split it among several text layers",
        ])
        limits.render.maxTextBytes = 10
        #expect(decodeIssues(text, limits: limits) == [])
    }

    @Test("a file named .png that is not a PNG says what it starts with",
          arguments: [("notes.png", Data("hello\nworld, this is text".utf8), "it starts with `hello\\nwo`"),
                      ("photo.png", Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46]),
                       "it starts with bytes ff d8 ff e0 00 10 4a 46"),
                      ("empty.png", Data(), "it is empty")])
    func notAPNG(_ name: String, _ bytes: Data, _ start: String) throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try bytes.write(to: dir.appendingPathComponent(name))
        #expect(decodeIssues("canvas: {size: [10, 10]}\nlayers: [{contents: \(name)}]", base: dir) == [
            "s.yaml:2:21: layers[0].contents: cannot read image `\(name)`: it is not a PNG file (\(start))",
        ])
    }

    @Test("an empty image path says so")
    func emptyPath() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(decodeIssues("canvas: {size: [10, 10]}\nlayers: [{contents: \"\"}]", base: dir) == [
            "s.yaml:2:21: layers[0].contents: empty image path; name a PNG file, relative to the scene file's folder",
        ])
    }

    @Test("an image path leaving the scene's folder names the option that allows it")
    func outsideHint() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(decodeIssues("canvas: {size: [10, 10]}\nlayers: [{contents: ../x.png}]", base: dir) == [
            "s.yaml:2:21: layers[0].contents: image path `../x.png` leaves the scene's folder; keep images beside the scene file, or pass --allow-outside-images",
        ])
    }
}
