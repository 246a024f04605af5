import Foundation
import Origami
import Testing
@_exported import Fixtures

// Shared helpers for the test targets: approximate expectations that report at the caller's line, and a
// deterministic random source so "random" matrices are the same on every run.

/// The tolerance DESIGN §7 sets for pure arithmetic on Core Animation's numbers.
public let arithmeticTolerance = 1e-9
/// The tolerance DESIGN §7 sets for results that went through trigonometry.
public let trigTolerance = 1e-6

/// The failure message: what was found, what was expected, and the caller's note.
func mismatch<A, E>(_ actual: A, _ expected: E, _ tolerance: Double, _ comment: Comment?) -> Comment {
    let note = comment.map { " — \($0.rawValue)" } ?? ""
    return Comment(rawValue: "\(String(describing: actual)) ≠ \(expected) ± \(tolerance)\(note)")
}

/// Expects `actual` within `tolerance` of `expected`.
public func expectApprox(
    _ actual: Double, _ expected: Double, tolerance: Double = trigTolerance, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(abs(actual - expected) <= tolerance, mismatch(actual, expected, tolerance, comment),
            sourceLocation: sourceLocation)
}

/// Expects `actual` within `tolerance` of `expected` in every component.
public func expectApprox<T: ApproximatelyEquatable>(
    _ actual: T, _ expected: T, tolerance: Double = trigTolerance, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.isApproximatelyEqual(to: expected, absoluteTolerance: tolerance),
            mismatch(actual, expected, tolerance, comment),
            sourceLocation: sourceLocation)
}

/// Expects a non-nil `actual` within `tolerance` of `expected` in every component.
public func expectApprox<T: ApproximatelyEquatable>(
    _ actual: T?, _ expected: T, tolerance: Double = trigTolerance, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let actual else {
        Issue.record(mismatch(nil as String?, expected, tolerance, comment), sourceLocation: sourceLocation)
        return
    }
    expectApprox(actual, expected, tolerance: tolerance, comment, sourceLocation: sourceLocation)
}

extension CGPoint {
    /// Shorthand for tests: `CGPoint(x, y)`.
    public init(_ x: Double, _ y: Double) { self.init(x: x, y: y) }
}

extension CGRect {
    /// Shorthand for tests: `CGRect(x, y, w, h)`.
    public init(_ x: Double, _ y: Double, _ width: Double, _ height: Double) {
        self.init(x: x, y: y, width: width, height: height)
    }
}

/// SplitMix64, seeded (`Fixtures.SplitMix`): random inputs are reproducible and a failure can be replayed.
public typealias SeededGenerator = SplitMix
