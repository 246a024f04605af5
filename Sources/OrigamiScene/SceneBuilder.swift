import Foundation
import Origami
import OrigamiRender
import Yams

/// Turns a scene document into a `SceneDescription`, reporting every problem to its reader.
struct SceneBuilder {
    let reader: SceneReader
    let baseURL: URL?
    let limits: SceneLimits
    let images: SceneImages
    private var layerCount = 0
    private var usedNames: [String: String] = [:]   // name → key path of its first use
    /// Every image file `contents` names, so outputs can refuse to replace one.
    private var imageURLs: [URL] = []
    /// The solids built to check the file, by key path: the first instantiation can use them rather than build
    /// each again (a polyhedron's build is not cheap).
    private(set) var builtSolids: [String: Solid] = [:]
    /// Each layer's constraints with where their `relativeTo` is written, by the layer's key path, checked once
    /// its siblings are read (`checkConstraints`).
    var constraintSources: [String: [(Constraint, SceneValue)]] = [:]
    /// Where each layer's `constraints` list is written, by the layer's key path.
    var constraintLists: [String: SceneValue] = [:]

    init(reader: SceneReader, baseURL: URL?, limits: SceneLimits, images: ImageLoading = .decode) {
        self.reader = reader; self.baseURL = baseURL; self.limits = limits
        self.images = SceneImages(images, limits: limits)
    }

    static let topKeys = ["params", "canvas", "layers", "sweep"]
    static let parameterKeys = ["default", "range", "step", "unit", "label"]
    static let canvasKeys = ["size", "scale", "background", "antialias"]
    static let layerKeys = [
        "type", "name", "frame", "bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform",
        "sublayerTransform", "geometryFlipped", "masksToBounds", "doubleSided", "hidden", "opacity",
        "backgroundColor", "borderWidth", "borderColor", "cornerRadius", "contents", "contentsGravity",
        "contentsScale", "allowsHitTesting", "sublayers", "lighting", "animations", "speed", "beginTime", "timeOffset",
        "autoresizingMask", "constraints", "layoutManager", "resize",
    ]
    static let textKeys = ["string", "fontFamily", "fontSize", "fontWeight", "italic", "foregroundColor", "alignment",
                           "verticallyCentered"]
    static let layerTypes = ["layer", "transformLayer", "text", "solid"]
    static let solidKeys = ["shape", "size", "width", "height", "depth", "sides", "radius", "polygons", "faces", "allFaces"]
    static let solidShapes = ["cube", "box", "prism", "pyramid", "polyhedron"]
    /// What a scene may set on a solid's face: its looks and its sublayers, not its geometry (the solid places it).
    static let faceKeys = [
        "name", "masksToBounds", "doubleSided", "hidden", "opacity", "backgroundColor", "borderWidth", "borderColor",
        "cornerRadius", "contents", "contentsGravity", "contentsScale", "allowsHitTesting", "sublayers", "lighting",
        "animations", "speed", "beginTime", "timeOffset", "layoutManager",
    ]

    /// `parameterValues`: values for declared parameters in place of their defaults (checked by the caller).
    mutating func build(_ top: SceneValue, url: URL?, summary: String, source: String,
                        parameterValues: [String: Double] = [:]) -> SceneDescription? {
        guard let object = top.object(allowed: Self.topKeys) else { return nil }
        // Before any number is read: they may use the parameters.
        let parameters = object["params"].map(readParameters) ?? []
        reader.parameters = Dictionary(uniqueKeysWithValues: parameters.map { ($0.name, parameterValues[$0.name] ?? $0.defaultValue) })
        let canvas = object.required("canvas", hint: "e.g. `canvas: {size: [600, 400]}`").flatMap(readCanvas)
        var layers: [LayerDescription] = []
        if let list = object.required("layers")?.list() {
            for item in list {
                if let layer = readLayer(item, depth: 1) { layers.append(layer) }
            }
        }
        checkConstraints(of: layers, superlayerHasManager: false, superlayerPath: nil)
        let sweep = object["sweep"].map { readSweep($0, parameters: parameters) } ?? []
        guard let canvas else { return nil }
        return SceneDescription(url: url, file: reader.file, canvas: canvas, layers: layers, summary: summary,
                                sweep: sweep, source: source, images: imageURLs, parameters: parameters,
                                parameterValues: reader.parameters)
    }

    // MARK: Parameters

    /// `params:` maps names to a default number, or to `{default, range: [lo, hi], step, unit, label}`.
    private func readParameters(_ value: SceneValue) -> [SceneParameter] {
        guard case let .mapping(mapping) = value.node else {
            reader.report(value, "expected a mapping from parameter names to default values",
                          hint: "e.g. `params: {yaw: 30, distance: {default: 500, range: [200, 2000]}}`")
            return []
        }
        var result: [SceneParameter] = []
        for (k, v) in mapping {
            let name = k.string ?? ""
            let item = value.child(name, v)
            let keyValue = SceneValue(node: k, path: item.path, reader: reader)
            guard SceneParameter.isValidName(name) else {
                reader.report(keyValue, "`\(name)` is not a parameter name",
                              hint: "a letter or `_`, then letters, digits or `_` (written `$\(name)` where it is used)")
                continue
            }
            guard !SceneParameter.reservedNames.contains(name) else {
                let why = name == "time" ? "`time` is the scene time, which sweeps vary themselves"
                                         : "`\(name)` is a lighting field that sweeps vary by that name"
                reader.report(keyValue, "`\(name)` cannot be a parameter name: \(why)", hint: "choose another name")
                continue
            }
            if case .mapping = v {
                guard let o = item.object(allowed: Self.parameterKeys) else { continue }
                guard let defaultValue = plainNumber(o.required("default", hint: "e.g. `{default: 30, range: [0, 90]}`")) else { continue }
                var range: ClosedRange<Double>?
                if let r = o["range"] {
                    guard let bounds = r.numbers(count: 2, what: "a range [low, high]") else { continue }
                    guard bounds[0] <= bounds[1] else {
                        reader.report(r, "the range [\(format(bounds[0])), \(format(bounds[1]))] is empty", hint: "write [low, high]")
                        continue
                    }
                    range = bounds[0]...bounds[1]
                }
                var step: Double?
                if let s = o["step"] {
                    guard let v = plainNumber(s) else { continue }
                    guard v > 0 else { reader.report(s, "the step must be positive"); continue }
                    step = v
                }
                let parameter = SceneParameter(name: name, defaultValue: defaultValue, range: range, step: step,
                                               unit: o["unit"]?.string(), label: o["label"]?.string())
                if let problem = parameter.problem(with: defaultValue) {
                    reader.report(o["default"], "the default \(problem)")
                    continue
                }
                result.append(parameter)
            } else if case .scalar = v {
                guard let defaultValue = plainNumber(item) else { continue }
                result.append(SceneParameter(name: name, defaultValue: defaultValue))
            } else {
                reader.report(item, "expected a default number or a mapping {default, range, step, unit, label}, found \(item.typeName)",
                              hint: "e.g. `\(name): 30` or `\(name): {default: 30, range: [0, 90]}`")
            }
        }
        return result
    }

    /// A number that may not use parameters (a parameter's own declaration).
    private func plainNumber(_ value: SceneValue?) -> Double? {
        guard let value else { return nil }
        if case let .scalar(s) = value.node, ParameterExpression.mentionsParameter(s.string) {
            return value.fail("a parameter's declaration cannot use parameters", hint: "write a number")
        }
        return value.number()
    }

    /// `sweep:` maps parameter paths (the scene's parameters, `time`, lighting fields) to lists of values, read
    /// as the YAML values they are: numbers, words, colours (names, #rrggbb or [r, g, b(, a)]) or [x, y, z]
    /// vectors, each checked where it is written; a number parameter also takes a range `"0:90:15"`.
    private func readSweep(_ value: SceneValue, parameters: [SceneParameter]) -> [SweepParameter] {
        guard case let .mapping(mapping) = value.node else {
            reader.report(value, "expected a mapping from parameter paths to lists of values",
                          hint: "e.g. `sweep: {ambient: [0.2, 0.5, 0.8]}`")
            return []
        }
        var result: [SweepParameter] = []
        for (k, v) in mapping {
            let path = k.string ?? ""
            let item = value.child(path, v)
            let layerName: String?, field: SweepParameter.Field
            do {
                (layerName, field) = try SweepParameter.parsePath(path, parameters: parameters)
            } catch {
                reader.report(SceneValue(node: k, path: item.path, reader: reader), error.message, hint: error.hint)
                continue
            }
            if case .number = field.valueKind, case let .scalar(s) = item.node {
                do {
                    if let numbers = try SceneParameter.rangeValues(s.string) {
                        let values = numbers.compactMap { readSweepValue(item, number: $0, field: field, path: path) }
                        if values.count == numbers.count {
                            result.append(SweepParameter(path: path, values: values, layerName: layerName, field: field))
                        }
                        continue
                    }
                } catch {
                    reader.report(item, error.message, hint: error.hint)
                    continue
                }
            }
            guard let list = item.list() else { continue }
            guard !list.isEmpty else { reader.report(item, "no values to sweep"); continue }
            let values = list.compactMap { readSweepValue($0, field: field, path: path) }
            guard values.count == list.count else { continue }
            result.append(SweepParameter(path: path, values: values, layerName: layerName, field: field))
        }
        return result
    }

    private func readSweepValue(_ element: SceneValue, number: Double, field: SweepParameter.Field, path: String) -> SweepParameter.Value? {
        do {
            return try field.check(.number(number), written: format(number), path: path)
        } catch {
            reader.report(element, error.message, hint: error.hint)
            return nil
        }
    }

    private func readSweepValue(_ element: SceneValue, field: SweepParameter.Field, path: String) -> SweepParameter.Value? {
        let candidate: SweepParameter.Value?
        switch field.valueKind {
        case .number: candidate = element.number().map { .number($0) }
        case .vector: candidate = element.vector3().map { .vector($0) }
        case .color: candidate = element.color().map { .color($0) }
        case .word: candidate = element.string().map { .word($0) }
        }
        guard let candidate else { return nil }
        let written: String
        if case let .scalar(s) = element.node { written = s.string } else { written = candidate.description }
        do {
            return try field.check(candidate, written: written, path: path)
        } catch {
            reader.report(element, error.message, hint: error.hint)
            return nil
        }
    }

    // MARK: Canvas

    private func readCanvas(_ value: SceneValue) -> Canvas? {
        guard let o = value.object(allowed: Self.canvasKeys) else { return nil }
        guard let sizeValue = o.required("size", hint: "e.g. `size: [600, 400]`"),
              let size = sizeValue.size(positive: true) else { return nil }
        var canvas = Canvas(size: size)
        if let s = o["scale"]?.number(in: Canvas.scaleRange, what: "scale") { canvas.scale = s }
        if let b = o["background"] {
            if case let .scalar(s) = b.node, s.string == "transparent" || s.string == "none" {
                canvas.background = nil
            } else if let c = b.color() {
                canvas.background = c
            }
        }
        if let a = o["antialias"]?.choice(Antialias.allCases.map(\.rawValue)), let antialias = Antialias(rawValue: a) {
            canvas.antialias = antialias
        }
        let w = Double(size.width) * canvas.scale, h = Double(size.height) * canvas.scale
        if w > limits.maxCanvasSide || h > limits.maxCanvasSide || w * h > limits.maxCanvasPixels {
            reader.report(sizeValue, "canvas of \(format(w))×\(format(h)) pixels is too large",
                          hint: "the limit is \(format(limits.maxCanvasSide)) pixels a side and \(format(limits.maxCanvasPixels / 1_048_576)) Mpx")
            return nil
        }
        return canvas
    }

    // MARK: Layers

    private mutating func readLayer(_ value: SceneValue, depth: Int) -> LayerDescription? {
        guard depth <= limits.maxDepth else {
            reader.report(value, "layers are nested more than \(limits.maxDepth) deep")
            return nil
        }
        layerCount += 1
        guard layerCount <= limits.maxLayers else {
            if layerCount == limits.maxLayers + 1 {
                reader.report(value, "the scene has more than \(limits.maxLayers) layers")
            }
            return nil
        }
        // The type decides which keys are allowed, so read it before checking the others.
        var type = "layer"
        if case let .mapping(m) = value.node, let t = m["type"] {
            type = value.child("type", t).choice(Self.layerTypes) ?? "layer"
        }
        let allowed = Self.layerKeys + (type == "text" ? Self.textKeys : type == "solid" ? Self.solidKeys : [])
        guard let o = value.object(allowed: allowed) else { return nil }

        let kind: LayerDescription.Kind
        var solid: Solid?
        switch type {
        case "transformLayer": kind = .transformLayer
        case "text": kind = .text
        case "solid":
            for key in ["frame", "bounds", "resize"] where o[key] != nil {
                reader.report(o[key], "a solid's bounds come from its shape", hint: "place its centre with `position`")
            }
            guard let (recipe, made) = readSolid(o) else { return nil }
            kind = .solid(recipe)
            solid = made
            builtSolids[value.path] = made
        default: kind = .layer
        }
        var layer = LayerDescription(kind: kind, at: value)
        if type == "text" { layer.settings = readText(o) }
        if let v = o["name"], let name = claimName(v) { layer.name = name }
        // Geometry in the order the book's code sets it: bounds, anchorPoint, frame (which sets position and
        // bounds.size for the untransformed layer), position, then transform — so `frame` never depends on it.
        if let b = o["bounds"]?.rect() {
            if b.width < 0 || b.height < 0 { reader.report(o["bounds"], "bounds width and height must be non-negative") }
            layer.settings.append(.bounds(b))
        }
        if let a = o["anchorPoint"]?.point() { layer.settings.append(.anchorPoint(a)) }
        if let f = o["frame"]?.rect() {
            if f.width < 0 || f.height < 0 { reader.report(o["frame"], "frame width and height must be non-negative") }
            if o["bounds"] != nil { reader.report(o["frame"], "both `frame` and `bounds` are given", hint: "use `frame`, or `bounds` with `position`") }
            layer.settings.append(.frame(f))
        }
        if let p = o["position"]?.point() { layer.settings.append(.position(p)) }
        if let t = o["transform"].flatMap(readTransform) { layer.settings.append(.transform(t)) }
        if let z = o["anchorPointZ"]?.number() { layer.settings.append(.anchorPointZ(z)) }
        if let z = o["zPosition"]?.number() { layer.settings.append(.zPosition(z)) }
        if let t = o["sublayerTransform"].flatMap(readTransform) { layer.settings.append(.sublayerTransform(t)) }
        if let b = o["geometryFlipped"]?.bool() { layer.settings.append(.geometryFlipped(b)) }
        if let m = o["autoresizingMask"].flatMap(readAutoresizingMask) { layer.settings.append(.autoresizingMask(m)) }
        if let v = o["constraints"], let cs = readConstraints(v) {
            constraintSources[value.path] = cs
            constraintLists[value.path] = v
            layer.settings.append(.constraints(cs.map(\.0)))
        }
        readLooks(o, into: &layer, depth: depth)
        if let r = o["resize"]?.size() { layer.resize = r }
        if let solid { readFaces(o, of: solid, into: &layer, depth: depth) }
        return layer
    }

    /// The properties a face shares with any layer: appearance, hit testing, lighting and sublayers.
    private mutating func readLooks(_ o: SceneObject, into layer: inout LayerDescription, depth: Int) {
        if let b = o["masksToBounds"]?.bool() { layer.settings.append(.masksToBounds(b)) }
        if let b = o["doubleSided"]?.bool() { layer.settings.append(.doubleSided(b)) }
        if let b = o["hidden"]?.bool() { layer.settings.append(.hidden(b)) }
        if let v = o["opacity"]?.number(in: 0...1, what: "opacity") { layer.settings.append(.opacity(v)) }
        if let c = o["backgroundColor"]?.color() { layer.settings.append(.backgroundColor(c)) }
        if let v = o["borderWidth"]?.number(in: 0...10_000, what: "borderWidth") { layer.settings.append(.borderWidth(v)) }
        if let c = o["borderColor"]?.color() { layer.settings.append(.borderColor(c)) }
        if let v = o["cornerRadius"]?.number(in: 0...100_000, what: "cornerRadius") { layer.settings.append(.cornerRadius(v)) }
        if let v = o["contentsGravity"]?.choice(ContentsGravity.allCases.map(\.rawValue)) {
            layer.settings.append(.contentsGravity(ContentsGravity(rawValue: v) ?? .resize))
        }
        if let v = o["contentsScale"]?.number(in: 0.01...64, what: "contentsScale") { layer.settings.append(.contentsScale(v)) }
        if let b = o["allowsHitTesting"]?.bool() { layer.settings.append(.allowsHitTesting(b)) }
        if let c = o["contents"] { readContents(c, into: &layer) }
        if let l = o["lighting"].flatMap(readLighting) { layer.settings.append(.lighting(l)) }
        if let t = readLayerTiming(o) { layer.settings.append(.timing(t)) }
        for a in o["animations"].map(readAnimations) ?? [] { layer.settings.append(.animation(a)) }
        let manager = o["layoutManager"]?.choice(Self.layoutManagers)
        if manager == "constraints" { layer.settings.append(.constraintLayoutManager) }
        if let subs = o["sublayers"]?.list() {
            for item in subs {
                if let s = readLayer(item, depth: depth + 1) { layer.sublayers.append(s) }
            }
        }
        checkConstraints(of: layer.sublayers, superlayerHasManager: manager == "constraints", superlayerPath: o.value.path)
    }

    /// The name written at `value`, reporting it when an earlier layer already uses it.
    private mutating func claimName(_ value: SceneValue) -> String? {
        guard let name = value.string() else { return nil }
        if let first = usedNames[name] {
            reader.report(value, "the name `\(name)` is already used at \(first)", hint: "layer names must be unique")
        } else {
            usedNames[name] = value.path
        }
        return name
    }

    private func readText(_ o: SceneObject) -> [LayerSetting] {
        var t: [LayerSetting] = []
        if let v = o["string"], let s = readTextString(v) { t.append(.string(s)) }
        if let s = o["fontFamily"]?.string() { t.append(.fontFamily(s)) }
        if let v = o["fontSize"]?.number(in: 0.1...10_000, what: "fontSize") { t.append(.fontSize(v)) }
        if let v = o["fontWeight"]?.choice(TextLayer.Weight.allCases.map(\.rawValue)) { t.append(.fontWeight(TextLayer.Weight(rawValue: v) ?? .regular)) }
        if let b = o["italic"]?.bool() { t.append(.italic(b)) }
        if let c = o["foregroundColor"]?.color() { t.append(.foregroundColor(c)) }
        if let v = o["alignment"]?.choice(TextLayer.Alignment.allCases.map(\.rawValue)) { t.append(.alignment(TextLayer.Alignment(rawValue: v) ?? .left)) }
        if let b = o["verticallyCentered"]?.bool() { t.append(.verticallyCentered(b)) }
        return t
    }

    /// A text layer's string, refused where it is written when the renderer could not draw all of it: over
    /// `maxTextBytes`, or holding a NUL (Cairo's text calls take C strings, so everything after it would vanish).
    private func readTextString(_ value: SceneValue) -> String? {
        guard let s = value.string() else { return nil }
        let bytes = s.utf8.count
        guard bytes <= limits.render.maxTextBytes else {
            return value.fail("the text has \(bytes) bytes, over the limit of \(limits.render.maxTextBytes)",
                              hint: "split it among several text layers")
        }
        guard !s.utf8.contains(0) else {
            return value.fail("the text contains a NUL character", hint: "remove the `\\0` (or `\\x00`) from the string")
        }
        return s
    }

    private mutating func readContents(_ value: SceneValue, into layer: inout LayerDescription) {
        guard let path = value.string() else { return }
        guard !path.isEmpty else {
            reader.report(value, "empty image path", hint: "name a PNG file, relative to the scene file's folder")
            return
        }
        guard let url = resolve(path, at: value) else { return }
        guard FileManager.default.fileExists(atPath: url.path) else {
            reader.report(value, "image `\(path)` not found", hint: "paths are relative to the scene file's folder")
            return
        }
        imageURLs.append(url)
        imageLoader(url, value, &layer)
    }

    /// Resolves a path relative to the scene's folder, refusing one that leaves it (after following symbolic
    /// links) unless the limits allow it.
    private func resolve(_ path: String, at value: SceneValue) -> URL? {
        let base = (baseURL ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        let url = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path)).standardizedFileURL
        guard !limits.allowsImagesOutsideSceneFolder else { return url }
        let realBase = base.resolvingSymlinksInPath().path
        let root = realBase.hasSuffix("/") ? realBase : realBase + "/"
        guard url.resolvingSymlinksInPath().path.hasPrefix(root) else {
            reader.report(value, "image path `\(path)` leaves the scene's folder",
                          hint: "keep images beside the scene file, or pass --allow-outside-images")
            return nil
        }
        return url
    }

    /// Sets the layer's `contents` from the image (decoded once per file, or only its header read, as the load
    /// asks), reporting a corrupt, unreadable or over-budget file at `value`.
    private func imageLoader(_ url: URL, _ value: SceneValue, _ layer: inout LayerDescription) {
        do {
            if let bitmap = try images.image(at: url, name: url.lastPathComponent) { layer.settings.append(.contents(bitmap)) }
        } catch {
            reader.report(value, error.message, hint: error.hint)
        }
    }

    // MARK: Solids

    /// The solid's recipe, and the solid it builds (whose faces `faces:` keys are checked against).
    private func readSolid(_ o: SceneObject) -> (SolidRecipe, Solid)? {
        guard let shapeValue = o.required("shape", hint: "one of: \(Self.solidShapes.joined(separator: ", "))"),
              let shape = shapeValue.choice(Self.solidShapes) else { return nil }
        func need(_ key: String) -> Double? { o.required(key)?.number() }
        let recipe: SolidRecipe
        switch shape {
        case "cube":
            guard let s = need("size") else { return nil }
            recipe = .cube(size: s)
        case "box":
            guard let w = need("width"), let h = need("height"), let d = need("depth") else { return nil }
            recipe = .box(width: w, height: h, depth: d)
        case "prism", "pyramid":
            guard let n = o.required("sides")?.int(in: 3...Solid.maximumSides), let r = need("radius"), let h = need("height") else { return nil }
            recipe = shape == "prism" ? .prism(sides: n, radius: r, height: h) : .pyramid(sides: n, radius: r, height: h)
        default:
            guard let polygonsValue = o.required("polygons", hint: "a list of faces, each a list of [x, y, z] vertices"),
                  let polygons = polygonsValue.list() else { return nil }
            // Before any vertex is read.
            guard polygons.count <= limits.maxPolyhedronFaces else {
                reader.report(polygonsValue, "the polyhedron has \(polygons.count) faces, over the limit of \(limits.maxPolyhedronFaces)",
                              hint: "raise the limit with --max-polyhedron-faces")
                return nil
            }
            var faces: [[Vector3]] = []
            for p in polygons {
                guard let vertices = p.list() else { return nil }
                var face: [Vector3] = []
                for v in vertices { guard let x = v.vector3() else { return nil }; face.append(x) }
                faces.append(face)
            }
            recipe = .polyhedron(faces: faces)
        }
        do {
            return (recipe, try recipe.make())
        } catch {
            reader.report(shapeValue, "cannot build the \(shape): \(error)")
            return nil
        }
    }

    /// `faces:` maps a face's name (front, top, side 2, …) or number (1…) to its looks; `allFaces:` applies to
    /// every face first. Each face the file touches gets one description, its settings in the order met.
    private mutating func readFaces(_ o: SceneObject, of solid: Solid, into layer: inout LayerDescription, depth: Int) {
        var described: [Int: LayerDescription] = [:]
        func description(of index: Int, at value: SceneValue) -> LayerDescription {
            if let d = described[index] { return d }
            var d = LayerDescription(kind: .face(index: index), at: value)
            d.name = solid.faces[index].name
            return d
        }
        defer { layer.faces = described.keys.sorted().compactMap { described[$0] } }
        if let all = o["allFaces"], let looks = all.object(allowed: Self.faceKeys) {
            if looks["name"] != nil { reader.report(looks["name"], "`allFaces` cannot name the faces") }
            for index in solid.faces.indices {
                var face = description(of: index, at: all)
                readLooks(looks, into: &face, depth: depth)
                described[index] = face
            }
        }
        guard let facesValue = o["faces"] else { return }
        guard case let .mapping(mapping) = facesValue.node else {
            reader.report(facesValue, "expected a mapping from face names or numbers to their properties")
            return
        }
        let names = solid.faces.map { $0.kind.description }
        for (k, v) in mapping {
            let key = k.string ?? ""
            let value = facesValue.child(key, v)
            let face = Int(key).flatMap { solid.face(number: $0) } ?? solid.faces.first { $0.kind.description == key }
            guard let face, let index = solid.faces.firstIndex(where: { $0 === face }) else {
                let hint = closestMatch(to: key, in: names).map { "did you mean `\($0)`?" }
                    ?? "this \(solid.faces.count)-faced solid has faces \(names.joined(separator: ", ")) (or 1…\(solid.faces.count))"
                reader.report(SceneValue(node: k, path: value.path, reader: reader), "no face `\(key)`", hint: hint)
                continue
            }
            guard let looks = value.object(allowed: Self.faceKeys) else { continue }
            var faceDescription = description(of: index, at: value)
            if let n = looks["name"], let name = claimName(n) { faceDescription.name = name }
            readLooks(looks, into: &faceDescription, depth: depth)
            described[index] = faceDescription
        }
    }

    // MARK: Lighting

    static let lightingKeys = ["model", "ambient", "lights", "specular", "shininess", "twoSided", "pointLightSampling"]
    static let lightKeys = ["direction", "position", "color", "intensity", "space", "attenuation"]

    /// `lighting: book` (the book's light and ambient), or a mapping of `Lighting`'s fields.
    func readLighting(_ value: SceneValue) -> Lighting? {
        if case let .scalar(s) = value.node {
            if s.string == "book" { return .book }
            return value.fail("unknown lighting `\(s.string)`", hint: "write `book` or a mapping with `model` and `lights`")
        }
        guard let o = value.object(allowed: Self.lightingKeys) else { return nil }
        var lighting = Lighting(lights: [])
        if let m = o["model"]?.choice(Lighting.Model.allCases.map(\.rawValue)) { lighting.model = Lighting.Model(rawValue: m) ?? .lambert }
        if let a = o["ambient"]?.number(in: 0...1, what: "ambient") { lighting.ambient = a }
        if let c = o["specular"]?.color() { lighting.specular = c }
        if let v = o["shininess"]?.number(in: 0...10_000, what: "shininess") { lighting.shininess = v }
        if let b = o["twoSided"]?.bool() { lighting.twoSided = b }
        if let v = o["pointLightSampling"]?.choice(Lighting.PointLightSampling.allCases.map(\.rawValue)) {
            lighting.pointLightSampling = Lighting.PointLightSampling(rawValue: v) ?? .vertices
        }
        for item in o["lights"]?.list() ?? [] {
            if let light = readLight(item) { lighting.lights.append(light) }
        }
        return lighting
    }

    /// A light's kind follows from its fields: `direction` (directional), `position` (point), neither (ambient).
    func readLight(_ value: SceneValue) -> Light? {
        guard let o = value.object(allowed: Self.lightKeys) else { return nil }
        var light = Light()
        if let d = o["direction"] {
            guard let v = d.vector3() else { return nil }
            guard v.normalized() != nil else { return d.fail("the light direction is zero") }
            light.direction = v
        }
        if let p = o["position"] {
            guard let v = p.vector3() else { return nil }
            if light.direction != nil { return p.fail("a light has a `direction` (directional) or a `position` (point), not both") }
            light.position = v
        }
        if let c = o["color"]?.color() { light.color = c }
        if let i = o["intensity"]?.number(in: 0...1000, what: "intensity") { light.intensity = i }
        if let s = o["space"]?.choice(Light.Space.allCases.map(\.rawValue)) { light.space = Light.Space(rawValue: s) ?? .scene }
        if let a = o["attenuation"] {
            guard let v = a.numbers(count: 3, what: "attenuation [constant, linear, quadratic]") else { return nil }
            guard v.allSatisfy({ $0 >= 0 }), v.contains(where: { $0 > 0 }) else {
                return a.fail("attenuation coefficients must be ≥ 0 and not all zero")
            }
            light.attenuation = Light.Attenuation(constant: v[0], linear: v[1], quadratic: v[2])
        }
        return light
    }

    // MARK: Transforms

    /// An operation list applied like the book's code: `t = Identity`, then for each operation
    /// `t = CATransform3DRotate(t, …)` (the new operation applies first), with `perspective d` setting
    /// `t.m34 = −1/d`.
    func readTransform(_ value: SceneValue) -> Transform3D? {
        let items: [SceneValue]
        if case .scalar = value.node { items = [value] } else if let l = value.list() { items = l } else { return nil }
        var t = Transform3D.identity
        for item in items {
            guard let text = item.string(allowingParameters: true) else { return nil }
            guard let next = Self.apply(text, to: t, at: item) else { return nil }
            t = next
        }
        return t
    }

    static let operations = ["perspective", "rotate", "translate", "scale", "matrix"]

    private static func apply(_ text: String, to t: Transform3D, at value: SceneValue) -> Transform3D? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
        guard let op = words.first else { return value.fail("empty transform operation") }
        let args = Array(words.dropFirst())
        func numbers(_ counts: [Int], usage: String) -> [Double]? {
            guard counts.contains(args.count) else { return value.fail("`\(op)` takes \(usage)", hint: "e.g. `\(usage)`") }
            var result: [Double] = []
            for a in args {
                guard let v = value.number(word: a, in: text) else { return nil }
                result.append(v)
            }
            return result
        }
        switch op {
        case "perspective":
            guard let v = numbers([1], usage: "perspective 500") else { return nil }
            guard v[0] > 0 else { return value.fail("the perspective distance must be positive") }
            var r = t
            r.m34 = -1 / v[0]
            return r
        case "rotate":
            if args.count == 2, ["x", "y", "z"].contains(args[0]) {
                let a: Double
                if ParameterExpression.mentionsParameter(args[1]) {
                    guard let v = value.number(word: args[1], in: text) else { return nil }
                    a = v
                } else {
                    guard let v = SceneValue.parseDegrees(args[1]) else { return value.fail("`\(args[1])` is not an angle in degrees") }
                    a = v
                }
                let axis = args[0] == "x" ? (1.0, 0.0, 0.0) : args[0] == "y" ? (0, 1, 0) : (0, 0, 1)
                return t.rotated(by: a * .pi / 180, x: axis.0, y: axis.1, z: axis.2)
            }
            let parameterAngle = args.count == 4 && ParameterExpression.mentionsParameter(args[0])
            if args.count == 4, let a = parameterAngle ? value.number(word: args[0], in: text) : SceneValue.parseDegrees(args[0]) {
                guard let axis = numbers([4], usage: "rotate 45 0 1 0").map({ Array($0.dropFirst()) }) else { return nil }
                guard axis.contains(where: { $0 != 0 }) else { return value.fail("the rotation axis is zero") }
                return t.rotated(by: a * .pi / 180, x: axis[0], y: axis[1], z: axis[2])
            }
            if parameterAngle { return nil }   // reported by `number(word:in:)`
            return value.fail("`rotate` takes an axis and an angle in degrees", hint: "e.g. `rotate y 45` or `rotate 45 0 1 0`")
        case "translate":
            guard let v = numbers([2, 3], usage: "translate 0 0 100") else { return nil }
            return t.translated(x: v[0], y: v[1], z: v.count == 3 ? v[2] : 0)
        case "scale":
            guard let v = numbers([1, 2, 3], usage: "scale 2 2 1") else { return nil }
            let s = v.count == 1 ? [v[0], v[0], 1] : v.count == 2 ? [v[0], v[1], 1] : v
            return t.scaled(x: s[0], y: s[1], z: s[2])
        case "matrix":
            guard let v = numbers([16], usage: "matrix m11 m12 … m44 (16 numbers, row-major)"),
                  let m = Transform3D(rowMajor: v) else { return nil }
            return m.concatenating(t)
        default:
            let hint = closestMatch(to: op, in: operations).map { "did you mean `\($0)`?" }
                ?? "operations: \(operations.joined(separator: ", "))"
            return value.fail("unknown transform operation `\(op)`", hint: hint)
        }
    }
}
