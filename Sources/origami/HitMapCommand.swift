import ArgumentParser
import Foundation
import Origami
import OrigamiRender
import OrigamiScene

struct HitMapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hitmap",
        abstract: "Draw which layer a touch at each pixel reaches, with interception highlighted.",
        discussion: """
            Each pixel takes the colour of the layer a touch there reaches in tree order (UIKit's delivery).
            Where that is not the layer seen there (the frontmost face), the pixel is hatched: the touch is
            intercepted, like the book's button on face 3. A legend at the right names the colours.
            """
    )

    @OptionGroup var scene: SceneArgument

    @Option(name: .shortAndLong, help: ArgumentHelp("The output PNG.", valueName: "file"))
    var output: String

    @Option(help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    func validate() throws {
        if let scale, !(scale.isFinite && scale > 0 && scale <= 16) {
            throw ValidationError("--scale must be a number above 0 and at most 16.")
        }
    }

    func run() throws {
        let s = try scene.load(images: .sizeOnly)
        let out = URL(fileURLWithPath: output)
        checkWritable(out)
        do {
            let map = try HitMap(root: s.root, size: s.canvas.size, scale: scale ?? s.canvas.scale) { label(of: $0, in: s) }
            try map.legendImage().write(to: out, format: .png)
            let total = Double(map.width * map.height)
            print("wrote \(out.path): \(String(format: "%.1f", 100 * Double(map.interceptedCount) / total)) % of the canvas is intercepted")
        } catch {
            fail("\(error)")
        }
    }
}
