import ArgumentParser
import Foundation
import VitrinePipeline
import VitrineSources

/// `vitrine openverse`'s options.
struct OpenverseGallery: GalleryOptions {
    static let sourceName = "openverse"
    static let keyVariable: String? = "OPENVERSE_TOKEN"
    static let configKeys: [String: ConfigKeyKind] = [
        "term": .argument, "per-page": .option, "pages": .option, "endpoint": .option, "license": .option,
        "mature": .flag,
    ]

    @Argument(help: "The search term.")
    var term: String

    @Option(name: .long, help: ArgumentHelp("Items per grid page.", valueName: "n"))
    var perPage = 20

    @Option(name: .long, help: ArgumentHelp("Number of grid pages.", valueName: "n"))
    var pages = 1

    @Option(name: .long, help: ArgumentHelp("The base URL of Openverse's API (v1/ below it).", valueName: "url"))
    var endpoint = OpenverseSource.defaultEndpoint

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Which works to show by license: any (the default), reusable, or a comma-separated list of licenses "
                + "(by, by-sa, by-nd, by-nc, by-nc-sa, by-nc-nd, cc0, pdm, or labels such as \"CC BY-SA 4.0\") and "
                + "license types (commercial: allows commercial use; modification: allows changes).",
            valueName: "any|reusable|list"))
    var license = LicenseChoice.any

    @Flag(name: .long, help: "Show the results Openverse marks as mature too.")
    var mature = false

    func validate() throws {
        guard (1...500).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 500.") }
        guard (1...500).contains(pages) else { throw ValidationError("--pages must be between 1 and 500.") }
        guard !term.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("The search term is empty: give the words to search Openverse for.")
        }
    }

    var folderName: String { term }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        let token = environment["OPENVERSE_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let source = OpenverseSource(
            term: term, itemCount: perPage * pages, token: token, endpoint: endpoint, licenses: license,
            includeMature: mature)
        return GallerySetup(
            plan: .gallery(
                GalleryPlan(folder: folder, source: source, label: "Openverse for “\(term)”", itemsPerPage: perPage)),
            secrets: [token ?? ""])
    }
}
