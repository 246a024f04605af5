import Foundation
import Hummingbird
import HummingbirdTesting
import Origami
import OrigamiRender
import OrigamiScene
import Testing
import TestSupport
@testable import OrigamiServe

/// A scene file in a fresh folder, and a viewer of it.
struct ViewerFixture {
    let folder: URL
    let file: URL
    let viewer: Viewer

    init(_ text: String, name: String = "scene.yaml", settings: [String: Double] = [:]) throws {
        folder = try SpecialFiles.folder("origami-serve")
        file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        let source = try SceneSource(url: file, displayName: name, settings: settings)
        viewer = try Viewer(source: source)
    }

    /// The book's cube (Models/cube-button-interception.yaml).
    static func bookCube() throws -> ViewerFixture {
        let text = try String(contentsOf: OrigamiCommand.packageRoot.appendingPathComponent("Models/cube-button-interception.yaml"),
                              encoding: .utf8)
        return try ViewerFixture(text, name: "cube.yaml")
    }

    /// Runs `body` against the viewer's routes, without a port.
    func test(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        try await viewer.application(host: "127.0.0.1", port: 0).test(.router, body)
    }
}

/// A lit cube turned by a parameter, lit by one directional light: the viewer's controls come from it.
let litParameterScene = """
    # A cube turned by yaw.
    params:
      yaw: {default: 30, range: [-180, 180], step: 15, unit: deg, label: Cube yaw}
    canvas:
      size: [200, 160]
      background: "#ffffff"
    layers:
      - name: container
        frame: [0, 0, 200, 160]
        sublayerTransform: [perspective 500]
        lighting:
          model: lambert
          ambient: 0.3
          lights:
            - {direction: [-0.5, 0.5, -1], space: scene, intensity: 0.8, color: "#ff8000"}
        sublayers:
          - name: cube
            type: solid
            shape: cube
            size: 80
            position: [100, 80]
            transform: [rotate y $yaw]
            allFaces: {backgroundColor: white}
    """

extension TestResponse {
    var text: String { String(buffer: body) }
    var data: Data { Data(body.readableBytesView) }
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

@Suite("origami serve: routes through HummingbirdTesting")
struct ServeRouteTests {
    @Test func pageAndItsFilesAreServed() async throws {
        let f = try ViewerFixture.bookCube()
        try await f.test { client in
            try await client.execute(uri: "/", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "text/html; charset=utf-8")
                #expect(r.text.contains(#"<script src="/viewer.js"></script>"#))
                // No build step and no CDN: nothing the page loads comes from another host.
                #expect(!r.text.contains("http://") && !r.text.contains("https://"))
            }
            try await client.execute(uri: "/viewer.js", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(r.text.contains("new EventSource(\"/events\")"))
            }
            try await client.execute(uri: "/viewer.css", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "text/css; charset=utf-8")
            }
        }
    }

    /// Only the viewer's own files: no path a request gives reaches the file system, however it is spelled.
    @Test(arguments: ["/../Package.swift", "/%2e%2e/Package.swift", "/%2E%2E%2FPackage.swift", "/..%2f..%2fetc%2fpasswd",
                      "/viewer.js/../../../../etc/passwd", "/Resources/index.html", "/index.html", "/cube.yaml",
                      "//etc/passwd", "/scene/../cube.yaml", "/%2e%2e/%2e%2e/etc/passwd"])
    func traversalIsRefused(path: String) async throws {
        let f = try ViewerFixture.bookCube()
        try await f.test { client in
            try await client.execute(uri: path, method: .get) { r in
                #expect(r.status == .notFound, "\(path)")
                #expect(!r.text.contains("root:") && !r.text.contains("PackageDescription") && !r.text.contains("face4"))
            }
        }
    }

    @Test func otherMethodsAreRefused() async throws {
        let f = try ViewerFixture.bookCube()
        try await f.test { client in
            for method: HTTPRequest.Method in [.post, .put, .delete] {
                try await client.execute(uri: "/render.png", method: method) { r in
                    #expect(r.status == .notFound || r.status == .methodNotAllowed, "\(method)")
                }
            }
        }
    }

    /// The controls' data, from the file by hand: the parameter as declared, the lit layer (the only one, so its
    /// paths have no prefix), the light's direction (−0.5, 0.5, −1) as azimuth atan2(0.5, −0.5) = 135° and
    /// elevation atan2(−1, √0.5) = −54.7356°, its intensity and colour; no animation.
    @Test func sceneJSON() async throws {
        let f = try ViewerFixture(litParameterScene, settings: ["yaw": 45])
        try await f.test { client in
            try await client.execute(uri: "/scene", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "application/json")
                let o = try r.json()
                #expect(o["file"] as? String == "scene.yaml")
                #expect(o["summary"] as? String == "A cube turned by yaw.")
                let canvas = try #require(o["canvas"] as? [String: Any])
                #expect(canvas["width"] as? Double == 200 && canvas["height"] as? Double == 160 && canvas["scale"] as? Double == 1)
                let params = try #require(o["params"] as? [[String: Any]])
                #expect(params.count == 1)
                let yaw = try #require(params.first)
                #expect(yaw["name"] as? String == "yaw")
                #expect(yaw["value"] as? Double == 45)          // the server's --set
                #expect(yaw["defaultValue"] as? Double == 30)   // the file's
                #expect(yaw["min"] as? Double == -180 && yaw["max"] as? Double == 180 && yaw["step"] as? Double == 15)
                #expect(yaw["unit"] as? String == "deg" && yaw["label"] as? String == "Cube yaw")
                #expect(o["settings"] as? [String] == ["yaw=45"])
                let lighting = try #require(o["lighting"] as? [[String: Any]])
                #expect(lighting.count == 1)
                let lit = try #require(lighting.first)
                #expect(lit["layer"] as? String == "container" && lit["prefix"] as? String == "")
                #expect(lit["ambient"] as? Double == 0.3)
                let light = try #require((lit["lights"] as? [[String: Any]])?.first)
                #expect(light["path"] as? String == "light" && light["kind"] as? String == "directional")
                expectApprox(try #require(light["azimuth"] as? Double), 135, tolerance: trigTolerance)
                expectApprox(try #require(light["elevation"] as? Double), -atan2(1, 0.5.squareRoot()) * 180 / .pi, tolerance: trigTolerance)
                expectApprox(try #require(light["elevation"] as? Double), -54.7356103, tolerance: 1e-6)
                #expect(light["intensity"] as? Double == 0.8 && light["color"] as? String == "#ff8000")
                #expect(o["animationEnd"] == nil)
                #expect(o["error"] == nil)
            }
        }
    }

    /// An animation of 2 s starting at 0.5 s ends at 2.5 s (beginTime + duration, speed 1).
    @Test func animationEndIsReported() async throws {
        let f = try ViewerFixture("""
            canvas: {size: [100, 100]}
            layers:
              - name: square
                frame: [25, 25, 50, 50]
                backgroundColor: red
                animations:
                  - {keyPath: opacity, from: 1, to: 0, duration: 2, beginTime: 0.5}
            """)
        try await f.test { client in
            try await client.execute(uri: "/scene", method: .get) { r in
                let o = try r.json()
                expectApprox(try #require(o["animationEnd"] as? Double), 2.5, tolerance: arithmeticTolerance)
            }
        }
    }

    /// What the page's slider sends is what the file says: `ambient=0.8` in the query renders the same pixels
    /// as a copy of the file that says `ambient: 0.8` (read by `Scene.load`, not by the viewer), `yaw=60` the
    /// same as `--set yaw=60`.
    @Test func renderMatchesTheFileWithThoseValues() async throws {
        let f = try ViewerFixture(litParameterScene)
        let copy = f.folder.appendingPathComponent("copy.yaml")
        try Data(litParameterScene.replacingOccurrences(of: "ambient: 0.3", with: "ambient: 0.8")
            .replacingOccurrences(of: "default: 30", with: "default: 60").utf8).write(to: copy)
        let expected = try Scene.load(contentsOf: copy)
        let reference = try Renderer.render(expected.root, size: expected.canvas.size,
                                            options: RenderOptions(scale: 1, background: expected.canvas.background))
        let unchanged = try Scene.load(contentsOf: f.file)
        let before = try Renderer.render(unchanged.root, size: unchanged.canvas.size,
                                         options: RenderOptions(scale: 1, background: unchanged.canvas.background))
        try await f.test { client in
            try await client.execute(uri: "/render.png?yaw=60&ambient=0.8", method: .get) { r in
                #expect(r.status == .ok)
                #expect(r.headers[.contentType] == "image/png")
                let b = try Bitmap(pngData: r.data)
                #expect(b.width == 200 && b.height == 160)
                #expect(b.pixels == reference.pixels)
                #expect(b.pixels != before.pixels)
            }
            // The device pixel ratio doubles the pixels, not the canvas.
            try await client.execute(uri: "/render.png?view.scale=2", method: .get) { r in
                let b = try Bitmap(pngData: r.data)
                #expect(b.width == 400 && b.height == 320)
            }
        }
    }

    /// Every query value is checked, with the message the command line gives for it, and answered as JSON.
    @Test(arguments: [
        ("ambient=2", 400, "`2` is not a number in 0…1 for `ambient`"),
        ("ambient=nan", 400, "`nan` is not a number in 0…1 for `ambient`"),
        ("yaw=999", 400, "`999` is not a number in -180…180 for `yaw`"),
        ("yaw=0:90:15", 400, "`yaw` takes one value here, not 7"),
        ("yew=10", 400, "unknown sweep parameter `yew`"),
        ("time=inf", 400, "`inf` is not a finite number for `time`"),
        ("light[2].intensity=1", 400, "`light[2].intensity` names light 2, but the lighting has 1 light(s)"),
        ("light.direction=0,0,0", 400, "the light direction is zero"),
        ("view.scale=3", 400, "`view.scale` must be between 1 and 2 (device pixels per point), not 3"),
        ("view.scale=inf", 400, "`view.scale` must be a finite number, not `inf`"),
        ("view.zoom=2", 400, "unknown viewer key `view.zoom`"),
        ("yaw=10&yaw=20", 400, "`yaw` is given twice"),
        ("yaw=", 400, "`yaw` has no value"),
    ] as [(String, Int, String)])
    func badQueryValues(query: String, status: Int, message: String) async throws {
        let f = try ViewerFixture(litParameterScene)
        try await f.test { client in
            for route in ["/render.png", "/hitmap.png", "/hit"] {
                let extra = route == "/hit" ? "&view.x=100&view.y=80" : ""
                try await client.execute(uri: "\(route)?\(query)\(extra)", method: .get) { r in
                    #expect(r.status.code == status, "\(route)?\(query)")
                    #expect(r.headers[.contentType] == "application/json")
                    let answer = try r.json()
                    #expect(answer["error"] as? String == message, "\(route)?\(query): \(r.text)")
                }
            }
        }
    }

    @Test func unknownNamesGetAHint() async throws {
        let f = try ViewerFixture(litParameterScene)
        try await f.test { client in
            try await client.execute(uri: "/render.png?yew=10", method: .get) { r in
                let answer = try r.json()
                #expect(answer["hint"] as? String == "did you mean `yaw`?")
            }
        }
    }

    @Test func oversizedQueryIsRefused() async throws {
        let f = try ViewerFixture(litParameterScene)
        try await f.test { client in
            try await client.execute(uri: "/render.png?yaw=1&" + String(repeating: "a", count: 9000) + "=1", method: .get) { r in
                #expect(r.status.code == 414)
                let answer = try r.json()
                #expect(answer["error"] as? String == "the query is 9008 bytes, over the limit of 8192")
            }
        }
    }

    /// A render the renderer refuses (a 12000-point-wide canvas at 2 device pixels per point is 24000 pixels,
    /// over the 16384 a side) is a JSON error, and the server goes on answering.
    @Test func renderErrorIsJSONAndTheServerLivesOn() async throws {
        let f = try ViewerFixture("""
            canvas: {size: [12000, 10]}
            layers: [{frame: [0, 0, 10, 10], backgroundColor: red}]
            """)
        try await f.test { client in
            try await client.execute(uri: "/render.png?view.scale=2", method: .get) { r in
                #expect(r.status.code == 422)
                let message = try #require(try r.json()["error"] as? String)
                #expect(message.hasPrefix("cannot render: "), "\(message)")
            }
            try await client.execute(uri: "/render.png", method: .get) { r in
                #expect(r.status == .ok)
                let bitmap = try Bitmap(pngData: r.data)
                #expect(bitmap.width == 12000)
            }
        }
    }

    /// The book's interception at the canvas centre (HitCommandTests derives it by hand): face 4 receives the
    /// touch in tree order and for Core Animation, face 3 is seen. The outlines are the two faces' corners
    /// projected by the book's camera, `BookCubeProbes.project`: face 3 is the cube's y = −100 face, face 4 its
    /// y = +100 face.
    @Test func hitAtTheBookCubesCentre() async throws {
        let f = try ViewerFixture.bookCube()
        try await f.test { client in
            try await client.execute(uri: "/hit?view.x=200&view.y=200", method: .get) { r in
                #expect(r.status == .ok)
                let o = try r.json()
                #expect((o["tree"] as? [String: Any])?["face"] as? String == "face4")
                #expect((o["coreanimation"] as? [String: Any])?["face"] as? String == "face4")
                #expect((o["frontmost"] as? [String: Any])?["face"] as? String == "face3")
                #expect((o["frontmost"] as? [String: Any])?["solid"] == nil)
                let layers = try #require(o["layers"] as? [[String: Any]])
                let rows = layers.map { (($0["answer"] as? [String: Any])?["layer"] as? String ?? "?", $0["treeRank"] as? Int ?? -1, $0["depthRank"] as? Int ?? -1) }
                #expect(rows.contains { $0 == ("face4", 0, 1) } && rows.contains { $0 == ("face3", 1, 0) }, "\(rows)")
                func corners(y: Double) -> [CGPoint] {
                    [[-100, y, -100], [100, y, -100], [100, y, 100], [-100, y, 100]].map { BookCubeProbes.project($0).point }
                }
                func outline(_ key: String) throws -> [CGPoint] {
                    try #require(o[key] as? [[Double]]).map { CGPoint(x: $0[0], y: $0[1]) }
                }
                for (key, expected) in [("seenOutline", corners(y: -100)), ("receivingOutline", corners(y: 100))] {
                    let got = try outline(key)
                    #expect(got.count == 4, "\(key)")
                    for e in expected {
                        #expect(got.contains { abs($0.x - e.x) < trigTolerance && abs($0.y - e.y) < trigTolerance },
                                "\(key): \(e) not in \(got)")
                    }
                }
            }
            try await client.execute(uri: "/hit?view.x=1&view.y=1", method: .get) { r in
                // The corner of the canvas: only the container (no face) is there.
                let o = try r.json()
                #expect((o["tree"] as? [String: Any])?["layer"] as? String == "container")
                #expect(o["seenOutline"] != nil)
            }
            try await client.execute(uri: "/hit", method: .get) { r in
                #expect(r.status.code == 400)
                let answer = try r.json()
                #expect(answer["error"] as? String == "a hit test needs `view.x` and `view.y` (canvas points)")
            }
        }
    }

    /// The hit map at the centre is face 4's colour hatched (intercepted) or plain; away from the cube, the
    /// container's colour, never hatched. Colours are `HitMap.color(i)` for the i-th layer reached in reading order.
    @Test func hitMapIsTheCanvasSize() async throws {
        let f = try ViewerFixture.bookCube()
        try await f.test { client in
            try await client.execute(uri: "/hitmap.png", method: .get) { r in
                #expect(r.status == .ok)
                let b = try Bitmap(pngData: r.data)
                #expect(b.width == 400 && b.height == 400)
                #expect(b[2, 2] != b[200, 203] && b[2, 2] != b[201, 203])
            }
        }
    }

    /// An edit reloads; a broken edit keeps the last good scene (renders go on) and reports the located error;
    /// fixing it clears the error.
    @Test func liveReload() async throws {
        let f = try ViewerFixture(litParameterScene)
        let source = f.viewer.source
        #expect(source.current.version == 1)
        #expect(source.check() == false)
        try Data(litParameterScene.replacingOccurrences(of: "#ffffff", with: "#000000").utf8).write(to: f.file)
        #expect(source.check() == true)
        #expect(source.current.version == 2 && source.current.error == nil)
        #expect(source.current.description.canvas.background == Color(red: 0, green: 0, blue: 0))
        // Line 13 of the file, `ambient: 0.3` → `ambeint: 0.3`: the key's column is 7 (six spaces before it).
        try Data(litParameterScene.replacingOccurrences(of: "ambient: 0.3", with: "ambeint: 0.3").utf8).write(to: f.file)
        #expect(source.check() == true)
        let state = source.current
        #expect(state.version == 3)
        let error = try #require(state.error)
        #expect(error.error == "invalid scene scene.yaml")
        let issue = try #require(error.issues?.first)
        #expect(issue.file == "scene.yaml" && issue.line == 13 && issue.column == 7)
        #expect(issue.keyPath == "layers[0].lighting.ambeint")
        #expect(issue.hint == "did you mean `ambient`?")
        #expect(error.detail?.contains("scene.yaml:13:7: layers[0].lighting.ambeint: unknown key `ambeint`; did you mean `ambient`?") == true)
        #expect(error.detail?.contains("      ambeint: 0.3\n          ^") == true, "\(error.detail ?? "")")
        #expect(state.description.canvas.background == Color(red: 0, green: 0, blue: 0))
        try await f.test { client in
            try await client.execute(uri: "/render.png", method: .get) { r in #expect(r.status == .ok) }
            try await client.execute(uri: "/scene", method: .get) { r in
                let o = try r.json()
                #expect(o["version"] as? Int == 3)
                #expect((o["error"] as? [String: Any])?["error"] as? String == "invalid scene scene.yaml")
            }
        }
        try Data(litParameterScene.utf8).write(to: f.file)
        #expect(source.check() == true)
        #expect(source.current.version == 4 && source.current.error == nil)
        #expect(source.current.description.canvas.background == Color(red: 1, green: 1, blue: 1))
    }

    @Test func deletedFileIsAnErrorNotACrash() throws {
        let f = try ViewerFixture(litParameterScene)
        try FileManager.default.removeItem(at: f.file)
        #expect(f.viewer.source.check() == true)
        #expect(f.viewer.source.current.error?.issues?.first?.message == "cannot read the scene file: no such file")
    }
}

@Suite("origami serve: latest wins, bounded work")
struct RenderGateTests {
    @Test func olderRequestOfAPageIsSuperseded() async throws {
        let gate = RenderGate(capacity: 1, maxWaiting: 4)
        #expect(try await gate.run(client: "a", seq: 2) { 2 } == 2)
        await #expect(throws: RenderGate.Refusal.self) { try await gate.run(client: "a", seq: 1) { 1 } }
        // Another page is not affected.
        #expect(try await gate.run(client: "b", seq: 1) { 1 } == 1)
    }

    /// With one render running and no room to wait, a second is refused at once rather than queued.
    @Test func fullGateRefusesInsteadOfQueueing() async throws {
        let gate = RenderGate(capacity: 1, maxWaiting: 0)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let first = Task { try await gate.run(client: nil, seq: nil) { started.signal(); release.wait(); return 1 } }
        await withCheckedContinuation { c in DispatchQueue.global().async { started.wait(); c.resume() } }
        await #expect(throws: RenderGate.Refusal.self) { try await gate.run(client: nil, seq: nil) { 2 } }
        release.signal()
        #expect(try await first.value == 1)
        #expect(try await gate.run(client: nil, seq: nil) { 3 } == 3)
    }

    /// A waiting request whose page asked again meanwhile is dropped before it renders.
    @Test func waitingRequestIsDroppedWhenSuperseded() async throws {
        let gate = RenderGate(capacity: 1, maxWaiting: 4)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let blocker = Task { try await gate.run(client: "x", seq: 1) { started.signal(); release.wait(); return 0 } }
        await withCheckedContinuation { c in DispatchQueue.global().async { started.wait(); c.resume() } }
        let ran = LockedCount()
        let stale = Task { try await gate.run(client: "p", seq: 1) { ran.add(); return 1 } }
        try await Task.sleep(for: .milliseconds(50))
        let fresh = Task { try await gate.run(client: "p", seq: 2) { ran.add(); return 2 } }
        try await Task.sleep(for: .milliseconds(50))
        release.signal()
        _ = try await blocker.value
        await #expect(throws: RenderGate.Refusal.self) { try await stale.value }
        #expect(try await fresh.value == 2)
        #expect(ran.value == 1)
    }
}

final class LockedCount: @unchecked Sendable {   // `count` only under `lock`
    private var count = 0
    private let lock = NSLock()
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
