import Foundation
import Origami
#if canImport(Glibc)
import Glibc
#endif

/// MP4 (H.264) or WebM (VP9) through the `ffmpeg` program, as matplotlib's `FFMpegWriter` does it: raw frames
/// piped to its standard input, one after another, so only the frame being written is held.
///
/// ffmpeg writes a temporary file beside the destination (`WritableDestination.open()`), renamed over it only
/// when ffmpeg exits with status 0; otherwise its standard error is the error's detail. Video has no alpha
/// here: each frame is its premultiplied colour, i.e. composited over black (give the scene a canvas
/// background). Both codecs use 4:2:0 chroma (`-pix_fmt yuv420p`, what players expect), which needs even
/// sides: an odd width or height is padded by one black row or column.
public final class FFmpegWriter: FrameSink {
    /// The video file format, and the codec it is encoded with.
    public enum Container: String, Sendable, CaseIterable {
        /// MP4 with H.264 (libx264).
        case mp4
        /// WebM with VP9 (libvpx-vp9).
        case webm

        var arguments: [String] {
            switch self {
            case .mp4: return ["-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p",
                               "-movflags", "+faststart", "-f", "mp4"]
            case .webm: return ["-c:v", "libvpx-vp9", "-crf", "30", "-b:v", "0", "-row-mt", "1",
                                "-pix_fmt", "yuv420p", "-f", "webm"]
            }
        }
    }

    /// Frame width in pixels, as given (the video is padded to an even width).
    public let width: Int
    /// Frame height in pixels, as given (the video is padded to an even height).
    public let height: Int
    private let output: OutputFile
    private let process = Process()
    private let input: FileHandle
    private let errors: StandardErrorCollector
    private var finished = false

    /// `ffmpeg` on `PATH` (as `environment` gives it), or `nil`.
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("ffmpeg")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// The error for a machine without ffmpeg, naming the Debian package.
    public static let missing = FrameOutputError(
        "ffmpeg is not installed (no `ffmpeg` on PATH), and MP4 and WebM are written through it",
        hint: "install the Debian package `ffmpeg` (apt-get install ffmpeg), or write a .gif or a folder of PNGs")

    /// Starts `ffmpeg` writing `container` to a temporary file beside the destination.
    public init(destination: WritableDestination, container: Container, width: Int, height: Int, fps: Double,
                ffmpeg: URL) throws {
        self.width = width; self.height = height
        output = try destination.open()
        // A write to an ffmpeg that has died must fail with EPIPE, not kill this process.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = ffmpeg
        process.arguments = ["-hide_banner", "-loglevel", "error", "-y",
                             "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)",
                             "-framerate", String(format: "%.6g", fps), "-i", "pipe:0",
                             "-vf", "pad=width=ceil(iw/2)*2:height=ceil(ih/2)*2"]
            + container.arguments + [output.temporaryPath]
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderr
        input = stdin.fileHandleForWriting
        errors = StandardErrorCollector(stderr.fileHandleForReading)
        do { try process.run() } catch {
            output.discard()
            throw FrameOutputError("cannot run \(ffmpeg.path): \(error.localizedDescription)")
        }
        errors.start()
    }

    deinit { if !finished { cancel() } }

    /// Premultiplied ARGB32 to packed RGB (the colour over black), on the rendering threads.
    public var preparation: @Sendable (Bitmap) throws -> any Sendable {
        { [width, height] frame in
            try checkSize(frame, width: width, height: height)
            var rgb = [UInt8](repeating: 0, count: width * height * 3)
            for (i, p) in frame.pixels.enumerated() {
                rgb[i * 3] = UInt8((p >> 16) & 0xFF); rgb[i * 3 + 1] = UInt8((p >> 8) & 0xFF); rgb[i * 3 + 2] = UInt8(p & 0xFF)
            }
            return rgb
        }
    }

    public func add(prepared: any Sendable) throws {
        guard !finished else { throw FrameOutputError("the video is already finished") }
        let rgb = try unwrap(prepared, as: [UInt8].self)
        guard rgb.count == width * height * 3 else { throw FrameOutputError("a frame was not prepared by this sink") }
        guard writeAll(rgb) else { throw failure(stage: "stopped before it had every frame") }
    }

    public func finish() throws {
        guard !finished else { throw FrameOutputError("the video is already finished") }
        finished = true
        try? input.close()
        process.waitUntilExit()
        errors.wait()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            output.discard()
            throw failure(stage: "failed")
        }
        try output.commit()
    }

    public func cancel() {
        guard !finished else { return }
        finished = true
        try? input.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        errors.wait()
        output.discard()
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(input.fileDescriptor, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }

    /// ffmpeg stopped (or refused the input): stop it, remove its file, and say what it printed.
    private func failure(stage: String) -> FrameOutputError {
        if !finished {
            finished = true
            try? input.close()
            process.waitUntilExit()
            errors.wait()
            output.discard()
        }
        let status = process.terminationReason == .exit ? "exit status \(process.terminationStatus)"
                                                         : "signal \(process.terminationStatus)"
        let text = errors.text.trimmingCharacters(in: .whitespacesAndNewlines)
        return FrameOutputError("ffmpeg \(stage) (\(status))" + (text.isEmpty ? "" : ":\n" + text))
    }
}

/// Reads a child's standard error on its own thread (so a chatty ffmpeg never blocks on a full pipe), keeping
/// the last 64 KiB.
private final class StandardErrorCollector: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)
    private var started = false

    init(_ handle: FileHandle) { self.handle = handle }

    func start() {
        started = true
        Thread {
            while true {
                let chunk = self.handle.availableData
                if chunk.isEmpty { break }
                self.lock.withLock {
                    self.data.append(chunk)
                    if self.data.count > 65536 { self.data.removeFirst(self.data.count - 65536) }
                }
            }
            self.done.signal()
        }.start()
    }

    func wait() {
        guard started else { return }
        done.wait()
        done.signal()
    }

    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
