/// Equality within a tolerance, for values computed with floating point. Not transitive.
public protocol ApproximatelyEquatable {
    /// Whether `self` and `other` differ by at most `absoluteTolerance` in every component.
    func isApproximatelyEqual(to other: Self, absoluteTolerance: Double) -> Bool
}

extension ApproximatelyEquatable {
    /// Equal within 1e-9 in every component: the tolerance for pure arithmetic on Core Animation's numbers.
    public func isApproximatelyEqual(to other: Self) -> Bool {
        isApproximatelyEqual(to: other, absoluteTolerance: 1e-9)
    }
}

extension Double: ApproximatelyEquatable {
    /// `|self − other| ≤ absoluteTolerance`.
    public func isApproximatelyEqual(to other: Double, absoluteTolerance: Double) -> Bool {
        abs(self - other) <= absoluteTolerance
    }
}
