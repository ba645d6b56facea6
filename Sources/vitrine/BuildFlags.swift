import ArgumentParser
import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrinePipeline
import VitrinePublish
import VitrineRender
import VitrineSources
import VitrineStore

/// Options every gallery command shares: where things go, how the cache and the network are used.
struct BuildFlags: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The output folder.", valueName: "dir"))
    var out: String = "Output"

    @Flag(name: .long, help: "Write into an output folder that holds files Vitrine did not write.")
    var force = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The cache folder (default: $XDG_CACHE_HOME/vitrine or ~/.cache/vitrine).", valueName: "dir"))
    var cache: String?

    @Flag(name: .long, help: "Use only the cache; never touch the network.")
    var offline = false

    @Flag(name: .long, help: "Ask the API again even when cached responses are fresh (under 24 hours old).")
    var refresh = false

    @Flag(
        name: .long,
        help:
            "Exit 2, leaving the output folder as it was, when the gallery lacks anything: a failed image, a skipped result, stale results."
    )
    var strict = false

    @Flag(
        name: .long,
        help: "Exit 75 at once instead of waiting when another run is writing into the same output folder.")
    var noWait = false

    @Option(name: .long, help: ArgumentHelp("Concurrent transfers.", valueName: "n"))
    var jobs = 8

    @Option(
        name: .long, help: ArgumentHelp("Retries of a failed transfer (connection, timeout, 5xx, 429).", valueName: "n")
    )
    var retries = 4

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a connection.", valueName: "s"))
    var connectTimeout = 15

    @Option(
        name: .long,
        help: ArgumentHelp("Seconds a transfer may stall (under 100 bytes/s) before it fails.", valueName: "s"))
    var stallTimeout = 30

    @Option(name: .long, help: ArgumentHelp("Stop the whole run after this many seconds.", valueName: "s"))
    var deadline: Int?

    @Option(name: .long, help: ArgumentHelp("The largest image accepted (K, M, G suffixes).", valueName: "size"))
    var maxImageSize = ByteSize(bytes: 40 << 20)

    @Option(name: .long, help: ArgumentHelp("The largest API response accepted.", valueName: "size"))
    var maxResponseSize = ByteSize(bytes: 16 << 20)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A theme folder to use instead of the built-in one (see Templates/README.md).", valueName: "dir"))
    var templates: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(name: .long, help: "Print a JSON build report on stdout (status, counts, warnings).")
    var json = false

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64.") }
        guard (0...20).contains(retries) else { throw ValidationError("--retries must be between 0 and 20.") }
        guard connectTimeout > 0, stallTimeout > 0 else { throw ValidationError("Timeouts must be positive.") }
        if let deadline, deadline <= 0 { throw ValidationError("--deadline must be positive.") }
        if offline && refresh { throw ValidationError("--offline and --refresh contradict each other; pick one.") }
    }

    /// Runs `body` with the polite fetcher these flags ask for, which reports waits and retries on `terminal`, over
    /// a transfer engine that is stopped when `body` ends.
    func withNetwork<Result>(reporting terminal: Terminal, _ body: (PoliteFetcher) async throws -> Result)
        async throws -> Result
    {
        let configuration = TransferEngine.Configuration(
            concurrentTransfers: jobs, connectTimeoutSeconds: connectTimeout, stallTimeoutSeconds: stallTimeout)
        return try await withTransferEngine(configuration: configuration) { engine in
            try await body(
                PoliteFetcher(
                    engine, policy: RetryPolicy(retries: retries),
                    quotas: QuotaLedger(cache: CacheStore(root: cacheRoot)), events: terminal.reportTransfer))
        }
    }

    var cacheRoot: URL { cache.map { URL(fileURLWithPath: $0) } ?? CacheStore.defaultRoot() }
    var outputFolder: URL { URL(fileURLWithPath: out) }
    var policy: CachePolicy { CachePolicy(offline: offline, refresh: refresh) }

    func theme() throws(TemplateError) -> Theme {
        guard let templates else { return .builtIn }
        return try Theme.load(directory: URL(fileURLWithPath: templates))
    }

    /// The build options these flags give; the time stamp comes from `SOURCE_DATE_EPOCH` if it is set.
    func options(frozen: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> BuildOptions
    {
        var timestamp: Date?
        if let epoch = environment["SOURCE_DATE_EPOCH"] {
            guard let seconds = Int(epoch.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
                throw SourceDateEpochError(value: epoch)
            }
            timestamp = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        return BuildOptions(
            output: outputFolder, theme: try theme(), maximumImageBytes: maxImageSize.bytes,
            maximumResponseBytes: maxResponseSize.bytes, force: force, frozen: frozen, timestamp: timestamp,
            strict: strict, waitForOutput: !noWait)
    }
}

/// `SOURCE_DATE_EPOCH` is set but is not a number of seconds.
struct SourceDateEpochError: CommandLineFailure {
    let value: String
    var sentence: String {
        "SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, not “\(value)”; unset it or fix it."
    }
    var exitStatus: ExitStatus { .usage }
}
