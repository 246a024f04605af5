import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file a command reads, which none of its outputs may replace (DESIGN §6: outputs never destroy what they
/// do not own).
public struct ProtectedFile: Hashable, Sendable {
    /// The file.
    public var url: URL
    /// How messages name it: "the scene file", "an image the scene reads".
    public var role: String

    /// A file that no output may replace; `role` names it in messages.
    public init(_ url: URL, role: String) { self.url = url; self.role = role }
}

/// The one place outputs are written (renders, hit maps, sweep frames, sheets and data): whole files or
/// nothing, and never over something the output does not own (DESIGN §6).
///
/// - A device, FIFO or socket is refused: it is never opened, so nothing blocks and nothing is replaced.
/// - A symbolic link is followed to its target (a dangling link: the file it names is created, when that
///   folder exists), and the target is replaced: the link stays a link and shows the new content.
/// - The bytes go to `.NAME.origami-tmp-XXXXXX` beside the target, are synced, and are renamed over it
///   (atomic on one file system). An existing file keeps its mode, and its owner and group where the process
///   may set them (as root). A file nobody may write (mode 0444, say) is refused rather than replaced.
/// - A destination that is a `ProtectedFile` — the same device and inode after following links, so a
///   hard link or `./scene.yaml` is caught too — is refused.
/// - The temporary file is removed on every error and, through `TemporaryFiles`, on SIGINT and SIGTERM once
///   the program has called `TemporaryFiles.removeOnTerminationSignals()`. Only `kill -9` can leave one; its
///   name says what it is.
///
/// Every check runs when the destination is made (before any rendering work) and again just before writing.
public struct WritableDestination: Sendable {
    /// As the caller named it.
    public let url: URL
    /// Files this destination may not be (the same file after following links is refused).
    public let protectedFiles: [ProtectedFile]

    /// Checks `url` now; throws `RenderError.writeFailed` naming it and the reason.
    public init(_ url: URL, protecting protectedFiles: [ProtectedFile] = []) throws(RenderError) {
        self.url = url
        self.protectedFiles = protectedFiles
        _ = try resolve()
    }

    /// Checks that an output file can be created at `url`, before any work is done.
    public static func check(_ url: URL) throws(RenderError) {
        _ = try WritableDestination(url)
    }

    /// Replaces the destination with `data`, atomically.
    public func write(_ data: Data) throws(RenderError) {
        let target = try resolve()
        do {
            try TemporaryFiles.write(data, replacing: target.path, existing: target.existing)
        } catch let reason {
            throw .writeFailed(path: url.path, reason: reason.message)
        }
    }

    /// Starts writing the destination a piece at a time (an animation frame by frame, or another program's
    /// output): the bytes go to a temporary file beside it, which `OutputFile.commit()` renames over it after
    /// checking the destination again, and which is removed on `discard()`, on a termination signal, or when the
    /// `OutputFile` is released uncommitted.
    public func open() throws(RenderError) -> OutputFile {
        let target = try resolve()
        do {
            return OutputFile(destination: self, pending: try TemporaryFiles.create(beside: target.path))
        } catch let reason {
            throw .writeFailed(path: url.path, reason: reason.message)
        }
    }

    /// The suffix every temporary file carries (`.NAME.origami-tmp-XXXXXX`): what a user looks for after a
    /// `kill -9`.
    public static let temporaryMarker = ".origami-tmp-"

    // MARK: - Checks

    struct Target {
        /// The file the bytes replace: `url` with every symbolic link followed.
        var path: String
        /// Its status when it exists.
        var existing: stat?
    }

    private func fail(_ reason: String) -> RenderError { .writeFailed(path: url.path, reason: reason) }

    func resolve() throws(RenderError) -> Target {
        let path = try Self.followLinks(url.path, fail: fail)
        // "it is …" for the named file; "it is a link to T, which is …" when a link led elsewhere.
        let subject = path == url.path ? "it is" : "it is a link to \(path), which is"
        let folder = (path as NSString).deletingLastPathComponent
        var folderStatus = stat()
        guard stat(folder.isEmpty ? "." : folder, &folderStatus) == 0 else {
            throw fail(errno == ENOENT ? "the folder \(folder) does not exist"
                                       : "the folder \(folder): \(String(cString: strerror(errno)))")
        }
        guard Self.kind(folderStatus.st_mode) == S_IFDIR else { throw fail("\(folder) is not a folder") }
        guard access(folder, W_OK) == 0 else { throw fail("the folder \(folder) is not writable") }

        var status = stat()
        guard lstat(path, &status) == 0 else {
            guard errno == ENOENT else { throw fail(String(cString: strerror(errno))) }
            return Target(path: path, existing: nil)
        }
        switch Self.kind(status.st_mode) {
        case S_IFREG: break
        case S_IFDIR: throw fail(path == url.path ? "it is a folder" : "\(subject) a folder")
        case S_IFCHR: throw fail("\(subject) a character device; refusing to replace it")
        case S_IFBLK: throw fail("\(subject) a block device; refusing to replace it")
        case S_IFIFO: throw fail("\(subject) a FIFO (named pipe); refusing to replace it")
        case S_IFSOCK: throw fail("\(subject) a socket; refusing to replace it")
        default: throw fail("\(subject) not a regular file; refusing to replace it")
        }
        for input in protectedFiles {
            var inputStatus = stat()
            guard stat(input.url.path, &inputStatus) == 0 else { continue }
            if inputStatus.st_dev == status.st_dev && inputStatus.st_ino == status.st_ino {
                throw fail("\(subject) \(input.role) \(input.url.lastPathComponent); an output never replaces an input")
            }
        }
        // Root may write anything, so the mode bits speak for the owner: 0444 means "keep this".
        if status.st_mode & 0o222 == 0 || access(path, W_OK) != 0 {
            throw fail("\(subject) read-only; remove it or change its mode")
        }
        return Target(path: path, existing: status)
    }

    static func kind(_ mode: mode_t) -> mode_t { mode & S_IFMT }

    /// `path` with every symbolic link followed (the last one may dangle); relative link targets are read
    /// from the link's folder.
    static func followLinks(_ path: String, fail: (String) -> RenderError) throws(RenderError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, kind(status.st_mode) == S_IFLNK else { return current }
            var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = buffer.withUnsafeMutableBufferPointer { b in
                b.baseAddress.map { p in
                    p.withMemoryRebound(to: CChar.self, capacity: b.count) { readlink(current, $0, b.count - 1) }
                } ?? -1
            }
            guard count >= 0 else { throw fail("cannot read the link: \(String(cString: strerror(errno)))") }
            let target = String(decoding: buffer[0..<count], as: UTF8.self)
            current = target.hasPrefix("/") ? target : (current as NSString).deletingLastPathComponent + "/" + target
        }
        throw fail("too many levels of symbolic links")
    }
}

/// An output being written a piece at a time (see `WritableDestination.open()`). Not thread-safe: one writer.
public final class OutputFile: @unchecked Sendable {
    /// Where the output goes.
    public let destination: WritableDestination
    private let pending: TemporaryFiles.Pending

    init(destination: WritableDestination, pending: TemporaryFiles.Pending) {
        self.destination = destination; self.pending = pending
    }

    /// The temporary file's path, for a program that writes it itself (ffmpeg): it exists, empty, until
    /// `commit` or `discard`.
    public var temporaryPath: String { pending.path }

    /// Appends `bytes` to the temporary file; on failure the temporary file is discarded.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(RenderError) {
        do { try pending.append(bytes) } catch let reason {
            pending.discard()
            throw .writeFailed(path: destination.url.path, reason: reason.message)
        }
    }

    /// Appends `data` to the temporary file; on failure the temporary file is discarded.
    public func write(_ data: Data) throws(RenderError) {
        var problem: RenderError?
        data.withUnsafeBytes { raw in
            do throws(RenderError) { try write(raw) } catch { problem = error }
        }
        if let problem { throw problem }
    }

    /// Checks the destination again (it may have changed while the output was written) and renames the
    /// temporary file over it, giving it the mode of the file it replaces.
    public func commit() throws(RenderError) {
        let target: WritableDestination.Target
        do { target = try destination.resolve() } catch {
            pending.discard()
            throw error
        }
        do { try pending.commit(replacing: target.path, existing: target.existing) } catch let reason {
            throw .writeFailed(path: destination.url.path, reason: reason.message)
        }
    }

    /// Removes the temporary file; the destination is untouched.
    public func discard() { pending.discard() }
}
