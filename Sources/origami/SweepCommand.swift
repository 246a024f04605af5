import ArgumentParser
import Foundation
import Origami
import OrigamiRender
import OrigamiScene

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Render a grid of scene variants: a contact sheet, frames, and per-face lighting data.",
        discussion: """
            Each --vary PATH=VALUES adds an axis to the grid; the grid is the cartesian product (--zip: the \
            n-th values of every axis together). Paths: a parameter the scene declares under `params`, time, \
            ambient, model, shininess, specular, light.direction, light.position, light.color, light.intensity, \
            light.space (light[1]. for the second light; prefix a layer name when several layers are lit). \
            Separate values with commas, or with semicolons when a value has several numbers; a number also \
            takes a range LOW:HIGH:STEP, as in

              --vary yaw=0:90:15 --vary ambient=0.2,0.5,0.8
              --vary 'light.direction=0,1,-0.5;1,0,-0.5'

            --set gives the other parameters their values for every variant. Without --vary, the scene's \
            `sweep:` section is used. The output folder receives manifest.json (the scene's SHA-256, the \
            parameters, grid or zip, the --set values, the render options), frames/variant-NNNN.png/.json (each \
            recording the plan it belongs to), sheet.png, lighting.csv, lighting.json and plots/ (per numeric \
            parameter, each face's brightness and overlay alpha against it as PNG, SVG and CSV; a grid of two \
            numeric parameters also gets a brightness heat map per face). With --shard i/n only every n-th \
            variant starting at i is rendered (deterministic names); --shard auto takes i and n from a Slurm \
            job array (SLURM_ARRAY_TASK_ID, _COUNT, _MIN, _STEP) or a Kubernetes Indexed Job \
            (JOB_COMPLETION_INDEX, with --shards N). Run --merge once all shards are done: it checks every \
            frame against the manifest. A folder holding another sweep is refused unless --force clears it; \
            while a sweep writes into a folder it holds a lock there (.origami-sweep.lock), so another sweep is \
            refused and shards of the same sweep may run together.
            """
    )

    @OptionGroup var scene: SceneArgument

    @Option(name: .customLong("vary"), help: ArgumentHelp("A parameter and its values.", valueName: "path=values"))
    var vary: [String] = []

    @Flag(help: "Vary the parameters together (variant n takes each one's n-th value) instead of as a grid.")
    var zip = false

    @Option(name: .shortAndLong, help: ArgumentHelp("The output folder (default: <scene>-sweep).", valueName: "folder"))
    var output: String?

    @Option(help: ArgumentHelp("Render only shard i of n (1-based) and do not merge; `auto` reads it from a Slurm job array or a Kubernetes Indexed Job.",
                               valueName: "i/n|auto"))
    var shard: String?

    @Option(help: ArgumentHelp("With --shard auto in a Kubernetes Indexed Job: the number of shards (the Job's completions).",
                               valueName: "n"))
    var shards: Int?

    @Flag(help: "Assemble the sheet, CSV, JSON and plots from frames already rendered (by all shards).")
    var merge = false

    @Flag(help: "Clear another sweep's frames and outputs from the output folder before rendering.")
    var force = false

    @Flag(help: "Print no progress.")
    var quiet = false

    // Seconds between the plain progress lines when stderr is not a terminal (for tests).
    @Option(help: .hidden)
    var progressInterval: Double = 5

    // Optional rather than defaulting to the core count, so the help does not print this machine's count.
    @Option(name: .customLong("jobs"), help: "Worker threads (default: every core).")
    var jobsOption: Int?

    var jobs: Int { jobsOption ?? ProcessInfo.processInfo.activeProcessorCount }

    @Option(help: "Largest side of a thumbnail on the contact sheet, in pixels.")
    var thumbnail: Int = 256

    @Option(help: "Refuse sweeps with more variants than this.")
    var maxVariants: Int = 10_000

    @OptionGroup var picture: PictureOptions

    func validate() throws {
        try scene.requireFile(for: "sweep")
        if let shard, shard != "auto", parseShard(shard) == nil {
            throw ValidationError("--shard must be i/n with 1 ≤ i ≤ n, e.g. --shard 2/8, or auto.")
        }
        if let shards {
            guard shard == "auto" else { throw ValidationError("--shards is for --shard auto (a Kubernetes Indexed Job).") }
            guard shards >= 1 else { throw ValidationError("--shards must be at least 1.") }
        }
        if shard != nil && merge { throw ValidationError("--merge assembles all shards: run it without --shard.") }
        if force && merge { throw ValidationError("--force clears the folder before rendering: run --merge without it.") }
        guard (jobsOption ?? 1) >= 1 else { throw ValidationError("--jobs must be at least 1.") }
        guard (16...4096).contains(thumbnail) else { throw ValidationError("--thumbnail must be between 16 and 4096.") }
        guard maxVariants >= 1 else { throw ValidationError("--max-variants must be at least 1.") }
        guard progressInterval >= 0 else { throw ValidationError("--progress-interval must not be negative.") }
    }

    private func parseShard(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/").map { Int($0) }
        guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, (1...n).contains(i) else { return nil }
        return (i, n)
    }

    func run() throws {
        // Before the scene is read: a batch system's variables that do not add up stop the task at once.
        var batchShard: (index: Int, count: Int)?
        var shardSource = ""
        if shard == "auto" {
            do {
                let resolved = try BatchShard.resolve(shards: shards, environment: ProcessInfo.processInfo.environment)
                batchShard = (resolved.index, resolved.count)
                shardSource = " (shard \(resolved.index)/\(resolved.count) from \(resolved.source))"
            } catch {
                fail(error.description)
            }
        } else {
            batchShard = shard.flatMap(parseShard)
        }
        let description = scene.loadDescription()
        var parameters: [SweepParameter] = []
        for v in vary {
            do {
                parameters.append(try SweepParameter(argument: v, parameters: description.parameters))
            } catch {
                fail("--vary \(v): \(error)")
            }
        }
        let sweep: Sweep
        do {
            sweep = try Sweep(scene: description, parameters: parameters, combination: zip ? .zip : .grid,
                              maxVariants: maxVariants)
        } catch {
            fail("\(error)")
        }
        let url = URL(fileURLWithPath: scene.scene)
        var note: String?
        let folderURL = URL(fileURLWithPath: output ?? url.deletingPathExtension().lastPathComponent + "-sweep")
        do {
            // The sweep's own outputs are checked before any frame is rendered.
            let outputs = ["sheet.png", "lighting.csv", "lighting.json"].map { folderURL.appendingPathComponent($0) }
            if merge {
                let folder = try SweepFolder.openForMerge(folderURL, sweep: sweep)
                for out in outputs { checkWritable(out, protecting: description.protectedFiles) }
                try sweep.checkSizes(options: folder.plan.renderOptions, thumbnail: thumbnail)
                note = try sweep.merge(in: folder, thumbnail: thumbnail)
            } else {
                let options = picture.renderOptions(for: description.canvas)
                try sweep.checkSizes(options: options, thumbnail: thumbnail)
                let folder = try SweepFolder.claim(folderURL, for: SweepPlan(sweep: sweep, options: options), force: force,
                                                   protecting: description.protectedFiles)
                for out in outputs { checkWritable(out, protecting: description.protectedFiles) }
                let variants = sweep.variants(shard: batchShard)
                let bar = ProgressBar(total: variants.count, label: "sweep", unit: "variants", quiet: quiet,
                                      interval: progressInterval)
                try sweep.render(variants: variants, into: folder, options: options, jobs: jobs) { bar.update($0) }
                bar.finish()
                if shard != nil {
                    print("rendered \(variants.count) of \(sweep.variantCount) variants into \(folder.frames.path)\(shardSource)")
                    return
                }
                note = try sweep.merge(in: folder, thumbnail: thumbnail)
            }
        } catch {
            fail("\(error)")
        }
        print("wrote \(sweep.variantCount) variants: \(folderURL.path)/sheet.png, lighting.csv, lighting.json, plots/")
        if let note { print("note: \(note)") }
    }
}
