import Foundation
import Origami
import Testing
import TestSupport
@testable import OrigamiRender

/// The depth order's polygons are kept as ranges of one pool of corners (`PolygonPool`) instead of an array each: read
/// back, they must be the values an array each held, in order.
@Suite struct PolygonPoolTests {
    /// Polygons of 3–7 random corners (some dropped, as a polygon behind the eye is), each read back from the pool as
    /// its own array, indexed from 0.
    @Test(arguments: 0..<8 as Range<UInt64>)
    func poolHandsBackEachPolygon(seed: UInt64) {
        var g = SplitMix(seed: seed)
        var pool = PolygonPool()
        var kept: [(member: Int, points: [Vector3])] = []
        for member in 0..<200 {
            let corners = (0 ..< Int.random(in: 3...7, using: &g)).map { _ in
                Vector3(Double.random(in: -100...100, using: &g), Double.random(in: -100...100, using: &g),
                        Double.random(in: -100...100, using: &g))
            }
            if member % 3 == 0 {
                pool.append(corners, member: member)
                kept.append((member, corners))
            } else {
                let keeps = member % 3 == 1
                let added = pool.appendCorners(member: member) { out in
                    for c in corners { out.append(c) }
                    return keeps
                }
                #expect(added == keeps)
                if keeps { kept.append((member, corners)) }
            }
        }
        let polygons = pool.polygons
        #expect(polygons.count == kept.count)
        #expect(pool.points.count == kept.reduce(0) { $0 + $1.points.count })
        for (p, k) in zip(polygons, kept) {
            #expect(p.member == k.member)
            #expect(Array(p.points) == k.points)
            #expect(k.points.withUnsafeBufferPointer { p.points == PolygonPoints($0) })
            #expect((0 ..< p.points.count).map { p.points[$0] } == k.points)
            let inPlace = p.points.withUnsafeBufferPointer { Array($0) }
            #expect(inPlace == k.points)
            // The normal and centroid as `Vector3.newellNormal` and an array's sum give them, bit for bit.
            let own = ScenePolygons([(k.points, k.member)])
            #expect(p.normal == Vector3.newellNormal(of: k.points) && own[0].normal == p.normal)
            #expect(p.centroid == k.points.reduce(Vector3.zero, +) / Double(k.points.count))
        }
        // In a given order, each polygon made from its own row.
        let order = Array(kept.indices.reversed())
        let reordered = pool.polygons(in: order)
        #expect(reordered.count == kept.count)
        for (p, k) in zip(reordered, order) {
            #expect(p.member == kept[k].member && Array(p.points) == kept[k].points)
        }
    }
}
