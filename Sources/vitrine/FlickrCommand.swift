import ArgumentParser
import Foundation
import VitrineCore

struct FlickrCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flickr",
        abstract: "A gallery of Flickr photos: a search for TERM, or the most recent photos.",
        discussion: """
            With a key (--key or FLICKR_API_KEY): flickr.photos.search for TERM, or flickr.photos.getRecent without \
            one, paginated. Without a key: Flickr's public feed, the latest 20 photos tagged with TERM's words, on \
            one page. Every item links back to its photo page on Flickr and credits its owner.

            \(exitStatusHelp)
            """
    )

    @Argument(help: "The search term (optional with a key: without it, the most recent photos).")
    var term: String?

    @Option(name: .long, help: ArgumentHelp("Items per grid page.", valueName: "n"))
    var perPage = 25

    @Option(name: .long, help: ArgumentHelp("Number of grid pages (with a key).", valueName: "n"))
    var pages = 1

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The Flickr API key (default: $FLICKR_API_KEY; without one, the public feed).", valueName: "key"))
    var key: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The base URL of Flickr's services (rest/ and feeds/ below it).", valueName: "url"))
    var endpoint = FlickrSource.defaultEndpoint

    @OptionGroup var flags: BuildFlags

    func validate() throws {
        guard (1...500).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 500.") }
        guard (1...500).contains(pages) else { throw ValidationError("--pages must be between 1 and 500.") }
    }

    func run() async throws {
        let key = key ?? ProcessInfo.processInfo.environment["FLICKR_API_KEY"]
        let feed = key?.isEmpty != false
        let source = FlickrSource(
            term: term, itemCount: feed ? min(20, perPage * pages) : perPage * pages, key: key, endpoint: endpoint)
        let label = term.map { "Flickr for “\($0)”" } ?? (feed ? "Flickr's public feed" : "Flickr's recent photos")
        try await GalleryRun.execute(
            source: source, label: label, flags: flags, itemsPerPage: perPage, secrets: [key ?? ""])
    }
}

struct ThumbnailsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnails",
        abstract: "A square-tiled, lazy-loading grid of a thumbnail-list API (the media-coverage API by default).",
        discussion: """
            Reads a JSON array whose elements carry thumbnail {domain, basePath, key, qualities, aspectRatio}; each \
            image is domain/basePath/0/key, and tiles use the largest listed quality.

            \(exitStatusHelp)
            """
    )

    @Option(name: .long, help: ArgumentHelp("The list API's URL.", valueName: "url"))
    var endpoint = ThumbnailSource.defaultEndpoint

    @Option(name: .long, help: ArgumentHelp("How many elements to ask for.", valueName: "n"))
    var limit = 200

    @Option(name: .long, help: ArgumentHelp("Tiles per grid page (default: all on one page).", valueName: "n"))
    var perPage: Int?

    @OptionGroup var flags: BuildFlags

    func validate() throws {
        guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000.") }
        if let perPage, perPage < 1 { throw ValidationError("--per-page must be positive.") }
    }

    func run() async throws {
        try await GalleryRun.execute(
            source: ThumbnailSource(limit: limit, endpoint: endpoint), label: "the thumbnail list", flags: flags,
            itemsPerPage: perPage ?? limit, secrets: [], tileShape: .square)
    }
}
