import ArgumentParser
import VitrinePipeline
import VitrineSources

/// `vitrine albums`'s options, also those of a `source = "albums"` table of `vitrine build`.
struct AlbumsGallery: GalleryOptions {
    static let sourceName = "albums"
    static let keyVariable: String? = nil
    static let configKeys: [String: ConfigKeyKind] = [
        "endpoint": .option, "image-endpoint": .option, "users": .option, "albums": .option, "per-page": .option,
        "license": .option, "declared-license": .option,
    ]

    @Option(
        name: .long, help: ArgumentHelp("The API's base URL (/users, /albums, /photos below it).", valueName: "url"))
    var endpoint = JSONPlaceholderSource.defaultEndpoint

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The base the rewritten image URLs point to (/seed/{hex}/{size} below it).", valueName: "url"))
    var imageEndpoint = PlaceholderURLRewrite.defaultImageEndpoint

    @Option(name: .long, help: ArgumentHelp("Only the first N users (default: all).", valueName: "n"))
    var users: Int?

    @Option(name: .long, help: ArgumentHelp("Only the first N albums of each user (default: all).", valueName: "n"))
    var albums: Int?

    @Option(name: .long, help: ArgumentHelp("Photos per album grid page.", valueName: "n"))
    var perPage = 25

    @Option(name: .long, help: LicenseOption.help)
    var license = LicenseChoice.any

    @Option(name: .long, help: DeclaredLicenseOption.help, transform: DeclaredLicenseOption.parse)
    var declaredLicense: License?

    func validate() throws {
        try LicenseOption.validate(
            license, fixed: declaredLicense ?? JSONPlaceholderSource.license, source: "JSONPlaceholder")
        if let users, users < 1 { throw ValidationError("--users must be at least 1.") }
        if let albums, albums < 1 { throw ValidationError("--albums must be at least 1.") }
        guard (1...500).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 500.") }
    }

    var folderName: String { "albums" }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        let source = JSONPlaceholderSource(
            endpoint: endpoint, imageEndpoint: imageEndpoint, userLimit: users, albumLimit: albums,
            declaredLicense: declaredLicense)
        return GallerySetup(
            plan: .gallery(
                GalleryPlan(folder: folder, source: source, label: "JSONPlaceholder's albums", itemsPerPage: perPage)),
            secrets: [])
    }
}
