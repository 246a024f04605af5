import Foundation
import Origami

/// Where an animation's frames go, one at a time and in order: an animated GIF, a folder of PNGs, a video
/// through ffmpeg. A sink holds at most a frame or two, whatever the number of frames; nothing appears at its
/// destination before `finish()`, and `cancel()` removes whatever it wrote.
///
/// A sink's work on a frame has two parts. `preparation` needs no other frame (quantizing a GIF frame,
/// compressing a PNG, converting pixels for ffmpeg) and may run on any thread, so `FramePipeline` runs it on the
/// rendering threads; `add(prepared:)` is the part that must happen in order (appending to the file).
public protocol FrameSink: AnyObject {
    /// Turns a frame (premultiplied ARGB32, `Bitmap`'s layout, the size the sink was made for) into what
    /// `add(prepared:)` takes. Thread-safe: it reads only the sink's settings.
    var preparation: @Sendable (Bitmap) throws -> any Sendable { get }
    /// Appends the next frame, as `preparation` made it.
    func add(prepared: any Sendable) throws
    /// Completes the output.
    func finish() throws
    /// Abandons the output; the destination is left as it was.
    func cancel()
}

/// What went wrong writing frames, and what to do about it.
public struct FrameOutputError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// What to do about it, when something can be done.
    public let hint: String?
    /// An error saying `message`, with an optional `hint`.
    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
    public var description: String { message + (hint.map { "; \($0)" } ?? "") }
}

extension FrameSink {
    /// Prepares and appends the next frame on this thread.
    public func add(_ frame: Bitmap) throws { try add(prepared: preparation(frame)) }

    /// `prepared` as the type this sink's `preparation` makes.
    func unwrap<T>(_ prepared: any Sendable, as type: T.Type) throws(FrameOutputError) -> T {
        guard let value = prepared as? T else { throw FrameOutputError("a frame was not prepared by this sink") }
        return value
    }
}

/// Refuses a frame of another size than the animation's.
func checkSize(_ frame: Bitmap, width: Int, height: Int) throws(FrameOutputError) {
    guard frame.width == width, frame.height == height else {
        throw FrameOutputError("a \(frame.width)×\(frame.height) frame was given to an animation of \(width)×\(height)")
    }
}
