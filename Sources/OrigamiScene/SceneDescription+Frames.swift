import Foundation
import Origami
import OrigamiRender

extension SceneDescription {
    /// Renders the frames of `range` on `jobs` threads, runs `prepare` on each there (a sink's `preparation`),
    /// and hands both to `deliver` in frame order, on the calling thread (see `FramePipeline`). Each thread
    /// instantiates the decoded scene once and renders its frames from that layer tree. Frames waiting for
    /// delivery hold at most `bufferBytes` (counting each frame twice, for what `prepare` makes of it), and at
    /// least 2 × `jobs` frames may wait whatever their size: small frames get a deep window, so a thread that
    /// the scheduler delays for a moment does not stall the others.
    ///
    /// Only the frames in `keeping` (a film strip's) reach `deliver` with their pixels; the others are dropped
    /// on the rendering thread once prepared (`deliver` gets `nil`), so a waiting frame is what `prepare` made of
    /// it — a compressed PNG, a quantized GIF frame — and the peak memory does not depend on how many frames the
    /// animation has (a 1 000-frame PNG folder at 400² held 64 frames' pixels, +41 MB over a 10-frame one).
    public func renderFrames<Prepared: Sendable>(_ range: FrameRange, options: RenderOptions, jobs: Int,
                                                 bufferBytes: Int = 256 << 20, keeping: Set<Int> = [],
                                                 prepare: @escaping @Sendable (Bitmap) throws -> Prepared,
                                                 deliver: (Int, Bitmap?, Prepared) throws -> Void) throws {
        let frameBytes = (try? frameSize(options: options)).map { 8 * $0.width * $0.height } ?? Int.max
        let window = min(64, max(2 * jobs, bufferBytes / max(1, frameBytes)))
        try FramePipeline.run(count: range.count, jobs: jobs, window: window, makeWorker: { try self.instantiate() },
                              render: { scene, index in
            let time = range.time(ofFrame: index)
            let image = try Renderer.render(scene.root, size: scene.canvas.size, options: options, time: time)
            guard let bitmap = image.bitmap else { throw RenderError.invalidCanvas("frame \(index + 1) is empty") }
            let prepared = try prepare(bitmap)
            return (keeping.contains(index) ? bitmap : nil, prepared)
        }, deliver: { index, frame in try deliver(index, frame.0, frame.1) })
    }

    /// Each frame's size in pixels with `options` (an animation's frames, a sweep's variants), checked against
    /// the render limits before anything is rendered; the error names the options that change it.
    public func frameSize(options: RenderOptions) throws(FrameOutputError) -> (width: Int, height: Int) {
        do {
            return try options.limits.pixelSize(canvas.size, scale: options.scale, supersample: options.supersample)
        } catch {
            let w = Int((Double(canvas.size.width) * options.scale).rounded(.up))
            let h = Int((Double(canvas.size.height) * options.scale).rounded(.up))
            let ss = options.supersample > 1 ? ", drawn at \(options.supersample)× that to supersample" : ""
            throw FrameOutputError("each frame would be \(w)×\(h) pixels\(ss), over the limit of \(options.limits.maxCanvasSide) pixels a side and \(options.limits.maxCanvasPixels / 1_048_576) Mpx",
                                   hint: "lower --scale (now \(format(options.scale)))" + (options.supersample > 1 ? " or --supersample (now \(options.supersample))" : ""))
        }
    }
}
