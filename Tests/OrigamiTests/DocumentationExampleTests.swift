import Foundation
import Origami
import Testing
import TestSupport

/// The Swift code of the documentation's articles (`Sources/Origami/Origami.docc`), compiled and run here. Each
/// article's ```swift block is this file's code line for line (`everyArticleSnippetIsHere` fails otherwise), so
/// an article cannot show code that does not build or does not do what the article says.
@Suite("Documentation examples")
struct DocumentationExampleTests {
    @Test("Porting: listing 5.5, one layer in perspective")
    func singleLayerPerspective() {
        let layerView = CALayer(frame: CGRect(x: 100, y: 100, width: 200, height: 200))
        var transform = CATransform3DIdentity
        transform.m34 = -1.0 / 500.0
        transform = CATransform3DRotate(transform, .pi / 4, 0, 1, 0)
        layerView.transform = transform

        // Rotate prepends (t = Ry · P), so the perspective column picks up Ry's m13 = −sin: m14 = sin/500 and
        // m34 = −cos/500 (by hand, DESIGN §1).
        expectApprox(layerView.transform.m14, sin(Double.pi / 4) / 500, tolerance: 1e-15)
        expectApprox(layerView.transform.m34, -cos(Double.pi / 4) / 500, tolerance: 1e-15)
    }

    @Test("Porting: listing 5.6, one sublayerTransform and one vanishing point")
    func sharedPerspective() throws {
        let containerView = CALayer(frame: CGRect(x: 0, y: 0, width: 400, height: 200))
        let layerView1 = CALayer(frame: CGRect(x: 20, y: 50, width: 100, height: 100))
        let layerView2 = CALayer(frame: CGRect(x: 280, y: 50, width: 100, height: 100))
        try containerView.addSublayer(layerView1)
        try containerView.addSublayer(layerView2)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        containerView.sublayerTransform = perspective
        layerView1.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        layerView2.transform = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)

        // The vanishing point is the container's centre x = 200: the two layers are mirror images about it.
        let right1 = try #require(layerView1.convert(CGPoint(x: 100, y: 0), to: containerView))
        let left2 = try #require(layerView2.convert(CGPoint(x: 0, y: 0), to: containerView))
        expectApprox(Double(right1.x + left2.x), 400, tolerance: 1e-9)
    }

    @Test("Porting: doubleSided = NO hides a layer turned away, but it still takes touches")
    func doubleSided() throws {
        let container = CALayer(frame: CGRect(x: 0, y: 0, width: 300, height: 300))
        let layer = CALayer(frame: CGRect(x: 50, y: 50, width: 200, height: 200))
        try container.addSublayer(layer)
        layer.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        layer.isDoubleSided = false

        let tree = PresentationTree(container)
        // Turned by π about y, the layer's plane is mirrored: its plane map has a negative determinant.
        #expect(tree.isSeenFromBehind(1))
        #expect(container.hitTest(CGPoint(x: 150, y: 150)) === layer)
        #expect(container.hitTest(CGPoint(x: 150, y: 150), policy: .frontmost) === container)
    }

    /// The book's listing 5.9: faces placed with `t = MakeTranslation(…); t = Rotate(t, …)` into a container whose
    /// sublayerTransform is the camera. Only faces 1–3 are written out in the article; the rest follow DESIGN §4.
    @Test("Porting: the cube of listing 5.9")
    func bookCube() throws {
        let containerView = CALayer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        var faces: [CALayer] = []
        for index in 0..<6 {
            faces.append(CALayer(name: "face\(index + 1)", frame: CGRect(x: 0, y: 0, width: 200, height: 200)))
        }
        func addFace(_ index: Int, withTransform transform: CATransform3D) throws {
            let face = faces[index]
            try containerView.addSublayer(face)
            let containerSize = containerView.bounds.size
            face.position = CGPoint(x: containerSize.width / 2.0, y: containerSize.height / 2.0)
            face.transform = transform
        }

        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        perspective = CATransform3DRotate(perspective, -.pi / 4, 1, 0, 0)
        perspective = CATransform3DRotate(perspective, -.pi / 4, 0, 1, 0)
        containerView.sublayerTransform = perspective

        var transform = CATransform3DMakeTranslation(0, 0, 100)
        try addFace(0, withTransform: transform)
        transform = CATransform3DMakeTranslation(100, 0, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 0, 1, 0)
        try addFace(1, withTransform: transform)
        transform = CATransform3DMakeTranslation(0, -100, 0)
        transform = CATransform3DRotate(transform, .pi / 2, 1, 0, 0)
        try addFace(2, withTransform: transform)

        transform = CATransform3DMakeTranslation(0, 100, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 1, 0, 0)
        try addFace(3, withTransform: transform)
        transform = CATransform3DMakeTranslation(-100, 0, 0)
        transform = CATransform3DRotate(transform, -.pi / 2, 0, 1, 0)
        try addFace(4, withTransform: transform)
        transform = CATransform3DMakeTranslation(0, 0, -100)
        transform = CATransform3DRotate(transform, .pi, 0, 1, 0)
        try addFace(5, withTransform: transform)

        // The book: faces 4, 5, 6 come later in the tree than face 3 and take the touch, although face 3 is seen.
        let touch = CGPoint(x: 200, y: 200)
        #expect(containerView.hitTest(touch)?.name == "face4")
        #expect(containerView.hitTest(touch, policy: .frontmost)?.name == "face3")
        // Built the same way, the fixture's cube answers the same.
        #expect(try BookCube().container.hitTest(touch)?.name == "face 4")
    }

    @Test("Porting: a transform layer keeps its sublayers in one 3D space")
    func transformLayer() throws {
        let container = CALayer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        container.sublayerTransform = perspective

        let cube = try Solid.cube(size: 200)
        cube.position = CGPoint(x: 200, y: 200)
        cube.transform = CATransform3DMakeRotation(-.pi / 4, 1, 1, 0)
        try container.addSublayer(cube)

        // The solid is a CATransformLayer: its faces are members of the container's own 3D context.
        let tree = PresentationTree(container)
        #expect(tree.members(of: 0).count == 6)
        #expect(cube.faces.map(\.kind) == [.front, .right, .top, .bottom, .left, .back])
    }

    @Test("Hit testing: the three policies at the centre of the book's cube")
    func hitTestPolicies() throws {
        let container = CALayer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        var camera = CATransform3DIdentity
        camera.m34 = -1.0 / 500.0
        camera = CATransform3DRotate(camera, -.pi / 4, 1, 0, 0)
        camera = CATransform3DRotate(camera, -.pi / 4, 0, 1, 0)
        container.sublayerTransform = camera
        let cube = try Solid.cube(size: 200)
        cube.position = CGPoint(x: 200, y: 200)
        try container.addSublayer(cube)

        let touch = CGPoint(x: 200, y: 200)
        let received = container.hitTest(touch, policy: .treeOrder)
        let seen = container.hitTest(touch, policy: .frontmost)
        let everything = container.hitTestAll(touch)

        // The book: face 4 (bottom), added after face 3 (top), intercepts the touch on face 3, which is what is seen.
        #expect((received as? Face)?.index == 4)
        #expect((seen as? Face)?.index == 3)
        #expect(everything.first?.layer === received)
        #expect(everything.first { $0.depthRank == 0 }?.layer === seen)
    }

    @Test("Hit testing: allowsHitTesting = false is the book's fix")
    func bookFix() throws {
        let cube = try Solid.cube(size: 200)
        let container = CALayer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        cube.position = CGPoint(x: 200, y: 200)
        try container.addSublayer(cube)
        container.sublayerTransform = CATransform3DRotate(CATransform3DRotate(
            Transform3D.perspective(distance: 500), -.pi / 4, 1, 0, 0), -.pi / 4, 0, 1, 0)

        for face in cube.faces where face.index >= 4 {
            face.allowsHitTesting = false
        }

        let touched = container.hitTest(CGPoint(x: 200, y: 200))
        #expect((touched as? Face)?.index == 3)
    }

    @Test("Lighting: the book's light as a Lighting value")
    func bookLighting() {
        let lighting = Lighting(
            lights: [Light(direction: Vector3(0, 1, -0.5), space: .object)],
            model: .bookOverlay,
            ambient: 0.5)

        #expect(lighting == .book)
        #expect(throws: Never.self) { try lighting.validate() }
    }

    @Test("Lighting: a point light in scene space, Blinn–Phong")
    func pointLight() throws {
        let container = CALayer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        let face = CALayer(frame: CGRect(x: 100, y: 100, width: 200, height: 200))
        face.backgroundColor = .white
        try container.addSublayer(face)
        container.lighting = Lighting(
            lights: [Light(position: Vector3(200, 200, 300), attenuation: .init(constant: 1, linear: 0.001))],
            model: .blinnPhong,
            ambient: 0.2,
            shininess: 16)

        let report = try container.lightingReport()
        // By hand: the face faces the viewer (N = +z) and the light is 300 points straight in front of its centre,
        // so it travels along −z: L·N = −1, f = 1/(1 + 0.001·300) = 1/1.3, diffuse = f. Brightness (white light,
        // ambient colour the light's) = 0.2 + 0.8·f.
        let f = 1 / 1.3
        let data = try #require(report.first)
        expectApprox(data.lights[0].lDotN, -1, tolerance: 1e-12)
        expectApprox(data.lights[0].diffuse, f, tolerance: 1e-12)
        expectApprox(data.brightness[0], 0.2 + 0.8 * f, tolerance: 1e-12)
    }

    @Test("Time: one turn of the cube, sampled at a moment")
    func turningCube() throws {
        let container = CALayer(frame: CGRect(x: 0, y: 0, width: 400, height: 400))
        let cube = try Solid.cube(size: 200)
        cube.position = CGPoint(x: 200, y: 200)
        try container.addSublayer(cube)

        let turn = BasicAnimation(keyPath: "transform.rotation.y")
        turn.fromValue = .number(0)
        turn.toValue = .number(2 * .pi)
        turn.duration = 4
        turn.repeatCount = .infinity
        cube.add(turn, forKey: "turn")

        let quarter = PresentationTree(container, time: 1)
        let model = PresentationTree(container)

        // Linear timing: at 1 s of 4 the rotation is 2π/4 = π/2 about y, whose matrix has m13 = −sin = −1.
        let turned = quarter[1].geometry.transform
        expectApprox(turned.m13, -1, tolerance: 1e-9)
        expectApprox(turned.m31, 1, tolerance: 1e-9)
        #expect(model[1].geometry.transform == .identity)
        #expect(cube.transform == .identity)
    }

    @Test("Time: local time runs through beginTime, speed and timeOffset")
    func localTime() throws {
        let parent = CALayer()
        let child = CALayer()
        try parent.addSublayer(child)
        parent.speed = 2
        child.speed = 2
        child.beginTime = 1

        // (t − beginTime) · speed + timeOffset at each level: the parent's 3 s are 6 s, the child's (6 − 1) · 2.
        #expect(child.convertTime(3, from: nil) == 10)
    }

    // MARK: - The articles show this file's code

    static let catalog = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/Origami/Origami.docc")

    @Test("Every ```swift block of the articles is code in this file, line for line")
    func everyArticleSnippetIsHere() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false).map(Self.normalized)
        let blocks = try Self.codeBlocks(language: "swift", in: Self.catalog)
        #expect(blocks.count >= 8, "the articles' Swift examples were not found in \(Self.catalog.path)")
        for block in blocks {
            let lines = block.text.split(separator: "\n").map(Self.normalized).filter { !$0.isEmpty }
            let found = sourceLines.indices.contains { start in
                var i = start
                for line in lines {
                    while i < sourceLines.count, sourceLines[i].isEmpty { i += 1 }
                    guard i < sourceLines.count, sourceLines[i] == line else { return false }
                    i += 1
                }
                return true
            }
            #expect(found, "\(block.file):\(block.line): this Swift block is not code of DocumentationExampleTests.swift")
        }
    }

    static func normalized(_ line: Substring) -> String { line.trimmingCharacters(in: .whitespaces) }

    /// The fenced blocks of one language in the catalog's articles, with where each starts.
    static func codeBlocks(language: String, in catalog: URL) throws -> [(file: String, line: Int, text: String)] {
        let files = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }.sorted()
        var blocks: [(file: String, line: Int, text: String)] = []
        for file in files {
            let text = try String(contentsOf: catalog.appendingPathComponent(file), encoding: .utf8)
            var current: (line: Int, lines: [String])?
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if current == nil, line == "```\(language)" {
                    current = (n + 1, [])
                } else if let c = current, line == "```" {
                    blocks.append((file, c.line, c.lines.joined(separator: "\n")))
                    current = nil
                } else if current != nil {
                    current?.lines.append(String(line))
                }
            }
        }
        return blocks
    }
}
