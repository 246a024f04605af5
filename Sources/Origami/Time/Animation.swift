import Foundation

/// An animation: timing (`MediaTiming`) and what it changes. Corresponds to `CAAnimation`.
///
/// Its parent time is its layer's local time (or its group's time). `beginTime` 0 means "when it was added" in
/// Core Animation; Origami has no clock running while a tree is built, so that moment is **time 0 of the layer's
/// local time**, and a non-zero `beginTime` is a time in the layer's local time.
///
/// `isRemovedOnCompletion` is true by default, as in Core Animation: an animation that has ended is removed, and
/// with it its effect — even with `fillMode` `.forwards`. To keep the final value, set it to false *and* fill
/// forwards (the classic gotcha). Origami never removes it from the layer's list; it just stops applying it.
open class Animation: MediaTiming {
    public var beginTime: Double = 0
    public var timeOffset: Double = 0
    public var speed: Double = 1
    public var duration: Double = 0
    public var repeatCount: Double = 0
    public var repeatDuration: Double = 0
    public var autoreverses = false
    public var fillMode: FillMode = .removed
    /// Paces the whole animation; `nil` is linear, as Apple documents for an absent function.
    public var timingFunction: TimingFunction?
    /// An ended animation stops applying, even with `fillMode` `.forwards`; default true, as in Core Animation.
    /// Set it to false and fill forwards to keep the final value.
    public var isRemovedOnCompletion = true

    /// An animation with Core Animation's timing defaults (see `MediaTiming`); subclasses say what changes.
    public init() {}

    /// A deep copy: groups copy their animations. `Layer.add(_:forKey:)` stores one, as Core Animation does.
    /// A group that contains itself (directly or through its children) is copied without the repeated group, and
    /// groups nested deeper than `maximumGroupDepth` lose their deeper levels, so the copy is a finite tree.
    public func copy() -> Animation { copy(within: []) }

    /// How deeply groups may nest in a copy: deeper levels are left out (no real animation comes near it).
    public static let maximumGroupDepth = 64

    /// The copy, with `enclosing` the groups this one is copied inside of (outermost first).
    func copy(within enclosing: [ObjectIdentifier]) -> Animation {
        let c = makeCopy(within: enclosing)
        c.beginTime = beginTime; c.timeOffset = timeOffset; c.speed = speed; c.duration = duration
        c.repeatCount = repeatCount; c.repeatDuration = repeatDuration; c.autoreverses = autoreverses
        c.fillMode = fillMode; c.timingFunction = timingFunction; c.isRemovedOnCompletion = isRemovedOnCompletion
        return c
    }

    /// A new instance of the same class with the subclass's own properties copied.
    func makeCopy(within enclosing: [ObjectIdentifier]) -> Animation { Animation() }
}

/// An animation of one key path. Corresponds to `CAPropertyAnimation`.
open class PropertyAnimation: Animation {
    /// What it animates; see `AnimationKeyPath` for the paths. A path that does not parse has no effect.
    public var keyPath: String { didSet { parsedKeyPath = try? AnimationKeyPath(keyPath) } }
    /// `keyPath` parsed once, not at every frame.
    private(set) var parsedKeyPath: AnimationKeyPath?
    /// The animated value is added to the value it finds (the model's, or the result of the animations added
    /// before it); for a transform it is concatenated (applied first). Otherwise it replaces it.
    public var isAdditive = false
    /// Each repeat builds on the end of the previous one: cycle i shows its value plus i × the end value.
    public var isCumulative = false

    /// An animation of `keyPath` (see `AnimationKeyPath` for the paths). Corresponds to
    /// `+[CAPropertyAnimation animationWithKeyPath:]`.
    public init(keyPath: String) {
        self.keyPath = keyPath
        parsedKeyPath = try? AnimationKeyPath(keyPath)
        super.init()
    }

    override func makeCopy(within enclosing: [ObjectIdentifier]) -> Animation {
        let c = PropertyAnimation(keyPath: keyPath)
        copyProperties(to: c)
        return c
    }

    func copyProperties(to c: PropertyAnimation) {
        c.keyPath = keyPath; c.isAdditive = isAdditive; c.isCumulative = isCumulative
    }
}

/// Interpolates one key path between two values. Corresponds to `CABasicAnimation`.
///
/// Which values it runs between follows Apple's table (CABasicAnimation): from+to; from → from+by; to−by → to;
/// from → the current value; the current value → to; the current value → current+by; and with none set, from
/// the previous value to the current one. "Current" is the value the animation finds: the model's, with the
/// animations added before it on the same path applied.
public final class BasicAnimation: PropertyAnimation {
    /// The value at the start; see the type's description for the combinations of from, to and by.
    public var fromValue: AnimationValue?
    /// The value at the end.
    public var toValue: AnimationValue?
    /// The change, relative to the value at the start.
    public var byValue: AnimationValue?

    override func makeCopy(within enclosing: [ObjectIdentifier]) -> Animation {
        let c = BasicAnimation(keyPath: keyPath)
        copyProperties(to: c)
        c.fromValue = fromValue; c.toValue = toValue; c.byValue = byValue
        return c
    }
}

/// Steps one key path through a list of values. Corresponds to `CAKeyframeAnimation`.
///
/// - `keyTimes`: for each value, the fraction (0…1, ascending) of the duration at which it is reached. Used when
///   they are valid: ascending, within 0…1, one per value (for `.discrete` also one more than the values, as Apple
///   documents: value i then shows from keyTimes[i] to keyTimes[i + 1]). Otherwise, and for the paced modes, they
///   are ignored and the values are spread evenly (paced: by distance). The first need not be 0 nor the last 1:
///   the first value holds before its key time and the last after its own.
/// - `timingFunctions`: one per segment (values − 1), pacing each; any other count is ignored. `.paced` and
///   `.cubicPaced` ignore them, as Apple documents.
/// - `calculationMode`: `.linear`; `.discrete` (no interpolation: each value holds until the next key time);
///   `.paced` (constant speed, segments timed by their length); `.cubic` (a Kochanek–Bartels spline with tension,
///   continuity and bias 0, i.e. Catmull–Rom, through the values at their key times; the end tangents take the
///   end values as repeated); `.cubicPaced` (cubic, timed as paced). Transforms interpolate by decomposition in the
///   cubic modes too, linearly between keyframes.
public final class KeyframeAnimation: PropertyAnimation {
    /// How values between keyframes are found: see the type's description. Corresponds to
    /// `CAAnimationCalculationMode`.
    public enum CalculationMode: String, Sendable, CaseIterable {
        /// Straight interpolation between neighbouring values (`kCAAnimationLinear`).
        case linear
        /// No interpolation: each value holds until the next key time (`kCAAnimationDiscrete`).
        case discrete
        /// Constant speed: segments are timed by their length; `keyTimes` and `timingFunctions` are ignored
        /// (`kCAAnimationPaced`).
        case paced
        /// A Catmull–Rom spline through the values at their key times (`kCAAnimationCubic`).
        case cubic
        /// The cubic spline, timed as `paced` (`kCAAnimationCubicPaced`).
        case cubicPaced
    }

    /// The keyframe values, in order; a value of the wrong kind for the key path has no effect.
    public var values: [AnimationValue] = []
    /// When each value is reached, as ascending fractions 0…1 of the duration; `nil` (or an invalid list) spreads
    /// the values evenly. See the type's description.
    public var keyTimes: [Double]?
    /// Paces each segment between keyframes: one per segment (`values.count − 1`), else ignored; `nil` is linear.
    public var timingFunctions: [TimingFunction]?
    /// How values between keyframes are found; default `.linear`.
    public var calculationMode: CalculationMode = .linear

    override func makeCopy(within enclosing: [ObjectIdentifier]) -> Animation {
        let c = KeyframeAnimation(keyPath: keyPath)
        copyProperties(to: c)
        c.values = values; c.keyTimes = keyTimes; c.timingFunctions = timingFunctions
        c.calculationMode = calculationMode
        return c
    }
}

/// Runs several animations on one time line. Corresponds to `CAAnimationGroup`.
///
/// The group's time, within its simple duration (after its repeats, autoreverse and timing function), is each
/// child's parent time: a child's `beginTime` counts from the group's start, and a child runs only while the group
/// is active (or filling) — a child longer than the group is cut off at the group's end.
public final class AnimationGroup: Animation {
    /// The grouped animations, each timed in the group's time.
    public var animations: [Animation] = []

    override func makeCopy(within enclosing: [ObjectIdentifier]) -> Animation {
        let c = AnimationGroup()
        let within = enclosing + [ObjectIdentifier(self)]
        guard within.count <= Self.maximumGroupDepth else { return c }
        c.animations = animations.compactMap { child in
            child is AnimationGroup && within.contains(ObjectIdentifier(child)) ? nil : child.copy(within: within)
        }
        return c
    }
}
