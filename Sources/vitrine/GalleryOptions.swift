import ArgumentParser
import Foundation
import VitrinePipeline
import VitrineSources

/// A gallery command's own options: what its subcommand parses from the command line, and what a `[[gallery]]`
/// table of `vitrine build` holds under the same names.
protocol GalleryOptions: ParsableArguments {
    /// The `source` value that names these options in a config file.
    static var sourceName: String { get }
    /// The environment variable an API key comes from, if the source takes one.
    static var keyVariable: String? { get }
    /// Options a site config may not give, with the reason.
    static var refusedKeys: [String: String] { get }
    /// The folder a site build gives the gallery when its table names none.
    var folderName: String { get }
    /// The gallery to build, with the secrets to keep out of messages.
    func setup(folder: String, environment: [String: String]) -> GallerySetup
}

extension GalleryOptions {
    static var refusedKeys: [String: String] { [:] }
}

/// One gallery ready for the pipeline, and the secrets (API keys) no message may show.
struct GallerySetup {
    var plan: SitePart
    var secrets: [String]
}

/// `vitrine pixabay`'s options.
struct PixabayGallery: GalleryOptions {
    static let sourceName = "pixabay"
    static let keyVariable: String? = "PIXABAY_API_KEY"

    @Argument(help: "The search term.")
    var term: String

    @Option(name: .long, help: ArgumentHelp("The word appended for the second search.", valueName: "word"))
    var variant = "graffiti"

    @Flag(name: .long, help: "Only the search for TERM, no second variant.")
    var noVariant = false

    @Option(name: .long, help: ArgumentHelp("Items per grid page.", valueName: "n"))
    var perPage = 10

    @Option(name: .long, help: ArgumentHelp("Number of grid pages.", valueName: "n"))
    var pages = 1

    @Option(
        name: .long,
        help: ArgumentHelp("The Pixabay API key (default: $PIXABAY_API_KEY).", valueName: "key"))
    var key: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The API's base URL (tests, mirrors, proxies).", valueName: "url"))
    var endpoint = PixabaySource.defaultEndpoint

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most hits used from one search: Pixabay's cap, raised only for a mirror or `vitrine sample-api --hit-cap`.",
            valueName: "n"))
    var hitCap = PixabaySource.hitCap

    func validate() throws {
        guard !term.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("TERM must not be empty.")
        }
        guard (1...200).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 200.") }
        guard (1...500).contains(pages) else { throw ValidationError("--pages must be between 1 and 500.") }
        guard (1...1_000_000).contains(hitCap) else {
            throw ValidationError("--hit-cap must be between 1 and 1000000.")
        }
    }

    var folderName: String { term }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        let key = key ?? environment["PIXABAY_API_KEY"] ?? ""
        let source = PixabaySource(
            term: term, variantWord: noVariant ? nil : variant, itemCount: perPage * pages, key: key,
            endpoint: endpoint, hitCap: hitCap)
        return GallerySetup(
            plan: .gallery(
                GalleryPlan(folder: folder, source: source, label: "Pixabay for “\(term)”", itemsPerPage: perPage)),
            secrets: [key])
    }
}

/// `vitrine flickr`'s options.
struct FlickrGallery: GalleryOptions {
    static let sourceName = "flickr"
    static let keyVariable: String? = "FLICKR_API_KEY"

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

    func validate() throws {
        guard (1...500).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 500.") }
        guard (1...500).contains(pages) else { throw ValidationError("--pages must be between 1 and 500.") }
    }

    var folderName: String { term ?? "flickr" }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        let key = key ?? environment["FLICKR_API_KEY"]
        let feed = key?.isEmpty != false
        let source = FlickrSource(
            term: term, itemCount: feed ? min(20, perPage * pages) : perPage * pages, key: key, endpoint: endpoint)
        let label = term.map { "Flickr for “\($0)”" } ?? (feed ? "Flickr's public feed" : "Flickr's recent photos")
        return GallerySetup(
            plan: .gallery(GalleryPlan(folder: folder, source: source, label: label, itemsPerPage: perPage)),
            secrets: [key ?? ""])
    }
}

/// `vitrine thumbnails`'s options.
struct ThumbnailsGallery: GalleryOptions {
    static let sourceName = "thumbnails"
    static let keyVariable: String? = nil

    @Option(name: .long, help: ArgumentHelp("The list API's URL.", valueName: "url"))
    var endpoint = ThumbnailSource.defaultEndpoint

    @Option(name: .long, help: ArgumentHelp("How many elements to ask for.", valueName: "n"))
    var limit = 200

    @Option(name: .long, help: ArgumentHelp("Tiles per grid page (default: all on one page).", valueName: "n"))
    var perPage: Int?

    func validate() throws {
        guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000.") }
        if let perPage, perPage < 1 { throw ValidationError("--per-page must be positive.") }
    }

    var folderName: String { "thumbnails" }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        GallerySetup(
            plan: .gallery(
                GalleryPlan(
                    folder: folder, source: ThumbnailSource(limit: limit, endpoint: endpoint),
                    label: "the thumbnail list", itemsPerPage: perPage ?? limit, tileShape: .square)),
            secrets: [])
    }
}
