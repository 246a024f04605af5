import Foundation

extension Array where Element == PlanePoint {
    /// The pixels whose centres the convex ring (device space) holds, within `visible`, as one ring along pixel
    /// boundaries: a staircase whose rows are the ring's spans at each row's centre line. What Cairo's hard-edged
    /// (`CAIRO_ANTIALIAS_NONE`) rasterisation of the ring covers, as geometry: a fill cut to it covers those pixels
    /// as its antialiased coverage says and no others, the hard clip's result without a clip mask. Empty when no
    /// pixel centre is inside.
    func pixelCentres(within visible: PlaneRect) -> Ring {
        var out: Ring = []
        pixelCentres(within: visible, into: &out)
        return out
    }

    /// `pixelCentres(within:)`'s ring in `left` (emptied first, its storage kept): a scratch ring reused from one
    /// fragment to the next.
    func pixelCentres(within visible: PlaneRect, into left: inout Ring) {
        // (`removeAll` costs a call even on an empty array.)
        if !left.isEmpty { left.removeAll(keepingCapacity: true) }
        guard count >= 3 else { return }
        // Cairo holds the ring in 24.8 fixed point before it tests pixel centres: the same rounding here, so a
        // centre within 1/256 px of an edge falls on the same side. (The rounded ring, the spans and the two chains live
        // on the stack: this runs once per fragment.)
        let n = count
        withUnsafeTemporaryAllocation(of: PlanePoint.self, capacity: n) { ring in
            var minY = Double.infinity, maxY = -Double.infinity
            for i in 0 ..< n {
                let p = PlanePoint((self[i].x * 256).rounded() / 256, (self[i].y * 256).rounded() / 256)
                ring[i] = p
                minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
            }
            // Rows whose centre line y + ½ lies within the ring's and the canvas's height.
            let top = Swift.max((minY - 0.5).rounded(.up), visible.minY.rounded(.down))
            let bottom = Swift.min((maxY - 0.5).rounded(.down), visible.maxY.rounded(.up) - 1)
            guard top <= bottom, top.isFinite, bottom.isFinite else { return }
            let rows = Int(bottom - top) + 1
            // Each row's span: the least and greatest x where an edge crosses its centre line. Edge by edge, each
            // over the rows its half-open height range [low, high) holds — the rows it crosses — with the same
            // arithmetic and the same min and max as testing every edge on every row, without the tests.
            withUnsafeTemporaryAllocation(of: (lo: Double, hi: Double).self, capacity: rows) { spans in
                spans.initialize(repeating: (.infinity, -.infinity))
                var a = ring[n - 1]
                for k in 0 ..< n {
                    let b = ring[k]
                    defer { a = b }
                    let low = Swift.min(a.y, b.y), high = Swift.max(a.y, b.y)
                    guard low < high else { continue }
                    // c = y + ½ with low ≤ c < high (exact: y is a whole number, low and high multiples of 1/256).
                    let first = Swift.max((low - 0.5).rounded(.up), top)
                    let end = Swift.min((high - 0.5).rounded(.up), bottom + 1)
                    guard first < end else { continue }
                    var y = first
                    var i = Int(first - top)
                    while y < end {
                        let c = y + 0.5
                        let x = a.x + (c - a.y) / (b.y - a.y) * (b.x - a.x)
                        spans[i].lo = Swift.min(spans[i].lo, x); spans[i].hi = Swift.max(spans[i].hi, x)
                        y += 1; i += 1
                    }
                }
                // The left-hand chain from the start of one buffer upward, the right-hand chain from its end
                // downward (so it reads forward in the ring's order), each at most 2 points a row and 1 more; then
                // the two into `left` at once (an append per point checked the array's uniqueness each time).
                let capacity = 4 * rows + 4
                withUnsafeTemporaryAllocation(of: PlanePoint.self, capacity: capacity) { buffer in
                    var leftCount = 0, rightStart = capacity
                    func addLeft(_ p: PlanePoint) { buffer[leftCount] = p; leftCount += 1 }
                    func addRight(_ p: PlanePoint) { rightStart -= 1; buffer[rightStart] = p }
                    var previous: (l: Double, r: Double)?
                    var lastRow = top
                    var y = top
                    var row = 0
                    while y <= bottom {
                        let lo = spans[row].lo, hi = spans[row].hi
                        row += 1
                        // Columns whose centre x + ½ lies in [lo, hi]: a convex ring's rows are one run each, and its
                        // rows with any pixel are consecutive.
                        let l = (lo - 0.5).rounded(.up), r = (hi - 0.5).rounded(.down) + 1
                        if lo <= hi, l < r {
                            if let p = previous {
                                if p.l != l { addLeft(PlanePoint(p.l, y)); addLeft(PlanePoint(l, y)) }
                                if p.r != r { addRight(PlanePoint(p.r, y)); addRight(PlanePoint(r, y)) }
                            } else {
                                addLeft(PlanePoint(l, y)); addRight(PlanePoint(r, y))
                            }
                            previous = (l, r)
                            lastRow = y
                        } else if previous != nil {
                            break
                        }
                        y += 1
                    }
                    // (Nothing was added without a row.)
                    guard let last = previous else { return }
                    addLeft(PlanePoint(last.l, lastRow + 1))
                    addRight(PlanePoint(last.r, lastRow + 1))
                    let chains = UnsafeBufferPointer(buffer)
                    left.reserveCapacity(leftCount + capacity - rightStart)
                    left.append(contentsOf: UnsafeBufferPointer(rebasing: chains[..<leftCount]))
                    left.append(contentsOf: UnsafeBufferPointer(rebasing: chains[rightStart...]))
                }
            }
        }
    }

    /// The part of this ring inside the convex ring `clip` (either winding): Sutherland–Hodgman against each of
    /// its edges. The ring itself may be concave (a staircase of pixels); where the result would fall apart into
    /// pieces they stay joined by edges of zero width, which fill nothing.
    func clipped(toConvex clip: Ring) -> Ring {
        var out = self, spare: Ring = []
        out.formClipped(toConvex: clip, spare: &spare)
        return out
    }

    /// `clipped(toConvex:)` in place: each pass that cuts writes into `spare` and the two swap (`clipPolygon`), so
    /// a caller that keeps both rings makes no array per fragment.
    mutating func formClipped(toConvex clip: Ring, spare: inout Ring) {
        guard clip.count >= 3, count >= 3 else { return removeAll(keepingCapacity: true) }
        var area = 0.0
        for i in clip.indices { let a = clip[i], b = clip[(i + 1) % clip.count]; area += a.x * b.y - b.x * a.y }
        guard area != 0, area.isFinite else { return removeAll(keepingCapacity: true) }
        let inside: Double = area > 0 ? 1 : -1
        // Most fragments lie inside most of the face's edges: Sutherland–Hodgman would hand back the same points in
        // the same order, so that pass is skipped. First by the ring's bounding box (the side test is linear: a
        // half-plane holding the box's four corners by far more than rounding can move a product holds every
        // point), then point by point (the same test, no array).
        var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
        var a = clip[clip.count - 1]
        for b in clip {
            defer { a = b }
            guard a != b else { continue }
            let ex = b.x - a.x, ey = b.y - a.y, from = a
            // Which side of this edge a point is on: > 0 inside, < 0 outside (the pass's own test).
            func side(_ x: Double, _ y: Double) -> Double { inside * (ex * (y - from.y) - ey * (x - from.x)) }
            if box == nil {
                var r = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
                for p in self { r = (Swift.min(r.minX, p.x), Swift.min(r.minY, p.y), Swift.max(r.maxX, p.x), Swift.max(r.maxY, p.y)) }
                box = r
            }
            if let r = box, r.minX.isFinite, r.maxX.isFinite, r.minY.isFinite, r.maxY.isFinite {
                let reach = (Swift.max(abs(r.minX), abs(r.maxX)) + abs(from.x)) + (Swift.max(abs(r.minY), abs(r.maxY)) + abs(from.y))
                let margin = 1e-9 * (abs(ex) + abs(ey)) * reach
                func holds(_ x: Double, _ y: Double) -> Bool { side(x, y) > margin }
                if margin.isFinite, holds(r.minX, r.minY), holds(r.maxX, r.minY), holds(r.maxX, r.maxY), holds(r.minX, r.maxY) {
                    continue
                }
            }
            if allSatisfy({ side($0.x, $0.y) >= 0 }) { continue }
            box = nil
            spare.reserveCapacity(count + 2)
            clipPolygon(self, into: &spare, side: { side($0.x, $0.y) }) { s, t, f in
                PlanePoint(s.x + (t.x - s.x) * f, s.y + (t.y - s.y) * f)
            }
            swap(&self, &spare)
            if count < 3 { return removeAll(keepingCapacity: true) }
        }
    }
}
