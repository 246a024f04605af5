import Foundation
import Origami
import OrigamiRender
import OrigamiScene
import Testing
import TestSupport

/// Layout from scene files (seed 002): constraints, the constraint layout manager, autoresizing masks resized
/// through a parameter, and the located errors for what cannot be laid out.
@Suite("Scene files: layout keys")
struct SceneLayoutTests {
    /// Listing 4-2 in y-down coordinates (no flip): A centred in 400×300 → (150, 137.5, 100, 25); B as wide as A
    /// and centred on it, maxY = A.minY − 10 = 127.5, minY = 10 → (150, 10, 100, 117.5), drawn above A.
    static let listing = """
        canvas: {size: [400, 300], background: white}
        layers:
          - name: theLayer
            frame: [0, 0, 400, 300]
            layoutManager: constraints
            sublayers:
              - name: layerB
                backgroundColor: red
                constraints:
                  - {attribute: width, relativeTo: layerA}
                  - {attribute: midX, relativeTo: layerA}
                  - {attribute: maxY, relativeTo: layerA, sourceAttribute: minY, offset: -10}
                  - {attribute: minY, relativeTo: superlayer, offset: 10}
              - name: layerA
                bounds: [0, 0, 100, 25]
                backgroundColor: blue
                constraints: [{attribute: midY, relativeTo: superlayer}, {attribute: midX, relativeTo: superlayer}]
        """

    @Test func constraintListingLaysOutYDown() throws {
        let scene = try Scene.decode(Self.listing, file: "s.yaml")
        #expect(scene.layer(named: "layerA")?.frame == CGRect(x: 150, y: 137.5, width: 100, height: 25))
        #expect(scene.layer(named: "layerB")?.frame == CGRect(x: 150, y: 10, width: 100, height: 117.5))
        let image = try #require(try Renderer.render(scene.root, size: scene.canvas.size,
                                                     options: RenderOptions(background: .white)).bitmap)
        #expect(image[200, 60] == 0xFFFF_0000)    // B above A, y-down
        #expect(image[200, 150] == 0xFF00_00FF)   // A in the middle
        #expect(image[200, 200] == 0xFFFF_FFFF)   // nothing below A
    }

    /// The scene's default width 300 is the size the frames are written for; `--set width=500` resizes the
    /// container by Δ = 200 after its sublayers are built. `content` (widthSizable alone) takes all of it:
    /// (20, 20, 260 + 200, 120), margins 20 and 20 kept; `button` (minXMargin alone) keeps its width and its right
    /// margin 300 − 280 = 20: x = 200 + 200 = 400. Neither changes vertically.
    static let resizable = """
        params: {width: {default: 300, range: [100, 1000]}}
        canvas: {size: [600, 200]}
        layers:
          - name: container
            bounds: [0, 0, 300, 200]
            anchorPoint: [0, 0]           # so that growing the bounds keeps the top-left corner in place
            resize: [$width, 200]
            sublayers:
              - {name: content, frame: [20, 20, 260, 120], autoresizingMask: [widthSizable]}
              - {name: button, frame: [200, 150, 80, 30], autoresizingMask: kCALayerMinXMargin}
        """

    @Test func autoresizingFollowsAParameter() throws {
        let description = try SceneDescription.decode(Self.resizable, file: "s.yaml")
        let plain = try description.instantiate()
        #expect(plain.layer(named: "content")?.frame == CGRect(x: 20, y: 20, width: 260, height: 120))
        #expect(plain.layer(named: "button")?.frame == CGRect(x: 200, y: 150, width: 80, height: 30))
        let wide = try description.setting(["width": 500]).instantiate()
        #expect(wide.layer(named: "container")?.frame == CGRect(x: 0, y: 0, width: 500, height: 200))
        #expect(wide.layer(named: "content")?.frame == CGRect(x: 20, y: 20, width: 460, height: 120))
        #expect(wide.layer(named: "button")?.frame == CGRect(x: 400, y: 150, width: 80, height: 30))
        // Narrower, Δ = −150: content 260 − 150 = 110 wide; button at 200 − 150 = 50, right margin still 20.
        let narrow = try description.setting(["width": 150]).instantiate()
        #expect(narrow.layer(named: "content")?.frame == CGRect(x: 20, y: 20, width: 110, height: 120))
        #expect(narrow.layer(named: "button")?.frame == CGRect(x: 50, y: 150, width: 80, height: 30))
    }

    @Test func unknownAttributeHasADidYouMean() throws {
        let i = try singleSceneIssue("""
            canvas: {size: [10, 10]}
            layers:
              - layoutManager: constraints
                sublayers:
                  - constraints: [{attribute: midx, relativeTo: superlayer}]
            """)
        #expect(i.description == "s.yaml:5:35: layers[0].sublayers[0].constraints[0].attribute: unknown constraint attribute `midx`; did you mean `midX`?")
    }

    @Test func unknownSiblingHasADidYouMean() throws {
        let i = try singleSceneIssue("""
            canvas: {size: [10, 10]}
            layers:
              - layoutManager: constraints
                sublayers:
                  - {name: layerA, bounds: [0, 0, 5, 5]}
                  - name: layerB
                    constraints: [{attribute: minY, relativeTo: layerAA, sourceAttribute: maxY}]
            """)
        #expect(i.description == "s.yaml:7:53: layers[0].sublayers[1].constraints[0].relativeTo: no sibling is named `layerAA`; did you mean `layerA`?")
    }

    @Test func cycleIsReportedWhereItCloses() throws {
        let i = try singleSceneIssue("""
            canvas: {size: [10, 10]}
            layers:
              - layoutManager: constraints
                sublayers:
                  - {name: a, constraints: [{attribute: minX, relativeTo: b, sourceAttribute: maxX}]}
                  - {name: b, constraints: [{attribute: minX, relativeTo: a, sourceAttribute: maxX}]}
            """)
        #expect(i.message == "constraints form a cycle: a → b → a")
        #expect(i.keyPath == "layers[0].sublayers[1].constraints[0].relativeTo")
        #expect(i.line == 6)
        #expect(i.hint == "Core Animation leaves a cycle's layout undefined: make one of them relative to `superlayer`")
    }

    @Test func aLayerCannotReadItself() throws {
        let i = try singleSceneIssue("""
            canvas: {size: [10, 10]}
            layers:
              - layoutManager: constraints
                sublayers: [{name: a, constraints: [{attribute: width, relativeTo: a, sourceAttribute: height}]}]
            """)
        #expect(i.message == "constraints form a cycle: a → a")
    }

    @Test func constraintsNeedTheSuperlayersManager() throws {
        let i = try singleSceneIssue("""
            canvas: {size: [10, 10]}
            layers:
              - name: box
                sublayers: [{constraints: [{attribute: midX, relativeTo: superlayer}]}]
            """)
        #expect(i.description == "s.yaml:4:31: layers[0].sublayers[0].constraints: constraints are applied by the superlayer's layout manager, and it has none; add `layoutManager: constraints` to the superlayer at layers[0], as listing 4-2 sets `theLayer.layoutManager`")
        let top = try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{constraints: [{attribute: midX, relativeTo: superlayer}]}]")
        #expect(top.hint == "put these layers in a container layer with `layoutManager: constraints`")
    }

    @Test func badAutoresizingAndManagerValues() throws {
        let flag = try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{autoresizingMask: [widthSizeable]}]")
        #expect(flag.description == "s.yaml:2:30: layers[0].autoresizingMask[0]: unknown autoresizing flag `widthSizeable`; did you mean `widthSizable`?")
        let manager = try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{layoutManager: constraint}]")
        #expect(manager.message == "unknown value `constraint`")
        #expect(manager.hint == "did you mean `constraints`?")
        let key = try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{layoutManager: constraints, sublayers: [{constraints: [{attribute: minX, relativeTo: superlayer, offest: 3}]}]}]")
        #expect(key.message == "unknown key `offest`")
        #expect(key.hint == "did you mean `offset`?")
        let resize = try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{resize: [-1, 5]}]")
        #expect(resize.message == "size [-1, 5] must be non-negative")
        let solid = try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{type: solid, shape: cube, size: 4, resize: [5, 5]}]")
        #expect(solid.message == "a solid's bounds come from its shape")
    }

    /// 5 000 siblings, each 1 wide with its minX at the previous one's maxX: l0 spans 0…1, so l(i) starts at i.
    /// The reader's checks and the layout are linear enough to take this in stride.
    @Test func aLongChainOfConstraints() throws {
        var text = "canvas: {size: [10, 10]}\nlayers:\n  - layoutManager: constraints\n    sublayers:\n"
        text += "      - {name: l0, frame: [0, 0, 1, 1]}\n"
        for i in 1..<5000 {
            text += "      - {name: l\(i), bounds: [0, 0, 1, 1], constraints: [{attribute: minX, relativeTo: l\(i - 1), sourceAttribute: maxX}]}\n"
        }
        let scene = try Scene.decode(text, file: "s.yaml")
        #expect(scene.layer(named: "l4999")?.frame.minX == 4999)
    }

    /// A solid's face lays out its sublayers too: the front face of a 200 cube has bounds 200×200, so a 40×20
    /// badge with maxX = 200 − 10 and minY = 10 sits at (150, 10).
    @Test func aFaceLaysOutItsSublayers() throws {
        let scene = try Scene.decode("""
            canvas: {size: [300, 300]}
            layers:
              - name: cube
                type: solid
                shape: cube
                size: 200
                position: [150, 150]
                faces:
                  front:
                    layoutManager: constraints
                    sublayers:
                      - name: badge
                        bounds: [0, 0, 40, 20]
                        constraints:
                          - {attribute: maxX, relativeTo: superlayer, offset: -10}
                          - {attribute: minY, relativeTo: superlayer, offset: 10}
            """, file: "s.yaml")
        #expect(scene.layer(named: "badge")?.frame == CGRect(x: 150, y: 10, width: 40, height: 20))
    }
}
