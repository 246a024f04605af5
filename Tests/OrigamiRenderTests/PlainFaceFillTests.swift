import CCairo
import Foundation
import Origami
import Testing
import TestSupport
@_spi(Benchmarks) @testable import OrigamiRender

/// Issue 20: a whole face that is one plain fill (`Painter.PlainFace`: a solid's lit face, a coloured plane) is filled
/// straight from its device outline, extended under its seals, without `drawNode`'s plan, arrays and saved state.
/// It must paint exactly the bytes `drawNode` paints: the reference is forced through
/// `Renderer.paint(drawsFacesThroughNode:)`.
@Suite("Plain face fill")
struct PlainFaceFillTests {
    static let size = 400

    /// `count` cubes in a lattice under the book's camera and lighting, as the "1000 lit cubes" benchmark builds them;
    /// one cube's front face with rounded corners (an outline that is not four points).
    static func lattice(_ count: Int, lighting: Lighting? = .book) throws -> Layer {
        let colors = [Color(red: 0.91, green: 0.3, blue: 0.24), Color(red: 0.18, green: 0.8, blue: 0.44),
                      Color(red: 0.2, green: 0.6, blue: 0.86), Color(red: 0.95, green: 0.77, blue: 0.06),
                      Color(red: 0.61, green: 0.35, blue: 0.71), Color(red: 0.9, green: 0.49, blue: 0.13)]
        let container = try BookCube.lattice(cubes: count, faceColors: colors, lighting: lighting)
        let middle = try #require(container.sublayers[count / 2] as? Solid)
        middle.faces[0].cornerRadius = 8
        return container
    }

    /// Shaped faces (a pyramid's triangles, a prism's caps), lit, turned so several show.
    static func shapedSolids() throws -> Layer {
        let container = BookCube.container()
        container.lighting = Lighting.book
        let solids = [try Solid.pyramid(sides: 5, radius: 80, height: 120), try Solid.prism(sides: 7, radius: 70, height: 60)]
        for (k, solid) in solids.enumerated() {
            solid.position = CGPoint(x: 120 + 160 * Double(k), y: 200)
            solid.transform = Transform3D(rotationAngle: 0.4 + 0.3 * Double(k), x: 1, y: 0.5, z: 0.2)
            for (j, face) in solid.faces.enumerated() {
                face.backgroundColor = Color(red: 0.2 + 0.1 * Double(j % 7), green: 0.8 - 0.1 * Double(j % 5), blue: 0.5)
            }
            try container.addSublayer(solid)
        }
        return container
    }

    static func pixels(_ scene: Layer, throughNode: Bool, sealsEdges: Bool = true, walk: Walk = .usual) throws -> [UInt8] {
        switch walk {
        case .usual:
            return try paintedBytes(scene, size: size, sealsEdges: sealsEdges, drawsFacesThroughNode: throughNode)
        case .collected:
            return try paintedBytes(scene, size: size, sealsEdges: sealsEdges, collectsEveryFragment: true,
                                    drawsFacesThroughNode: throughNode)
        case .walkedTwice:
            return try BSPTree.Recording.$limitOverride.withValue(0) {
                try paintedBytes(scene, size: size, sealsEdges: sealsEdges, drawsFacesThroughNode: throughNode)
            }
        }
    }

    /// How `drawScene` gets a scene's fragments: as it chooses (a lattice's first walk records them all), every one
    /// collected in one walk, or a first walk that keeps none (the fills then stream from a second walk). The first
    /// two paint the plain faces from `Painter.PlainFills` batches (a lattice of 64 cubes makes more than one).
    enum Walk: CaseIterable { case usual, collected, walkedTwice }

    @Test("Lit cubes, shaped solids, crossing planes and a sealed tent: drawNode's bytes, seals on and off, every walk",
          arguments: ["lattice", "unlit lattice", "shaped", "tent"], [true, false])
    func plainFacesPaintDrawNodesBytes(scene name: String, sealsEdges: Bool) throws {
        let scene: Layer
        switch name {
        case "lattice": scene = try Self.lattice(64)
        case "unlit lattice": scene = try Self.lattice(27, lighting: nil)
        case "shaped": scene = try Self.shapedSolids()
        default: scene = try TwoWalkSealTests.scene()
        }
        for walk in Walk.allCases {
            let fast = try Self.pixels(scene, throughNode: false, sealsEdges: sealsEdges, walk: walk)
            let reference = try Self.pixels(scene, throughNode: true, sealsEdges: sealsEdges, walk: walk)
            let differing = zip(fast, reference).filter { $0 != $1 }.count
            #expect(differing == 0, "\(walk): \(differing) bytes differ")
        }
    }

    @Test("The lattice's seals show: the pictures with and without them differ")
    func sealsAreExercised() throws {
        let scene = try Self.lattice(64)
        #expect(try Self.pixels(scene, throughNode: false) != Self.pixels(scene, throughNode: false, sealsEdges: false))
    }

    /// What a plain face's plan reads of a node without the arrays (`RenderNode.isBare`), and the background colour it
    /// takes as it is (clamped at the freeze, not again: `clamped` leaves a clamped colour as it is, to the bit), on
    /// nodes with text, an image, sublayers, outlines, lighting, and colours out of range or not a number.
    @Test("A node's isBare is its contents, text rings and members all empty; its background is clamped already")
    func bareNodesAndClampedBackgrounds() throws {
        let root = try RenderTreeTests.mixedTree()
        let odd = [Color(red: 1.5, green: -0.5, blue: .nan, alpha: 2), Color(red: -0.0, green: 0, blue: 1, alpha: -0.0),
                   Color(red: .infinity, green: -.infinity, blue: 0.25, alpha: .nan)]
        for (k, c) in odd.enumerated() {
            let l = Layer(name: "odd \(k)")
            l.frame = CGRect(x: 10 * Double(k), y: 200, width: 20, height: 20)
            l.backgroundColor = c
            try root.addSublayer(l)
        }
        let tree = try RenderTree(PresentationTree(root, placement: .canvas))
        var nodes = tree.members.map(\.node), seen = 0, bare = 0, notBare = 0
        func bits(_ c: Color?) -> [UInt64]? { c.map { [$0.red, $0.green, $0.blue, $0.alpha].map(\.bitPattern) } }
        while let node = nodes.popLast() {
            seen += 1
            let members = node.members
            let expected = node.contents == nil && node.textRings.isEmpty && members.isEmpty
            #expect(node.isBare == expected, "node \(node.name ?? "?")")
            if expected { bare += 1 } else { notBare += 1 }
            #expect(bits(node.backgroundColor) == bits(node.backgroundColor?.clamped), "node \(node.name ?? "?")")
            nodes += members.map(\.node)
        }
        #expect(seen > 20 && bare > 10 && notBare > 4)
    }
}
