import Foundation
import Testing
import TestSupport

/// `sweep --shard auto` under a Slurm job array and a Kubernetes Indexed Job (their variables set on the
/// process, as the batch systems set them), and the errors when the variables are missing or do not add up.
@Suite("origami sweep --shard auto, run as a process")
struct BatchShardCommandTests {
    private let scene = OrigamiCommand.packageRoot.appendingPathComponent("Models/turning-cube.yaml").path
    /// Whatever the test runner's own environment says, each test sets exactly the variables it means.
    private let clean: [String: String?] = [
        "SLURM_ARRAY_TASK_ID": nil, "SLURM_ARRAY_TASK_COUNT": nil, "SLURM_ARRAY_TASK_MIN": nil,
        "SLURM_ARRAY_TASK_STEP": nil, "JOB_COMPLETION_INDEX": nil,
    ]

    private func temporaryFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("origami-shard-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private func sweep(_ dir: URL, _ extra: [String], _ env: [String: String]) throws -> CommandResult {
        try OrigamiCommand.run(["sweep", scene, "-o", dir.path, "--vary", "yaw=0:90:30", "--jobs", "1"] + extra,
                               environment: clean.merging(env.mapValues { Optional($0) }) { $1 })
    }

    /// `sbatch --array=0-1`: two tasks render one folder between them; merged, it is the unsharded sweep.
    @Test func aSlurmArrayRendersTheSweepBetweenItsTasks() throws {
        let sharded = try temporaryFolder(), whole = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: sharded); try? FileManager.default.removeItem(at: whole) }
        for (id, index) in [("0", 1), ("1", 2)] {
            let r = try sweep(sharded, ["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": id, "SLURM_ARRAY_TASK_COUNT": "2",
                                                             "SLURM_ARRAY_TASK_MIN": "0"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == "rendered 2 of 4 variants into \(sharded.path)/frames (shard \(index)/2 from SLURM_ARRAY_TASK_ID=\(id))\n")
        }
        #expect(try sweep(sharded, ["--merge"], [:]).status == 0)
        #expect(try sweep(whole, [], [:]).status == 0)
        for name in ["lighting.csv", "plots/brightness-vs-yaw.csv", "frames/variant-0003.png"] {
            #expect(try Data(contentsOf: sharded.appendingPathComponent(name)) == Data(contentsOf: whole.appendingPathComponent(name)), "\(name)")
        }
    }

    /// `--array=1-5:2` is tasks 1, 3, 5: task 5 is the third of three.
    @Test func aSlurmArrayWithAStepCountsItsTasks() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try sweep(dir, ["--shard", "auto"], ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "3",
                                                     "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("(shard 3/3 from SLURM_ARRAY_TASK_ID=5)\n"), "\(r.stdout)")
        // Shard 3 of 3 renders variants 3, 6, …: of 4 variants, only the third.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("frames").path).sorted()
            == ["variant-0003.json", "variant-0003.png"])
    }

    @Test func aKubernetesIndexedJobNeedsItsCompletions() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try sweep(dir, ["--shard", "auto", "--shards", "4"], ["JOB_COMPLETION_INDEX": "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "rendered 1 of 4 variants into \(dir.path)/frames (shard 2/4 from JOB_COMPLETION_INDEX=1)\n")
    }

    @Test(arguments: [
        ([:], [], "--shard auto found no batch system: it reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm job array), or JOB_COMPLETION_INDEX with --shards N (a Kubernetes Indexed Job); elsewhere pass --shard i/n"),
        (["JOB_COMPLETION_INDEX": "2"], [], "--shard auto: JOB_COMPLETION_INDEX=2 needs --shards N, the Job's completions"),
        (["JOB_COMPLETION_INDEX": "4"], ["--shards", "4"], "--shard auto: JOB_COMPLETION_INDEX=4 is outside 0…3 for --shards 4"),
        (["JOB_COMPLETION_INDEX": "one"], ["--shards", "4"], "--shard auto: JOB_COMPLETION_INDEX=`one` is not a whole number"),
        (["SLURM_ARRAY_TASK_ID": "3"], [], "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (is this a job array?)"),
        (["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"], [],
         "--shard auto: SLURM_ARRAY_TASK_ID=4 is not one of the array's 4 tasks (from SLURM_ARRAY_TASK_MIN=0 in steps of 1)"),
        (["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"], ["--shards", "3"],
         "--shard auto: --shards 3 disagrees with SLURM_ARRAY_TASK_COUNT=4; drop --shards under Slurm"),
    ] as [([String: String], [String], String)])
    func inconsistentVariablesAreRefusedBeforeAnythingIsWritten(_ env: [String: String], _ extra: [String], _ message: String) throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("sweep")
        let r = try sweep(out, ["--shard", "auto"] + extra, env)
        #expect(r.status == 1)
        #expect(r.stderr == "error: \(message)\n")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func shardsIsOnlyForAuto() throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try sweep(dir, ["--shard", "1/2", "--shards", "2"], [:])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--shards is for --shard auto (a Kubernetes Indexed Job)."), "\(r.stderr)")
    }
}
