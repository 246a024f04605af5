import Foundation

/// The drawing properties an animation can change, as the presentation tree reads them from a layer.
struct AnimatedProperties {
    var geometry: LayerGeometry
    var opacity: Double
    var backgroundColor: Color?
    var borderWidth: Double
    var borderColor: Color
    var cornerRadius: Double
    var lighting: (any FaceShader)?

    init(_ layer: Layer) {
        geometry = layer.geometry; opacity = layer.opacity; backgroundColor = layer.backgroundColor
        borderWidth = layer.borderWidth; borderColor = layer.borderColor; cornerRadius = layer.cornerRadius
        lighting = layer.lighting
    }
}

extension Layer {
    /// This layer's drawing properties at `localTime` (its own local time) with its animations applied in the
    /// order added. Changed bounds do not lay the sublayers out again: Core Animation does not lay out its
    /// presentation layers.
    func animatedProperties(atLocalTime localTime: Double) -> AnimatedProperties {
        var properties = AnimatedProperties(self)
        for entry in animationEntries {
            entry.animation.apply(atParentTime: localTime, to: &properties, model: self)
        }
        return properties
    }
}

extension Animation {
    /// Applies this animation's effect at parent time `t` to `properties` (the values so far).
    func apply(atParentTime t: Double, to properties: inout AnimatedProperties, model: Layer) {
        guard let state = timingState(atParentTime: t, fillsAfterEnd: !isRemovedOnCompletion && fillMode.fillsForwards)
        else { return }
        let progress = timingFunction?.value(at: state.progress) ?? state.progress
        switch self {
        case let group as AnimationGroup:
            let time = progress * simpleDuration
            for child in group.animations { child.apply(atParentTime: time, to: &properties, model: model) }
        case let animation as PropertyAnimation:
            guard let keyPath = animation.parsedKeyPath, let current = properties[keyPath] else { return }
            // The layer's own value is needed only by a basic animation with none of from, to and by.
            let model = animation.needsModelValue ? AnimatedProperties(model)[keyPath] : nil
            guard var value = animation.value(at: progress, current: current, model: model) else { return }
            if animation.isCumulative, state.iteration != 0, let end = animation.value(at: 1, current: current, model: model) {
                value = value.adding(end.repeated(state.iteration)) ?? value
            }
            properties.set(keyPath, to: value, additive: animation.isAdditive)
        default:
            return
        }
    }
}

extension PropertyAnimation {
    var needsModelValue: Bool {
        guard let basic = self as? BasicAnimation else { return false }
        return basic.fromValue == nil && basic.toValue == nil && basic.byValue == nil
    }

    /// The animated value at `progress` (0…1 after the timing function), before additive composition; `current`
    /// is the value it finds, `model` the layer's own. `nil` when its values do not fit the key path.
    func value(at progress: Double, current: AnimationValue, model: AnimationValue?) -> AnimationValue? {
        switch self {
        case let basic as BasicAnimation: return basic.basicValue(at: progress, current: current, model: model)
        case let keyframe as KeyframeAnimation: return keyframe.keyframeValue(at: progress)
        default: return nil
        }
    }
}

extension BasicAnimation {
    /// The two values it runs between, by Apple's table (see `BasicAnimation`).
    func endpoints(current: AnimationValue, model: AnimationValue?) -> (AnimationValue, AnimationValue)? {
        switch (fromValue, toValue, byValue) {
        case let (from?, to?, _): return (from, to)
        case let (from?, nil, by?): return from.adding(by).map { (from, $0) }
        case let (nil, to?, by?): return to.subtracting(by).map { ($0, to) }
        case let (from?, nil, nil): return (from, current)
        case let (nil, to?, nil): return (current, to)
        case let (nil, nil, by?): return current.adding(by).map { (current, $0) }
        case (nil, nil, nil): return (current, model ?? current)
        }
    }

    func basicValue(at progress: Double, current: AnimationValue, model: AnimationValue?) -> AnimationValue? {
        guard let (a, b) = endpoints(current: current, model: model), a.kind == current.kind else { return nil }
        return a.interpolated(to: b, fraction: progress)
    }
}

extension KeyframeAnimation {
    /// The key times used: the given ones when valid for the mode, else even (or, paced, by distance).
    func effectiveKeyTimes() -> [Double] {
        let n = values.count
        switch calculationMode {
        case .paced, .cubicPaced:
            let lengths = zip(values, values.dropFirst()).map { $0.distance(to: $1) }
            let total = lengths.reduce(0, +)
            guard total > 0, total.isFinite else { return Self.evenKeyTimes(n) }
            var sum = 0.0
            return [0] + lengths.map { sum += $0; return sum / total }
        case .discrete:
            if let k = keyTimes, k.count == n + 1 || k.count == n, Self.isValid(k) { return k }
            return Self.evenKeyTimes(n + 1)
        case .linear, .cubic:
            if let k = keyTimes, k.count == n, Self.isValid(k) { return k }
            return Self.evenKeyTimes(n)
        }
    }

    static func evenKeyTimes(_ n: Int) -> [Double] {
        n <= 1 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
    }

    /// Ascending and within 0…1.
    static func isValid(_ k: [Double]) -> Bool {
        k.allSatisfy { $0.isFinite && (0...1).contains($0) } && zip(k, k.dropFirst()).allSatisfy { $0 <= $1 }
    }

    func keyframeValue(at progress: Double) -> AnimationValue? {
        guard let first = values.first, values.allSatisfy({ $0.kind == first.kind }) else { return nil }
        let n = values.count
        if n == 1 { return first }
        let k = effectiveKeyTimes()
        if calculationMode == .discrete {
            // Value i from k[i] until k[i + 1]; the last from its key time to the end.
            let i = (0..<n).last { k[$0] <= progress } ?? 0
            return values[i]
        }
        // The segment holding `progress`: the last i with k[i] ≤ progress (a repeated key time jumps).
        let before = k.first ?? 0
        if progress <= before { return values[0] }
        if progress >= k[n - 1] { return values[n - 1] }
        let i = min((0..<(n - 1)).last { k[$0] <= progress } ?? 0, n - 2)
        let span = k[i + 1] - k[i]
        var s = span > 0 ? (progress - k[i]) / span : 1
        let paced = calculationMode == .paced || calculationMode == .cubicPaced
        if !paced, let functions = timingFunctions, functions.count == n - 1 { s = functions[i].value(at: s) }
        if calculationMode == .cubic || calculationMode == .cubicPaced, first.kind != .transform {
            return cubicValue(segment: i, fraction: s, keyTimes: k)
        }
        return values[i].interpolated(to: values[i + 1], fraction: s)
    }

    /// Kochanek–Bartels with tension, continuity and bias 0 (Catmull–Rom), Hermite form, the tangents scaled
    /// for uneven key times as Kochanek and Bartels ("Interpolating Splines with Local Tension, Continuity, and
    /// Bias Control", 1984, eq. 9) do: the incoming and outgoing tangents at key i are
    /// `½(p[i+1] − p[i−1]) · 2Δ / (Δ[i−1] + Δ[i])` with Δ the adjacent segment's length in time. The end keys
    /// repeat themselves as their missing neighbours.
    func cubicValue(segment i: Int, fraction s: Double, keyTimes k: [Double]) -> AnimationValue {
        let n = values.count
        let p = values.map(\.components)
        func point(_ j: Int) -> [Double] { p[min(max(j, 0), n - 1)] }
        func span(_ j: Int) -> Double { j < 0 || j >= n - 1 ? 0 : k[j + 1] - k[j] }
        // The tangent at key j for the segment of length `own` (the segment j − 1…j or j…j + 1).
        func tangent(_ j: Int, own: Double) -> [Double] {
            let before = span(j - 1), after = span(j)
            let central = zip(point(j + 1), point(j - 1)).map { ($0 - $1) / 2 }
            let total = (before > 0 ? before : own) + (after > 0 ? after : own)
            let scale = total > 0 ? 2 * own / total : 1
            return central.map { $0 * scale }
        }
        let own = span(i)
        let m0 = tangent(i, own: own), m1 = tangent(i + 1, own: own)
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        let c = (0..<p[i].count).map { j in
            h00 * p[i][j] + h10 * m0[j] + h01 * p[i + 1][j] + h11 * m1[j]
        }
        return AnimationValue(kind: values[i].kind, components: c)
    }
}
