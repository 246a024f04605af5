import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Origami
import OrigamiRender
import OrigamiScene
import Synchronization

/// The live viewer `origami serve` runs (DESIGN §11): one page, the scene's description as JSON, renders, hit
/// tests and hit maps for any values of its parameters, lighting fields and time, and server-sent events when
/// the file changes.
///
/// Routes: `GET /` (the page), `/viewer.css`, `/viewer.js`, `/scene` (JSON), `/render.png`, `/hitmap.png`,
/// `/hit` (JSON) and `/events` (server-sent events). Nothing a request says reaches the file system: the page's
/// files are read from the package's resources when the viewer starts, and the scene is the one file it was given.
public final class Viewer: Sendable {
    public let source: SceneSource
    let gate: RenderGate
    /// The page's files by request path, read once.
    let assets: [String: (type: String, data: Data)]
    /// Pages listening to `/events` now, and the most allowed.
    let listeners = Mutex(0)
    let maxListeners: Int
    /// How often `/events` looks at the scene's version (the watcher polls the file as often).
    let eventInterval: Duration

    public init(source: SceneSource, concurrentRenders: Int = 2, maxWaitingRenders: Int = 8, maxListeners: Int = 32,
                eventInterval: Duration = .milliseconds(250)) throws(ViewerError) {
        self.source = source
        gate = RenderGate(capacity: concurrentRenders, maxWaiting: maxWaitingRenders)
        self.maxListeners = maxListeners
        self.eventInterval = eventInterval
        var assets: [String: (String, Data)] = [:]
        for (path, name, ext, type) in [("/", "index", "html", "text/html; charset=utf-8"),
                                        ("/viewer.css", "viewer", "css", "text/css; charset=utf-8"),
                                        ("/viewer.js", "viewer", "js", "text/javascript; charset=utf-8")] {
            guard let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Resources"),
                  let data = FileManager.default.contents(atPath: url.path) else {
                throw ViewerError(status: 500, "the viewer's \(name).\(ext) is missing from its resources",
                                  hint: "reinstall origami with its Origami_OrigamiServe.resources folder beside it")
            }
            assets[path] = (type, data)
        }
        self.assets = assets
    }

    // MARK: Routes

    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        for (path, asset) in assets {
            router.get(RouterPath(path)) { _, _ in
                Self.response(.ok, type: asset.type, asset.data)
            }
        }
        router.get("scene") { _, _ in self.json(self.sceneInfo()) }
        router.get("render.png") { request, _ in
            await self.picture(request) { d, time, q in try Self.renderPNG(d, time: time, scale: q.scale) }
        }
        router.get("hitmap.png") { request, _ in
            await self.picture(request) { d, time, q in try Self.hitMapPNG(d, time: time, scale: q.scale) }
        }
        router.get("hit") { request, _ in
            do {
                let q = try ViewerQuery(request.uri.query)
                let point = try q.point()
                let (d, time) = try q.variant(of: self.source.current.description)
                let answer = try await self.gate.run(client: q.client, seq: q.seq) { try HitAnswer(d, time: time, at: point) }
                return self.json(answer)
            } catch {
                return self.errorResponse(error)
            }
        }
        router.get("events") { _, _ in self.events() }
        return router
    }

    /// The application serving `router()` at `host:port` (0: any free port); `onRunning` gets the port bound.
    public func application(host: String, port: Int, onRunning: @escaping @Sendable (Int) -> Void = { _ in })
        -> some ApplicationProtocol {
        var logger = Logger(label: "origami-serve")
        logger.logLevel = .warning
        return Application(router: router(),
                           configuration: .init(address: .hostname(host, port: port), serverName: nil),
                           onServerRunning: { channel in onRunning(channel.localAddress?.port ?? port) },
                           logger: logger)
    }

    /// Serves until the process is ended, watching the scene file meanwhile. No graceful shutdown on signals:
    /// the viewer writes nothing, and an open `/events` stream would hold a graceful one forever; SIGINT and
    /// SIGTERM end the process as they end every `origami` command.
    public func run(host: String, port: Int, onRunning: @escaping @Sendable (Int) -> Void) async throws {
        let app = application(host: host, port: port, onRunning: onRunning)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.source.watch() }
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            try await group.next()
            group.cancelAll()
        }
    }

    // MARK: Answers

    private func picture(_ request: Request,
                         _ make: @escaping @Sendable (SceneDescription, Double?, ViewerQuery) throws -> Data) async -> Response {
        do {
            let q = try ViewerQuery(request.uri.query)
            let state = source.current
            let (d, time) = try q.variant(of: state.description)
            let data = try await gate.run(client: q.client, seq: q.seq) { try make(d, time, q) }
            var response = Self.response(.ok, type: "image/png", data)
            response.headers[HTTPField.Name("X-Scene-Version")!] = String(state.version)
            return response
        } catch {
            return errorResponse(error)
        }
    }

    /// What `/render.png?query` answers, without HTTP and without the gate (the benchmarks' slider-to-picture
    /// latency): the query checked, the scene instantiated with its values, rendered and encoded.
    public func renderPNG(query: String?) throws -> Data {
        let q = try ViewerQuery(query)
        let (d, time) = try q.variant(of: source.current.description)
        return try Self.renderPNG(d, time: time, scale: q.scale)
    }

    static func renderPNG(_ d: SceneDescription, time: Double?, scale: Double) throws -> Data {
        let scene: Scene
        do { scene = try d.instantiate() } catch { throw ViewerError(query: error) }
        do {
            let options = RenderOptions(scale: scale, background: d.canvas.background)
            return try Renderer.render(scene.root, size: d.canvas.size, options: options, time: time).pngData()
        } catch {
            throw ViewerError(render: error)
        }
    }

    /// The `hitmap` picture (without its legend: the page lays it over the render, point for point).
    static func hitMapPNG(_ d: SceneDescription, time: Double?, scale: Double) throws -> Data {
        let scene: Scene
        do { scene = try d.instantiate() } catch { throw ViewerError(query: error) }
        do {
            let tree = PresentationTree(scene.root, placement: .canvas, time: time)
            try HitMap.checkLimits(tree: tree, size: d.canvas.size, scale: scale)
            let map = try HitMap(tree: tree, size: d.canvas.size, scale: scale) { scene.label(of: $0) }
            guard let bitmap = map.bitmap else { throw ViewerError(status: 422, "the hit map is empty") }
            let layer = Layer(frame: CGRect(origin: .zero, size: d.canvas.size))
            layer.contents = bitmap
            return try Renderer.render(layer, size: d.canvas.size, options: RenderOptions(scale: scale)).pngData()
        } catch let error as ViewerError {
            throw error
        } catch {
            throw ViewerError(render: error)
        }
    }

    func sceneInfo() -> SceneInfo { SceneInfo(source.current, file: source.displayName, settings: source.settings) }

    /// Server-sent events: `scene` with `{version, error}` now and whenever the file changes (reloaded, or
    /// broken: the error located as the command line locates it), and a comment every 15 s so proxies keep the
    /// stream open. The stream ends when the page goes.
    private func events() -> Response {
        let admitted = listeners.withLock { n -> Bool in
            guard n < maxListeners else { return false }
            n += 1
            return true
        }
        guard admitted else {
            return errorResponse(ViewerError(status: 503, "too many pages are listening (\(maxListeners))",
                                             hint: "close a viewer tab"))
        }
        let source = self.source, interval = eventInterval
        let keepAlive = max(1, Int(Duration.seconds(15) / interval))
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { [self] writer in
            defer { self.listeners.withLock { $0 -= 1 } }
            var sent = 0, quiet = 0
            while !Task.isCancelled {
                let state = source.current
                if state.version != sent {
                    sent = state.version
                    quiet = 0
                    let event = SceneEvent(version: state.version, error: state.error)
                    let data = (try? JSONEncoder().encode(event)) ?? Data("{}".utf8)
                    try await writer.write(ByteBuffer(string: "event: scene\ndata: \(String(decoding: data, as: UTF8.self))\n\n"))
                } else if quiet >= keepAlive {
                    quiet = 0
                    try await writer.write(ByteBuffer(string: ": still here\n\n"))
                }
                try await Task.sleep(for: interval)
                quiet += 1
            }
            try await writer.finish(nil)
        })
    }

    // MARK: Responses

    static func response(_ status: HTTPResponse.Status, type: String, _ data: Data) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        do {
            return Self.response(status, type: "application/json", try encoder.encode(value))
        } catch {
            return Self.response(.internalServerError, type: "application/json", Data(#"{"error":"cannot encode the answer"}"#.utf8))
        }
    }

    func errorResponse(_ error: any Error) -> Response {
        let e: ViewerError
        switch error {
        case let v as ViewerError: e = v
        case RenderGate.Refusal.superseded:
            e = ViewerError(status: 409, "superseded: the page has asked again since", hint: "only the newest request of a page is answered")
        case RenderGate.Refusal.busy:
            e = ViewerError(status: 503, "busy: too many renders are waiting", hint: "ask again in a moment")
        default: e = ViewerError(render: error)
        }
        return json(e, status: HTTPResponse.Status(code: e.status))
    }
}

/// What `/events` sends.
struct SceneEvent: Codable {
    let version: Int
    let error: ViewerError?
}
