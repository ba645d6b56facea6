import ArgumentParser
import Foundation
import VitrineCore

/// Options every gallery command shares: where things go, how the cache and the network are used.
struct BuildFlags: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The output folder.", valueName: "dir"))
    var out: String = "Output"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The cache folder (default: $XDG_CACHE_HOME/vitrine or ~/.cache/vitrine).", valueName: "dir"))
    var cache: String?

    @Flag(name: .long, help: "Use only the cache; never touch the network.")
    var offline = false

    @Flag(name: .long, help: "Ask the API again even when cached responses are fresh (under 24 hours old).")
    var refresh = false

    @Option(name: .long, help: ArgumentHelp("Concurrent transfers.", valueName: "n"))
    var jobs = 8

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A theme folder to use instead of the built-in one (see Templates/README.md).", valueName: "dir"))
    var templates: String?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64.") }
        if offline && refresh { throw ValidationError("--offline and --refresh contradict each other; pick one.") }
    }

    var cacheRoot: URL { cache.map { URL(fileURLWithPath: $0) } ?? CacheStore.defaultRoot() }
    var outputFolder: URL { URL(fileURLWithPath: out) }
    var policy: CachePolicy { CachePolicy(offline: offline, refresh: refresh) }

    func theme() throws(TemplateError) -> Theme {
        guard let templates else { return .builtIn }
        return try Theme.load(directory: URL(fileURLWithPath: templates))
    }
}

/// Runs one gallery build with the shared flags and reports it on stderr.
enum GalleryRun {
    static func execute(
        source: any ImageSource, label: String, flags: BuildFlags, itemsPerPage: Int, secrets: [String]
    ) async throws {
        let terminal = Terminal(quiet: flags.quiet, redactor: Redactor(secrets: secrets))
        let engine = TransferEngine(configuration: .init(concurrentTransfers: flags.jobs))
        defer { engine.shutdown() }
        do {
            let pipeline = GalleryPipeline(
                fetcher: engine, cache: CacheStore(root: flags.cacheRoot), policy: flags.policy,
                progress: terminal.report)
            let summary = try await pipeline.run(
                source, label: label,
                options: BuildOptions(output: flags.outputFolder, itemsPerPage: itemsPerPage, theme: try flags.theme()))
            terminal.finish(summary, output: flags.out)
        } catch {
            throw terminal.fail(error)
        }
    }
}
