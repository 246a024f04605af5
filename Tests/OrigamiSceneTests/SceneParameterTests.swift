import Foundation
import Origami
import OrigamiRender
import Testing
@testable import OrigamiScene

/// `params` and `$name`: substitution in every kind of value position, other values from the parsed file
/// (never the text again), and the located errors.
@Suite("Scene parameters")
struct SceneParameterTests {
    private func decode(_ text: String) throws -> SceneDescription {
        try SceneDescription.decode(text, file: "s.yaml")
    }

    static let yawScene = """
        params:
          yaw: {default: 30, range: [-180, 180], step: 15, unit: deg, label: Camera yaw}
        canvas: {size: [100, 100]}
        layers:
          - {name: a, transform: [rotate y $yaw]}
        """

    /// `rotate y θ` is CATransform3DMakeRotation(θ, 0, 1, 0): m11 = m33 = cos θ, m13 = −sin θ, m31 = sin θ
    /// (Apple's row-vector matrices). At 30°: cos = √3/2, sin = 1/2; at 90°: 0, 1; at −45°: √2/2, −√2/2.
    static let rotations: [(degrees: Double, cos: Double, sin: Double)] = [
        (30, 3.0.squareRoot() / 2, 0.5), (90, 0, 1), (-45, 2.0.squareRoot() / 2, -(2.0.squareRoot() / 2)),
    ]

    @Test(arguments: 0..<3)
    func rotateYTakesTheParameter(_ index: Int) throws {
        let (degrees, cos, sin) = Self.rotations[index]
        let base = try decode(Self.yawScene)
        let d = degrees == 30 ? base : try base.setting(["yaw": degrees])
        let t = try #require(try d.instantiate().layer(named: "a")).transform
        let expected = Transform3D(m11: cos, m12: 0, m13: -sin, m14: 0, m21: 0, m22: 1, m23: 0, m24: 0,
                                   m31: sin, m32: 0, m33: cos, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1)
        #expect(t.isApproximatelyEqual(to: expected), "\(t)")
    }

    @Test func declarationsKeepTheirSliderFields() throws {
        let d = try decode(Self.yawScene)
        #expect(d.parameters == [SceneParameter(name: "yaw", defaultValue: 30, range: -180...180, step: 15,
                                                unit: "deg", label: "Camera yaw")])
        #expect(d.parameterValues == ["yaw": 30])
        #expect(try d.setting(["yaw": 60]).parameterValues == ["yaw": 60])
    }

    /// Every kind of number position: list elements, colour components, solid sizes, lighting fields,
    /// perspective and translate words, unary minus and small arithmetic.
    @Test func everyNumberPositionTakesParameters() throws {
        let d = try decode("""
            params: {x: 10, half: 0.5, size: 40, d: 400, amb: 0.25}
            canvas: {size: [100, 100]}
            layers:
              - name: a
                position: [$x, -$x]
                zPosition: $x * 2 + 1
                opacity: $half
                backgroundColor: [$half, 0, ($half + 0.5) / 2]
                sublayerTransform: [perspective $d, translate $x 0 -$x]
                lighting: {ambient: $amb, lights: [{direction: [0, $half, -1], intensity: $half * 2}]}
                sublayers:
                  - {name: cube, type: solid, shape: cube, size: $size}
            """)
        let scene = try d.instantiate()
        let a = try #require(scene.layer(named: "a"))
        #expect(a.position == CGPoint(x: 10, y: -10))
        #expect(a.zPosition == 21)
        #expect(a.opacity == 0.5)
        #expect(a.backgroundColor == Color(red: 0.5, green: 0, blue: 0.5, alpha: 1))
        // perspective 400, then translate (10, 0, −10) applied first: m34 = −1/400, m41 = 10, m43 = −10 and,
        // through the perspective, m44 = 1 + (−10)(−1/400) = 1.025.
        let t = a.sublayerTransform
        #expect(t.m34.isApproximatelyEqual(to: -1.0 / 400))
        #expect(t.m41 == 10 && t.m43 == -10)
        #expect(t.m44.isApproximatelyEqual(to: 1.025))
        let lighting = try #require(d.litLayers().first?.lighting)
        #expect(lighting.ambient == 0.25)
        #expect(lighting.lights.first?.direction == Vector3(0, 0.5, -1))
        #expect(lighting.lights.first?.intensity == 1)
        let cube = try #require(scene.layer(named: "cube"))
        #expect(cube.bounds.size == CGSize(width: 40, height: 40))
    }

    @Test func otherValuesDoNotDecodeTheTextAgain() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-params-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("yaw.yaml")
        try Self.yawScene.write(to: url, atomically: true, encoding: .utf8)
        SceneDecodeCounter.watch(url.path)
        let d = try SceneDescription.load(contentsOf: url)
        for yaw in stride(from: -180.0, through: 180, by: 45) { _ = try d.setting(["yaw": yaw]).instantiate() }
        #expect(SceneDecodeCounter.count(url.path) == 1)
    }

    @Test func settingChecksNamesAndRanges() throws {
        let d = try decode(Self.yawScene)
        #expect(throws: ParameterError("the scene has no parameter `yw`", hint: "did you mean `yaw`?")) {
            try d.setting(["yw": 1])
        }
        #expect(throws: ParameterError("200 is outside the range -180…180 of `yaw`",
                                       hint: "the scene declares `yaw` in -180…180")) {
            try d.setting(["yaw": 200])
        }
    }

    @Test func aValueTheFileCannotHoldIsALocatedError() throws {
        let d = try decode("params: {d: 500}\ncanvas: {size: [10, 10]}\nlayers: [{sublayerTransform: [perspective $d]}]")
        #expect {
            try d.setting(["d": 0])
        } throws: { error in
            (error as? SceneError)?.description
                == "s.yaml:3:31: layers[0].sublayerTransform[0]: the perspective distance must be positive"
        }
    }

    // MARK: The error corpus

    @Test func undeclaredNamesSayWhatIsDeclared() throws {
        #expect(try singleSceneIssue("params: {yaw: 0}\ncanvas: {size: [10, 10]}\nlayers: [{zPosition: $yw}]").description
            == "s.yaml:3:22: layers[0].zPosition: undeclared parameter `$yw`; did you mean `$yaw`?")
        #expect(try singleSceneIssue("canvas: {size: [10, 10]}\nlayers: [{zPosition: $z}]").description
            == "s.yaml:2:22: layers[0].zPosition: undeclared parameter `$z`; declare it under `params`, e.g. `params: {z: 0}`")
        #expect(try singleSceneIssue("params: {yaw: 0}\ncanvas: {size: [10, 10]}\nlayers: [{transform: [rotate y $pitch]}]").description
            == "s.yaml:3:23: layers[0].transform[0]: undeclared parameter `$pitch`; declared parameters: $yaw")
    }

    @Test func badExpressions() throws {
        #expect(try singleSceneIssue("params: {a: 1}\ncanvas: {size: [10, 10]}\nlayers: [{zPosition: $a +}]").description
            == "s.yaml:3:22: layers[0].zPosition: `$a +` is not a number or parameter expression: a number or `$name` is missing at the end; write e.g. `$yaw`, `-$yaw` or `$yaw * 2 + 10`")
        #expect(try singleSceneIssue("params: {a: 0}\ncanvas: {size: [10, 10]}\nlayers: [{zPosition: 1 / $a}]").description
            == "s.yaml:3:22: layers[0].zPosition: `1 / $a` is not a finite number with the parameters' values; values: a=0")
    }

    @Test func valuesOutsideARangeAreRefusedWhereTheyAreUsedOrDeclared() throws {
        // A lighting field's own range applies to the parameter's value.
        #expect(try singleSceneIssue("params: {amb: 2}\ncanvas: {size: [10, 10]}\nlayers: [{lighting: {ambient: $amb}}]").description
            == "s.yaml:3:31: layers[0].lighting.ambient: ambient 2 is out of range 0…1")
        #expect(try singleSceneIssue("params: {yaw: {default: 100, range: [0, 90]}}\ncanvas: {size: [10, 10]}\nlayers: []").description
            == "s.yaml:1:25: params.yaw.default: the default 100 is outside the range 0…90 of `yaw`")
    }

    @Test func aParameterInAStringKeyIsRefused() throws {
        #expect(try singleSceneIssue("params: {n: 1}\ncanvas: {size: [10, 10]}\nlayers: [{name: $n}]").description
            == "s.yaml:3:17: layers[0].name: parameters stand for numbers, and this key takes a string; quote it (\"$n\") to mean the text itself")
        // Quoted, it is the text.
        let scene = try decode("params: {n: 1}\ncanvas: {size: [10, 10]}\nlayers: [{name: \"$n\"}]").instantiate()
        #expect(scene.layer(named: "$n") != nil)
    }

    @Test func aColourIsNotANumber() throws {
        #expect(try singleSceneIssue("params: {r: 1}\ncanvas: {size: [10, 10]}\nlayers: [{backgroundColor: $r}]").description
            == "s.yaml:3:28: layers[0].backgroundColor: expected a colour, found `$r`; parameters stand for numbers: use them as components, e.g. [$r, 0, 0]")
    }

    /// A sweep over a parameter instantiates each variant from the parsed file: the text is decoded once.
    @Test func aSweepOverAParameterDecodesTheTextOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-params-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("sweep.yaml")
        try (Self.yawScene + "\nsweep: {yaw: \"0:90:45\"}\n").write(to: url, atomically: true, encoding: .utf8)
        SceneDecodeCounter.watch(url.path)
        let sweep = try Sweep(scene: url, parameters: [])
        #expect(sweep.variantCount == 3)
        // rotate y θ moves (1, 0, 0) to (cos θ, 0, −sin θ): at 0°, 45° and 90°.
        let h = 2.0.squareRoot() / 2
        let expected = [Vector3(1, 0, 0), Vector3(h, 0, -h), Vector3(0, 0, -1)]
        for n in 1...3 {
            let t = try #require(try sweep.scene(ofVariant: n).instantiate().layer(named: "a")).transform
            #expect(try #require(t.apply(Vector3(1, 0, 0))).isApproximatelyEqual(to: expected[n - 1]), "variant \(n)")
        }
        #expect(SceneDecodeCounter.count(url.path) == 1)
    }

    @Test func zippedVariantsTakeTheNthValuesAndTimeIsAParameter() throws {
        let d = try decode(Self.yawScene)
        let yaw = try SweepParameter(argument: "yaw=0,90", parameters: d.parameters)
        let time = try SweepParameter(argument: "time=0:1.5:1.5", parameters: d.parameters)
        let zipped = try Sweep(scene: d, parameters: [yaw, time], combination: .zip)
        #expect(zipped.variantCount == 2)
        #expect(zipped.values(ofVariant: 2) == [.number(90), .number(1.5)])
        #expect(zipped.time(ofVariant: 2) == 1.5)
        let grid = try Sweep(scene: d, parameters: [yaw, time])
        #expect(grid.variantCount == 4)
        #expect(grid.values(ofVariant: 3) == [.number(90), .number(0)])
        #expect(throws: SweepError("unknown sweep parameter `yw`", hint: "did you mean `yaw`?")) {
            try SweepParameter(argument: "yw=1", parameters: d.parameters)
        }
    }

    @Test func wrongShapesOfParams() throws {
        #expect(try singleSceneIssue("params: [yaw]\ncanvas: {size: [10, 10]}\nlayers: []").description
            == "s.yaml:1:9: params: expected a mapping from parameter names to default values; e.g. `params: {yaw: 30, distance: {default: 500, range: [200, 2000]}}`")
        #expect(try singleSceneIssue("params: {yaw: [1, 2]}\ncanvas: {size: [10, 10]}\nlayers: []").description
            == "s.yaml:1:15: params.yaw: expected a default number or a mapping {default, range, step, unit, label}, found a list; e.g. `yaw: 30` or `yaw: {default: 30, range: [0, 90]}`")
        #expect(try singleSceneIssue("params: {yaw: {range: [0, 90]}}\ncanvas: {size: [10, 10]}\nlayers: []").description
            == "s.yaml:1:15: params.yaw: missing key `default`; e.g. `{default: 30, range: [0, 90]}`")
        #expect(try singleSceneIssue("params: {yaw: {default: 0, rnage: [0, 90]}}\ncanvas: {size: [10, 10]}\nlayers: []").description
            == "s.yaml:1:28: params.yaw.rnage: unknown key `rnage`; did you mean `range`?")
        #expect(try singleSceneIssue("params: {yaw: {default: 0, range: [90, 0]}}\ncanvas: {size: [10, 10]}\nlayers: []").description
            == "s.yaml:1:35: params.yaw.range: the range [90, 0] is empty; write [low, high]")
        #expect(try singleSceneIssue("params: {2x: 0}\ncanvas: {size: [10, 10]}\nlayers: []").description
            == "s.yaml:1:10: params.2x: `2x` is not a parameter name; a letter or `_`, then letters, digits or `_` (written `$2x` where it is used)")
    }

    @Test func timeAndLightingFieldNamesAreReserved() throws {
        #expect(try singleSceneIssue("params: {time: 0}\ncanvas: {size: [10, 10]}\nlayers: []").description
            == "s.yaml:1:10: params.time: `time` cannot be a parameter name: `time` is the scene time, which sweeps vary themselves; choose another name")
        #expect(try singleSceneIssue("params: {ambient: 0}\ncanvas: {size: [10, 10]}\nlayers: []").message
            == "`ambient` cannot be a parameter name: `ambient` is a lighting field that sweeps vary by that name")
    }

    @Test func rangeSyntax() throws {
        #expect(try SceneParameter.rangeValues("0:90:15") == [0, 15, 30, 45, 60, 75, 90])
        // 1 is not reached by steps of 0.4 from 0: the values stop at 0.8.
        #expect(try SceneParameter.rangeValues("0:1:0.4") == [0, 0.4, 0.8])
        #expect(try SceneParameter.rangeValues("5") == nil)
        #expect(throws: ParameterError("the range `9:0:1` is empty", hint: "LOW ≤ HIGH and a positive STEP, e.g. 0:90:15")) {
            try SceneParameter.rangeValues("9:0:1")
        }
    }
}
