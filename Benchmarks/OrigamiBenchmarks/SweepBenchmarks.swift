import Foundation
import Origami
import OrigamiRender
import Fixtures

/// A lighting sweep: 100 `Lighting` variants of the book cube rendered at 1024², on every core
/// (`DispatchQueue.concurrentPerform`) against a serial loop. Each sweep runs in a fresh child process so its
/// peak resident memory (VmHWM) is its own.
enum SweepBenchmarks {
    /// Variant `i` of 0..<n: the light's direction turns around the cube, the ambient level and model change.
    static func lighting(_ i: Int, of n: Int) -> Lighting {
        let angle = 2 * Double.pi * Double(i) / Double(n)
        let direction = Vector3(sin(angle), 1, -0.5 - 0.5 * cos(angle))
        let model = Lighting.Model.allCases[i % Lighting.Model.allCases.count]
        return Lighting(lights: [.directional(direction, space: i % 2 == 0 ? .object : .scene)], model: model,
                        ambient: 0.2 + 0.6 * Double(i % 10) / 10)
    }

    /// One variant: a fresh cube (layers are not shared between threads), snapshot, render; a checksum of the
    /// frame is all that is kept.
    static func renderVariant(_ i: Int, of n: Int) throws -> UInt64 {
        let cube = try BookCube(faceColors: Scenes.faceColors, lighting: lighting(i, of: n)).container
        let image = try Renderer.render(cube, size: Scenes.canvas, options: RenderBenchmarks.options)
        return image.pixels.withUnsafeBufferPointer { p in
            stride(from: 0, to: p.count, by: 4099).reduce(UInt64(0)) { $0 &* 31 &+ UInt64(p[$1]) }
        }
    }

    /// The child process's work: `n` variants, serially or on all cores. Prints "wall-ms peak-RSS-KiB cpu-ms
    /// system-ms minor-faults involuntary-switches" (the whole process's, set-up included). The CPU time and the last
    /// three read a slow pair: when the host runs both vCPUs on one core's hyperthreads, the CPU time rises by half
    /// with the same faults and switches, and `Harness.throughputSpeedUp` reads about 1.1×.
    static func child(parallel: Bool, count n: Int) throws {
        let clock = ContinuousClock()
        var sums = [UInt64](repeating: 0, count: n)
        let failures = Failures()
        let t = try clock.measure {
            if parallel {
                sums.withUnsafeMutableBufferPointer { out in
                    nonisolated(unsafe) let out = out
                    DispatchQueue.concurrentPerform(iterations: n) { i in
                        do { out[i] = try renderVariant(i, of: n) } catch { failures.record(error) }
                    }
                }
            } else {
                for i in 0..<n { sums[i] = try renderVariant(i, of: n) }
            }
        }
        if let error = failures.first { throw error }
        blackHole(sums)
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
        let system = Double(usage.ru_stime.tv_sec) * 1e3 + Double(usage.ru_stime.tv_usec) / 1e3
        print(milliseconds(t), try peakResidentKiB(), cpu, system, usage.ru_minflt, usage.ru_nivcsw)
    }

    /// This process's peak resident memory: `VmHWM` in /proc/self/status. Not getrusage's `ru_maxrss`, which
    /// Linux carries across exec, so a spawned child reports at least its parent's peak (the benchmark
    /// process's, grown by the rows run before it).
    static func peakResidentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(whereSeparator: \.isWhitespace)[1]) else {
            throw BenchError("no VmHWM in /proc/self/status")
        }
        return kib
    }

    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var first: Error?
        func record(_ e: Error) { lock.lock(); if first == nil { first = e }; lock.unlock() }
    }

    static func spawn(parallel: Bool, count: Int)
        throws -> (ms: Double, rssKiB: Int, cpuMs: Double, systemMs: Double, minorFaults: Int, preempted: Int) {
        let fields = try childNumbers(["--sweep-child", parallel ? "parallel" : "serial", String(count)], count: 6,
                                      what: "sweep child")
        return (fields[0], Int(fields[1]), fields[2], fields[3], Int(fields[4]), Int(fields[5]))
    }

    /// Runs this benchmark binary again with `arguments` (a fresh process, so its peak memory is its own) and reads
    /// the `count` numbers it prints.
    static func childNumbers(_ arguments: [String], count: Int, what: String) throws -> [Double] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        p.arguments = arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let numbers = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard p.terminationStatus == 0, numbers.count == count else { throw BenchError("\(what) failed: \(output)") }
        return numbers
    }

    static func run(_ h: Harness) throws {
        let group = "sweep"
        let name = "library stand-in (not the sweep command: see the process rows): 100 lighting variants, 1024², all cores"
        guard h.wants(group, name) else { return }
        // A run is a few tenths of a second; nine of them keep the median steady on a shared machine.
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var rssParallel: [Int] = [], rssSerial: [Int] = []
        var busy: [Double] = [], system: [Double] = [], faults: [Int] = [], preempted: [Int] = []
        let pairs = try h.pairsOnEveryCore(threads: cores, samples: max(5, h.plan.samples * 3 / 5)) {
            let p = try spawn(parallel: true, count: 100), s = try spawn(parallel: false, count: 100)
            rssParallel.append(p.rssKiB); rssSerial.append(s.rssKiB)
            busy.append(p.cpuMs / p.ms); system.append(p.systemMs); faults.append(p.minorFaults)
            preempted.append(p.preempted)
            return (.milliseconds(p.ms), .milliseconds(s.ms))
        }
        busy.sort(); system.sort(); faults.sort(); preempted.sort()
        let few = try spawn(parallel: true, count: 10)
        let (pm, sm) = pairs.medians(h)
        h.add(Row(group: group, name: name, median: pm, baselineName: "the same 100 in a serial loop",
                  baselineMedian: sm, target: "≥ 1.7× on 2 cores (ratio ≤ 0.59×)",
                  note: String(format: "%.2f× speed-up on %d cores; ", sm / pm, cores) + pairs.note(h)
                      + String(format: " (the parallel child's medians: %.2f cores busy, CPU ÷ wall; %.0f ms in the kernel, %d minor faults, %d involuntary switches, set-up included); peak RSS %d MiB (serial %d MiB, 10 variants %d MiB); a frame is 4 MiB",
                               busy[busy.count / 2], system[system.count / 2], faults[faults.count / 2],
                               preempted[preempted.count / 2], (rssParallel.max() ?? 0) / 1024,
                               (rssSerial.max() ?? 0) / 1024, few.rssKiB / 1024)))
    }
}
