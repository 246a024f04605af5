import Foundation
import Origami

/// Where an animation's frames go, one at a time and in order: an animated GIF, a folder of PNGs, a video
/// through ffmpeg. A sink holds at most a frame or two, whatever the number of frames; nothing appears at its
/// destination before `finish()`, and `cancel()` removes whatever it wrote.
public protocol FrameSink: AnyObject {
    /// Appends the next frame: premultiplied ARGB32 (`Bitmap`'s layout), the size the sink was made for.
    func add(_ frame: Bitmap) throws
    /// Completes the output.
    func finish() throws
    /// Abandons the output; the destination is left as it was.
    func cancel()
}

/// What went wrong writing frames, and what to do about it.
public struct FrameOutputError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public let hint: String?
    public init(_ message: String, hint: String? = nil) { self.message = message; self.hint = hint }
    public var description: String { message + (hint.map { "; \($0)" } ?? "") }
}

extension FrameSink {
    func checkSize(_ frame: Bitmap, width: Int, height: Int) throws(FrameOutputError) {
        guard frame.width == width, frame.height == height else {
            throw FrameOutputError("a \(frame.width)×\(frame.height) frame was given to an animation of \(width)×\(height)")
        }
    }
}
