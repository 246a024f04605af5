import Foundation

/// PNG files built byte by byte from the specification (PNG §5, RFC 1950/1951), so image tests do not depend
/// on the encoder under test.
public enum PNGFixture {
    /// A PNG of `width`×`height` black pixels, 1-bit greyscale: every filtered row is zero bytes, so the image
    /// data is a literal 0 followed by length-258 copies at distance 1 in one fixed-Huffman deflate block. An
    /// 8000×7900 image (253 MB once decoded to ARGB32) takes about 50 KB.
    public static func black(width: UInt32, height: UInt32) -> Data {
        let rowBytes = 1 + (Int(width) + 7) / 8
        let total = Int(height) * rowBytes
        var bits = BitWriter()
        bits.write(1, count: 1)                  // BFINAL
        bits.write(1, count: 2)                  // BTYPE 01: fixed Huffman codes
        bits.writeCode(0x30, length: 8)          // literal 0 (codes 0–143 are 0x30 + literal, 8 bits)
        var left = total - 1
        while left >= 258 {
            bits.writeCode(0xC5, length: 8)      // length symbol 285 (258 bytes): 0xC0 + (285 − 280), 8 bits
            bits.writeCode(0, length: 5)         // distance code 0: distance 1
            left -= 258
        }
        for _ in 0..<left { bits.writeCode(0x30, length: 8) }
        bits.writeCode(0, length: 7)             // end of block (256): 7 zero bits
        // Adler-32 of `total` zero bytes: a stays 1, b adds 1 per byte.
        let adler = UInt32(total % 65521) << 16 | 1
        let zlib = [0x78, 0x01] + bits.bytes + be(adler)
        return png(width: width, height: height, bitDepth: 1, colorType: 0, idat: zlib)
    }

    /// A PNG with the given header fields and IDAT bytes (checksums computed).
    public static func png(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 6,
                           idat: [UInt8]) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let t = Array(type.utf8)
            return be(UInt32(body.count)) + t + body + be(crc32(t + body))
        }
        let ihdr = be(width) + be(height) + [bitDepth, colorType, 0, 0, 0]
        return Data(signature + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", []))
    }

    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// CRC-32 (ISO 3309, as PNG uses), bit by bit.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    static func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    /// Deflate's bit order: values least significant bit first, Huffman codes most significant bit first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var used = 8

        mutating func write(_ value: UInt32, count: Int) {
            for i in 0..<count {
                if used == 8 { bytes.append(0); used = 0 }
                bytes[bytes.count - 1] |= UInt8((value >> UInt32(i)) & 1) << UInt8(used)
                used += 1
            }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            var reversed: UInt32 = 0
            for i in 0..<length { reversed |= ((code >> UInt32(i)) & 1) << UInt32(length - 1 - i) }
            write(reversed, count: length)
        }
    }
}
