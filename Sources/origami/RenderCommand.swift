import ArgumentParser
import Foundation
import Origami
import OrigamiRender
import OrigamiScene

/// Options shared by the commands that write pictures.
struct PictureOptions: ParsableArguments {
    @Option(help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    @Option(help: "Render N×N samples per pixel and average them, for seam-free edges (1…8).")
    var supersample: Int = 1

    @Option(help: "PNG compression: fast to write, balanced, or smallest file.")
    var pngCompression: PNGCompression = .fast

    @Option(help: "Edges: gray (antialiased) or none (hard, for aliased references). Default: the scene's canvas.antialias, else gray.")
    var antialias: Antialias?

    func validate() throws {
        if let scale { try validateScale(scale) }
        guard (1...8).contains(supersample) else { throw ValidationError("--supersample must be between 1 and 8.") }
    }

    /// The options for a scene's canvas: the command line's, else the scene's.
    func renderOptions(for canvas: Canvas) -> RenderOptions {
        RenderOptions(scale: scale ?? canvas.scale, supersample: supersample, background: canvas.background,
                      antialias: antialias ?? canvas.antialias, pngCompression: pngCompression)
    }
}

/// The one rule for `--scale`: the scene file's `canvas.scale` range (`Canvas.scaleRange`), or a narrower one.
func validateScale(_ scale: Double, within range: ClosedRange<Double> = Canvas.scaleRange,
                   reason: String = "as a scene's canvas.scale") throws {
    guard range.contains(scale) else {
        let bounds = "between \(String(format: "%g", range.lowerBound)) and \(String(format: "%g", range.upperBound))"
        throw ValidationError("--scale must be \(bounds), \(reason).")
    }
}

/// Fails unless `url` may be written (see `WritableDestination`: not a device, FIFO, socket, folder, read-only
/// file or one of the scene's own files), before any work is done.
func checkWritable(_ url: URL, protecting scene: Scene) { checkWritable(url, protecting: scene.protectedFiles) }

func checkWritable(_ url: URL, protecting files: [ProtectedFile]) {
    do { _ = try WritableDestination(url, protecting: files) } catch { fail("\(error)") }
}

/// The format `url` is written in (`OutputFormat.forFile`), or the reason it cannot be.
func checkedFormat(_ url: URL, requested: OutputFormat? = nil, allowed: [OutputFormat] = OutputFormat.allCases,
                   writer: String) -> OutputFormat {
    do {
        return try OutputFormat.forFile(url, requested: requested, allowed: allowed, writer: writer,
                                        requestedBy: "--format")
    } catch {
        fail("\(error)")
    }
}

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to PNG, SVG or PDF.",
        discussion: """
            The output is written atomically: an existing file is replaced only by a complete new one, with its \
            mode kept; a symbolic link is written through to its target. Devices, FIFOs, sockets, read-only \
            files, the scene file and its images are refused, and so is an extension that disagrees with the \
            format.
            """
    )

    @OptionGroup var scene: SceneArgument

    @Option(name: .shortAndLong, help: ArgumentHelp("The output file (default: the scene's name with the format's extension).", valueName: "file"))
    var output: String?

    @Option(help: "png, svg or pdf (default: from the output's extension, else png; the two must agree).")
    var format: OutputFormat?

    @OptionGroup var picture: PictureOptions

    @OptionGroup var time: TimeOption

    func run() throws {
        if scene.readsStandardInput && output == nil {
            throw ValidationError("Give -o FILE: a scene read from standard input has no name to name the picture after.")
        }
        let sceneName = URL(fileURLWithPath: scene.scene).deletingPathExtension().lastPathComponent
        let out = URL(fileURLWithPath: output ?? sceneName + "." + (self.format ?? .png).rawValue)
        let format = checkedFormat(out, requested: self.format, writer: "render")
        let s = try scene.load()
        checkWritable(out, protecting: s)
        do {
            try Renderer.write(s.root, size: s.canvas.size, options: picture.renderOptions(for: s.canvas), to: out,
                               format: format, protecting: s.protectedFiles, time: time.time)
        } catch {
            fail("\(error)")
        }
        print("wrote \(out.path)")
    }
}

extension OutputFormat: ExpressibleByArgument {}
extension PNGCompression: ExpressibleByArgument {}
extension Antialias: ExpressibleByArgument {}
