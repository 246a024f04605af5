import Foundation

/// The outcome of running a command.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs the `origami` executable built beside the test bundle.
public enum OrigamiCommand {
    /// The package's root folder (where Package.swift is).
    public static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `origami` in the build folder the tests run from (`.build/<triple>/debug`).
    public static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [beside, beside.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent("origami")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/origami")
    }

    /// Runs `origami` with `arguments` in `directory` (default: the package root) and waits for it. With
    /// `addressSpaceKiB`, under that `ulimit -v`, as on a shared machine or in a container.
    /// `environment`: variables set (or with `nil`, removed) on top of the test's own. `standardInput`: what the
    /// command reads on its standard input (default: `nil`, the test's own standard input).
    public static func run(_ arguments: [String], in directory: URL? = nil,
                           addressSpaceKiB: Int? = nil, environment: [String: String?] = [:],
                           standardInput: String? = nil) throws -> CommandResult {
        let process = Process()
        if !environment.isEmpty {
            var env = ProcessInfo.processInfo.environment
            for (k, v) in environment { env[k] = v }
            process.environment = env
        }
        if let kib = addressSpaceKiB {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -v \(kib) && exec \"$0\" \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory ?? packageRoot
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = standardInput.map { _ in Pipe() }
        if let input { process.standardInput = input }
        try process.run()
        if let input, let standardInput {
            // A child that exits without reading must not kill the test process with SIGPIPE.
            signal(SIGPIPE, SIG_IGN)
            // Written from another thread: a large input must not block while the child fills its output pipes.
            let data = Data(standardInput.utf8)
            Thread {
                try? input.fileHandleForWriting.write(contentsOf: data)
                try? input.fileHandleForWriting.close()
            }.start()
        }
        // Read before waiting, so a large output cannot fill the pipe and block the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }
}
