import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineStore

/// Pixabay's image search, pairing every hit for a term with the same-numbered hit for the term plus a variant
/// word ("Hamburg" and "Hamburg graffiti").
public struct PixabaySource: ImageSource {
    /// The license of every picture of the source. Every Pixabay image is under the Pixabay Content License.
    package static let license = License.pixabay
    /// Pixabay's own API; a mirror or the sample API may stand in.
    public static let defaultEndpoint = "https://pixabay.com/api/"
    static let keySignup =
        "a free key comes with a Pixabay account: https://pixabay.com/api/docs/"
    /// Pixabay never returns more than this many hits for one query.
    public static let hitCap = 500
    static let perPageRange = 3...200
    static let maximumQueryLength = 100

    package var term: String
    package var variantWord: String?
    package var itemCount: Int
    package var key: String
    /// The most hits used from one search: Pixabay's cap, unless a mirror or the benchmarks' sample API has more.
    package var hitCap: Int
    package var endpoint: String
    /// The host whose images a history's archive may fetch again.
    public var endpoints: [String] { [endpoint] }

    /// `itemCount` hits for `term`, each paired with the same-numbered hit for `term` plus `variantWord` (nil: no
    /// pairs), asked with `key`.
    public init(
        term: String, variantWord: String?, itemCount: Int, key: String, endpoint: String = defaultEndpoint,
        hitCap: Int = PixabaySource.hitCap
    ) {
        self.term = term
        self.variantWord = variantWord
        self.itemCount = itemCount
        self.key = key
        self.endpoint = endpoint
        self.hitCap = max(hitCap, 1)
    }

    /// The term, variant, count, hit cap, endpoint and a digest of the key (never the key itself).
    public var configuration: String {
        Self.configuration(
            "pixabay",
            [
                "endpoint": endpoint, "term": term, "variant": variantWord, "items": String(itemCount),
                "hit-cap": String(hitCap), "key": Self.keyDigest(key),
            ])
    }

    var variantQuery: String? {
        guard let variantWord, !variantWord.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return "\(term) \(variantWord)"
    }

    /// How many hits per request and how many requests fetch `itemCount` hits with the fewest requests.
    struct Plan: Equatable {
        var wanted: Int
        var perPage: Int
        var pages: Int
    }

    static func plan(itemCount: Int, hitCap: Int = hitCap) -> Plan {
        let wanted = min(max(itemCount, 0), hitCap)
        let pages = max(1, (wanted + perPageRange.upperBound - 1) / perPageRange.upperBound)
        let perPage = min(max((wanted + pages - 1) / pages, perPageRange.lowerBound), perPageRange.upperBound)
        return Plan(wanted: wanted, perPage: perPage, pages: pages)
    }

    /// Runs both searches with the fewest requests for the count, and pairs their hits.
    public func collect(using api: any APIResponseLoading) async throws -> SourceResult {
        try validate()
        let plan = Self.plan(itemCount: itemCount, hitCap: hitCap)
        async let originals = search(term, plan: plan, api: api)
        async let variants = searchVariant(plan: plan, api: api)
        let original = try await originals
        let variant = try await variants
        var warnings = original.warnings + (variant?.warnings ?? [])
        if itemCount > hitCap {
            warnings.append("Pixabay returns at most \(hitCap) hits per search; the gallery stops there.")
        }
        let variantLabel = variantWord.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        let items = original.hits.prefix(plan.wanted).enumerated().map { index, hit in
            var entries = [hit.entry]
            if let variant, let variantQuery {
                if index < variant.hits.count {
                    entries.append(variant.hits[index].entry)
                } else {
                    entries.append(.missing(reason: "No “\(variantQuery)” match for this item."))
                }
            }
            return SourceItem(sourceID: hit.id, entries: entries)
        }
        var variantList = [SourceVariant(key: "original", label: "Original", query: term)]
        if let variantQuery, let variantWord, let variantLabel {
            variantList.append(
                SourceVariant(key: Self.variantKey(variantWord), label: variantLabel, query: variantQuery))
        }
        let dates = [original.fetchedAt, variant?.fetchedAt].compactMap { $0 }
        return SourceResult(
            title: term,
            source: SourceDescription(name: "pixabay", label: "Pixabay", home: "https://pixabay.com/"),
            variants: variantList, items: items, fetchedAt: dates.min(), warnings: warnings,
            skipped: original.skipped + (variant?.skipped ?? 0))
    }

    static func variantKey(_ word: String) -> String {
        let key = word.lowercased().unicodeScalars.map {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-"
        }
        let trimmed = String(key).split(separator: "-").joined(separator: "-")
        return trimmed.isEmpty || trimmed == "original" ? "variant" : trimmed
    }

    private func validate() throws {
        guard !key.isEmpty else { throw SourceError.keyMissing(source: "Pixabay", signup: Self.keySignup) }
        for query in [term] + [variantQuery].compactMap({ $0 }) where query.count > Self.maximumQueryLength {
            throw SourceError.invalidOption(
                source: "Pixabay",
                detail:
                    "The search “\(query.prefix(40))…” is longer than Pixabay's \(Self.maximumQueryLength) characters.")
        }
        try RemoteURLPolicy.requireEndpoint(endpoint, of: "Pixabay")
    }

    // MARK: - Searching

    struct Hit {
        var id: String
        var entry: SourceEntry
    }

    struct SearchOutcome {
        var hits: [Hit]
        var fetchedAt: Date?
        var warnings: [String]
        var skipped = 0
    }

    func request(query: String, page: Int, perPage: Int) -> FetchRequest {
        var components = URLComponents(string: endpoint) ?? URLComponents()
        var items = (components.queryItems ?? []).filter { !["key", "q", "page", "per_page"].contains($0.name) }
        items += [
            URLQueryItem(name: "key", value: key), URLQueryItem(name: "q", value: query),
            URLQueryItem(name: "safesearch", value: "true"),
            URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "per_page", value: String(perPage)),
        ]
        components.setStrictQuery(items)
        return FetchRequest(url: components.string ?? endpoint, secretQueryNames: ["key"], maximumBodyBytes: 16 << 20)
    }

    private func searchVariant(plan: Plan, api: any APIResponseLoading) async throws -> SearchOutcome? {
        guard let variantQuery else { return nil }
        return try await search(variantQuery, plan: plan, api: api)
    }

    private func search(_ query: String, plan: Plan, api: any APIResponseLoading) async throws -> SearchOutcome {
        guard plan.wanted > 0 else { return SearchOutcome(hits: [], fetchedAt: nil, warnings: []) }
        let first = try await page(1, of: query, plan: plan, api: api)
        var outcome = SearchOutcome(
            hits: first.hits, fetchedAt: first.fetchedAt, warnings: first.warnings, skipped: first.skipped)
        let available = min(first.totalHits, plan.wanted, hitCap)
        let lastPage = min(plan.pages, (available + plan.perPage - 1) / plan.perPage)
        // Whether there is more is the API's to say (its total, a full page), however many hits survived decoding.
        guard lastPage > 1, first.received == plan.perPage else { return outcome }
        let rest = try await withThrowingTaskGroup(of: (Int, PageOutcome).self) { group in
            for number in 2...lastPage {
                group.addTask { (number, try await page(number, of: query, plan: plan, api: api)) }
            }
            var pages: [(Int, PageOutcome)] = []
            for try await page in group { pages.append(page) }
            return pages.sorted { $0.0 < $1.0 }.map(\.1)
        }
        for page in rest {
            outcome.hits += page.hits
            outcome.warnings += page.warnings
            outcome.skipped += page.skipped
            if let date = page.fetchedAt { outcome.fetchedAt = min(outcome.fetchedAt ?? date, date) }
            if page.received < plan.perPage { break }
        }
        return outcome
    }

    struct PageOutcome {
        var hits: [Hit]
        /// How many hits the page held as the API sent it, usable or not.
        var received = 0
        var totalHits: Int
        var fetchedAt: Date?
        var warnings: [String]
        var skipped: Int { warnings.count }
    }

    private func page(_ number: Int, of query: String, plan: Plan, api: any APIResponseLoading) async throws
        -> PageOutcome
    {
        try await api.load(request(query: query, page: number, perPage: plan.perPage)) { response in
            switch response.status {
            case 200..<300:
                return try Self.decodePage(response.body, query: query, page: number, fetchedAt: response.fetchedAt)
            case 400 where response.bodyText.contains("\"page\" is out of valid range"):
                return PageOutcome(hits: [], totalHits: 0, fetchedAt: response.fetchedAt, warnings: [])
            default:
                throw Self.error(status: response.status, message: response.bodyText)
            }
        }
    }

    static func error(status: Int, message: String) -> SourceError {
        let message = message.isEmpty ? "no message" : String(message.prefix(300))
        switch status {
        case 400 where message.localizedCaseInsensitiveContains("key"):
            return .keyRejected(source: "Pixabay", message: message)
        case 401, 403:
            return .keyRejected(source: "Pixabay", message: message)
        case 429:
            return .rateLimited(source: "Pixabay", message: message)
        case 400..<500:
            let hint =
                message.contains("per_page")
                ? "keep the results per page and the page count within Pixabay's limits" : nil
            return .rejected(source: "Pixabay", status: status, message: message, hint: hint)
        default:
            return .unavailable(source: "Pixabay", status: status, message: message)
        }
    }

    /// One page of results as Pixabay sends it, with only the fields Vitrine reads.
    struct PageAnswer: Decodable {
        var hits: [Tolerant<HitFields>]
        var totalHits: LooseInt?
    }

    /// One hit as Pixabay sends it, every field read loosely (see ``decodeHit(_:)`` for what makes it usable).
    struct HitFields: Decodable {
        var id: LooseNumericString?
        var tags, user, pageURL, previewURL, webformatURL, largeImageURL, userURL: LooseString?
        var previewWidth, previewHeight, webformatWidth, webformatHeight, imageWidth, imageHeight: LooseInt?
        var userID: LooseNumericString?
        var isAiGenerated: LooseBool?

        enum CodingKeys: String, CodingKey {
            case id, tags, user, pageURL, previewURL, webformatURL, largeImageURL, userURL
            case previewWidth, previewHeight, webformatWidth, webformatHeight, imageWidth, imageHeight
            case userID = "user_id", isAiGenerated
        }
    }

    /// Decodes one page of results; a hit without a usable picture is skipped with a warning.
    static func decodePage(_ body: [UInt8], query: String, page: Int, fetchedAt: Date?) throws -> PageOutcome {
        let answer: PageAnswer
        do {
            answer = try APIAnswer.decode(PageAnswer.self, from: body)
        } catch {
            throw SourceError.unreadable(error, source: "Pixabay", document: "the answer to “\(query)” page \(page)")
        }
        var warnings: [String] = []
        var decoded: [Hit] = []
        for (index, hit) in answer.hits.enumerated() {
            var refused: [String] = []
            switch decodeHit(hit.value, refused: &refused) {
            case .success(let value):
                decoded.append(value)
                for refusal in refused {
                    warnings.append("Pixabay hit \(index + 1) of page \(page) for “\(query)” lost \(refusal).")
                }
            case .failure(let reason):
                let why = refused.isEmpty ? "" : " (\(refused.joined(separator: "; ")))"
                warnings.append("Skipped Pixabay hit \(index + 1) of page \(page) for “\(query)”: \(reason)\(why).")
            }
        }
        let total = answer.totalHits?.value ?? answer.hits.count
        return PageOutcome(
            hits: decoded, received: answer.hits.count, totalHits: max(0, total), fetchedAt: fetchedAt,
            warnings: warnings)
    }

    struct SkipReason: Error, CustomStringConvertible {
        var description: String
    }

    /// A hit Vitrine can show, from its fields (nil: the hit is not a JSON object); `refused` gets a phrase for
    /// each picture URL that cannot be a web URL (`RemoteURLPolicy`), which the hit is then read without.
    static func decodeHit(_ hit: HitFields?, refused: inout [String]) -> Result<Hit, SkipReason> {
        guard let hit else { return .failure(SkipReason(description: "it is not a JSON object")) }
        guard let id = hit.id?.value, !id.isEmpty, id.count <= 64 else {
            return .failure(SkipReason(description: "field “id” is missing or not a number"))
        }
        func picture(_ field: String, _ url: LooseString?) -> String? {
            guard let text = url?.value else { return nil }
            switch RemoteURLPolicy.checked(text) {
            case .success(let url): return url.text
            case .failure(let refusal):
                refused.append("its “\(field)”, which was refused: \(refusal)")
                return nil
            }
        }
        let preview = picture("previewURL", hit.previewURL).map {
            RemoteImage(url: $0, width: hit.previewWidth?.dimension, height: hit.previewHeight?.dimension)
        }
        let webformat = picture("webformatURL", hit.webformatURL).map {
            RemoteImage(url: $0, width: hit.webformatWidth?.dimension, height: hit.webformatHeight?.dimension)
        }
        var large: RemoteImage?
        if let url = picture("largeImageURL", hit.largeImageURL) {
            large = RemoteImage(url: url)
            if let width = hit.imageWidth?.dimension, let height = hit.imageHeight?.dimension {
                let scale = min(1, 1280 / Double(max(width, height)))
                large?.width = max(1, Int((Double(width) * scale).rounded()))
                large?.height = max(1, Int((Double(height) * scale).rounded()))
            } else if let webformat, let width = webformat.width, let height = webformat.height {
                let scale = 1280 / Double(max(width, height))
                large?.width = Int((Double(width) * scale).rounded())
                large?.height = Int((Double(height) * scale).rounded())
            }
        }
        guard let tile = webformat ?? preview ?? large, let full = large ?? webformat ?? preview else {
            return .failure(SkipReason(description: "it has no http(s) image URL"))
        }
        let caption = hit.tags?.value ?? ""
        let pageURL = RemoteURLPolicy.accepted(hit.pageURL?.value)
        let credit = hit.user?.value.flatMap { name in
            name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                ? nil : Credit(name: name, url: pageURL, authorURL: profile(of: hit, name: name))
        }
        return .success(
            Hit(
                id: id,
                entry: .found(
                    caption: caption, credit: credit, tile: tile, full: full, license: Self.license,
                    aiGenerated: hit.isAiGenerated?.value ?? false,
                    alternates: alternates(of: webformat, original: hit.imageWidth, hit.imageHeight),
                    tags: PictureTags.pixabay(hit.tags?.value))))
    }

    /// The other sizes of `webformat` that Pixabay serves when the `_640` of its file's name is replaced: `_180`
    /// and `_340`, that many pixels tall, and `_960`, within 960 × 720 and no larger than the original. Only sizes
    /// smaller or larger than the web format itself, and only when the name of the file its URL's path ends in names
    /// `_640` once and its pixel size is known, as a page needs each candidate's width; its host, query and
    /// fragment are never rewritten.
    static func alternates(of webformat: RemoteImage?, original width: LooseInt?, _ height: LooseInt?)
        -> [RemoteImage]
    {
        guard let webformat, let shownWidth = webformat.width, let shownHeight = webformat.height,
            let url = WebURL(webformat.url)
        else { return [] }
        var sizes: [(name: Int, width: Int, height: Int)] = [180, 340].filter { $0 < shownHeight }.map { size in
            (size, Int((Double(shownWidth) * Double(size) / Double(shownHeight)).rounded()), size)
        }
        if let width = width?.dimension, let height = height?.dimension {
            let scale = min(960 / Double(width), 720 / Double(height), 1)
            let boxed = (width: Int((Double(width) * scale).rounded()), height: Int((Double(height) * scale).rounded()))
            if boxed.width > shownWidth, boxed.height > shownHeight { sizes.append((960, boxed.width, boxed.height)) }
        }
        return sizes.compactMap { size in
            guard let sized = url.replacingOnceInFileName("_640.", with: "_\(size.name).") else { return nil }
            return RemoteImage(url: sized.text, width: max(1, size.width), height: max(1, size.height))
        }
    }

    /// The author's profile: the hit's `userURL`, else `https://pixabay.com/users/{user}-{user_id}/` when both are
    /// plain (letters, digits, `_`, `-`; a numeric id).
    static func profile(of hit: HitFields, name: String) -> String? {
        if let url = RemoteURLPolicy.accepted(hit.userURL?.value) { return url }
        guard let userID = hit.userID?.value, !userID.isEmpty, userID.count <= 20, userID.allSatisfy(\.isNumber),
            name.count <= 100, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else { return nil }
        return "https://pixabay.com/users/\(name)-\(userID)/"
    }

}
