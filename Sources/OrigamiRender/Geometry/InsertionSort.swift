extension UnsafeMutableBufferPointer where Element == Int {
    /// Sorts the indices `self[range]` by `precedes`, stably: an index moves only past those it strictly precedes, so
    /// the result is the order a stable `sort(by:)` gives. For the short lists the BSP's coplanar polygons and a
    /// fragment's seals make (often one or two, in order already), where `sort`'s set-up costs more than sorting.
    @inline(__always)
    func stableInsertionSort(_ range: Range<Int>, by precedes: (Int, Int) -> Bool) {
        for n in range.dropFirst() {
            let moving = self[n]
            var m = n
            while m > range.lowerBound, precedes(moving, self[m - 1]) { self[m] = self[m - 1]; m -= 1 }
            self[m] = moving
        }
    }
}
