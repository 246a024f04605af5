import Foundation

/// A cubic Bézier easing from (0, 0) to (1, 1) through two control points: the progress of an animation
/// (y) at each fraction of its duration (x). Corresponds to `CAMediaTimingFunction`.
///
/// The curve is solved as a unit Bézier, as WebKit's `UnitBezier.h` and Chromium's `gfx::CubicBezier` do: x(s)
/// is inverted by Newton's method, falling back to bisection, to 1e-9 in x; y(s) then follows. Control-point x
/// values are clamped to 0…1 (outside it x(s) would not be a function of time); y values may leave 0…1 for
/// an overshoot.
public struct TimingFunction: Hashable, Sendable {
    /// The control points P1 = (c1x, c1y) and P2 = (c2x, c2y) of the Bézier from (0, 0) to (1, 1); x values are
    /// clamped to 0…1.
    public let c1x: Double, c1y: Double, c2x: Double, c2y: Double

    /// Corresponds to `+[CAMediaTimingFunction functionWithControlPoints::::]`.
    public init(controlPoints c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
        func clampX(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }
        func finiteY(_ y: Double) -> Double { y.isFinite ? y : 0 }
        self.c1x = clampX(c1x); self.c1y = finiteY(c1y); self.c2x = clampX(c2x); self.c2y = finiteY(c2y)
    }

    /// The control points `(c1x, c1y, c2x, c2y)`. Corresponds to `-getControlPointAtIndex:values:` for 1 and 2.
    public var controlPoints: (Double, Double, Double, Double) { (c1x, c1y, c2x, c2y) }

    // Apple's documented control points (CAMediaTimingFunctionName).
    /// `kCAMediaTimingFunctionLinear`: (0, 0), (1, 1).
    public static let linear = TimingFunction(controlPoints: 0, 0, 1, 1)
    /// `kCAMediaTimingFunctionEaseIn`: (0.42, 0), (1, 1).
    public static let easeIn = TimingFunction(controlPoints: 0.42, 0, 1, 1)
    /// `kCAMediaTimingFunctionEaseOut`: (0, 0), (0.58, 1).
    public static let easeOut = TimingFunction(controlPoints: 0, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionEaseInEaseOut`: (0.42, 0), (0.58, 1).
    public static let easeInEaseOut = TimingFunction(controlPoints: 0.42, 0, 0.58, 1)
    /// `kCAMediaTimingFunctionDefault`: (0.25, 0.1), (0.25, 1) — CSS's `ease`.
    public static let `default` = TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)

    private static let byName: [(String, TimingFunction)] = [
        ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInEaseOut", .easeInEaseOut),
        ("default", .default),
    ]

    /// The named functions' names, as `init(name:)` takes them (Apple's constant names without the prefix).
    public static var names: [String] { byName.map(\.0) }

    /// A named function; `nil` for a name not in `names`. Corresponds to `+functionWithName:`.
    public init?(name: String) {
        guard let f = Self.byName.first(where: { $0.0 == name }) else { return nil }
        self = f.1
    }

    /// The progress at fraction `x` of the duration; x is clamped to 0…1 (the curve's end points are exact).
    public func value(at x: Double) -> Double {
        guard !x.isNaN else { return 0 }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if c1x == c1y && c2x == c2y { return x }   // on the diagonal: linear
        return sampleY(solveS(forX: x))
    }

    // The curve's polynomial coefficients (WebKit's UnitBezier): x(s) = ((ax·s + bx)·s + cx)·s.
    private var xCoefficients: (Double, Double, Double) {
        let cx = 3 * c1x, bx = 3 * (c2x - c1x) - cx
        return (1 - cx - bx, bx, cx)
    }

    private func sampleX(_ s: Double) -> Double {
        let (a, b, c) = xCoefficients
        return ((a * s + b) * s + c) * s
    }

    private func sampleY(_ s: Double) -> Double {
        let cy = 3 * c1y, by = 3 * (c2y - c1y) - cy, ay = 1 - cy - by
        return ((ay * s + by) * s + cy) * s
    }

    /// The parameter s with x(s) = x. x(s) is monotonic on 0…1 (control x in 0…1), so bisection always converges;
    /// Newton's method usually gets there first.
    private func solveS(forX x: Double) -> Double {
        let (a, b, c) = xCoefficients
        let epsilon = 1e-12
        var s = x
        for _ in 0..<8 {
            let error = ((a * s + b) * s + c) * s - x
            if abs(error) < epsilon { return s }
            let slope = (3 * a * s + 2 * b) * s + c
            if abs(slope) < 1e-9 { break }
            s -= error / slope
            if !(0...1).contains(s) { break }   // left the monotonic part: bisect instead
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<100 {
            let value = sampleX(s)
            if abs(value - x) < epsilon { return s }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}

extension TimingFunction: CustomStringConvertible {
    public var description: String {
        if let name = Self.byName.first(where: { $0.1 == self })?.0 { return name }
        return "cubicBezier(\(c1x), \(c1y), \(c2x), \(c2y))"
    }
}
