import Foundation
import Origami

/// How one plane reaches the canvas: the homographies of each flattening step, innermost first, the last one
/// ending in device pixels.
///
/// Mapping goes level by level and clips every ring against `w > ε` before each divide, so geometry behind
/// the eye at any level is cut away instead of folding back through infinity (DESIGN §3.3). Points on a
/// plane map exactly under perspective because every path is a polyline mapped vertex by vertex.
struct PlaneChain: Sendable {
    /// Innermost first: `p_device = p · levels[0] · levels[1] · …` with a divide (and a w-clip) after each.
    let levels: [Homography]

    /// The near-plane margin: a point whose w is below this is treated as behind the eye. Matches the scale of
    /// w produced by Core Animation's matrices (w = 1 on a plane without perspective).
    static let nearW = 1e-6

    init(_ levels: [Homography]) { self.levels = levels }

    /// A plane seen through `h` first, then through this chain.
    func prepending(_ h: Homography) -> PlaneChain { PlaneChain([h] + levels) }

    /// The product of every level: exact for points in front of the eye at every level.
    var composite: Homography {
        levels.dropFirst().reduce(levels.first ?? .identity) { $0.concatenating($1) }
    }

    /// The ring mapped into device space; empty when nothing of it lies in front of the eye.
    func map(_ ring: Ring) -> Ring {
        var r = ring
        for h in levels {
            r = Self.map(r, through: h)
            if r.count < 3 { return [] }
        }
        return r
    }

    /// One point, or `nil` when it lies behind the eye at some level.
    func map(point p: PlanePoint) -> PlanePoint? {
        var q = CGPoint(x: p.x, y: p.y)
        for h in levels {
            guard let r = h.apply(q) else { return nil }
            q = r
        }
        return PlanePoint(Double(q.x), Double(q.y))
    }

    func map(_ rings: [Ring]) -> [Ring] { rings.map(map).filter { $0.count >= 3 } }

    /// One level: clip against w > ε in homogeneous coordinates (Sutherland–Hodgman against one half-plane),
    /// then divide.
    static func map(_ ring: Ring, through h: Homography) -> Ring {
        let m = h.matrix
        var homogeneous: [(Double, Double, Double)] = []
        homogeneous.reserveCapacity(ring.count)
        for p in ring {
            homogeneous.append((p.x * m.m11 + p.y * m.m21 + m.m31,
                                p.x * m.m12 + p.y * m.m22 + m.m32,
                                p.x * m.m13 + p.y * m.m23 + m.m33))
        }
        var out: Ring = []
        out.reserveCapacity(ring.count + 2)
        let n = homogeneous.count
        for i in 0..<n {
            let a = homogeneous[i], b = homogeneous[(i + 1) % n]
            let aIn = a.2 > nearW, bIn = b.2 > nearW
            if aIn { out.append(PlanePoint(a.0 / a.2, a.1 / a.2)) }
            if aIn != bIn {
                let t = (nearW - a.2) / (b.2 - a.2)
                let x = a.0 + (b.0 - a.0) * t, y = a.1 + (b.1 - a.1) * t
                out.append(PlanePoint(x / nearW, y / nearW))
            }
        }
        return out.allSatisfy(\.isFinite) ? out : []
    }
}
