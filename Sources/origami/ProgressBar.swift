import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Progress of a long command (a sweep's variants, an animation's frames) on standard error. On a terminal:
/// one line redrawn in place, with a bar, the rate and the time left. Otherwise (a log, a CI job): a plain line
/// every `interval` seconds, `animate: 41/120 frames, 3 s left`, and none for a run shorter than that.
/// `quiet` silences both.
final class ProgressBar: @unchecked Sendable {
    private let total: Int
    private let label: String
    private let unit: String
    private let terminal: Bool
    private let quiet: Bool
    private let interval: Double
    private let start = Date()
    private var lastLine: Date
    private var drawn = false
    private let lock = NSLock()

    init(total: Int, label: String, unit: String, quiet: Bool = false, interval: Double = 5,
         terminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total; self.label = label; self.unit = unit; self.quiet = quiet
        self.interval = interval; self.terminal = terminal
        lastLine = start
    }

    /// `done` of `total` are finished (from any thread).
    func update(_ done: Int) {
        guard !quiet, total > 0 else { return }
        lock.withLock {
            let now = Date()
            let elapsed = now.timeIntervalSince(start)
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            let left = rate > 0 ? Double(total - done) / rate : nil
            if terminal {
                let width = 30
                let filled = done * width / total
                let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                var line = "\r[\(bar)] \(done)/\(total) \(unit)"
                if rate > 0 { line += String(format: "  %.1f/s", rate) }
                if let left, done < total { line += "  ETA " + Self.duration(left) }
                // Clear what a longer earlier line left behind.
                FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
                drawn = true
            } else if now.timeIntervalSince(lastLine) >= interval && done < total {
                lastLine = now
                let tail = left.map { ", " + Self.duration($0) + " left" } ?? ""
                FileHandle.standardError.write(Data("\(label): \(done)/\(total) \(unit)\(tail)\n".utf8))
            }
        }
    }

    func finish() {
        lock.withLock {
            guard drawn else { return }
            FileHandle.standardError.write(Data("\n".utf8))
            drawn = false
        }
    }

    /// `3 s`, `2 min 5 s`, `1 h 3 min`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }
}
