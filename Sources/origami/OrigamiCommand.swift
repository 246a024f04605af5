import ArgumentParser
import Foundation
import Origami
import OrigamiRender
import OrigamiScene

@main
struct OrigamiCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "origami",
        abstract: "Render, light and hit-test 3D scenes built from Core Animation-style layers.",
        discussion: """
            A scene file (YAML or JSON) describes a canvas and a tree of layers, transform layers and solids.
            Transforms are operation lists applied like the book's code: [perspective 500, rotate x -45].
            """,
        subcommands: [RenderCommand.self, AnimateCommand.self, SweepCommand.self, HitCommand.self, HitMapCommand.self, InspectCommand.self]
    )

    static func main() {
        // Once, before any command writes: an interrupted write leaves no temporary file.
        TemporaryFiles.removeOnTerminationSignals()
        main(nil)
    }
}

/// The scene argument every subcommand takes.
struct SceneArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The scene file (.yaml, .yml or .json).", valueName: "scene"))
    var scene: String

    @Flag(help: "Let the scene's images lie outside its folder (refused by default).")
    var allowOutsideImages = false

    @Option(help: ArgumentHelp("The most faces a polyhedron solid may have.", valueName: "n"))
    var maxPolyhedronFaces = SceneLimits.default.maxPolyhedronFaces

    @Option(help: ArgumentHelp("The most pixels the scene's images may decode to, all together (4 bytes each; an image shown by several layers counts once). Default \(SceneLimits.default.imagePixelBudget) in all and \(SceneLimits.default.render.maxImagePixels) in one image; a larger value given here raises both.",
                               valueName: "pixels"))
    var maxImagePixels: Int?

    func validate() throws {
        guard maxPolyhedronFaces >= 4 else { throw ValidationError("--max-polyhedron-faces must be at least 4.") }
        if let maxImagePixels, maxImagePixels <= 0 {
            throw ValidationError("--max-image-pixels must be a positive whole number.")
        }
    }

    var limits: SceneLimits {
        var l = SceneLimits()
        l.allowsImagesOutsideSceneFolder = allowOutsideImages
        l.maxPolyhedronFaces = maxPolyhedronFaces
        if let maxImagePixels {
            // One image is part of the total, so a budget raised past the one-image limit raises that too.
            l.imagePixelBudget = maxImagePixels
            l.render.maxImagePixels = max(l.render.maxImagePixels, maxImagePixels)
        }
        return l
    }

    /// `images: .sizeOnly` for commands that need only the layers' geometry: no image is decoded.
    func load(images: ImageLoading = .decode) throws -> Scene {
        do {
            return try Scene.load(contentsOf: URL(fileURLWithPath: scene), displayName: scene, limits: limits,
                                  images: images)
        } catch {
            reject(error)
        }
    }

    /// The scene file decoded once, for commands that instantiate it several times.
    func loadDescription() -> SceneDescription {
        do {
            return try SceneDescription.load(contentsOf: URL(fileURLWithPath: scene), displayName: scene, limits: limits)
        } catch {
            reject(error)
        }
    }

    private func reject(_ error: SceneError) -> Never {
        fail(error.issues.count == 1 ? "invalid scene \(scene)" : "invalid scene \(scene) (\(error.issues.count) problems)",
             details: error.detailedDescription)
    }
}

/// Prints `error: message` and the details to standard error, and exits with status 1.
func fail(_ message: String, details: String? = nil) -> Never {
    var text = "error: \(message)\n"
    if let details, !details.isEmpty { text += details + "\n" }
    FileHandle.standardError.write(Data(text.utf8))
    exit(1)
}

/// A point written `X,Y`.
struct PointArgument: ExpressibleByArgument {
    let point: CGPoint

    init?(argument: String) {
        let parts = argument.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let x = parts[0], let y = parts[1], x.isFinite, y.isFinite else { return nil }
        point = CGPoint(x: x, y: y)
    }

    static var defaultValueDescription: String { "X,Y" }
}

/// How a layer is named in output: its name, or its place in the tree (`layers[0].sublayers[2]`).
func label(of layer: Layer, in scene: Scene) -> String {
    if let name = layer.name { return name }
    if layer === scene.root { return "canvas" }
    var parts: [String] = []
    var current = layer
    while let s = current.superlayer {
        let i = s.sublayers.firstIndex { $0 === current } ?? 0
        parts.append(s === scene.root ? "layers[\(i)]" : "sublayers[\(i)]")
        current = s
    }
    return parts.reversed().joined(separator: ".")
}

func fmt(_ v: Double, _ digits: Int = 2) -> String {
    let s = String(format: "%.\(digits)f", v)
    // A value that rounds to zero prints without a sign.
    return s.hasPrefix("-") && s.allSatisfy({ "-0.".contains($0) }) ? String(s.dropFirst()) : s
}

func fmt(_ p: CGPoint) -> String { "(\(fmt(p.x)), \(fmt(p.y)))" }
func fmt(_ r: CGRect) -> String { "(\(fmt(r.minX)), \(fmt(r.minY)), \(fmt(r.width)), \(fmt(r.height)))" }
