import Foundation
import Origami

/// A folder of numbered PNGs, `frame-0001.png` on: numbered from 1 and zero-padded to the digits of the frame
/// count (at least 4, as a sweep's `variant-NNNN`), so names sort in frame order.
///
/// The folder is the animation's own: one that holds anything is refused unless `force`, which removes the
/// earlier `frame-<digits>.png` files first and leaves every other file alone. A missing folder is created (its
/// parent must exist). Each frame is written through `WritableDestination`; `cancel()` removes the frames this
/// writer wrote (and the folder, when it made it), so a failed or interrupted run leaves no partial sequence.
public final class PNGSequenceWriter: FrameSink {
    /// The folder the frames are written into.
    public let folder: URL
    /// How many frames the sequence has (it sets the digits of the names).
    public let frameCount: Int
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// How each frame's PNG is compressed.
    public let compression: PNGCompression
    private let protectedFiles: [ProtectedFile]
    private var written: [URL] = []
    private let createdFolder: Bool
    private var finished = false

    /// Checks and prepares `folder` for `frameCount` frames of `width` × `height` pixels.
    public init(folder: URL, frameCount: Int, width: Int, height: Int, compression: PNGCompression = .fast,
                force: Bool = false, protecting protectedFiles: [ProtectedFile] = []) throws {
        self.folder = folder; self.frameCount = frameCount; self.width = width; self.height = height
        self.compression = compression; self.protectedFiles = protectedFiles
        let path = folder.path
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw FrameOutputError("\(path) is not a folder", hint: "a PNG sequence is written into a folder; name a new or empty one")
            }
            let names = try Self.contents(of: folder)
            if !names.isEmpty {
                let frames = names.filter(Self.isFrameName)
                guard force else {
                    let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
                    throw FrameOutputError("\(path) is not empty (\(names.count) \(names.count == 1 ? "entry" : "entries"): \(shown))",
                                           hint: "choose an empty or new folder, or pass --force to write into it (its frame-NNNN.png files are removed first; nothing else is touched)")
                }
                // Every earlier frame is checked before any is removed: an input is never cleared.
                let urls = frames.map { folder.appendingPathComponent($0) }
                for url in urls { _ = try WritableDestination(url, protecting: protectedFiles) }
                for url in urls {
                    do { try FileManager.default.removeItem(at: url) } catch {
                        throw FrameOutputError("cannot clear \(url.path): \(error.localizedDescription)")
                    }
                }
            }
            createdFolder = false
        } else {
            let parent = folder.deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
                throw FrameOutputError("cannot create \(path): the folder \(parent) does not exist")
            }
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) } catch {
                throw FrameOutputError("cannot create \(path): \(error.localizedDescription)")
            }
            createdFolder = true
        }
        // The first frame's path stands for all: a folder that cannot take it fails here, before any rendering.
        do { _ = try WritableDestination(url(ofFrame: 0), protecting: protectedFiles) } catch {
            cancel()
            throw error
        }
    }

    deinit { if !finished { cancel() } }

    /// `frame-0007` for index 6: 1-based, zero-padded to the digits of the frame count (at least 4).
    public static func name(ofFrame index: Int, count: Int) -> String {
        let digits = String(index + 1)
        let width = max(4, String(count).count)
        return "frame-" + String(repeating: "0", count: max(0, width - digits.count)) + digits + ".png"
    }

    /// Where frame `index` (0-based) is written: `frame-0001.png` for the first of up to 9 999.
    public func url(ofFrame index: Int) -> URL {
        folder.appendingPathComponent(Self.name(ofFrame: index, count: frameCount))
    }

    /// `frame-<digits>.png`: the files a PNG sequence owns.
    static func isFrameName(_ name: String) -> Bool {
        guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return false }
        let digits = name.dropFirst("frame-".count).dropLast(".png".count)
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func contents(of folder: URL) throws -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() } catch {
            throw FrameOutputError("cannot read the folder \(folder.path): \(error.localizedDescription)")
        }
    }

    /// PNG compression runs on the rendering threads.
    public var preparation: @Sendable (Bitmap) throws -> any Sendable {
        { [width, height, compression] frame in
            try checkSize(frame, width: width, height: height)
            return try PNGWriter.encode(width: width, height: height, pixels: frame.pixels, compression: compression)
        }
    }

    public func add(prepared: any Sendable) throws {
        guard written.count < frameCount else {
            throw FrameOutputError("more than the \(frameCount) frames announced were given")
        }
        let data = try unwrap(prepared, as: Data.self)
        let url = url(ofFrame: written.count)
        try WritableDestination(url, protecting: protectedFiles).write(data)
        written.append(url)
    }

    public func finish() throws {
        guard written.count == frameCount else {
            throw FrameOutputError("\(written.count) of the \(frameCount) frames announced were given")
        }
        finished = true
    }

    public func cancel() {
        for url in written { try? FileManager.default.removeItem(at: url) }
        written = []
        // Only when empty: a file someone else put there meanwhile stays.
        if createdFolder { rmdir(folder.path) }
        finished = true
    }
}
