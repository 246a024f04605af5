import Foundation
import Origami
@testable import OrigamiRender
import Testing
import TestSupport

@Suite("Frame pipeline: parallel rendering, in-order delivery, bounded memory, errors")
struct FramePipelineTests {
    /// A 1×1 frame whose pixel is its index, so the order can be read back.
    private static func frame(_ i: Int) throws -> Bitmap {
        guard let b = Bitmap(width: 1, height: 1, pixels: [UInt32(i)]) else { throw FrameOutputError("no bitmap") }
        return b
    }

    /// Counts frames rendered but not yet delivered.
    final class InFlight: @unchecked Sendable {
        private let lock = NSLock()
        private var rendered = 0, delivered = 0
        private(set) var most = 0
        private(set) var threads = Set<String>()
        func render() { lock.withLock { rendered += 1; most = max(most, rendered - delivered); threads.insert("\(Thread.current)") } }
        func deliver() { lock.withLock { delivered += 1 } }
    }

    @Test("frames arrive in order on the calling thread, never more than the window ahead", arguments: [1, 2, 3])
    func order(jobs: Int) throws {
        let counter = InFlight()
        var seen: [Int] = []
        try FramePipeline.run(count: 40, jobs: jobs, window: 4, makeWorker: { () }, render: { _, i in
            // Later frames finish first sometimes: out-of-order completion is what the pipeline must reorder.
            usleep(UInt32((40 - i) % 7) * 300)
            counter.render()
            return try Self.frame(i)
        }, deliver: { i, f in
            counter.deliver()
            #expect(Int(f.pixels[0]) == i)
            seen.append(i)
            usleep(200)
        })
        #expect(seen == Array(0..<40))
        // Window 4: at most 4 rendered frames wait, plus the one being delivered (taken, not yet counted).
        #expect(counter.most <= 5, "\(counter.most) frames were waiting at once")
    }

    @Test("each thread makes one worker and keeps it")
    func workers() throws {
        let made = InFlight()
        try FramePipeline.run(count: 12, jobs: 3, makeWorker: { made.render(); return 0 }, render: { w, i in
            w += 1
            return try Self.frame(i)
        }, deliver: { _, _ in })
        #expect(made.most == 3)
    }

    @Test("a worker's error stops the run and is thrown; so is the consumer's")
    func errors() throws {
        var delivered: [Int] = []
        #expect(throws: FrameOutputError("frame 5 failed")) {
            try FramePipeline.run(count: 1000, jobs: 2, makeWorker: { () }, render: { _, i in
                if i == 5 { throw FrameOutputError("frame 5 failed") }
                return try Self.frame(i)
            }, deliver: { i, _ in delivered.append(i) })
        }
        #expect(delivered.count <= 5)
        let rendered = InFlight()
        #expect(throws: FrameOutputError("the sink is full")) {
            try FramePipeline.run(count: 1000, jobs: 2, window: 4, makeWorker: { () }, render: { _, i in
                rendered.render()
                return try Self.frame(i)
            }, deliver: { i, _ in if i == 2 { throw FrameOutputError("the sink is full") } })
        }
        // The renderers stop within the window once the consumer gives up: nowhere near 1000 frames.
        #expect(rendered.most <= 8)
    }
}

@Suite("PNG sequence: names, ownership of the folder, cleanup")
struct PNGSequenceWriterTests {
    @Test("names are 1-based and zero-padded to the digits of the frame count, at least four")
    func names() {
        #expect(PNGSequenceWriter.name(ofFrame: 0, count: 3) == "frame-0001.png")
        #expect(PNGSequenceWriter.name(ofFrame: 9998, count: 9999) == "frame-9999.png")
        #expect(PNGSequenceWriter.name(ofFrame: 0, count: 10_000) == "frame-00001.png")
        #expect(PNGSequenceWriter.name(ofFrame: 9999, count: 10_000) == "frame-10000.png")
        #expect(PNGSequenceWriter.isFrameName("frame-0012.png"))
        #expect(!PNGSequenceWriter.isFrameName("frame-.png") && !PNGSequenceWriter.isFrameName("frame-12a.png")
                && !PNGSequenceWriter.isFrameName("notes.txt"))
    }

    @Test("a missing folder is made; a cancelled sequence removes its frames and the folder it made")
    func cancel() throws {
        let parent = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let folder = parent.appendingPathComponent("frames")
        let writer = try PNGSequenceWriter(folder: folder, frameCount: 3, width: 2, height: 2)
        let red = try #require(Bitmap(width: 2, height: 2, color: .red))
        try writer.add(red)
        try writer.add(red)
        #expect(try SpecialFiles.entries(folder) == ["frame-0001.png", "frame-0002.png"])
        #expect(throws: FrameOutputError("2 of the 3 frames announced were given")) { try writer.finish() }
        writer.cancel()
        #expect(try SpecialFiles.entries(parent) == [])
    }

    @Test("a folder holding anything is refused unless force, which removes only earlier frames")
    func ownership() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("keep".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data("old".utf8).write(to: folder.appendingPathComponent("frame-0007.png"))
        #expect(throws: FrameOutputError("\(folder.path) is not empty (2 entries: frame-0007.png, notes.txt)",
                                         hint: "choose an empty or new folder, or pass --force to write into it (its frame-NNNN.png files are removed first; nothing else is touched)")) {
            _ = try PNGSequenceWriter(folder: folder, frameCount: 1, width: 2, height: 2)
        }
        #expect(try SpecialFiles.entries(folder) == ["frame-0007.png", "notes.txt"])
        let writer = try PNGSequenceWriter(folder: folder, frameCount: 1, width: 2, height: 2, force: true)
        try writer.add(try #require(Bitmap(width: 2, height: 2, color: .blue)))
        try writer.finish()
        #expect(try SpecialFiles.entries(folder) == ["frame-0001.png", "notes.txt"])
        let decoded = try Bitmap(contentsOfPNG: folder.appendingPathComponent("frame-0001.png"))
        #expect(decoded == Bitmap(width: 2, height: 2, color: .blue))
        #expect(try Data(contentsOf: folder.appendingPathComponent("notes.txt")) == Data("keep".utf8))
    }

    @Test("an earlier frame that is a protected input is never cleared")
    func protectedFrame() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("frame-0001.png")
        try Data("scene".utf8).write(to: scene)
        #expect(throws: RenderError.writeFailed(path: scene.path, reason: "it is the scene file frame-0001.png; an output never replaces an input")) {
            _ = try PNGSequenceWriter(folder: folder, frameCount: 1, width: 2, height: 2, force: true,
                                      protecting: [ProtectedFile(scene, role: "the scene file")])
        }
        #expect(try Data(contentsOf: scene) == Data("scene".utf8))
    }
}
