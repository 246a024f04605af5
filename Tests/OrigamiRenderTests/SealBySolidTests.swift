import Foundation
import Origami
import Fixtures
import Testing
@testable import OrigamiRender

/// `SharedEdges` looks for seams solid by solid (within each solid, and between solids whose boxes meet) instead
/// of through its 3D grid over every edge. The two must give the same seals in the same order (the painter keeps the
/// first seal per later face, and the order decides the extended outline's points), and the same outer edges:
/// checked here against the grid alone on random scenes of solids apart, touching face to face, and crossing.
@Suite struct SealBySolidTests {
    enum Layout: CaseIterable { case apart, turnedLattice, touching, crossing }

    /// Solids in a book container: cubes, boxes, prisms and pyramids (shaped faces), turned at random; `apart`
    /// spaces them on a coarse lattice, `turnedLattice` puts cubes on a fine one seen through a turned camera (their
    /// bounding boxes overlap, their edges keep apart: the benchmark's lattice), `touching` stacks equal cubes face to face (their edges coincide across
    /// solids), `crossing` lets them interpenetrate (the BSP splits faces).
    static func scene(_ layout: Layout, seed: UInt64) throws -> Layer {
        var g = SplitMix(seed)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        let container = BookCube.container()
        let count = 6 + Int(seed % 10)
        for i in 0..<count {
            let solid: Solid
            switch (layout, i % 4) {
            case (.turnedLattice, _): solid = try Solid.cube(size: 14)
            case (.touching, _), (_, 0): solid = try Solid.cube(size: 30)
            case (_, 1): solid = try Solid.box(width: r(10...30), height: r(10...30), depth: r(10...30))
            case (_, 2): solid = try Solid.prism(sides: 3 + i % 4, radius: r(10...20), height: r(10...30))
            default: solid = try Solid.pyramid(sides: 3 + i % 3, radius: r(10...20), height: r(10...30))
            }
            switch layout {
            case .apart:
                solid.position = CGPoint(x: Double(i % 4) * 100 + r(-5...5), y: Double(i / 4 % 4) * 100 + r(-5...5))
                solid.zPosition = Double(i / 16) * 60 + r(-5...5)
                solid.transform = Transform3D(rotationAngle: r(0...(2 * .pi)), x: r(-1...1), y: r(-1...1), z: r(-1...1))
            case .turnedLattice:
                solid.position = CGPoint(x: 100 + Double(i % 3) * 26, y: 100 + Double(i / 3 % 3) * 26)
                solid.zPosition = Double(i / 9) * 26
            case .touching:
                // A row of cubes sharing faces, the whole row turned: their edges meet across solids.
                solid.position = CGPoint(x: 100 + Double(i % 5) * 30, y: 100 + Double(i / 5) * 30)
            case .crossing:
                solid.position = CGPoint(x: 150 + r(-30...30), y: 150 + r(-30...30))
                solid.zPosition = r(-30...30)
                solid.transform = Transform3D(rotationAngle: r(0...(2 * .pi)), x: r(-1...1), y: r(-1...1), z: r(-1...1))
            }
            for face in solid.faces {
                face.backgroundColor = Color(red: r(0...1), green: r(0...1), blue: r(0...1))
            }
            try container.addSublayer(solid)
        }
        if layout == .touching || layout == .turnedLattice {
            container.sublayerTransform = BookCube.camera.concatenating(
                Transform3D(rotationAngle: r(0.2...1.2), x: r(-1...1), y: r(-1...1), z: 0))
        }
        return container
    }

    static func seals(_ members: [RenderMember], bySolid: Bool) -> (sealed: [[String]], outer: [[String]], searchedBySolid: Bool) {
        let (input, polygons) = Painter.scenePolygons(members)
        let fragments = Painter.depthOrder(input, members: members)
        let edges = SharedEdges(fragments: fragments, polygons: polygons, outline: { Painter.shapeOutline(members[$0]) },
                                sealable: { Painter.isSealable(members[$0]) },
                                solid: bySolid ? { members[$0].solid } : nil)
        // Exact values (bit patterns) in order: the two paths must agree to the last bit.
        func text(_ s: PlaneSegment) -> String {
            [s.a.x, s.a.y, s.b.x, s.b.y].map { String($0.bitPattern, radix: 16) }.joined(separator: " ")
        }
        return (edges.sealed.map { $0.map { "\(text($0.segment)) → \($0.later)" } }, edges.outer.map { $0.map(text) },
                edges.searchedBySolid)
    }

    @Test(arguments: Layout.allCases, 0..<12 as Range<UInt64>)
    func solidsGiveTheGridsSeals(layout: Layout, seed: UInt64) throws {
        let tree = try RenderTree(root: try Self.scene(layout, seed: seed))
        let members = try #require(tree.members.first).node.members
        let grid = Self.seals(members, bySolid: false), bySolid = Self.seals(members, bySolid: true)
        #expect(bySolid.sealed == grid.sealed)
        #expect(bySolid.outer == grid.outer)
        // The scenes must exercise sealing, and the solid-by-solid search must have run (no edge spans the grid).
        #expect(grid.sealed.joined().count >= members.count / 8)
        #expect(!grid.searchedBySolid)
        #expect(bySolid.searchedBySolid)
    }

    /// `Painter.WholePolygons` (each member's whole polygon, kept as an index into the scene's polygons) hands out, per
    /// member, the input polygon of that member, bit for bit, and nothing for a member with none (a face of zero
    /// opacity in each solid draws nothing).
    @Test(arguments: Layout.allCases, 0..<3 as Range<UInt64>)
    func wholePolygonsAreTheInputsByMember(layout: Layout, seed: UInt64) throws {
        let root = try Self.scene(layout, seed: seed)
        for case let solid as Solid in root.sublayers { solid.faces[0].opacity = 0 }
        let tree = try RenderTree(root: root)
        let members = try #require(tree.members.first).node.members
        let (input, whole) = Painter.scenePolygons(members)
        #expect(whole.count == members.count)
        func bits(_ p: ScenePolygon) -> [UInt64] { p.points.flatMap { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] } }
        var drawn = 0
        for i in members.indices {
            let own = input.filter { $0.member == i }
            try #require(own.count <= 1)
            #expect(whole.isDrawn(i) == !own.isEmpty)
            #expect(whole[i].map(bits) == own.first.map(bits))
            #expect(whole[i].map(\.member) == own.first.map(\.member))
            if !own.isEmpty { drawn += 1 }
        }
        #expect(drawn > 0 && drawn < members.count)   // both kinds are checked
    }

    /// A solid with more edges than `SharedEdges.largestSolidSearchedAlone` (a 100-sided prism: 100 quads and two
    /// 100-gon caps, 600 edges) is searched through the grid, which is linear in edges (every pair within a solid
    /// would be quadratic: a 20 000-face polyhedron took seconds); the seals are the same either way.
    @Test func aSolidOfManyEdgesGoesToTheGrid() throws {
        let container = BookCube.container()
        let prism = try Solid.prism(sides: 100, radius: 80, height: 60)
        prism.position = CGPoint(x: 150, y: 150)
        prism.transform = Transform3D(rotationAngle: 0.5, x: 1, y: 0.3, z: 0)
        for (i, face) in prism.faces.enumerated() { face.backgroundColor = Color(white: 0.2 + 0.6 * Double(i % 2)) }
        try container.addSublayer(prism)
        let tree = try RenderTree(root: container)
        let members = try #require(tree.members.first).node.members
        #expect(members.count == 102)
        let grid = Self.seals(members, bySolid: false), bySolid = Self.seals(members, bySolid: true)
        #expect(!bySolid.searchedBySolid)
        #expect(bySolid.sealed == grid.sealed)
        #expect(bySolid.outer == grid.outer)
        #expect(grid.sealed.joined().count >= members.count / 8)   // the scene exercises sealing
    }

    /// `SharedEdges.sealCandidates` tries each solid's own edges first and sweeps over every edge only for the members
    /// left unmarked: the marked members must be the sweep's alone, on the layouts above (the shaped faces of prisms
    /// and pyramids mark every member at once, so `mixed` adds scenes of boxes and loose planes only: loose planes
    /// that share an edge are found by the sweep, boxes by their solid, a box touching a loose plane by either).
    @Test(arguments: Layout.allCases + [nil], 0..<12 as Range<UInt64>)
    func solidsGiveTheSweepsCandidates(layout: Layout?, seed: UInt64) throws {
        let root = try layout.map { try Self.scene($0, seed: seed) } ?? Self.boxesAndPlanes(seed: seed)
        let tree = try RenderTree(root: root)
        let members = try #require(tree.members.first).node.members
        let (input, _) = Painter.scenePolygons(members)
        func candidates(bySolid: Bool) -> [Bool] {
            SharedEdges.sealCandidates(input, outline: { Painter.shapeOutline(members[$0]) },
                                       sealable: { Painter.isSealable(members[$0]) },
                                       solid: bySolid ? { members[$0].solid } : nil)
        }
        let sweep = candidates(bySolid: false), bySolid = candidates(bySolid: true)
        #expect(bySolid == sweep)
        #expect(sweep.contains(true))   // the scene has seams
        if layout == nil { #expect(sweep.contains(false)) }   // and members that seal with nothing
    }

    /// Boxes (plain rectangular faces) apart or interpenetrating, and loose single planes in the same context: pairs of
    /// planes sharing an edge (a hinge, opened at a random angle), planes lying along a box's face edge, and planes
    /// alone.
    static func boxesAndPlanes(seed: UInt64) throws -> Layer {
        var g = SplitMix(seed)
        func r(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &g) }
        let container = BookCube.container()
        for i in 0..<(4 + Int(seed % 5)) {
            let box = try Solid.box(width: r(10...40), height: r(10...40), depth: r(10...40))
            box.position = CGPoint(x: 60 + r(0...280), y: 60 + r(0...280))
            box.zPosition = r(-40...40)
            if i % 2 == 0 { box.transform = Transform3D(rotationAngle: r(0...(2 * .pi)), x: r(-1...1), y: r(-1...1), z: r(-1...1)) }
            for face in box.faces { face.backgroundColor = Color(red: r(0...1), green: r(0...1), blue: r(0...1)) }
            try container.addSublayer(box)
        }
        func plane(_ x: Double, _ y: Double, _ z: Double, turn: Double) -> Layer {
            let layer = Layer()
            layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
            layer.anchorPoint = CGPoint(x: 0, y: 0.5)   // the left edge is the hinge
            layer.position = CGPoint(x: x, y: y)
            layer.zPosition = z
            layer.transform = Transform3D(rotationAngle: turn, x: 0, y: 1, z: 0)
            layer.backgroundColor = Color(red: r(0...1), green: r(0...1), blue: r(0...1))
            return layer
        }
        for _ in 0..<3 {
            // Two planes hinged on one edge: both left edges at the same place.
            let (x, y, z) = (r(60...340), r(60...340), r(-40...40)), open = r(0.4...2.5)
            try container.addSublayer(plane(x, y, z, turn: r(-0.5...0.5)))
            try container.addSublayer(plane(x, y, z, turn: open))
            // And one alone.
            try container.addSublayer(plane(r(60...340), r(60...340), r(-40...40), turn: r(-1...1)))
        }
        return container
    }

    /// The members of one solid share a number, and no two solids do.
    @Test func membersOfOneSolidShareItsNumber() throws {
        let tree = try RenderTree(root: try Scenes.latticeLike(cubes: 8))
        let members = try #require(tree.members.first).node.members
        #expect(members.count == 48)
        for (i, m) in members.enumerated() { #expect(m.solid == i / 6 * 6) }
    }

    enum Scenes {
        /// `cubes` cubes side by side in a book container, each a `Solid` of six faces.
        static func latticeLike(cubes: Int) throws -> Layer {
            let container = BookCube.container()
            for i in 0..<cubes {
                let cube = try Solid.cube(size: 20)
                cube.position = CGPoint(x: 40 + Double(i) * 40, y: 150)
                try container.addSublayer(cube)
            }
            return container
        }
    }
}
