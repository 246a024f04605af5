import Foundation
import Origami

/// Renders numbered frames on several threads and hands them over in order, with a bounded number in flight:
/// memory holds at most `window` frames however long the animation, and a slow sink (ffmpeg, a GIF encoder)
/// holds the renderers back instead of letting finished frames pile up.
///
/// Each thread makes its own `Worker` once (its own layer tree, say) and renders the frames it claims with it;
/// frames are claimed in order, so the next frame to deliver is always being rendered.
public enum FramePipeline {
    /// Renders frames `0..<count` with `render` on `jobs` threads and calls `deliver` with each, in order, on the
    /// calling thread. The first error (from a worker or from `deliver`) stops every thread and is rethrown.
    /// `window`: frames rendered but not yet delivered, at most (default: twice `jobs`).
    public static func run<Worker, Frame: Sendable>(count: Int, jobs: Int, window: Int? = nil,
                                   makeWorker: @escaping @Sendable () throws -> Worker,
                                   render: @escaping @Sendable (inout Worker, Int) throws -> Frame,
                                   deliver: (Int, Frame) throws -> Void) throws {
        guard count > 0 else { return }
        let threads = max(1, min(jobs, count))
        let state = PipelineState<Frame>(window: max(threads, window ?? 2 * threads))
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            // Threads, not the global queue: frame rendering blocks for a long time, and each worker waits on a
            // condition when it is `window` frames ahead.
            let thread = Thread {
                defer { group.leave() }
                do {
                    var worker = try makeWorker()
                    while let index = state.claim(below: count) {
                        state.finish(index, try render(&worker, index))
                    }
                } catch {
                    state.fail(error)
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        var failure: Error?
        for index in 0..<count {
            guard let frame = state.take(index) else { break }
            do { try deliver(index, frame) } catch {
                failure = error
                state.fail(error)
                break
            }
        }
        group.wait()
        if let error = failure ?? state.error { throw error }
    }
}

extension FramePipeline {
    /// Tunes this process's allocator for rendering many frames; a program calls it once, before the first
    /// frame (it changes glibc's settings for the whole process, so the library never calls it itself).
    ///
    /// Every frame allocates a few MB (the frame, the GIF quantizer's histogram and indices). Above glibc's mmap
    /// threshold each such buffer is a fresh mapping, and a freed block at the top of the heap is given back to
    /// the kernel: either way the next frame's buffer is faulted in and zeroed again page by page, and two
    /// rendering threads' page faults queue on one lock. A 600-frame lit-cube GIF spent 0.4–0.55 s of its 1.4 s
    /// of CPU in the kernel, 0.05 s with these settings. `mallopt` is not in Swift's Glibc module, so it is
    /// looked up (M_TRIM_THRESHOLD −1, M_MMAP_THRESHOLD −3, from <malloc.h>).
    public static func keepLargeBuffersInTheHeap() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
        _ = mallopt(-1, 512 << 20)
        _ = mallopt(-3, 256 << 20)
    }
}

/// The frames between the renderers and the consumer.
private final class PipelineState<Frame: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private let window: Int
    private var claimed = 0
    private var delivered = 0
    private var ready: [Int: Frame] = [:]
    private(set) var error: Error?

    init(window: Int) { self.window = window }

    /// The next frame to render, once it is within the window; `nil` when there is none or work has stopped.
    func claim(below count: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while error == nil && claimed < count && claimed - delivered >= window { condition.wait() }
        guard error == nil, claimed < count else { return nil }
        claimed += 1
        return claimed - 1
    }

    func finish(_ index: Int, _ frame: Frame) {
        condition.lock()
        ready[index] = frame
        condition.broadcast()
        condition.unlock()
    }

    /// Frame `index` once rendered; `nil` when work has stopped on an error.
    func take(_ index: Int) -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        while error == nil && ready[index] == nil { condition.wait() }
        guard error == nil, let frame = ready.removeValue(forKey: index) else { return nil }
        delivered = index + 1
        condition.broadcast()
        return frame
    }

    func fail(_ e: Error) {
        condition.lock()
        if error == nil { error = e }
        condition.broadcast()
        condition.unlock()
    }
}
