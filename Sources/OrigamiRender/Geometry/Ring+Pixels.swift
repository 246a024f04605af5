import Foundation

extension Array where Element == PlanePoint {
    /// The pixels whose centres the convex ring (device space) holds, within `visible`, as one ring along pixel
    /// boundaries: a staircase whose rows are the ring's spans at each row's centre line. What Cairo's hard-edged
    /// (`CAIRO_ANTIALIAS_NONE`) rasterisation of the ring covers, as geometry: a fill cut to it covers those pixels
    /// as its antialiased coverage says and no others, the hard clip's result without a clip mask. Empty when no
    /// pixel centre is inside.
    func pixelCentres(within visible: PlaneRect) -> Ring {
        guard count >= 3 else { return [] }
        // Cairo holds the ring in 24.8 fixed point before it tests pixel centres: the same rounding here, so a
        // centre within 1/256 px of an edge falls on the same side.
        let ring = map { PlanePoint(($0.x * 256).rounded() / 256, ($0.y * 256).rounded() / 256) }
        var minY = Double.infinity, maxY = -Double.infinity
        for p in ring { minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y) }
        // Rows whose centre line y + ½ lies within the ring's and the canvas's height.
        let top = Swift.max((minY - 0.5).rounded(.up), visible.minY.rounded(.down))
        let bottom = Swift.min((maxY - 0.5).rounded(.down), visible.maxY.rounded(.up) - 1)
        guard top <= bottom, top.isFinite, bottom.isFinite else { return [] }
        var left: Ring = [], right: Ring = []
        let rows = Int(bottom - top) + 1
        left.reserveCapacity(2 * Swift.min(rows, 64) + 2 * count)
        right.reserveCapacity(2 * Swift.min(rows, 64) + 2)
        var previous: (l: Double, r: Double)?
        var lastRow = top
        var y = top
        while y <= bottom {
            let c = y + 0.5
            var lo = Double.infinity, hi = -Double.infinity
            var a = ring[count - 1]
            for b in ring {
                if (a.y <= c) != (b.y <= c) {
                    let x = a.x + (c - a.y) / (b.y - a.y) * (b.x - a.x)
                    lo = Swift.min(lo, x); hi = Swift.max(hi, x)
                }
                a = b
            }
            // Columns whose centre x + ½ lies in [lo, hi]: a convex ring's rows are one run each, and its rows
            // with any pixel are consecutive.
            let l = (lo - 0.5).rounded(.up), r = (hi - 0.5).rounded(.down) + 1
            if lo <= hi, l < r {
                if let p = previous {
                    if p.l != l { left.append(PlanePoint(p.l, y)); left.append(PlanePoint(l, y)) }
                    if p.r != r { right.append(PlanePoint(p.r, y)); right.append(PlanePoint(r, y)) }
                } else {
                    left.append(PlanePoint(l, y)); right.append(PlanePoint(r, y))
                }
                previous = (l, r)
                lastRow = y
            } else if previous != nil {
                break
            }
            y += 1
        }
        guard let last = previous else { return [] }
        left.append(PlanePoint(last.l, lastRow + 1))
        right.append(PlanePoint(last.r, lastRow + 1))
        left.append(contentsOf: right.reversed())
        return left
    }

    /// The part of this ring inside the convex ring `clip` (either winding): Sutherland–Hodgman against each of
    /// its edges. The ring itself may be concave (a staircase of pixels); where the result would fall apart into
    /// pieces they stay joined by edges of zero width, which fill nothing.
    func clipped(toConvex clip: Ring) -> Ring {
        guard clip.count >= 3 else { return [] }
        var area = 0.0
        for i in clip.indices { let a = clip[i], b = clip[(i + 1) % clip.count]; area += a.x * b.y - b.x * a.y }
        guard area != 0, area.isFinite else { return [] }
        let inside: Double = area > 0 ? 1 : -1
        var out = self
        var a = clip[clip.count - 1]
        for b in clip {
            defer { a = b }
            guard a != b else { continue }
            let ex = b.x - a.x, ey = b.y - a.y, from = a
            out = clippedPolygon(out, side: { inside * (ex * ($0.y - from.y) - ey * ($0.x - from.x)) }) { s, t, f in
                PlanePoint(s.x + (t.x - s.x) * f, s.y + (t.y - s.y) * f)
            }
            if out.count < 3 { return [] }
        }
        return out
    }
}
