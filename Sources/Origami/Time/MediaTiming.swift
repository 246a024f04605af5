import Foundation

/// What an animation shows outside its active duration. Corresponds to `CAMediaTimingFillMode`.
public enum FillMode: String, Hashable, Sendable, CaseIterable {
    /// No effect before the begin or after the end (`kCAFillModeRemoved`, the default).
    case removed
    /// After the end the final value stays, provided the animation is not removed on completion.
    case forwards
    /// Before the begin the first value shows.
    case backwards
    /// Both.
    case both

    var fillsBackwards: Bool { self == .backwards || self == .both }
    var fillsForwards: Bool { self == .forwards || self == .both }
}

/// A timed object: a layer or an animation. Corresponds to `CAMediaTiming`, with Apple's defaults: `beginTime`
/// 0, `timeOffset` 0, `speed` 1, `duration` 0, `repeatCount` 0, `repeatDuration` 0, `autoreverses` false,
/// `fillMode` `.removed`.
///
/// An object's **local time** is its parent's time through `(t − beginTime) · speed + timeOffset`, so speeds
/// multiply down a tree (a layer of speed 2 in a layer of speed 2 runs 4× as fast as the scene). A layer's parent
/// is its superlayer (the root's parent time is the scene's time); an animation's parent is its layer's local
/// time, or its group's.
public protocol MediaTiming: AnyObject {
    /// When the object begins, in its parent's time.
    var beginTime: Double { get set }
    /// Added to the local time: an animation with an offset starts part-way through and wraps round.
    var timeOffset: Double { get set }
    /// How fast local time runs against the parent's. 0 stops it; negative runs it backwards.
    var speed: Double { get set }
    /// One simple cycle, in local time. 0 (or less) means 0.25 s for an animation, as Apple documents.
    var duration: Double { get set }
    /// How many cycles play (fractional allowed, `.infinity` for ever); 0 means one.
    var repeatCount: Double { get set }
    /// For how long (local time) the cycles repeat; 0 means not set.
    var repeatDuration: Double { get set }
    /// Each cycle plays forwards and then backwards: a cycle takes `2 × duration`.
    var autoreverses: Bool { get set }
    /// What the object shows outside its active time; default `.removed`.
    var fillMode: FillMode { get set }
}

/// The default duration Apple gives an animation whose `duration` is 0 (CAAnimation).
let defaultAnimationDuration = 0.25

/// Where a timed object is at one time of its parent: which cycle, and how far through its simple duration
/// (after the autoreverse mirror, before any timing function).
struct TimingState: Equatable {
    /// 0 for the first cycle (negative when a negative `timeOffset` reaches before it).
    var iteration: Int
    /// 0…1 through the simple duration.
    var progress: Double
}

extension MediaTiming {
    /// `duration`, or Apple's 0.25 s when it is 0, negative or not a number.
    var simpleDuration: Double { duration > 0 ? duration : defaultAnimationDuration }

    /// One cycle: the simple duration, twice when autoreversing.
    var cycleDuration: Double { simpleDuration * (autoreverses ? 2 : 1) }

    /// The active duration in local time: `repeatCount` cycles, or `repeatDuration`, or one cycle when neither is
    /// set. Apple leaves setting both undefined; Origami takes the shorter, as SMIL defines for `repeatCount` with
    /// `repeatDur` (SMIL 3.0 Timing, "the active duration is the minimum of the two").
    var activeDuration: Double {
        let byCount = repeatCount > 0 ? repeatCount * cycleDuration : nil
        let byDuration = repeatDuration > 0 ? repeatDuration : nil
        switch (byCount, byDuration) {
        case let (c?, d?): return min(c, d)
        case let (c?, nil): return c
        case let (nil, d?): return d
        case (nil, nil): return cycleDuration
        }
    }

    /// The parent's time mapped into this object's local time: `(t − beginTime) · speed + timeOffset`.
    func localTime(fromParent t: Double) -> Double { (t - beginTime) * speed + timeOffset }

    /// The inverse, `(t − timeOffset) / speed + beginTime`. A stopped object (`speed` 0) maps every parent time
    /// to `timeOffset`, so there is no inverse; it answers `beginTime`, the moment its time stood still.
    func parentTime(fromLocal t: Double) -> Double { speed == 0 ? beginTime : (t - timeOffset) / speed + beginTime }

    /// Where this object is at parent time `t`, or `nil` when it has no effect then.
    ///
    /// - The active duration starts at `beginTime` (parent time) and lasts `activeDuration / |speed|`.
    /// - Before it: the state at its start when `fillMode` fills backwards; otherwise none.
    /// - After it: the state at its end when `fillsAfterEnd` (an animation: not removed on completion and filling
    ///   forwards); otherwise none.
    /// - Speed 0 holds the active time at 0 from `beginTime` on: the object shows its `timeOffset` for ever.
    /// - A negative speed plays the active duration from its end back to its start (an infinite one runs its
    ///   cycles backwards from the begin); before the begin it fills with the end, after with the start.
    /// - Within it, the local time `active + timeOffset` is divided into cycles (so an offset starts part-way
    ///   and wraps round); at the very end the state is the end of the last cycle, not the start of a next one.
    func timingState(atParentTime t: Double, fillsAfterEnd: Bool) -> TimingState? {
        guard t.isFinite, speed.isFinite, beginTime.isFinite, timeOffset.isFinite else { return nil }
        let total = activeDuration
        guard total > 0, !total.isNaN else { return nil }
        let elapsed = (t - beginTime) * abs(speed)
        var active: Double
        if t < beginTime {
            guard fillMode.fillsBackwards else { return nil }
            active = speed < 0 ? total : 0
        } else if speed == 0 {
            active = 0
        } else if total.isInfinite {
            active = speed > 0 ? elapsed : -elapsed
        } else if elapsed >= total {
            guard fillsAfterEnd else { return nil }
            active = speed > 0 ? total : 0
        } else {
            active = speed > 0 ? elapsed : total - elapsed
        }
        if active.isInfinite { active = 0 }
        let cycle = cycleDuration
        let local = active + timeOffset
        // An infinite simple duration has one cycle that never ends (and ∞ · 0 would be NaN).
        var iteration = cycle.isInfinite ? 0 : (local / cycle).rounded(.down)
        var within = cycle.isInfinite ? local : local - iteration * cycle
        // The end of the active duration (filled forwards, or backwards under a negative speed) is the end of its
        // last cycle.
        if active == total, within == 0, local > 0 {
            iteration -= 1
            within = cycle
        }
        guard iteration.isFinite, abs(iteration) < Double(Int32.max) else { return nil }
        let d = simpleDuration
        let forward = autoreverses && within > d ? 2 * d - within : within
        return TimingState(iteration: Int(iteration), progress: min(max(forward / d, 0), 1))
    }
}
