import ArgumentParser
import Foundation
import VitrinePipeline
import VitrineSources

/// `vitrine flickr`'s options.
struct FlickrGallery: GalleryOptions {
    static let sourceName = "flickr"
    static let keyVariable: String? = "FLICKR_API_KEY"
    static let configKeys: [String: ConfigKeyKind] = [
        "term": .argument, "per-page": .option, "pages": .option, "endpoint": .option, "license": .option,
        "declared-license": .option,
    ]

    @Argument(help: "The search term (optional with a key: without it, the most recent photos).")
    var term: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Items per grid page, at most 30 (Flickr's API terms: no more than 30 member photos on a page).",
            valueName: "n"))
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

    @Option(name: .long, help: LicenseOption.help)
    var license = LicenseChoice.any

    @Option(
        name: .long,
        help: ArgumentHelp(
            "For the public feed (without a key) alone: " + DeclaredLicenseOption.help.abstract,
            valueName: DeclaredLicenseOption.help.valueName), transform: DeclaredLicenseOption.parse)
    var declaredLicense: License?

    func validate() throws {
        let most = FlickrSource.maximumPhotosPerPage
        guard (1...most).contains(perPage) else {
            throw ValidationError(
                "--per-page must be between 1 and \(most): Flickr's API terms allow no more than \(most) of its "
                    + "members' photos on one page.")
        }
        guard (1...500).contains(pages) else { throw ValidationError("--pages must be between 1 and 500.") }
        if declaredLicense != nil, (key ?? ProcessInfo.processInfo.environment["FLICKR_API_KEY"])?.isEmpty == false {
            throw ValidationError(
                "--declared-license is for Flickr's public feed, which names no license; with an API key, Flickr "
                    + "names each photo's license itself.")
        }
    }

    var folderName: String { term ?? "flickr" }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        let key = key ?? environment["FLICKR_API_KEY"]
        let feed = key?.isEmpty != false
        let source = FlickrSource(
            term: term, itemCount: feed ? min(20, perPage * pages) : perPage * pages, key: key, endpoint: endpoint,
            licenses: license, feedLicense: declaredLicense)
        let label = term.map { "Flickr for “\($0)”" } ?? (feed ? "Flickr's public feed" : "Flickr's recent photos")
        return GallerySetup(
            plan: .gallery(GalleryPlan(folder: folder, source: source, label: label, itemsPerPage: perPage)),
            secrets: [key ?? ""])
    }
}
