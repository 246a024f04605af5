import Foundation
import Origami
import OrigamiRender
import Yams

/// The picture a scene describes: its size, pixel scale, background and edge antialiasing.
public struct Canvas: Hashable, Sendable {
    /// In points.
    public var size: CGSize
    /// Pixels per point, within `scaleRange`.
    public var scale: Double
    /// `nil`: transparent.
    public var background: Color?
    /// Antialiased edges (`gray`) or hard ones (`none`), for comparing with aliased references.
    public var antialias: Antialias

    /// A canvas of `size` points at `scale` pixels per point; white and antialiased unless told otherwise.
    public init(size: CGSize, scale: Double = 1, background: Color? = .white, antialias: Antialias = .gray) {
        self.size = size; self.scale = scale; self.background = background; self.antialias = antialias
    }

    /// The pixel scales a scene's `canvas.scale` and the command line's `--scale` accept: one rule for both.
    public static let scaleRange: ClosedRange<Double> = 0.01...64
}

/// Limits a scene must respect; a scene over one is refused before anything is allocated for it.
public struct SceneLimits: Hashable, Sendable {
    /// The largest canvas side, in pixels.
    public var maxCanvasSide: Double = 16384
    /// The most pixels a canvas may have (256 Mpx).
    public var maxCanvasPixels: Double = 256 * 1024 * 1024
    /// The most layers a scene file may describe (every mapping under `layers` and `sublayers`).
    public var maxLayers = 100_000
    /// How deep layers may be nested.
    public var maxDepth = 64
    /// The largest scene file read, in bytes (16 MiB).
    public var maxFileBytes = 16 * 1024 * 1024
    /// Faces of one `polyhedron` solid (each is a layer; building and drawing them is about linear in their
    /// number, but a scene asking for more is taken for a mistake). `origami --max-polyhedron-faces` raises it.
    public var maxPolyhedronFaces = 10_000
    /// Image sizes (and the render limits a scene's images are decoded within).
    public var render = RenderLimits.default
    /// Decoded pixels of all the scene's images together (4 bytes each: 256 Mpx is 1 GiB, as much as the
    /// largest canvas), each file counted once however many layers show it. Checked from each image's header
    /// before anything is decoded; `origami`'s `--max-image-pixels` sets it.
    public var imagePixelBudget = 256 * 1024 * 1024
    /// Whether `contents` may name an image outside the scene file's folder (refused by default, so a scene
    /// from elsewhere cannot read arbitrary files).
    public var allowsImagesOutsideSceneFolder = false

    /// The default limits.
    public init() {}
    /// The limits `origami` uses unless an option raises one.
    public static let `default` = SceneLimits()
}

/// A decoded scene file: a canvas and a layer tree whose root covers the canvas.
public final class Scene {
    /// The scene file, when read from one.
    public let url: URL?
    /// The picture: size, scale, background and antialiasing.
    public var canvas: Canvas
    /// Covers the canvas: bounds (0, 0, width, height), position at its centre. The file's `layers` are its
    /// sublayers; its background is the canvas background.
    public let root: Layer
    /// The file's top-of-file comment lines (what the scene reproduces), without the `#`.
    public let summary: String
    /// The parameters of the file's `sweep:` section, the default of `origami sweep`.
    public let sweep: [SweepParameter]
    /// The decoded file this scene's layers were instantiated from: instantiate it again for another copy.
    public let sceneDescription: SceneDescription
    /// The image files the scene's layers show, in the order they appear.
    public var images: [URL] { sceneDescription.images }

    init(url: URL?, canvas: Canvas, root: Layer, summary: String, sweep: [SweepParameter],
         description: SceneDescription) {
        self.url = url; self.canvas = canvas; self.root = root; self.summary = summary; self.sweep = sweep
        self.sceneDescription = description
    }

    /// The files this scene was read from, which no output may replace: the scene file and its images.
    public var protectedFiles: [ProtectedFile] { sceneDescription.protectedFiles }

    /// The first layer with this name.
    public func layer(named name: String) -> Layer? { root.sublayer(named: name) }

    /// How a layer is named in output (the CLI's and the viewer's): its name, or its place in the tree
    /// (`layers[0].sublayers[2]`); the root is `canvas`.
    public func label(of layer: Layer) -> String {
        if let name = layer.name { return name }
        if layer === root { return "canvas" }
        var parts: [String] = []
        var current = layer
        while let s = current.superlayer {
            let i = s.sublayers.firstIndex { $0 === current } ?? 0
            parts.append(s === root ? "layers[\(i)]" : "sublayers[\(i)]")
            current = s
        }
        return parts.reversed().joined(separator: ".")
    }
}

extension Scene {
    /// Reads and decodes a scene file (YAML, or JSON, which is read as YAML). Throws `SceneError` naming the
    /// file, line, column and key path of every problem found.
    /// `displayName` is how messages name the file (default: its path); `images` says whether the layers'
    /// images are decoded or only their headers read.
    public static func load(contentsOf url: URL, displayName: String? = nil, limits: SceneLimits = .default,
                            images: ImageLoading = .decode) throws(SceneError) -> Scene {
        let text = try SceneDescription.read(url, displayName: displayName, limits: limits)
        return try decode(text, file: displayName ?? url.path, baseURL: url.deletingLastPathComponent(), url: url,
                          limits: limits, images: images)
    }

    /// Decodes scene text. `baseURL` is where relative image paths are resolved.
    public static func decode(
        _ text: String, file: String = "<scene>", baseURL: URL? = nil, url: URL? = nil,
        limits: SceneLimits = .default, images: ImageLoading = .decode
    ) throws(SceneError) -> Scene {
        let (description, solids) = try SceneDescription.decodeKeepingSolids(text, file: file, baseURL: baseURL, url: url,
                                                                             limits: limits, images: images)
        return try description.instantiate(reusing: solids)
    }
}

extension SceneDescription {
    /// Reads and decodes a scene file (YAML, or JSON, which is read as YAML). Throws `SceneError` naming the
    /// file, line, column and key path of every problem found.
    /// `displayName` is how messages name the file (default: its path).
    public static func load(contentsOf url: URL, displayName: String? = nil, limits: SceneLimits = .default,
                            images: ImageLoading = .decode) throws(SceneError) -> SceneDescription {
        let text = try read(url, displayName: displayName, limits: limits)
        return try decode(text, file: displayName ?? url.path, baseURL: url.deletingLastPathComponent(), url: url,
                          limits: limits, images: images)
    }

    /// The text of a scene file (or of another file read like one: `what` names it in messages), refusing a
    /// missing, oversized, unreadable or non-UTF-8 file.
    static func read(_ url: URL, displayName: String?, limits: SceneLimits,
                     what: String = "scene file") throws(SceneError) -> String {
        let name = displayName ?? url.path
        func refuse(_ message: String) -> SceneError {
            SceneError(SceneIssue(file: name, line: 0, column: 0, keyPath: "", message: message))
        }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
            throw refuse("cannot read the \(what): no such file")
        }
        if let size = attributes[.size] as? Int, size > limits.maxFileBytes {
            throw refuse("the file is \(size) bytes, over the limit of \(limits.maxFileBytes)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw refuse("cannot read the \(what) (permission denied or not a file)")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw refuse("the \(what) is not UTF-8 text") }
        return text
    }

    /// Decodes scene text. `baseURL` is where relative image paths are resolved.
    public static func decode(
        _ text: String, file: String = "<scene>", baseURL: URL? = nil, url: URL? = nil,
        limits: SceneLimits = .default, images: ImageLoading = .decode
    ) throws(SceneError) -> SceneDescription {
        try decodeKeepingSolids(text, file: file, baseURL: baseURL, url: url, limits: limits, images: images).0
    }

    /// The description, and the solids built while checking it (by key path) for a first instantiation to use.
    static func decodeKeepingSolids(
        _ text: String, file: String, baseURL: URL?, url: URL?, limits: SceneLimits, images: ImageLoading
    ) throws(SceneError) -> (SceneDescription, [String: Solid]) {
        SceneDecodeCounter.record(file)
        let node: Node?
        do {
            node = try composed(text)
        } catch let error as YamlError {
            throw SceneError(issues: [issue(for: error, file: file)], source: text)
        } catch {
            throw SceneError(issues: [SceneIssue(file: file, line: 0, column: 0, keyPath: "", message: "\(error)")], source: text)
        }
        guard let node else {
            throw SceneError(issues: [SceneIssue(file: file, line: 0, column: 0, keyPath: "",
                                                 message: "the scene is empty", hint: "a scene needs at least `canvas` and `layers`")],
                             source: text)
        }
        let document = SceneDocument(node: node, file: file, baseURL: baseURL, limits: limits, images: images)
        return try document.buildLocked(parameterValues: [:], url: url, summary: summary(of: text), source: text)
    }
    /// The text's node tree, as `Yams.compose(yaml:)` gives it.
    ///
    /// Yams checks every mapping for repeated keys by hashing its key nodes, and hashing resolves each key's tag
    /// through the YAML 1.1 regular expressions (bool, int, float, null, timestamp…): about 5 µs a key, two thirds of
    /// composing a big scene. Composed with the basic resolver (no expressions: a plain scalar is a string), two keys
    /// repeat when their texts are equal — a superset of the default resolver's repeats (equal texts *and* equal
    /// resolved tags: `true` and `"true"` differ there), so a text that composes with one composes with the other, to
    /// the same nodes. When the basic resolver finds a repeated key the text is composed again with the default one,
    /// which decides, so the answer and the error are exactly Yams' own. The values read from the tree do not depend
    /// on the resolver: numbers and booleans are read from the scalars' text and style (`SceneValue`).
    static func composed(_ text: String) throws -> Node? {
        do {
            return try Yams.compose(yaml: text, .basic)
        } catch YamlError.duplicatedKeysInMapping {
            return try Yams.compose(yaml: text)
        }
    }

    static func issue(for error: YamlError, file: String) -> SceneIssue {
        switch error {
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            return SceneIssue(file: file, line: mark.line, column: mark.column, keyPath: "",
                              message: "not valid YAML: \(problem)")
        case let .duplicatedKeysInMapping(duplicates, context):
            let keys = duplicates.sorted().map { "`\($0)`" }.joined(separator: ", ")
            return SceneIssue(file: file, line: context.mark.line, column: context.mark.column, keyPath: "",
                              message: "key \(keys) appears twice in one mapping")
        case let .reader(problem, _, _, _):
            return SceneIssue(file: file, line: 0, column: 0, keyPath: "", message: "cannot read the text: \(problem)")
        default:
            return SceneIssue(file: file, line: 0, column: 0, keyPath: "", message: "not valid YAML: \(error)")
        }
    }

    private static func summary(of text: String) -> String {
        var lines: [String] = []
        // Line by line from the top, stopping at the first that is not a comment: splitting the whole text first
        // took a tenth of the time of reading a 4 MB scene.
        var start = text.startIndex
        while start < text.endIndex {
            let end = text[start...].firstIndex(of: "\n") ?? text.endIndex
            let t = text[start..<end].trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("#") else { break }
            lines.append(String(t.dropFirst()).trimmingCharacters(in: .whitespaces))
            start = end < text.endIndex ? text.index(after: end) : end
        }
        return lines.joined(separator: "\n")
    }
}
