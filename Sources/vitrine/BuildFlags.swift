import ArgumentParser
import Foundation
import VitrineBasics
import VitrineHTTP
import VitrinePipeline
import VitrineRender
import VitrineStore

/// Options every gallery command shares, in titled sections of its help: where things go, how the cache and the
/// network are used, and how the run ends and reports.
struct BuildFlags: ParsableArguments {
    @OptionGroup(title: "Output options") var output: OutputOptions
    @OptionGroup(title: "Cache options") var caching: CacheOptions
    @OptionGroup(title: "Network options") var network: NetworkOptions
    @OptionGroup(title: "Run options") var run: RunOptions

    /// Runs `body` with the polite fetcher these flags ask for, which reports waits and retries on `terminal`, over
    /// a transfer engine that is stopped when `body` ends.
    func withNetwork<Result>(reporting terminal: Terminal, _ body: (PoliteFetcher) async throws -> Result)
        async throws -> Result
    {
        let configuration = TransferEngine.Configuration(
            concurrentTransfers: network.jobs, connectTimeoutSeconds: network.connectTimeout,
            stallTimeoutSeconds: network.stallTimeout, transferTimeoutSeconds: network.transferTimeout)
        return try await withTransferEngine(configuration: configuration) { engine in
            try await body(
                PoliteFetcher(
                    engine, policy: RetryPolicy(retries: network.retries),
                    quotas: QuotaLedger(cache: CacheStore(root: cacheRoot)), events: terminal.reportTransfer))
        }
    }

    func validate() throws {
        // Empty paths are refused by the options' own checks, with a sentence of their own.
        guard caching.cache?.isEmpty != true, !output.out.isEmpty else { return }
        try PathArgument.requireOutside(cache: cacheRoot, output: outputFolder)
    }

    var cacheRoot: URL { caching.cache.map { URL(fileURLWithPath: $0) } ?? CacheStore.defaultRoot() }
    var outputFolder: URL { URL(fileURLWithPath: output.out) }
    var policy: CachePolicy { CachePolicy(offline: caching.offline, refresh: caching.refresh) }

    func theme() throws(TemplateError) -> Theme {
        guard let templates = output.templates else { return .builtIn }
        return try Theme.load(directory: URL(fileURLWithPath: templates))
    }

    /// The build options these flags give; the time stamp comes from `SOURCE_DATE_EPOCH` if it is set. It stamps
    /// what the build writes (history snapshots, the feed's dates) and nothing else: `--now` sets the clock the run
    /// decides with (what is fresh, what is due), and stamps a snapshot only when `SOURCE_DATE_EPOCH` is unset, so
    /// that a reproducible build stays byte for byte the same whatever day it is rebuilt as.
    func options(frozen: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> BuildOptions
    {
        var timestamp: Date?
        if let epoch = environment["SOURCE_DATE_EPOCH"] {
            guard let seconds = Int64(epoch.trimmingCharacters(in: .whitespaces)),
                SourceDateEpochError.allowed.contains(seconds)
            else {
                throw SourceDateEpochError(value: epoch)
            }
            timestamp = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        var options = BuildOptions(
            output: outputFolder, theme: try theme(), maximumImageBytes: network.maxImageSize.bytes,
            maximumResponseBytes: network.maxResponseSize.bytes, force: output.force, frozen: frozen,
            timestamp: timestamp, strict: run.strict, waitForOutput: !output.noWait,
            history: try output.historyOptions())
        options.formats = try output.imageFormats() ?? []
        options.cacheMaximumBytes = Int64((caching.cacheMaxSize ?? CacheOptions.defaultMaximumSize).bytes)
        return options
    }
}

/// `SOURCE_DATE_EPOCH` is set but is not a number of seconds that RFC 3339 can write (years 1970 to 9999).
struct SourceDateEpochError: CommandLineFailure {
    /// 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z: a later time has no four-digit year, so a history stamped
    /// with it could never be read again.
    static let allowed = UTCTime.rfc3339Seconds

    let value: String
    var sentence: String {
        "SOURCE_DATE_EPOCH must be a whole number of seconds from \(Self.allowed.lowerBound) to \(Self.allowed.upperBound) "
            + "(1970 to the end of 9999), not “\(value)”; unset it or fix it."
    }
    var exitStatus: ExitStatus { .usage }
}
