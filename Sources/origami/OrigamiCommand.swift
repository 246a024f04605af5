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
            A scene file (YAML or JSON) describes a canvas and a tree of layers, transform layers and solids. \
            Transforms are operation lists applied like the book's code: [perspective 500, rotate x -45].
            """,
        // The one version constant: sweep manifests record the same.
        version: SweepPlan.toolVersion,
        subcommands: [RenderCommand.self, AnimateCommand.self, SweepCommand.self, HitCommand.self, HitMapCommand.self,
                      InspectCommand.self, ServeCommand.self]
    )

    static func main() {
        // Once, before any command writes: an interrupted write leaves no temporary file.
        TemporaryFiles.removeOnTerminationSignals()
        main(nil)
    }
}

/// `--set NAME=VALUE`: values for the scene's `params`, for every subcommand that reads a scene.
struct ParameterSettings: ParsableArguments {
    @Option(name: .customLong("set"),
            help: ArgumentHelp("Give a parameter the scene declares under `params` this value (repeatable; checked against its range).",
                               valueName: "name=value"))
    var assignments: [String] = []

    func validate() throws {
        var seen: Set<String> = []
        for a in assignments {
            let name: String
            do { name = try SceneParameter.assignment(a).name } catch { throw ValidationError("--set \(a): \(error).") }
            guard seen.insert(name).inserted else { throw ValidationError("--set \(name) is given twice.") }
        }
    }

    /// The values by name (syntax checked by `validate()`).
    var values: [String: Double] {
        Dictionary(assignments.compactMap { try? SceneParameter.assignment($0) }, uniquingKeysWith: { $1 })
    }

    /// `description` with these values, or a failure naming the `--set` that is wrong.
    func apply(to description: SceneDescription) -> SceneDescription {
        guard !assignments.isEmpty else { return description }
        do {
            return try description.setting(values)
        } catch let error as ParameterError {
            let culprit = assignments.first { a in
                guard let (name, value) = try? SceneParameter.assignment(a) else { return false }
                do { try description.checkParameterValues([name: value]); return false } catch { return true }
            }
            fail("--set \(culprit ?? assignments.joined(separator: " ")): \(error)")
        } catch let error as SceneError {
            fail("the scene \(description.file) does not hold with --set \(assignments.joined(separator: " --set "))",
                 details: error.detailedDescription)
        } catch {
            fail("\(error)")
        }
    }
}

/// The scene argument every subcommand takes.
struct SceneArgument: ParsableArguments {
    @Argument(help: ArgumentHelp("The scene file (.yaml, .yml or .json); - reads it from standard input (images relative to the current folder).", valueName: "scene"))
    var scene: String

    /// `-`: the scene is read from standard input.
    var readsStandardInput: Bool { scene == "-" }

    /// Refuses `-` for a command that needs the scene as a file (it reads it again, or names outputs after it).
    func requireFile(for command: String) throws {
        if readsStandardInput { throw ValidationError("\(command) reads its scene from a file; - (standard input) is for render, hit, hitmap and inspect.") }
    }

    /// How messages name the scene.
    var displayName: String { readsStandardInput ? "<stdin>" : scene }

    @OptionGroup var parameters: ParameterSettings

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
    /// With `--set`, the scene's parameters take those values.
    func load(images: ImageLoading = .decode) throws -> Scene {
        do {
            guard parameters.assignments.isEmpty, !readsStandardInput else {
                return try loadDescription(images: images).instantiate()
            }
            return try Scene.load(contentsOf: URL(fileURLWithPath: scene), displayName: scene, limits: limits,
                                  images: images)
        } catch {
            reject(error)
        }
    }

    /// The scene file decoded once, for commands that instantiate it several times; with `--set`, the
    /// scene's parameters take those values.
    func loadDescription(images: ImageLoading = .decode) -> SceneDescription {
        let description: SceneDescription
        do {
            if readsStandardInput {
                let text = try standardInputText()
                description = try SceneDescription.decode(
                    text, file: displayName, baseURL: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                    limits: limits, images: images)
            } else {
                description = try SceneDescription.load(contentsOf: URL(fileURLWithPath: scene), displayName: scene,
                                                        limits: limits, images: images)
            }
        } catch {
            reject(error)
        }
        return parameters.apply(to: description)
    }

    /// Standard input as text, held to the scene file's size limit.
    private func standardInputText() throws(SceneError) -> String {
        var data = Data()
        let limit = limits.maxFileBytes
        while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 16), !chunk.isEmpty {
            data.append(chunk)
            guard data.count <= limit else {
                throw SceneError(SceneIssue(file: displayName, line: 0, column: 0, keyPath: "",
                                            message: "standard input holds more than \(limit) bytes, the limit of a scene file"))
            }
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SceneError(SceneIssue(file: displayName, line: 0, column: 0, keyPath: "", message: "the scene is not UTF-8 text"))
        }
        return text
    }

    private func reject(_ error: SceneError) -> Never {
        fail(error.issues.count == 1 ? "invalid scene \(displayName)" : "invalid scene \(displayName) (\(error.issues.count) problems)",
             details: error.detailedDescription)
    }
}

/// `--time`: the scene at a moment of its animations (DESIGN §9), for every command that reads the layers.
struct TimeOption: ParsableArguments {
    @Option(help: ArgumentHelp("The scene time in seconds: the presentation, every animation applied at that moment (default: the model, as Core Animation's model layers: no animation).", valueName: "seconds"))
    var time: Double?

    func validate() throws {
        if let time, !time.isFinite { throw ValidationError("--time must be a finite number of seconds.") }
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

/// How a layer is named in output (`Scene.label(of:)`).
func label(of layer: Layer, in scene: Scene) -> String { scene.label(of: layer) }

func fmt(_ v: Double, _ digits: Int = 2) -> String {
    let s = fixedDecimal(v, digits: digits) ?? String(format: "%.\(digits)f", v)
    // A value that rounds to zero prints without a sign.
    return s.hasPrefix("-") && s.allSatisfy({ "-0.".contains($0) }) ? String(s.dropFirst()) : s
}

func fmt(_ p: CGPoint) -> String { "(\(fmt(p.x)), \(fmt(p.y)))" }
func fmt(_ r: CGRect) -> String { "(\(fmt(r.minX)), \(fmt(r.minY)), \(fmt(r.width)), \(fmt(r.height)))" }
