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

    @Option(help: "PNG compression: fast (default), balanced or smallest.")
    var pngCompression: PNGCompression = .fast

    func validate() throws {
        if let scale, !(scale.isFinite && scale > 0 && scale <= 64) {
            throw ValidationError("--scale must be a number above 0 and at most 64.")
        }
        guard (1...8).contains(supersample) else { throw ValidationError("--supersample must be between 1 and 8.") }
    }

    func renderOptions(for scene: Scene) -> RenderOptions {
        RenderOptions(scale: scale ?? scene.canvas.scale, supersample: supersample, background: scene.canvas.background,
                      pngCompression: pngCompression)
    }
}

/// Fails unless `url` can be written (its folder exists and is writable, and it is not a folder), before any
/// work is done.
func checkWritable(_ url: URL) {
    do { try WritableDestination.check(url) } catch { fail("\(error)") }
}

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene to PNG, SVG or PDF.",
        discussion: "The output is written atomically: an existing file is replaced only by a complete new one."
    )

    @OptionGroup var scene: SceneArgument

    @Option(name: .shortAndLong, help: ArgumentHelp("The output file (default: the scene's name with the format's extension).", valueName: "file"))
    var output: String?

    @Option(help: "png, svg or pdf (default: from the output's extension, else png).")
    var format: OutputFormat?

    @OptionGroup var picture: PictureOptions

    func run() throws {
        let s = try scene.load()
        let format = format ?? output.flatMap { OutputFormat(pathExtension: URL(fileURLWithPath: $0).pathExtension) } ?? .png
        let out = URL(fileURLWithPath: output ?? URL(fileURLWithPath: scene.scene).deletingPathExtension().lastPathComponent + "." + format.rawValue)
        checkWritable(out)
        do {
            try Renderer.write(s.root, size: s.canvas.size, options: picture.renderOptions(for: s), to: out, format: format)
        } catch {
            fail("\(error)")
        }
        print("wrote \(out.path)")
    }
}

extension OutputFormat: ExpressibleByArgument {}
extension PNGCompression: ExpressibleByArgument {}
