import Foundation
import Origami
import Testing
import TestSupport
@testable import OrigamiScene

/// `animations`, `speed`, `beginTime` and `timeOffset` in scene files (DESIGN §9): what they decode to, the scene at
/// a time, and every mistake's located message.
@Suite("Scene animations")
struct SceneAnimationTests {
    private func scene(_ layers: String) throws -> Scene {
        try Scene.decode("canvas: {size: [100, 100]}\nlayers:\n" + layers, file: "s.yaml")
    }

    private func single(_ layers: String) throws -> SceneIssue {
        try singleSceneIssue("canvas: {size: [100, 100]}\nlayers:\n" + layers)
    }

    @Test func basicAnimationWithTimingAndDegrees() throws {
        let s = try scene("""
              - name: a
                animations:
                  - {name: spin, keyPath: transform.rotation.y, from: 0, to: 360, duration: 6, repeatCount: infinity,
                     autoreverses: true, fillMode: both, removedOnCompletion: false, timingFunction: easeIn,
                     beginTime: 0.5, additive: true}
            """)
        let layer = try #require(s.layer(named: "a"))
        #expect(layer.animationKeys() == ["spin"])
        let a = try #require(layer.animation(forKey: "spin") as? BasicAnimation)
        #expect(a.keyPath == "transform.rotation.y")
        #expect(a.fromValue == .number(0))
        // Degrees in the file, radians in the API: 360° = 2π.
        #expect(a.toValue == .number(2 * .pi))
        #expect(a.byValue == nil)
        #expect(a.duration == 6 && a.repeatCount == .infinity && a.autoreverses && a.fillMode == .both)
        #expect(!a.isRemovedOnCompletion && a.beginTime == 0.5 && a.isAdditive && !a.isCumulative)
        #expect(a.timingFunction == .easeIn)
    }

    @Test func keyframeAnimationOfALight() throws {
        let s = try scene("""
              - name: lit
                lighting: {model: lambert, lights: [{position: [0, 0, 100]}]}
                animations:
                  - name: orbit
                    keyPath: lighting.light.position
                    values: [[0, 0, 100], [100, 0, 100], [100, 100, 100]]
                    keyTimes: [0, 0.25, 1]
                    timingFunctions: [linear, [0.5, 0, 0.5, 1]]
                    calculationMode: cubic
            """)
        let a = try #require(s.layer(named: "lit")?.animation(forKey: "orbit") as? KeyframeAnimation)
        #expect(a.values == [.vector(Vector3(0, 0, 100)), .vector(Vector3(100, 0, 100)), .vector(Vector3(100, 100, 100))])
        #expect(a.keyTimes == [0, 0.25, 1])
        #expect(a.timingFunctions == [.linear, TimingFunction(controlPoints: 0.5, 0, 0.5, 1)])
        #expect(a.calculationMode == .cubic)
    }

    @Test func groupsAndLayerTiming() throws {
        let s = try scene("""
              - name: a
                speed: 2
                beginTime: 1
                timeOffset: 0.5
                animations:
                  - name: both
                    duration: 3
                    animations:
                      - {keyPath: opacity, from: 1, to: 0}
                      - {keyPath: position, to: [50, 60]}
                      - {keyPath: transform, from: [rotate z 0], to: [rotate z 90, translate 10 0]}
            """)
        let layer = try #require(s.layer(named: "a"))
        #expect(layer.speed == 2 && layer.beginTime == 1 && layer.timeOffset == 0.5)
        let g = try #require(layer.animation(forKey: "both") as? AnimationGroup)
        #expect(g.duration == 3)
        #expect(g.animations.count == 3)
        let position = try #require(g.animations[1] as? BasicAnimation)
        #expect(position.toValue == .point(CGPoint(x: 50, y: 60)) && position.fromValue == nil)
        let transform = try #require(g.animations[2] as? BasicAnimation)
        // The file's operation order: each operation applies before those listed before it (README).
        #expect(transform.toValue == .transform(Transform3D.identity.rotated(by: .pi / 2, x: 0, y: 0, z: 1).translated(x: 10, y: 0, z: 0)))
    }

    /// The turntable turns `transform.rotation.y` 0 → 360° in 6 s, linearly (no timing function: linear, as Apple
    /// documents for an absent one): at t = 1.5 s the cube's presentation transform is a rotation of 90° about y,
    /// while the model keeps the identity.
    @Test func turntableAtATime() throws {
        let s = try Scene.load(contentsOf: OrigamiCommand.packageRoot.appendingPathComponent("Models/turntable.yaml"))
        let cube = try #require(s.layer(named: "cube"))
        let tree = PresentationTree(s.root, placement: .canvas, time: 1.5)
        let i = try #require((0..<tree.count).first { tree.layer($0) === cube })
        let expected = Transform3D.identity.rotated(by: .pi / 2, x: 0, y: 1, z: 0)
        #expect(tree[i].geometry.transform.isApproximatelyEqual(to: expected, absoluteTolerance: 1e-9))
        #expect(cube.transform == .identity)
        // One full turn later the same picture: repeatCount infinity.
        let later = PresentationTree(s.root, placement: .canvas, time: 7.5)
        #expect(later[i].geometry.transform.isApproximatelyEqual(to: expected, absoluteTolerance: 1e-9))
    }

    /// Animation values are numbers like any other: `$name` works there too (DESIGN §10).
    @Test func animationValuesTakeParameters() throws {
        let s = try Scene.decode("""
            params: {turns: 2, seconds: {default: 4, range: [1, 10]}}
            canvas: {size: [100, 100]}
            layers:
              - name: a
                animations:
                  - {name: spin, keyPath: transform.rotation.z, to: $turns*360, duration: $seconds}
            """, file: "s.yaml")
        let a = try #require(s.layer(named: "a")?.animation(forKey: "spin") as? BasicAnimation)
        #expect(a.toValue == .number(4 * .pi))   // 2 × 360° = 4π
        #expect(a.duration == 4)
    }

    @Test func unknownKeyPathHasDidYouMean() throws {
        let i = try single("  - {animations: [{keyPath: transform.rotaton.y, to: 1}]}")
        #expect(i.keyPath == "layers[0].animations[0].keyPath")
        #expect(i.line == 3)
        #expect(i.hint?.contains("did you mean `transform.rotation.y`?") == true, "\(i.description)")
    }

    @Test func valueOfTheWrongKindForTheKeyPath() throws {
        let i = try single("  - {animations: [{keyPath: position, from: 3, to: [1, 2]}]}")
        #expect(i.keyPath == "layers[0].animations[0].from")
        #expect(i.message == "expected a list, found a scalar")
        let c = try single("  - {animations: [{keyPath: backgroundColor, to: [1, 2]}]}")
        #expect(c.message == "expected a colour [r, g, b] or [r, g, b, a] (0…1) as a list of 3 or 4 numbers, found 2")
    }

    @Test func keyTimesMustAscendWithinZeroAndOne() throws {
        let order = try single("  - {animations: [{keyPath: opacity, values: [0, 1, 0], keyTimes: [0, 0.6, 0.5]}]}")
        #expect(order.message == "key times must ascend: 0.5 comes after 0.6")
        #expect(order.keyPath == "layers[0].animations[0].keyTimes[2]")
        let range = try single("  - {animations: [{keyPath: opacity, values: [0, 1], keyTimes: [0, 1.5]}]}")
        #expect(range.message == "key time 1.5 is outside 0…1")
        let count = try single("  - {animations: [{keyPath: opacity, values: [0, 1, 0], keyTimes: [0, 1]}]}")
        #expect(count.message == "2 key times for 3 values")
        #expect(count.hint == "give one key time per value (3)")
        let discrete = try single("  - {animations: [{keyPath: opacity, values: [0, 1], keyTimes: [0, 1], calculationMode: discrete}]}")
        #expect(discrete.hint == "a discrete animation takes one more key time than values (3)")
    }

    @Test func timingFunctionsAndValueCombinations() throws {
        let name = try single("  - {animations: [{keyPath: opacity, to: 0, timingFunction: easeInOut}]}")
        #expect(name.message == "unknown timing function `easeInOut`")
        #expect(name.hint == "did you mean `easeOut`?")
        let x = try single("  - {animations: [{keyPath: opacity, to: 0, timingFunction: [1.5, 0, 0.5, 1]}]}")
        #expect(x.message == "a timing function's x control points must be within 0…1")
        let three = try single("  - {animations: [{keyPath: opacity, from: 0, to: 1, by: 1}]}")
        #expect(three.message == "`from`, `to` and `by` are all given")
        let none = try single("  - {animations: [{keyPath: opacity, duration: 1}]}")
        #expect(none.message == "the animation has no values")
        let segments = try single("  - {animations: [{keyPath: opacity, values: [0, 1, 0], timingFunctions: [linear]}]}")
        #expect(segments.message == "1 timing functions for 3 values")
        let mixed = try single("  - {animations: [{keyPath: opacity, values: [0, 1], to: 1}]}")
        #expect(mixed.message == "a keyframe animation (`values`) takes no `to`")
    }

    @Test func groupsAndNames() throws {
        let keyed = try single("  - {animations: [{keyPath: opacity, animations: [{keyPath: opacity, to: 0}]}]}")
        #expect(keyed.message == "a group (`animations`) takes no `keyPath`")
        let dup = try single("  - {animations: [{name: a, keyPath: opacity, to: 0}, {name: a, keyPath: opacity, to: 1}]}")
        #expect(dup.message == "the animation name `a` is already used at layers[0].animations[0]")
        #expect(dup.keyPath == "layers[0].animations[1]")
        let repeatCount = try single("  - {animations: [{keyPath: opacity, to: 0, repeatCount: -1}]}")
        #expect(repeatCount.message == "repeatCount -1 is out of range 0…1000000000")
        let fill = try single("  - {animations: [{keyPath: opacity, to: 0, fillMode: forward}]}")
        #expect(fill.hint == "did you mean `forwards`?")
    }
}
