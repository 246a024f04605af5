import Foundation

/// A layer is timed like any `MediaTiming` object (its stored timing properties are in `Layer.swift`): its local
/// time is its superlayer's through `(t − beginTime) · speed + timeOffset`, the root's parent time being the
/// scene's. `duration`, `repeatCount`, `repeatDuration`, `autoreverses` and `fillMode` are kept for Core
/// Animation compatibility but do not limit a layer's time: a layer is active for ever, as in Core Animation.
extension Layer: MediaTiming {}

extension Layer {
    /// `t` in `layer`'s local time (`nil`: the root's parent time, the scene's), converted to this layer's local
    /// time through their common ancestor. Corresponds to `-[CALayer convertTime:fromLayer:]`. Layers of
    /// different trees meet at their roots' parent time, one clock for every scene.
    public func convertTime(_ t: Double, from layer: Layer?) -> Double {
        let ancestors = Set(sequence(first: self, next: { $0.superlayer }).map(ObjectIdentifier.init))
        // Up from `layer` to the first of its ancestors that is also ours (or past the root).
        var time = t
        var meeting: Layer? = layer
        while let m = meeting, !ancestors.contains(ObjectIdentifier(m)) {
            time = m.parentTime(fromLocal: time)
            meeting = m.superlayer
        }
        // Down from there to this layer.
        var path: [Layer] = []
        var a: Layer? = self
        while let x = a, x !== meeting { path.append(x); a = x.superlayer }
        for x in path.reversed() { time = x.localTime(fromParent: time) }
        return time
    }

    /// `t` in this layer's local time, converted to `layer`'s (`nil`: the root's parent time). Corresponds to
    /// `-[CALayer convertTime:toLayer:]`.
    public func convertTime(_ t: Double, to layer: Layer?) -> Double {
        guard let layer else {
            var time = t
            var a: Layer? = self
            while let x = a { time = x.parentTime(fromLocal: time); a = x.superlayer }
            return time
        }
        return layer.convertTime(t, from: self)
    }

    /// Adds a copy of `animation` (so later changes to it do not reach the layer), replacing any animation under
    /// the same key; with a `nil` key it is not replaced or found by key. Animations on one key path apply in the
    /// order added. Corresponds to `-[CALayer addAnimation:forKey:]`.
    public func add(_ animation: Animation, forKey key: String?) {
        if let key { animationEntries.removeAll { $0.key == key } }
        animationEntries.append(AnimationEntry(key: key, animation: animation.copy()))
    }

    /// The animation under `key` (the layer's own copy: changing it changes the layer). Corresponds to
    /// `-[CALayer animationForKey:]`.
    public func animation(forKey key: String) -> Animation? {
        animationEntries.first { $0.key == key }?.animation
    }

    /// Removes the animation under `key`, if any. Corresponds to `-[CALayer removeAnimationForKey:]`.
    public func removeAnimation(forKey key: String) { animationEntries.removeAll { $0.key == key } }

    /// Removes every animation. Corresponds to `-[CALayer removeAllAnimations]`.
    public func removeAllAnimations() { animationEntries.removeAll() }

    /// The keys of the animations, in the order added (animations added with a `nil` key are not listed).
    public func animationKeys() -> [String] { animationEntries.compactMap(\.key) }

    /// When every finite animation in this subtree has ended, in this layer's parent's time (scene time for a
    /// scene's root); one cycle for infinitely repeating ones; `nil` when the subtree has no animations. An
    /// animation under a layer whose time is stopped (`speed` 0) never ends and is left out.
    public func animationEndTime() -> Double? {
        var end: Double?
        var stack: [Layer] = [self]
        while let layer = stack.popLast() {
            stack.append(contentsOf: layer.sublayers)
            for entry in layer.animationEntries {
                let a = entry.animation
                // In the layer's local time: from the begin, the active duration (one cycle when infinite) at speed.
                let length = a.activeDuration.isFinite ? a.activeDuration : a.cycleDuration
                guard a.speed != 0 else { continue }
                var t = a.beginTime + length / abs(a.speed)
                // Up to this layer's parent: through every layer from `layer` up to and including `self`.
                var x: Layer? = layer, stopped = false
                while let l = x {
                    if l.speed == 0 { stopped = true; break }
                    t = l.parentTime(fromLocal: t)
                    if l === self { break }
                    x = l.superlayer
                }
                guard !stopped, t.isFinite else { continue }
                end = max(end ?? t, t)
            }
        }
        return end
    }
}

/// An animation a layer holds, under its key.
struct AnimationEntry {
    let key: String?
    let animation: Animation
}
