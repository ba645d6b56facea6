import Synchronization

/// A clock that moves only when told: by a test (`advance`), or, for tasks that sleep on it, when every one of them
/// is asleep, to the earliest time one of them wakes. Time then passes at no cost and in a fixed order, whatever the
/// load on the machine: what a test shows with it cannot depend on how fast threads happen to run.
///
/// Each task that sleeps on the clock is counted in with `enter` before it starts and out with `leave` when it has
/// finished; it must wait on nothing else than the clock, or the clock cannot tell that all are asleep.
package final class VirtualClock: Sendable {
    private struct Sleeper {
        var wake: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var tasks = 0
        var sleepers: [Sleeper] = []

        /// When every counted task sleeps, moves to the earliest wake-up and takes out the sleepers due then.
        mutating func wakeIfAllAsleep() -> [CheckedContinuation<Void, Never>] {
            guard tasks > 0, sleepers.count >= tasks, let earliest = sleepers.map(\.wake).min() else { return [] }
            now = max(now, earliest)
            let due = sleepers.filter { $0.wake <= now }
            sleepers.removeAll { $0.wake <= now }
            return due.map(\.continuation)
        }
    }

    private let state = Mutex(State(now: .now))

    package init() {}

    package var now: ContinuousClock.Instant { state.withLock { $0.now } }

    package func advance(by duration: Duration) {
        state.withLock { $0.now += duration }
    }

    /// Counts `count` more tasks that sleep on the clock.
    package func enter(_ count: Int = 1) {
        state.withLock { $0.tasks += count }
    }

    /// Counts out a task that has finished: those still counted may all be asleep now.
    package func leave() {
        let due = state.withLock { state in
            state.tasks -= 1
            return state.wakeIfAllAsleep()
        }
        for sleeper in due { sleeper.resume() }
    }

    /// Returns once the clock has moved on by `duration` from now.
    package func sleep(for duration: Duration) async {
        await withCheckedContinuation { continuation in
            let due = state.withLock { state in
                state.sleepers.append(Sleeper(wake: state.now + duration, continuation: continuation))
                return state.wakeIfAllAsleep()
            }
            for sleeper in due { sleeper.resume() }
        }
    }
}
