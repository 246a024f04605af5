import Foundation
import Origami
import Testing

/// No input to the timing model crashes or hangs: non-finite times and timings, cycles, absurd counts.
@Suite("Time: hostile timing")
struct TimeHostileTests {
    static func layer(_ configure: (BasicAnimation) -> Void) -> Layer {
        let layer = Layer()
        layer.position = CGPoint(x: 7, y: 0)
        let a = BasicAnimation(keyPath: "position.x")
        a.fromValue = 0; a.toValue = 10; a.duration = 1
        configure(a)
        layer.add(a, forKey: "a")
        return layer
    }

    static func x(_ layer: Layer, at t: Double) -> Double { Double(PresentationTree(layer, time: t)[0].geometry.position.x) }

    @Test("non-finite scene times show the model")
    func nonFiniteTimes() {
        let layer = Self.layer { _ in }
        for t in [Double.nan, .infinity, -.infinity] { #expect(Self.x(layer, at: t) == 7, "t = \(t)") }
    }

    @Test("non-finite or absurd timing values have no effect or a defined one, never a trap", arguments: [
        "duration NaN", "duration ∞", "speed ∞", "speed NaN", "beginTime NaN", "offset 1e300", "repeat NaN",
        "repeat 1e300 cumulative", "repeatDuration ∞",
    ])
    func absurdTiming(which: String) {
        let layer = Self.layer { a in
            switch which {
            case "duration NaN": a.duration = .nan
            case "duration ∞": a.duration = .infinity
            case "speed ∞": a.speed = .infinity
            case "speed NaN": a.speed = .nan
            case "beginTime NaN": a.beginTime = .nan
            case "offset 1e300": a.timeOffset = 1e300
            case "repeat NaN": a.repeatCount = .nan
            case "repeat 1e300 cumulative": a.repeatCount = 1e300; a.isCumulative = true
            default: a.repeatDuration = .infinity
            }
        }
        for t in [0.0, 0.1, 5, 1e12] {
            let x = Self.x(layer, at: t)
            #expect(!x.isNaN || which.contains("NaN"), "\(which) at \(t)")
        }
        // Named outcomes: a NaN duration is Apple's 0.25 s; an infinite one never leaves its start.
        if which == "duration NaN" { #expect(Self.x(layer, at: 0.125) == 5) }
        if which == "duration ∞" { #expect(Self.x(layer, at: 1e12) == 0) }
        if which == "speed ∞" || which == "speed NaN" || which == "beginTime NaN" { #expect(Self.x(layer, at: 0.5) == 7) }
    }

    @Test("a group that contains itself is copied as a finite tree and applies once")
    func groupCycle() throws {
        let group = AnimationGroup()
        group.duration = 1
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0; move.toValue = 10; move.duration = 1
        group.animations = [move, group]
        let layer = Layer()
        layer.add(group, forKey: "g")
        let stored = try #require(layer.animation(forKey: "g") as? AnimationGroup)
        #expect(stored.animations.count == 1)
        #expect(abs(Self.x(layer, at: 0.5) - 5) < 1e-12)
        // Nesting beyond the limit is cut off, not recursed into without end.
        var deep = AnimationGroup()
        for _ in 0..<10_000 {
            let outer = AnimationGroup()
            outer.animations = [deep]
            deep = outer
        }
        layer.add(deep, forKey: "deep")
        #expect(Self.x(layer, at: 0.5) == 5)
    }

    @Test("a keyframe animation with no values, or values of mixed kinds, has no effect")
    func badKeyframes() {
        let layer = Layer()
        layer.position = CGPoint(x: 7, y: 0)
        let empty = KeyframeAnimation(keyPath: "position.x")
        empty.duration = 1
        let mixed = KeyframeAnimation(keyPath: "position.x")
        mixed.values = [0, .point(.zero)]; mixed.duration = 1
        layer.add(empty, forKey: "empty"); layer.add(mixed, forKey: "mixed")
        #expect(Self.x(layer, at: 0.5) == 7)
    }
}
