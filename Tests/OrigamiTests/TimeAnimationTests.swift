import Foundation
import Origami
import Testing

/// Basic, keyframe and group animations as the presentation tree applies them. Expected values by hand from
/// Apple's CABasicAnimation / CAKeyframeAnimation / CAAnimationGroup documentation (the rules are restated on the
/// Origami types).
@Suite("Time: animations")
struct TimeAnimationTests {
    static func node(_ layer: Layer, at t: Double) -> PresentationTree.Node { PresentationTree(layer, time: t)[0] }
    static func x(_ layer: Layer, at t: Double) -> Double { Double(node(layer, at: t).geometry.position.x) }

    /// A root at x = 7.
    static func model() -> Layer {
        let layer = Layer(name: "model")
        layer.position = CGPoint(x: 7, y: 3)
        return layer
    }

    static func basic(_ path: String = "position.x", from: AnimationValue? = nil, to: AnimationValue? = nil,
                      by: AnimationValue? = nil, duration: Double = 2) -> BasicAnimation {
        let a = BasicAnimation(keyPath: path)
        a.fromValue = from; a.toValue = to; a.byValue = by; a.duration = duration
        return a
    }

    // MARK: Basic

    /// Half-way (t = 1 of 2 s) with the model at 7, for every combination in Apple's table.
    @Test("from/to/by: every combination of Apple's table", arguments: [
        // (from, to, by, expected half-way)
        (100.0 as Double?, 200.0 as Double?, nil as Double?, 150.0),  // from → to
        (100, nil, 50, 125),     // from → from + by = 150
        (nil, 200, 50, 175),     // to − by = 150 → to
        (100, nil, nil, 53.5),   // from → the current value 7
        (nil, 200, nil, 103.5),  // 7 → to
        (nil, nil, 50, 32),      // 7 → 57
        (nil, nil, nil, 7),      // the previous value → the current one: both 7 here
        (100, 200, 50, 150),     // from and to set: by is ignored
    ])
    func fromToBy(from: Double?, to: Double?, by: Double?, expected: Double) {
        let layer = Self.model()
        layer.add(Self.basic(from: from.map(AnimationValue.number), to: to.map(AnimationValue.number),
                             by: by.map(AnimationValue.number)), forKey: "a")
        #expect(abs(Self.x(layer, at: 1) - expected) < 1e-9)
    }

    @Test("additive adds to the value it finds; several stack in the order added; a later plain one replaces")
    func additive() {
        let layer = Self.model()
        let a = Self.basic(from: 0, to: 10)
        a.isAdditive = true
        layer.add(a, forKey: "a")
        #expect(abs(Self.x(layer, at: 1) - 12) < 1e-9)           // 7 + 5
        let b = Self.basic(from: 0, to: 20)
        b.isAdditive = true
        layer.add(b, forKey: "b")
        #expect(abs(Self.x(layer, at: 1) - 22) < 1e-9)           // 7 + 5 + 10
        // Not additive, with only `to`: from the value it finds (22 half-way… at t = 1) towards 100.
        layer.add(Self.basic(to: 100), forKey: "c")
        #expect(abs(Self.x(layer, at: 1) - 61) < 1e-9)           // 22 + (100 − 22) / 2
        layer.removeAnimation(forKey: "c")
        #expect(abs(Self.x(layer, at: 1) - 22) < 1e-9)
    }

    @Test("cumulative: each cycle adds the end value of the previous ones")
    func cumulative() {
        let layer = Self.model()
        let a = Self.basic(from: 0, to: 10, duration: 1)
        a.repeatCount = 3; a.isCumulative = true; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        layer.add(a, forKey: "a")
        // Cycle i shows its value + i·10 (Apple: "the value at the end of the previous repeat cycle, plus the value of
        // the current repeat cycle").
        for (t, x) in [0.5: 5.0, 1.5: 15, 2.5: 25, 3: 30, 9: 30] { #expect(abs(Self.x(layer, at: t) - x) < 1e-9, "t = \(t)") }
    }

    @Test("removedOnCompletion: a forwards fill keeps the end only when it is false (the classic gotcha)")
    func removedOnCompletion() {
        let layer = Self.model()
        let a = Self.basic(to: 50, duration: 1)
        a.fillMode = .forwards
        layer.add(a, forKey: "a")
        #expect(Self.x(layer, at: 2) == 7)
        a.isRemovedOnCompletion = false          // the layer holds a copy: this changes nothing…
        #expect(Self.x(layer, at: 2) == 7)
        layer.add(a, forKey: "a")                // …until it is added again
        #expect(Self.x(layer, at: 2) == 50)
    }

    @Test("the layer keeps a copy; keys in the order added; the same key replaces; a nil key is unlisted")
    func animationList() throws {
        let layer = Self.model()
        let a = Self.basic(from: 0, to: 10)
        layer.add(a, forKey: "one")
        layer.add(Self.basic(from: 0, to: 20), forKey: "two")
        layer.add(Self.basic(from: 0, to: 30), forKey: nil)
        #expect(layer.animationKeys() == ["one", "two"])
        a.toValue = 1000
        let stored = try #require(layer.animation(forKey: "one") as? BasicAnimation)
        #expect(stored.toValue == 10 && stored !== a)
        layer.add(Self.basic(from: 0, to: 40), forKey: "one")
        #expect(layer.animationKeys() == ["two", "one"])
        #expect((layer.animation(forKey: "one") as? BasicAnimation)?.toValue == 40)
        layer.removeAnimation(forKey: "two")
        #expect(layer.animationKeys() == ["one"])
        layer.removeAllAnimations()
        #expect(layer.animationKeys().isEmpty && Self.x(layer, at: 1) == 7)
        // A group's copy is deep.
        let group = AnimationGroup()
        group.animations = [a]
        layer.add(group, forKey: "g")
        let storedGroup = try #require(layer.animation(forKey: "g") as? AnimationGroup)
        #expect(storedGroup.animations.first !== a)
    }

    // MARK: Keyframes

    /// values 0, 10, 30 over 4 s on position.x.
    static func keyframes(_ configure: (KeyframeAnimation) -> Void) -> Layer {
        let layer = model()
        let k = KeyframeAnimation(keyPath: "position.x")
        k.values = [0, 10, 30]; k.duration = 4
        configure(k)
        layer.add(k, forKey: "k")
        return layer
    }

    @Test("keyframes: linear with even key times, given key times, invalid key times ignored", arguments: [
        // (keyTimes, [t: x]) — even: 0, ½, 1; t/4 is the fraction.
        (nil as [Double]?, [1.0: 5.0, 2: 10, 3: 20, 3.9: 29]),
        ([0, 0.25, 1], [1: 10, 2.5: 20]),              // ⅝ is ½ of the way from ¼ to 1: 10 + 20·½
        ([0, 0.8, 0.5], [1: 5, 3: 20]),                 // not ascending: even
        ([0, 1], [1: 5, 3: 20]),                        // wrong count: even
        ([0, 0.5, 1.5], [1: 5]),                        // outside 0…1: even
    ])
    func linearKeyframes(keyTimes: [Double]?, expected: [Double: Double]) {
        let layer = Self.keyframes { $0.keyTimes = keyTimes }
        for (t, x) in expected { #expect(abs(Self.x(layer, at: t) - x) < 1e-9, "t = \(t)") }
    }

    @Test("keyframes before, at the boundaries of and after the active time, with fill both")
    func keyframeBoundaries() {
        let layer = Self.keyframes { k in
            k.beginTime = 1; k.fillMode = .both; k.isRemovedOnCompletion = false
        }
        for (t, x) in [0.0: 0.0, 1: 0, 3: 10, 5: 30, 6: 30] { #expect(abs(Self.x(layer, at: t) - x) < 1e-9, "t = \(t)") }
        let removed = Self.keyframes { $0.beginTime = 1 }
        for (t, x) in [0.0: 7.0, 1: 0, 4.999: 29.99, 5: 7] { #expect(abs(Self.x(removed, at: t) - x) < 1e-9, "t = \(t)") }
    }

    @Test("keyframes: per-segment timing functions; a wrong count is ignored")
    func segmentTimingFunctions() {
        // Segment 0 (fraction 0…½) eased in: easeIn is half-way at x = 0.6575 (TimeTimingFunctionTests), i.e. at
        // fraction 0.6575 / 2 = 0.32875, t = 1.315: x = 5.
        let layer = Self.keyframes { $0.timingFunctions = [.easeIn, .linear] }
        #expect(abs(Self.x(layer, at: 1.315) - 5) < 1e-6)
        #expect(abs(Self.x(layer, at: 3) - 20) < 1e-9)   // segment 1 linear
        let ignored = Self.keyframes { $0.timingFunctions = [.easeIn] }
        #expect(abs(Self.x(ignored, at: 1) - 5) < 1e-9)
    }

    @Test("keyframes: discrete holds each value until the next key time")
    func discrete() {
        // No key times: n + 1 = 4 even ones, 0, ⅓, ⅔, 1.
        let even = Self.keyframes { $0.calculationMode = .discrete }
        for (t, x) in [0.0: 0.0, 1: 0, 1.4: 10, 2.6: 10, 2.7: 30, 3.99: 30] {
            #expect(Self.x(even, at: t) == x, "t = \(t)")
        }
        // Apple's n + 1 key times.
        let given = Self.keyframes { $0.calculationMode = .discrete; $0.keyTimes = [0, 0.1, 0.2, 1] }
        for (t, x) in [0.3: 0.0, 0.5: 10, 0.9: 30] { #expect(Self.x(given, at: t) == x, "t = \(t)") }
    }

    @Test("keyframes: paced moves at constant speed, ignoring key times and timing functions")
    func paced() {
        // Lengths 10 and 20: constant speed means x = 30 · fraction.
        let layer = Self.keyframes { k in
            k.calculationMode = .paced; k.keyTimes = [0, 0.9, 1]; k.timingFunctions = [.easeIn, .easeOut]
        }
        for t in [0.5, 1, 2, 3, 3.5] { #expect(abs(Self.x(layer, at: t) - 30 * t / 4) < 1e-9, "t = \(t)") }
        // Points: lengths 3-4-5 → 5 and 10 → key times 0, ⅓, 1.
        let points = Self.model()
        let k = KeyframeAnimation(keyPath: "position")
        k.values = [.point(.zero), .point(CGPoint(x: 3, y: 4)), .point(CGPoint(x: 3, y: 14))]
        k.calculationMode = .paced; k.duration = 3
        points.add(k, forKey: "k")
        let p = Self.node(points, at: 2).geometry.position     // fraction ⅔: 10 of 15 → 5 along the second segment
        #expect(abs(p.x - 3) < 1e-9 && abs(p.y - 9) < 1e-9)
    }

    @Test("keyframes: cubic is Catmull–Rom (Kochanek–Bartels, tension, continuity and bias 0)")
    func cubic() {
        // Keys 0, 10, 30 at 0, ½, 1. Tangents (end keys repeat themselves): m0 = (10 − 0)/2 = 5, m1 = (30 − 0)/2 = 15,
        // m2 = (30 − 10)/2 = 10; even spacing leaves them unscaled. Hermite at s = ½: h00 = h01 = ½, h10 = ⅛,
        // h11 = −⅛. Segment 0 at s ½ (t = 1): 0·½ + 5·⅛ + 10·½ − 15·⅛ = 3.75. Segment 1 at s ½ (t = 3):
        // 10·½ + 15·⅛ + 30·½ − 10·⅛ = 20.625. The keys themselves are passed through.
        let layer = Self.keyframes { k in
            k.calculationMode = .cubic; k.fillMode = .forwards; k.isRemovedOnCompletion = false
        }
        for (t, x) in [1.0: 3.75, 2: 10, 3: 20.625, 4: 30] { #expect(abs(Self.x(layer, at: t) - x) < 1e-9, "t = \(t)") }
    }

    // MARK: Groups

    @Test("a group's time is its children's parent time, and it clips them to its duration")
    func groups() {
        let layer = Self.model()
        let child = Self.basic(from: 0, to: 100, duration: 4)
        child.fillMode = .forwards; child.isRemovedOnCompletion = false
        let late = Self.basic("position.y", from: 0, to: 10, duration: 1)
        late.beginTime = 1                            // one second after the group begins
        let group = AnimationGroup()
        group.animations = [child, late]
        group.duration = 2; group.beginTime = 3
        layer.add(group, forKey: "g")
        #expect(Self.x(layer, at: 2) == 7)                          // before the group
        #expect(abs(Self.x(layer, at: 4) - 25) < 1e-9)              // group time 1 of the child's 4 s
        #expect(Self.node(layer, at: 3.5).geometry.position.y == 3)  // `late` not begun: the model y
        #expect(abs(Self.node(layer, at: 4.5).geometry.position.y - 5) < 1e-9)
        #expect(Self.x(layer, at: 5) == 7)                          // the group ended: the child goes with it
        group.fillMode = .forwards; group.isRemovedOnCompletion = false
        layer.add(group, forKey: "g")
        #expect(abs(Self.x(layer, at: 9) - 50) < 1e-9)              // frozen at group time 2: clipped half-way
        // A repeating group repeats its children.
        group.fillMode = .removed; group.repeatCount = 2
        layer.add(group, forKey: "g")
        #expect(abs(Self.x(layer, at: 5.5) - 12.5) < 1e-9)          // second cycle, group time 0.5
    }

    // MARK: Key paths

    @Test("every kind of key path reaches its property", arguments: [
        ("position", AnimationValue.point(CGPoint(x: 20, y: 40))),
        ("bounds", .rect(CGRect(x: 2, y: 4, width: 60, height: 80))),
        ("bounds.size", .size(CGSize(width: 60, height: 80))),
        ("anchorPoint", .point(CGPoint(x: 1, y: 0))),
        ("opacity", 0.0),
        ("backgroundColor", .color(.blue)),
        ("borderColor", .color(.red)),
        ("cornerRadius", 20.0),
    ])
    func keyPaths(path: String, to value: AnimationValue) throws {
        let layer = Self.model()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        layer.backgroundColor = .white
        let a = Self.basic(path, to: value, duration: 1)
        a.fillMode = .forwards; a.isRemovedOnCompletion = false
        layer.add(a, forKey: "a")
        let n = Self.node(layer, at: 1)
        let read: AnimationValue
        switch path {
        case "position": read = .point(n.geometry.position)
        case "bounds": read = .rect(n.geometry.bounds)
        case "bounds.size": read = .size(n.geometry.bounds.size)
        case "anchorPoint": read = .point(n.geometry.anchorPoint)
        case "opacity": read = .number(n.opacity)
        case "backgroundColor": read = .color(try #require(n.backgroundColor))
        case "borderColor": read = .color(n.borderColor)
        default: read = .number(n.cornerRadius)
        }
        #expect(read == value)
        #expect(try AnimationKeyPath(path).valueKind == value.kind)
    }

    @Test("backgroundColor from none interpolates from clear; sizes and numbers mix per component")
    func colours() throws {
        let layer = Self.model()
        layer.add(Self.basic("backgroundColor", to: .color(.red)), forKey: "a")
        let c = try #require(Self.node(layer, at: 1).backgroundColor)
        #expect(c == Color(red: 0.5, green: 0, blue: 0, alpha: 0.5))
    }

    @Test("animated bounds do not lay the sublayers out again")
    func noLayout() throws {
        let root = Self.model()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        let child = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        child.autoresizingMask = [.widthSizable]
        try root.addSublayer(child)
        root.add(Self.basic("bounds.size.width", from: 300, to: 300), forKey: "grow")
        let tree = PresentationTree(root, time: 1)
        #expect(tree[0].bounds.width == 300 && tree[1].bounds.width == 100)
        #expect(root.bounds.width == 100 && child.bounds.width == 100)
    }

    @Test("lighting: ambient and a light's direction and intensity, light[i] by index")
    func lighting() throws {
        let layer = Self.model()
        layer.lighting = Lighting(lights: [.directional(Vector3(0, 0, -1)), .point(at: Vector3(0, 0, 100))], ambient: 0.2)
        layer.add(Self.basic("lighting.ambient", to: 0.6), forKey: "ambient")
        layer.add(Self.basic("lighting.light.direction", to: .vector(Vector3(1, 0, -1))), forKey: "d")
        layer.add(Self.basic("lighting.light[1].intensity", from: 0, to: 4), forKey: "i")
        layer.add(Self.basic("lighting.light[7].intensity", to: 4), forKey: "no such light")
        let lit = try #require(Self.node(layer, at: 1).lighting as? Lighting)
        #expect(abs(lit.ambient - 0.4) < 1e-12)
        #expect(lit.lights[0].direction == Vector3(0.5, 0, -1))
        #expect(lit.lights[1].intensity == 2 && lit.lights.count == 2)
        #expect((layer.lighting as? Lighting)?.ambient == 0.2)
    }
}
