#if canImport(Glibc)
import Glibc
#endif

/// A GIF image's pixel data, LZW-compressed (GIF89a appendix F) and cut into sub-blocks of at most 255 bytes,
/// each led by its length, ready to be copied into the file. Compressing needs no other frame, so frames are
/// compressed on the rendering threads and only copied in order (giflib's own encoder compresses as it writes,
/// on one thread).
///
/// The codes follow the widely used public-domain `gif.h` (Charlie Tangora): a code tree of 4096 nodes, the
/// code size growing when the next code reaches a power of two, a clear code when the table is full (code
/// 4095), and at the end the last run, a clear and the end code.
struct GIFImageData: Sendable {
    /// The LZW minimum code size: the colour table's bits, at least 2 (what giflib writes before the data).
    let minimumCodeSize: Int
    /// Sub-blocks: a length byte (1…255) and that many bytes, repeated; no terminator.
    let blocks: [UInt8]

    init(indices: [UInt8], colorCount: Int) throws(FrameOutputError) {
        var bits = 1
        while 1 << bits < colorCount { bits += 1 }
        let minimum = max(2, bits)
        minimumCodeSize = minimum
        let clear = 1 << minimum, end = clear + 1
        let stride = 1 << bits
        // tree[code · stride + index]: the code of run `code` followed by `index`, or 0 (no code is 0 there:
        // codes below `clear` are single pixels, never stored as children).
        // calloc: a large block comes zeroed from the kernel, page by page as it is touched. A clear zeroes only
        // the slots filled since the last one (at most 4093), not the whole tree.
        let treeSize = 4096 * stride
        guard let raw = calloc(treeSize, MemoryLayout<UInt16>.stride) else {
            throw FrameOutputError("there is not enough memory for the GIF's LZW table (\(treeSize * 2) bytes)")
        }
        let tree = raw.assumingMemoryBound(to: UInt16.self)
        defer { free(raw) }
        var filled: [Int] = []
        filled.reserveCapacity(4096)
        var writer = BitWriter(capacity: indices.count / 2 + 64)
        var codeSize = minimum + 1
        var maxCode = end
        writer.write(clear, codeSize)
        guard var current = indices.first.map(Int.init) else {
            writer.write(end, codeSize)
            blocks = writer.finish()
            return
        }
        indices.withUnsafeBufferPointer { px in
            for i in 1..<px.count {
                let p = Int(px[i])
                let next = tree[current * stride + p]
                if next != 0 {
                    current = Int(next)
                    continue
                }
                writer.write(current, codeSize)
                maxCode += 1
                tree[current * stride + p] = UInt16(maxCode)
                filled.append(current * stride + p)
                if maxCode >= 1 << codeSize { codeSize += 1 }
                if maxCode == 4095 {
                    writer.write(clear, codeSize)
                    for slot in filled { tree[slot] = 0 }
                    filled.removeAll(keepingCapacity: true)
                    codeSize = minimum + 1
                    maxCode = end
                }
                current = p
            }
        }
        writer.write(current, codeSize)
        writer.write(clear, codeSize)
        writer.write(end, minimum + 1)
        blocks = writer.finish()
    }
}

/// Codes packed least significant bit first, then cut into length-prefixed sub-blocks of 255 bytes.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var accumulator: UInt64 = 0
    private var count = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func write(_ code: Int, _ size: Int) {
        accumulator |= UInt64(code) << UInt64(count)
        count += size
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: accumulator))
            accumulator >>= 8
            count -= 8
        }
    }

    mutating func finish() -> [UInt8] {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: accumulator)) }
        accumulator = 0; count = 0
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 255 + 1)
        var start = 0
        while start < bytes.count {
            let end = min(start + 255, bytes.count)
            out.append(UInt8(end - start))
            out.append(contentsOf: bytes[start..<end])
            start = end
        }
        return out
    }
}
