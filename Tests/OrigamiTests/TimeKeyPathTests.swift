import Foundation
import Origami
import Testing

@Suite("Time: animatable key paths")
struct TimeKeyPathTests {
    @Test("unknown paths throw with a did-you-mean hint", arguments: [
        ("positon", "did you mean `position`?"),
        ("transform.rotaton.y", "did you mean `transform.rotation.y`?"),
        ("Opacity", "did you mean `opacity`?"),
        ("lighting.light[2].colour", "did you mean `lighting.light[2].color`?"),
        ("lighting.ambiant", "did you mean `lighting.ambient`?"),
        ("bounds.size.widht", "did you mean `bounds.size.width`?"),
    ])
    func didYouMean(path: String, hint: String) {
        #expect {
            _ = try AnimationKeyPath(path)
        } throws: { error in
            guard let e = error as? AnimationKeyPathError else { return false }
            return e.message == "`\(path)` is not an animatable key path" && e.hint == hint
        }
    }

    @Test("a path with nothing close lists the paths")
    func noSuggestion() throws {
        let error = try #require(throws: AnimationKeyPathError.self) { try AnimationKeyPath("frobnicate") }
        #expect(error.hint?.hasPrefix("animatable key paths: position, position.x") == true)
        #expect(error.description == error.message + "; " + (error.hint ?? ""))
        for bad in ["", "lighting.light[-1].color", "lighting.light[x].color", "transform.", "lighting.light.speed"] {
            #expect(throws: AnimationKeyPathError.self) { try AnimationKeyPath(bad) }
        }
    }

    @Test("value kinds and angles", arguments: [
        ("position", AnimationValue.Kind.point, false), ("position.x", .number, false), ("bounds", .rect, false),
        ("bounds.origin", .point, false), ("bounds.size", .size, false), ("bounds.size.height", .number, false),
        ("anchorPointZ", .number, false), ("zPosition", .number, false), ("borderWidth", .number, false),
        ("borderColor", .color, false), ("transform", .transform, false), ("sublayerTransform", .transform, false),
        ("transform.rotation", .number, true), ("sublayerTransform.rotation.y", .number, true),
        ("transform.scale.z", .number, false), ("transform.translation", .size, false),
        ("transform.translation.x", .number, false), ("lighting.shininess", .number, false),
        ("lighting.specular", .color, false), ("lighting.light.position", .vector, false),
        ("lighting.light[3].direction", .vector, false), ("lighting.light[0].color", .color, false),
        ("lighting.light.intensity", .number, false),
    ])
    func kinds(path: String, kind: AnimationValue.Kind, angle: Bool) throws {
        let k = try AnimationKeyPath(path)
        #expect(k.valueKind == kind && k.isAngle == angle && k.description == path)
    }

    @Test("every known path parses")
    func knownPathsParse() throws {
        #expect(AnimationKeyPath.knownPaths.count == Set(AnimationKeyPath.knownPaths).count)
        for path in AnimationKeyPath.knownPaths { _ = try AnimationKeyPath(path) }
    }

    @Test("an unknown key path or a value of the wrong kind has no effect")
    func ignored() {
        let layer = Layer()
        layer.position = CGPoint(x: 7, y: 0)
        let bad = BasicAnimation(keyPath: "positon.x")
        bad.fromValue = 0; bad.toValue = 10
        let wrongKind = BasicAnimation(keyPath: "position.x")
        wrongKind.toValue = .point(CGPoint(x: 1, y: 1))
        layer.add(bad, forKey: "bad"); layer.add(wrongKind, forKey: "kind")
        #expect(PresentationTree(layer, time: 0.1)[0].geometry.position.x == 7)
    }
}
