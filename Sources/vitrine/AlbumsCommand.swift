import ArgumentParser
import Foundation
import VitrinePipeline
import VitrineSources

struct AlbumsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "albums",
        abstract: "JSONPlaceholder's users, albums and photos as a browsable hierarchy of pages.",
        discussion: """
            Writes a list of users (index.html), a list of each user's albums with a cover photo (users/N/), a grid of \
            each album's photos with their titles on them (albums/N/), and a full-screen page per photo (photos/N.html) \
            with a toolbar and a details panel that a tap on the image hides or shows.

            JSONPlaceholder's photo URLs point to via.placeholder.com, which no longer exists. Vitrine rewrites \
            https://via.placeholder.com/600/92c952 to https://picsum.photos/seed/92c952/600 (the same for 150), with \
            --image-endpoint in place of https://picsum.photos; an image that still fails becomes a placeholder. \
            API responses and images are cached, so a second run of the full data set (10 users, 100 albums, 5,000 \
            photos) downloads nothing.

            \(exitStatusHelp)
            """
    )

    @OptionGroup var gallery: AlbumsGallery
    @OptionGroup var flags: BuildFlags

    func run() async throws {
        try await GalleryRun.execute(
            gallery.setup(folder: "", environment: ProcessInfo.processInfo.environment), flags: flags)
    }
}

/// `vitrine albums`'s options, also those of a `source = "albums"` table of `vitrine build`.
struct AlbumsGallery: GalleryOptions {
    static let sourceName = "albums"
    static let keyVariable: String? = nil

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

    func validate() throws {
        if let users, users < 1 { throw ValidationError("--users must be at least 1.") }
        if let albums, albums < 1 { throw ValidationError("--albums must be at least 1.") }
        guard (1...500).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 500.") }
    }

    var folderName: String { "albums" }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        let source = JSONPlaceholderSource(
            endpoint: endpoint, imageEndpoint: imageEndpoint, userLimit: users, albumLimit: albums)
        return GallerySetup(
            plan: .gallery(
                GalleryPlan(folder: folder, source: source, label: "JSONPlaceholder's albums", itemsPerPage: perPage)),
            secrets: [])
    }
}
