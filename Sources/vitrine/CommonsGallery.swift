import ArgumentParser
import Foundation
import VitrinePipeline
import VitrineSources

/// `vitrine commons`'s options.
struct CommonsGallery: GalleryOptions {
    static let sourceName = "commons"
    static let keyVariable: String? = nil
    static let configKeys: [String: ConfigKeyKind] = [
        "term": .argument, "per-page": .option, "pages": .option, "endpoint": .option, "license": .option,
        "contact": .option,
    ]

    @Argument(help: "The search term.")
    var term: String

    @Option(name: .long, help: ArgumentHelp("Items per grid page.", valueName: "n"))
    var perPage = 20

    @Option(name: .long, help: ArgumentHelp("Number of grid pages.", valueName: "n"))
    var pages = 1

    @Option(name: .long, help: ArgumentHelp("The base URL of the wiki (api.php below it).", valueName: "url"))
    var endpoint = CommonsSource.defaultEndpoint

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How Wikimedia can reach you, sent in the User-Agent as its policy asks: an email address or a URL "
                + "(default: $VITRINE_CONTACT).", valueName: "contact"))
    var contact: String?

    @Option(name: .long, help: LicenseOption.help)
    var license = LicenseChoice.any

    func validate() throws {
        guard (1...500).contains(perPage) else { throw ValidationError("--per-page must be between 1 and 500.") }
        guard (1...500).contains(pages) else { throw ValidationError("--pages must be between 1 and 500.") }
        guard !term.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("The search term is empty: give the words to search Wikimedia Commons for.")
        }
        if let given = contact(in: ProcessInfo.processInfo.environment), !CommonsSource.isValidContact(given) {
            throw ValidationError(
                "--contact must be one line of printable ASCII of at most 200 characters, such as an email address "
                    + "or a URL.")
        }
    }

    /// Refuses, naming the option, to ask one of Wikimedia's wikis without a contact. A site config's gallery, whose
    /// keys are read one at a time, is refused by the source itself once all are read.
    func requireContact(environment: [String: String]) throws {
        if contact(in: environment) == nil && CommonsSource.isWikimedia(endpoint) {
            throw ValidationError(
                "Wikimedia asks every program that uses its API to say how to reach whoever runs it: pass --contact "
                    + "with an email address or a URL, or set VITRINE_CONTACT.")
        }
    }

    /// The contact given, by `--contact` or else `VITRINE_CONTACT`; nil when none or an empty one.
    func contact(in environment: [String: String]) -> String? {
        (contact ?? environment["VITRINE_CONTACT"]).flatMap { $0.isEmpty ? nil : $0 }
    }

    var folderName: String { term }

    func setup(folder: String, environment: [String: String]) -> GallerySetup {
        let source = CommonsSource(
            term: term, itemCount: perPage * pages, endpoint: endpoint,
            contact: contact(in: environment),
            licenses: license)
        return GallerySetup(
            plan: .gallery(
                GalleryPlan(
                    folder: folder, source: source, label: "Wikimedia Commons for “\(term)”", itemsPerPage: perPage)),
            secrets: [])
    }
}
