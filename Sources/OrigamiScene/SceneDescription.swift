import Foundation
import Origami
import OrigamiRender
import Synchronization
import Yams

/// Everything a scene file says, read and checked once: a `Sendable` value (no layer objects inside) that any
/// number of threads can instantiate layer trees from. A sweep variant (and later an animation frame) is a copy of
/// this value with a few settings added — the lighting it varies, see `Sweep.scene(ofVariant:)` — instantiated
/// again; with other values for the file's `params`, the description is built again from the parsed YAML it
/// keeps (`setting(_:)`). Either way the file's text is never decoded twice.
///
/// Images are decoded into the value, so every instantiation shares their pixels.
public struct SceneDescription: Sendable {
    /// The scene file, when read from one.
    public let url: URL?
    /// How messages name the file.
    public let file: String
    /// The picture: size, scale, background and antialiasing.
    public var canvas: Canvas
    /// The canvas's sublayers, in file order.
    public var layers: [LayerDescription]
    /// The file's top-of-file comment lines, without the `#`.
    public let summary: String
    /// The parameters of the file's `sweep:` section.
    public let sweep: [SweepParameter]
    /// The file's text, for messages that show the offending line and for the sweep manifest's digest.
    public let source: String
    /// The image files `contents` names, in the order they appear (outputs refuse to replace them).
    public let images: [URL]
    /// The file's `params`, in file order.
    public let parameters: [SceneParameter]
    /// The value each parameter has in this description: its default unless `setting(_:)` gave another.
    public let parameterValues: [String: Double]
    /// The parsed file, which `setting(_:)` builds a description with other parameter values from (set by the
    /// decoder when the file declares parameters; `nil` otherwise, when there are none to set).
    var document: SceneDocument?

    /// The files this scene is read from, which no output may replace: the scene file and its images.
    public var protectedFiles: [ProtectedFile] {
        (url.map { [ProtectedFile($0, role: "the scene file")] } ?? [])
            + images.map { ProtectedFile($0, role: "an image the scene reads") }
    }

    init(url: URL?, file: String, canvas: Canvas, layers: [LayerDescription], summary: String,
         sweep: [SweepParameter], source: String, images: [URL], parameters: [SceneParameter],
         parameterValues: [String: Double]) {
        self.url = url; self.file = file; self.canvas = canvas; self.layers = layers; self.summary = summary
        self.sweep = sweep; self.source = source; self.images = images; self.parameters = parameters
        self.parameterValues = parameterValues
    }

    /// The parameter named `name`, or an error with a did-you-mean.
    public func parameter(named name: String) throws(ParameterError) -> SceneParameter {
        if let p = parameters.first(where: { $0.name == name }) { return p }
        let names = parameters.map(\.name)
        if name == "time" { throw ParameterError("`time` is the scene time, not a parameter", hint: "vary it with --vary time=…") }
        let hint = closestMatch(to: name, in: names).map { "did you mean `\($0)`?" }
            ?? (names.isEmpty ? "the scene declares no `params`" : "the scene's parameters: \(names.joined(separator: ", "))")
        throw ParameterError("the scene has no parameter `\(name)`", hint: hint)
    }

    /// Checks `values` against the declared parameters: each name declared, each value in its range.
    public func checkParameterValues(_ values: [String: Double]) throws(ParameterError) {
        for name in values.keys.sorted() {
            let p = try parameter(named: name)
            if let problem = p.problem(with: values[name] ?? 0) {
                throw ParameterError(problem, hint: p.range.map { "the scene declares `\(name)` in \(format($0.lowerBound))…\(format($0.upperBound))" })
            }
        }
    }

    /// This scene with `values` for some of its parameters (the others keep theirs): the parsed file read
    /// again with those values — its text is not decoded again. Throws `ParameterError` for an undeclared name
    /// or a value outside its range, and `SceneError` when the file does not hold with these values (a
    /// `perspective $d` with `d` = 0, say).
    public func setting(_ values: [String: Double]) throws -> SceneDescription {
        try checkParameterValues(values)
        let merged = parameterValues.merging(values) { $1 }
        guard merged != parameterValues, let document else { return self }
        return try document.build(parameterValues: merged, url: url, summary: summary, source: source)
    }

    /// A new layer tree (a new canvas root with new layers), set up as the file says.
    /// Throws only when a solid the file describes can no longer be built, which building it while reading
    /// the file rules out.
    public func instantiate() throws(SceneError) -> Scene { try instantiate(reusing: [:]) }

    /// `solids`: unattached solids built from this description's recipes, by key path, used instead of building
    /// them again (each at most once).
    func instantiate(reusing solids: [String: Solid]) throws(SceneError) -> Scene {
        let root = Layer(name: nil)
        root.bounds = CGRect(origin: .zero, size: canvas.size)
        root.position = CGPoint(x: canvas.size.width / 2, y: canvas.size.height / 2)
        root.backgroundColor = canvas.background
        let context = Instantiation(file: file, source: source, solids: solids)
        for item in layers { try root.addSublayer(instantiating: item, context) }
        // Laid out here, once, rather than by the first presentation of the tree: the reader has ruled out the
        // layout errors it could meet, and a tree shared by readers is then never edited by one of them.
        root.layoutIfNeeded()
        if let (layer, error) = root.firstLayoutError() {
            throw context.issue(context.descriptions[ObjectIdentifier(layer)], "cannot lay out the sublayers: \(error)")
        }
        return Scene(url: url, canvas: canvas, root: root, summary: summary, sweep: sweep, description: self)
    }
}

/// One layer of a scene file, with where it is written.
public struct LayerDescription: Sendable {
    /// What kind of layer the file asks for.
    public enum Kind: Sendable {
        /// A plain layer, a transform layer (its sublayers share its 3D space) or a text layer.
        case layer, transformLayer, text
        /// A solid built from a recipe; its faces are layers the solid makes.
        case solid(SolidRecipe)
        /// Face `index` (0-based) of the solid that holds this description: faces are built by their solid,
        /// so their description only sets properties.
        case face(index: Int)
    }

    /// What the file asks for.
    public let kind: Kind
    /// The layer's name: as written, or for a face its default (`front`, `side 2`, …) unless the file names it.
    public internal(set) var name: String?
    /// Where the layer's mapping starts, and its key path (`layers[0].sublayers[2]`).
    public let line: Int
    /// The column where the layer's mapping starts (1-based).
    public let column: Int
    /// Where the layer is in the document: `layers[0].sublayers[2]`.
    public let keyPath: String
    /// The properties the file sets, in the order they are applied.
    var settings: [LayerSetting] = []
    /// The layer's sublayers, in file order.
    public internal(set) var sublayers: [LayerDescription] = []
    /// For a solid: the faces the file sets properties on (`allFaces`, `faces`), each at most once.
    public internal(set) var faces: [LayerDescription] = []
    /// The size `resize` gives the bounds once the sublayers are built (so their autoresizing masks apply).
    var resize: CGSize?

    init(kind: Kind, line: Int, column: Int, keyPath: String) {
        self.kind = kind; self.line = line; self.column = column; self.keyPath = keyPath
    }

    init(kind: Kind, at value: SceneValue) {
        self.init(kind: kind, line: value.node.mark?.line ?? 0, column: value.node.mark?.column ?? 0, keyPath: value.path)
    }

    /// The lighting the file gives this layer (the last `lighting` setting), if any.
    public var lighting: Lighting? {
        for setting in settings.reversed() { if case let .lighting(l) = setting { return l } }
        return nil
    }
}

/// How a solid is built: the shape and its dimensions (or faces) as the file gives them.
public enum SolidRecipe: Sendable {
    /// A cube of `size` points a side, faces placed as the book's.
    case cube(size: Double)
    /// A box `width × height × depth` (x, y, z).
    case box(width: Double, height: Double, depth: Double)
    /// A right prism: `sides` rectangles around a regular polygon of circumradius `radius`, `height` along y, and two
    /// caps.
    case prism(sides: Int, radius: Double, height: Double)
    /// A right pyramid: a regular `sides`-gon base of circumradius `radius` and an apex `height` above it.
    case pyramid(sides: Int, radius: Double, height: Double)
    /// A convex polyhedron from its faces, each a list of vertices.
    case polyhedron(faces: [[Vector3]])

    var shapeName: String {
        switch self {
        case .cube: return "cube"
        case .box: return "box"
        case .prism: return "prism"
        case .pyramid: return "pyramid"
        case .polyhedron: return "polyhedron"
        }
    }

    func make() throws(SolidError) -> Solid {
        switch self {
        case let .cube(s): return try Solid.cube(size: s)
        case let .box(w, h, d): return try Solid.box(width: w, height: h, depth: d)
        case let .prism(n, r, h): return try Solid.prism(sides: n, radius: r, height: h)
        case let .pyramid(n, r, h): return try Solid.pyramid(sides: n, radius: r, height: h)
        case let .polyhedron(faces): return try Solid.polyhedron(faces: faces)
        }
    }
}

/// One property a scene file sets on a layer. A layer's settings are applied in the order the reader met them,
/// which is the order the book's code sets properties (bounds, anchorPoint, frame, position, transform, …): a
/// `frame` depends on what was set before it.
enum LayerSetting: Sendable {
    case bounds(CGRect), anchorPoint(CGPoint), frame(CGRect), position(CGPoint), transform(Transform3D)
    case anchorPointZ(Double), zPosition(Double), sublayerTransform(Transform3D), geometryFlipped(Bool)
    case masksToBounds(Bool), doubleSided(Bool), hidden(Bool), opacity(Double), backgroundColor(Color)
    case borderWidth(Double), borderColor(Color), cornerRadius(Double), contentsGravity(ContentsGravity)
    case contentsScale(Double), allowsHitTesting(Bool), contents(Bitmap), lighting(Lighting)
    case string(String), fontFamily(String), fontSize(Double), fontWeight(TextLayer.Weight), italic(Bool)
    case foregroundColor(Color), alignment(TextLayer.Alignment), verticallyCentered(Bool)
    // Boxed: they are several times the size of the other payloads, and every setting of every layer is as large
    // as the largest case (a 10 000-layer scene held 11.8 MB of settings, about 1.2 KB a layer).
    indirect case timing(TimingDescription), animation(AnimationDescription)
    case autoresizingMask(AutoresizingMask), constraints([Constraint]), constraintLayoutManager

    func apply(to layer: Layer) {
        switch self {
        case let .bounds(v): layer.bounds = v
        case let .anchorPoint(v): layer.anchorPoint = v
        case let .frame(v): layer.frame = v
        case let .position(v): layer.position = v
        case let .transform(v): layer.transform = v
        case let .anchorPointZ(v): layer.anchorPointZ = v
        case let .zPosition(v): layer.zPosition = v
        case let .sublayerTransform(v): layer.sublayerTransform = v
        case let .geometryFlipped(v): layer.isGeometryFlipped = v
        case let .masksToBounds(v): layer.masksToBounds = v
        case let .doubleSided(v): layer.isDoubleSided = v
        case let .hidden(v): layer.isHidden = v
        case let .opacity(v): layer.opacity = v
        case let .backgroundColor(v): layer.backgroundColor = v
        case let .borderWidth(v): layer.borderWidth = v
        case let .borderColor(v): layer.borderColor = v
        case let .cornerRadius(v): layer.cornerRadius = v
        case let .contentsGravity(v): layer.contentsGravity = v
        case let .contentsScale(v): layer.contentsScale = v
        case let .allowsHitTesting(v): layer.allowsHitTesting = v
        case let .contents(v): layer.contents = v
        case let .lighting(v): layer.lighting = v
        case let .string(v): (layer as? TextLayer)?.string = v
        case let .fontFamily(v): (layer as? TextLayer)?.fontFamily = v
        case let .fontSize(v): (layer as? TextLayer)?.fontSize = v
        case let .fontWeight(v): (layer as? TextLayer)?.fontWeight = v
        case let .italic(v): (layer as? TextLayer)?.isItalic = v
        case let .foregroundColor(v): (layer as? TextLayer)?.foregroundColor = v
        case let .alignment(v): (layer as? TextLayer)?.alignment = v
        case let .verticallyCentered(v): (layer as? TextLayer)?.isVerticallyCentered = v
        case let .timing(v): v.apply(to: layer)
        case let .animation(v): layer.add(v.make(), forKey: v.key)
        case let .autoresizingMask(v): layer.autoresizingMask = v
        case let .constraints(v): layer.constraints = v
        case .constraintLayoutManager: layer.layoutManager = ConstraintLayoutManager()
        }
    }
}

/// A scene file's parsed YAML and what reading it needs, kept so a description with other parameter values is
/// built from the nodes rather than from the text.
///
/// `@unchecked Sendable`: Yams' nodes are values but for their `Tag`, a class that resolves itself lazily on
/// first use; every build takes `lock`, so no two threads touch the nodes at once.
final class SceneDocument: @unchecked Sendable {
    private let node: Node
    private let file: String
    private let baseURL: URL?
    private let limits: SceneLimits
    private let images: ImageLoading
    private let lock = NSLock()

    init(node: Node, file: String, baseURL: URL?, limits: SceneLimits, images: ImageLoading) {
        self.node = node; self.file = file; self.baseURL = baseURL; self.limits = limits; self.images = images
    }

    /// The description the file gives with `parameterValues` (checked by the caller).
    func build(parameterValues: [String: Double], url: URL?, summary: String, source: String) throws(SceneError) -> SceneDescription {
        lock.lock()
        defer { lock.unlock() }
        return try buildLocked(parameterValues: parameterValues, url: url, summary: summary, source: source).0
    }

    /// The description and the solids built while checking it. Call with `lock` held, or before the document
    /// is shared.
    func buildLocked(parameterValues: [String: Double], url: URL?, summary: String,
                     source: String) throws(SceneError) -> (SceneDescription, [String: Solid]) {
        let reader = SceneReader(file: file)
        var builder = SceneBuilder(reader: reader, baseURL: baseURL, limits: limits, images: images)
        let built = builder.build(SceneValue(node: node, path: "", reader: reader), url: url, summary: summary,
                                  source: source, parameterValues: parameterValues)
        guard reader.issues.isEmpty, var description = built else {
            let ordered = reader.issues.enumerated().sorted {
                ($0.element.line, $0.element.column, $0.offset) < ($1.element.line, $1.element.column, $1.offset)
            }.map(\.element)
            throw SceneError(issues: ordered, source: source)
        }
        // Only a description with parameters is ever built again (`setting(_:)`); without, the nodes go when the
        // text does (a 10 000-layer scene's were 15 MB of a hit test's 54 MB heap peak).
        if !description.parameters.isEmpty { description.document = self }
        return (description, builder.builtSolids)
    }
}

/// What building one layer tree needs besides the descriptions.
private struct Instantiation {
    let file: String
    let source: String
    let solids: [String: Solid]
    /// Where each built layer is described, for a layout error met after the tree is built.
    var descriptions: [ObjectIdentifier: LayerDescription] { located.descriptions }
    let located = LocatedLayers()

    init(file: String, source: String, solids: [String: Solid]) {
        self.file = file; self.source = source; self.solids = solids
    }

    func issue(_ description: LayerDescription?, _ message: String) -> SceneError {
        SceneError(issues: [SceneIssue(file: file, line: description?.line ?? 0, column: description?.column ?? 0,
                                       keyPath: description?.keyPath ?? "layers", message: message)], source: source)
    }
}

/// The descriptions of the layers an instantiation built that lay out sublayers.
private final class LocatedLayers {
    var descriptions: [ObjectIdentifier: LayerDescription] = [:]
}

extension Layer {
    /// Adds a new layer built from `description` (and its subtree) as the last sublayer.
    fileprivate func addSublayer(instantiating description: LayerDescription, _ context: Instantiation) throws(SceneError) {
        let layer: Layer
        switch description.kind {
        case .layer: layer = Layer()
        case .transformLayer: layer = TransformLayer()
        case .text: layer = TextLayer()
        case let .solid(recipe):
            if let built = context.solids[description.keyPath], built.superlayer == nil {
                layer = built
            } else {
                do { layer = try recipe.make() } catch {
                    throw context.issue(description, "cannot build the \(recipe.shapeName): \(error)")
                }
            }
        case .face:
            // A face is set up by `configure(_:_:)` on the layer its solid made; it never stands alone.
            return
        }
        try layer.configure(description, context)
        do { try addSublayer(layer) } catch { throw context.issue(description, "\(error)") }
    }

    /// Names the layer, applies its settings, then builds its sublayers and (for a solid) sets up its faces, in
    /// the order the file's reader met them.
    fileprivate func configure(_ description: LayerDescription, _ context: Instantiation) throws(SceneError) {
        if let name = description.name { self.name = name }
        for setting in description.settings { setting.apply(to: self) }
        for item in description.sublayers { try addSublayer(instantiating: item, context) }
        if layoutManager != nil { context.located.descriptions[ObjectIdentifier(self)] = description }
        if let solid = self as? Solid {
            for face in description.faces {
                guard case let .face(index) = face.kind, solid.faces.indices.contains(index) else { continue }
                try solid.faces[index].configure(face, context)
            }
        }
        // After the sublayers exist, so that their autoresizing masks follow the change.
        if let size = description.resize { bounds.size = size }
    }
}

/// Counts how often scene text is decoded, per file name, for the files a test asks to watch (others are not
/// recorded, so a long-running process keeps no history).
enum SceneDecodeCounter {
    private static let counts = Mutex<[String: Int]>([:])

    /// Starts counting the decodes of scene text named `file`.
    static func watch(_ file: String) { counts.withLock { $0[file] = $0[file] ?? 0 } }

    static func record(_ file: String) {
        counts.withLock { if let n = $0[file] { $0[file] = n + 1 } }
    }

    /// The decodes of `file` since `watch(_:)`.
    static func count(_ file: String) -> Int { counts.withLock { $0[file] ?? 0 } }
}

/// Where a layer is in a scene description: the path of sublayer and face indices from the canvas.
struct LayerAddress: Hashable, Sendable {
    enum Step: Hashable, Sendable {
        case sublayer(Int)
        /// An index into a solid's `faces` descriptions.
        case face(Int)
    }
    var steps: [Step]
}

extension SceneDescription {
    /// The layers the file gives `lighting`, in the order of the layer tree they instantiate (a solid's faces
    /// come before its own sublayers, as the solid holds them).
    func litLayers() -> [(address: LayerAddress, name: String?, lighting: Lighting)] {
        var result: [(address: LayerAddress, name: String?, lighting: Lighting)] = []
        var stack: [(LayerDescription, [LayerAddress.Step])] = layers.indices.reversed().map { (layers[$0], [.sublayer($0)]) }
        while let (layer, steps) = stack.popLast() {
            if let lighting = layer.lighting { result.append((LayerAddress(steps: steps), layer.name, lighting)) }
            for i in layer.sublayers.indices.reversed() { stack.append((layer.sublayers[i], steps + [.sublayer(i)])) }
            for i in layer.faces.indices.reversed() { stack.append((layer.faces[i], steps + [.face(i)])) }
        }
        return result
    }

    /// The lighting of the layer at `address`, if it has one.
    func lighting(at address: LayerAddress) -> Lighting? {
        guard case let .sublayer(first)? = address.steps.first, layers.indices.contains(first) else { return nil }
        var layer = layers[first]
        for step in address.steps.dropFirst() {
            switch step {
            case let .sublayer(i): guard layer.sublayers.indices.contains(i) else { return nil }; layer = layer.sublayers[i]
            case let .face(i): guard layer.faces.indices.contains(i) else { return nil }; layer = layer.faces[i]
            }
        }
        return layer.lighting
    }

    /// Gives the layer at `address` this lighting, as if the file had said it last.
    mutating func setLighting(_ lighting: Lighting, at address: LayerAddress) {
        guard case let .sublayer(first)? = address.steps.first, layers.indices.contains(first) else { return }
        layers[first].setLighting(lighting, at: address.steps.dropFirst())
    }
}

extension LayerDescription {
    fileprivate mutating func setLighting(_ lighting: Lighting, at steps: ArraySlice<LayerAddress.Step>) {
        guard let step = steps.first else { settings.append(.lighting(lighting)); return }
        switch step {
        case let .sublayer(i) where sublayers.indices.contains(i): sublayers[i].setLighting(lighting, at: steps.dropFirst())
        case let .face(i) where faces.indices.contains(i): faces[i].setLighting(lighting, at: steps.dropFirst())
        default: return
        }
    }
}
