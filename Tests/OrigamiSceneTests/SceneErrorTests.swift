import Foundation
import Origami
import Testing
@testable import OrigamiScene

/// Broken scene files: each gives its exact located message, and nothing else is produced.
@Suite("Scene errors")
struct SceneErrorTests {
    @Test func unknownKeyNamesLineColumnPathAndHint() throws {
        let i = try singleSceneIssue("""
            canvas: {size: [10, 10]}
            layers:
              - name: a
                anchorpoint: [0.5, 0.9]
            """)
        #expect(i.description == "s.yaml:4:5: layers[0].anchorpoint: unknown key `anchorpoint`; did you mean `anchorPoint`?")
    }

    @Test func wrongTypes() throws {
        #expect(try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{opacity: high}]").description
            == "s.yaml:2:20: layers[0].opacity: expected a number, found `high`")
        #expect(try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{frame: [1, 2, 3]}]").message
            == "expected a rect [x, y, width, height] as a list of 4 numbers, found 3")
        #expect(try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{hidden: 3}]").message == "expected true or false, found `3`")
        #expect(try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: {a: 1}").message == "expected a list, found a mapping")
    }

    @Test(arguments: [".nan", ".inf", "-.inf"])
    func nonFiniteNumbersAreRefused(_ literal: String) throws {
        let i = try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{zPosition: \(literal)}]")
        #expect(i.message.hasPrefix("expected a finite number"))
        #expect(i.hint == "NaN and infinities are not allowed")
        #expect(i.keyPath == "layers[0].zPosition")
    }

    @Test func canvasMustBePositiveAndBounded() throws {
        #expect(try singleSceneIssue("canvas: {size: [0, 10]}\nlayers: []").message == "size [0, 10] must be positive")
        #expect(try singleSceneIssue("canvas: {size: [-5, 10]}\nlayers: []").message == "size [-5, 10] must be positive")
        let huge = try singleSceneIssue("canvas: {size: [20000, 10]}\nlayers: []")
        #expect(huge.message == "canvas of 20000×10 pixels is too large")
        // The limit applies after scale: 10000 points at scale 2 are 20000 pixels.
        #expect(try singleSceneIssue("canvas: {size: [10000, 10], scale: 2}\nlayers: []").message == "canvas of 20000×20 pixels is too large")
        #expect(try singleSceneIssue("layers: []").description == "s.yaml:1:1: missing key `canvas`; e.g. `canvas: {size: [600, 400]}`")
    }

    @Test func duplicateNamesAndKeys() throws {
        let dup = try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{name: a}, {name: a}]")
        #expect(dup.message == "the name `a` is already used at layers[0].name")
        #expect(dup.keyPath == "layers[1].name")
        let key = try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{name: a, name: b}]")
        #expect(key.message == "key `name` appears twice in one mapping")
        #expect(key.line == 2)
    }

    @Test func transformOperations() throws {
        #expect(try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{transform: [rotat y 4]}]").description
            == "s.yaml:2:23: layers[0].transform[0]: unknown transform operation `rotat`; did you mean `rotate`?")
        #expect(try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{transform: [perspective -5]}]").message
            == "the perspective distance must be positive")
        #expect(try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{transform: [rotate 45 0 0 0]}]").message
            == "the rotation axis is zero")
        #expect(try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{transform: [translate 1 nan]}]").message
            == "`nan` is not a finite number in `translate 1 nan`")
    }

    @Test func colourHint() throws {
        let i = try singleSceneIssue("canvas: {size: [10, 10], background: blu}\nlayers: []")
        #expect(i.hint == "did you mean `blue`?")
    }

    @Test func yamlSyntaxErrorIsLocated() throws {
        let i = try singleSceneIssue("canvas: {size: [10, 10]\nlayers: []\n")
        #expect(i.line == 2 && i.column == 1)
        #expect(i.message.hasPrefix("not valid YAML"))
    }

    @Test func everyProblemIsReportedInFileOrder() {
        let all = sceneIssues("""
            canvas: {size: [10, 10], background: blu}
            layers:
              - {nme: a}
              - {opacity: 2}
            """)
        #expect(all.map(\.line) == [1, 3, 4])
        #expect(all[2].message == "opacity 2 is out of range 0…1")
    }

    @Test func imagesMayNotLeaveTheScenesFolder() throws {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("origami-scene-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = "canvas: {size: [10, 10]}\nlayers: [{contents: ../secret.png}]"
        do {
            _ = try Scene.decode(text, file: "s.yaml", baseURL: dir)
            Issue.record("expected an error")
        } catch {
            #expect(error.issues.first?.message == "image path `../secret.png` leaves the scene's folder")
        }
        do {
            _ = try Scene.decode("canvas: {size: [10, 10]}\nlayers: [{contents: missing.png}]", file: "s.yaml", baseURL: dir)
            Issue.record("expected an error")
        } catch {
            #expect(error.issues.first?.message == "image `missing.png` not found")
        }
    }

    @Test func deepNestingIsRefusedNotOverflowed() throws {
        var limits = SceneLimits()
        limits.maxDepth = 5
        var text = "canvas: {size: [10, 10]}\nlayers:\n"
        var indent = "  "
        for _ in 0..<8 {
            text += "\(indent)- sublayers:\n"
            indent += "    "
        }
        text += "\(indent)- {}\n"
        do {
            _ = try Scene.decode(text, file: "s.yaml", limits: limits)
            Issue.record("expected an error")
        } catch {
            #expect(error.issues.map(\.message) == ["layers are nested more than 5 deep"])
        }
    }

    @Test func missingFile() {
        do {
            _ = try Scene.load(contentsOf: URL(fileURLWithPath: "/nonexistent/scene.yaml"))
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "/nonexistent/scene.yaml: cannot read the scene file: no such file")
        }
    }
}

@Suite("Scene errors: image paths and long lines")
struct SceneImagePathTests {
    private func folder() throws -> URL {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("origami-paths-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("scene"), withIntermediateDirectories: true)
        return dir
    }

    /// A 1×1 PNG outside the scene's folder, reached through a symbolic link inside it.
    @Test func symlinkOutOfTheFolderIsRefusedUnlessAllowed() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = try #require(Data(base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="))
        try png.write(to: dir.appendingPathComponent("secret.png"))
        let sceneDir = dir.appendingPathComponent("scene")
        try FileManager.default.createSymbolicLink(at: sceneDir.appendingPathComponent("link.png"),
                                                   withDestinationURL: dir.appendingPathComponent("secret.png"))
        let text = "canvas: {size: [10, 10]}\nlayers: [{name: a, contents: link.png}]"
        do {
            _ = try Scene.decode(text, file: "s.yaml", baseURL: sceneDir)
            Issue.record("expected an error")
        } catch {
            #expect(error.issues.first?.message == "image path `link.png` leaves the scene's folder")
        }
        var limits = SceneLimits()
        limits.allowsImagesOutsideSceneFolder = true
        let scene = try Scene.decode(text, file: "s.yaml", baseURL: sceneDir, limits: limits)
        #expect(scene.layer(named: "a")?.contents?.width == 1)
    }

    @Test func longLinesAreCutAroundTheColumn() throws {
        let padding = String(repeating: " ", count: 5000)
        let text = "canvas: {size: [10, 10]}\nlayers: [{" + padding + "bogus: 1}]"
        do {
            _ = try Scene.decode(text, file: "s.yaml")
            Issue.record("expected an error")
        } catch {
            let shown = error.detailedDescription.split(separator: "\n").map(String.init)
            #expect(shown.count == 3)
            #expect(shown[1].count <= 4 + 122)
            #expect(shown[1].contains("bogus: 1}]"))
            // The caret sits under the `b` of `bogus`.
            let caret = try #require(shown[2].firstIndex(of: "^"))
            let b = try #require(shown[1].range(of: "bogus")?.lowerBound)
            #expect(shown[2].distance(from: shown[2].startIndex, to: caret) == shown[1].distance(from: shown[1].startIndex, to: b))
        }
    }
}
