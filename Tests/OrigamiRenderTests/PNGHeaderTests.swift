import Foundation
@testable import OrigamiRender
import Testing
import TestSupport

// The header a scene's images are sized and checked from before anything is decoded (issue 13 item 3): PNG
// §5.2 (signature), §11.2.2 (IHDR: 13 bytes, sizes 1…2³¹−1, the bit depths each colour type allows, methods 0).

/// A PNG whose IHDR holds the given fields, with a correct checksum.
private func header(width: UInt32 = 3, height: UInt32 = 2, depth: UInt8 = 8, type: UInt8 = 6, interlace: UInt8 = 0) -> Data {
    var bytes = [UInt8](PNGFixture.png(width: width, height: height, bitDepth: depth, colorType: type, idat: []))
    bytes[28] = interlace
    let crc = PNGFixture.crc32(Array(bytes[12..<29]))
    bytes[29...32] = [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    return Data(bytes)
}

private func reason(_ data: Data) -> String? {
    do { _ = try PNGHeader(data, name: "x.png"); return nil } catch {
        guard case let .unreadableImage(path, reason) = error, path == "x.png" else { return "\(error)" }
        return reason
    }
}

@Suite("PNG header")
struct PNGHeaderTests {
    @Test("the fields are read from IHDR")
    func fields() throws {
        let h = try PNGHeader(header(width: 8000, height: 7900, depth: 16, type: 2), name: "x.png")
        #expect(h.width == 8000 && h.height == 7900 && h.bitDepth == 16 && h.colorType == 2)
        #expect(h.pixelCount == 63_200_000)
    }

    @Test("every bit depth PNG allows for each colour type is accepted, and no other",
          arguments: [UInt8(0), 2, 3, 4, 6, 5])
    func depths(_ type: UInt8) {
        let allowed: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        for depth in [UInt8(1), 2, 4, 7, 8, 16, 32] {
            let expected = allowed[type]?.contains(depth) == true
                ? nil : "not a valid PNG (its header declares colour type \(type) at bit depth \(depth))"
            #expect(reason(header(depth: depth, type: type)) == expected, "type \(type), depth \(depth)")
        }
    }

    @Test("damaged headers are named", arguments: [
        ("zero width", header(width: 0), "not a valid PNG (its header declares 0×2 pixels)"),
        ("width over 2³¹−1", header(width: 0x8000_0000), "not a valid PNG (its header declares 2147483648×2 pixels)"),
        ("interlace method 2", header(interlace: 2),
         "not a valid PNG (its header declares an unknown compression, filter or interlace method)"),
        ("cut inside IHDR", header().prefix(20), "not a valid PNG (it ends inside its header)"),
    ])
    func damaged(_ what: String, _ data: Data, _ expected: String) {
        #expect(reason(data) == expected, "\(what)")
    }

    @Test("a first chunk other than IHDR is refused")
    func notIHDR() {
        var bytes = [UInt8](header())
        bytes[12...15] = [0x49, 0x44, 0x41, 0x54] // "IDAT"
        #expect(reason(Data(bytes)) == "not a valid PNG (it does not start with an IHDR chunk)")
    }

    @Test("reading from a file reads the header only: damage after it goes unseen")
    func fileHeaderOnly() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-png-header-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("a.png")
        try (header(width: 5, height: 4) + Data(repeating: 0xEE, count: 1000)).write(to: url)
        #expect(try PNGHeader(contentsOf: url).width == 5)
        #expect(throws: RenderError.unreadableImage(path: dir.appendingPathComponent("b.png").path, reason: "no such file")) {
            _ = try PNGHeader(contentsOf: dir.appendingPathComponent("b.png"))
        }
    }
}
