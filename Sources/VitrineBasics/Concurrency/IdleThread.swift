internal import CLinux
import Foundation
import Synchronization

/// Work on a thread of its own in Linux's idle scheduling class (`SCHED_IDLE`): it runs only on a processor that
/// nothing else on the machine wants, so work that may be thrown away (the pages a build renders early) never slows
/// the work beside it, its own downloads or the server they come from. Where the kernel refuses the class, the
/// thread runs at the normal one.
package enum IdleThread {
    /// Starts `body` on a new idle thread (a thread of the normal class when `idle` is false); the caller does not
    /// wait for it.
    package static func start(idle: Bool = true, _ body: @escaping @Sendable () -> Void) {
        Thread {
            if idle { _ = vitrine_schedule_calling_thread_when_idle() }
            body()
        }.start()
    }

    /// Whether the calling thread is in the idle scheduling class.
    package static var isCallingThreadIdle: Bool { sched_getscheduler(0) == vitrine_idle_scheduling_policy() }
}

/// The newest of a run of values one side offers and an idle thread takes (`IdleThread`): an offer replaces one not
/// taken yet, and a take waits for an offer or the end.
package final class NewestValue<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var ended = false
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    package init() {}

    /// Offers `value` in place of any not taken yet.
    package func offer(_ value: Value) {
        state.withLock { $0.value = value }
        signal.signal()
    }

    /// Ends the run: a take waiting, and every take after, gets nil.
    package func end() {
        state.withLock { $0.ended = true }
        signal.signal()
    }

    /// Whether the run has ended.
    package var hasEnded: Bool { state.withLock { $0.ended } }

    /// The newest value not taken yet, waiting for one; nil once the run has ended. Blocks its thread: for a thread
    /// of its own, never a task of the cooperative pool.
    package func take() -> Value? {
        while true {
            let taken = state.withLock { state -> (Value?, Bool) in
                if state.ended { return (nil, true) }
                defer { state.value = nil }
                return (state.value, false)
            }
            if taken.1 { return nil }
            if let value = taken.0 { return value }
            signal.wait()
        }
    }
}
