import ArgumentParser
import Foundation
import VitrinePipeline
import VitrineSources

/// `vitrine pixabay`'s options.
struct PixabayGallery: GalleryOptions {
    static let sourceName = "pixabay"
    static let keyVariable: String? = "PIXABAY_API_KEY"
    static let configKeys: [String: ConfigKeyKind] = [
        "term": .argument, "variant": .option, "no-variant": .flag, "per-page": .option, "pages": .option,
        "endpoint": .option, "hit-cap": .option, "license": .option,
    ]

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

    @Option(name: .long, help: LicenseOption.help)
    var license = LicenseChoice.any

    func validate() throws {
        try LicenseOption.validate(license, fixed: PixabaySource.license, source: "Pixabay")
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
