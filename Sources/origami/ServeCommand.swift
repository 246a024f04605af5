import ArgumentParser
import Dispatch
import Foundation
import OrigamiScene
import OrigamiServe

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Show a scene in the browser: sliders for its parameters, lighting and time, hit tests by click, live reload.",
        discussion: """
            Starts a local web server and prints its address. The page renders the scene, with a slider for every
            parameter the scene declares, controls for the lighting of each lit layer, a time scrubber when the
            scene animates, the three hit-test answers for a click, the hit map, and the `origami` command line
            that reproduces what it shows. Saving the scene file (or an image it uses) updates the page; a broken
            edit shows the located error and keeps the last good picture. Stop with Ctrl-C.
            """
    )

    @OptionGroup var scene: SceneArgument

    @Option(help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "n"))
    var port: Int = 8080

    @Option(help: ArgumentHelp("The address to listen on. Anything but loopback lets other machines see the scene and use the server's CPU.",
                               valueName: "address"))
    var host: String = "127.0.0.1"

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard !host.isEmpty else { throw ValidationError("--host must name an address, e.g. 127.0.0.1.") }
    }

    /// 127.0.0.0/8, ::1 and `localhost`.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    func run() throws {
        // A parent may have started us with these blocked (a test runner does): the server runs until one comes,
        // so they must reach it. Before any thread starts, so every thread inherits the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        for s in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, s) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let description = scene.loadDescription()
        let source = SceneSource(url: URL(fileURLWithPath: scene.scene), displayName: scene.scene, limits: scene.limits,
                                 settings: scene.parameters.values, description: description)
        let viewer: Viewer
        do { viewer = try Viewer(source: source) } catch { fail(error.error, details: error.hint) }
        if !Self.isLoopback(host) {
            FileHandle.standardError.write(Data("""
                warning: listening on \(host), not loopback: other machines can reach this viewer, see the scene and \
                use this machine's CPU (it has no authentication). Use --host 127.0.0.1 to keep it local.

                """.utf8))
        }
        let host = self.host, port = self.port, name = scene.scene
        let done = DispatchSemaphore(value: 0)
        let failure = LockedBox<String?>(nil)
        Task {
            do {
                try await viewer.run(host: host, port: port) { bound in
                    let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
                    // Written at once (not through stdout's buffer): a script waits for this line.
                    FileHandle.standardOutput.write(Data("origami serve: http://\(shown):\(bound)/ shows \(name) (Ctrl-C to stop)\n".utf8))
                }
            } catch {
                failure.set("cannot serve on \(host):\(port): \(error)")
            }
            done.signal()
        }
        done.wait()
        if let message = failure.get() { fail(message) }
    }
}

/// A value handed from the server's task back to the command's thread.
final class LockedBox<T: Sendable>: @unchecked Sendable {   // `value` is only touched under `lock`
    private var value: T
    private let lock = NSLock()
    init(_ value: T) { self.value = value }
    func set(_ v: T) { lock.lock(); value = v; lock.unlock() }
    func get() -> T { lock.lock(); defer { lock.unlock() }; return value }
}
