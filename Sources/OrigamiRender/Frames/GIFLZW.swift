/// A GIF image's pixel data, LZW-compressed (GIF89a appendix F) and cut into sub-blocks of at most 255 bytes,
/// each led by its length, ready to be copied into the file. Compressing needs no other frame, so frames are
/// compressed on the rendering threads and only copied in order (giflib's own encoder compresses as it writes,
/// on one thread).
///
/// The codes follow the widely used public-domain `gif.h` (Charlie Tangora): a string table of 4096 codes, the
/// code size growing when the next code reaches a power of two, a clear code when the table is full (code
/// 4095), and at the end the last run, a clear and the end code.
struct GIFImageData: Sendable {
    /// The LZW minimum code size: the colour table's bits, at least 2 (what giflib writes before the data).
    let minimumCodeSize: Int
    /// Sub-blocks: a length byte (1…255) and that many bytes, repeated; no terminator.
    let blocks: [UInt8]

    init(indices: [UInt8], colorCount: Int) {
        var bits = 1
        while 1 << bits < colorCount { bits += 1 }
        let minimum = max(2, bits)
        minimumCodeSize = minimum
        let clear = 1 << minimum, end = clear + 1
        // The string table as an open-addressing hash of (code, index) → code, 8192 slots (48 KiB: it stays in
        // cache, where a 4096 × 256 tree would miss on almost every step of a long run); at most 4093 entries
        // between clears, so it is never more than half full.
        let slots = 1 << 13, mask = slots - 1
        var keys = [UInt32](repeating: 0, count: slots)
        var codes = [UInt16](repeating: 0, count: slots)
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
            keys.withUnsafeMutableBufferPointer { keys in
                codes.withUnsafeMutableBufferPointer { codes in
                    for i in 1..<px.count {
                        let p = Int(px[i])
                        // current < 4096 and p < 256: the key fits 20 bits; + 1 keeps 0 for "empty".
                        let key = UInt32(current << 8 | p) + 1
                        var slot = Int((key &* 0x9E37_79B1) >> 19) & mask
                        var found = -1
                        while keys[slot] != 0 {
                            if keys[slot] == key { found = Int(codes[slot]); break }
                            slot = (slot + 1) & mask
                        }
                        if found >= 0 {
                            current = found
                            continue
                        }
                        writer.write(current, codeSize)
                        maxCode += 1
                        keys[slot] = key
                        codes[slot] = UInt16(maxCode)
                        if maxCode >= 1 << codeSize { codeSize += 1 }
                        if maxCode == 4095 {
                            writer.write(clear, codeSize)
                            keys.update(repeating: 0)
                            codeSize = minimum + 1
                            maxCode = end
                        }
                        current = p
                    }
                }
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
