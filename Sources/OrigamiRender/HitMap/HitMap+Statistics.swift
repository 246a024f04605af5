import Foundation

extension HitMap {
    /// The map's pixels counted: per layer where it is seen and where it receives the touch, and who intercepts
    /// whom — the figures of the hatched picture, as data.
    public struct Statistics: Sendable {
        /// One layer's counts.
        public struct Entry: Sendable {
            /// The layer's name, as the map names it.
            public let name: String
            /// Pixels where the layer is the one seen (frontmost).
            public let seen: Int
            /// Pixels where a touch reaches it (tree order).
            public let touched: Int
            /// Pixels where it is seen but the touch goes elsewhere (another layer, or nothing).
            public let intercepted: Int
            /// `intercepted / seen` (0 for a layer seen nowhere).
            public var interceptedShare: Double { seen > 0 ? Double(intercepted) / Double(seen) : 0 }
        }

        /// One cell of the interception matrix: `pixels` where the touch reaches `receiver` while `seen` is seen.
        public struct Interception: Sendable {
            /// The layer the touch reaches (`nothing`: none).
            public let receiver: String
            /// The layer seen there (`nothing`: none).
            public let seen: String
            /// How many pixels.
            public let pixels: Int
        }

        /// Pixels in the map.
        public let pixels: Int
        /// Pixels where the touch reaches another layer than the one seen (the hatched ones).
        public let intercepted: Int
        /// Every layer the map names, most touched first (ties in the map's order).
        public let layers: [Entry]
        /// Every non-empty off-diagonal cell of the matrix, largest first; `nothing` stands for no layer.
        public let interceptions: [Interception]

        /// `intercepted / pixels` (0 for an empty map).
        public var interceptedShare: Double { pixels > 0 ? Double(intercepted) / Double(pixels) : 0 }
    }

    /// The name used for "no layer" in the statistics' interceptions.
    public static let nothingName = "nothing"

    /// The map's counts: per layer, and the interception matrix (one pass over the pixels).
    public var statistics: Statistics {
        let n = names.count
        var seen = [Int](repeating: 0, count: n), touched = [Int](repeating: 0, count: n)
        var stolen = [Int](repeating: 0, count: n)
        var pairs: [Int: Int] = [:]   // (receiver + 1) · (n + 1) + (seen + 1) → pixels
        var intercepted = 0
        for (t, f) in zip(treeOrder, frontmost) {
            if t >= 0 { touched[Int(t)] += 1 }
            if f >= 0 { seen[Int(f)] += 1 }
            guard t != f else { continue }
            intercepted += 1
            if f >= 0 { stolen[Int(f)] += 1 }
            pairs[(Int(t) + 1) * (n + 1) + Int(f) + 1, default: 0] += 1
        }
        func name(_ i: Int) -> String { i >= 0 ? names[i] : Self.nothingName }
        let layers = (0..<n).sorted { touched[$0] != touched[$1] ? touched[$0] > touched[$1] : $0 < $1 }
            .map { Statistics.Entry(name: names[$0], seen: seen[$0], touched: touched[$0], intercepted: stolen[$0]) }
        let interceptions = pairs.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { key, count in
            Statistics.Interception(receiver: name(key / (n + 1) - 1), seen: name(key % (n + 1) - 1), pixels: count)
        }
        return Statistics(pixels: treeOrder.count, intercepted: intercepted, layers: layers, interceptions: interceptions)
    }
}
