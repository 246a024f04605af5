import Foundation

/// Programs from Debian that tests use to check Origami's output independently (gifsicle, ffmpeg, ffprobe, GNU
/// parallel). A test whose tool is missing is skipped, saying which package provides it.
public enum ExternalTool {
    /// The tool's path on `PATH`, or `nil` when it is not installed.
    public static func path(_ name: String) -> String? {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Runs the program at `path` (in `currentDirectory`, else the test's) and waits for it: its exit status,
    /// standard output and standard error (both read before waiting, so a large output cannot fill a pipe and
    /// block it).
    public static func run(_ path: String, _ arguments: [String], in currentDirectory: URL? = nil) throws
        -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = currentDirectory
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
    }
}
