import ArgumentParser
import Foundation
import VitrineBasics
import VitrineModel
import VitrinePipeline
import VitrineSources
import VitrineStore

struct RandomCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "random",
        abstract: "A page with one random image that is replaced on a schedule, and a favorites page.",
        discussion: """
            Writes index.html (the image fitted to the screen width, its author, size, source page and what else \
            the API tells, and a countdown to the next image), favorites.html (favorites kept in the browser) and \
            random.json (the schedule and the image shown). A run before the next update keeps the image and asks \
            the network nothing; --watch keeps running and replaces the image on schedule, and a restarted watch \
            keeps the schedule. When no new image can be loaded, the page keeps the previous one and says so; the run exits 0 with a warning, or 2 with --strict.

            Sources: picsum (Lorem Picsum, no key; images are downloaded), or unsplash with --key or \
            UNSPLASH_ACCESS_KEY (images are hotlinked, credited with referral links, and each new photo is \
            reported to Unsplash's download_location, as Unsplash's terms require). Without --provider (or its \
            other name --source), unsplash when a key is set, else picsum.

            For tests only: VITRINE_TEST_NOW=2026-11-21T14:00:00Z makes the clock start at that instant.

            \(exitStatusHelp)
            """
    )

    @OptionGroup var gallery: RandomGallery
    @OptionGroup var flags: BuildFlags

    func run() async throws {
        try await RandomRun.execute(
            source: gallery.source(environment: ProcessInfo.processInfo.environment), flags: flags,
            every: try UpdateInterval.parse(gallery.every), watch: gallery.watch,
            secrets: [gallery.accessKey(environment: ProcessInfo.processInfo.environment)])
    }
}

/// `vitrine random`'s options, also those of a `source = "random"` table of `vitrine build`.
struct RandomGallery: GalleryOptions {
    static let sourceName = "random"
    static let keyVariable: String? = "UNSPLASH_ACCESS_KEY"
    static let refusedKeys = [
        "watch":
            "--watch keeps vitrine random running on its own; a site build runs once, so run vitrine build on a schedule instead"
    ]

    /// The random-image APIs.
    enum Provider: String, ExpressibleByArgument, CaseIterable {
        case picsum, unsplash
    }

    @Option(
        name: [.long, .customLong("source")],
        help: ArgumentHelp("picsum or unsplash (default: unsplash with a key).", valueName: "name"))
    var provider: Provider?

    @Option(
        name: .long,
        help: ArgumentHelp("How long each image stays: 30s, 10m, 1h, 1h30m (5 s to 30 days).", valueName: "duration"))
    var every = "10m"

    @Flag(name: .long, help: "Keep running and replace the image on schedule; Ctrl-C stops it.")
    var watch = false

    @Option(
        name: .long, help: ArgumentHelp("The Unsplash access key (default: $UNSPLASH_ACCESS_KEY).", valueName: "key"))
    var key: String?

    @Option(name: .long, help: ArgumentHelp("Unsplash only: limit the random photo to this search.", valueName: "text"))
    var query: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The API's base URL (default: https://picsum.photos/ or https://api.unsplash.com/).", valueName: "url"))
    var endpoint: String?

    func validate() throws {
        do {
            _ = try UpdateInterval.parse(every)
        } catch {
            throw ValidationError(FailureReport.sentence(for: error))
        }
        let environment = ProcessInfo.processInfo.environment
        if query != nil && resolvedProvider(environment: environment) != .unsplash {
            throw ValidationError("--query works with Unsplash only (--provider unsplash).")
        }
        if let key, !key.isEmpty, provider == .picsum {
            throw ValidationError("--key is for Unsplash; Lorem Picsum needs no key.")
        }
        _ = try RandomRun.testClock()
    }

    func accessKey(environment: [String: String]) -> String {
        key ?? environment["UNSPLASH_ACCESS_KEY"] ?? ""
    }

    func resolvedProvider(environment: [String: String]) -> Provider {
        provider ?? (accessKey(environment: environment).isEmpty ? .picsum : .unsplash)
    }

    func source(environment: [String: String]) -> any RandomImageSource {
        switch resolvedProvider(environment: environment) {
        case .picsum: PicsumSource(endpoint: endpoint ?? PicsumSource.defaultEndpoint)
        case .unsplash:
            UnsplashSource(
                key: accessKey(environment: environment), endpoint: endpoint ?? UnsplashSource.defaultEndpoint,
                query: query)
        }
    }

    var folderName: String { "random" }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        // validate() has parsed it.
        let every = (try? UpdateInterval.parse(every)) ?? UpdateInterval(seconds: 600)!
        return GallerySetup(
            plan: .random(RandomPagePlan(folder: folder, source: source(environment: environment), every: every)),
            secrets: [accessKey(environment: environment)])
    }
}

/// Runs the random-image page once or, with `--watch`, on schedule until interrupted, and reports on stderr.
enum RandomRun {
    static let testClockVariable = "VITRINE_TEST_NOW"

    /// The clock: real time, or (for tests only) real time moved to start at `VITRINE_TEST_NOW`; with `running`
    /// false it stays at that instant, for a build that reads the clock once and must not depend on how long the
    /// process took to get there.
    static func testClock(
        environment: [String: String] = ProcessInfo.processInfo.environment, running: Bool = true
    ) throws -> @Sendable () -> Date {
        guard let text = environment[testClockVariable], !text.isEmpty else { return { Date() } }
        guard let start = ISO8601DateFormatter().date(from: text) else {
            throw ValidationError("\(testClockVariable) must be an ISO 8601 time such as 2026-11-21T14:00:00Z.")
        }
        guard running else { return { start } }
        let began = ContinuousClock.now
        return {
            let elapsed = (ContinuousClock.now - began).components
            return start.addingTimeInterval(Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
        }
    }

    static func execute(
        source: any RandomImageSource, flags: BuildFlags, every: UpdateInterval, watch: Bool, secrets: [String]
    ) async throws {
        let terminal = Terminal(quiet: flags.quiet, redactor: Redactor(secrets: secrets))
        let now = try testClock()
        try await flags.withNetwork(reporting: terminal) { fetcher in
            let pipeline = RandomPagePipeline(
                fetcher: fetcher, cache: CacheStore(root: flags.cacheRoot), progress: terminal.report, now: now)
            let interruption = Interruption()
            do {
                let options = RandomPageOptions(
                    output: flags.outputFolder, every: every, theme: try flags.theme(), force: flags.force,
                    offline: flags.offline, refresh: flags.refresh, maximumImageBytes: flags.maxImageSize.bytes,
                    maximumResponseBytes: flags.maxResponseSize.bytes, waitForOutput: !flags.noWait)
                let stoppedWhileWaiting = try await interruption.run(deadline: flags.deadline) {
                    var options = options
                    while true {
                        let summary = try await pipeline.run(source, options: options)
                        options.refresh = false
                        report(summary, flags: flags, terminal: terminal)
                        if case .stale = summary.outcome, flags.strict { throw terminal.fail(RandomStrictLoss()) }
                        guard watch else { return false }
                        let wait = max(0.5, summary.nextUpdate.timeIntervalSince(now()))
                        do {
                            try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
                        } catch {
                            return true
                        }
                    }
                }
                if stoppedWhileWaiting, let reason = interruption.reason, !flags.quiet {
                    let how = if case .signal(SIGTERM) = reason { "SIGTERM" } else { "interrupted" }
                    StandardStreams.error("Stopped watching (\(how)); the page is complete.\n")
                }
            } catch let exit as ExitCode {
                throw exit
            } catch {
                let reason = interruption.reason ?? error
                let exit = terminal.fail(reason)
                if flags.json { terminal.writeFailureJSON(reason, exit: exit, compact: true) }
                throw exit
            }
        }
    }

    private static func report(_ summary: RandomRunSummary, flags: BuildFlags, terminal: Terminal) {
        terminal.finishRandom(summary, output: flags.out)
        guard flags.json else { return }
        let formatter = ISO8601DateFormatter()
        var report = [
            "status": summary.outcome != .updated && summary.outcome != .kept && flags.strict ? "partial" : "success",
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
