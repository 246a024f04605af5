import Foundation
import Origami

extension Bitmap {
    /// Decodes a PNG file like `init(contentsOfPNG:)`, after checking — before anything is read into memory or
    /// allocated — the file's size against `limits.maxImageBytes` and the dimensions its header declares against
    /// `limits.maxImageSide` and `maxImagePixels`. A 20 KB PNG can declare 30000×30000 pixels of zeros, which
    /// would decode into 3.6 GB twice over.
    public init(contentsOfPNG url: URL, limits: RenderLimits) throws {
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
           size > limits.maxImageBytes {
            throw RenderError.limitExceeded(limit: "maxImageBytes", value: size, maximum: limits.maxImageBytes)
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw RenderError.unreadableImage(path: url.path, reason: FileManager.default.fileExists(atPath: url.path)
                                              ? "it cannot be read" : "no such file")
        }
        try self.init(pngData: data, name: url.path, limits: limits)
    }

    /// Decodes PNG bytes like `init(pngData:name:)`, after checking their size and the dimensions the header
    /// declares against `limits`. Bytes without a PNG header are left to the decoder, which names the problem.
    public init(pngData: Data, name: String = "<data>", limits: RenderLimits) throws {
        guard pngData.count <= limits.maxImageBytes else {
            throw RenderError.limitExceeded(limit: "maxImageBytes", value: pngData.count, maximum: limits.maxImageBytes)
        }
        if let (width, height) = PNGHeader.dimensions(of: pngData) {
            try limits.checkImage(width: width, height: height)
        }
        try self.init(pngData: pngData, name: name)
    }
}

/// Reads a PNG's declared size from its first chunk without decoding anything.
enum PNGHeader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Width and height from the IHDR chunk (bytes 16–23, big-endian); `nil` when the bytes do not start with
    /// a PNG signature followed by an IHDR chunk.
    static func dimensions(of data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            return nil
        }
        func be32(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }
}
