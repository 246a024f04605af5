import Foundation
import Origami
import OrigamiScene

/// One expectation about hit order that does not hold: at `point`, under `policy`, `expected` was named and
/// `actual` is what a touch reaches (`nil`: nothing).
public struct HitOrderMismatch: Sendable, Equatable, CustomStringConvertible {
    /// The touch, in the space the check was given it in (the root's superlayer's; a scene's canvas).
    public let point: CGPoint
    /// The policy the expectation is about.
    public let policy: HitTestPolicy
    /// The layer name expected (`nil`: nothing is reached).
    public let expected: String?
    /// The name of the layer the touch reaches (`nil`: nothing).
    public let actual: String?

    public var description: String {
        "a touch at (\(Self.number(point.x)), \(Self.number(point.y))) under \(policy.commandName): "
            + "expected \(expected ?? "nothing"), got \(actual ?? "nothing")"
    }

    static func number(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }
}

/// Hit order checks that name layers by their `name` (a layer without one is named by its place in the tree,
/// as the command line does). Framework-neutral: `expectHitOrder` (Swift Testing) and `XCTAssertHitOrder`
/// (XCTest) record what these return.
public enum HitOrderCheck {
    /// Where `expected` (policy → layer name, `nil` for nothing) differs from the answers of `root`'s tree at
    /// `point`. `point` is in the space of the root's superlayer (`CALayer.hitTest`'s contract); a scene's root
    /// has none, so there it is in canvas coordinates, as `origami hit` takes them.
    public static func mismatches(in root: Layer, at point: CGPoint, expected: [HitTestPolicy: String?],
                                  time: Double? = nil) -> [HitOrderMismatch] {
        let tree = PresentationTree(root, time: time)
        return HitTestPolicy.allCases.compactMap { policy -> HitOrderMismatch? in
            guard let want = expected[policy] else { return nil }
            let got = tree.hitTest(point, policy: policy).map { name(of: $0, under: root) }
            return got == want ? nil : HitOrderMismatch(point: point, policy: policy, expected: want, actual: got)
        }
    }

    /// Every expectation of an expectations file (`origami hit --record` writes them) that does not hold in
    /// `scene`, as the `--expect` table words them.
    public static func mismatches(in scene: Scene, expectations: HitExpectations, time: Double? = nil) -> [String] {
        let tree = PresentationTree(scene.root, time: time)
        return expectations.check(tree: tree, scene: scene).filter { !$0.holds }.map { o in
            "\(expectations.file):\(o.line): a touch at (\(HitOrderMismatch.number(o.point.x)), "
                + "\(HitOrderMismatch.number(o.point.y))) under \(o.policy.commandName): expected "
                + "\(o.expected.description), got \(o.actualAsExpected.description)"
        }
    }

    static func name(of layer: Layer, under root: Layer) -> String {
        if let name = layer.name { return name }
        if layer === root { return "root" }
        var parts: [String] = []
        var current = layer
        while let s = current.superlayer, current !== root {
            parts.append("sublayers[\(s.sublayers.firstIndex { $0 === current } ?? 0)]")
            current = s
        }
        return parts.reversed().joined(separator: ".")
    }
}
