import Foundation
import Origami
import Testing
import TestSupport

/// `ApproximatelyEquatable` on Foundation's geometry: every component within the tolerance, the bound included
/// (as for `Double`). Differences of 0.5 and 0.25 are exact in binary, so the boundary cases are exact too.
@Suite("Approximate equality: CGPoint, CGSize, CGRect")
struct ApproximateGeometryTests {
    @Test("a point is near another when both x and y are")
    func points() {
        let p = CGPoint(1, 2)
        #expect(p.isApproximatelyEqual(to: CGPoint(1.5, 2), absoluteTolerance: 0.5))
        #expect(p.isApproximatelyEqual(to: CGPoint(1, 1.5), absoluteTolerance: 0.5))
        #expect(p.isApproximatelyEqual(to: CGPoint(0.75, 2.25), absoluteTolerance: 0.25))
        #expect(!p.isApproximatelyEqual(to: CGPoint(1.5, 2), absoluteTolerance: 0.25))
        #expect(!p.isApproximatelyEqual(to: CGPoint(1, 2.5), absoluteTolerance: 0.25))
    }

    @Test("the default tolerance is 1e-9")
    func defaultTolerance() {
        #expect(CGPoint.zero.isApproximatelyEqual(to: CGPoint(0, 1e-10)))
        #expect(!CGPoint.zero.isApproximatelyEqual(to: CGPoint(0, 1e-8)))
    }

    @Test("a size is near another when both width and height are")
    func sizes() {
        let s = CGSize(width: 10, height: 20)
        #expect(s.isApproximatelyEqual(to: CGSize(width: 10.5, height: 19.5), absoluteTolerance: 0.5))
        #expect(!s.isApproximatelyEqual(to: CGSize(width: 10.5, height: 20), absoluteTolerance: 0.25))
        #expect(!s.isApproximatelyEqual(to: CGSize(width: 10, height: 19.5), absoluteTolerance: 0.25))
    }

    @Test("a rect is near another when its origin and its size are, as stored")
    func rects() {
        let r = CGRect(10, 20, 30, 40)
        #expect(r.isApproximatelyEqual(to: CGRect(10.25, 19.75, 30.25, 39.75), absoluteTolerance: 0.25))
        #expect(!r.isApproximatelyEqual(to: CGRect(10.5, 20, 30, 40), absoluteTolerance: 0.25), "x")
        #expect(!r.isApproximatelyEqual(to: CGRect(10, 20.5, 30, 40), absoluteTolerance: 0.25), "y")
        #expect(!r.isApproximatelyEqual(to: CGRect(10, 20, 30.5, 40), absoluteTolerance: 0.25), "width")
        #expect(!r.isApproximatelyEqual(to: CGRect(10, 20, 30, 40.5), absoluteTolerance: 0.25), "height")
        // The same area written with a negative size is a different rect: no standardizing.
        #expect(!CGRect(40, 60, -30, -40).isApproximatelyEqual(to: r, absoluteTolerance: 0.25))
    }

    @Test("NaN is near nothing, not even itself")
    func nan() {
        let p = CGPoint(x: Double.nan, y: 0)
        #expect(!p.isApproximatelyEqual(to: p, absoluteTolerance: 1))
        #expect(!CGSize(width: 0, height: Double.nan).isApproximatelyEqual(to: .zero, absoluteTolerance: .infinity))
        #expect(!CGRect(0, 0, Double.nan, 0).isApproximatelyEqual(to: .zero, absoluteTolerance: 1))
    }
}
