import Foundation
import Synchronization

/// A one-time event that a test waits for instead of sleeping: the code under test, a fake or a server signals it
/// when the awaited state is reached. The limit on waiting only keeps a broken test from hanging; it is never the
/// assertion (`wait` reports whether the signal came).
package final class Handshake: Sendable {
    private struct State {
        var signalled = false
        var waiters: [UUID: CheckedContinuation<Bool, Never>] = [:]
        /// Waits whose limit passed before they were registered.
        var expired: Set<UUID> = []
    }

    private let state = Mutex(State())

    package init() {}

    package var isSignalled: Bool { state.withLock { $0.signalled } }

    /// Marks the event as reached and wakes every waiter; later calls do nothing.
    package func signal() {
        let waiters = state.withLock { state in
            state.signalled = true
            defer { state.waiters = [:] }
            return state.waiters
        }
        for waiter in waiters.values { waiter.resume(returning: true) }
    }

    /// Waits until the event is signalled (true) or, if it never is, until `limit` has passed (false).
    @discardableResult
    package func wait(atMost limit: Duration = .seconds(600)) async -> Bool {
        let id = UUID()
        let timer = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            let waiter = state.withLock { state in
                guard let waiter = state.waiters.removeValue(forKey: id) else {
                    state.expired.insert(id)
                    return nil as CheckedContinuation<Bool, Never>?
                }
                return waiter
            }
            waiter?.resume(returning: false)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let answer: Bool? = state.withLock { state in
                if state.signalled { return true }
                if state.expired.remove(id) != nil { return false }
                state.waiters[id] = continuation
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }
}
