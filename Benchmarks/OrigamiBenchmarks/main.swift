import Foundation

// Origami's benchmarks: `make bench` (release build), or
//   .build/release/OrigamiBenchmarks [--quick] [--filter TEXT] [--origami PATH] [--models DIR]
//   [--readme Benchmarks/README.md]
// Prints one Markdown table: every row is a median with its baseline measured in the same run beside it. With
// --filter 'A|B' runs the rows matching either. --readme (a whole run only: no --filter, no --quick) the table and its summary replace the README's results.

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String, in arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}

do {
    if let mode = option("--sweep-child") {
        try SweepBenchmarks.child(parallel: mode == "parallel", count: Int(option(mode) ?? "") ?? 100)
        exit(0)
    }
    if let scene = option("--image-child") {
        try ImageBenchmarks.child(scene: scene, mode: option(scene) ?? "render")
        exit(0)
    }
    if let count = option("--planes-child") {
        try RenderBenchmarks.planesChild(Int(count) ?? 50)
        exit(0)
    }
    if let name = option("--profile") {
        // For perf/callgrind: one subject in a loop, no baseline, no set-up of the other benchmarks.
        try Profile.run(name, iterations: Int(option("--iterations") ?? "") ?? 50)
        exit(0)
    }
    let readme = option("--readme")
    if readme != nil && (option("--filter") != nil || arguments.contains("--quick")) {
        throw BenchError("--readme records a whole run: leave out --filter and --quick")
    }
    let plan = arguments.contains("--quick") ? Plan.quick : Plan()
    let harness = Harness(plan: plan, filter: option("--filter"))
    let started = ContinuousClock.now
    FileHandle.standardError.write(Data("Origami benchmarks (release build, \(ProcessInfo.processInfo.activeProcessorCount) cores)\n".utf8))
    try GeometryBenchmarks.run(harness)
    try RenderBenchmarks.run(harness)
    try GeometryBenchmarks.hitMap(harness)
    try OutputBenchmarks.run(harness, origami: option("--origami"), models: option("--models") ?? "Models")
    try SweepBenchmarks.run(harness)
    try SweepProcessBenchmarks.run(harness, origami: option("--origami"), models: option("--models") ?? "Models")
    try PolyhedronBenchmarks.run(harness, origami: option("--origami"))
    try LoadMemoryBenchmarks.run(harness, origami: option("--origami"), models: option("--models") ?? "Models")
    try ImageBenchmarks.run(harness)
    try ServeBenchmarks.run(harness)
    // Last: it tunes the allocator for the whole process, as `origami animate` does.
    try AnimateBenchmarks.run(harness, models: option("--models") ?? "Models")
    try RenderBenchmarks.lattice(harness, "1000 lit cubes (6000 faces), heap kept between renders (keepLargeBuffersInTheHeap)")
    print(harness.table())
    print("\n" + harness.summary())
    print("\nTotal benchmark time: \(format(ContinuousClock.now - started)). Ratio = median ÷ baseline median (same run).")
    if let readme { try ReadmeResults.write(harness, to: readme, total: ContinuousClock.now - started) }
} catch {
    FileHandle.standardError.write(Data("benchmarks failed: \(error)\n".utf8))
    exit(1)
}
