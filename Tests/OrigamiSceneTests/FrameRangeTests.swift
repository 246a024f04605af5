import Foundation
import Origami
import OrigamiRender
@testable import OrigamiScene
import Testing

@Suite("Frame ranges and film strips")
struct FrameRangeTests {
    @Test("frames are those before --to, at from + i/fps")
    func counts() throws {
        // 4 s at 30 fps: t = 0, 1/30, …, 119/30 < 4 → 120 frames.
        let loop = try FrameRange(from: 0, to: 4, fps: 30)
        #expect(loop.count == 120)
        #expect(abs(loop.time(ofFrame: 119) - 119.0 / 30) < 1e-12)
        #expect(abs(loop.to - 4) < 1e-12)
        // (0.3 − 0)·10 is 2.9999999999999996 in binary: still 3 frames (0, 0.1, 0.2).
        #expect(try FrameRange(from: 0, to: 0.3, fps: 10).count == 3)
        // 1 s at 24 fps from 0.5: 24 frames, the last at 0.5 + 23/24.
        let r = try FrameRange(from: 0.5, to: 1.5, fps: 24)
        #expect(r.count == 24 && abs(r.time(ofFrame: 23) - (0.5 + 23.0 / 24)) < 1e-12)
        // A range shorter than one frame still shows its first instant.
        #expect(try FrameRange(from: 0, to: 0.01, fps: 10).count == 1)
        #expect(try FrameRange(from: 2, fps: 12.5, count: 5).time(ofFrame: 4) == 2.32)
    }

    @Test("bad ranges are refused with the option to change", arguments: [
        (0.0, 1.0, 0.0, "--fps must be more than 0 and at most 1000 frames per second"),
        (0.0, 1.0, -5.0, "--fps must be more than 0 and at most 1000 frames per second"),
        (0.0, 1.0, .nan, "--fps must be more than 0 and at most 1000 frames per second"),
        (0.0, 1.0, 1001.0, "--fps must be more than 0 and at most 1000 frames per second"),
        (2.0, 1.0, 30.0, "--from (2 s) must be before --to (1 s)"),
        (1.0, 1.0, 30.0, "--from (1 s) must be before --to (1 s)"),
        (.infinity, 1.0, 30.0, "--from must be a finite number of seconds"),
        (0.0, .infinity, 30.0, "--to must be a finite number of seconds"),
    ])
    func refusals(from: Double, to: Double, fps: Double, message: String) {
        #expect(throws: FrameOutputError(message)) { try FrameRange(from: from, to: to, fps: fps) }
    }

    @Test("the frame count limit names the options that change it")
    func limit() {
        let hint = "shorten --from…--to, lower --fps, or raise --max-frames"
        #expect(throws: FrameOutputError("the animation would have 30000 frames, more than the limit of 10000", hint: hint)) {
            try FrameRange(from: 0, to: 1000, fps: 30)
        }
        #expect(throws: FrameOutputError("the animation would have 1e+300 frames, more than the limit of 10000", hint: hint)) {
            try FrameRange(from: 0, to: 1e300, fps: 1)
        }
        #expect(throws: FrameOutputError("the animation would have 11 frames, more than the limit of 10", hint: hint)) {
            try FrameRange(from: 0, fps: 30, count: 11, maxFrames: 10)
        }
        #expect(throws: FrameOutputError("--frames must be at least 1")) { try FrameRange(from: 0, fps: 30, count: 0) }
    }

    @Test("a film strip shows evenly spaced frames from the first, labelled with their time")
    func filmStrip() throws {
        let range = try FrameRange(from: 0, to: 4, fps: 30)
        let strip = FilmStrip(range: range, cells: 12, thumbnail: 100, frameSize: (400, 400))
        // Cell k shows frame ⌊120k/12⌋ = 10k: t = k/3 s.
        #expect(strip.frames == Array(stride(from: 0, to: 120, by: 10)))
        #expect(strip.label(ofFrame: 0) == "t = 0 s")
        #expect(strip.label(ofFrame: 30) == "t = 1 s")
        #expect(strip.label(ofFrame: 10) == "t = 0.333 s")
        #expect(strip.label(ofFrame: 15) == "t = 0.5 s")
        // 6 columns × 2 rows of 100-pixel cells, 8-pixel gaps, one 11-point label line (11·1.3 + 6 = 20.3):
        // 8 + 6·108 = 656 wide, 8 + 2·(100 + 20.3 + 8) = 264.6 → 265 high.
        #expect(strip.pixelSize == (656, 265))
        let short = FilmStrip(range: try FrameRange(from: 0, fps: 10, count: 3), cells: 12, thumbnail: 100, frameSize: (40, 30))
        #expect(short.frames == [0, 1, 2])
    }
}
