import Foundation

/// Which parts of a layer's frame stretch when its superlayer's bounds change size. Corresponds to
/// `CAAutoresizingMask` (OS X): the flexible parts along an axis share the change in proportion to their
/// current lengths (equally when those are all zero); with none flexible, the layer keeps its size and its
/// distance to the minimum edge.
public struct AutoresizingMask: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The margin between the superlayer's minimum x edge and the frame's (the left margin) is flexible.
    /// Corresponds to `kCALayerMinXMargin`.
    public static let minXMargin = AutoresizingMask(rawValue: 1 << 0)
    /// The frame's width is flexible. Corresponds to `kCALayerWidthSizable`.
    public static let widthSizable = AutoresizingMask(rawValue: 1 << 1)
    /// The margin between the frame's maximum x edge and the superlayer's (the right margin) is flexible.
    /// Corresponds to `kCALayerMaxXMargin`.
    public static let maxXMargin = AutoresizingMask(rawValue: 1 << 2)
    /// The margin at the minimum y edge (the top: y grows downward) is flexible. Corresponds to `kCALayerMinYMargin`.
    public static let minYMargin = AutoresizingMask(rawValue: 1 << 3)
    /// The frame's height is flexible. Corresponds to `kCALayerHeightSizable`.
    public static let heightSizable = AutoresizingMask(rawValue: 1 << 4)
    /// The margin at the maximum y edge (the bottom) is flexible. Corresponds to `kCALayerMaxYMargin`.
    public static let maxYMargin = AutoresizingMask(rawValue: 1 << 5)
}

/// A part of a layer's frame a constraint sets or reads. Corresponds to `CAConstraintAttribute`.
public enum ConstraintAttribute: String, Hashable, Sendable, CaseIterable {
    /// The frame's left, centre and right x, its width, its top, centre and bottom y and its height, in the
    /// superlayer's bounds space (y down: `minY` is the top). Correspond to `kCAConstraintMinX` … `kCAConstraintHeight`.
    case minX, midX, maxX, width, minY, midY, maxY, height

    var isHorizontal: Bool { [.minX, .midX, .maxX, .width].contains(self) }
}

/// `attribute = source.sourceAttribute · scale + offset`, the source being the superlayer (`"superlayer"`) or
/// a sibling by name. Corresponds to `CAConstraint`.
public struct Constraint: Hashable, Sendable {
    /// The part of this layer's frame the constraint sets.
    public var attribute: ConstraintAttribute
    /// `"superlayer"`, or the `name` of a sibling layer, whose frame the constraint reads.
    public var sourceName: String
    /// The part of the source's frame (the superlayer's: its bounds) read.
    public var sourceAttribute: ConstraintAttribute
    /// Multiplies the source's value; default 1.
    public var scale: Double
    /// Added after scaling, in points; default 0.
    public var offset: Double

    /// `attribute = source.sourceAttribute · scale + offset`. Corresponds to
    /// `+[CAConstraint constraintWithAttribute:relativeTo:attribute:scale:offset:]`.
    public init(attribute: ConstraintAttribute, relativeTo sourceName: String, attribute sourceAttribute: ConstraintAttribute,
                scale: Double = 1, offset: Double = 0) {
        self.attribute = attribute; self.sourceName = sourceName; self.sourceAttribute = sourceAttribute
        self.scale = scale; self.offset = offset
    }
}

/// A problem met while laying out.
public enum LayoutError: Error, Equatable, CustomStringConvertible {
    /// The constraints of these sibling layers refer to each other in a loop.
    case constraintCycle([String])
    /// A constraint names a sibling that does not exist.
    case unknownSource(layer: String, source: String)

    public var description: String {
        switch self {
        case let .constraintCycle(names): return "constraints form a cycle: \(names.joined(separator: " → "))"
        case let .unknownSource(layer, source): return "\(layer) has a constraint relative to `\(source)`, which is no sibling's name"
        }
    }
}

/// Lays out a layer's sublayers. Corresponds to `CALayoutManager`.
public protocol LayoutManager: Sendable {
    /// Positions the sublayers of `layer`; throws when they cannot be laid out (a cycle, an unknown source).
    /// Corresponds to `-[CALayoutManager layoutSublayersOfLayer:]`.
    func layoutSublayers(of layer: Layer) throws(LayoutError)
}

extension Layer {
    /// Applies the sublayers' autoresizing masks after the receiver's bounds changed from `oldSize`.
    /// Corresponds to `-[CALayer resizeSublayersWithOldSize:]`.
    public func resizeSublayers(withOldSize oldSize: CGSize) {
        let newSize = bounds.size
        guard oldSize.width.isFinite, oldSize.height.isFinite, newSize.width.isFinite, newSize.height.isFinite else { return }
        for s in sublayers where !s.autoresizingMask.isEmpty {
            let f = s.frame
            guard !f.isNull else { continue }
            let m = s.autoresizingMask
            let origin = bounds.origin
            let (x, w) = Self.distribute(
                margins: (Double(f.minX - origin.x), Double(f.width), Double(origin.x + oldSize.width - f.maxX)),
                flexible: (m.contains(.minXMargin), m.contains(.widthSizable), m.contains(.maxXMargin)),
                delta: Double(newSize.width - oldSize.width))
            let (y, h) = Self.distribute(
                margins: (Double(f.minY - origin.y), Double(f.height), Double(origin.y + oldSize.height - f.maxY)),
                flexible: (m.contains(.minYMargin), m.contains(.heightSizable), m.contains(.maxYMargin)),
                delta: Double(newSize.height - oldSize.height))
            s.frame = CGRect(x: Double(origin.x) + x, y: Double(origin.y) + y, width: max(0, w), height: max(0, h))
        }
    }

    /// The new (leading margin, length) along one axis.
    private static func distribute(margins: (Double, Double, Double), flexible: (Bool, Bool, Bool), delta: Double) -> (Double, Double) {
        let parts = [margins.0, margins.1, margins.2]
        let flags = [flexible.0, flexible.1, flexible.2]
        let total = zip(parts, flags).filter(\.1).map { max(0, $0.0) }.reduce(0, +)
        let count = Double(flags.filter { $0 }.count)
        guard count > 0 else { return (margins.0, margins.1) }
        func share(_ i: Int) -> Double {
            guard flags[i] else { return 0 }
            return total > 0 ? delta * max(0, parts[i]) / total : delta / count
        }
        return (margins.0 + share(0), margins.1 + share(1))
    }
}

/// Lays out sublayers from their `constraints`. Corresponds to `CAConstraintLayoutManager`.
///
/// Along each axis at most two constraints of a layer count (the first two in its list); from them the frame's
/// edges follow: two of min/mid/max fix position and size; a size plus one of min/mid/max fixes both; one
/// alone moves the layer and keeps its size. Constraints read frames in the superlayer's bounds coordinates
/// (`"superlayer"` reads its bounds). Siblings are laid out after the siblings they refer to; a cycle is an
/// error and leaves the layers in the cycle unchanged.
public struct ConstraintLayoutManager: LayoutManager {
    /// A constraint layout manager. Corresponds to `+[CAConstraintLayoutManager layoutManager]`.
    public init() {}

    /// Applies every sublayer's `constraints`, sources first; a cycle or an unknown source throws and leaves
    /// the layers involved unchanged.
    public func layoutSublayers(of layer: Layer) throws(LayoutError) {
        let byName = Dictionary(layer.sublayers.compactMap { l in l.name.map { ($0, l) } }, uniquingKeysWith: { a, _ in a })
        // Depth-first topological order over sibling references, with an explicit stack: a chain of a hundred
        // thousand siblings each constrained to the previous one is sorted, not a stack overflow.
        var order: [Layer] = []
        var state: [ObjectIdentifier: Int] = [:]   // 1 visiting, 2 done
        for start in layer.sublayers where state[ObjectIdentifier(start)] == nil {
            // The layers being visited, outermost first, each with the index of its next constraint to follow.
            var path: [(layer: Layer, next: Int)] = [(start, 0)]
            state[ObjectIdentifier(start)] = 1
            while let top = path.last {
                let constraints = top.layer.constraints
                guard top.next < constraints.count else {
                    state[ObjectIdentifier(top.layer)] = 2
                    order.append(top.layer)
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let c = constraints[top.next]
                guard c.sourceName != "superlayer" else { continue }
                guard let source = byName[c.sourceName] else {
                    throw .unknownSource(layer: top.layer.description, source: c.sourceName)
                }
                switch state[ObjectIdentifier(source)] {
                case 2: continue
                case 1:
                    let cycleStart = path.firstIndex { $0.layer === source } ?? 0
                    throw .constraintCycle((path[cycleStart...].map(\.layer) + [source]).map { $0.name ?? "?" })
                default:
                    state[ObjectIdentifier(source)] = 1
                    path.append((source, 0))
                }
            }
        }

        for l in order where !l.constraints.isEmpty {
            var frame = l.frame
            guard !frame.isNull else { continue }
            for horizontal in [true, false] {
                let cs = l.constraints.filter { $0.attribute.isHorizontal == horizontal }.prefix(2)
                guard !cs.isEmpty else { continue }
                var values: [ConstraintAttribute: Double] = [:]
                for c in cs {
                    let sourceRect = c.sourceName == "superlayer" ? layer.bounds : (byName[c.sourceName]?.frame ?? .null)
                    guard !sourceRect.isNull else { continue }
                    values[c.attribute] = Self.value(of: c.sourceAttribute, in: sourceRect) * c.scale + c.offset
                }
                frame = Self.apply(values, to: frame, horizontal: horizontal)
            }
            l.frame = frame
        }
    }

    static func value(of a: ConstraintAttribute, in r: CGRect) -> Double {
        switch a {
        case .minX: return Double(r.minX)
        case .midX: return Double(r.midX)
        case .maxX: return Double(r.maxX)
        case .width: return Double(r.width)
        case .minY: return Double(r.minY)
        case .midY: return Double(r.midY)
        case .maxY: return Double(r.maxY)
        case .height: return Double(r.height)
        }
    }

    private static func apply(_ v: [ConstraintAttribute: Double], to frame: CGRect, horizontal: Bool) -> CGRect {
        let (minA, midA, maxA, sizeA): (ConstraintAttribute, ConstraintAttribute, ConstraintAttribute, ConstraintAttribute) =
            horizontal ? (.minX, .midX, .maxX, .width) : (.minY, .midY, .maxY, .height)
        var lo = Double(horizontal ? frame.minX : frame.minY)
        var size = Double(horizontal ? frame.width : frame.height)
        if let s = v[sizeA] { size = max(0, s) }
        switch (v[minA], v[midA], v[maxA]) {
        case let (mn?, _, mx?): lo = mn; size = max(0, mx - mn)
        case let (mn?, md?, nil): lo = mn; size = max(0, 2 * (md - mn))
        case let (nil, md?, mx?): size = max(0, 2 * (mx - md)); lo = mx - size
        case let (mn?, nil, nil): lo = mn
        case let (nil, md?, nil): lo = md - size / 2
        case let (nil, nil, mx?): lo = mx - size
        default: break
        }
        var r = frame
        if horizontal { r.origin.x = lo; r.size.width = size } else { r.origin.y = lo; r.size.height = size }
        return r
    }
}
