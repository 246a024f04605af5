import Foundation
import Origami
@testable import OrigamiRender
import Testing

@Suite("PNG writer: libpng, compression settings, exact round trips")
struct PNGWriterTests {
    /// Every premultiplied value a pixel can hold for a spread of alphas: channel c ≤ alpha a (a = 0 forces 0).
    static func premultipliedPixels() -> RenderedImage? {
        var pixels: [UInt32] = []
        for a in [0, 1, 2, 3, 17, 64, 127, 128, 200, 254, 255] as [UInt32] {
            for c in 0...255 as ClosedRange<UInt32> {
                let v = min(c, a)
                pixels.append(a << 24 | v << 16 | (a - v) << 8 | (v / 2))
            }
        }
        let width = 256, height = pixels.count / width
        return image(width: width, height: height, pixels: pixels)
    }

    static func image(width: Int, height: Int, pixels: [UInt32], options: RenderOptions = RenderOptions()) -> RenderedImage? {
        guard let tree = try? RenderTree(root: Layer()) else { return nil }
        return RenderedImage(width: width, height: height, pixels: pixels, tree: tree,
                             size: CGSize(width: width, height: height), options: options)
    }

    /// PNG header bytes: the IHDR chunk's colour type sits at byte 25 (8 signature + 4 length + 4 "IHDR" +
    /// 4 width + 4 height + 1 bit depth).
    static func colourType(_ png: Data) -> UInt8? { png.count > 25 ? png[png.startIndex + 25] : nil }

    // Derivation of exactness: the writer stores c' = ⌊(255·c + ⌊a/2⌋) / a⌋, i.e. 255·c/a rounded, so
    // c'·a/255 = c + e·a/255 with |e| ≤ 1/2, which is within 1/2 of c when a < 255 (and exact at a = 255);
    // Cairo's reader rounds c'·a/255 to nearest, which gives back c. Alpha-0 pixels are (0,0,0,0) both ways.
    @Test("translucent pixels decode to exactly the premultiplied values written", arguments: PNGCompression.allCases)
    func exactRoundTrip(_ compression: PNGCompression) throws {
        let image = try #require(Self.premultipliedPixels())
        let png = try image.pngData(compression: compression)
        #expect(Self.colourType(png) == 6, "RGBA when some pixel is not opaque")
        let decoded = try Bitmap(pngData: png)
        #expect(decoded.width == image.width && decoded.height == image.height)
        let mismatches = zip(decoded.pixels, image.pixels).filter { $0 != $1 }.count
        #expect(mismatches == 0, "\(mismatches) pixels changed")
    }

    @Test("an opaque frame is written as RGB and decodes to the same pixels", arguments: PNGCompression.allCases)
    func opaqueAsRGB(_ compression: PNGCompression) throws {
        var pixels: [UInt32] = []
        for y in 0..<48 {
            for x in 0..<64 {
                let red = UInt32(x * 4) << 16, green = UInt32(y * 5) << 8
                pixels.append(0xFF00_0000 | red | green | 0x40)
            }
        }
        let image = try #require(Self.image(width: 64, height: 48, pixels: pixels))
        let png = try image.pngData(compression: compression)
        #expect(Self.colourType(png) == 2, "colour type 2 (RGB): no alpha channel to store")
        #expect(try Bitmap(pngData: png).pixels == pixels)
    }

    @Test("bytes are the same on every encode; smallest is smaller than fast on a rendered image face")
    func deterministicAndSmaller() throws {
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 256, height: 256))
        var texels: [UInt32] = []
        for y in 0..<64 {
            for x in 0..<64 {
                let red = UInt32(x * 4) << 16, green = UInt32(y * 4) << 8, blue = UInt32((x ^ y) * 4)
                texels.append(0xFF00_0000 | red | green | blue)
            }
        }
        layer.contents = Bitmap(width: 64, height: 64, pixels: texels)
        let image = try Renderer.render(layer, size: CGSize(width: 256, height: 256))
        let fast = try image.pngData(compression: .fast), again = try image.pngData(compression: .fast)
        let smallest = try image.pngData(compression: .smallest)
        #expect(fast == again)
        #expect(smallest.count < fast.count, "smallest \(smallest.count) bytes, fast \(fast.count)")
        #expect(try Bitmap(pngData: smallest).pixels == image.pixels)
    }

    @Test("pngData() follows the options' pngCompression, fast by default")
    func optionsChooseCompression() throws {
        #expect(RenderOptions().pngCompression == .fast)
        let layer = Layer(frame: CGRect(x: 0, y: 0, width: 32, height: 32))
        layer.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5)
        let plain = try Renderer.render(layer, size: CGSize(width: 32, height: 32))
        #expect(try plain.pngData() == plain.pngData(compression: .fast))
        let small = try Renderer.render(layer, size: CGSize(width: 32, height: 32),
                                        options: RenderOptions(pngCompression: .smallest))
        #expect(try small.pngData() == small.pngData(compression: .smallest))
    }

    /// Sizes the encoder does not take are refused with an error, checked before their product is formed (a side
    /// of 2⁶² times 4 would overflow it), and a pixel count that does not match the size likewise.
    @Test("sizes out of range and mismatched pixel counts are refused, never trapped on")
    func refusedSizes() {
        for (width, height, count) in [(1 << 62, 4, 0), (0, 5, 0), (32768, 1, 32768), (4, 4, 15)] {
            #expect(throws: RenderError.self) {
                try PNGWriter.encode(width: width, height: height, pixels: Array(repeating: 0xFF00_0000, count: count),
                                     compression: .fast)
            }
        }
    }
}
