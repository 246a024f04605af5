import Foundation
import Origami
import OrigamiRender
@testable import OrigamiScene
import Testing
import TestSupport

/// The documentation's scene files and its scene-file reference (`Sources/Origami/Origami.docc`), held to what
/// the reader does: every ```yaml block of the articles is a scene that loads, and every key table of the
/// reference lists exactly the keys the reader accepts, so the reference cannot drift from the code.
@Suite("Documentation: scene files and the scene-file reference")
struct DocumentationSceneTests {
    static let catalog = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Origami/Origami.docc")

    static func article(_ name: String) throws -> String {
        try String(contentsOf: catalog.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("Every ```yaml block of the articles is a scene that loads")
    func yamlBlocksLoad() throws {
        var count = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.catalog.path).sorted() where file.hasSuffix(".md") {
            let lines = try Self.article(file).split(separator: "\n", omittingEmptySubsequences: false)
            var start: Int?
            for (n, line) in lines.enumerated() {
                if start == nil, line == "```yaml" {
                    start = n + 1
                } else if let s = start, line == "```" {
                    let text = lines[s..<n].joined(separator: "\n")
                    // Named after the article and the block's first line, so an error points into the article.
                    #expect(throws: Never.self, "\(file):\(s + 1)") {
                        try Scene.decode(text, file: "\(file):\(s + 1)")
                    }
                    count += 1
                    start = nil
                }
            }
        }
        #expect(count >= 4, "the articles' scene files were not found in \(Self.catalog.path)")
    }

    /// The backticked words of the first column of each table under `### heading`, table by table.
    static func tables(under heading: String, in text: String) -> [[String]] {
        var inSection = false, tables: [[String]] = [], current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### ") || line.hasPrefix("## ") {
                inSection = line == "### \(heading)"
            }
            guard inSection else { continue }
            if line.hasPrefix("|") {
                let cell = line.dropFirst().prefix { $0 != "|" }
                if current == nil { current = [] } else if !cell.hasPrefix("---") {
                    current?.append(contentsOf: backticked(String(cell)).map { String($0.prefix { $0 != " " }) })
                }
            } else if let c = current {
                tables.append(c)
                current = nil
            }
        }
        if let current { tables.append(current) }
        return tables
    }

    /// Words in single backticks (not a DocC ``symbol link``).
    static func backticked(_ text: String) -> [String] {
        let withoutLinks = text.replacing(/``[^`]+``/, with: "")
        return withoutLinks.matches(of: /`([^`]+)`/).map { String($0.output.1) }
    }

    /// The backticked words of the paragraph that starts with `opening`, up to `end`.
    static func paragraph(startingWith opening: String, upTo end: String, in text: String) throws -> [String] {
        let start = try #require(text.range(of: opening))
        let rest = text[start.upperBound...]
        let stop = try #require(rest.range(of: end))
        return backticked(String(rest[..<stop.lowerBound]))
    }

    @Test("The reference's key tables list exactly the keys the reader accepts")
    func keyTables() throws {
        let text = try Self.article("SceneFileReference.md")
        let expected: [(String, [[String]])] = [
            ("Top level", [SceneBuilder.topKeys]),
            ("Canvas", [SceneBuilder.canvasKeys]),
            ("Layer keys", [SceneBuilder.layerKeys]),
            ("Text keys", [SceneBuilder.textKeys]),
            ("Solid keys", [SceneBuilder.solidKeys]),
            ("Lighting", [SceneBuilder.lightingKeys, SceneBuilder.lightKeys]),
            ("Animations", [SceneBuilder.animationKeys]),
            ("Layout", [SceneBuilder.constraintKeys]),
            ("Parameters", [SceneBuilder.parameterKeys]),
            ("Transforms", [SceneBuilder.operations]),
        ]
        for (heading, keys) in expected {
            let documented = Self.tables(under: heading, in: text)
            #expect(documented.map { Set($0) } == keys.map { Set($0) }, "### \(heading)")
        }
        let faceKeys = try Self.paragraph(startingWith: "**Face keys**", upTo: "with the types", in: text)
        #expect(Set(faceKeys) == Set(SceneBuilder.faceKeys))
    }

    @Test("The reference names every colour name and every animatable key path")
    func namesAndKeyPaths() throws {
        let text = try Self.article("SceneFileReference.md")
        let colours = try Self.paragraph(startingWith: "Colour names:", upTo: "\n\n", in: text)
        #expect(Set(colours) == Set(Color.named.keys))

        var paths = Set<String>()
        for word in try Self.paragraph(startingWith: "Key paths and the values they take:", upTo: "See <doc:", in: text) {
            if word.hasPrefix(".") {
                paths.insert("transform" + word)
                paths.insert("sublayerTransform" + word)
            } else if word != "light" && word != "light[i]" {
                paths.insert(word)
            }
        }
        #expect(paths == Set(AnimationKeyPath.knownPaths))
    }

    @Test("The defaults the reference states are the reader's")
    func defaults() throws {
        let scene = try Scene.decode("""
            canvas: {size: [100, 100]}
            layers:
              - {type: text, string: "1"}
              - lighting: {lights: [{direction: [0, 1, 0]}]}
              - {type: solid, shape: cube, size: 10}
            """)
        #expect(scene.canvas.scale == 1)
        #expect(scene.canvas.background == .white)
        #expect(scene.canvas.antialias == .gray)

        let text = try #require(scene.root.sublayers[0] as? TextLayer)
        // Apple documents CATextLayer's defaults: white foreground, 36-point font.
        #expect(text.foregroundColor == .white)
        #expect(text.fontSize == 36)
        #expect(text.fontFamily == "DejaVu Sans")
        #expect(text.fontWeight == .regular && !text.isItalic && text.alignment == .left && !text.isVerticallyCentered)

        let lighting = try #require(scene.root.sublayers[1].lighting as? Lighting)
        #expect(lighting.model == .lambert && lighting.ambient == 0.5 && lighting.specular == .white)
        #expect(lighting.shininess == 32 && lighting.twoSided && lighting.pointLightSampling == .vertices)
        let light = try #require(lighting.lights.first)
        #expect(light.color == .white && light.intensity == 1 && light.space == .scene && light.attenuation == .none)

        let solid = try #require(scene.root.sublayers[2] as? Solid)
        #expect(solid.faces.map(\.name) == ["front", "right", "top", "bottom", "left", "back"])
        #expect(solid.faces.allSatisfy { $0.isDoubleSided && $0.opacity == 1 && $0.allowsHitTesting })
    }
}
