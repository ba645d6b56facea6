import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineStore

/// Wikimedia Commons' file search through the MediaWiki Action API: every file with its author, license and
/// description page, as the wiki's metadata (`extmetadata`) gives them, shown by a rendition the wiki scales to
/// the width the pages need.
public struct CommonsSource: ImageSource {
    /// Wikimedia Commons' own API (`api.php` below it); another MediaWiki wiki or the sample API may stand in.
    public static let defaultEndpoint = "https://commons.wikimedia.org/w/"
    /// The files a search request asks for at most: MediaWiki's limit for a client that is not a bot.
    static let searchLimit = 50
    /// The most requests one gallery makes, continuations included.
    static let requestLimit = 100
    /// The width of the rendition a preview page shows, which the wiki scales every file to (one of the widths
    /// Wikimedia keeps thumbnails of).
    package static let fullWidth = 1280
    /// The width of a tile's rendition, taken from the same thumbnail path.
    package static let tileWidth = 500
    /// The metadata Vitrine reads, asked alone to keep answers small.
    static let metadataFields = "ObjectName|Artist|Credit|LicenseShortName|LicenseUrl|AttributionRequired|UsageTerms"

    package var term: String
    package var itemCount: Int
    package var endpoint: String
    /// How the wiki can reach whoever runs Vitrine (an email address or a URL), sent in the User-Agent, as
    /// Wikimedia's policy asks of every client.
    package var contact: String?
    /// The host whose images a history's archive may fetch again.
    public var endpoints: [String] { [endpoint] }
    /// Which licenses the gallery shows, checked on the license each file reports.
    package var licenses: LicenseChoice

    /// `itemCount` files for `term`, asked of the wiki at `endpoint` with `contact` in the User-Agent, under
    /// `licenses`.
    public init(
        term: String, itemCount: Int, endpoint: String = defaultEndpoint, contact: String? = nil,
        licenses: LicenseChoice = .any
    ) {
        self.term = term
        self.itemCount = itemCount
        self.endpoint = endpoint.hasSuffix("/") ? endpoint : endpoint + "/"
        self.contact = contact.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        self.licenses = licenses
    }

    /// The term, count, licenses and endpoint; the contact changes no answer and is left out.
    public var configuration: String {
        Self.configuration(
            "commons",
            ["endpoint": endpoint, "term": term, "items": String(itemCount), "licenses": licenses.configuration])
    }

    static let source = SourceDescription(
        name: "commons", label: "Wikimedia Commons", home: "https://commons.wikimedia.org/")

    /// Whether a contact is a single line of printable text, fit for a header.
    package static func isValidContact(_ contact: String) -> Bool {
        !contact.isEmpty && contact.utf8.count <= 200
            && contact.unicodeScalars.allSatisfy { (32..<127).contains($0.value) }
    }

    /// Whether `endpoint` is one of Wikimedia's own wikis, whose policy asks every client for a contact.
    package static func isWikimedia(_ endpoint: String) -> Bool {
        guard let host = URLComponents(string: endpoint)?.host?.lowercased() else { return false }
        return ["wikimedia.org", "wikipedia.org", "mediawiki.org", "wikidata.org"].contains {
            host == $0 || host.hasSuffix("." + $0)
        }
    }

    /// The User-Agent every request sends, to the API and to the upload host: Vitrine, its version and the contact.
    public var imageRequestHeaders: [String: String] { ["User-Agent": userAgent] }

    /// The User-Agent every request sends: Vitrine, its version and the contact.
    var userAgent: String {
        "Vitrine/\(VitrineVersion.current) (\(contact ?? "no contact given")) libcurl"
    }

    /// Searches the wiki's files batch after batch (following `continue`) until the gallery has its items or the
    /// results end, leaving out files Vitrine cannot show and files under other licenses than the chosen ones.
    public func collect(using api: any APIResponseLoading) async throws -> SourceResult {
        try RemoteURLPolicy.requireEndpoint(endpoint, of: "Wikimedia Commons")
        if let contact, !Self.isValidContact(contact) {
            throw SourceError.invalidOption(
                source: "Wikimedia Commons",
                detail: "The contact for Wikimedia Commons must be one line of printable ASCII of at most 200 "
                    + "characters, such as an email address or a URL.")
        }
        if contact == nil && Self.isWikimedia(endpoint) {
            throw SourceError.invalidOption(
                source: "Wikimedia Commons",
                detail: "Wikimedia asks every program that uses its API to say how to reach whoever runs it: give "
                    + "a contact (an email address or a URL) to send in the User-Agent.")
        }
        let wanted = max(itemCount, 0)
        var files: [String: DecodedFile] = [:]
        var order: [String] = []
        var warnings: [String] = []
        var skipped = 0
        var unshowable = 0
        var leftOut = 0
        var fetchedAt: Date?
        var next: [String: String]? = [:]
        var requests = 0
        while let continuation = next, order.count < wanted, requests < Self.requestLimit {
            try Task.checkCancellation()
            requests += 1
            let number = requests
            let request = request(continuing: continuation, limit: min(Self.searchLimit, wanted))
            let (batch, date) = try await api.load(request) { response in
                (try Self.decodeBatch(response, number: number), response.fetchedAt)
            }
            fetchedAt = min(fetchedAt ?? date, date)
            warnings += batch.warnings
            skipped += batch.warnings.count
            unshowable += batch.unshowable
            for file in batch.files where files[file.key] == nil {
                guard licenses.keeps(file.license) else {
                    leftOut += 1
                    continue
                }
                files[file.key] = file
                order.append(file.key)
            }
            next = batch.continuation
        }
        if unshowable > 0 {
            warnings.append(
                "Left out \(unshowable) Wikimedia Commons file\(unshowable == 1 ? "" : "s") that a page cannot show "
                    + "(documents, audio, video).")
        }
        if leftOut > 0 {
            warnings.append(
                "Left out \(leftOut) Wikimedia Commons file\(leftOut == 1 ? "" : "s") under other licenses than "
                    + "“\(licenses.description)”.")
        }
        return SourceResult(
            title: term, source: Self.source,
            variants: [SourceVariant(key: "original", label: "File", query: term)],
            items: order.prefix(wanted).compactMap { files[$0]?.item }, fetchedAt: fetchedAt, warnings: warnings,
            skipped: skipped)
    }

    /// The search request, continuing from an answer's `continue` members (none for the first).
    func request(continuing continuation: [String: String], limit: Int) -> FetchRequest {
        var components = URLComponents(string: endpoint + "api.php") ?? URLComponents()
        var query = [
            URLQueryItem(name: "action", value: "query"), URLQueryItem(name: "format", value: "json"),
            URLQueryItem(name: "formatversion", value: "2"), URLQueryItem(name: "generator", value: "search"),
            URLQueryItem(name: "gsrsearch", value: term), URLQueryItem(name: "gsrnamespace", value: "6"),
            URLQueryItem(name: "gsrlimit", value: String(max(1, limit))),
            URLQueryItem(name: "prop", value: "imageinfo"),
            URLQueryItem(name: "iiprop", value: "url|size|mime|extmetadata"),
            URLQueryItem(name: "iiurlwidth", value: String(Self.fullWidth)),
            URLQueryItem(name: "iiextmetadatafilter", value: Self.metadataFields),
        ]
        let own = Set(query.map(\.name))
        for (name, value) in continuation.sorted(by: { $0.key < $1.key }) where !own.contains(name) {
            query.append(URLQueryItem(name: name, value: value))
        }
        components.setStrictQuery(query)
        return FetchRequest(
            url: components.string ?? endpoint, headers: ["User-Agent": userAgent], maximumBodyBytes: 16 << 20)
    }
}
