import Dispatch
import Foundation

/// Bounds the viewer's work: at most `capacity` renders (or hit tests, or hit maps) at once, at most `maxWaiting`
/// more waiting for a turn (beyond that a request is refused as busy, so quick slider moves never pile up), and
/// latest wins per page: a request whose page has asked again since (a higher `view.seq` from the same
/// `view.client`) is dropped before its turn instead of rendered.
actor RenderGate {
    enum Refusal: Error { case busy, superseded }

    let capacity: Int
    let maxWaiting: Int
    private var running = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    /// The newest request number seen from each page (at most `maxClients` pages remembered).
    private var latest: [String: Int] = [:]
    private var clientOrder: [String] = []
    private let maxClients = 256

    init(capacity: Int = 2, maxWaiting: Int = 8) {
        self.capacity = max(1, capacity); self.maxWaiting = max(0, maxWaiting)
    }

    /// Runs `work` on a Dispatch thread (renders block; the cooperative pool should not) once a turn is free.
    func run<T: Sendable>(client: String?, seq: Int?, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        if let client, let seq {
            if let newest = latest[client], newest > seq { throw Refusal.superseded }
            if latest[client] == nil {
                clientOrder.append(client)
                if clientOrder.count > maxClients { latest[clientOrder.removeFirst()] = nil }
            }
            latest[client] = seq
        }
        if running >= capacity {
            guard waiters.count < maxWaiting else { throw Refusal.busy }
            await withCheckedContinuation { waiters.append($0) }
        } else {
            running += 1
        }
        defer { release() }
        if let client, let seq, let newest = latest[client], newest > seq { throw Refusal.superseded }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    /// Hands the turn to the first waiter, or frees it.
    private func release() {
        if waiters.isEmpty { running -= 1 } else { waiters.removeFirst().resume() }
    }
}
