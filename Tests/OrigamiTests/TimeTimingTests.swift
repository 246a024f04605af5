import Foundation
import Origami
import Testing

/// Core Animation's timing model (CAMediaTiming): local times, convertTime, and where an animation is at a time.
/// Every expected value is derived by hand from `local = (t − beginTime) · speed + timeOffset` (Apple's
/// CAMediaTiming documentation) and the rules documented on `MediaTiming` and `Animation`.
@Suite("Time: the timing model")
struct TimeTimingTests {
    /// The presented x of `layer` (a root) at scene time `t`.
    static func x(_ layer: Layer, at t: Double) -> Double { Double(PresentationTree(layer, time: t)[0].geometry.position.x) }

    /// A root layer at x = 7 (the model value) with one `position.x` animation 100 → 200.
    static func layer(_ configure: (BasicAnimation) -> Void) -> Layer {
        let layer = Layer(name: "moving")
        layer.position = CGPoint(x: 7, y: 0)
        let a = BasicAnimation(keyPath: "position.x")
        a.fromValue = 100; a.toValue = 200
        configure(a)
        layer.add(a, forKey: "move")
        return layer
    }

    @Test("Apple's defaults for MediaTiming")
    func defaults() {
        for timed in [Layer() as any MediaTiming, BasicAnimation(keyPath: "opacity")] {
            #expect(timed.beginTime == 0 && timed.timeOffset == 0 && timed.speed == 1 && timed.duration == 0)
            #expect(timed.repeatCount == 0 && timed.repeatDuration == 0 && !timed.autoreverses && timed.fillMode == .removed)
        }
        let a = Animation()
        #expect(a.isRemovedOnCompletion && a.timingFunction == nil)
    }

    /// A (speed 2, begin 1, offset 0.5) ⊃ B (speed 3, begin 2, offset −1) ⊃ C (speed 0.5, begin 0, offset 4), and D
    /// (speed 4) beside B. Scene time 5: A = (5 − 1)·2 + 0.5 = 8.5; B = (8.5 − 2)·3 − 1 = 18.5; C = 18.5·0.5 + 4 =
    /// 13.25; D = 8.5·4 = 34.
    @Test("convertTime through three levels with speeds and offsets, and across branches")
    func convertTimeThreeLevels() throws {
        let a = Layer(name: "A"), b = Layer(name: "B"), c = Layer(name: "C"), d = Layer(name: "D")
        (a.speed, a.beginTime, a.timeOffset) = (2, 1, 0.5)
        (b.speed, b.beginTime, b.timeOffset) = (3, 2, -1)
        (c.speed, c.beginTime, c.timeOffset) = (0.5, 0, 4)
        d.speed = 4
        try a.addSublayer(b); try b.addSublayer(c); try a.addSublayer(d)
        #expect(abs(c.convertTime(5, from: nil) - 13.25) < 1e-12)
        #expect(abs(a.convertTime(13.25, from: c) - 8.5) < 1e-12)
        #expect(abs(c.convertTime(8.5, from: a) - 13.25) < 1e-12)
        #expect(abs(c.convertTime(13.25, to: nil) - 5) < 1e-12)
        #expect(abs(b.convertTime(18.5, to: a) - 8.5) < 1e-12)
        #expect(abs(d.convertTime(13.25, from: c) - 34) < 1e-12)
        #expect(abs(c.convertTime(34, from: d) - 13.25) < 1e-12)
        #expect(c.convertTime(3, from: c) == 3)
        // Another tree meets this one at the roots' parent time (one clock): E (speed 3) at its time 15 is scene
        // time 5, which is C's 13.25.
        let e = Layer(name: "E")
        e.speed = 3
        #expect(abs(c.convertTime(15, from: e) - 13.25) < 1e-12)
        #expect(abs(e.convertTime(13.25, from: c) - 15) < 1e-12)
    }

    /// Seed 002: a layer of speed 2 inside a layer of speed 2 runs four times as fast as the scene.
    @Test("speeds multiply down the tree (seed 002: 2 × 2 = 4×)")
    func speedsMultiply() throws {
        let outer = Layer(), inner = Layer()
        outer.speed = 2; inner.speed = 2
        try outer.addSublayer(inner)
        #expect(inner.convertTime(1, from: nil) == 4)
        // The same in a presentation: an animation 0 → 100 over 4 s on the inner layer is at 100 · (4·0.5)/4 = 50
        // at scene time 0.5.
        let a = BasicAnimation(keyPath: "position.x")
        a.fromValue = 0; a.toValue = 100; a.duration = 4
        inner.add(a, forKey: nil)
        #expect(abs(Double(PresentationTree(outer, time: 0.5)[1].geometry.position.x) - 50) < 1e-9)
    }

    // The animation runs from layer time 1 to 3 (duration 2): before, at the start, half-way, at the end, after.
    @Test("before, during, at the boundaries and after, for each fill mode", arguments: [
        // (fill mode, removed on completion, [t: expected x])
        (FillMode.removed, true, [0.5: 7.0, 1: 100, 2: 150, 2.999: 199.95, 3: 7, 4: 7]),
        (.backwards, true, [0.5: 100, 1: 100, 2: 150, 3: 7, 4: 7]),
        (.forwards, true, [0.5: 7, 1: 100, 2: 150, 3: 7, 4: 7]),  // removed on completion: no forward fill
        (.forwards, false, [0.5: 7, 1: 100, 2: 150, 3: 200, 4: 200]),
        (.both, false, [0.5: 100, 1: 100, 2: 150, 3: 200, 4: 200]),
        (.both, true, [0.5: 100, 1: 100, 2: 150, 3: 7, 4: 7]),
    ])
    func fillModes(fill: FillMode, removed: Bool, expected: [Double: Double]) {
        let layer = Self.layer { a in
            a.beginTime = 1; a.duration = 2; a.fillMode = fill; a.isRemovedOnCompletion = removed
        }
        for (t, x) in expected { #expect(abs(Self.x(layer, at: t) - x) < 1e-9, "t = \(t)") }
    }

    @Test("the model is unchanged, and a tree without a time shows the model")
    func modelUnchanged() {
        let layer = Self.layer { $0.duration = 2 }
        #expect(Self.x(layer, at: 1) == 150)
        #expect(layer.position.x == 7)
        #expect(PresentationTree(layer)[0].geometry.position.x == 7)
    }

    @Test("duration 0 is Apple's 0.25 s")
    func defaultDuration() {
        let layer = Self.layer { $0.fillMode = .forwards; $0.isRemovedOnCompletion = false }
        #expect(abs(Self.x(layer, at: 0.125) - 150) < 1e-9)
        #expect(Self.x(layer, at: 0.25) == 200)
    }

    /// Duration 2, forwards fill kept: cycles of 2 s; x = 100 + 100 · (time within the cycle) / 2.
    @Test("repeats: whole, fractional, infinite, by duration, and both set (the shorter wins)", arguments: [
        // (repeatCount, repeatDuration, [t: x])
        (2.5, 0.0, [1: 150.0, 2.5: 125, 4.5: 125, 5: 150, 6: 150]),  // ends half-way through the third cycle
        (2, 0, [3.5: 175, 4: 200]),                                    // the end is the last cycle's end, not 100
        (.infinity, 0, [101: 150, 1_000_000.5: 125]),
        (0, 3, [2.5: 125, 3: 150, 9: 150]),
        (3, 1, [0.5: 125, 1: 150, 2: 150]),                             // min(3 · 2, 1) = 1
    ])
    func repeats(count: Double, repeatDuration: Double, expected: [Double: Double]) {
        let layer = Self.layer { a in
            a.duration = 2; a.repeatCount = count; a.repeatDuration = repeatDuration
            a.fillMode = .forwards; a.isRemovedOnCompletion = false
        }
        for (t, x) in expected { #expect(abs(Self.x(layer, at: t) - x) < 1e-6, "t = \(t)") }
    }

    /// Autoreverse: one cycle is forward (2 s) then back (2 s), and a repeat counts the whole cycle.
    @Test("autoreverses: a cycle is forward and back, repeatCount counts cycles")
    func autoreverses() {
        let layer = Self.layer { a in
            a.duration = 2; a.autoreverses = true; a.repeatCount = 1.5
            a.fillMode = .forwards; a.isRemovedOnCompletion = false
        }
        // 0…2 forward, 2…4 back, 4…6 forward again (half a cycle), ending at the top.
        for (t, x) in [1.0: 150.0, 2: 200, 3: 150, 3.999: 100.05, 4.5: 125, 6: 200, 7: 200] {
            #expect(abs(Self.x(layer, at: t) - x) < 1e-9, "t = \(t)")
        }
        // A whole number of cycles ends where it started.
        let whole = Self.layer { a in
            a.duration = 2; a.autoreverses = true; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        }
        #expect(abs(Self.x(whole, at: 4) - 100) < 1e-9)
    }

    @Test("an animation's timeOffset starts part-way and wraps round; its speed scales its time")
    func offsetAndSpeed() {
        let offset = Self.layer { a in
            a.duration = 2; a.timeOffset = 1; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        }
        // Local time = active time + 1: t 0 → 1 (x 150); t 1.5 → 2.5, the second cycle's 0.5 (125); the end at t 2 → 3.
        for (t, x) in [0.0: 150.0, 0.5: 175, 1.5: 125, 2: 150] { #expect(abs(Self.x(offset, at: t) - x) < 1e-9, "t = \(t)") }
        let fast = Self.layer { $0.duration = 2; $0.speed = 2 }
        #expect(abs(Self.x(fast, at: 0.5) - 150) < 1e-9)   // active time 1
        #expect(Self.x(fast, at: 1) == 7)                   // ended at parent time 2 / 2
        // The layer's speed too: layer time runs at 2, so scene time 0.5 is layer time 1.
        let layer = Self.layer { $0.duration = 2 }
        layer.speed = 2
        #expect(abs(Self.x(layer, at: 0.5) - 150) < 1e-9)
    }

    @Test("speed 0 holds the animation at its time offset; a negative speed plays it backwards")
    func stoppedAndReversed() {
        let stopped = Self.layer { $0.duration = 2; $0.speed = 0; $0.timeOffset = 1 }
        for t in [0.0, 5, 1000] { #expect(abs(Self.x(stopped, at: t) - 150) < 1e-9, "t = \(t)") }
        #expect(Self.x(stopped, at: -1) == 7)  // before the begin, no backwards fill
        let reversed = Self.layer { a in
            a.duration = 2; a.speed = -1; a.fillMode = .both; a.isRemovedOnCompletion = false
        }
        // Active time 2 − t: 0.5 → 1.5 (175); before the begin the end (200); after, the start (100).
        for (t, x) in [0.5: 175.0, 1.5: 125, -1: 200, 3: 100] { #expect(abs(Self.x(reversed, at: t) - x) < 1e-9, "t = \(t)") }
    }

    @Test("a timing function paces the animation")
    func timingFunction() {
        // easeIn's curve at s = 0.5 is x = 0.375·0.42 + 0.375·1 + 0.125 = 0.6575, y = 0.375·0 + 0.375·1 + 0.125 = 0.5
        // (B(s) = 3(1−s)²s·P1 + 3(1−s)s²·P2 + s³): at 0.6575 of 2 s the animation is half-way, x = 150.
        let layer = Self.layer { $0.duration = 2; $0.timingFunction = .easeIn }
        #expect(abs(Self.x(layer, at: 1.315) - 150) < 1e-6)
        #expect(Self.x(layer, at: 1) < 150)
    }

    @Test("animationEndTime in the parent's time; one cycle for infinite repeats; nil without animations")
    func animationEndTime() throws {
        let root = Layer(), child = Layer()
        try root.addSublayer(child)
        #expect(root.animationEndTime() == nil)
        root.speed = 2
        // On the child: begin 1, 3 s × 2 repeats → child time 7 = root time 7 → scene time 7 / 2 = 3.5.
        let a = BasicAnimation(keyPath: "opacity")
        a.beginTime = 1; a.duration = 3; a.repeatCount = 2
        child.add(a, forKey: "a")
        #expect(root.animationEndTime() == 3.5)
        #expect(child.animationEndTime() == 7)
        // An infinite one counts one cycle: 2 s autoreversing = 4 s → root time 4 → scene 2 (earlier than 3.5).
        let b = BasicAnimation(keyPath: "opacity")
        b.duration = 2; b.autoreverses = true; b.repeatCount = .infinity
        root.add(b, forKey: "b")
        #expect(root.animationEndTime() == 3.5)
        b.duration = 5
        root.add(b, forKey: "b")
        #expect(root.animationEndTime() == 5)  // 10 s of root time at speed 2
    }
}
