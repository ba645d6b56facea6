import Foundation

/// The clocks that tell the time of day. A build decides every date with one of them, handed down as a
/// `@Sendable () -> Date` named `now`: an answer's age against the cache's 24 hours, a history snapshot's time, a
/// random page's schedule. `--now` sets it; without `--now` it is the system's. Waits, timeouts, backoff and rate
/// budgets measure durations on `ContinuousClock` instead, which `--now` never moves.
///
/// `system` is the one place the product reads the system's time of day; ArchitectureTests lists the few files that
/// use it, each because what it compares with is real time (a file system's modification times, a server's
/// `Retry-After` date, requests really sent), which a moved clock must not be compared with.
public enum WallClock {
    /// The system's time of day.
    public static let system: @Sendable () -> Date = { Date() }

    /// A clock that always reads `instant`: a build that runs at one moment, however long it takes.
    package static func stopped(at instant: Date) -> @Sendable () -> Date {
        { instant }
    }

    /// A clock that reads `start` now and runs on from there in real time, as `--watch` needs.
    package static func running(from start: Date) -> @Sendable () -> Date {
        let began = ContinuousClock.now
        return {
            let elapsed = (ContinuousClock.now - began).components
            return start.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
    }
}
