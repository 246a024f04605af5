import Dispatch
import Foundation
import Origami
import OrigamiRender
#if canImport(Glibc)
import Glibc
#endif

/// The images this process has decoded, one per file, shared by every layer, scene and thread that shows them.
///
/// A file is known by what `stat` says of it after following links — device, inode, size, modification and
/// change times — so a link and its target, or two spellings of one path, share an entry, while a file
/// rewritten in place (or a new file on a reused inode) is decoded afresh. Threads asking for one image wait
/// for a single decode while other files decode alongside.
/// Entries beyond `capacity` decoded pixels are forgotten least recently used first (the bitmaps live on in
/// whatever scene holds them); a failed decode is not remembered.
final class ImageCache: @unchecked Sendable {   // `state` is only touched under `lock`
    static let shared = ImageCache(capacity: 256 << 20)

    /// A file's identity and version, as `stat` reports it.
    struct FileIdentity: Hashable, Sendable {
        let device: UInt64, inode: UInt64, size: Int64
        let modified: Int64, modifiedNanoseconds: Int64, changed: Int64, changedNanoseconds: Int64

        /// `nil` when the file cannot be stat'ed.
        init?(_ url: URL) {
            var s = stat()
            guard stat(url.path, &s) == 0 else { return nil }
            device = UInt64(s.st_dev); inode = UInt64(s.st_ino); size = Int64(s.st_size)
            modified = Int64(s.st_mtim.tv_sec); modifiedNanoseconds = Int64(s.st_mtim.tv_nsec)
            changed = Int64(s.st_ctim.tv_sec); changedNanoseconds = Int64(s.st_ctim.tv_nsec)
        }
    }

    // Two tables rather than one of an enum: a multi-payload enum keeps its case in the pointer's spare bits,
    // which hides the bitmaps from LeakSanitizer (the fuzzer then reports the cache as a leak).
    private struct State {
        var decoded: [FileIdentity: Bitmap] = [:]
        /// Files being decoded by one thread; the others wait on the group (left when the decode ends either way).
        var decoding: [FileIdentity: DispatchGroup] = [:]
        /// Least recently used first.
        var order: [FileIdentity] = []
        var cachedPixels = 0
        /// Decodes per file since the process started (for tests: never forgotten).
        var decodes: [FileIdentity: Int] = [:]

        mutating func touch(_ id: FileIdentity) {
            if let i = order.lastIndex(of: id) { order.remove(at: i) }
            order.append(id)
        }

        mutating func forget(_ id: FileIdentity) {
            if let old = decoded.removeValue(forKey: id) { cachedPixels -= old.width * old.height }
            decoding[id] = nil
            if let i = order.lastIndex(of: id) { order.remove(at: i) }
        }
    }

    let capacity: Int
    /// Held only to read or change the table, never during a decode (which can take a second).
    ///
    /// An `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux a contended `Mutex` waits and
    /// hands over in the kernel (a priority-inheriting futex, in the uninstrumented library), so ThreadSanitizer
    /// sees no ordering between the threads and reports the table as raced — here one run in five of the
    /// concurrent-load test, which would break `make check`. ThreadSanitizer understands pthread mutexes.
    private let lock = NSLock()
    private var state = State()

    init(capacity: Int) { self.capacity = capacity }

    private func withState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// The decoded image of the file `id` names: from the cache, or made by `decode` — once, however many
    /// threads ask at the same time (the others wait for it; if it fails, the next one tries).
    func bitmap(for id: FileIdentity, decode: () throws -> Bitmap) throws -> Bitmap {
        enum Next { case have(Bitmap), wait(DispatchGroup), make(DispatchGroup) }
        while true {
            let next = withState { s -> Next in
                s.touch(id)
                if let bitmap = s.decoded[id] { return .have(bitmap) }
                if let group = s.decoding[id] { return .wait(group) }
                let group = DispatchGroup()
                group.enter()
                s.decoding[id] = group
                return .make(group)
            }
            switch next {
            case let .have(bitmap): return bitmap
            case let .wait(group): group.wait()
            case let .make(group):
                defer { group.leave() }
                do {
                    let bitmap = try decode()
                    withState { s in
                        s.decodes[id, default: 0] += 1
                        s.decoding[id] = nil
                        s.decoded[id] = bitmap
                        s.cachedPixels += bitmap.width * bitmap.height
                        // Forget the least recently used other images while over capacity.
                        var i = 0
                        while s.cachedPixels > capacity, i < s.order.count {
                            let old = s.order[i]
                            guard old != id, s.decoded[old] != nil else { i += 1; continue }
                            s.forget(old)
                        }
                    }
                    return bitmap
                } catch {
                    withState { $0.forget(id) }
                    throw error
                }
            }
        }
    }

    /// How many times the file at `url` (as it is now) has been decoded by this process.
    func decodeCount(of url: URL) -> Int {
        guard let id = FileIdentity(url) else { return 0 }
        return withState { $0.decodes[id] ?? 0 }
    }
}
