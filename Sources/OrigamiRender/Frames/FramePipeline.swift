import Foundation
import Origami

/// Renders numbered frames on several threads and hands them over in order, with a bounded number in flight:
/// memory holds at most `window` frames however long the animation, and a slow sink (ffmpeg, a GIF encoder)
/// holds the renderers back instead of letting finished frames pile up.
///
/// Each thread makes its own `Worker` once (its own layer tree, say) and renders the frames it claims with it;
/// frames are claimed in order, so the next frame to deliver is always being rendered. The calling thread is one
/// of the workers: between its own frames it delivers whatever is ready, so no thread sits idle waiting for
/// frames, and nobody is woken per frame to hand one over (with one job there is no other thread at all).
public enum FramePipeline {
    /// Renders frames `0..<count` with `render` on `jobs` threads (the calling one and `jobs − 1` more) and calls
    /// `deliver` with each, in order, on the calling thread. The first error (from a worker or from `deliver`)
    /// stops every thread and is rethrown.
    /// `window`: frames claimed but not yet delivered, at most (default: twice `jobs`).
    public static func run<Worker, Frame: Sendable>(count: Int, jobs: Int, window: Int? = nil,
                                   makeWorker: @escaping @Sendable () throws -> Worker,
                                   render: @escaping @Sendable (inout Worker, Int) throws -> Frame,
                                   deliver: (Int, Frame) throws -> Void) throws {
        guard count > 0 else { return }
        let threads = max(1, min(jobs, count))
        let state = PipelineState<Frame>(window: max(threads, window ?? 2 * threads))
        let group = DispatchGroup()
        for _ in 1..<threads {
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
        do {
            var worker = try makeWorker()
            var next = 0
            while next < count {
                switch state.nextStep(delivering: next, below: count) {
                case .deliver(let frame):
                    try deliver(next, frame)
                    next += 1
                case .render(let index):
                    state.finish(index, try render(&worker, index))
                case .stop:
                    next = count
                }
            }
        } catch {
            state.fail(error)
        }
        group.wait()
        if let error = state.error { throw error }
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

    enum Step { case deliver(Frame), render(Int), stop }

    /// The calling thread's next move: deliver frame `index` when it is ready; otherwise render the next frame
    /// when one is within the window; otherwise wait for one of the two. `.stop` once work has stopped on an error.
    func nextStep(delivering index: Int, below count: Int) -> Step {
        condition.lock()
        defer { condition.unlock() }
        while error == nil {
            if let frame = ready.removeValue(forKey: index) {
                delivered = index + 1
                condition.broadcast()
                return .deliver(frame)
            }
            if claimed < count && claimed - delivered < window {
                claimed += 1
                return .render(claimed - 1)
            }
            condition.wait()
        }
        return .stop
    }

    func fail(_ e: Error) {
        condition.lock()
        if error == nil { error = e }
        condition.broadcast()
        condition.unlock()
    }
}
