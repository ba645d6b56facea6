import ArgumentParser
import VitrinePipeline
import VitrineSources

/// `vitrine thumbnails`'s options.
struct ThumbnailsGallery: GalleryOptions {
    static let sourceName = "thumbnails"
    static let keyVariable: String? = nil
    static let configKeys: [String: ConfigKeyKind] = [
        "endpoint": .option, "limit": .option, "per-page": .option, "license": .option, "declared-license": .option,
    ]

    @Option(name: .long, help: ArgumentHelp("The list API's URL.", valueName: "url"))
    var endpoint = ThumbnailSource.defaultEndpoint

    @Option(name: .long, help: ArgumentHelp("How many elements to ask for.", valueName: "n"))
    var limit = 200

    @Option(name: .long, help: ArgumentHelp("Tiles per grid page (default: all on one page).", valueName: "n"))
    var perPage: Int?

    @Option(name: .long, help: LicenseOption.help)
    var license = LicenseChoice.any

    @Option(name: .long, help: DeclaredLicenseOption.help, transform: DeclaredLicenseOption.parse)
    var declaredLicense: License?

    func validate() throws {
        try LicenseOption.validate(
            license, fixed: declaredLicense ?? ThumbnailSource.license, source: "The thumbnail list")
        guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000.") }
        if let perPage, perPage < 1 { throw ValidationError("--per-page must be positive.") }
    }

    var folderName: String { "thumbnails" }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        GallerySetup(
            plan: .gallery(
                GalleryPlan(
                    folder: folder,
                    source: ThumbnailSource(limit: limit, endpoint: endpoint, declaredLicense: declaredLicense),
                    label: "the thumbnail list", itemsPerPage: perPage ?? limit, tileShape: .square)),
            secrets: [])
    }
}
