import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What a PNG's first 33 bytes declare: the signature and the IHDR chunk, checked (length, checksum, field
/// values) without decoding anything. Reading it costs one small read, so the size of every image a scene
/// names can be known — and checked against the limits — before a single pixel is allocated.
public struct PNGHeader: Hashable, Sendable {
    /// Image width in pixels.
    public let width: Int
    /// Image height in pixels.
    public let height: Int
    /// Bits per sample (or per palette index): 1, 2, 4, 8 or 16.
    public let bitDepth: Int
    /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA.
    public let colorType: Int

    /// The eight bytes every PNG starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Signature (8), IHDR length and type (8), its 13 bytes of data and its CRC (4).
    static let byteCount = 33

    /// Reads the header from the start of `data`. Throws `RenderError.unreadableImage` naming `name` with the
    /// reason: not a PNG at all (saying what the bytes start with), or a damaged header.
    public init(_ data: Data, name: String) throws(RenderError) {
        let bytes = [UInt8](data.prefix(Self.byteCount))
        func damaged(_ reason: String) -> RenderError { .unreadableImage(path: name, reason: "not a valid PNG (\(reason))") }
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.signature else {
            throw .unreadableImage(path: name, reason: "it is not a PNG file (\(Self.describeStart(bytes)))")
        }
        guard bytes.count == Self.byteCount else { throw damaged("it ends inside its header") }
        func be32(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        guard be32(8) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw damaged("it does not start with an IHDR chunk")
        }
        guard Self.crc32(bytes[12..<29]) == UInt32(be32(29)) else { throw damaged("its header's checksum is wrong") }
        let width = be32(16), height = be32(20)
        let depth = Int(bytes[24]), type = Int(bytes[25])
        // PNG §11.2.2: sizes are 1…2³¹−1; each colour type allows only some bit depths.
        guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
            throw damaged("its header declares \(width)×\(height) pixels")
        }
        let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard depths[type]?.contains(depth) == true else {
            throw damaged("its header declares colour type \(type) at bit depth \(depth)")
        }
        guard bytes[26] == 0, bytes[27] == 0, bytes[28] <= 1 else {
            throw damaged("its header declares an unknown compression, filter or interlace method")
        }
        self.width = width; self.height = height; self.bitDepth = depth; self.colorType = type
    }

    /// Reads only the header of the file at `url` (at most 33 bytes). Throws `RenderError.unreadableImage`
    /// naming the file when it is missing, not a regular file (a FIFO would block the read forever, a device
    /// never end), unreadable, not a PNG or has a damaged header.
    public init(contentsOf url: URL) throws(RenderError) {
        var info = stat()
        if stat(url.path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {   // after following links
            throw .unreadableImage(path: url.path, reason: "it is not a regular file")
        }
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw .unreadableImage(path: url.path, reason: FileManager.default.fileExists(atPath: url.path)
                                   ? "it cannot be read" : "no such file")
        }
        defer { try? handle.close() }
        let data: Data
        do { data = try handle.read(upToCount: Self.byteCount) ?? Data() } catch {
            throw .unreadableImage(path: url.path, reason: "it cannot be read")
        }
        try self.init(data, name: url.path)
    }

    /// Pixels once decoded (width × height cannot overflow: each is below 2³¹).
    public var pixelCount: Int { width * height }

    /// "it starts with `GIF89a`", "it starts with bytes 00 01 …" or "it is empty": what a file that is not a
    /// PNG holds instead, so a text file or a JPEG named `.png` is recognisable from the message.
    static func describeStart(_ bytes: [UInt8]) -> String {
        let start = bytes.prefix(8)
        guard !start.isEmpty else { return "it is empty" }
        let escapes: [UInt8: String] = [0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"]
        if start.allSatisfy({ (0x20...0x7E).contains($0) || escapes[$0] != nil }) {
            let text = start.map { escapes[$0] ?? String(UnicodeScalar($0)) }.joined()
            return "it starts with `\(text)`"
        }
        return "it starts with bytes " + start.map { String(format: "%02x", $0) }.joined(separator: " ")
    }

    /// CRC-32 (ISO 3309, as PNG uses), bit by bit: only ever run over a header's 17 bytes.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }
}
