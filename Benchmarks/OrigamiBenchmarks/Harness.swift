import Foundation
import Origami

/// Keeps a value alive and opaque to the optimizer, so a benchmarked computation cannot be removed.
@_optimize(none) @inline(never)
func blackHole<T>(_ value: T) {}

/// `blackHole` for a layer answer (`hitTest`), as cheap to call as the baselines' `blackHole(Int)`: the generic
/// one would have each call look up `Optional<Layer>`'s metadata (a runtime call), where `Int`'s is a constant —
/// a cost of the benchmark's sink, not of the API.
@_optimize(none) @inline(never)
func blackHole(_ value: Layer?) {}

/// Returns its argument through a call the optimizer cannot see into, so inputs are not constant-folded.
@_optimize(none) @inline(never)
func opaque<T>(_ value: T) -> T { value }

/// One line of the results table: a subject and the baseline it was measured against in the same run.
struct Row {
    var group: String
    var name: String
    var median: Duration
    var baselineName: String
    var baselineMedian: Duration
    /// What the issue asks of this row, e.g. "≤ 1.5×"; empty when there is no target.
    var target: String = ""
    /// Extra facts (fragment counts, file sizes, speed-ups).
    var note: String = ""

    /// subject ÷ baseline.
    var ratio: Double { baselineMedian == .zero ? .nan : median / baselineMedian }
}

/// How long to measure: `samples` timed runs of each side after `warmup` untimed ones. Sub-millisecond work is
/// repeated inside one sample until the sample lasts about `sampleTarget`, and reported per call.
struct Plan {
    var samples = 15
    var warmup = 2
    var sampleTarget: Duration = .milliseconds(4)

    static let quick = Plan(samples: 5, warmup: 1, sampleTarget: .milliseconds(1))
}

/// A minimal harness: `ContinuousClock`, warm-up, interleaved samples (subject, baseline, subject, …, so a
/// noisy neighbour on the shared machine hits both sides alike), medians, ratios.
final class Harness {
    var plan: Plan
    var rows: [Row] = []
    let filter: String?
    let clock = ContinuousClock()

    init(plan: Plan, filter: String?) { self.plan = plan; self.filter = filter }

    /// What the machine itself gives work split over `threads` threads, measured beside a row that runs on every
    /// core: how much sooner `threads` threads finish a fixed piece of work each than one thread finishes it
    /// `threads` times (2.00 on two free cores) — an integer loop (`compute`), and a pass adding one to every word of
    /// a 32 MiB buffer of the thread's own, past the caches (`memory`: a 1024² render's frames and Cairo's buffers do
    /// not fit them either). On this VM the rows on two threads read fast or slow by run; this tells a slow run of the
    /// machine (a core shared or taken away, memory bandwidth taken by a neighbour) from a slow run of the code.
    /// Medians of 7.
    func machineSpeedUp(threads: Int) -> (compute: Double, memory: Double) {
        @Sendable func spin() -> UInt64 {
            var x: UInt64 = 0x9E37_79B9_7F4A_7C15
            for _ in 0..<3_000_000 { x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; x ^= x >> 29 }
            return x
        }
        let words = 4 << 20
        let buffers = (0..<threads).map { _ in
            let b = UnsafeMutablePointer<UInt64>.allocate(capacity: words)
            b.initialize(repeating: 0, count: words)
            return b
        }
        defer { for b in buffers { b.deallocate() } }
        nonisolated(unsafe) let shared = buffers
        @Sendable func stream(_ k: Int) -> UInt64 {
            let b = shared[k]
            for i in 0..<words { b[i] &+= 1 }
            return b[words / 2]
        }
        func speedUp(_ work: @escaping @Sendable (Int) -> UInt64) -> Double {
            var alone: [Duration] = [], together: [Duration] = []
            for _ in 0..<7 {
                alone.append(clock.measure { blackHole(work(0)) })
                together.append(clock.measure {
                    let group = DispatchGroup()
                    for k in 0..<threads {
                        group.enter()
                        Thread { blackHole(work(k)); group.leave() }.start()
                    }
                    group.wait()
                })
            }
            return Double(threads) * milliseconds(median(alone)) / milliseconds(median(together))
        }
        return (speedUp { _ in spin() }, speedUp(stream))
    }

    /// Whether `--filter` selects the row: its group and name contain the filter, or one of its `|`-separated
    /// alternatives (so a rerun can include the rows that run before a row, to see what they leave behind).
    func wants(_ group: String, _ name: String) -> Bool {
        guard let filter else { return true }
        return filter.split(separator: "|").contains { "\(group) \(name)".localizedCaseInsensitiveContains($0) }
    }

    /// How many calls of `body` fill one sample (1 for anything that takes longer than the sample target).
    private func batchSize(_ body: () throws -> Void) rethrows -> Int {
        var n = 1
        while true {
            let t = try clock.measure { for _ in 0..<n { try body() } }
            if t >= plan.sampleTarget / 4 || n >= 1 << 24 {
                let perCall = t / n
                guard perCall > .zero else { return n }
                return max(1, Int((plan.sampleTarget / perCall).rounded()))
            }
            n *= 4
        }
    }

    /// Medians per call of `subject` and `baseline`, measured alternately.
    func compare(_ subject: () throws -> Void, _ baseline: () throws -> Void,
                 samples: Int? = nil) rethrows -> (Duration, Duration) {
        for _ in 0..<plan.warmup { try subject(); try baseline() }
        let ns = try batchSize(subject), nb = try batchSize(baseline)
        var s: [Duration] = [], b: [Duration] = []
        for _ in 0..<(samples ?? plan.samples) {
            s.append(try clock.measure { for _ in 0..<ns { try subject() } } / ns)
            b.append(try clock.measure { for _ in 0..<nb { try baseline() } } / nb)
        }
        return (median(s), median(b))
    }

    /// Measures and records one row.
    func row(_ group: String, _ name: String, baseline baselineName: String, target: String = "",
             note: @autoclosure () -> String = "", samples: Int? = nil,
             _ subject: () throws -> Void, against baseline: () throws -> Void) rethrows {
        guard wants(group, name) else { return }
        let (s, b) = try compare(subject, baseline, samples: samples)
        add(Row(group: group, name: name, median: s, baselineName: baselineName, baselineMedian: b,
                target: target, note: note()))
    }

    func add(_ row: Row) {
        rows.append(row)
        // Progress on stderr, so the table on stdout stays clean.
        FileHandle.standardError.write(Data("  \(row.group) · \(row.name): \(format(row.median)) vs \(format(row.baselineMedian)) (\(String(format: "%.2f", row.ratio))×)\n".utf8))
    }

    func median(_ values: [Duration]) -> Duration {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .zero }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The results as a Markdown table.
    func table() -> String {
        var lines = ["| group | benchmark | median | baseline (same run) | baseline median | ratio | target | met | notes |",
                     "|---|---|--:|---|--:|--:|---|:-:|---|"]
        for r in rows {
            let met = r.met.map { $0 ? "✓" : "✗" } ?? ""
            lines.append("| \(r.group) | \(r.name) | \(format(r.median)) | \(r.baselineName) | \(format(r.baselineMedian)) | "
                         + "\(String(format: "%.2f×", r.ratio)) | \(r.target) | \(met) | \(r.note) |")
        }
        return lines.joined(separator: "\n")
    }

    /// What the README says about the run, all of it derived from the rows: which targets were met and which
    /// were not, with their figures. Nothing here is typed by hand, so the prose cannot disagree with the table.
    func summary() -> String {
        let judged = rows.filter { $0.met != nil }
        let met = judged.filter { $0.met == true }, missed = judged.filter { $0.met == false }
        func line(_ r: Row) -> String {
            // A wall-time target is about the median itself; any other about the ratio.
            let wall = r.target.hasSuffix(" ms") || r.target.contains(" s wall") || r.target.contains(" ms wall")
            let figure = wall ? "\(format(r.median))" : "\(String(format: "%.2f×", r.ratio)) (\(format(r.median)) against \(format(r.baselineMedian)))"
            return "- \(r.group) · \(r.name): \(figure), target \(r.target)"
        }
        var text = ["\(rows.count) rows; \(judged.count) have a target the harness can judge (a ratio `≤ x×` or a wall time "
                    + "`≤ n ms`): \(met.count) met, \(missed.count) not met. Rows whose target is judged from their note "
                    + "(memory, scaling) have an empty *met* column."]
        if !missed.isEmpty { text += ["", "Not met:"] + missed.map(line) }
        if !met.isEmpty { text += ["", "Met:"] + met.map(line) }
        return text.joined(separator: "\n")
    }
}

extension Row {
    /// Whether the row meets its target, for targets of the forms "≤ x×" (the ratio; also written after a
    /// speed-up as "(ratio ≤ x×)") and "≤ n ms" / "≤ n s" (the median); `nil` for any other (judged from the note).
    var met: Bool? {
        if let r = target.range(of: "ratio ≤ "), let limit = Double(target[r.upperBound...].prefix { $0 != "×" }) {
            return ratio <= limit
        }
        let words = target.split(separator: " ")
        guard words.count >= 2, words[0] == "≤" else { return nil }
        if words[1].hasSuffix("×"), let limit = Double(words[1].dropLast()) { return ratio <= limit }
        guard words.count >= 3, let limit = Double(words[1]) else { return nil }
        switch words[2] {
        case "ms": return milliseconds(median) <= limit
        case "s": return milliseconds(median) <= limit * 1000
        default: return nil
        }
    }
}

/// `make bench` writes its results into Benchmarks/README.md between these markers (`--readme PATH`): the
/// machine, the table and the summary, replacing the previous run's.
enum ReadmeResults {
    static let begin = "<!-- results: written by `make bench`; do not edit by hand -->"
    static let end = "<!-- end of results -->"

    static func write(_ h: Harness, to path: String, total: Duration) throws {
        let url = URL(fileURLWithPath: path)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let a = text.range(of: begin), let b = text.range(of: end), a.upperBound <= b.lowerBound else {
            throw BenchError("\(path) has no results markers (\(begin) … \(end))")
        }
        let block = ["", "Machine: \(machine()). Date: \(Date().formatted(.iso8601.year().month().day())). Measuring took "
                     + "\(format(total)).", "", h.table(), "", h.summary(), ""].joined(separator: "\n")
        let updated = text[..<a.upperBound] + block + text[b.lowerBound...]
        try Data(updated.utf8).write(to: url, options: .atomic)
    }

    /// CPU model and count, kernel, Debian release.
    static func machine() -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        let debian = (try? String(contentsOfFile: "/etc/debian_version", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        return "\(ProcessInfo.processInfo.activeProcessorCount) × \(cpu), Linux \(kernel), Debian \(debian)"
    }
}

/// A duration in the unit that suits it: ns, µs, ms or s.
func format(_ d: Duration) -> String {
    let seconds = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    switch seconds {
    case ..<1e-6: return String(format: "%.1f ns", seconds * 1e9)
    case ..<1e-3: return String(format: "%.2f µs", seconds * 1e6)
    case ..<1: return String(format: "%.2f ms", seconds * 1e3)
    default: return String(format: "%.2f s", seconds)
    }
}

func milliseconds(_ d: Duration) -> Double {
    (Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18) * 1e3
}
