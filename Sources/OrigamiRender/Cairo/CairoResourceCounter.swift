import Foundation

/// Counts the Cairo objects (surfaces, contexts, patterns) created and destroyed by the wrappers while a body
/// runs in the current task, so tests can prove that every one is released — after a render that succeeds,
/// and after one that throws half-way. A task-local counter rather than a global one: tests run in parallel,
/// and a render is synchronous on the task that starts it.
final class CairoResourceCounter: @unchecked Sendable {
    @TaskLocal static var current: CairoResourceCounter?

    private let lock = NSLock()
    private var created = 0
    private var destroyed = 0

    /// Objects created while counting.
    var createdCount: Int { lock.withLock { created } }
    /// Objects created while counting and not yet destroyed.
    var liveCount: Int { lock.withLock { created - destroyed } }

    func didCreate() { lock.withLock { created += 1 } }
    func didDestroy() { lock.withLock { destroyed += 1 } }

    /// Runs `body` with a fresh counter installed and returns the counter with the result.
    static func counting<T>(_ body: () throws -> T) rethrows -> (result: T, counter: CairoResourceCounter) {
        let counter = CairoResourceCounter()
        let result = try $current.withValue(counter) { try body() }
        return (result, counter)
    }
}
