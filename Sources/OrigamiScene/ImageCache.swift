import Foundation
import Origami
import OrigamiRender
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The images this process has decoded, one per file, shared by every layer, scene and thread that shows them.
///
/// A file is known by what `stat` says of it after following links — device, inode, size, modification and
/// change times — so a link and its target, or two spellings of one path, share an entry, while a file
/// rewritten in place (or a new file on a reused inode) is decoded afresh. Decoding holds only that file's
/// slot, so threads asking for one image wait for a single decode while other files decode alongside.
/// Entries beyond `capacity` decoded pixels are forgotten least recently used first (the bitmaps live on in
/// whatever scene holds them); a failed decode is not remembered.
final class ImageCache: Sendable {
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

    private final class Slot: Sendable {
        let bitmap = Mutex<Bitmap?>(nil)
    }

    private struct State {
        var slots: [FileIdentity: Slot] = [:]
        /// Least recently used first.
        var order: [FileIdentity] = []
        var pixels: [FileIdentity: Int] = [:]
        var cachedPixels = 0
        /// Decodes per file since the process started (for tests: never forgotten).
        var decodes: [FileIdentity: Int] = [:]

        mutating func touch(_ id: FileIdentity) {
            if let i = order.lastIndex(of: id) { order.remove(at: i) }
            order.append(id)
        }
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = capacity }

    /// The decoded image of the file `id` names: from the cache, or made by `decode` (once, however many threads
    /// ask at the same time).
    func bitmap(for id: FileIdentity, decode: () throws -> Bitmap) throws -> Bitmap {
        let slot = state.withLock { s -> Slot in
            s.touch(id)
            if let slot = s.slots[id] { return slot }
            let slot = Slot()
            s.slots[id] = slot
            return slot
        }
        return try slot.bitmap.withLock { cached -> Bitmap in
            if let cached { return cached }
            let made = try decode()
            cached = made
            didDecode(made, id: id, slot: slot)
            return made
        }
    }

    /// Counts the decode and forgets the least recently used other entries while over capacity. Called with the
    /// slot's lock held; `state`'s lock never waits for a slot's, so the two cannot deadlock.
    private func didDecode(_ bitmap: Bitmap, id: FileIdentity, slot: Slot) {
        state.withLock { s in
            s.decodes[id, default: 0] += 1
            // The slot may have been forgotten while it decoded: keep it only if it is still the file's slot.
            guard s.slots[id] === slot else { return }
            let size = bitmap.width * bitmap.height
            s.cachedPixels += size - (s.pixels[id] ?? 0)
            s.pixels[id] = size
            var i = 0
            while s.cachedPixels > capacity, i < s.order.count {
                let old = s.order[i]
                guard old != id, let oldSize = s.pixels[old] else { i += 1; continue }
                s.order.remove(at: i)
                s.slots[old] = nil
                s.pixels[old] = nil
                s.cachedPixels -= oldSize
            }
        }
    }

    /// How many times the file at `url` (as it is now) has been decoded by this process.
    func decodeCount(of url: URL) -> Int {
        guard let id = FileIdentity(url) else { return 0 }
        return state.withLock { $0.decodes[id] ?? 0 }
    }
}
