import CGif
import Foundation
import Origami
@testable import OrigamiRender
import Testing
import TestSupport

/// A GIF read back with giflib's own decoder (DGifSlurp), independent of the writer's code.
struct DecodedGIF {
    struct Frame {
        var delay: Int
        var transparentIndex: Int?
        var disposal: Int32
        var width: Int
        var height: Int
        var palette: [(UInt8, UInt8, UInt8)]
        var indices: [UInt8]

        /// Straight RGBA; alpha 0 for the transparent index.
        func rgba(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
            let i = Int(indices[y * width + x])
            if i == transparentIndex { return (0, 0, 0, 0) }
            let c = palette[i]
            return (Int(c.0), Int(c.1), Int(c.2), 255)
        }
    }

    var width = 0
    var height = 0
    var loopsForever = false
    var frames: [Frame] = []

    init(_ url: URL) throws {
        var error: Int32 = 0
        let gif = try #require(DGifOpenFileName(url.path, &error), "DGifOpenFileName: error \(error)")
        defer { DGifCloseFile(gif, &error) }
        try #require(DGifSlurp(gif) == GIF_OK, "DGifSlurp: error \(gif.pointee.Error)")
        width = Int(gif.pointee.SWidth); height = Int(gif.pointee.SHeight)
        for i in 0..<Int(gif.pointee.ImageCount) {
            let image = gif.pointee.SavedImages[i]
            // giflib keeps an image's extension blocks with it: the NETSCAPE2.0 block precedes the first image.
            for e in 0..<Int(image.ExtensionBlockCount) {
                let block = image.ExtensionBlocks[e]
                if block.Function == APPLICATION_EXT_FUNC_CODE, block.ByteCount == 11,
                   String(decoding: UnsafeBufferPointer(start: block.Bytes, count: 11), as: UTF8.self) == "NETSCAPE2.0",
                   e + 1 < Int(image.ExtensionBlockCount) {
                    let next = image.ExtensionBlocks[e + 1]
                    let bytes = Array(UnsafeBufferPointer(start: next.Bytes, count: Int(next.ByteCount)))
                    loopsForever = bytes == [1, 0, 0]
                }
            }
            var gcb = GraphicsControlBlock()
            try #require(DGifSavedExtensionToGCB(gif, Int32(i), &gcb) == GIF_OK)
            let desc = image.ImageDesc
            let map = try #require(desc.ColorMap ?? gif.pointee.SColorMap)
            let palette = (0..<Int(map.pointee.ColorCount)).map {
                (map.pointee.Colors[$0].Red, map.pointee.Colors[$0].Green, map.pointee.Colors[$0].Blue)
            }
            let w = Int(desc.Width), h = Int(desc.Height)
            frames.append(Frame(delay: Int(gcb.DelayTime),
                                transparentIndex: gcb.TransparentColor == NO_TRANSPARENT_COLOR ? nil : Int(gcb.TransparentColor),
                                disposal: gcb.DisposalMode, width: w, height: h, palette: palette,
                                indices: Array(UnsafeBufferPointer(start: image.RasterBits, count: w * h))))
        }
    }
}

@Suite("Animated GIF: giflib writer, delays, colours, transparency, atomic output")
struct GIFWriterTests {
    /// Premultiplied ARGB32 of an opaque colour.
    private func argb(_ r: UInt32, _ g: UInt32, _ b: UInt32) -> UInt32 { 0xFF00_0000 | r << 16 | g << 8 | b }

    @Test("delays are whole centiseconds whose running total follows the clock")
    func delays() {
        // 30 fps: frame k ends at 100·(k+1)/30 cs = 3.33, 6.67, 10, 13.33, 16.67, 20 → rounded 3, 7, 10, 13, 17, 20;
        // the differences are the delays.
        #expect((0..<6).map { GIFWriter.delay(ofFrame: $0, fps: 30) } == [3, 4, 3, 3, 4, 3])
        #expect((0..<4).map { GIFWriter.delay(ofFrame: $0, fps: 10) } == [10, 10, 10, 10])
        #expect((0..<4).map { GIFWriter.delay(ofFrame: $0, fps: 50) } == [2, 2, 2, 2])
        // 40 fps: 2.5, 5, 7.5, 10 → 3, 5, 8, 10 (halves round away from zero).
        #expect((0..<4).map { GIFWriter.delay(ofFrame: $0, fps: 40) } == [3, 2, 3, 2])
        // 120 frames at 30 fps last exactly 4 s.
        #expect((0..<120).reduce(0) { $0 + GIFWriter.delay(ofFrame: $1, fps: 30) } == 400)
    }

    @Test("a frame with few colours keeps them exactly; less than half opaque is the transparent index")
    func exactColours() throws {
        // 4×2: red, green, blue, 50 % white (premultiplied 0x80808080 → straight white), then transparent and a
        // 25 %-opaque red (alpha 0x40 < 128 → transparent).
        let pixels: [UInt32] = [argb(255, 0, 0), argb(0, 255, 0), argb(0, 0, 255), 0x8080_8080,
                                0, 0x4040_0000, argb(255, 0, 0), argb(18, 52, 86)]
        let q = QuantizedFrame(pixels)
        let t = try #require(q.transparentIndex)
        func colour(_ i: Int) -> (UInt8, UInt8, UInt8) { let c = q.palette[Int(q.indices[i])]; return (c.r, c.g, c.b) }
        #expect(colour(0) == (255, 0, 0) && colour(1) == (0, 255, 0) && colour(2) == (0, 0, 255))
        #expect(colour(3) == (255, 255, 255))
        #expect(Int(q.indices[4]) == t && Int(q.indices[5]) == t)
        #expect(q.indices[6] == q.indices[0])
        #expect(colour(7) == (18, 52, 86))
        // Six colours and the transparent entry: a table of 8, GIF's next power of two.
        #expect(q.palette.count == 8)
    }

    @Test("a frame with thousands of colours gets at most 256, each pixel close to its colour")
    func medianCut() {
        // 64×64: red = 4x, green = 4y, blue = 128 − 2(x+y)/... every pixel a different colour (4096).
        var pixels: [UInt32] = []
        for y in 0..<64 { for x in 0..<64 { pixels.append(argb(UInt32(4 * x), UInt32(4 * y), UInt32(2 * (x + y)))) } }
        let q = QuantizedFrame(pixels)
        #expect(q.palette.count == 256)
        #expect(q.transparentIndex == nil)
        var worst = 0, total = 0
        for (i, p) in pixels.enumerated() {
            let c = q.palette[Int(q.indices[i])]
            let e = max(abs(Int(c.r) - Int((p >> 16) & 0xFF)), abs(Int(c.g) - Int((p >> 8) & 0xFF)), abs(Int(c.b) - Int(p & 0xFF)))
            worst = max(worst, e); total += e
        }
        // The colours fill a 256 × 256 square (red × green; blue follows them): 256 boxes of equal count would be
        // 16 × 16 levels each, at most 8 from their mean, plus 4 for the 5-bit histogram bins. Median cut's boxes
        // are not all square, so the worst pixel may be further; the mean may not.
        #expect(Double(total) / Double(pixels.count) <= 8, "mean error \(Double(total) / Double(pixels.count))")
        #expect(worst <= 24, "worst error \(worst)")
    }

    @Test("frames, size, delays, loop and colours decode with giflib as written")
    func roundTrip() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a.gif")
        let writer = try GIFWriter(destination: WritableDestination(url), width: 5, height: 3, fps: 30)
        let colours: [UInt32] = [argb(255, 0, 0), argb(0, 128, 255), argb(236, 240, 241), 0]
        for c in colours { try writer.add(try #require(Bitmap(width: 5, height: 3, pixels: Array(repeating: c, count: 15)))) }
        // Nothing at the destination before finish: the bytes are in a temporary file beside it.
        #expect(!FileManager.default.fileExists(atPath: url.path))
        try writer.finish()
        #expect(try SpecialFiles.entries(folder) == ["a.gif"])
        let gif = try DecodedGIF(url)
        #expect(gif.width == 5 && gif.height == 3)
        #expect(gif.loopsForever)
        #expect(gif.frames.map(\.delay) == [3, 4, 3, 3])
        #expect(gif.frames.allSatisfy { $0.disposal == DISPOSE_BACKGROUND })
        #expect(gif.frames[0].rgba(4, 2) == (255, 0, 0, 255))
        #expect(gif.frames[1].rgba(0, 0) == (0, 128, 255, 255))
        #expect(gif.frames[2].rgba(2, 1) == (236, 240, 241, 255))
        #expect(gif.frames[3].rgba(2, 1).a == 0)
        #expect(gif.frames[0].transparentIndex == nil && gif.frames[3].transparentIndex != nil)
    }

    @Test("LZW data decodes exactly: noise that fills the code table many times, two colours, one pixel",
          arguments: [(256, 300, 200), (2, 64, 48), (1, 1, 1), (5, 257, 3)])
    func lzw(colours: Int, width: Int, height: Int) throws {
        // Colour i has red (i mod 32)·8 and green ⌊i/32⌋·32: each in its own 5-bit histogram bin, so the frame
        // keeps them exactly and the decoded pixels must equal the written ones.
        func colour(_ i: Int) -> UInt32 { argb(UInt32(i % 32 * 8), UInt32(i / 32 * 32), 77) }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let pixels = (0..<width * height).map { _ -> UInt32 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return colour(Int(state >> 33) % colours)
        }
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("noise.gif")
        let writer = try GIFWriter(destination: WritableDestination(url), width: width, height: height, fps: 25)
        try writer.add(try #require(Bitmap(width: width, height: height, pixels: pixels)))
        try writer.add(try #require(Bitmap(width: width, height: height, pixels: pixels.reversed())))
        try writer.finish()
        let gif = try DecodedGIF(url)
        #expect(gif.frames.count == 2)
        for (f, source) in zip(gif.frames, [pixels, pixels.reversed()]) {
            var mismatches = 0
            for y in 0..<height {
                for x in 0..<width {
                    let p = source[y * width + x], got = f.rgba(x, y)
                    if got != (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF), 255) { mismatches += 1 }
                }
            }
            #expect(mismatches == 0)
        }
    }

    @Test("a flat-coloured lit render survives quantisation: face centres exact, every pixel within 8 levels")
    func litRender() throws {
        let cube = try BookCube(faceColors: [Color(red: 0.9, green: 0.3, blue: 0.2), Color(red: 0.2, green: 0.8, blue: 0.4),
                                             Color(red: 0.2, green: 0.6, blue: 0.9), Color(red: 0.95, green: 0.77, blue: 0.06),
                                             Color(red: 0.6, green: 0.35, blue: 0.7), Color(red: 0.9, green: 0.5, blue: 0.13)],
                                lighting: Lighting.book)
        let image = try Renderer.render(cube.container, size: CGSize(width: 400, height: 400),
                                        options: RenderOptions(background: Color(white: 0.93)))
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("cube.gif")
        let writer = try GIFWriter(destination: WritableDestination(url), width: 400, height: 400, fps: 10)
        try writer.add(try #require(image.bitmap))
        try writer.finish()
        let frame = try #require(DecodedGIF(url).frames.first)
        var worst = 0
        for y in 0..<400 {
            for x in 0..<400 {
                let want = try #require(image.rgba8(x: x, y: y))
                let got = frame.rgba(x, y)
                worst = max(worst, abs(got.r - Int(want.r)), abs(got.g - Int(want.g)), abs(got.b - Int(want.b)))
            }
        }
        // Flat faces and background are a few colours; only antialiased edges blend them, and median cut gives
        // those few pixels the leftover entries.
        #expect(worst <= 8, "worst channel error \(worst)")
        // The centres of the faces the book's camera sees: front (z = 100), right (x = 100) and top (y = −100).
        for centre in [[0, 0, 100], [100, 0, 0], [0, -100, 0]] as [[Double]] {
            let probe = BookCubeProbes.project(centre).point
            let want = try #require(image.rgba8(x: Int(probe.x), y: Int(probe.y)))
            let got = frame.rgba(Int(probe.x), Int(probe.y))
            #expect(got.r == Int(want.r) && got.g == Int(want.g) && got.b == Int(want.b))
        }
    }

    @Test("a read-only destination is refused before any frame; a cancelled GIF leaves nothing")
    func refusalsAndCancel() throws {
        let folder = try SpecialFiles.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let locked = folder.appendingPathComponent("locked.gif")
        try Data("old".utf8).write(to: locked)
        try SpecialFiles.setMode(locked, 0o444)
        #expect(throws: RenderError.writeFailed(path: locked.path, reason: "it is read-only; remove it or change its mode")) {
            _ = try GIFWriter(destination: WritableDestination(locked), width: 4, height: 4, fps: 10)
        }
        #expect(try Data(contentsOf: locked) == Data("old".utf8))
        #expect(throws: FrameOutputError("a GIF plays at most 50 frames per second (its delays are whole centiseconds, and browsers slow delays under 2 cs to 10 cs)",
                                         hint: "lower --fps, or write .mp4 or .webm")) {
            _ = try GIFWriter(destination: WritableDestination(folder.appendingPathComponent("fast.gif")), width: 4, height: 4, fps: 60)
        }
        let url = folder.appendingPathComponent("a.gif")
        let writer = try GIFWriter(destination: WritableDestination(url), width: 4, height: 4, fps: 10)
        try writer.add(try #require(Bitmap(width: 4, height: 4, color: .red)))
        #expect(throws: FrameOutputError("a 3×4 frame was given to an animation of 4×4")) {
            try writer.add(try #require(Bitmap(width: 3, height: 4, color: .red)))
        }
        writer.cancel()
        #expect(try SpecialFiles.entries(folder) == ["locked.gif"])
    }
}
