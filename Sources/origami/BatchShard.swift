import Foundation

/// `--shard auto`: which shard this process is, from the batch system that started it.
///
/// - A Slurm job array (`sbatch --array=0-7`): task `SLURM_ARRAY_TASK_ID` of `SLURM_ARRAY_TASK_COUNT`, counted
///   from `SLURM_ARRAY_TASK_MIN` in steps of `SLURM_ARRAY_TASK_STEP` (1 when unset), so `--array=1-8` and
///   `--array=0-14:2` work as well as `0-7`.
/// - A Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based) of the Job's completions, which the pod does not
///   see and `--shards N` gives.
enum BatchShard {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The shard (1-based index, count) and where it came from (`SLURM_ARRAY_TASK_ID=3`).
    static func resolve(shards: Int?, environment: [String: String]) throws(Failure) -> (index: Int, count: Int, source: String) {
        func whole(_ name: String) throws(Failure) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let v = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw Failure(description: "--shard auto: \(name)=`\(text)` is not a whole number")
            }
            return v
        }
        if let id = try whole("SLURM_ARRAY_TASK_ID") {
            guard let count = try whole("SLURM_ARRAY_TASK_COUNT") else {
                throw Failure(description: "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not (is this a job array?)")
            }
            guard let min = try whole("SLURM_ARRAY_TASK_MIN") else {
                throw Failure(description: "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN is not (is this a job array?)")
            }
            let step = try whole("SLURM_ARRAY_TASK_STEP") ?? 1
            guard count >= 1, step >= 1 else {
                throw Failure(description: "--shard auto: SLURM_ARRAY_TASK_COUNT=\(count) and SLURM_ARRAY_TASK_STEP=\(step) must be at least 1")
            }
            let offset = id - min
            guard offset >= 0, offset % step == 0, offset / step < count else {
                throw Failure(description: "--shard auto: SLURM_ARRAY_TASK_ID=\(id) is not one of the array's \(count) tasks "
                              + "(from SLURM_ARRAY_TASK_MIN=\(min) in steps of \(step))")
            }
            if let shards, shards != count {
                throw Failure(description: "--shard auto: --shards \(shards) disagrees with SLURM_ARRAY_TASK_COUNT=\(count); drop --shards under Slurm")
            }
            return (offset / step + 1, count, "SLURM_ARRAY_TASK_ID=\(id)")
        }
        if let index = try whole("JOB_COMPLETION_INDEX") {
            guard let shards else {
                throw Failure(description: "--shard auto: JOB_COMPLETION_INDEX=\(index) needs --shards N, the Job's completions")
            }
            guard (0..<shards).contains(index) else {
                throw Failure(description: "--shard auto: JOB_COMPLETION_INDEX=\(index) is outside 0…\(shards - 1) for --shards \(shards)")
            }
            return (index + 1, shards, "JOB_COMPLETION_INDEX=\(index)")
        }
        throw Failure(description: "--shard auto found no batch system: it reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT "
                      + "(a Slurm job array), or JOB_COMPLETION_INDEX with --shards N (a Kubernetes Indexed Job); "
                      + "elsewhere pass --shard i/n")
    }
}
