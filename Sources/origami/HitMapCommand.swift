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

    @OptionGroup var time: TimeOption

    func validate() throws {
        // A hit map tests every pixel, so its scale stops lower than a render's.
        if let scale {
            try validateScale(scale, within: Canvas.scaleRange.lowerBound...16, reason: "for a hit map (a render's is up to 64)")
        }
    }

    func run() throws {
        let out = URL(fileURLWithPath: output)
        _ = checkedFormat(out, allowed: [.png], writer: "hitmap")
        let s = try scene.load(images: .sizeOnly)
        checkWritable(out, protecting: s)
        do {
            let tree = PresentationTree(s.root, placement: .canvas, time: time.time)
            try HitMap.checkLimits(tree: tree, size: s.canvas.size, scale: scale ?? s.canvas.scale)
            let map = try HitMap(tree: tree, size: s.canvas.size, scale: scale ?? s.canvas.scale) { label(of: $0, in: s) }
            try map.legendImage().write(to: out, format: .png, protecting: s.protectedFiles)
            let total = Double(map.width * map.height)
            print("wrote \(out.path): \(String(format: "%.1f", 100 * Double(map.interceptedCount) / total)) % of the canvas is intercepted")
        } catch {
            fail("\(error)")
        }
    }
}
