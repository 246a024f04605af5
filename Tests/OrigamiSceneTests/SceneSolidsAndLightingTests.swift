import Foundation
import Origami
import Testing
@testable import OrigamiScene

@Suite("Scene files: solids, lighting, sweeps")
struct SceneSolidsAndLightingTests {
    private func issues(_ text: String) -> [SceneIssue] {
        do { _ = try Scene.decode(text, file: "s.yaml"); return [] } catch { return error.issues }
    }

    @Test func cubeWithFacesAndLighting() throws {
        let scene = try Scene.decode("""
            canvas: {size: [400, 400]}
            layers:
              - name: container
                frame: [0, 0, 400, 400]
                lighting: {model: bookOverlay, ambient: 0.5, lights: [{direction: [0, 1, -0.5], space: object}]}
                sublayers:
                  - name: cube
                    type: solid
                    shape: cube
                    size: 200
                    position: [200, 200]
                    allFaces: {backgroundColor: white, doubleSided: false}
                    faces:
                      top: {backgroundColor: red}
                      "6": {name: backFace, sublayers: [{name: label, frame: [0, 0, 10, 10]}]}
            """)
        let cube = try #require(scene.layer(named: "cube") as? Solid)
        #expect(cube.faces.count == 6)
        #expect(cube.position == CGPoint(x: 200, y: 200))
        #expect(cube.face(number: 1)?.backgroundColor == .white && cube.face(number: 1)?.isDoubleSided == false)
        #expect(cube.face(.top)?.backgroundColor == .red)
        #expect(cube.face(number: 6)?.name == "backFace")
        #expect(scene.layer(named: "label")?.superlayer === cube.face(number: 6))
        let lighting = try #require(scene.layer(named: "container")?.lighting as? Lighting)
        #expect(lighting.model == .bookOverlay && lighting.ambient == 0.5)
        #expect(lighting.lights == [Light.directional(Vector3(0, 1, -0.5), space: .object)])
    }

    @Test func bookLightingShorthand() throws {
        let scene = try Scene.decode("canvas: {size: [10, 10]}\nlayers: [{name: c, lighting: book}]")
        #expect(scene.layer(named: "c")?.lighting as? Lighting == Lighting.book)
    }

    @Test func otherSolids() throws {
        let scene = try Scene.decode("""
            canvas: {size: [10, 10]}
            layers:
              - {name: b, type: solid, shape: box, width: 3, height: 4, depth: 5}
              - {name: p, type: solid, shape: prism, sides: 5, radius: 2, height: 3}
              - {name: y, type: solid, shape: pyramid, sides: 3, radius: 2, height: 3}
              - name: t
                type: solid
                shape: polyhedron
                polygons:
                  - [[0, 0, 0], [1, 0, 0], [0, 1, 0]]
                  - [[0, 0, 0], [0, 0, 1], [1, 0, 0]]
                  - [[0, 0, 0], [0, 1, 0], [0, 0, 1]]
                  - [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
            """)
        #expect((scene.layer(named: "b") as? Solid)?.faces.count == 6)
        #expect((scene.layer(named: "p") as? Solid)?.faces.count == 7)
        #expect((scene.layer(named: "y") as? Solid)?.faces.count == 4)
        #expect((scene.layer(named: "t") as? Solid)?.faces.count == 4)
    }

    /// A square pyramid: 5 faces.
    static let pyramid = """
        canvas: {size: [10, 10]}
        layers:
          - name: t
            type: solid
            shape: polyhedron
            polygons:
              - [[0, 0, 0], [2, 0, 0], [2, 0, 2], [0, 0, 2]]
              - [[0, 0, 0], [1, -2, 1], [2, 0, 0]]
              - [[2, 0, 0], [1, -2, 1], [2, 0, 2]]
              - [[2, 0, 2], [1, -2, 1], [0, 0, 2]]
              - [[0, 0, 2], [1, -2, 1], [0, 0, 0]]
        """

    @Test("a polyhedron over the face limit is refused at its `polygons` key, naming the option that raises it")
    func polyhedronFaceLimit() throws {
        #expect(SceneLimits.default.maxPolyhedronFaces == 10_000)
        var limits = SceneLimits()
        limits.maxPolyhedronFaces = 4
        let found: [SceneIssue]
        do { _ = try Scene.decode(Self.pyramid, file: "s.yaml", limits: limits); found = [] } catch { found = error.issues }
        #expect(found.map(\.description) == [
            "s.yaml:7:7: layers[0].polygons: the polyhedron has 5 faces, over the limit of 4; raise the limit with --max-polyhedron-faces",
        ])
        limits.maxPolyhedronFaces = 5
        #expect((try Scene.decode(Self.pyramid, limits: limits).layer(named: "t") as? Solid)?.faces.count == 5)
    }

    @Test func solidErrors() {
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{type: solid, shape: cube, size: 10, faces: {frnt: {}}}]").map(\.description)
            == ["s.yaml:2:55: layers[0].faces.frnt: no face `frnt`; did you mean `front`?"])
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{type: solid, shape: cube, size: -1}]").first?.message
            .hasPrefix("cannot build the cube:") == true)
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{type: solid, shape: cube, size: 5, frame: [0, 0, 1, 1]}]").first?.message
            == "a solid's bounds come from its shape")
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{type: solid, shape: cone}]").first?.hint == "did you mean `cube`?")
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{type: solid, shape: cube}]").first?.message == "missing key `size`")
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{type: solid, shape: cube, size: 5, faces: {top: {frame: [0, 0, 1, 1]}}}]")
            .first?.message == "unknown key `frame`")
    }

    @Test func lightingErrors() {
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{lighting: {lights: [{direction: [0, 0, 0]}]}}]").first?.message
            == "the light direction is zero")
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{lighting: {lights: [{direction: [0, 1, 0], position: [0, 0, 1]}]}}]")
            .first?.message == "a light has a `direction` (directional) or a `position` (point), not both")
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{lighting: {model: phong}}]").first?.hint
            == "one of: bookOverlay, lambert, blinnPhong")
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{lighting: sunny}]").first?.message == "unknown lighting `sunny`")
        #expect(issues("canvas: {size: [10, 10]}\nlayers: [{lighting: {ambient: 2}}]").first?.message == "ambient 2 is out of range 0…1")
    }

    @Test func sweepSection() throws {
        let scene = try Scene.decode("""
            canvas: {size: [10, 10]}
            sweep:
              ambient: [0.2, 0.8]
              light.direction: [[0, 1, -0.5], [1, 0, 0]]
              model: [lambert, blinnPhong]
            layers: []
            """)
        #expect(scene.sweep.map(\.path) == ["ambient", "light.direction", "model"])
        #expect(scene.sweep[1].values == [.vector(Vector3(0, 1, -0.5)), .vector(Vector3(1, 0, 0))])
        #expect(scene.sweep[2].values == [.word("lambert"), .word("blinnPhong")])
        #expect(issues("canvas: {size: [10, 10]}\nsweep: {ambient: [0.2, 3]}\nlayers: []").first?.message
            == "`3` is not a number in 0…1 for `ambient`")
        #expect(issues("canvas: {size: [10, 10]}\nsweep: {light.colour: [red]}\nlayers: []").first?.hint
            == "did you mean `light.color`?")
    }

    /// Sweep variants count the last parameter fastest, from 1.
    @Test func sweepParameterArguments() throws {
        let a = try SweepParameter(argument: "ambient=0.2,0.5,0.8")
        #expect(a.values == [.number(0.2), .number(0.5), .number(0.8)])
        let d = try SweepParameter(argument: "container.light[1].direction=0,1,-0.5;1,0,0")
        #expect(d.values.count == 2)
        let c = try SweepParameter(argument: "light.color=red;#00ff00;0,0,1")
        #expect(c.values == [.color(.red), .color(.green), .color(.blue)])
        #expect(throws: SweepError.self) { try SweepParameter(argument: "ambient") }
        #expect(throws: SweepError.self) { try SweepParameter(argument: "light.direction=0,0,0") }
    }
}
