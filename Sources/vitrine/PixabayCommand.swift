import ArgumentParser
import Foundation
import VitrineCore

struct PixabayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pixabay",
        abstract: "A gallery pairing Pixabay's hits for TERM with its hits for “TERM graffiti”.",
        discussion: """
            Item i pairs the i-th hit for TERM with the i-th hit for "TERM VARIANT". Each item has a preview page \
            per variant; when the variant search has fewer hits, the item says so. API responses are cached for \
            24 hours, as Pixabay requires, and images are downloaded, as Pixabay's terms require.

            \(exitStatusHelp)
            """
    )

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

    @OptionGroup var flags: BuildFlags

    func validate() throws {
        guard !term.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("TERM must not be empty.")
        }
        guard (1...200).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 200.") }
        guard (1...500).contains(pages) else { throw ValidationError("--pages must be between 1 and 500.") }
    }

    func run() async throws {
        let key = key ?? ProcessInfo.processInfo.environment["PIXABAY_API_KEY"] ?? ""
        let source = PixabaySource(
            term: term, variantWord: noVariant ? nil : variant, itemCount: perPage * pages, key: key,
            endpoint: endpoint)
        try await GalleryRun.execute(
            source: source, label: "Pixabay for “\(term)”", flags: flags, itemsPerPage: perPage, secrets: [key])
    }
}
