import ArgumentParser
import Foundation
import VitrinePipeline
import VitrinePublish
import VitrineSources

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build every gallery a config file lists into one site with a home page.",
        discussion: """
            The config (TOML) has a top-level title and optional base-url, and one [[gallery]] table per gallery \
            whose keys are its command's: source (pixabay, flickr, thumbnails, albums or random), term, and each \
            option's long name (variant, pages, per-page, endpoint, …; for random: provider, every, query, \
            endpoint), plus path for its folder. API keys come from the environment (PIXABAY_API_KEY, \
            FLICKR_API_KEY, UNSPLASH_ACCESS_KEY), never from the file. With a base-url, sitemap.xml and feed.xml \
            (Atom) are written too. With history = true (or --history), every build whose results differ \
            from the last one records a snapshot in history.json, and each gallery and the site get a What's \
            new page (changes.html) and the feed an entry per snapshot; when the output folder has no \
            history.json, the previous one is read from --history-from, else from base-url (--new-history \
            starts a new one instead, for a site's first publish). The same config and cache give the same bytes; files that did not change are \
            not rewritten, and pages whose inputs and templates did not change are not rendered again.

            A random gallery (source = "random", folder random/ by default) keeps its image until its next update \
            (every, 10m by default): a build before then asks its API nothing, a build after it fetches a new image, \
            and a build that cannot reach the API keeps the previous image with a warning (exit 2 with --strict). \
            --frozen shows the image its random.json names, from the cache.

            A site too large for one machine can be built in shards: --shard K/N builds only the galleries of \
            shard K of N (by a digest of each gallery's folder, so a gallery keeps its shard as the config grows) \
            into its own --out, with its own cache; --merge with the shards' output folders then assembles the \
            whole site into --out without any request, byte for byte as one build would write it.

            \(exitStatusHelp)
            """
    )

    @Option(name: .long, help: ArgumentHelp("The site config.", valueName: "file"))
    var config = "vitrine.toml"

    @Flag(
        name: .long,
        help:
            "Rebuild from the output's manifest and the cache alone, without the network; fail, naming it, if anything is missing."
    )
    var frozen = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Build only the galleries of shard K of N into --out, for a later --merge.", valueName: "K/N"))
    var shard: String?

    @Option(
        name: .long, parsing: .upToNextOption,
        help: ArgumentHelp(
            "Assemble the site into --out from the output folders of its shards, sending no request.",
            valueName: "shard-folder"))
    var merge: [String] = []

    @OptionGroup var flags: BuildFlags

    func validate() throws {
        if frozen && flags.caching.refresh {
            throw ValidationError("--frozen and --refresh contradict each other; pick one.")
        }
        if shard != nil && !merge.isEmpty {
            throw ValidationError("--shard builds one shard and --merge assembles them; pick one.")
        }
        if frozen && !merge.isEmpty {
            throw ValidationError("--merge reads the shards' folders, not the cache, so --frozen does not apply.")
        }
        _ = try siteShard()
        try PathArgument.requireNonEmpty(config, "--config")
        for folder in merge { try PathArgument.requireNonEmpty(folder, "A folder given to --merge") }
    }

    /// The shard `--shard` names, if any.
    func siteShard() throws -> SiteShard? {
        guard let shard else { return nil }
        let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let number = Int(parts[0]), let count = Int(parts[1]), let site = SiteShard(number: number, of: count)
        else {
            throw ValidationError("--shard takes K/N with 1 <= K <= N, such as 2/3; “\(shard)” is not one.")
        }
        return site
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let path = config
        let shard = try siteShard()
        let shards = merge.map { URL(fileURLWithPath: $0) }
        try await GalleryRun.execute(
            flags: flags, secrets: SiteConfig.secrets(in: environment), frozen: frozen
        ) { [flags] pipeline, options in
            let site = try SiteConfig.load(path: path, environment: environment)
            var options = options
            options.history = try flags.output.historyOptions(configured: site.history)
            if flags.output.formats == nil { options.formats = site.formats }
            if flags.caching.cacheMaxSize == nil, let size = site.cacheMaximumSize {
                options.cacheMaximumBytes = Int64(size.bytes)
            }
            let plan = SitePlan(title: site.title, baseURL: site.baseURL, parts: site.galleries.map(\.plan))
            let warning = options.history == nil ? site.keepAllWithoutHistoryWarning : nil
            if let warning { pipeline.progress(.warning(warning)) }
            var summary: BuildSummary
            do {
                if let shard {
                    summary = try await pipeline.build(plan, shard: shard, config: site.digest, options: options)
                } else if !shards.isEmpty {
                    summary = try await pipeline.merge(plan, shards: shards, config: site.digest, options: options)
                } else {
                    summary = try await pipeline.build(plan, options: options)
                }
            } catch let error as LicenseChoiceError {
                // The choice is a key of the file, not an option of the command line: name where it stands.
                throw site.configError(for: error) ?? error
            }
            summary.warnings += warning.map { [$0] } ?? []
            return summary
        }
    }
}
