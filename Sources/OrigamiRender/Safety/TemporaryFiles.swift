import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The temporary files outputs are written through (`.NAME.origami-tmp-XXXXXX` beside the destination), kept
/// in a registry that a signal handler can read, so SIGINT, SIGTERM and SIGHUP remove them before the process
/// dies. `kill -9` cannot be caught: a file with that marker in its name is such a leftover and may be deleted.
///
/// The handler does only async-signal-safe things: atomic loads and stores, `unlink` on C strings copied
/// before the signal, `nanosleep`, `signal` and `raise`.
public enum TemporaryFiles {
    /// Installs the handlers (once per process; later calls do nothing). A signal the process ignores (a
    /// `nohup` job's SIGHUP) stays ignored. After removing the files the handler restores the default action
    /// and raises the signal again, so the process ends as the signal says (status 128 + N in a shell).
    public static func removeOnTerminationSignals() {
        _ = installation
    }

    private static let installation: Void = {
        // Start every global the handler reads before it can run: starting a lazy global is not signal-safe.
        _ = slots
        _ = terminating.load(ordering: .relaxed)
        _ = creating.load(ordering: .relaxed)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            let previous = signal(signalNumber, handleTermination)
            if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
                signal(signalNumber, SIG_IGN)
            }
        }
    }()

    // MARK: - Registry

    static let capacity = 256

    /// Each slot holds the address of a `strdup`ed path, or 0. A path leaves its slot either through the
    /// writer (which then frees it) or through the handler (which never frees: the process is ending).
    nonisolated(unsafe) static let slots: UnsafeMutablePointer<Atomic<Int>> = {
        let p = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: capacity)
        for i in 0..<capacity { (p + i).initialize(to: Atomic(0)) }
        return p
    }()

    /// Set by the handler before it removes anything: a writer that has not created its file yet gives up.
    static let terminating = Atomic<Bool>(false)
    /// Writers between registering a path and creating its file; the handler waits for them (briefly), so it
    /// never removes a path just before the file appears.
    static let creating = Atomic<Int>(0)

    /// The temporary files being written now (for tests).
    static var live: [String] {
        (0..<capacity).compactMap { i in
            let bits = slots[i].load(ordering: .acquiring)
            return bits == 0 ? nil : UnsafePointer<CChar>(bitPattern: bits).map { String(cString: $0) }
        }
    }

    fileprivate static func register(_ path: String) -> UnsafeMutablePointer<CChar>? {
        guard let copy = strdup(path) else { return nil }
        let bits = Int(bitPattern: copy)
        for i in 0..<capacity
        where slots[i].compareExchange(expected: 0, desired: bits, ordering: .sequentiallyConsistent).exchanged {
            return copy
        }
        // Every slot busy (hundreds of writes at once): this one is simply not removed on a signal.
        free(copy)
        return nil
    }

    fileprivate static func unregister(_ copy: UnsafeMutablePointer<CChar>?) {
        guard let copy else { return }
        let bits = Int(bitPattern: copy)
        for i in 0..<capacity
        where slots[i].compareExchange(expected: bits, desired: 0, ordering: .sequentiallyConsistent).exchanged {
            free(copy)
            return
        }
        // The handler took it and may still be reading it: leave it.
    }

    private static let handleTermination: @convention(c) (Int32) -> Void = { signalNumber in
        TemporaryFiles.terminating.store(true, ordering: .sequentiallyConsistent)
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        for _ in 0..<200 where TemporaryFiles.creating.load(ordering: .sequentiallyConsistent) > 0 {
            nanosleep(&pause, nil)
        }
        for i in 0..<TemporaryFiles.capacity {
            let bits = TemporaryFiles.slots[i].exchange(0, ordering: .sequentiallyConsistent)
            if bits != 0, let path = UnsafePointer<CChar>(bitPattern: bits) { unlink(path) }
        }
        signal(signalNumber, SIG_DFL)
        raise(signalNumber)
    }

    // MARK: - Writing

    struct Failure: Error { let message: String }

    fileprivate static func failure(_ what: String) -> Failure {
        Failure(message: "\(what): \(String(cString: strerror(errno)))")
    }

    /// Writes `data` to a new temporary file beside `target`, gives it `existing`'s mode (and owner and group
    /// where permitted), syncs it and renames it over `target`. The temporary file is gone when this returns.
    static func write(_ data: Data, replacing target: String, existing: stat?) throws(Failure) {
        let file = try create(beside: target)
        do throws(Failure) {
            try fill(file.fd, with: data)
            try file.commit(replacing: target, existing: existing)
        } catch {
            file.discard()
            throw error
        }
    }

    /// A temporary file beside its destination, filled a piece at a time (a GIF frame by frame, ffmpeg's
    /// output) and renamed over the destination by `commit`, or removed by `discard`. Registered for removal
    /// on SIGINT, SIGTERM and SIGHUP as long as it exists.
    final class Pending {
        let path: String
        fileprivate(set) var fd: Int32
        private var registered: UnsafeMutablePointer<CChar>?

        fileprivate init(path: String, fd: Int32, registered: UnsafeMutablePointer<CChar>?) {
            self.path = path; self.fd = fd; self.registered = registered
        }

        func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
            guard fd >= 0 else { throw Failure(message: "the file is closed") }
            try TemporaryFiles.fill(fd, bytes)
        }

        /// Gives the file `existing`'s mode (and owner and group where permitted), syncs it and renames it over
        /// `target`. On failure the temporary file is removed.
        func commit(replacing target: String, existing: stat?) throws(Failure) {
            guard fd >= 0 else { throw Failure(message: "the file is closed") }
            do throws(Failure) {
                if let existing {
                    // Owner first: changing it may clear set-id bits that the mode then restores.
                    if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                        _ = fchown(fd, existing.st_uid, existing.st_gid)
                    }
                    guard fchmod(fd, existing.st_mode & 0o7777) == 0 else { throw failure("cannot set the mode") }
                }
                guard fsync(fd) == 0 else { throw failure("cannot sync") }
                let closed = close(fd)
                fd = -1
                guard closed == 0 else { throw failure("cannot write") }
                guard rename(path, target) == 0 else { throw failure("cannot replace \(target)") }
            } catch {
                discard()
                throw error
            }
            unregister(registered)
            registered = nil
        }

        /// Removes the temporary file (nothing happens once it is committed or discarded).
        func discard() {
            guard fd >= 0 || registered != nil else { return }
            if fd >= 0 { close(fd); fd = -1 }
            unlink(path)
            unregister(registered)
            registered = nil
        }

        deinit { discard() }
    }

    /// Creates `.NAME.origami-tmp-XXXXXX` beside `target`, registered for removal on a termination signal.
    static func create(beside target: String) throws(Failure) -> Pending {
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        // Keep the temporary name within NAME_MAX (255 bytes) however long the destination's name is.
        var stem = ""
        for c in name {
            guard stem.utf8.count + String(c).utf8.count <= 200 else { break }
            stem.append(c)
        }
        creating.add(1, ordering: .sequentiallyConsistent)
        var registered: UnsafeMutablePointer<CChar>?
        var temporary = ""
        var fd: Int32 = -1
        for _ in 0..<100 {
            temporary = folder + "/." + stem + WritableDestination.temporaryMarker + randomSuffix()
            registered = register(temporary)
            if terminating.load(ordering: .sequentiallyConsistent) {
                unregister(registered)
                creating.subtract(1, ordering: .sequentiallyConsistent)
                throw Failure(message: "interrupted")
            }
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 || errno != EEXIST { break }
            unregister(registered)
            registered = nil
        }
        creating.subtract(1, ordering: .sequentiallyConsistent)
        guard fd >= 0 else {
            let error = failure("cannot create a temporary file in \(folder)")
            unregister(registered)
            throw error
        }
        return Pending(path: temporary, fd: fd, registered: registered)
    }

    private static func fill(_ fd: Int32, with data: Data) throws(Failure) {
        let problem: Failure? = data.withUnsafeBytes { raw in
            do throws(Failure) { try fill(fd, raw) } catch { return error }
            return nil
        }
        if let problem { throw problem }
    }

    fileprivate static func fill(_ fd: Int32, _ raw: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let n = Glibc.write(fd, base + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw failure("cannot write")
            }
            offset += n
        }
    }

    private static func randomSuffix() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in letters[Int(generator.next(upperBound: UInt(letters.count)))] })
    }
}
