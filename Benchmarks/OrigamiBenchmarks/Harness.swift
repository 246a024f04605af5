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

/// What `Harness.pairsOnEveryCore` took: every sample pair with the lower of the machine's two readings around it.
struct CorePairs {
    let threads: Int
    let wanted: Int
    var all: [(subject: Duration, baseline: Duration, machine: Double)] = []

    /// What a reading must reach for the machine to count as giving every thread a core: 75 % of `threads`, 1.5 on
    /// two — halfway between the hyperthread spells (1.04–1.14) and a free machine (1.7–2.06 on this probe).
    var threshold: Double { 0.75 * Double(threads) }
    var counted: [(subject: Duration, baseline: Duration, machine: Double)] { all.filter { $0.machine >= threshold } }
    /// Whether the medians are the counted pairs' (at least half the pairs wanted); otherwise every pair's.
    var judgedOnCounted: Bool { counted.count * 2 >= wanted }

    /// The row's medians: over the counted pairs, or over all of them when too few were counted.
    func medians(_ h: Harness) -> (subject: Duration, baseline: Duration) {
        let used = judgedOnCounted ? counted : all
        return (h.median(used.map(\.subject)), h.median(used.map(\.baseline)))
    }

    /// For the row's note: how many pairs had every core, what the machine read around the others, and the ratio
    /// over all pairs, so nothing measured is left out.
    func note(_ h: Harness) -> String {
        let others = all.filter { $0.machine < threshold }.map(\.machine)
        let ratio = milliseconds(h.median(all.map(\.subject))) / milliseconds(h.median(all.map(\.baseline)))
        var text = String(format: "%d of %d sample pairs had %d cores (the machine's throughput speed-up ≥ %.1f× on both sides", counted.count, all.count, threads, threshold)
        if let low = others.min(), let high = others.max() {
            let range = String(format: "%.2f", low) == String(format: "%.2f", high) ? String(format: "%.2f", low)
                : String(format: "%.2f–%.2f", low, high)
            text += "; \(range)× around the others"
        }
        text += String(format: "); over all %d pairs %.2f×", all.count, ratio)
        if !judgedOnCounted { text += "; too few had every core, so the medians are over all pairs" }
        return text
    }
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

    /// How much more a throughput-bound loop gets done on `threads` threads at once than on one (2.00 on two free
    /// cores): twelve independent chains of 4-wide float multiply-adds, which keep a core's floating-point pipes full,
    /// one copy on each thread against one copy alone; the median of `repeats` readings of a few milliseconds each.
    ///
    /// This VM's two vCPUs are threads on the host, which at times runs both on the two hyperthreads of one
    /// physical core. Then work that fills a core (rendering does) gets about 1.1× from two threads, while a
    /// latency-bound loop (one dependent chain) still reads 2× — so the probe must be throughput-bound to see it.
    /// Whole runs in which every-core rows read 0.86–0.90× where they otherwise read 0.56× were traced to such
    /// spells: this probe read 1.04–1.11× just before each of those samples, and 1.8–2.0× before all but one of the
    /// others (1.14× before a fast one: the spell ended in between)
    /// (`Benchmarks/notes/poly-load-memory.md`, 2026-11-25).
    func throughputSpeedUp(threads: Int, repeats: Int = 3) -> Double {
        @Sendable func fill() -> Float {
            let m = SIMD4<Float>(repeating: 0.999_999), c = SIMD4<Float>(repeating: 1e-7)
            var a0 = SIMD4<Float>(repeating: 1), a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5
            var a6 = a0 + 6, a7 = a0 + 7, a8 = a0 + 8, a9 = a0 + 9, a10 = a0 + 10, a11 = a0 + 11
            for _ in 0..<opaque(2_000_000) {
                a0 = a0 * m + c; a1 = a1 * m + c; a2 = a2 * m + c; a3 = a3 * m + c; a4 = a4 * m + c; a5 = a5 * m + c
                a6 = a6 * m + c; a7 = a7 * m + c; a8 = a8 * m + c; a9 = a9 * m + c; a10 = a10 * m + c; a11 = a11 * m + c
            }
            return (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11).sum()
        }
        var alone: [Duration] = [], together: [Duration] = []
        for _ in 0..<repeats {
            alone.append(clock.measure { blackHole(fill()) })
            together.append(clock.measure {
                let group = DispatchGroup()
                for _ in 0..<threads {
                    group.enter()
                    Thread { blackHole(fill()); group.leave() }.start()
                }
                group.wait()
            })
        }
        return Double(threads) * milliseconds(median(alone)) / milliseconds(median(together))
    }

    /// Sample pairs of a row that runs on every core, each bracketed by `throughputSpeedUp` readings; a pair is
    /// *counted* when the readings on both sides of it show the machine giving every thread a core of its own
    /// (`CorePairs.threshold`: 1.5 on two; 1.1 is two hyperthreads of one core). Pairs are taken until
    /// `samples` are counted, or `3 × samples` pairs in all. `pair` returns the subject's and the baseline's time.
    func pairsOnEveryCore(threads: Int, samples: Int, _ pair: () throws -> (Duration, Duration)) rethrows -> CorePairs {
        var result = CorePairs(threads: threads, wanted: samples)
        var before = throughputSpeedUp(threads: threads)
        while result.counted.count < samples && result.all.count < 3 * samples {
            let (s, b) = try pair()
            let after = throughputSpeedUp(threads: threads)
            result.all.append((s, b, min(before, after)))
            before = after
        }
        return result
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

    /// `row` for work that runs on every core: warm-up as in `compare`, then sample pairs taken and counted by
    /// `pairsOnEveryCore`; the row's note is `CorePairs.note`.
    func rowOnEveryCore(_ group: String, _ name: String, baseline baselineName: String, target: String, threads: Int,
                        samples: Int? = nil, _ subject: () throws -> Void, against baseline: () throws -> Void) rethrows {
        guard wants(group, name) else { return }
        for _ in 0..<plan.warmup { try subject(); try baseline() }
        let pairs = try pairsOnEveryCore(threads: threads, samples: samples ?? plan.samples) {
            (try clock.measure(subject), try clock.measure(baseline))
        }
        let (s, b) = pairs.medians(self)
        add(Row(group: group, name: name, median: s, baselineName: baselineName, baselineMedian: b, target: target,
                note: pairs.note(self)))
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
