import ArgumentParser
import Foundation
import VitrinePipeline

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
            (Atom) are written too. The same config and cache give the same bytes; files that did not change are \
            not rewritten, and pages whose inputs and templates did not change are not rendered again.

            A random gallery (source = "random", folder random/ by default) keeps its image until its next update \
            (every, 10m by default): a build before then asks its API nothing, a build after it fetches a new image, \
            and a build that cannot reach the API keeps the previous image with a warning (exit 2 with --strict). \
            --frozen shows the image its random.json names, from the cache.

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

    @OptionGroup var flags: BuildFlags

    func validate() throws {
        if frozen && flags.caching.refresh {
            throw ValidationError("--frozen and --refresh contradict each other; pick one.")
        }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let path = config
        try await GalleryRun.execute(
            flags: flags, secrets: SiteConfig.secrets(in: environment), frozen: frozen
        ) { pipeline, options in
            let site = try SiteConfig.load(path: path, environment: environment)
            return try await pipeline.build(
                SitePlan(title: site.title, baseURL: site.baseURL, parts: site.galleries.map(\.plan)),
                options: options)
        }
    }
}
