import CCairo
import Foundation
import Origami
import Testing
import TestSupport
@_spi(Benchmarks) @testable import OrigamiRender

/// When only a few members of a 3D context may seal (`SharedEdges.sealCandidates`), `Painter.drawScene` walks the BSP
/// twice: the first walk collects those members' fragments for `SharedEdges`, the second paints every fragment as it
/// comes. The 500 crossing planes take that path (6 candidates); its picture must be the one the collected path (one
/// walk, every fragment kept, as for solids) paints of the same scene — the same seals, on the same fragments, in the
/// same order. Checked here on a smaller scene that takes the same path.
@Suite("Two-walk seals")
struct TwoWalkSealTests {
    static let size = 400

    /// 50 crossing planes and, among them, a tent of two faces joined along one edge: each turned 0.5 rad about the
    /// shared edge (the anchor sits on it, so the edge stays at the tent's origin for both), both toward the viewer
    /// under the container's perspective — sealable, and their edges run along each other.
    static func scene() throws -> Layer {
        let container = try FragmentFillTests.crossingPlanes(50)
        let tent = TransformLayer()
        tent.position = CGPoint(x: 200, y: 200)
        // Forward of most planes (they lie within ±90 of the container's plane, turned), so the shared edge shows.
        tent.zPosition = 70
        let faces: [(anchor: CGPoint, angle: Double, color: Color)] = [
            (CGPoint(x: 1, y: 0.5), 0.5, Color(red: 0.95, green: 0.85, blue: 0.1)),
            (CGPoint(x: 0, y: 0.5), -0.5, Color(red: 0.1, green: 0.3, blue: 0.9)),
        ]
        for f in faces {
            let face = Layer()
            face.bounds = CGRect(x: 0, y: 0, width: 120, height: 120)
            face.anchorPoint = f.anchor
            face.position = .zero
            face.transform = Transform3D(rotationAngle: f.angle, x: 0, y: 1, z: 0)
            face.backgroundColor = f.color
            try tent.addSublayer(face)
        }
        try container.addSublayer(tent)
        return container
    }

    /// The scene painted by `Renderer.paint`, as `Renderer.render` paints it, with the collected path forced or not.
    static func pixels(_ scene: Layer, collectingEveryFragment: Bool, sealsEdges: Bool = true) throws -> [UInt8] {
        try paintedBytes(scene, size: size, sealsEdges: sealsEdges, collectsEveryFragment: collectingEveryFragment)
    }

    @Test("A few sealing members: the two walks paint what one collected walk paints")
    func twoWalksPaintTheCollectedPicture() throws {
        let scene = try Self.scene()
        let tree = try RenderTree(root: scene)
        let container = try #require(tree.members.first)
        let statistics = BenchmarkProbes.depthOrderStatistics(container.node.members)
        // The tent's two faces and nothing else may seal: 2 of 52 members, so `drawScene` takes the two-walk path.
        #expect(statistics.sealCandidates == 2)
        #expect(container.node.members.count == 52)
        // The crossing planes cut the tent: its faces are split, so the seals are found on fragments.
        #expect(statistics.fragments > 52)

        let twoWalks = try Self.pixels(scene, collectingEveryFragment: false)
        let collected = try Self.pixels(scene, collectingEveryFragment: true)
        let same = twoWalks == collected
        #expect(same)
        // The first walk's recording replaced the second walk here (2 368 fragments); walked twice, the same bytes.
        let walkedTwice = try BSPTree.Recording.$limitOverride.withValue(0) {
            try Self.pixels(scene, collectingEveryFragment: false)
        }
        let sameWalkedTwice = walkedTwice == twoWalks
        #expect(sameWalkedTwice)
        // The seal shows: without it the shared edge's pixels blend with what lies behind the tent.
        let unsealed = try Self.pixels(scene, collectingEveryFragment: false, sealsEdges: false)
        let sealShows = unsealed != twoWalks
        #expect(sealShows)
    }

    /// The recording hands out the walk's fragments again, bit for bit and in order; past its limit it is dropped.
    @Test("A recording replays the walk")
    func recordingReplaysTheWalk() throws {
        let tree = try RenderTree(root: try Self.scene())
        let members = try #require(tree.members.first).node.members
        let input = Painter.scenePolygons(members).input
        var walked: [(member: Int, isWhole: Bool, points: [Vector3])] = []
        var record = BSPTree.Recording(limit: .max), small = BSPTree.Recording(limit: 1_000)
        Painter.depthOrder(input, members: members) { f in
            walked.append((f.member, f.isWhole, Array(f.points)))
            record.append(f)
            small.append(f)
        }
        var replayed: [(member: Int, isWhole: Bool, points: [Vector3])] = []
        record.replay { replayed.append(($0.member, $0.isWhole, Array($0.points))) }
        try #require(walked.count > 1000)
        #expect(record.isComplete)
        #expect(!small.isComplete)
        #expect(replayed.count == walked.count)
        let differing = zip(walked, replayed).count { a, b in
            a.member != b.member || a.isWhole != b.isWhole
                || a.points.map { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] } != b.points.map { [$0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern] }
        }
        #expect(differing == 0, "fragments differ")
        #expect(walked.contains { $0.isWhole } && walked.contains { !$0.isWhole })

        // With a look-ahead (the painter prefetches the member `distance` fragments on): the same fragments in the same
        // order, and before the k-th the member of the (k + distance)-th, for every k that has one.
        for distance in [1, 2, 5] {
            var events: [(isAhead: Bool, member: Int)] = []
            var ahead: [Int] = []
            record.replay(ahead: { events.append((true, $0)); ahead.append($0) }, distance: distance) {
                events.append((false, $0.member))
            }
            let handed = events.filter { !$0.isAhead }.map(\.member)
            #expect(handed == walked.map(\.member))
            #expect(ahead == Array(walked.map(\.member).dropFirst(distance)))
            // The (k + distance)-th member is told just before the k-th fragment.
            var k = 0, misplaced = 0
            for (i, e) in events.enumerated() where !e.isAhead {
                if k + distance < walked.count, !(i > 0 && events[i - 1].isAhead && events[i - 1].member == walked[k + distance].member) {
                    misplaced += 1
                }
                k += 1
            }
            #expect(misplaced == 0)
        }
    }
}
