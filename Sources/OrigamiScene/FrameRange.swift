import Foundation
import Origami
import OrigamiRender

/// The times an animation is rendered at: frame `i` (0-based) shows scene time `from + i / fps`.
///
/// A range given by its end covers `[from, to)`: the frames are those before `to`, so a 4-second loop at
/// 30 fps is 120 frames, the last at 3.967 s, and a looping GIF of a full turn does not show the start twice.
public struct FrameRange: Hashable, Sendable {
    /// The scene time of frame 0, in seconds.
    public let from: Double
    /// Frames per second of scene time.
    public let fps: Double
    /// How many frames there are (at least 1).
    public let count: Int

    /// The most frames an animation may have unless a caller raises it (`--max-frames`).
    public static let defaultMaxFrames = 10_000
    /// The fastest frame rate accepted: beyond it, frames are closer together than any display shows.
    public static let maxFPS = 1000.0

    /// The frames before `to`, `fps` per second of scene time.
    public init(from: Double, to: Double, fps: Double, maxFrames: Int = defaultMaxFrames) throws(FrameOutputError) {
        try Self.check(from: from, fps: fps)
        guard to.isFinite else { throw FrameOutputError("--to must be a finite number of seconds") }
        guard from < to else {
            throw FrameOutputError("--from (\(Self.seconds(from))) must be before --to (\(Self.seconds(to)))")
        }
        // Forgive the rounding of (to − from)·fps: 0.3 s at 10 fps is 3 frames, not 4.
        let exact = (to - from) * fps
        guard exact <= Double(maxFrames) + 1 else { throw Self.tooMany(exact, maxFrames) }
        let count = max(1, Int((exact - 1e-9).rounded(.up)))
        guard count <= maxFrames else { throw Self.tooMany(Double(count), maxFrames) }
        self.from = from; self.fps = fps; self.count = count
    }

    /// `count` frames from `from`.
    public init(from: Double, fps: Double, count: Int, maxFrames: Int = defaultMaxFrames) throws(FrameOutputError) {
        try Self.check(from: from, fps: fps)
        guard count >= 1 else { throw FrameOutputError("--frames must be at least 1") }
        guard count <= maxFrames else { throw Self.tooMany(Double(count), maxFrames) }
        self.from = from; self.fps = fps; self.count = count
    }

    /// The scene time of frame `index`.
    public func time(ofFrame index: Int) -> Double { from + Double(index) / fps }

    /// Where the range ends: one frame after the last.
    public var to: Double { time(ofFrame: count) }

    private static func check(from: Double, fps: Double) throws(FrameOutputError) {
        guard fps.isFinite, fps > 0, fps <= maxFPS else {
            throw FrameOutputError("--fps must be more than 0 and at most \(Int(maxFPS)) frames per second")
        }
        guard from.isFinite else { throw FrameOutputError("--from must be a finite number of seconds") }
    }

    private static func tooMany(_ count: Double, _ maxFrames: Int) -> FrameOutputError {
        FrameOutputError("the animation would have \(count >= 1e15 ? String(format: "%.3g", count) : String(Int(count.rounded(.up)))) frames, more than the limit of \(maxFrames)",
                         hint: "shorten --from…--to, lower --fps, or raise --max-frames")
    }

    static func seconds(_ t: Double) -> String { String(format: "%g s", t) }
}
