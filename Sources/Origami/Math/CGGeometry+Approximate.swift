import Foundation

// Foundation's geometry types, compared component by component within the tolerance (their components are
// `CGFloat`, a `Double` on Linux).

extension CGPoint: ApproximatelyEquatable {
    /// Both coordinates within `absoluteTolerance`.
    public func isApproximatelyEqual(to other: CGPoint, absoluteTolerance: Double) -> Bool {
        Double(x).isApproximatelyEqual(to: Double(other.x), absoluteTolerance: absoluteTolerance)
            && Double(y).isApproximatelyEqual(to: Double(other.y), absoluteTolerance: absoluteTolerance)
    }
}

extension CGSize: ApproximatelyEquatable {
    /// Both dimensions within `absoluteTolerance`.
    public func isApproximatelyEqual(to other: CGSize, absoluteTolerance: Double) -> Bool {
        Double(width).isApproximatelyEqual(to: Double(other.width), absoluteTolerance: absoluteTolerance)
            && Double(height).isApproximatelyEqual(to: Double(other.height), absoluteTolerance: absoluteTolerance)
    }
}

extension CGRect: ApproximatelyEquatable {
    /// By origin and size as stored: a rect and its standardized form (negative size) are not equal.
    public func isApproximatelyEqual(to other: CGRect, absoluteTolerance: Double) -> Bool {
        origin.isApproximatelyEqual(to: other.origin, absoluteTolerance: absoluteTolerance)
            && size.isApproximatelyEqual(to: other.size, absoluteTolerance: absoluteTolerance)
    }
}
