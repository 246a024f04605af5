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

    init(indices: [UInt8], colorCount: Int) {
        var bits = 1
        while 1 << bits < colorCount { bits += 1 }
        let minimum = max(2, bits)
        minimumCodeSize = minimum
        let clear = 1 << minimum, end = clear + 1
        let stride = 1 << bits
        // tree[code · stride + index]: the code of run `code` followed by `index`, or 0 (no code is 0 there:
        // codes below `clear` are single pixels, never stored as children).
        var tree = [UInt16](repeating: 0, count: 4096 * stride)
        var writer = BitWriter()
        var codeSize = minimum + 1
        var maxCode = end
        writer.write(clear, codeSize)
        guard var current = indices.first.map(Int.init) else {
            writer.write(end, codeSize)
            blocks = writer.finish()
            return
        }
        for pixel in indices.dropFirst() {
            let p = Int(pixel)
            let next = tree[current * stride + p]
            if next != 0 {
                current = Int(next)
                continue
            }
            writer.write(current, codeSize)
            maxCode += 1
            tree[current * stride + p] = UInt16(maxCode)
            if maxCode >= 1 << codeSize { codeSize += 1 }
            if maxCode == 4095 {
                writer.write(clear, codeSize)
                tree.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                codeSize = minimum + 1
                maxCode = end
            }
            current = p
        }
        writer.write(current, codeSize)
        writer.write(clear, codeSize)
        writer.write(end, minimum + 1)
        blocks = writer.finish()
    }
}

/// Codes packed least significant bit first, cut into length-prefixed sub-blocks of 255 bytes.
private struct BitWriter {
    private var bytes: [UInt8] = [0]
    private var accumulator: UInt32 = 0
    private var count = 0

    mutating func write(_ code: Int, _ size: Int) {
        accumulator |= UInt32(code) << UInt32(count)
        count += size
        while count >= 8 {
            append(UInt8(accumulator & 0xFF))
            accumulator >>= 8
            count -= 8
        }
    }

    private mutating func append(_ byte: UInt8) {
        // Byte 0 of each block is its length, filled in when the block is full.
        if bytes.count % 256 == 0 { bytes.append(0) }
        bytes.append(byte)
        let block = (bytes.count - 1) / 256 * 256
        bytes[block] = UInt8(bytes.count - block - 1)
    }

    mutating func finish() -> [UInt8] {
        if count > 0 { append(UInt8(accumulator & 0xFF)) }
        accumulator = 0; count = 0
        return bytes.count == 1 ? [] : bytes
    }
}
