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
            throw RenderError.limitExceeded(limit: .maxImageBytes, value: size, maximum: limits.maxImageBytes)
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw RenderError.unreadableImage(path: url.path, reason: FileManager.default.fileExists(atPath: url.path)
                                              ? "it cannot be read" : "no such file")
        }
        try self.init(pngData: data, name: url.path, limits: limits)
    }

    /// Decodes PNG bytes like `init(pngData:name:)`, after checking their size and the dimensions the header
    /// declares against `limits`.
    public init(pngData: Data, name: String = "<data>", limits: RenderLimits) throws {
        guard pngData.count <= limits.maxImageBytes else {
            throw RenderError.limitExceeded(limit: .maxImageBytes, value: pngData.count, maximum: limits.maxImageBytes)
        }
        let header = try PNGHeader(pngData, name: name)
        try limits.checkImage(width: header.width, height: header.height)
        try self.init(pngData: pngData, name: name)
    }
}
