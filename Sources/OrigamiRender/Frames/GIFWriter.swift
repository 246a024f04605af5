import CGif
import Foundation
import Origami

/// An animated GIF written frame by frame with giflib, through `WritableDestination` (atomic: the file appears
/// when `finish()` returns, and never over a device, a read-only file or a protected input).
///
/// Each frame has its own colour table (`QuantizedFrame`: at most 256 colours, exact when the frame has that
/// few) and is compressed on its own (`GIFImageData`), so frames are encoded as they arrive — in parallel,
/// through `preparation` — and only one is held. The file loops forever (the NETSCAPE2.0
/// application extension). Pixels less than half opaque are transparent, and each frame is disposed to the
/// background before the next, so a transparent canvas stays transparent.
///
/// GIF delays are whole centiseconds; `delay(ofFrame:fps:)` rounds the running total, so 30 fps alternates
/// 3 and 4 cs (3, 4, 3, 3, 4, 3, …) and stays in step with the clock. Browsers play a delay under 2 cs as 10 cs,
/// so GIFs are limited to 50 fps (`maxFPS`).
public final class GIFWriter: FrameSink {
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// Frames per second, which the frames' delays follow.
    public let fps: Double
    /// Frames added so far.
    public private(set) var frameCount = 0

    /// The fastest frame rate a GIF plays at in browsers: 2 cs per frame.
    public static let maxFPS = 50.0

    private let output: OutputFile
    private let sink: GIFByteSink
    private var gif: UnsafeMutablePointer<GifFileType>?

    /// Opens the destination (a temporary file beside it) and writes the header. GIF sizes are 16-bit.
    public init(destination: WritableDestination, width: Int, height: Int, fps: Double) throws {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw FrameOutputError("a GIF is at most 65535 pixels a side; this animation is \(width)×\(height)",
                                   hint: "lower --scale")
        }
        guard fps > 0, fps <= Self.maxFPS else {
            throw FrameOutputError("a GIF plays at most \(Int(Self.maxFPS)) frames per second (its delays are whole centiseconds, and browsers slow delays under 2 cs to 10 cs)",
                                   hint: "lower --fps, or write .mp4 or .webm")
        }
        self.width = width; self.height = height; self.fps = fps
        output = try destination.open()
        sink = GIFByteSink(output)
        var error: Int32 = 0
        let write: OutputFunc = { file, bytes, length in
            guard let file, let bytes, let user = file.pointee.UserData else { return 0 }
            let sink = Unmanaged<GIFByteSink>.fromOpaque(user).takeUnretainedValue()
            return sink.write(UnsafeRawBufferPointer(start: bytes, count: Int(length))) ? length : 0
        }
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), write, &error) else {
            output.discard()
            throw FrameOutputError("cannot start the GIF: \(Self.message(error))")
        }
        self.gif = gif
        do {
            EGifSetGifVersion(gif, true)
            try check(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, nil), "the screen descriptor")
            // NETSCAPE2.0: sub-block 1, loop count 0 (little-endian) = forever.
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "the loop extension")
            try Array("NETSCAPE2.0".utf8).withUnsafeBytes { b throws in
                try check(EGifPutExtensionBlock(gif, 11, b.baseAddress), "the loop extension")
            }
            try [UInt8(1), 0, 0].withUnsafeBytes { b throws in
                try check(EGifPutExtensionBlock(gif, 3, b.baseAddress), "the loop extension")
            }
            try check(EGifPutExtensionTrailer(gif), "the loop extension")
        } catch {
            cancel()
            throw error
        }
    }

    deinit { cancel() }

    /// Frame `index`'s delay in centiseconds: the running total rounded, so the delays add up to the clock.
    public static func delay(ofFrame index: Int, fps: Double) -> Int {
        Int((100 * Double(index + 1) / fps).rounded()) - Int((100 * Double(index) / fps).rounded())
    }

    /// A frame ready to be copied into the file: its colour table and its compressed pixels.
    struct PreparedFrame: Sendable {
        let quantized: QuantizedFrame
        let data: GIFImageData
    }

    /// Quantizing and LZW compression, the costly parts, run on the rendering threads; `add` copies the result
    /// into the file in order.
    public var preparation: @Sendable (Bitmap) throws -> any Sendable {
        { [width, height] frame in
            try checkSize(frame, width: width, height: height)
            let q = QuantizedFrame(frame.pixels)
            return PreparedFrame(quantized: q, data: GIFImageData(indices: q.indices, colorCount: q.palette.count))
        }
    }

    public func add(prepared: any Sendable) throws {
        guard let gif else { throw FrameOutputError("the GIF is already finished") }
        let frame = try unwrap(prepared, as: PreparedFrame.self)
        let q = frame.quantized
        guard q.indices.count == width * height else { throw FrameOutputError("a frame was not prepared by this sink") }
        var control = GraphicsControlBlock(DisposalMode: DISPOSE_BACKGROUND, UserInputFlag: false,
                                           DelayTime: Int32(Self.delay(ofFrame: frameCount, fps: fps)),
                                           TransparentColor: Int32(q.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var extensionBytes = [GifByteType](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes), "frame \(frameCount + 1)'s delay")
        let colors = q.palette.map { GifColorType(Red: $0.r, Green: $0.g, Blue: $0.b) }
        guard let map = GifMakeMapObject(Int32(colors.count), colors) else {
            throw FrameOutputError("cannot make frame \(frameCount + 1)'s colour table")
        }
        defer { GifFreeMapObject(map) }
        // giflib writes the LZW minimum code size from the table's bits; the data must have been made for it.
        guard max(2, Int(map.pointee.BitsPerPixel)) == frame.data.minimumCodeSize else {
            throw FrameOutputError("frame \(frameCount + 1)'s pixel data does not match its colour table")
        }
        try check(EGifPutImageDesc(gif, 0, 0, Int32(width), Int32(height), false, map), "frame \(frameCount + 1)")
        // The compressed sub-blocks as they are, then the block terminator (EGifPutCodeNext with no block).
        try frame.data.blocks.withUnsafeBufferPointer { blocks throws in
            guard let base = blocks.baseAddress else { return }
            var offset = 0
            while offset < blocks.count {
                try check(EGifPutCodeNext(gif, base + offset), "frame \(frameCount + 1)")
                offset += Int(blocks[offset]) + 1
            }
        }
        try check(EGifPutCodeNext(gif, nil), "frame \(frameCount + 1)")
        frameCount += 1
    }

    public func finish() throws {
        guard let gif else { throw FrameOutputError("the GIF is already finished") }
        self.gif = nil
        var error: Int32 = 0
        let closed = EGifCloseFile(gif, &error)
        if let problem = sink.problem {
            output.discard()
            throw problem
        }
        guard closed == GIF_OK else {
            output.discard()
            throw FrameOutputError("cannot finish the GIF: \(Self.message(error))")
        }
        try output.commit()
    }

    public func cancel() {
        if let gif {
            self.gif = nil
            var error: Int32 = 0
            _ = EGifCloseFile(gif, &error)
        }
        output.discard()
    }

    private func check(_ status: Int32, _ what: String) throws {
        guard status == GIF_OK else {
            if let problem = sink.problem { throw problem }
            throw FrameOutputError("cannot write \(what) of the GIF: \(Self.message(gif?.pointee.Error ?? 0))")
        }
    }

    private static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }
}

/// Receives giflib's output and appends it to the temporary file, keeping the first write error.
private final class GIFByteSink {
    let output: OutputFile
    var problem: RenderError?

    init(_ output: OutputFile) { self.output = output }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard problem == nil else { return false }
        do throws(RenderError) { try output.write(bytes) } catch {
            problem = error
            return false
        }
        return true
    }
}
