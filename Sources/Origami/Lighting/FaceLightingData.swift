import Foundation

/// The lighting of one member of a 3D context, as data for experiments: the numbers `Lighting` paints with.
/// `Codable` (JSON); `csvHeader`/`csvRow` give a flat row form. Vectors are `[x, y, z]`, colours
/// `[red, green, blue]`.
public struct FaceLightingData: Hashable, Sendable, Codable {
    /// One light's contribution at the face's centre.
    public struct LightTerm: Hashable, Sendable, Codable {
        /// Which kind of light this term is for.
        public var kind: Light.Kind
        /// The space the light is given in.
        public var space: Light.Space
        /// L·N with L the normalised direction of travel and N the face's own (unflipped) normal: the book's
        /// `dotProduct`. 0 for ambient lights.
        public var lDotN: Double
        /// `I·f·max(0, −L·N)` with the lit (possibly flipped) normal.
        public var diffuse: Double
        /// `I·f·max(0, N·H)^shininess` (Blinn–Phong only, else 0).
        public var specular: Double
        /// The point light's attenuation factor f at the centre (1 otherwise).
        public var attenuation: Double
    }

    /// The member's position in the context's tree order (`SceneMember.treeIndex`).
    public var treeIndex: Int
    /// The member layer's `name`.
    public var layerName: String?
    /// For a `Face`: its solid's name, number (1-based) and kind (`front`, `side 2`, …).
    public var solidName: String?
    /// The face's number in its solid, from 1 (`Face.index`).
    public var faceNumber: Int?
    /// The face's kind as text: `front` … `back`, `side 2`, `base`, `face 7`.
    public var faceKind: String?
    /// The face's own `+z` normal in each space (`nil` where it has none: edge-on or behind the eye).
    public var objectNormal: [Double]?
    /// The normal in scene space (the context before its `sublayerTransform`).
    public var sceneNormal: [Double]?
    /// The normal in view space (after the affine part of the camera).
    public var viewNormal: [Double]?
    /// The view-space normal points away from the viewer.
    public var isSeenFromBehind: Bool
    /// One per light of the lighting, in order.
    public var lights: [LightTerm]
    /// The multiply colour at the centre before clamping, and as painted (clamped to 0…1).
    public var unclampedBrightness: [Double]
    /// The multiply colour at the centre as painted, each channel clamped to 0…1.
    public var brightness: [Double]
    /// The added specular colour at the centre, clamped (zero unless `blinnPhong`).
    public var specular: [Double]
    /// The book's `1 + L·N − ambient` before clamping, and the overlay alpha (clamped to 0…1).
    public var unclampedOverlay: Double
    /// The overlay's alpha, clamped to 0…1 (`bookOverlay`; 0 for the other models).
    public var overlayAlpha: Double
    /// The clamped brightness at the corners (minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY) when
    /// point lights are sampled per vertex; `nil` otherwise.
    public var cornerBrightness: [[Double]]?
}

extension Lighting {
    /// The lighting of every member of `context.sublayerScene()`, in tree order: normals per space, L·N per
    /// light, brightness and overlay alpha. A member that cannot be lit (edge-on, behind the eye) is reported
    /// with `nil` normals and zero terms. Throws when the lighting fails `validate()`. `time`: the layers as they
    /// are at that time of `context`'s parent, animations applied (this lighting as it is; `Layer.lightingReport(time:)`
    /// animates the context's own lighting too).
    public func lightingReport(for context: Layer, time: Double? = nil) throws(LightingError) -> [FaceLightingData] {
        try lightingReport(in: PresentationTree(context, placement: .ownSpace, time: time))
    }

    /// The report for the root's sublayer scene of a tree frozen in the root's own space.
    func lightingReport(in tree: PresentationTree) throws(LightingError) -> [FaceLightingData] {
        try validate()
        return tree.sublayerSceneNodes().enumerated().map { order, m in
            let transforms = FaceTransforms(projected: tree.transform(of: m), object: tree.objectTransform(of: m),
                                            context: tree.geometry(of: 0))
            let e = evaluate(transforms, bounds: tree.geometry(of: m).bounds, corners: usesVertices)
            let face = tree.layer(m) as? Face
            func v(_ x: Vector3?) -> [Double]? { x.map { [$0.x, $0.y, $0.z] } }
            func clamp(_ x: Double) -> Double { min(max(x, 0), 1) }
            func rgb(_ x: Vector3) -> [Double] { [x.x, x.y, x.z] }
            let centre = e?.centre
            let brightness = centre?.brightness ?? .zero
            let overlay = centre?.overlay ?? 0
            return FaceLightingData(
                treeIndex: order, layerName: tree.name(of: m),
                solidName: face?.solid?.name, faceNumber: face?.index, faceKind: face?.kind.description,
                objectNormal: v(e?.normals[.object]), sceneNormal: v(e?.normals[.scene]), viewNormal: v(e?.normals[.view]),
                isSeenFromBehind: e?.isSeenFromBehind ?? false,
                lights: e?.centreTerms ?? lights.map {
                    .init(kind: $0.kind, space: $0.space, lDotN: 0, diffuse: 0, specular: 0, attenuation: 1)
                },
                unclampedBrightness: rgb(brightness), brightness: rgb(brightness).map(clamp),
                specular: rgb(centre?.specular ?? .zero).map(clamp),
                unclampedOverlay: overlay, overlayAlpha: clamp(overlay),
                cornerBrightness: e?.corners?.map { rgb($0.brightness).map(clamp) })
        }
    }
}

extension Layer {
    /// `lighting.lightingReport(for: self)` when this layer's `lighting` is a `Lighting`; empty otherwise. At
    /// `time` (of this layer's parent) the layers and the lighting itself are as their animations make them.
    public func lightingReport(time: Double? = nil) throws(LightingError) -> [FaceLightingData] {
        let tree = PresentationTree(self, placement: .ownSpace, time: time)
        guard let lighting = tree.lighting(of: 0) as? Lighting else { return [] }
        return try lighting.lightingReport(in: tree)
    }
}

// MARK: - Flat rows

extension FaceLightingData {
    /// Column names for `csvRow`, with `lightCount` groups of per-light columns (`light1_lDotN`, …).
    public static func csvHeader(lightCount: Int) -> String {
        var columns = ["treeIndex", "layer", "solid", "face", "kind",
                       "objectNx", "objectNy", "objectNz", "sceneNx", "sceneNy", "sceneNz",
                       "viewNx", "viewNy", "viewNz", "seenFromBehind",
                       "brightnessR", "brightnessG", "brightnessB", "specularR", "specularG", "specularB",
                       "unclampedOverlay", "overlayAlpha"]
        for i in stride(from: 1, through: lightCount, by: 1) {
            columns += ["kind", "space", "lDotN", "diffuse", "specular", "attenuation"].map { "light\(i)_\($0)" }
        }
        return columns.joined(separator: ",")
    }

    /// One CSV line (no newline) matching `csvHeader(lightCount: lights.count)`. Text fields are quoted.
    public var csvRow: String {
        func text(_ s: String?) -> String { s.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" } ?? "" }
        func number(_ x: Double) -> String { String(x) }
        func vector(_ v: [Double]?) -> [String] { v?.map(number) ?? ["", "", ""] }
        var fields = [String(treeIndex), text(layerName), text(solidName), faceNumber.map(String.init) ?? "", text(faceKind)]
        fields += vector(objectNormal) + vector(sceneNormal) + vector(viewNormal) + [String(isSeenFromBehind)]
        fields += brightness.map(number) + specular.map(number) + [number(unclampedOverlay), number(overlayAlpha)]
        for t in lights {
            fields += [t.kind.rawValue, t.space.rawValue, number(t.lDotN), number(t.diffuse), number(t.specular),
                       number(t.attenuation)]
        }
        return fields.joined(separator: ",")
    }
}
