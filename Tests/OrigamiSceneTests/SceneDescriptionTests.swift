import Foundation
import Origami
import OrigamiRender
import Testing
@testable import OrigamiScene

/// A scene file is decoded once into a `SceneDescription`; scenes and sweep variants are instantiated from it.
@Suite("Scene descriptions: decode once, instantiate many")
struct SceneDescriptionTests {
    /// The lighting-sweep model's container and cube, small: the book's light (0, 1, −0.5) in scene space.
    static let litCube = """
        canvas: {size: [60, 60]}
        layers:
          - name: container
            frame: [0, 0, 60, 60]
            sublayerTransform: [perspective 500, rotate x -45, rotate y -45]
            lighting:
              model: lambert
              ambient: 0.5
              lights:
                - {direction: [0, 1, -0.5], space: scene}
            sublayers:
              - {name: cube, type: solid, shape: cube, size: 30, position: [30, 30],
                 allFaces: {backgroundColor: "#f39c12", doubleSided: false}}
        """

    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-description-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func loadingTwiceDecodesTwice() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("cube.yaml")
        try Self.litCube.write(to: url, atomically: true, encoding: .utf8)
        SceneDecodeCounter.watch(url.path)
        _ = try Scene.load(contentsOf: url)
        _ = try Scene.load(contentsOf: url)
        #expect(SceneDecodeCounter.count(url.path) == 2)
    }

    /// 100 variants (ambient 0.00 … 0.99) rendered on two threads: one decode of the YAML, and every variant lit
    /// with its own ambient. The top face (normal N = (0, −1, 0)) under the book's light L = (0, 1, −0.5)/√1.25 gets
    /// −L·N = 1/√1.25, so its brightness is a + (1 − a)/√1.25.
    @Test func aHundredVariantSweepDecodesItsYAMLOnce() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("cube.yaml")
        try Self.litCube.write(to: url, atomically: true, encoding: .utf8)
        SceneDecodeCounter.watch(url.path)
        let ambients = (0..<100).map { Double($0) / 100 }
        let parameter = try SweepParameter(argument: "ambient=" + ambients.map { String($0) }.joined(separator: ","))
        let sweep = try Sweep(scene: url, parameters: [parameter])
        #expect(sweep.variantCount == 100)
        let options = RenderOptions(scale: 0.25)
        let folder = try SweepFolder.claim(dir.appendingPathComponent("out"), for: SweepPlan(sweep: sweep, options: options),
                                           force: false)
        try sweep.render(variants: Array(1...100), into: folder, options: options, jobs: 2)
        #expect(SceneDecodeCounter.count(url.path) == 1)

        let lightOnTop = 1 / 1.25.squareRoot()
        for (i, a) in ambients.enumerated() {
            let data = try Data(contentsOf: folder.frames.appendingPathComponent(sweep.frameName(i + 1) + ".json"))
            let record = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let faces = try #require(record["faces"] as? [[String: Any]])
            let top = try #require(faces.first { $0["layerName"] as? String == "top" })
            let brightness = try #require(top["brightness"] as? [Double])
            #expect(abs(brightness[0] - (a + (1 - a) * lightOnTop)) < 1e-9, "variant \(i + 1)")
        }
    }

    /// The frames are written on the sweep's writer threads: a write that fails (variant 40's frame is a FIFO,
    /// which an output never opens) stops the sweep with that error, rethrown by `render` once every thread has
    /// ended, and leaves no temporary file behind.
    @Test func aFrameThatCannotBeWrittenStopsTheSweepWithItsError() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("cube.yaml")
        try Self.litCube.write(to: url, atomically: true, encoding: .utf8)
        let parameter = try SweepParameter(argument: "ambient=" + (0..<100).map { String(Double($0) / 100) }.joined(separator: ","))
        let sweep = try Sweep(scene: url, parameters: [parameter])
        let options = RenderOptions(scale: 0.25)
        let folder = try SweepFolder.claim(dir.appendingPathComponent("out"), for: SweepPlan(sweep: sweep, options: options),
                                           force: false)
        let fifo = folder.frames.appendingPathComponent(sweep.frameName(40) + ".png")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        for jobs in [1, 2] {
            #expect {
                try sweep.render(variants: Array(1...100), into: folder, options: options, jobs: jobs)
            } throws: { error in
                guard case RenderError.writeFailed(let path, _) = error else { return false }
                return path == fifo.path
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.frames.path)
            #expect(!names.contains { $0.contains(WritableDestination.temporaryMarker) }, "jobs \(jobs)")
        }
    }

    @Test func instancesAreIndependentOfEachOtherAndOfTheDescription() throws {
        let description = try SceneDescription.decode(Self.litCube, file: "cube.yaml")
        let a = try description.instantiate(), b = try description.instantiate()
        let cubeA = try #require(a.layer(named: "cube") as? Solid), cubeB = try #require(b.layer(named: "cube") as? Solid)
        #expect(cubeA !== cubeB)
        cubeA.position = CGPoint(x: 1, y: 2)
        cubeA.faces[0].backgroundColor = .red
        #expect(cubeB.position == CGPoint(x: 30, y: 30))
        #expect(cubeB.faces[0].backgroundColor == Color(parsing: "#f39c12"))
        let c = try description.instantiate()
        #expect(c.layer(named: "cube")?.position == CGPoint(x: 30, y: 30))
    }

    /// A variant replaces the lighting of the layer its parameter names, in its own copy of the description.
    @Test func aVariantIsTheDescriptionWithItsLightingReplaced() throws {
        let description = try SceneDescription.decode(Self.litCube, file: "cube.yaml")
        let sweep = try Sweep(scene: description, parameters: [
            try SweepParameter(argument: "container.ambient=0.1,0.9"),
            try SweepParameter(argument: "light.color=red,blue"),
        ])
        #expect(sweep.variantCount == 4)
        let variant = try sweep.scene(ofVariant: 3)   // ambient 0.9, red
        let lighting = try #require(try variant.instantiate().layer(named: "container")?.lighting as? Lighting)
        #expect(lighting.ambient == 0.9)
        #expect(lighting.lights.first?.color == .red)
        #expect(lighting.lights.first?.direction == Vector3(0, 1, -0.5))
        #expect(description.litLayers().first?.lighting.ambient == 0.5)
        #expect(sweep.scene.litLayers().first?.lighting.lights.first?.color == .white)
    }

    /// Face lighting from `allFaces` makes every face a lit layer; a face named in `faces` is found by its name.
    @Test func facesAreLitLayersInTreeOrder() throws {
        let description = try SceneDescription.decode("""
            canvas: {size: [60, 60]}
            layers:
              - {name: cube, type: solid, shape: cube, size: 30, position: [30, 30],
                 faces: {top: {lighting: {ambient: 0.3, lights: [{direction: [0, 1, 0]}]}},
                         "1": {name: first, lighting: book}}}
            """, file: "faces.yaml")
        #expect(description.litLayers().map(\.name) == ["first", "top"])
        let sweep = try Sweep(scene: description, parameters: [try SweepParameter(argument: "top.ambient=0.7")])
        let top = try sweep.scene(ofVariant: 1).instantiate().layer(named: "top")
        #expect((top?.lighting as? Lighting)?.ambient == 0.7)
        #expect(throws: SweepError("several layers are lit", hint: "prefix the layer's name: `first.ambient`")) {
            try Sweep(scene: description, parameters: [try SweepParameter(argument: "ambient=0.7")])
        }
    }
}

@Suite("A scene's sweep: section is read as YAML values")
struct SweepSectionTests {
    private func issues(_ text: String) -> [SceneIssue] {
        do { _ = try SceneDescription.decode(text, file: "s.yaml"); return [] } catch { return error.issues }
    }

    @Test func colourNamesListsAndVectors() throws {
        let d = try SceneDescription.decode("""
            canvas: {size: [10, 10]}
            sweep:
              light.color: [red, "#00ff00", [0, 0, 1, 0.5]]
              light.position: [[0, 0, 100], [10, -20, 30.5]]
              shininess: [8, 64]
            layers: []
            """, file: "s.yaml")
        #expect(d.sweep[0].values == [.color(.red), .color(.green), .color(Color(red: 0, green: 0, blue: 1, alpha: 0.5))])
        #expect(d.sweep[1].values == [.vector(Vector3(0, 0, 100)), .vector(Vector3(10, -20, 30.5))])
        #expect(d.sweep[2].values == [.number(8), .number(64)])
    }

    /// Each value is checked where it is written: line, column and key path of the value itself.
    @Test func badValuesAreLocatedAtTheValue() throws {
        let range = issues("canvas: {size: [10, 10]}\nsweep:\n  ambient: [0.2, 3]\nlayers: []")
        #expect(range.map(\.description) == ["s.yaml:3:18: sweep.ambient[1]: `3` is not a number in 0…1 for `ambient`"])
        let quoted = issues("canvas: {size: [10, 10]}\nsweep:\n  ambient: [\"0.5\"]\nlayers: []")
        #expect(quoted.map(\.description) == ["s.yaml:3:13: sweep.ambient[0]: expected a number, found `0.5`"])
        let zero = issues("canvas: {size: [10, 10]}\nsweep:\n  light.direction: [[0, 0, 0]]\nlayers: []")
        #expect(zero.map(\.description) == ["s.yaml:3:21: sweep.light.direction[0]: the light direction is zero"])
        let word = issues("canvas: {size: [10, 10]}\nsweep:\n  model: [lambert, phong]\nlayers: []")
        #expect(word.map(\.description)
            == ["s.yaml:3:20: sweep.model[1]: `phong` is not one of bookOverlay, lambert, blinnPhong for `model`"])
        let empty = issues("canvas: {size: [10, 10]}\nsweep:\n  ambient: []\nlayers: []")
        #expect(empty.map(\.description) == ["s.yaml:3:12: sweep.ambient: no values to sweep"])
    }
}

@Suite("--vary values on the command line")
struct VaryArgumentTests {
    /// The help says values are separated by commas; colours are values too.
    @Test func coloursSeparatedByCommas() throws {
        #expect(try SweepParameter(argument: "light.color=red,blue").values == [.color(.red), .color(.blue)])
        #expect(try SweepParameter(argument: "specular=#ff0000, white").values == [.color(.red), .color(.white)])
        // Numbers alone are one colour's components, as `;` separates colours written that way.
        #expect(try SweepParameter(argument: "light.color=0,0,1").values == [.color(.blue)])
        #expect(try SweepParameter(argument: "light.color=0,0,1;red").values == [.color(.blue), .color(.red)])
        #expect(throws: SweepError("`0` is not a colour for `light.color`", hint: "a name, #rrggbb or r,g,b in 0…1")) {
            try SweepParameter(argument: "light.color=red,0,0,1")
        }
    }

    @Test func vectorsStillNeedSemicolons() throws {
        #expect(try SweepParameter(argument: "light.direction=0,1,-0.5").values == [.vector(Vector3(0, 1, -0.5))])
        #expect(throws: SweepError("`0,1,-0.5,1,0,-0.5` is not a vector x,y,z for `light.direction`",
                                   hint: "separate vectors with `;`")) {
            try SweepParameter(argument: "light.direction=0,1,-0.5,1,0,-0.5")
        }
    }
}

@Suite("Sweep frame names and plans")
struct SweepFrameNameTests {
    private func sweep(_ arguments: [String], maxVariants: Int = 10_000) throws -> Sweep {
        let description = try SceneDescription.decode(SceneDescriptionTests.litCube, file: "cube.yaml")
        return try Sweep(scene: description, parameters: arguments.map { try SweepParameter(argument: $0) },
                         maxVariants: maxVariants)
    }

    /// Zero-padded to the variant count's digits, at least 4, so a plain sort is the variant order.
    @Test func namesSortPastNineThousandNineHundredNinetyNine() throws {
        let small = try sweep(["ambient=0.1,0.2,0.3"])
        #expect(small.frameName(3) == "variant-0003")
        let values = (0..<101).map { String(Double($0) / 100) }.joined(separator: ",")
        let large = try sweep(["ambient=" + values, "light.intensity=" + (1...100).map(String.init).joined(separator: ",")],
                              maxVariants: 20_000)
        #expect(large.variantCount == 10_100)
        #expect(large.frameName(1) == "variant-00001")
        #expect(large.frameName(9_999) == "variant-09999")
        #expect(large.frameName(10_100) == "variant-10100")
        let names = (1...large.variantCount).map(large.frameName)
        #expect(names.sorted() == names)
    }

    @Test func thePlanDigestChangesWithAnyPartOfThePlan() throws {
        let base = SweepPlan(sweep: try sweep(["ambient=0.1,0.2"]), options: RenderOptions(scale: 1))
        #expect(base.digest.count == 64)
        #expect(SweepPlan(sweep: try sweep(["ambient=0.1,0.2"]), options: RenderOptions(scale: 1)).digest == base.digest)
        #expect(SweepPlan(sweep: try sweep(["ambient=0.1,0.3"]), options: RenderOptions(scale: 1)).digest != base.digest)
        #expect(SweepPlan(sweep: try sweep(["ambient=0.1,0.2"]), options: RenderOptions(scale: 2)).digest != base.digest)
        let other = try SceneDescription.decode(SceneDescriptionTests.litCube + "\n", file: "cube.yaml")
        let otherScene = try Sweep(scene: other, parameters: [try SweepParameter(argument: "ambient=0.1,0.2")])
        #expect(SweepPlan(sweep: otherScene, options: RenderOptions(scale: 1)).digest != base.digest)
    }
}

/// FIPS 180-2, appendix B: the SHA-256 examples.
@Suite("SHA-256")
struct SHA256Tests {
    @Test func fipsVectors() {
        #expect(SHA256.hex("abc".utf8) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(repeatElement(UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// The digest of no bytes, as published with the standard's examples (and printed by `sha256sum` for an empty file).
    @Test func emptyString() {
        #expect(SHA256.hex("".utf8) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
