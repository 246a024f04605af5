import Foundation
import Origami
import Testing

/// Timing functions (CAMediaTimingFunction): Apple's documented control points and the unit-Bézier solver.
@Suite("Time: timing functions")
struct TimeTimingFunctionTests {
    @Test("the named functions have Apple's documented control points")
    func namedControlPoints() throws {
        // CAMediaTimingFunction, "Predefined Timing Functions": linear (0,0)(1,1); easeIn (0.42,0)(1,1);
        // easeOut (0,0)(0.58,1); easeInEaseOut (0.42,0)(0.58,1); default (0.25,0.1)(0.25,1).
        let expected: [String: (Double, Double, Double, Double)] = [
            "linear": (0, 0, 1, 1), "easeIn": (0.42, 0, 1, 1), "easeOut": (0, 0, 0.58, 1),
            "easeInEaseOut": (0.42, 0, 0.58, 1), "default": (0.25, 0.1, 0.25, 1),
        ]
        #expect(Set(TimingFunction.names) == Set(expected.keys))
        for (name, points) in expected {
            let f = try #require(TimingFunction(name: name))
            #expect(f.controlPoints == points, "\(name)")
        }
        #expect(TimingFunction(name: "easeInOut") == nil)
        #expect(TimingFunction.default == TimingFunction(controlPoints: 0.25, 0.1, 0.25, 1))
    }

    /// Points of each curve in parametric form, B(s) = 3(1−s)²s·P1 + 3(1−s)s²·P2 + s³, worked by hand:
    /// at s = ½ the weights are 0.375, 0.375, 0.125; at s = ¼ they are 0.421875, 0.140625, 0.015625.
    /// The function must return y(s) at x(s): a check of the solver to 1e-7 with no numbers taken from it.
    @Test("each named function passes through its curve's points at s = ¼ and ½", arguments: [
        // (function, x, y)
        (TimingFunction.linear, 0.25, 0.25), (.linear, 0.5, 0.5),
        // easeIn: s ½ → x 0.375·0.42 + 0.375 + 0.125 = 0.6575, y 0.5; s ¼ → x 0.421875·0.42 + 0.15625 = 0.3334375, y 0.15625.
        (.easeIn, 0.6575, 0.5), (.easeIn, 0.3334375, 0.15625),
        // easeOut: s ½ → x 0.375·0.58 + 0.125 = 0.3425, y 0.5; s ¼ → x 0.140625·0.58 + 0.015625 = 0.0971875,
        // y 0.140625 + 0.015625 = 0.15625.
        (.easeOut, 0.3425, 0.5), (.easeOut, 0.0971875, 0.15625),
        // easeInEaseOut: s ½ → (0.5, 0.5); s ¼ → x 0.421875·0.42 + 0.140625·0.58 + 0.015625 = 0.274375, y 0.15625.
        (.easeInEaseOut, 0.5, 0.5), (.easeInEaseOut, 0.274375, 0.15625),
        // default: s ½ → x 0.375·0.25·2 + 0.125 = 0.3125, y 0.375·0.1 + 0.375 + 0.125 = 0.5375;
        // s ¼ → x (0.421875 + 0.140625)·0.25 + 0.015625 = 0.15625, y 0.0421875 + 0.140625 + 0.015625 = 0.1984375.
        (.default, 0.3125, 0.5375), (.default, 0.15625, 0.1984375),
    ])
    func curvePoints(function: TimingFunction, x: Double, y: Double) {
        #expect(abs(function.value(at: x) - y) < 1e-7, "\(function) at \(x)")
    }

    /// Chromium's `ui/gfx/geometry/cubic_bezier_unittest.cc`, `CubicBezierTest.Basic`: CubicBezier(0.25, 0, 0.75, 1)
    /// solved at these x, to their epsilon 0.00015.
    @Test("Chromium's published values for cubic-bezier(0.25, 0, 0.75, 1)", arguments: [
        (0.0, 0.0), (0.05, 0.01136), (0.1, 0.03978), (0.15, 0.079780), (0.2, 0.12803), (0.25, 0.18235),
        (0.3, 0.24115), (0.35, 0.30323), (0.4, 0.36761), (0.45, 0.43345), (0.5, 0.5), (0.6, 0.63238),
        (0.65, 0.69676), (0.7, 0.75884), (0.75, 0.81764), (0.8, 0.87196), (0.85, 0.92021), (0.9, 0.96021),
        (0.95, 0.98863), (1, 1),
    ])
    func chromiumBasic(x: Double, y: Double) {
        #expect(abs(TimingFunction(controlPoints: 0.25, 0, 0.75, 1).value(at: x) - y) < 0.00015)
    }

    @Test("ends exact, x clamped, overshooting y allowed, NaN handled")
    func specials() {
        let overshoot = TimingFunction(controlPoints: 0.3, 1.5, 0.7, 1.5)
        // s = ½: x = 0.375·(0.3 + 0.7) + 0.125 = 0.5, y = 0.375·3 + 0.125 = 1.25.
        #expect(abs(overshoot.value(at: 0.5) - 1.25) < 1e-7)
        for f in [TimingFunction.easeIn, .default, overshoot] {
            #expect(f.value(at: 0) == 0 && f.value(at: 1) == 1)
            #expect(f.value(at: -3) == 0 && f.value(at: 7) == 1 && f.value(at: .nan) == 0)
        }
        // Control x outside 0…1 is clamped: (2, 0, −1, 1) becomes (1, 0, 0, 1), symmetric about the centre.
        #expect(TimingFunction(controlPoints: 2, 0, -1, 1).controlPoints == (1, 0, 0, 1))
        #expect(abs(TimingFunction(controlPoints: 2, 0, -1, 1).value(at: 0.5) - 0.5) < 1e-7)
        // A curve with flat spots at both ends (0, 0)…(1, 1) still converges everywhere.
        let steep = TimingFunction(controlPoints: 1, 0, 0, 1)
        var last = 0.0
        for i in 1...99 {
            let v = steep.value(at: Double(i) / 100)
            #expect(v >= last)
            last = v
        }
    }
}
