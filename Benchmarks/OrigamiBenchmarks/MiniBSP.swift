/// The BSP baseline: the same arithmetic as the renderer's depth sort (Newell normal, splitter = first polygon,
/// classify every vertex, split straddlers), written as one tight recursive function on SIMD vectors with the
/// fragments emitted straight into the output.
enum MiniBSP {
    typealias Polygon = (id: Int, points: [SIMD3<Double>])

    static func backToFront(_ polygons: [Polygon], into out: inout [Polygon]) {
        guard let splitter = polygons.first else { return }
        var n = SIMD3<Double>.zero
        let p = splitter.points
        for i in p.indices {
            let a = p[i], b = p[(i + 1) % p.count]
            n.x += (a.y - b.y) * (a.z + b.z); n.y += (a.z - b.z) * (a.x + b.x); n.z += (a.x - b.x) * (a.y + b.y)
        }
        let length = (n * n).sum().squareRoot()
        guard length > 0 else { out += polygons; return }
        n /= length
        let d = (n * (p.reduce(.zero, +) / Double(p.count))).sum()
        let eps = 1e-3
        var front: [Polygon] = [], back: [Polygon] = [], coplanar: [Polygon] = [splitter]
        for q in polygons.dropFirst() {
            var hasFront = false, hasBack = false
            var dist = [Double](); dist.reserveCapacity(q.points.count)
            for v in q.points {
                let s = (n * v).sum() - d
                dist.append(s); hasFront = hasFront || s > eps; hasBack = hasBack || s < -eps
            }
            switch (hasFront, hasBack) {
            case (false, false): coplanar.append(q)
            case (true, false): front.append(q)
            case (false, true): back.append(q)
            case (true, true):
                var f: [SIMD3<Double>] = [], b: [SIMD3<Double>] = []
                let c = q.points.count
                for i in 0..<c {
                    let a = q.points[i], e = q.points[(i + 1) % c], da = dist[i], de = dist[(i + 1) % c]
                    if da >= -eps { f.append(a) }
                    if da <= eps { b.append(a) }
                    if (da > eps && de < -eps) || (da < -eps && de > eps) {
                        let x = a + (e - a) * (da / (da - de)); f.append(x); b.append(x)
                    }
                }
                if f.count >= 3 { front.append((q.id, f)) }
                if b.count >= 3 { back.append((q.id, b)) }
            }
        }
        let (far, near) = n.z >= 0 ? (back, front) : (front, back)
        backToFront(far, into: &out)
        out += coplanar.sorted { $0.id < $1.id }
        backToFront(near, into: &out)
    }
}
