import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// `origami serve` started as a process: its address line, a request on the port it bound, and its refusals.
@Suite("origami serve, run as a process")
struct ServeCommandTests {
    /// A running `origami serve`; ended by SIGTERM.
    final class Server {
        let process = Process()
        let out = Pipe(), err = Pipe()
        private(set) var firstLine = ""

        init(_ arguments: [String]) throws {
            process.executableURL = OrigamiCommand.executable
            process.arguments = ["serve"] + arguments
            process.currentDirectoryURL = OrigamiCommand.packageRoot
            process.standardOutput = out
            process.standardError = err
            try process.run()
            // The address line, within 20 s.
            var data = Data()
            let deadline = Date().addingTimeInterval(20)
            while !data.contains(UInt8(ascii: "\n")), Date() < deadline, process.isRunning {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { Thread.sleep(forTimeInterval: 0.05) } else { data.append(chunk) }
            }
            firstLine = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        }

        var port: Int? {
            guard let r = firstLine.range(of: #":(\d+)/"#, options: .regularExpression) else { return nil }
            return Int(firstLine[r].dropFirst().dropLast())
        }

        func stop() -> (status: Int32, stderr: String) {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        }
    }

    /// GET on loopback; the status and body.
    static func get(_ port: Int, _ path: String) throws -> (Int, Data) {
        let url = try #require(URL(string: "http://127.0.0.1:\(port)\(path)"))
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (Int, Data)?
        URLSession.shared.dataTask(with: url) { data, response, _ in
            result = ((response as? HTTPURLResponse)?.statusCode ?? -1, data ?? Data())
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 20)
        return try #require(result)
    }

    @Test func servesOnTheBoundPortWithSetValues() throws {
        let server = try Server(["Models/turning-cube.yaml", "--port", "0", "--set", "yaw=45"])
        defer { _ = server.stop() }
        let port = try #require(server.port, "first line: \(server.firstLine)")
        #expect(server.firstLine == "origami serve: http://127.0.0.1:\(port)/ shows Models/turning-cube.yaml (Ctrl-C to stop)")
        let (status, body) = try Self.get(port, "/scene")
        #expect(status == 200)
        let scene = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let yaw = try #require((scene["params"] as? [[String: Any]])?.first { $0["name"] as? String == "yaw" })
        #expect(yaw["value"] as? Double == 45 && yaw["defaultValue"] as? Double == 30)
        let (badStatus, badBody) = try Self.get(port, "/render.png?yaw=999")
        #expect(badStatus == 400)
        #expect(String(decoding: badBody, as: UTF8.self).contains("`999` is not a number in -180…180 for `yaw`"))
        let (pngStatus, png) = try Self.get(port, "/render.png")
        #expect(pngStatus == 200 && png.starts(with: PNGFixture.signature))
        let (status2, stderr) = server.stop()
        #expect(status2 == SIGTERM, "ended by SIGTERM: \(stderr)")
        #expect(!stderr.contains("warning"))
    }

    @Test func nonLoopbackHostWarns() throws {
        let server = try Server(["Models/lit-cube.yaml", "--port", "0", "--host", "0.0.0.0"])
        let port = try #require(server.port, "first line: \(server.firstLine)")
        #expect(server.firstLine.hasPrefix("origami serve: http://0.0.0.0:\(port)/"))
        let (_, stderr) = server.stop()
        #expect(stderr.contains("warning: listening on 0.0.0.0, not loopback: other machines can reach this viewer"))
    }

    @Test func portInUseIsAnError() throws {
        let first = try Server(["Models/lit-cube.yaml", "--port", "0"])
        defer { _ = first.stop() }
        let port = try #require(first.port)
        let r = try OrigamiCommand.run(["serve", "Models/lit-cube.yaml", "--port", String(port)])
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("error: cannot serve on 127.0.0.1:\(port): "), "\(r.stderr)")
    }

    @Test func refusals() throws {
        let missing = try OrigamiCommand.run(["serve", "no-such.yaml"])
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: invalid scene no-such.yaml\nno-such.yaml: cannot read the scene file: no such file\n")
        let range = try OrigamiCommand.run(["serve", "Models/turning-cube.yaml", "--set", "yaw=999"])
        #expect(range.status == 1)
        #expect(range.stderr.hasPrefix("error: --set yaw=999: 999 is outside the range -180…180 of `yaw`"), "\(range.stderr)")
        let port = try OrigamiCommand.run(["serve", "Models/lit-cube.yaml", "--port", "70000"])
        #expect(port.status == 64)
        #expect(port.stderr.contains("--port must be between 0 and 65535."))
        #expect(missing.stdout.isEmpty && range.stdout.isEmpty && port.stdout.isEmpty)
    }
}
