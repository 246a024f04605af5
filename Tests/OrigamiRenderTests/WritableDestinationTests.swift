import Foundation
import Origami
@testable import OrigamiRender
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// DESIGN §6, "outputs never destroy what they do not own": every writer goes through `WritableDestination`.
/// Each case checks the exact message, that the thing at the destination is untouched, and that no temporary
/// file is left beside it.
@Suite("Safe destinations: devices, links, modes, inputs, formats")
struct WritableDestinationTests {
    private let new = Data("new".utf8)

    private func refusal(_ url: URL, _ reason: String) -> RenderError { .writeFailed(path: url.path, reason: reason) }

    // MARK: Devices, FIFOs, sockets

    @Test("a FIFO and a socket are refused without being opened, and stay what they are", arguments: ["fifo", "socket"])
    func pipesAndSockets(_ kind: String) throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.png")
        if kind == "fifo" { try SpecialFiles.makeFIFO(url) } else { try SpecialFiles.makeSocket(url) }
        let reason = kind == "fifo" ? "it is a FIFO (named pipe); refusing to replace it" : "it is a socket; refusing to replace it"
        // Opening a FIFO for writing would block with no reader: a hang here means the code opened it.
        #expect(throws: refusal(url, reason)) { try WritableDestination(url).write(new) }
        #expect(throws: refusal(url, reason)) { try WritableDestination.check(url) }
        #expect(try SpecialFiles.kind(url) == (kind == "fifo" ? S_IFIFO : S_IFSOCK))
        #expect(try SpecialFiles.entries(folder) == ["out.png"])
    }

    @Test("device nodes are refused without being opened, and stay device nodes", .enabled(if: SpecialFiles.isRoot,
          "mknod needs root"), arguments: [false, true])
    func devices(_ block: Bool) throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("null.png")
        try SpecialFiles.makeDevice(url, block: block)
        let reason = "it is a \(block ? "block" : "character") device; refusing to replace it"
        #expect(throws: refusal(url, reason)) { try WritableDestination(url).write(new) }
        #expect(try SpecialFiles.kind(url) == (block ? S_IFBLK : S_IFCHR))
        #expect(try SpecialFiles.entries(folder) == ["null.png"])
    }

    @Test("a link to a FIFO is refused, naming where it leads")
    func linkToFIFO() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe")
        try SpecialFiles.makeFIFO(fifo)
        let link = folder.appendingPathComponent("out.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "pipe")
        #expect(throws: refusal(link, "it is a link to \(fifo.path), which is a FIFO (named pipe); refusing to replace it")) {
            try WritableDestination(link).write(new)
        }
        #expect(try SpecialFiles.kind(fifo) == S_IFIFO && SpecialFiles.kind(link) == S_IFLNK)
    }

    // MARK: Symbolic links

    @Test("a link is written through: the link stays a link, its target gets the new bytes and keeps its mode")
    func writesThroughLinks() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sub = folder.appendingPathComponent("renders")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
        let target = sub.appendingPathComponent("real.png")
        try Data("old".utf8).write(to: target)
        try SpecialFiles.setMode(target, 0o640)
        // A chain of two links, the first relative to its own folder.
        let middle = sub.appendingPathComponent("middle.png")
        try FileManager.default.createSymbolicLink(atPath: middle.path, withDestinationPath: "real.png")
        let link = folder.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "renders/middle.png")

        try WritableDestination(link).write(new)

        #expect(try SpecialFiles.kind(link) == S_IFLNK && SpecialFiles.kind(middle) == S_IFLNK)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "renders/middle.png")
        #expect(try Data(contentsOf: target) == new)
        #expect(try SpecialFiles.mode(target) == 0o640)
        #expect(try SpecialFiles.entries(folder) == ["link.png", "renders"])
        #expect(try SpecialFiles.entries(sub) == ["middle.png", "real.png"])
    }

    @Test("a dangling link creates its target when the target's folder exists, and stays a link")
    func danglingLink() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("out.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "later.png")
        try WritableDestination(link).write(new)
        #expect(try SpecialFiles.kind(link) == S_IFLNK)
        #expect(try Data(contentsOf: folder.appendingPathComponent("later.png")) == new)
        #expect(try SpecialFiles.entries(folder) == ["later.png", "out.png"])
    }

    @Test("a dangling link into a missing folder, and a loop of links, are refused")
    func badLinks() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dangling = folder.appendingPathComponent("out.png")
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "gone/x.png")
        #expect(throws: refusal(dangling, "the folder \(folder.path)/gone does not exist")) {
            try WritableDestination(dangling).write(new)
        }
        let a = folder.appendingPathComponent("a.png"), b = folder.appendingPathComponent("b.png")
        try FileManager.default.createSymbolicLink(atPath: a.path, withDestinationPath: "b.png")
        try FileManager.default.createSymbolicLink(atPath: b.path, withDestinationPath: "a.png")
        #expect(throws: refusal(a, "too many levels of symbolic links")) { try WritableDestination(a).write(new) }
        #expect(try SpecialFiles.entries(folder) == ["a.png", "b.png", "out.png"])
        #expect(try [a, b, dangling].allSatisfy { try SpecialFiles.kind($0) == S_IFLNK })
    }

    // MARK: Modes and owners

    @Test("an existing file keeps its mode", arguments: [mode_t(0o600), 0o640, 0o755, 0o664])
    func modeKept(_ mode: mode_t) throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.png")
        try Data("old".utf8).write(to: url)
        try SpecialFiles.setMode(url, mode)
        try WritableDestination(url).write(new)
        #expect(try SpecialFiles.mode(url) == mode)
        #expect(try Data(contentsOf: url) == new)
        #expect(try SpecialFiles.entries(folder) == ["out.png"])
    }

    @Test("a new file gets the usual mode: 0666 less the umask")
    func newFileMode() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.png")
        try WritableDestination(url).write(new)
        // The umask, read without changing it (other tests run meanwhile).
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") })
        let mask = try #require(mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8))
        #expect(try SpecialFiles.mode(url) == 0o666 & ~mask)
    }

    @Test("as root, an existing file keeps its owner and group", .enabled(if: SpecialFiles.isRoot,
          "only root may give a file to another owner"))
    func ownerKept() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.png")
        try Data("old".utf8).write(to: url)
        #expect(chown(url.path, 1234, 5678) == 0)
        try SpecialFiles.setMode(url, 0o664)
        try WritableDestination(url).write(new)
        let status = try SpecialFiles.status(url)
        #expect(status.st_uid == 1234 && status.st_gid == 5678)
        #expect(status.st_mode & 0o7777 == 0o664)
    }

    @Test("a read-only file is refused, even for root, and left as it was")
    func readOnly() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("keep.png")
        try Data("precious".utf8).write(to: url)
        try SpecialFiles.setMode(url, 0o444)
        #expect(throws: refusal(url, "it is read-only; remove it or change its mode")) { try WritableDestination(url).write(new) }
        #expect(try Data(contentsOf: url) == Data("precious".utf8))
        #expect(try SpecialFiles.mode(url) == 0o444)
        #expect(try SpecialFiles.entries(folder) == ["keep.png"])
    }

    // MARK: Inputs

    @Test("an input is refused however it is named: the same path, ./path, a symbolic link or a hard link",
          arguments: ["same", "dot", "symlink", "hardlink"])
    func inputsAreProtected(_ naming: String) throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("scene.png")
        try Data("scene".utf8).write(to: scene)
        let protected = [ProtectedFile(scene, role: "the scene file")]
        let url: URL, reason: String
        switch naming {
        case "same":
            url = scene; reason = "it is the scene file scene.png; an output never replaces an input"
        case "dot":
            url = URL(fileURLWithPath: folder.path + "/./scene.png")
            reason = "it is the scene file scene.png; an output never replaces an input"
        case "symlink":
            url = folder.appendingPathComponent("link.png")
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "scene.png")
            reason = "it is a link to \(folder.path)/scene.png, which is the scene file scene.png; an output never replaces an input"
        default:
            url = folder.appendingPathComponent("hard.png")
            try FileManager.default.linkItem(at: scene, to: url)
            reason = "it is the scene file scene.png; an output never replaces an input"
        }
        #expect(throws: refusal(url, reason)) { try WritableDestination(url, protecting: protected).write(new) }
        #expect(try Data(contentsOf: scene) == Data("scene".utf8))
        #expect(try SpecialFiles.entries(folder).allSatisfy { !$0.contains(WritableDestination.temporaryMarker) })
    }

    @Test("Renderer.write refuses an input before rendering anything")
    func rendererProtectsInputs() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("texture.png")
        try Data("png".utf8).write(to: image)
        let (result, counter) = CairoResourceCounter.counting {
            Result {
                try Renderer.write(Layer(), size: CGSize(width: 10, height: 10), to: image,
                                   protecting: [ProtectedFile(image, role: "an image the scene reads")])
            }
        }
        #expect(throws: refusal(image, "it is an image the scene reads texture.png; an output never replaces an input")) {
            try result.get()
        }
        #expect(counter.createdCount == 0)
        #expect(try Data(contentsOf: image) == Data("png".utf8))
    }

    // MARK: Temporary files

    @Test("a finished write and a failed one leave no temporary file, and the registry is empty after them")
    func noTemporaryLeft() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.png")
        for _ in 0..<3 { try WritableDestination(url).write(new) }
        #expect(try SpecialFiles.entries(folder) == ["out.png"])
        // Checked, then the folder disappears before the write: the write fails and leaves nothing.
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: false)
        let destination = try WritableDestination(sub.appendingPathComponent("x.png"))
        try FileManager.default.removeItem(at: sub)
        #expect(throws: refusal(sub.appendingPathComponent("x.png"), "the folder \(sub.path) does not exist")) {
            try destination.write(new)
        }
        #expect(try SpecialFiles.entries(folder) == ["out.png"])
    }

    @Test("a write that fails after its temporary file was made removes it and leaves the registry empty")
    func failedRenameRemovesTemporary() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Renaming a file over a non-empty folder fails, for root too: the last step fails after the temporary
        // file is written and synced. (`WritableDestination` refuses a folder before it gets there.)
        let url = folder.appendingPathComponent("out.png")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        try Data().write(to: url.appendingPathComponent("inside"))
        #expect(throws: TemporaryFiles.Failure.self) { try TemporaryFiles.write(new, replacing: url.path, existing: nil) }
        #expect(try SpecialFiles.entries(folder) == ["out.png"])
        #expect(!TemporaryFiles.live.contains { $0.hasPrefix(folder.path) })
    }

    @Test("eight threads writing one destination at once: the file is one whole write, nothing else is left")
    func concurrentWrites() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("out.png")
        let payloads = (0..<8).map { Data(String(repeating: "\($0)", count: 100_000).utf8) }
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            for _ in 0..<10 { try? WritableDestination(url).write(payloads[i]) }
        }
        #expect(payloads.contains(try Data(contentsOf: url)))
        #expect(try SpecialFiles.entries(folder) == ["out.png"])
        #expect(!TemporaryFiles.live.contains { $0.hasPrefix(folder.path) })
    }

    // MARK: Formats

    @Test("the format comes from the extension, and an extension that disagrees is refused with the right name",
          arguments: [
              ("x.png", nil, ["png", "svg", "pdf"], "png"),
              ("X.SVG", nil, ["png", "svg", "pdf"], "svg"),
              ("x.pdf", "pdf", ["png", "svg", "pdf"], "pdf"),
              ("noextension", nil, ["png", "svg", "pdf"], "png"),
              ("noextension", "svg", ["png", "svg", "pdf"], "svg"),
              ("x.jpg", nil, ["png", "svg", "pdf"], "unsupported extension .jpg: use .png, .svg or .pdf"),
              ("x.jpg", "png", ["png", "svg", "pdf"], "unsupported extension .jpg: use .png, .svg or .pdf"),
              ("x.svg", "pdf", ["png", "svg", "pdf"], "x.svg names SVG but --format is pdf; use x.pdf"),
              ("x.png", "svg", ["png", "svg", "pdf"], "x.png names PNG but --format is svg; use x.svg"),
              ("x.svg", nil, ["png"], "hitmap writes PNG only; use x.png"),
              ("x.gif", nil, ["png"], "unsupported extension .gif: use .png"),
              ("x.png", "pdf", ["png"], "hitmap writes PNG only, not pdf"),
          ] as [(String, String?, [String], String)])
    func formats(_ name: String, _ requested: String?, _ allowed: [String], _ expected: String) throws {
        let url = URL(fileURLWithPath: "/tmp/out/\(name)")
        let allowedFormats = allowed.compactMap(OutputFormat.init(rawValue:))
        let result = Result { () throws(RenderError) in
            try OutputFormat.forFile(url, requested: requested.flatMap(OutputFormat.init(rawValue:)),
                                     allowed: allowedFormats, writer: "hitmap", requestedBy: "--format")
        }
        if let format = OutputFormat(rawValue: expected) {
            #expect(try result.get() == format)
        } else {
            #expect(throws: refusal(url, expected)) { try result.get() }
        }
    }

    @Test("Renderer.write and RenderedImage.write refuse a wrong extension before writing anything")
    func writersUseTheFormatRule() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpg = folder.appendingPathComponent("x.jpg"), svg = folder.appendingPathComponent("x.svg")
        #expect(throws: refusal(jpg, "unsupported extension .jpg: use .png, .svg or .pdf")) {
            try Renderer.write(Layer(), size: CGSize(width: 4, height: 4), to: jpg)
        }
        let image = try Renderer.render(Layer(), size: CGSize(width: 4, height: 4))
        #expect(throws: refusal(svg, "x.svg names SVG but the format asked for is pdf; use x.pdf")) {
            try image.write(to: svg, format: .pdf)
        }
        #expect(try SpecialFiles.entries(folder).isEmpty)
    }
}
