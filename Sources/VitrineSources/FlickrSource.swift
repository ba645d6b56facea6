import Foundation
import VitrineHTTP
import VitrineStore

/// Flickr: with an API key, `flickr.photos.search` for a term or `flickr.photos.getRecent` without one; without a
/// key, the public feed of the latest 20 photos tagged with the term's words.
public struct FlickrSource: ImageSource {
    /// Flickr's own API; a mirror or the sample API may stand in.
    public static let defaultEndpoint = "https://www.flickr.com/services/"
    /// Flickr's search returns at most this many results.
    static let searchCap = 4_000
    static let maximumPerPage = 500
    static let extras = "license,owner_name,tags,description,date_upload,url_q,url_n,url_z,url_c,url_l"
    /// Flickr's API terms: "You shall not display more than 30 Flickr user photos per page".
    public static let maximumPhotosPerPage = 30

    package var term: String?
    package var itemCount: Int
    /// Nil reads the public feed.
    package var key: String?
    package var endpoint: String
    /// The host whose images a history's archive may fetch again.
    public var endpoints: [String] { [endpoint] }
    /// Which licenses the gallery shows; the search asks Flickr for those alone.
    package var licenses: LicenseChoice
    /// The license the site declares for every photo of the public feed (`--declared-license`), which names none;
    /// nil for the feed's unknown license. The REST API's own licenses are never overridden.
    package var feedLicense: License?

    /// `itemCount` photos for `term` (nil: the most recent), searched with `key` or read from the public feed without
    /// one; `licenses` narrows the search to those licenses; `feedLicense` is the license the site declares for
    /// the feed's photos.
    public init(
        term: String?, itemCount: Int, key: String?, endpoint: String = defaultEndpoint, licenses: LicenseChoice = .any,
        feedLicense: License? = nil
    ) {
        self.term = term?.trimmingCharacters(in: .whitespaces).isEmpty == true ? nil : term
        self.itemCount = itemCount
        self.key = key?.isEmpty == true ? nil : key
        self.endpoint = endpoint.hasSuffix("/") ? endpoint : endpoint + "/"
        self.licenses = licenses
        self.feedLicense = feedLicense
    }

    /// The mode, term, count, licenses, endpoint, a digest of the key (never the key itself) and the declared
    /// license of the feed.
    public var configuration: String {
        Self.configuration(
            "flickr",
            [
                "endpoint": endpoint, "mode": key == nil ? "feed" : "rest", "term": term, "items": String(itemCount),
                "key": key.map(Self.keyDigest), "licenses": licenses.configuration,
            ]) + (key == nil ? feedLicense.map { " " + $0.configuration } ?? "" : "")
    }

    static let source = SourceDescription(
        name: "flickr", label: "Flickr", home: "https://www.flickr.com/", photosPerPageLimit: maximumPhotosPerPage)

    /// Searches (or reads the feed) within Flickr's caps, for photos under the chosen licenses.
    public func collect(using api: any APIResponseLoading) async throws -> SourceResult {
        try RemoteURLPolicy.requireEndpoint(endpoint, of: "Flickr")
        if key == nil { return try await collectFeed(using: api) }
        return try await collectREST(using: api)
    }

    var title: String { term ?? "Recent photos on Flickr" }

    static func variants(term: String?) -> [SourceVariant] {
        [SourceVariant(key: "original", label: "Photo", query: term)]
    }

    // MARK: - REST API

    /// The request for page `page`, asking a search for the licenses of `licenseIDs` alone when there are any.
    func request(page: Int, perPage: Int, licenseIDs: [String] = []) -> FetchRequest {
        var components = URLComponents(string: endpoint + "rest/") ?? URLComponents()
        var items = [
            URLQueryItem(name: "method", value: term == nil ? "flickr.photos.getRecent" : "flickr.photos.search"),
            URLQueryItem(name: "api_key", value: key),
        ]
        if let term {
            items += [URLQueryItem(name: "text", value: term), URLQueryItem(name: "sort", value: "relevance")]
            if !licenseIDs.isEmpty {
                items.append(URLQueryItem(name: "license", value: licenseIDs.joined(separator: ",")))
            }
        }
        items += [
            URLQueryItem(name: "extras", value: Self.extras), URLQueryItem(name: "safe_search", value: "1"),
            URLQueryItem(name: "per_page", value: String(perPage)), URLQueryItem(name: "page", value: String(page)),
            URLQueryItem(name: "format", value: "json"), URLQueryItem(name: "nojsoncallback", value: "1"),
        ]
        components.setStrictQuery(items)
        return FetchRequest(
            url: components.string ?? endpoint, secretQueryNames: ["api_key"], maximumBodyBytes: 16 << 20,
            quota: Self.quota)
    }

    /// Flickr's terms: "stay under 3,600 queries per hour per key". Every REST request counts, retries too.
    package static let quota = RequestQuota(service: "Flickr", limit: 3600, window: .seconds(3600))

    private func collectREST(using api: any APIResponseLoading) async throws -> SourceResult {
        let (table, tableFetchedAt) = try await api.load(licensesRequest()) { response in
            (try Self.decodeLicenses(response), response.fetchedAt)
        }
        let licenseIDs = try Self.licenseIDs(for: licenses, in: table)
        let wanted = min(max(itemCount, 0), term == nil ? Int.max : Self.searchCap)
        let pages = max(1, (wanted + Self.maximumPerPage - 1) / Self.maximumPerPage)
        let perPage = max(1, min(Self.maximumPerPage, (wanted + pages - 1) / pages))
        var photos: [SourceItem] = []
        var warnings: [String] = []
        var skipped = 0
        var leftOut = 0
        var fetchedAt: Date? = tableFetchedAt
        var page = 1
        while photos.count < wanted && page <= pages {
            let pageRequest = request(page: page, perPage: perPage, licenseIDs: licenseIDs)
            let (decoded, date) = try await api.load(pageRequest) { response in
                (try Self.decodeREST(response, page: page, licenses: table), response.fetchedAt)
            }
            let kept = decoded.items.filter { item in
                item.entries.allSatisfy { entry in
                    guard case .found(_, _, _, _, let license, _, _, _) = entry else { return true }
                    return licenses.keeps(license)
                }
            }
            leftOut += decoded.items.count - kept.count
            photos += kept
            warnings += decoded.warnings
            skipped += decoded.warnings.count
            fetchedAt = min(fetchedAt ?? date, date)
            if decoded.items.count + decoded.warnings.count < perPage || page >= decoded.pages { break }
            page += 1
        }
        if leftOut > 0 {
            warnings.append(
                "Left out \(leftOut) Flickr photo\(leftOut == 1 ? "" : "s") under other licenses than "
                    + "“\(licenses.description)”.")
        }
        if term != nil && itemCount > Self.searchCap {
            warnings.append("Flickr's search returns at most \(Self.searchCap) photos; the gallery stops there.")
        }
        return SourceResult(
            title: title, source: Self.source, variants: Self.variants(term: term),
            items: Array(photos.prefix(wanted)), fetchedAt: fetchedAt, warnings: warnings, skipped: skipped)
    }

    struct DecodedPage {
        var items: [SourceItem]
        var warnings: [String]
        var pages: Int
    }

    // MARK: - Licenses

    /// `flickr.photos.licenses.getInfo`: Flickr's table of licenses, asked once and cached like any answer.
    func licensesRequest() -> FetchRequest {
        var components = URLComponents(string: endpoint + "rest/") ?? URLComponents()
        components.setStrictQuery([
            URLQueryItem(name: "method", value: "flickr.photos.licenses.getInfo"),
            URLQueryItem(name: "api_key", value: key), URLQueryItem(name: "format", value: "json"),
            URLQueryItem(name: "nojsoncallback", value: "1"),
        ])
        return FetchRequest(
            url: components.string ?? endpoint, secretQueryNames: ["api_key"], maximumBodyBytes: 1 << 20,
            quota: Self.quota)
    }

    /// The answer of `flickr.photos.licenses.getInfo`.
    struct LicensesAnswer: Decodable {
        var stat, message: LooseString?
        var code: LooseInt?
        var licenses: Tolerant<LicenseList>?

        struct LicenseList: Decodable {
            var license: [Tolerant<LicenseFields>]
        }

        struct LicenseFields: Decodable {
            var id, name, url: LooseString?
        }
    }

    /// Flickr's licenses by id, as getInfo names them (`License.flickr`); an entry without an id is passed over.
    static func decodeLicenses(_ response: APIResponse) throws -> [String: License] {
        let answer = try decodeAnswer(LicensesAnswer.self, from: response, document: "the table of licenses") {
            ($0.stat, $0.code, $0.message)
        }
        guard let list = answer.licenses?.value?.license else {
            throw SourceError.badData(source: "Flickr", detail: "the table of licenses has no “licenses.license” list")
        }
        var table: [String: License] = [:]
        for entry in list.prefix(1_000) {
            guard let fields = entry.value, let id = fields.id?.value?.trimmingCharacters(in: .whitespaces),
                !id.isEmpty, id.count <= 16, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else { continue }
            table[id] = .flickr(id: id, name: fields.name?.value ?? "", url: fields.url?.value ?? "")
        }
        return table
    }

    /// The license ids a search asks for: none for every license, else those the choice keeps, in Flickr's order.
    static func licenseIDs(for choice: LicenseChoice, in table: [String: License]) throws(LicenseChoiceError)
        -> [String]
    {
        let ordered = table.values.sorted {
            (Int($0.id ?? "") ?? .max, $0.id ?? "") < (Int($1.id ?? "") ?? .max, $1.id ?? "")
        }
        switch choice {
        case .any:
            return []
        case .reusable:
            let ids = ordered.filter(\.allowsCopies).compactMap(\.id)
            if ids.isEmpty { throw .noneAllowsCopies(source: "Flickr", known: ordered) }
            return ids
        case .named(let names):
            let unknown = names.filter { name in !ordered.contains { LicenseChoice.names($0, name) } }
            if !unknown.isEmpty { throw .unknownNames(unknown, choice: choice, source: "Flickr", known: ordered) }
            return ordered.filter(choice.keeps).compactMap(\.id)
        }
    }

    /// The license of a photo's `license` extra: the table's, or unknown (keeping the id) when the table lacks it.
    static func license(_ id: String?, in table: [String: License]) -> License {
        guard let id = id?.trimmingCharacters(in: .whitespaces), !id.isEmpty else { return .unknown }
        if let known = table[id] { return known }
        var unknown = License.unknown
        unknown.id = String(id.prefix(16))
        return unknown
    }

    // MARK: - Answers

    /// A REST answer of `type`, once the HTTP status and the answer's `stat` (read by `status`) say it is no
    /// failure; `document` names it in the error of an answer that cannot be read.
    static func decodeAnswer<Answer: Decodable>(
        _ type: Answer.Type, from response: APIResponse, document: String,
        status: (Answer) -> (stat: LooseString?, code: LooseInt?, message: LooseString?)
    ) throws -> Answer {
        try requireSuccess(response)
        let answer: Answer
        do {
            answer = try APIAnswer.decode(type, from: response.body)
        } catch {
            throw SourceError.unreadable(error, source: "Flickr", document: document)
        }
        let (stat, code, message) = status(answer)
        try requireOK(stat: stat, code: code, message: message)
        return answer
    }

    /// Throws the error of an HTTP failure.
    static func requireSuccess(_ response: APIResponse) throws {
        guard (200..<300).contains(response.status) else {
            throw SourceError.httpFailure(status: response.status, source: "Flickr", message: response.bodyText)
        }
    }

    /// Throws the error of a REST answer with `stat` "fail".
    static func requireOK(stat: LooseString?, code: LooseInt?, message: LooseString?) throws {
        guard stat?.value == "fail" else { return }
        let code = code?.value ?? 0
        let message = message?.value.map { String($0.prefix(300)) } ?? "no message"
        switch code {
        case 100: throw SourceError.keyRejected(source: "Flickr", message: message)
        case 105: throw SourceError.unavailable(source: "Flickr", status: 200, message: message)
        default:
            throw SourceError.rejected(source: "Flickr", status: 200, message: "error \(code): \(message)", hint: nil)
        }
    }

    static func decodeREST(_ response: APIResponse, page: Int, licenses: [String: License] = [:]) throws
        -> DecodedPage
    {
        let answer = try decodeAnswer(RESTAnswer.self, from: response, document: "the answer for page \(page)") {
            ($0.stat, $0.code, $0.message)
        }
        guard answer.stat?.value == "ok", let photos = answer.photos?.value else {
            throw SourceError.badData(
                source: "Flickr", detail: "the answer for page \(page) has no “photos.photo” list")
        }
        var items: [SourceItem] = []
        var warnings: [String] = []
        for (index, photo) in photos.photo.enumerated() {
            switch decodePhoto(photo.value, licenses: licenses) {
            case .success(let item): items.append(item)
            case .failure(let reason):
                warnings.append("Skipped Flickr photo \(index + 1) of page \(page): \(reason).")
            }
        }
        return DecodedPage(items: items, warnings: warnings, pages: photos.pages?.value ?? page)
    }

    /// An answer of the REST API: a failure (`stat` "fail", `code`, `message`) or a page of photos.
    struct RESTAnswer: Decodable {
        var stat, message: LooseString?
        var code: LooseInt?
        /// Read only when `stat` is "ok": a failure's answer has no photos, and may have anything there.
        var photos: Tolerant<PhotoPage>?
    }

    /// One page of photos.
    struct PhotoPage: Decodable {
        var photo: [Tolerant<PhotoFields>]
        var pages: LooseInt?
    }

    /// One photo with the extras Vitrine asks for, every field read loosely.
    struct PhotoFields: Decodable {
        var id, owner, ownername, title, server, secret, license, tags: LooseString?
        var urlZ, urlN, urlC, urlL: LooseString?
        var widthZ, widthN, widthC, widthL, heightZ, heightN, heightC, heightL: LooseInt?

        enum CodingKeys: String, CodingKey {
            case id, owner, ownername, title, server, secret, license, tags
            case urlZ = "url_z", urlN = "url_n", urlC = "url_c", urlL = "url_l"
            case widthZ = "width_z", widthN = "width_n", widthC = "width_c", widthL = "width_l"
            case heightZ = "height_z", heightN = "height_n", heightC = "height_c", heightL = "height_l"
        }

        /// The rendition with `suffix` (`z`, `n`, `c`, `l`) as the extras give it.
        func sized(_ suffix: Character) -> RemoteImage? {
            let (url, width, height) =
                switch suffix {
                case "z": (urlZ, widthZ, heightZ)
                case "n": (urlN, widthN, heightN)
                case "c": (urlC, widthC, heightC)
                default: (urlL, widthL, heightL)
                }
            guard let link = RemoteURLPolicy.accepted(url?.value) else { return nil }
            return RemoteImage(url: link, width: width?.dimension, height: height?.dimension)
        }
    }

    /// A photo Vitrine can show, from its fields (nil: the photo is not a JSON object).
    static func decodePhoto(_ photo: PhotoFields?, licenses: [String: License] = [:]) -> Result<
        SourceItem, PixabaySource.SkipReason
    > {
        guard let photo, let id = photo.id?.value, id.allSatisfy(\.isNumber), !id.isEmpty, id.count <= 32 else {
            return .failure(.init(description: "field “id” is missing or not a number"))
        }
        let built = { (suffix: String) -> RemoteImage? in
            guard let server = photo.server?.value, let secret = photo.secret?.value,
                server.allSatisfy(\.isNumber), secret.allSatisfy(\.isHexDigit), !server.isEmpty, !secret.isEmpty
            else { return nil }
            return RemoteURLPolicy.accepted("https://live.staticflickr.com/\(server)/\(id)_\(secret)_\(suffix).jpg")
                .map { RemoteImage(url: $0) }
        }
        guard let tile = photo.sized("z") ?? photo.sized("n") ?? photo.sized("c") ?? built("z"),
            let full = photo.sized("l") ?? photo.sized("c") ?? photo.sized("z") ?? built("b")
        else { return .failure(.init(description: "it has no http(s) image URL and no server/secret to build one")) }
        // The other sizes the extras give (320 and 800 px): only those with a size, a URL of their own and a width
        // that neither the tile nor the full image has, since a srcset takes one file per width.
        var widths = Set([tile.width, full.width].compactMap { $0 })
        let alternates = ["n", "c"].compactMap { photo.sized($0) }.filter { image in
            guard let width = image.width, width > 0, (image.height ?? 0) > 0,
                ![tile.url, full.url].contains(image.url)
            else { return false }
            return widths.insert(width).inserted
        }
        let owner = photo.owner?.value.flatMap {
            $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "@" || $0 == "_" || $0 == "-" } ? $0 : nil
        }
        let page = owner.map { "https://www.flickr.com/photos/\($0)/\(id)" }
        // An owner name of "" or spaces names nobody: the same fallback as for none.
        let ownerName = photo.ownername?.value?.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = ownerName.flatMap { $0.isEmpty ? nil : $0 } ?? owner ?? "a Flickr member"
        let caption = photo.title?.value ?? ""
        let credit = Credit(name: name, url: page, authorURL: owner.map { "https://www.flickr.com/photos/\($0)/" })
        return .success(
            SourceItem(
                sourceID: id,
                entries: [
                    .found(
                        caption: caption, credit: credit, tile: tile, full: full,
                        license: license(photo.license?.value, in: licenses), alternates: alternates,
                        tags: PictureTags.flickr(photo.tags?.value))
                ]))
    }

    // MARK: - Public feed
}
