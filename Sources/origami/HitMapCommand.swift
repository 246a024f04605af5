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
            Each pixel takes the colour of the layer a touch there reaches in tree order (UIKit's delivery). \
            Where that is not the layer seen there (the frontmost face), the pixel is hatched: the touch is \
            intercepted, like the book's button on face 3. A legend at the right names the colours.
            """
    )

    @OptionGroup var scene: SceneArgument

    @Option(name: .shortAndLong, help: ArgumentHelp("The output PNG (optional with --json).", valueName: "file"))
    var output: String?

    @Flag(help: "Print the map's figures as JSON: per layer the pixels where it is seen, where it receives the touch and the share of its pixels intercepted, and who intercepts whom.")
    var json = false

    @Option(help: "Pixels per point (default: the scene's canvas scale).")
    var scale: Double?

    @OptionGroup var time: TimeOption

    func validate() throws {
        guard output != nil || json else { throw ValidationError("Missing -o FILE (the PNG), or --json for the figures.") }
        // A hit map tests every pixel, so its scale stops lower than a render's.
        if let scale {
            try validateScale(scale, within: Canvas.scaleRange.lowerBound...16, reason: "for a hit map (a render's is up to 64)")
        }
    }

    func run() throws {
        let out = output.map { URL(fileURLWithPath: $0) }
        if let out { _ = checkedFormat(out, allowed: [.png], writer: "hitmap") }
        let s = try scene.load(images: .sizeOnly)
        if let out { checkWritable(out, protecting: s) }
        do {
            let tree = PresentationTree(s.root, placement: .canvas, time: time.time)
            try HitMap.checkLimits(tree: tree, size: s.canvas.size, scale: scale ?? s.canvas.scale)
            let map = try HitMap(tree: tree, size: s.canvas.size, scale: scale ?? s.canvas.scale) { label(of: $0, in: s) }
            if let out { try map.legendImage().write(to: out, format: .png, protecting: s.protectedFiles) }
            let figures = map.statistics
            if json {
                printJSONObject(jsonObject(figures, map: map))
            } else if let out {
                print("wrote \(out.path): \(String(format: "%.1f", 100 * figures.interceptedShare)) % of the canvas is intercepted")
            }
        } catch {
            fail("\(error)")
        }
    }

    private func jsonObject(_ figures: HitMap.Statistics, map: HitMap) -> [String: Any] {
        // Every layer that takes part in an interception, as rows (receiving) and columns (seen).
        var involved: [String] = []
        for i in figures.interceptions {
            for name in [i.receiver, i.seen] where !involved.contains(name) { involved.append(name) }
        }
        var matrix = [[Int]](repeating: [Int](repeating: 0, count: involved.count), count: involved.count)
        for i in figures.interceptions {
            if let r = involved.firstIndex(of: i.receiver), let c = involved.firstIndex(of: i.seen) { matrix[r][c] = i.pixels }
        }
        var root: [String: Any] = [
            "scene": scene.displayName,
            "width": map.width, "height": map.height, "scale": map.scale,
            "pixels": figures.pixels,
            "intercepted": ["pixels": figures.intercepted, "share": figures.interceptedShare],
            "layers": figures.layers.map { l -> [String: Any] in
                ["name": l.name, "seen": l.seen, "touched": l.touched, "intercepted": l.intercepted,
                 "interceptedShare": l.interceptedShare]
            },
            "interceptions": figures.interceptions.map { ["receiver": $0.receiver, "seen": $0.seen, "pixels": $0.pixels] },
            // matrix.pixels[r][c]: pixels where the touch reaches layers[r] while layers[c] is seen.
            "matrix": ["layers": involved, "pixels": matrix],
        ]
        if let t = time.time { root["time"] = t }
        return root
    }
}
