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

    private static func register(_ path: String) -> UnsafeMutablePointer<CChar>? {
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

    private static func unregister(_ copy: UnsafeMutablePointer<CChar>?) {
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

    private static func failure(_ what: String) -> Failure {
        Failure(message: "\(what): \(String(cString: strerror(errno)))")
    }

    /// Writes `data` to a new temporary file beside `target`, gives it `existing`'s mode (and owner and group
    /// where permitted), syncs it and renames it over `target`. The temporary file is gone when this returns.
    static func write(_ data: Data, replacing target: String, existing: stat?) throws(Failure) {
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
        defer { unregister(registered) }
        do throws(Failure) {
            try fill(fd, with: data)
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
            guard rename(temporary, target) == 0 else { throw failure("cannot replace \(target)") }
        } catch {
            if fd >= 0 { close(fd) }
            unlink(temporary)
            throw error
        }
    }

    private static func fill(_ fd: Int32, with data: Data) throws(Failure) {
        let problem: Failure? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return nil }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return failure("cannot write")
                }
                offset += n
            }
            return nil
        }
        if let problem { throw problem }
    }

    private static func randomSuffix() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<6).map { _ in letters[Int(generator.next(upperBound: UInt(letters.count)))] })
    }
}
