import Foundation
import Origami
import Fixtures
import Testing
@testable import OrigamiRender

/// Where most of a scene's polygons are sealable faces of solids with two or more of them (a lattice of cubes),
/// `Painter.sceneOrder` collects every fragment without looking for the seal candidates first
/// (`Painter.collectsForSolidsWithoutCandidates`). The picture must be the one the candidates' path paints: checked
/// here, both ways, on solids of every kind, touching, crossing, cut by crossing planes, and on solids whose faces
/// never share an edge (the candidates would then choose not to collect).
@Suite("Seal shortcut for solids")
struct SealShortcutTests {
    static let size = 320

    /// The scene's first 3D context's order, with the shortcut allowed or not.
    static func order(_ scene: Layer, shortcut: Bool) throws -> Painter.SceneOrder {
        let tree = try RenderTree(root: scene)
        let members = try #require(tree.members.first).node.members
        return Painter.$collectsForSolidsWithoutCandidates.withValue(shortcut) {
            Painter.sceneOrder(members, seals: true, collectsEveryFragment: false)
        }
    }

    static func pixels(_ scene: Layer, shortcut: Bool) throws -> [UInt8] {
        try Painter.$collectsForSolidsWithoutCandidates.withValue(shortcut) { try paintedBytes(scene, size: size) }
    }

    /// `count` solids of two parallel faces each, one behind the other (a "sandwich": sealable, never sharing an
    /// edge), seen through the book's camera.
    static func sandwiches(_ count: Int) throws -> Layer {
        let container = BookCube.container()
        for i in 0 ..< count {
            let solid = TransformLayer()
            solid.position = CGPoint(x: 60 + Double(i % 4) * 60, y: 60 + Double(i / 4) * 60)
            for (k, z) in [0.0, 25.0].enumerated() {
                let face = Layer()
                face.bounds = CGRect(x: 0, y: 0, width: 30, height: 30)
                face.position = CGPoint(x: 5 * Double(k), y: 0)
                face.zPosition = z
                face.backgroundColor = Color(red: 0.2 + 0.05 * Double(i % 10), green: k == 0 ? 0.3 : 0.8, blue: 0.5)
                try solid.addSublayer(face)
            }
            try container.addSublayer(solid)
        }
        return container
    }

    /// `solids`' faces made single-sided: their back faces are culled, so the scene's polygons are mostly the faces
    /// the solids turn to the viewer (sealable), and a few crossing planes among them leave the shortcut taken.
    static func singleSided(_ container: Layer) -> Layer {
        for case let solid as Solid in container.sublayers {
            for face in solid.faces { face.isDoubleSided = false }
        }
        return container
    }

    /// `side`³ equal cubes stacked face to face (their edges coincide across cubes), seen through the book's camera.
    static func touchingCubes(side: Int) throws -> Layer {
        let container = BookCube.container()
        for i in 0 ..< side * side * side {
            let cube = try Solid.cube(size: 40)
            cube.position = CGPoint(x: 120 + 40 * Double(i % side), y: 120 + 40 * Double(i / side % side))
            cube.zPosition = 40 * Double(i / (side * side))
            for (k, face) in cube.faces.enumerated() {
                face.backgroundColor = Color(red: 0.1 + 0.15 * Double(k), green: 0.9 - 0.1 * Double(i % 7), blue: 0.5)
            }
            try container.addSublayer(cube)
        }
        return container
    }

    /// The scenes the shortcut takes.
    static func scenes() throws -> [(name: String, scene: Layer)] {
        let colors = [Color(red: 0.9, green: 0.2, blue: 0.2), Color(red: 0.2, green: 0.8, blue: 0.3),
                      Color(red: 0.2, green: 0.3, blue: 0.9), Color(red: 0.9, green: 0.8, blue: 0.1)]
        // The benchmark's lattice, small: three faces of six turned to the viewer, every one a candidate.
        var out: [(String, Layer)] = [("lattice 27", try BookCube.lattice(cubes: 27, faceColors: colors, lighting: nil)),
                                      ("lattice 64", try BookCube.lattice(cubes: 64, faceColors: colors, lighting: nil)),
                                      ("touching cubes", try touchingCubes(side: 3))]
        // Cubes, boxes, prisms and pyramids (shaped faces): apart, on a turned lattice, touching, crossing.
        for seed in 0 ..< 2 as Range<UInt64> {
            for layout in SealBySolidTests.Layout.allCases {
                out.append(("\(layout) \(seed)", singleSided(try SealBySolidTests.scene(layout, seed: seed + 10))))
            }
        }
        // Solids among crossing planes that cut them (the planes' fragments, and split faces of the solids).
        for seed in 0 ..< 2 as Range<UInt64> {
            let container = try FragmentFillTests.crossingPlanes(4)
            for s in try SealBySolidTests.scene(.crossing, seed: seed + 3).sublayers {
                s.removeFromSuperlayer()
                s.position = CGPoint(x: s.position.x + 50, y: s.position.y + 50)
                try container.addSublayer(s)
            }
            out.append(("planes and solids \(seed)", singleSided(container)))
        }
        // Faces that never share an edge: the candidates find none.
        out.append(("sandwiches", try sandwiches(12)))
        return out
    }

    @Test("Collecting without the candidates paints what the candidates' path paints")
    func shortcutPaintsTheCandidatesPicture() throws {
        var collectedEitherWay = 0, collectedByShortcutOnly = 0
        for (name, scene) in try Self.scenes() {
            let fast = try Self.order(scene, shortcut: true), slow = try Self.order(scene, shortcut: false)
            // The shortcut was taken: every fragment collected, no candidates looked for.
            #expect(fast.collectsAll && fast.candidates.isEmpty, "\(name): shortcut not taken")
            #expect(!slow.candidates.isEmpty, "\(name)")
            if slow.collectsAll { collectedEitherWay += 1 } else { collectedByShortcutOnly += 1 }
            let same = try Self.pixels(scene, shortcut: true) == Self.pixels(scene, shortcut: false)
            #expect(same, "\(name): pixels differ")
        }
        // Both cases occur: scenes the candidates would collect too, and one they would not (the sandwiches).
        #expect(collectedEitherWay > 0)
        #expect(collectedByShortcutOnly > 0)
    }

    @Test("Crossing planes keep the candidates' path")
    func crossingPlanesKeepTheCandidates() throws {
        let order = try Self.order(try FragmentFillTests.crossingPlanes(30), shortcut: true)
        #expect(!order.collectsAll)
        #expect(!order.candidates.isEmpty)
        let tent = try Self.order(try TwoWalkSealTests.scene(), shortcut: true)
        #expect(!tent.collectsAll)
        #expect(tent.candidates.filter { $0 }.count == 2)
    }
}
