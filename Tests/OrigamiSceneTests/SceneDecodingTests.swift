import Foundation
import Origami
import Testing
@testable import OrigamiScene

@Suite("Scene decoding")
struct SceneDecodingTests {
    @Test func canvasBecomesTheRootLayer() throws {
        let scene = try Scene.decode("""
            canvas: {size: [600, 400], scale: 2, background: "#ff0000"}
            layers: []
            """)
        #expect(scene.canvas.size == CGSize(width: 600, height: 400))
        #expect(scene.canvas.scale == 2)
        #expect(scene.canvas.background == Color(red: 1, green: 0, blue: 0))
        // Root covers the canvas: frame (0, 0, 600, 400), so canvas coordinates are root coordinates.
        #expect(scene.root.frame == CGRect(x: 0, y: 0, width: 600, height: 400))
        #expect(scene.root.bounds == CGRect(x: 0, y: 0, width: 600, height: 400))
    }

    @Test func transparentBackground() throws {
        let scene = try Scene.decode("canvas: {size: [10, 10], background: transparent}\nlayers: []")
        #expect(scene.canvas.background == nil)
    }

    @Test func layerProperties() throws {
        let scene = try Scene.decode("""
            canvas: {size: [400, 400]}
            layers:
              - name: hand
                bounds: [0, 0, 20, 100]
                anchorPoint: [0.5, 0.9]
                position: [200, 200]
                zPosition: 3
                anchorPointZ: -2
                geometryFlipped: true
                masksToBounds: true
                doubleSided: false
                hidden: true
                opacity: 0.25
                backgroundColor: [0, 0.5, 1, 0.5]
                borderWidth: 2
                borderColor: "#00ff00"
                cornerRadius: 4
                contentsGravity: resizeAspect
                contentsScale: 2
                allowsHitTesting: false
                sublayers:
                  - {name: child, frame: [1, 2, 3, 4]}
            """)
        let l = try #require(scene.layer(named: "hand"))
        #expect(l.bounds == CGRect(x: 0, y: 0, width: 20, height: 100))
        #expect(l.anchorPoint == CGPoint(x: 0.5, y: 0.9))
        #expect(l.position == CGPoint(x: 200, y: 200))
        // frame = position − anchor·size = (200 − 10, 200 − 90, 20, 100)
        #expect(l.frame == CGRect(x: 190, y: 110, width: 20, height: 100))
        #expect(l.zPosition == 3 && l.anchorPointZ == -2)
        #expect(l.isGeometryFlipped && l.masksToBounds && !l.isDoubleSided && l.isHidden && !l.allowsHitTesting)
        #expect(l.opacity == 0.25)
        #expect(l.backgroundColor == Color(red: 0, green: 0.5, blue: 1, alpha: 0.5))
        #expect(l.borderWidth == 2 && l.borderColor == .green && l.cornerRadius == 4)
        #expect(l.contentsGravity == .resizeAspect && l.contentsScale == 2)
        let child = try #require(scene.layer(named: "child"))
        #expect(child.superlayer === l)
        #expect(child.frame == CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test func layerTypes() throws {
        let scene = try Scene.decode("""
            canvas: {size: [100, 100]}
            layers:
              - {name: t, type: transformLayer}
              - {name: label, type: text, string: "Hi", fontSize: 20, fontWeight: bold, alignment: center,
                 foregroundColor: black, italic: true, fontFamily: DejaVu Serif, verticallyCentered: true}
            """)
        #expect(scene.layer(named: "t") is TransformLayer)
        let text = try #require(scene.layer(named: "label") as? TextLayer)
        #expect(text.string == "Hi" && text.fontSize == 20 && text.fontWeight == .bold && text.alignment == .center)
        #expect(text.foregroundColor == .black && text.isItalic && text.fontFamily == "DejaVu Serif" && text.isVerticallyCentered)
    }

    /// Operation lists apply like the book's code: each operation is prepended (applies first).
    @Test func transformListFollowsTheBooksCodeOrder() throws {
        let scene = try Scene.decode("""
            canvas: {size: [100, 100]}
            layers:
              - {name: a, transform: [translate 0 0 100, rotate y 90]}
              - {name: b, sublayerTransform: [perspective 500, rotate x -45deg, rotate y -45]}
              - {name: c, transform: "scale 2 4"}
              - {name: d, transform: [rotate 90 0 0 1, translate 10 0]}
            """)
        // a: t = MakeTranslation(0,0,100); t = Rotate(t, π/2, 0,1,0) = Ry · T. The point (1,0,0) rotates to
        // (0,0,−1) (m13 = −s) and then moves to (0,0,99).
        let a = try #require(scene.layer(named: "a")).transform
        let p = try #require(a.apply(Vector3(1, 0, 0)))
        #expect(p.isApproximatelyEqual(to: Vector3(0, 0, 99)))
        // b: the book's camera, written out: m34 = −1/500 then Rx(−45°) then Ry(−45°), each prepended.
        let b = try #require(scene.layer(named: "b")).sublayerTransform
        var expected = Transform3D.identity
        expected.m34 = -1.0 / 500
        expected = Transform3D(rotationAngle: -.pi / 4, x: 1, y: 0, z: 0).concatenating(expected)
        expected = Transform3D(rotationAngle: -.pi / 4, x: 0, y: 1, z: 0).concatenating(expected)
        #expect(b.isApproximatelyEqual(to: expected))
        #expect(try #require(scene.layer(named: "c")).transform == Transform3D(scaleX: 2, y: 4, z: 1))
        // d: translate applies first, then the rotation about z by 90°: (0,0) → (10,0) → (0,10).
        let d = try #require(scene.layer(named: "d")).transform
        #expect(try #require(d.apply(Vector3(0, 0, 0))).isApproximatelyEqual(to: Vector3(0, 10, 0)))
    }

    @Test func jsonIsAccepted() throws {
        let scene = try Scene.decode(#"{"canvas": {"size": [50, 60]}, "layers": [{"name": "x", "frame": [1, 2, 3, 4]}]}"#)
        #expect(scene.canvas.size == CGSize(width: 50, height: 60))
        #expect(scene.layer(named: "x")?.frame == CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    @Test func summaryIsTheLeadingComment() throws {
        let scene = try Scene.decode("# The lit cube\n# of chapter 5\ncanvas: {size: [1, 1]}\nlayers: []")
        #expect(scene.summary == "The lit cube\nof chapter 5")
    }
}
