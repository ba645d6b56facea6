import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineStore

/// Openverse's image search: openly licensed works from Flickr, Wikimedia Commons, museums and others, each with its
/// license, creator and the page it came from. Anonymous by default; a token (an OAuth2 client-credentials access
/// token) raises the page size and depth the API allows.
public struct OpenverseSource: ImageSource {
    /// Openverse's own API; a mirror or the sample API may stand in.
    public static let defaultEndpoint = "https://api.openverse.org/"
    /// Without a token, the API refuses a larger page (401).
    package static let anonymousPageSize = 20
    /// Without a token, the API answers no page beyond this one.
    package static let anonymousPageDepth = 20
    /// The largest page the API gives with a token.
    static let authenticatedPageSize = 500
    /// The most results a gallery asks for with a token (the API's results are ranked; deeper pages are noise).
    static let authenticatedResultCap = 10_000

    package var term: String
    package var itemCount: Int
    /// The access token, sent as `Authorization: Bearer`; nil for anonymous use.
    package var token: String?
    package var endpoint: String
    /// The host whose images a history's archive may fetch again.
    public var endpoints: [String] { [endpoint] }
    /// Which licenses the gallery shows; the search asks Openverse for those alone.
    package var licenses: LicenseChoice
    /// Whether results Openverse marks `mature` are shown; they are left out unless asked for.
    package var includeMature: Bool

    /// `itemCount` works for `term`, asked anonymously or with `token`, under `licenses`; `includeMature` keeps the
    /// results Openverse marks as mature.
    public init(
        term: String, itemCount: Int, token: String? = nil, endpoint: String = defaultEndpoint,
        licenses: LicenseChoice = .any, includeMature: Bool = false
    ) {
        self.term = term
        self.itemCount = itemCount
        self.token = token?.isEmpty == true ? nil : token
        self.endpoint = endpoint.hasSuffix("/") ? endpoint : endpoint + "/"
        self.licenses = licenses
        self.includeMature = includeMature
    }

    /// The term, count, licenses, endpoint, whether mature results are kept and a digest of the token (never the
    /// token itself).
    public var configuration: String {
        Self.configuration(
            "openverse",
            [
                "endpoint": endpoint, "term": term, "items": String(itemCount), "licenses": licenses.configuration,
                "mature": includeMature ? "yes" : "no", "token": token.map(Self.keyDigest),
            ])
    }

    static let source = SourceDescription(name: "openverse", label: "Openverse", home: "https://openverse.org/")

    /// How many results a request asks for and how many requests: the fewest within the API's page size and depth.
    struct Plan: Equatable {
        var pageSize: Int
        var pages: Int
        /// The results the gallery can have, after the API's depth limit.
        var reachable: Int
    }

    /// The plan for `itemCount` results, anonymously (`authenticated` false) or with a token.
    static func plan(itemCount: Int, authenticated: Bool) -> Plan {
        let largest = authenticated ? authenticatedPageSize : anonymousPageSize
        let cap = authenticated ? authenticatedResultCap : anonymousPageSize * anonymousPageDepth
        let wanted = min(max(itemCount, 1), cap)
        let pages = (wanted + largest - 1) / largest
        let pageSize = (wanted + pages - 1) / pages
        return Plan(pageSize: pageSize, pages: pages, reachable: min(itemCount, cap))
    }

    /// Searches page after page until the gallery has its items or the results end, leaving out mature works and
    /// works under other licenses than the chosen ones.
    public func collect(using api: any APIResponseLoading) async throws -> SourceResult {
        try RemoteURLPolicy.requireEndpoint(endpoint, of: "Openverse")
        let filter = try OpenverseLicenseFilter(licenses)
        let plan = Self.plan(itemCount: itemCount, authenticated: token != nil)
        var items: [SourceItem] = []
        var warnings: [String] = []
        var skipped = 0
        var mature = 0
        var leftOut = 0
        var fetchedAt: Date?
        var seen = Set<String>()
        // Results left out (mature, other licenses, repeats) are made up from the pages after the plan's: at most
        // as many again, and never past the API's depth.
        let depth = min(token == nil ? Self.anonymousPageDepth : Int.max, plan.pages * 2)
        for page in 1...depth where items.count < plan.reachable {
            try Task.checkCancellation()
            let decoded: DecodedPage
            let date: Date
            do {
                (decoded, date) = try await api.load(request(page: page, pageSize: plan.pageSize, filter: filter)) {
                    response in (try Self.decodePage(response, page: page), response.fetchedAt)
                }
            } catch SourceError.rejected(_, 400, let message, _) where page > 1 {
                // Past the depth the API allows now (it has answered fewer pages than it counts): the end.
                warnings.append(
                    "Openverse answered no page after page \(page - 1) (\(message)); the gallery stops there.")
                break
            }
            fetchedAt = min(fetchedAt ?? date, date)
            warnings += decoded.warnings
            skipped += decoded.skipped
            for result in decoded.results where items.count < plan.reachable {
                if result.mature && !includeMature {
                    mature += 1
                } else if !filter.keeps(result.license) {
                    leftOut += 1
                } else if seen.insert(result.item.sourceID).inserted {
                    items.append(result.item)
                }
            }
            if decoded.received < plan.pageSize || page >= decoded.pageCount
                || page * plan.pageSize >= decoded.resultCount
            {
                break
            }
        }
        if mature > 0 {
            warnings.append(
                "Left out \(mature) Openverse result\(mature == 1 ? "" : "s") marked as mature.")
        }
        if leftOut > 0 {
            warnings.append(
                "Left out \(leftOut) Openverse result\(leftOut == 1 ? "" : "s") under other licenses than "
                    + "“\(licenses.description)”.")
        }
        if itemCount > plan.reachable {
            warnings.append(
                token == nil
                    ? "Openverse gives anonymous use at most \(plan.reachable) results (\(Self.anonymousPageDepth) "
                        + "pages of \(Self.anonymousPageSize)); the gallery stops there. A token (OPENVERSE_TOKEN) "
                        + "raises the limit."
                    : "Vitrine asks Openverse for at most \(plan.reachable) results; the gallery stops there.")
        }
        return SourceResult(
            title: term, source: Self.source,
            variants: [SourceVariant(key: "original", label: "Work", query: term)],
            items: Array(items.prefix(plan.reachable)), fetchedAt: fetchedAt, warnings: warnings, skipped: skipped)
    }

    /// The request for `page` of `pageSize` results, with the license filter the API applies itself.
    func request(page: Int, pageSize: Int, filter: OpenverseLicenseFilter = .init()) -> FetchRequest {
        var components = URLComponents(string: endpoint + "v1/images/") ?? URLComponents()
        var query = [
            URLQueryItem(name: "q", value: term), URLQueryItem(name: "page", value: String(page)),
            URLQueryItem(name: "page_size", value: String(pageSize)),
        ]
        if !filter.codes.isEmpty {
            query.append(URLQueryItem(name: "license", value: filter.codes.joined(separator: ",")))
        }
        if !filter.types.isEmpty {
            query.append(URLQueryItem(name: "license_type", value: filter.types.joined(separator: ",")))
        }
        if includeMature { query.append(URLQueryItem(name: "mature", value: "true")) }
        components.setStrictQuery(query)
        return FetchRequest(
            url: components.string ?? endpoint, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:],
            maximumBodyBytes: 16 << 20)
    }

    // MARK: - Answers

    /// One page of results as Openverse sends it, every field read loosely.
    struct PageAnswer: Decodable {
        var results: [Tolerant<ResultFields>]
        var resultCount, pageCount: LooseInt?

        enum CodingKeys: String, CodingKey {
            case results
            case resultCount = "result_count"
            case pageCount = "page_count"
        }
    }

    /// One result: a work with its image, license and credits.
    struct ResultFields: Decodable {
        var id, title, foreignLandingURL, url, creator, creatorURL, license, licenseVersion, licenseURL: LooseString?
        var thumbnail: LooseString?
        var width, height: LooseInt?
        var mature: LooseBool?
        var tags: Tolerant<[Tolerant<TagFields>]>?

        enum CodingKeys: String, CodingKey {
            case id, title, url, creator, license, thumbnail, width, height, mature, tags
            case foreignLandingURL = "foreign_landing_url"
            case creatorURL = "creator_url"
            case licenseVersion = "license_version"
            case licenseURL = "license_url"
        }
    }

    /// A tag of a result; Openverse also sends its `accuracy`, which Vitrine does not read.
    struct TagFields: Decodable {
        var name: LooseString?
    }

    /// A result Vitrine can show, with its license and whether Openverse marks it mature.
    struct DecodedResult {
        var item: SourceItem
        var license: License
        var mature: Bool
    }

    /// A page's results and what was wrong with the ones left out.
    struct DecodedPage {
        var results: [DecodedResult]
        /// How many results the page held, usable or not.
        var received: Int
        var pageCount: Int
        /// How many results the search has in all, as far as the API goes.
        var resultCount: Int
        var warnings: [String]
        var skipped: Int
    }

    /// Decodes one page, once its HTTP status says it is no failure; a result without a usable image is skipped
    /// with a warning.
    static func decodePage(_ response: APIResponse, page: Int) throws -> DecodedPage {
        try requireSuccess(response)
        let answer: PageAnswer
        do {
            answer = try APIAnswer.decode(PageAnswer.self, from: response.body)
        } catch {
            throw SourceError.unreadable(error, source: "Openverse", document: "the answer for page \(page)")
        }
        var decoded = DecodedPage(
            results: [], received: answer.results.count, pageCount: max(answer.pageCount?.value ?? page, page),
            resultCount: max(answer.resultCount?.value ?? Int.max, 0), warnings: [], skipped: 0)
        for (index, result) in answer.results.enumerated() {
            switch decodeResult(result.value) {
            case .success(let value): decoded.results.append(value)
            case .failure(let reason):
                decoded.skipped += 1
                decoded.warnings.append("Skipped Openverse result \(index + 1) of page \(page): \(reason).")
            }
        }
        return decoded
    }

    /// Throws the error of an HTTP failure, with the API's own `detail` when it gives one.
    static func requireSuccess(_ response: APIResponse) throws {
        let status = response.status
        guard !(200..<300).contains(status) else { return }
        let detail = Self.detail(of: response)
        var hint: String?
        if status == 401 && token(isNamedIn: detail) {
            hint = "check the access token in OPENVERSE_TOKEN, or leave it unset for anonymous use"
        } else if status == 401 && detail.lowercased().contains("page size") {
            hint = "without a token, ask for at most \(anonymousPageSize) results a page"
        }
        throw SourceError.httpFailure(status: status, source: "Openverse", message: detail, hint: hint)
    }

    /// Whether an error's detail is about the token rather than the request.
    private static func token(isNamedIn detail: String) -> Bool {
        let folded = detail.lowercased()
        return folded.contains("token") || folded.contains("credentials")
    }

    /// The `detail` of an error answer (`{"detail": "..."}`), else its text.
    static func detail(of response: APIResponse) -> String {
        struct ErrorAnswer: Decodable { var detail: LooseString? }
        let detail = (try? APIAnswer.decode(ErrorAnswer.self, from: response.body))?.detail?.value
        return detail ?? response.bodyText
    }

    /// A result Vitrine can show, from its fields: its id, and an http(s) image.
    static func decodeResult(_ result: ResultFields?) -> Result<DecodedResult, PixabaySource.SkipReason> {
        guard let result else { return .failure(.init(description: "it is not a JSON object")) }
        guard let id = result.id?.value, !id.isEmpty, id.utf8.count <= 64,
            id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return .failure(.init(description: "field “id” is missing or not an identifier")) }
        guard let url = RemoteURLPolicy.accepted(result.url?.value) else {
            return .failure(.init(description: "field “url” is missing or not an http(s) URL"))
        }
        let full = RemoteImage(url: url, width: result.width?.dimension, height: result.height?.dimension)
        let license = Self.license(
            code: result.license?.value, version: result.licenseVersion?.value, url: result.licenseURL?.value)
        // Openverse's thumbnail comes without a size, which a downloaded file gives; a picture shown from its own
        // URL keeps the image the answer sizes, so that its tile has a size before it loads.
        let thumbnail = RemoteURLPolicy.accepted(result.thumbnail?.value).map { RemoteImage(url: $0) }
        let tile = license.allowsCopies ? thumbnail ?? full : full
        let landing = RemoteURLPolicy.accepted(result.foreignLandingURL?.value)
        let creator = result.creator?.value?.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = creator.flatMap { $0.isEmpty ? nil : String($0.prefix(200)) } ?? "an unnamed creator"
        let credit = Credit(
            name: name, url: landing, authorURL: RemoteURLPolicy.accepted(result.creatorURL?.value))
        let tags = PictureTags.list(
            (result.tags?.value ?? []).prefix(PictureTags.maximumPerPicture * 4).compactMap { $0.value?.name?.value })
        let caption = result.title?.value ?? ""
        return .success(
            DecodedResult(
                item: SourceItem(
                    sourceID: id,
                    entries: [
                        .found(
                            caption: caption, credit: credit, tile: tile, full: full, license: license, tags: tags)
                    ]),
                license: license, mature: result.mature?.value ?? false))
    }

    /// The license of a result, from Openverse's lowercase code (`by-sa`, `cc0`, `pdm`) and version: labelled as
    /// Creative Commons does ("CC BY-SA 4.0", "CC0 1.0", "Public Domain Mark 1.0") and linked to the license's page
    /// on creativecommons.org. A code Vitrine does not know keeps its text and is of unknown terms, never copied.
    static func license(code: String?, version: String?, url: String?) -> License {
        let code = code?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        let version = version?.trimmingCharacters(in: .whitespaces) ?? ""
        let words = code.split(separator: "-").map(String.init) + (version.isEmpty ? [] : [version])
        let canonical = code.isEmpty ? nil : License.creativeCommonsURL(words)
        guard let canonical, let label = License.label(ofLicenseAt: canonical) else {
            var unknown = License.unknown
            let shown = code.isEmpty ? nil : String(code.prefix(40))
            unknown.id = shown
            if let shown {
                unknown.name = "License “\(shown)” (unknown to Vitrine)"
                unknown.label = "License unknown"
            }
            return unknown
        }
        // The API's own link when it is the same license's page (it may carry a language), else the canonical one.
        let link = url.flatMap { License.label(ofLicenseAt: $0) == label ? $0 : nil } ?? canonical
        return License(id: code, name: label, label: label, url: link, copies: .allowed)
    }
}

/// What of a license choice Openverse's search applies itself: license codes (`license=by,by-sa`) and license
/// types (`license_type=commercial,modification`), from the names of `--license`; and the check of each result
/// against the whole choice, versions included, since Vitrine does not take an API's filtering on trust.
struct OpenverseLicenseFilter: Equatable {
    /// The Creative Commons licenses Openverse knows, by its lowercase code.
    static let creativeCommonsCodes: Set<String> = ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd"]
    /// Every code Openverse gives, Creative Commons licenses and public-domain tools.
    static let codes = ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd", "cc0", "pdm"]
    /// The license types Openverse filters by.
    static let types = ["commercial", "modification"]

    /// A license a name of the choice stands for: its code, and its version when the name gives one.
    struct Named: Equatable {
        var code: String
        var version: String?
    }

    /// Whether the choice keeps only licenses that allow copies (`reusable`).
    var reusableOnly = false
    var named: [Named] = []
    var types: [String] = []

    /// The codes the request asks for, each once, in the order of the names.
    var codes: [String] {
        var seen = Set<String>()
        return named.map(\.code).filter { seen.insert($0).inserted }
    }

    init() {}

    /// The filter of `choice`: `any` keeps every result, `reusable` those whose license allows copies (all that
    /// Openverse knows), and a list the codes, labels and types it names; a name that is none of them fails with
    /// the codes Openverse knows.
    init(_ choice: LicenseChoice) throws(LicenseChoiceError) {
        switch choice {
        case .any: return
        case .reusable: reusableOnly = true
        case .named(let names):
            var unknown: [String] = []
            for name in names {
                let folded = name.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" })
                    .joined(separator: "-")
                let bare = folded.hasPrefix("cc-") ? String(folded.dropFirst(3)) : folded
                if Self.types.contains(bare) {
                    if !types.contains(bare) { types.append(bare) }
                } else if let license = Self.license(named: bare) {
                    named.append(license)
                } else {
                    unknown.append(name)
                }
            }
            guard unknown.isEmpty else {
                throw .unknownNames(
                    unknown, choice: choice, source: "Openverse",
                    known: Self.codes.map {
                        OpenverseSource.license(
                            code: $0, version: ["cc0", "pdm"].contains($0) ? "1.0" : "4.0", url: nil)
                    })
            }
        }
    }

    /// The license a folded name stands for: a code (`by-sa`, `cc0`), or a label with or without its version
    /// (`by-sa-4.0`, `public-domain-mark-1.0`).
    private static func license(named folded: String) -> Named? {
        var parts = folded.split(separator: "-").map(String.init)
        var version: String?
        if let last = parts.last, last.first?.isNumber == true {
            version = last
            parts.removeLast()
        }
        let code: String
        switch parts.joined(separator: "-") {
        case "public-domain-mark", "pdm": code = "pdm"
        case "cc0", "zero": code = "cc0"
        case let joined where creativeCommonsCodes.contains(joined): code = joined
        default: return nil
        }
        return Named(code: code, version: version)
    }

    /// Whether the choice keeps a result under `license`.
    func keeps(_ license: License) -> Bool {
        if reusableOnly || !named.isEmpty || !types.isEmpty, !license.allowsCopies { return false }
        let code = license.id ?? ""
        if types.contains("commercial") && code.split(separator: "-").contains("nc") { return false }
        if types.contains("modification") && code.split(separator: "-").contains("nd") { return false }
        guard !named.isEmpty else { return true }
        return named.contains { $0.code == code && ($0.version.map { license.label.hasSuffix(" " + $0) } ?? true) }
    }
}
