import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Asks the allocator, before a large buffer whose size comes from the input is made, whether it can have it.
///
/// Swift's own allocations (an `Array` of pixels) stop the process when `malloc` fails — under `ulimit -v`, a
/// container's memory limit or on a 32-bit address space — and Cairo turns a failed allocation into a sticky
/// error surface. Probing first turns both into a clear error: the blocks are allocated and freed at once
/// (large blocks are mapped, not touched, so this costs a system call, not the memory), and the real
/// allocation that follows asks for no more than was just granted.
enum MemoryProbe {
    /// Whether all of `sizes` (bytes) can be held at once.
    static func canAllocate(_ sizes: Int...) -> Bool {
        var blocks: [UnsafeMutableRawPointer] = []
        defer { blocks.forEach { free($0) } }
        for size in sizes where size > 0 {
            guard let block = malloc(size) else { return false }
            blocks.append(block)
        }
        return true
    }

    /// `241 MiB`, `12 KiB`: a size as a person reads it.
    static func describe(bytes: Int) -> String {
        bytes >= 1 << 20 ? "\((bytes + (1 << 19)) >> 20) MiB" : "\((bytes + 512) >> 10) KiB"
    }
}
