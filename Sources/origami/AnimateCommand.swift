import ArgumentParser
import Foundation
import Origami
import OrigamiRender
import OrigamiScene

struct AnimateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate",
        abstract: "Render a time range of a scene: an animated GIF, a folder of PNGs, or MP4/WebM through ffmpeg.",
        discussion: """
            Frame i shows scene time from + i/fps; the frames are those before --to (so a 4 s loop at 30 fps is \
            120 frames and a looping GIF does not show its first frame twice), or --frames of them. The format \
            comes from -o: .gif (giflib; at most 256 colours per frame, exact when a frame has no more; whole \
            centiseconds per frame, so 30 fps alternates 3 and 4 cs, and at most 50 fps, since browsers slow \
            faster GIFs down), .mp4 (H.264) or .webm (VP9) through ffmpeg (Debian package `ffmpeg`; frames are \
            composited over black, and an odd side is padded to even), or a folder (a path ending in /, or an \
            existing folder) for frame-0001.png, … A folder that holds anything is refused unless --force, \
            which removes its earlier frame-NNNN.png files and nothing else. Frames render on --jobs threads and \
            are written in order as they finish. A GIF or video appears only when complete; after an error a \
            PNG folder holds none of the run's frames. --filmstrip writes a contact sheet of evenly spaced frames, \
            each labelled with its time.
            """
    )

    @OptionGroup var scene: SceneArgument

    @Option(name: .shortAndLong, help: ArgumentHelp("The output: a .gif, .mp4 or .webm file, or a folder for PNGs (default: the scene's name with .gif).", valueName: "file"))
    var output: String?

    @Option(help: "Frames per second of scene time.")
    var fps: Double = 30

    @Option(help: ArgumentHelp("The scene time of the first frame, in seconds.", valueName: "seconds"))
    var from: Double = 0

    @Option(help: ArgumentHelp("The end of the time range, in seconds (not included; default: when the scene's animations end, one cycle of those that repeat for ever).", valueName: "seconds"))
    var to: Double?

    @Option(help: ArgumentHelp("Render this many frames from --from, instead of up to --to.", valueName: "n"))
    var frames: Int?

    @Option(help: ArgumentHelp("Refuse animations with more frames than this.", valueName: "n"))
    var maxFrames = FrameRange.defaultMaxFrames

    // Optional rather than defaulting to the core count, so the help does not print this machine's count.
    @Option(name: .customLong("jobs"), help: "Worker threads (default: every core).")
    var jobsOption: Int?

    var jobs: Int { jobsOption ?? ProcessInfo.processInfo.activeProcessorCount }

    @Option(help: ArgumentHelp("Also write a contact sheet of the animation (PNG).", valueName: "file"))
    var filmstrip: String?

    @Option(help: ArgumentHelp("Frames on the film strip, evenly spaced (1…120).", valueName: "n"))
    var filmstripFrames = 12

    @Option(help: "Largest side of a thumbnail on the film strip, in pixels.")
    var thumbnail = 200

    @Flag(help: "Write into a folder that is not empty, removing its earlier frame-NNNN.png files first.")
    var force = false

    @Flag(help: "Print no progress.")
    var quiet = false

    @Option(help: .hidden)
    var progressInterval: Double = 5

    @OptionGroup var picture: PictureOptions

    func validate() throws {
        try scene.requireFile(for: "animate")
        guard (jobsOption ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1.") }
        guard maxFrames >= 1 else { throw ValidationError("--max-frames must be at least 1.") }
        guard (1...120).contains(filmstripFrames) else { throw ValidationError("--filmstrip-frames must be between 1 and 120.") }
        guard (16...4096).contains(thumbnail) else { throw ValidationError("--thumbnail must be between 16 and 4096.") }
        guard progressInterval >= 0 else { throw ValidationError("--progress-interval must not be negative.") }
        if to != nil && frames != nil { throw ValidationError("Give --to or --frames, not both.") }
        // Without --to or --frames the range ends where the scene's animations do: known once it is read.
        if to != nil || frames != nil { _ = try range(to: to) }
    }

    private func range(to: Double?) throws -> FrameRange {
        do {
            if let frames { return try FrameRange(from: from, fps: fps, count: frames, maxFrames: maxFrames) }
            return try FrameRange(from: from, to: to ?? from, fps: fps, maxFrames: maxFrames)
        } catch {
            throw ValidationError(error.message + (error.hint.map { "; \($0)" } ?? "") + ".")
        }
    }

    /// `--to`, or else the time by which the scene's animations have ended (one cycle of those that repeat for
    /// ever: a looping GIF of it loops seamlessly).
    private func end(of description: SceneDescription) -> Double? {
        if let to { return to }
        if frames != nil { return nil }
        let scene: Scene
        do { scene = try description.instantiate() } catch { fail("\(error)") }
        guard let end = scene.root.animationEndTime() else {
            fail("\(self.scene.scene) has no animations, so there is no time range to default to; give --to (seconds) or --frames")
        }
        return end
    }

    /// What `-o` names.
    enum Destination {
        case gif(URL)
        case video(URL, FFmpegWriter.Container)
        case pngFolder(URL)
    }

    static func destination(_ path: String) throws(FrameOutputError) -> Destination {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        if path.hasSuffix("/") || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue) {
            return .pngFolder(url)
        }
        let ext = url.pathExtension.lowercased()
        if ext == "gif" { return .gif(url) }
        if let container = FFmpegWriter.Container(rawValue: ext) { return .video(url, container) }
        if ext == "png" {
            throw FrameOutputError("cannot write an animation to \(path): a PNG sequence is written into a folder",
                                   hint: "end the path with / (e.g. -o \(url.deletingPathExtension().lastPathComponent)/)")
        }
        throw FrameOutputError("cannot tell the format of \(path) from its extension",
                               hint: "use .gif, .mp4 or .webm, or a folder (a path ending in /) for PNGs")
    }

    func run() throws {
        FramePipeline.keepLargeBuffersInTheHeap()
        let sceneName = URL(fileURLWithPath: scene.scene).deletingPathExtension().lastPathComponent
        let outputPath = output ?? sceneName + ".gif"
        let destination: Destination
        do { destination = try Self.destination(outputPath) } catch { fail("\(error)") }
        var ffmpeg: URL?
        switch destination {
        case .gif:
            if fps > GIFWriter.maxFPS {
                fail("--fps \(String(format: "%g", fps)) is too fast for a GIF: its delays are whole centiseconds, and browsers slow delays under 2 cs to 10 cs; use --fps \(Int(GIFWriter.maxFPS)) or less, or write .mp4 or .webm")
            }
        case .video:
            // Before the scene is even read: nothing is rendered for an output that cannot be made.
            guard let found = FFmpegWriter.locate() else { fail("\(FFmpegWriter.missing)") }
            ffmpeg = found
        case .pngFolder: break
        }
        let description = scene.loadDescription()
        let range: FrameRange
        do { range = try self.range(to: end(of: description)) } catch { fail("\(error)") }
        let protected = description.protectedFiles
        let options = picture.renderOptions(for: description.canvas)
        let size: (width: Int, height: Int)
        do { size = try description.frameSize(options: options) } catch { fail("\(error)") }

        var strip: FilmStrip?
        var stripURL: URL?
        if let filmstrip {
            let url = URL(fileURLWithPath: filmstrip)
            _ = checkedFormat(url, allowed: [.png], writer: "--filmstrip")
            if case .pngFolder = destination {} else if url.standardizedFileURL == URL(fileURLWithPath: outputPath).standardizedFileURL {
                fail("--filmstrip and -o name the same file, \(filmstrip)")
            }
            checkWritable(url, protecting: protected)
            let sheet = FilmStrip(range: range, cells: filmstripFrames, thumbnail: thumbnail, frameSize: size)
            let limits = RenderLimits.default
            let (w, h) = sheet.pixelSize
            if max(w, h) > limits.maxCanvasSide || Double(w) * Double(h) > Double(limits.maxCanvasPixels) {
                fail("the film strip would be \(w)×\(h) pixels, over the limit of \(limits.maxCanvasSide) pixels a side and \(limits.maxCanvasPixels / 1_048_576) Mpx; lower --thumbnail (now \(thumbnail)) or --filmstrip-frames (now \(filmstripFrames))")
            }
            strip = sheet; stripURL = url
        }

        let sink: FrameSink
        do {
            switch destination {
            case let .gif(url):
                sink = try GIFWriter(destination: WritableDestination(url, protecting: protected),
                                     width: size.width, height: size.height, fps: range.fps)
            case let .video(url, container):
                sink = try FFmpegWriter(destination: WritableDestination(url, protecting: protected),
                                        container: container, width: size.width, height: size.height,
                                        fps: range.fps, ffmpeg: ffmpeg ?? url)
            case let .pngFolder(url):
                sink = try PNGSequenceWriter(folder: url, frameCount: range.count, width: size.width,
                                             height: size.height, compression: options.pngCompression, force: force,
                                             protecting: protected)
            }
        } catch {
            fail("\(error)")
        }

        let bar = ProgressBar(total: range.count, label: "animate", unit: "frames", quiet: quiet,
                              interval: progressInterval)
        do {
            try description.renderFrames(range, options: options, jobs: jobs, keeping: Set(strip?.frames ?? []),
                                         prepare: sink.preparation) { index, frame, prepared in
                try sink.add(prepared: prepared)
                if let frame { strip?.offer(frame, index: index) }
                bar.update(index + 1)
            }
            bar.finish()
            try sink.finish()
        } catch {
            bar.finish()
            sink.cancel()
            fail("\(error)")
        }
        if let strip, let stripURL {
            do { try strip.write(to: stripURL, protecting: protected) } catch {
                fail("wrote \(outputPath), but not the film strip: \(error)")
            }
        }
        let what: String
        switch destination {
        case .pngFolder: what = "frame-\(String(repeating: "N", count: max(4, String(range.count).count))).png × \(range.count)"
        default: what = "\(range.count) frames"
        }
        print("wrote \(outputPath) (\(what), \(size.width)×\(size.height), \(String(format: "%g", range.fps)) fps)"
              + (stripURL.map { " and \($0.path)" } ?? ""))
    }
}

