extension UnsafeBufferPointer where Element == UInt64 {
    /// The indices of these keys in increasing key order, equal keys in increasing index order: the order a stable
    /// `sorted(by: <)` of the indices by key gives. For many well-mixed keys (`Painter.scenePolygons`' hashes, ≈ 13
    /// comparisons a key by comparison): the indices are dealt by their keys' leading bits into about as many buckets
    /// as keys (in index order, so each bucket's indices are in increasing order), and each bucket, a key or two, is
    /// put in order by insertion (a crowded one — keys that share their leading bits — by `sort`).
    func stableKeyOrder() -> [Int] {
        let n = count
        var bits = 8
        while bits < 16, 1 << bits < n { bits += 1 }
        let buckets = 1 << bits, shift = UInt64(64 - bits)
        var start = [Int](repeating: 0, count: buckets + 1), order = [Int](repeating: 0, count: n)
        start.withUnsafeMutableBufferPointer { start in
            for key in self { start[Int(key >> shift) + 1] += 1 }
            for k in 0 ..< buckets { start[k + 1] += start[k] }
            order.withUnsafeMutableBufferPointer { order in
                // Dealt in index order, each to the next place of its bucket (`start[b]` then marks the bucket's end).
                for i in 0 ..< n {
                    let b = Int(self[i] >> shift)
                    order[start[b]] = i
                    start[b] += 1
                }
                var first = 0
                for b in 0 ..< buckets {
                    let end = start[b]
                    defer { first = end }
                    guard end - first > 1 else { continue }
                    if end - first <= 32 {
                        order.stableInsertionSort(first ..< end) { self[$0] < self[$1] }
                    } else {
                        // (Keys and indices together: the same order, a stable sort or not.)
                        order[first ..< end].sort { self[$0] != self[$1] ? self[$0] < self[$1] : $0 < $1 }
                    }
                }
            }
        }
        return order
    }
}
