import ArgumentParser
import Foundation
import VitrineBasics
import VitrineModel
import VitrinePipeline
import VitrineSources
import VitrineStore

/// Runs the random-image page once or, with `--watch`, on schedule until interrupted, and reports on stderr.
enum RandomRun {
    static func execute(
        source: any RandomImageSource, flags: BuildFlags, every: UpdateInterval, watch: Bool, secrets: [String]
    ) async throws {
        let terminal = Terminal(quiet: flags.run.quiet, redactor: Redactor(secrets: secrets))
        let now = try flags.run.clock()
        try await flags.withNetwork(reporting: terminal) { fetcher in
            let pipeline = RandomPagePipeline(
                fetcher: fetcher, cache: CacheStore(root: flags.cacheRoot), progress: terminal.report, now: now)
            let interruption = Interruption()
            do {
                let options = RandomPageOptions(
                    build: try flags.options(), every: every, offline: flags.caching.offline,
                    refresh: flags.caching.refresh)
                let stoppedWhileWaiting = try await interruption.run(deadline: flags.run.deadline) {
                    var options = options
                    while true {
                        let summary = try await pipeline.run(source, options: options)
                        options.refresh = false
                        report(summary, flags: flags, terminal: terminal)
                        if case .stale = summary.outcome, flags.run.strict { throw terminal.fail(RandomStrictLoss()) }
                        guard watch else { return false }
                        let wait = max(0.5, summary.nextUpdate.timeIntervalSince(now()))
                        do {
                            try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                        } catch {
                            return true
                        }
                    }
                }
                if stoppedWhileWaiting, let reason = interruption.reason, !flags.run.quiet {
                    let how = if case .signal(SIGTERM) = reason { "SIGTERM" } else { "interrupted" }
                    StandardStreams.error("Stopped watching (\(how)); the page is complete.\n")
                }
            } catch let exit as ExitCode {
                throw exit
            } catch {
                let reason = interruption.reason ?? error
                let exit = terminal.fail(reason)
                if flags.run.json { terminal.writeFailureJSON(reason, exit: exit, compact: true) }
                throw exit
            }
        }
    }

    private static func report(_ summary: RandomRunSummary, flags: BuildFlags, terminal: Terminal) {
        terminal.finishRandom(summary, output: flags.output.out)
        guard flags.run.json else { return }
        let formatter = ISO8601DateFormatter()
        var report = [
            "status": summary.outcome != .updated && summary.outcome != .kept && flags.run.strict
                ? "partial" : "success",
            "outcome": {
                switch summary.outcome {
                case .updated: "updated"
                case .kept: "kept"
                case .stale: "stale"
                }
            }(),
            "photo": summary.photoID, "fetchedAt": formatter.string(from: summary.fetchedAt),
            "nextUpdate": formatter.string(from: summary.nextUpdate),
        ]
        if !summary.warnings.isEmpty { report["warnings"] = summary.warnings.joined(separator: "\n") }
        terminal.writeJSON(report, compact: true)
    }
}

/// `--strict` was given and the page still shows an earlier image because no new one could be loaded.
struct RandomStrictLoss: CommandLineFailure {
    var sentence: String {
        "The page was written but still shows the earlier image, because no new one could be loaded (see the warning above), and --strict makes that a failure."
    }
    var exitStatus: ExitStatus { .partial }
}
