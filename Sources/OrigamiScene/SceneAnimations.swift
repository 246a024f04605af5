import Foundation
import Origami

/// A layer's or an animation's timing as a scene file gives it (CAMediaTiming): only what the file sets, so
/// Apple's defaults stay wherever it says nothing.
struct TimingDescription: Sendable, Hashable {
    var beginTime: Double?
    var timeOffset: Double?
    var speed: Double?
    var duration: Double?
    var repeatCount: Double?
    var repeatDuration: Double?
    var autoreverses: Bool?
    var fillMode: FillMode?

    func apply(to t: some MediaTiming) {
        if let beginTime { t.beginTime = beginTime }
        if let timeOffset { t.timeOffset = timeOffset }
        if let speed { t.speed = speed }
        if let duration { t.duration = duration }
        if let repeatCount { t.repeatCount = repeatCount }
        if let repeatDuration { t.repeatDuration = repeatDuration }
        if let autoreverses { t.autoreverses = autoreverses }
        if let fillMode { t.fillMode = fillMode }
    }
}

/// One entry of a layer's `animations` list: a `Sendable` recipe for the `Animation` object each instantiation
/// adds to its layer (animation objects are mutable classes, so every layer tree gets its own).
struct AnimationDescription: Sendable {
    enum Kind: Sendable {
        case basic(from: AnimationValue?, to: AnimationValue?, by: AnimationValue?)
        case keyframe(values: [AnimationValue], keyTimes: [Double]?, timingFunctions: [TimingFunction]?,
                      mode: KeyframeAnimation.CalculationMode)
        case group([AnimationDescription])
    }

    /// The key it is added under (`add(_:forKey:)`); `nil` adds it unkeyed, so several may animate one path.
    var key: String?
    var keyPath: String?
    var kind: Kind
    var timing = TimingDescription()
    var timingFunction: TimingFunction?
    var removedOnCompletion: Bool?
    var additive: Bool?
    var cumulative: Bool?

    func make() -> Animation {
        let animation: Animation
        switch kind {
        case let .basic(from, to, by):
            let a = BasicAnimation(keyPath: keyPath ?? "")
            a.fromValue = from; a.toValue = to; a.byValue = by
            animation = a
        case let .keyframe(values, keyTimes, timingFunctions, mode):
            let a = KeyframeAnimation(keyPath: keyPath ?? "")
            a.values = values; a.keyTimes = keyTimes; a.timingFunctions = timingFunctions; a.calculationMode = mode
            animation = a
        case let .group(children):
            let g = AnimationGroup()
            g.animations = children.map { $0.make() }
            animation = g
        }
        if let p = animation as? PropertyAnimation {
            if let additive { p.isAdditive = additive }
            if let cumulative { p.isCumulative = cumulative }
        }
        timing.apply(to: animation)
        if let timingFunction { animation.timingFunction = timingFunction }
        if let removedOnCompletion { animation.isRemovedOnCompletion = removedOnCompletion }
        return animation
    }
}

extension SceneBuilder {
    /// The timing keys a layer takes (CAMediaTiming's that change a layer's local time).
    static let layerTimingKeys = ["speed", "beginTime", "timeOffset"]
    static let animationTimingKeys = ["beginTime", "timeOffset", "speed", "duration", "repeatCount", "repeatDuration",
                                      "autoreverses", "fillMode", "timingFunction", "removedOnCompletion"]
    static let propertyAnimationKeys = ["keyPath", "from", "to", "by", "values", "keyTimes", "timingFunctions",
                                        "calculationMode", "additive", "cumulative"]
    static let animationKeys = ["name"] + animationTimingKeys + propertyAnimationKeys + ["animations"]

    /// A layer's `speed`, `beginTime` and `timeOffset`, as one setting (nil when the file sets none).
    func readLayerTiming(_ o: SceneObject) -> TimingDescription? {
        var t = TimingDescription()
        t.speed = o["speed"]?.number()
        t.beginTime = o["beginTime"]?.number()
        t.timeOffset = o["timeOffset"]?.number()
        return t == TimingDescription() ? nil : t
    }

    /// `animations:` — a list of animations, each a basic animation (`from`/`to`/`by`), a keyframe animation
    /// (`values`) or a group (`animations`); angles (rotation key paths) in degrees like the rest of the file.
    /// Two animations of one layer may not share a name: adding under a key replaces the animation there.
    func readAnimations(_ value: SceneValue) -> [AnimationDescription] {
        var names: [String: String] = [:]   // name → key path of its first use
        var result: [AnimationDescription] = []
        for item in value.list() ?? [] {
            guard let a = readAnimation(item, inGroup: false) else { continue }
            if let key = a.key {
                if let first = names[key] {
                    reader.report(item, "the animation name `\(key)` is already used at \(first)",
                                  hint: "adding an animation under a name replaces the one there; rename one")
                    continue
                }
                names[key] = item.path
            }
            result.append(a)
        }
        return result
    }

    private func readAnimation(_ value: SceneValue, inGroup: Bool) -> AnimationDescription? {
        guard let o = value.object(allowed: Self.animationKeys) else { return nil }
        let isGroup = o["animations"] != nil
        if inGroup, let n = o["name"] {
            reader.report(n, "an animation in a group has no key", hint: "name the group instead")
        }
        var timing = TimingDescription()
        timing.beginTime = o["beginTime"]?.number()
        timing.timeOffset = o["timeOffset"]?.number()
        timing.speed = o["speed"]?.number()
        timing.duration = o["duration"]?.number(in: 0...1e9, what: "duration")
        timing.repeatCount = o["repeatCount"].flatMap(readRepeatCount)
        timing.repeatDuration = o["repeatDuration"]?.number(in: 0...1e9, what: "repeatDuration")
        timing.autoreverses = o["autoreverses"]?.bool()
        if let f = o["fillMode"]?.choice(FillMode.allCases.map(\.rawValue)) { timing.fillMode = FillMode(rawValue: f) }
        let timingFunction = o["timingFunction"].flatMap(readTimingFunction)
        let removed = o["removedOnCompletion"]?.bool()

        if isGroup {
            for key in Self.propertyAnimationKeys where o[key] != nil {
                reader.report(o[key], "a group (`animations`) takes no `\(key)`",
                              hint: "put `\(key)` on the animations inside the group")
            }
            let children = (o["animations"]?.list() ?? []).compactMap { readAnimation($0, inGroup: true) }
            return AnimationDescription(key: inGroup ? nil : o["name"]?.string(), keyPath: nil, kind: .group(children),
                                        timing: timing, timingFunction: timingFunction, removedOnCompletion: removed)
        }

        guard let pathValue = o.required("keyPath", hint: "e.g. `keyPath: transform.rotation.y`"),
              let pathText = pathValue.string() else { return nil }
        let keyPath: AnimationKeyPath
        do {
            keyPath = try AnimationKeyPath(pathText)
        } catch {
            return pathValue.fail(error.message, hint: error.hint)
        }
        let kind: AnimationDescription.Kind
        if let valuesValue = o["values"] {
            for key in ["from", "to", "by"] where o[key] != nil {
                reader.report(o[key], "a keyframe animation (`values`) takes no `\(key)`",
                              hint: "give `values`, or `from`/`to`/`by` without `values`")
            }
            guard let list = valuesValue.list() else { return nil }
            guard !list.isEmpty else { return valuesValue.fail("no keyframe values") }
            let values = list.compactMap { readAnimationValue($0, for: keyPath) }
            guard values.count == list.count else { return nil }
            var mode = KeyframeAnimation.CalculationMode.linear
            if let m = o["calculationMode"]?.choice(KeyframeAnimation.CalculationMode.allCases.map(\.rawValue)) {
                mode = KeyframeAnimation.CalculationMode(rawValue: m) ?? .linear
            }
            let keyTimes = o["keyTimes"].flatMap { readKeyTimes($0, values: values.count, mode: mode) }
            if o["keyTimes"] != nil && keyTimes == nil { return nil }
            var functions: [TimingFunction]?
            if let fv = o["timingFunctions"], let items = fv.list() {
                let parsed = items.compactMap(readTimingFunction)
                guard parsed.count == items.count else { return nil }
                guard parsed.count == values.count - 1 else {
                    return fv.fail("\(parsed.count) timing functions for \(values.count) values",
                                   hint: "give one per segment: \(values.count - 1)")
                }
                functions = parsed
            }
            kind = .keyframe(values: values, keyTimes: keyTimes, timingFunctions: functions, mode: mode)
        } else {
            for key in ["keyTimes", "timingFunctions", "calculationMode"] where o[key] != nil {
                reader.report(o[key], "`\(key)` belongs to a keyframe animation", hint: "give `values`")
            }
            let given = ["from", "to", "by"].filter { o[$0] != nil }
            if given.count == 3 {
                reader.report(o["by"], "`from`, `to` and `by` are all given",
                              hint: "give at most two: from+to, from+by, by+to, or one of them")
                return nil
            }
            if given.isEmpty {
                reader.report(value, "the animation has no values",
                              hint: "give `from`/`to`/`by` (a basic animation) or `values` (keyframes)")
                return nil
            }
            var read: [String: AnimationValue] = [:]
            for key in given {
                guard let v = o[key].flatMap({ readAnimationValue($0, for: keyPath) }) else { return nil }
                read[key] = v
            }
            kind = .basic(from: read["from"], to: read["to"], by: read["by"])
        }
        return AnimationDescription(key: inGroup ? nil : o["name"]?.string(), keyPath: pathText, kind: kind,
                                    timing: timing, timingFunction: timingFunction, removedOnCompletion: removed,
                                    additive: o["additive"]?.bool(), cumulative: o["cumulative"]?.bool())
    }

    /// A number ≥ 0, or `infinity` (also `inf`, `.inf`, `forever`): repeat for ever.
    private func readRepeatCount(_ value: SceneValue) -> Double? {
        if case let .scalar(s) = value.node, ["infinity", "inf", ".inf", "forever"].contains(s.string.lowercased()) {
            return .infinity
        }
        return value.number(in: 0...1e9, what: "repeatCount")
    }

    /// A named function (`easeInEaseOut`, …) or four control-point numbers `[c1x, c1y, c2x, c2y]`, x within 0…1.
    private func readTimingFunction(_ value: SceneValue) -> TimingFunction? {
        if case let .scalar(s) = value.node {
            if let f = TimingFunction(name: s.string) { return f }
            let hint = closestMatch(to: s.string, in: TimingFunction.names).map { "did you mean `\($0)`?" }
                ?? "one of: \(TimingFunction.names.joined(separator: ", ")), or [c1x, c1y, c2x, c2y]"
            return value.fail("unknown timing function `\(s.string)`", hint: hint)
        }
        guard let v = value.numbers(count: 4, what: "control points [c1x, c1y, c2x, c2y]") else { return nil }
        guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
            return value.fail("a timing function's x control points must be within 0…1",
                              hint: "time runs forwards: c1x and c2x are fractions of the duration")
        }
        return TimingFunction(controlPoints: v[0], v[1], v[2], v[3])
    }

    /// Ascending fractions of the duration within 0…1, one per value (one more for `discrete`).
    private func readKeyTimes(_ value: SceneValue, values: Int, mode: KeyframeAnimation.CalculationMode) -> [Double]? {
        guard let items = value.list() else { return nil }
        var times: [Double] = []
        for item in items {
            guard let t = item.number() else { return nil }
            guard (0...1).contains(t) else { return item.fail("key time \(format(t)) is outside 0…1") }
            if let last = times.last, t < last {
                return item.fail("key times must ascend: \(format(t)) comes after \(format(last))")
            }
            times.append(t)
        }
        let expected = mode == .discrete ? values + 1 : values
        guard times.count == expected || mode == .paced || mode == .cubicPaced else {
            return value.fail("\(times.count) key times for \(values) values",
                              hint: mode == .discrete ? "a discrete animation takes one more key time than values (\(expected))"
                                                      : "give one key time per value (\(expected))")
        }
        return times
    }

    /// A value of the kind the key path animates; rotation angles in degrees.
    private func readAnimationValue(_ value: SceneValue, for keyPath: AnimationKeyPath) -> AnimationValue? {
        switch keyPath.valueKind {
        case .number: return (keyPath.isAngle ? value.angle() : value.number()).map { .number($0) }
        case .point: return value.point().map { .point($0) }
        case .size:
            return value.numbers(count: 2, what: "a size [width, height]").map { .size(CGSize(width: $0[0], height: $0[1])) }
        case .rect: return value.rect().map { .rect($0) }
        case .color: return value.color().map { .color($0) }
        case .transform: return readTransform(value).map { .transform($0) }
        case .vector: return value.vector3().map { .vector($0) }
        }
    }
}
