import ArgumentParser
import Foundation
import VitrineBasics

/// When a run counts as failed, how long it may last, and what it prints.
struct RunOptions: ParsableArguments {
    @Flag(
        name: .long,
        help:
            "Exit 2, leaving the output folder as it was, when the gallery lacks anything: a failed image, a skipped result, stale results."
    )
    var strict = false

    @Option(name: .long, help: ArgumentHelp("Stop the whole run after this many seconds.", valueName: "s"))
    var deadline: Int?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: .long, help: "Print a JSON build report on stdout (status, counts, warnings).")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Run as if the clock read this time (ISO 8601, such as 2026-11-21T14:00:00Z): whether cached API answers are still fresh, the time of a history snapshot, which random image is due and when the next one is; with --watch the clock runs on from there.",
            valueName: "time"))
    var now: String?

    func validate() throws {
        if let deadline, deadline <= 0 { throw ValidationError("--deadline must be positive.") }
        _ = try startingInstant()
    }

    /// The instant `--now` names, if given.
    private func startingInstant() throws -> Date? {
        guard let now else { return nil }
        guard let instant = UTCTime.date(iso8601: now),
            UTCTime.rfc3339Seconds.contains(Int64(instant.timeIntervalSince1970.rounded(.down)))
        else {
            throw ValidationError(
                "--now must be an ISO 8601 time that exists, from 1970 to 9999, such as 2026-11-21T14:00:00Z.")
        }
        return instant
    }

    /// The clock every date of the run is decided with (an API answer's age, a history snapshot's time, a random
    /// page's schedule): the system's, or one that starts at `--now`; with `running` false it stays at that instant,
    /// for a build that reads the clock once and must not depend on how long the process took to get there.
    func clock(running: Bool = true) throws -> @Sendable () -> Date {
        guard let start = try startingInstant() else { return WallClock.system }
        return running ? WallClock.running(from: start) : WallClock.stopped(at: start)
    }
}
