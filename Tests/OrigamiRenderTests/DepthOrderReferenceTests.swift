import Foundation
import Origami
@_spi(Benchmarks) import OrigamiRender
import Testing
import TestSupport

/// The depth order (issue 20 item 1) must not change when the BSP is rebuilt to stream its fragments: the same splits,
/// bit for bit, in the same order. The reference is the collected BSP's output before streaming, saved as digests in
/// `DepthOrderReferenceDigests.swift` (written by this suite when `ORIGAMI_RECORD_DEPTH_DIGESTS` names a file; the
/// values there were recorded from commit `c9e6888`, whose BSP built the whole tree and then walked it).
@Suite("Depth order reference")
struct DepthOrderReferenceTests {
    /// FNV-1a over each fragment's member and its corners' bits, with counts as separators.
    struct Digest {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        mutating func add(_ v: UInt64) {
            for k in 0..<8 { value = (value ^ ((v >> (8 * UInt64(k))) & 0xFF)) &* 0x0000_0100_0000_01B3 }
        }
        mutating func add(member: Int, points: [Vector3]) {
            add(UInt64(member)); add(UInt64(points.count))
            for p in points { add(p.x.bitPattern); add(p.y.bitPattern); add(p.z.bitPattern) }
        }
    }

    /// A random scene of 3–40 convex planar polygons (seeded, so the same in every run): quads and triangles turned
    /// every way within a 200-unit box, some coplanar with an earlier polygon (the coplanar tie-break), some
    /// degenerate (three points on a line: no plane).
    static func randomScene(_ seed: UInt64) -> [[Vector3]] {
        var rng = SeededGenerator(seed: seed)
        let count = 3 + Int(rng.next() % 38)
        var planes: [(centre: Vector3, u: Vector3, v: Vector3)] = []
        var out: [[Vector3]] = []
        for _ in 0..<count {
            let kind = rng.next() % 20
            if kind == 0 {
                let a = Vector3(rng.next(-100, 100), rng.next(-100, 100), rng.next(-100, 100))
                let d = Vector3(rng.next(-1, 1), rng.next(-1, 1), rng.next(-1, 1))
                out.append([a, a + d * 30, a + d * 70])
                continue
            }
            var frame: (centre: Vector3, u: Vector3, v: Vector3)
            if kind < 4, let earlier = planes.randomElement(using: &rng) {
                frame = earlier
                frame.centre = frame.centre + frame.u * rng.next(-40, 40) + frame.v * rng.next(-40, 40)
            } else {
                let axis = Vector3(rng.next(-1, 1), rng.next(-1, 1), rng.next(-1, 1))
                let n = axis.normalized() ?? .unitZ
                let helper = abs(n.x) < 0.9 ? Vector3(1, 0, 0) : Vector3(0, 1, 0)
                let u = n.cross(helper).normalized() ?? Vector3(1, 0, 0)
                frame = (Vector3(rng.next(-100, 100), rng.next(-100, 100), rng.next(-100, 100)), u, n.cross(u))
                planes.append(frame)
            }
            let w = rng.next(10, 90), h = rng.next(10, 90)
            let c = frame.centre, u = frame.u, v = frame.v
            if rng.next() % 4 == 0 {
                out.append([c - u * w - v * h, c + u * w - v * h, c + v * h])
            } else {
                out.append([c - u * w - v * h, c + u * w - v * h, c + u * w + v * h, c - u * w + v * h])
            }
        }
        return out
    }

    static let sceneCount = 300

    static func randomSceneDigests() -> [UInt64] {
        (0..<sceneCount).map { seed in
            var d = Digest()
            let fragments = BenchmarkProbes.backToFront(randomScene(UInt64(seed)))
            d.add(UInt64(fragments.count))
            for f in fragments { d.add(member: f.polygon, points: f.points) }
            return d.value
        }
    }

    /// The painter's depth order of `FragmentFillTests.crossingPlanes(count)`: its fragment count and digest.
    static func crossingPlanesDigest(_ count: Int) throws -> (fragments: Int, digest: UInt64) {
        let tree = try RenderTree(root: try FragmentFillTests.crossingPlanes(count))
        let container = try #require(tree.members.first)
        let fragments = BenchmarkProbes.scenePolygonsInDepthOrder(container.node.members)
        var d = Digest()
        for f in fragments { d.add(member: f.member, points: f.points) }
        return (fragments.count, d.value)
    }

    /// The pixels of 50 crossing planes (square and rounded, antialiased), rendered at scale 2.
    static func renderDigest(rounded: Bool) throws -> UInt64 {
        let image = try Renderer.render(try FragmentFillTests.crossingPlanes(50, rounded: rounded),
                                        size: CGSize(width: 400, height: 400), options: RenderOptions(scale: 2, background: .white))
        var d = Digest()
        for p in image.pixels { d.add(UInt64(p)) }
        return d.value
    }

    @Test("Random scenes: the BSP's fragments are the recorded ones")
    func randomScenes() throws {
        let digests = Self.randomSceneDigests()
        if let path = ProcessInfo.processInfo.environment["ORIGAMI_RECORD_DEPTH_DIGESTS"] {
            try Self.record(digests, to: path)
            return
        }
        try #require(DepthOrderReferenceDigests.randomScenes.count == Self.sceneCount)
        let differing = digests.indices.filter { digests[$0] != DepthOrderReferenceDigests.randomScenes[$0] }
        #expect(differing.isEmpty, "scenes \(differing.prefix(10)) of \(Self.sceneCount) give other fragments")
    }

    @Test("Crossing planes: the painter's depth order is the recorded one")
    func crossingPlanes() throws {
        let (count, digest) = try Self.crossingPlanesDigest(200)
        #expect(count == DepthOrderReferenceDigests.crossingPlanes200.fragments)
        #expect(digest == DepthOrderReferenceDigests.crossingPlanes200.digest)
    }

    @Test("Crossing planes: the rendered pixels are the recorded ones", arguments: [false, true])
    func crossingPlanesPixels(rounded: Bool) throws {
        let digest = try Self.renderDigest(rounded: rounded)
        #expect(digest == (rounded ? DepthOrderReferenceDigests.rounded50Pixels : DepthOrderReferenceDigests.square50Pixels))
    }

    static func record(_ digests: [UInt64], to path: String) throws {
        let planes = try crossingPlanesDigest(200)
        func hex(_ v: UInt64) -> String { "0x" + String(v, radix: 16, uppercase: true) }
        var text = """
        // Recorded by `DepthOrderReferenceTests` (ORIGAMI_RECORD_DEPTH_DIGESTS) from the BSP before it streamed its
        // fragments (commit c9e6888). Do not edit by hand.
        enum DepthOrderReferenceDigests {
            static let crossingPlanes200 = (fragments: \(planes.fragments), digest: UInt64(\(hex(planes.digest))))
            static let square50Pixels: UInt64 = \(hex(try renderDigest(rounded: false)))
            static let rounded50Pixels: UInt64 = \(hex(try renderDigest(rounded: true)))
            static let randomScenes: [UInt64] = [

        """
        for row in stride(from: 0, to: digests.count, by: 4) {
            text += "        " + digests[row..<min(row + 4, digests.count)].map(hex).joined(separator: ", ") + ",\n"
        }
        text += "    ]\n}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// The painter paints fragments as the BSP makes them (issue 20 item 1: 500 crossing planes are 1.86 M fragments):
/// the streamed order is the collected one, and the walk never holds more than a small part of the fragments.
@Suite("Streamed depth order")
struct StreamedDepthOrderTests {
    @Test("The streamed fragments are the collected ones, in the same order")
    func streamedIsCollected() throws {
        let tree = try RenderTree(root: try FragmentFillTests.crossingPlanes(50))
        let members = try #require(tree.members.first).node.members
        let collected = BenchmarkProbes.scenePolygonsInDepthOrder(members)
        let streamed = BenchmarkProbes.streamedDepthOrder(members).fragments
        try #require(collected.count > 1000)
        #expect(streamed.count == collected.count)
        let differing = zip(streamed, collected).enumerated().filter { $1.0.member != $1.1.member || $1.0.points != $1.1.points }
        #expect(differing.isEmpty, "\(differing.count) fragments differ, first at \(differing.first?.offset ?? -1)")
    }

    /// 200 crossing planes give 122 385 fragments of about 4 corners each; the walk holds the pending lists along one
    /// path of the tree (about 1 700 polygons here), and its point pool is compacted to their corners whenever it has
    /// doubled (and has reached 32 768 corners). The bounds (1/20 of the fragments, 1/10 of their 489 k corners) leave
    /// room on either side: a walk that kept every fragment, or every piece's corners, would hold more than all of them.
    @Test("The walk holds a small part of the fragments at any time")
    func memoryStaysFlat() throws {
        let tree = try RenderTree(root: try FragmentFillTests.crossingPlanes(200))
        let members = try #require(tree.members.first).node.members
        let walk = BenchmarkProbes.streamedDepthOrder(members)
        let corners = walk.fragments.reduce(0) { $0 + $1.points.count }
        try #require(walk.fragments.count == DepthOrderReferenceDigests.crossingPlanes200.fragments)
        #expect(walk.peakPendingPolygons < walk.fragments.count / 20, "\(walk.peakPendingPolygons) polygons pending")
        #expect(walk.peakPoints < corners / 10, "\(walk.peakPoints) corners in the pool of \(corners)")
    }
}

/// Which members may seal is decided before the BSP (`SharedEdges.sealCandidates`): crossing planes stream only if
/// none of them can.
@Suite("Seal candidates")
struct SealCandidatesBeforeSplittingTests {
    /// The 50 crossing planes' edges pass through one another at angles, never along one another: no seal, so the
    /// painter streams their fragments.
    @Test func crossingPlanesHaveNone() throws {
        let tree = try RenderTree(root: try FragmentFillTests.crossingPlanes(50))
        let members = try #require(tree.members.first).node.members
        #expect(BenchmarkProbes.depthOrderStatistics(members).sealCandidates == 0)
    }

    /// The book's cube in perspective: any two faces turned toward the viewer are neighbours (opposite faces of a
    /// convex solid never both are), so they share an edge and every visible face is a candidate; there are at least
    /// two of them (figure 5.20 shows three).
    @Test func aCubesFacesAreCandidates() throws {
        let tree = try RenderTree(root: try BookCube(faceColors: (0..<6).map { _ in Color.white }).container)
        let members = try #require(tree.members.first).node.members
        #expect(members.count == 6)
        #expect(BenchmarkProbes.depthOrderStatistics(members).sealCandidates >= 2)
    }
}
