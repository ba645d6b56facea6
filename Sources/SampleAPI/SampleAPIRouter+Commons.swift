import Foundation

/// The Wikimedia Commons routes: the file search of the MediaWiki Action API, `/w/api.php?action=query&
/// generator=search&prop=imageinfo…`, as `commons.wikimedia.org` answers it, and the uploads its answers point at.
///
/// Before the API or the upload host looks at a request, Wikimedia's edge does: a request whose `User-Agent` names
/// no contact (``userAgentNamesContact(_:)``) is refused with 403 and Wikimedia's sentence, unless
/// ``SampleAPIConfiguration/commonsRequiresContact`` is off; then, for the API, the throttle
/// (``SampleAPIConfiguration/commonsRateLimit`` a minute) answers 429 with `Retry-After`. The API itself reports
/// its errors with HTTP 200, `{"error": {"code", "info", "docref"}}` (`"*"` for `docref` with `formatversion=1`)
/// and the header `MediaWiki-API-Error`.
///
/// `gsrlimit` defaults to 10; `max` is 50, and a number outside `1...50` is brought into it with a warning. The
/// next batch is asked with the answer's `continue` members (`gsroffset`). The answer is `formatversion=2`'s
/// (`pages` a list) when asked for, else the older one (`pages` keyed by id). `iiprop`, `iiurlwidth` and
/// `iiextmetadatafilter` shape each file's `imageinfo` (``CommonsCatalog/imageInfo(of:options:baseURL:)``);
/// `generator`, `gsrnamespace` and `prop` are taken as the search of files they must be, and other parameters are
/// ignored.
extension SampleAPIRouter {
    /// What Wikimedia answers, with 403, a request whose User-Agent it does not accept.
    static let commonsUserAgentMessage =
        "Please set a user-agent and respect our robot policy https://w.wiki/4wJS. See also T400119."
    /// The body of a throttled Commons request.
    static let commonsRateLimitMessage = "Too many requests"
    /// The `docref` of every API error.
    static let commonsDocumentationReference =
        "See https://commons.wikimedia.org/w/api.php for API usage. Subscribe to the mediawiki-api-announce mailing "
        + "list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; "
        + "for notice of API deprecations and breaking changes."

    /// Whether a `User-Agent` says how to reach whoever runs the client, as Wikimedia's policy asks, judged as
    /// simply as a stand-in may: it has a parenthesised part with something in it (`Vitrine/1.0 (ops@example.org)
    /// libcurl`), and it is not curl's own (`curl/8.5.0`, or a bare `libcurl/…`). A missing or empty one has none.
    static func userAgentNamesContact(_ agent: String?) -> Bool {
        let agent = (agent ?? "").trimmingCharacters(in: .whitespaces)
        let lowered = agent.lowercased()
        guard !agent.isEmpty, !lowered.hasPrefix("curl/"), !lowered.hasPrefix("libcurl") else { return false }
        guard let open = agent.firstIndex(of: "("), let close = agent[open...].firstIndex(of: ")") else {
            return false
        }
        return !agent[agent.index(after: open)..<close].trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// `/w/api.php`: Wikimedia's User-Agent policy, then the throttle, then the API.
    func commonsSearch(_ request: SampleAPIRequest, baseURL: String, now: ContinuousClock.Instant)
        -> SampleAPIResponse
    {
        if configuration.commonsRequiresContact && !Self.userAgentNamesContact(request.headers["user-agent"]) {
            return .text(403, Self.commonsUserAgentMessage)
        }
        if configuration.commonsRateLimit > 0 {
            let decision = commonsRateLimiter.consume(key: "commons", at: now)
            guard decision.allowed else {
                var response = SampleAPIResponse.text(429, Self.commonsRateLimitMessage)
                response.headers["Retry-After"] = String(max(decision.resetSeconds, 1))
                return response
            }
        }
        return commonsAnswer(request.query, baseURL: baseURL)
    }

    /// An upload (`/upload/…`), as `upload.wikimedia.org` answers it: the same User-Agent policy as the API's.
    func commonsUpload(_ request: SampleAPIRequest, _ answer: () -> SampleAPIResponse) -> SampleAPIResponse {
        if configuration.commonsRequiresContact && !Self.userAgentNamesContact(request.headers["user-agent"]) {
            return .text(403, Self.commonsUserAgentMessage)
        }
        return answer()
    }

    private func commonsAnswer(_ query: [String: String], baseURL: String) -> SampleAPIResponse {
        let legacyFormat = !["2", "latest"].contains(query["formatversion"] ?? "")
        let search: CommonsSearchParameters
        do {
            search = try CommonsSearchParameters(query)
        } catch {
            return commonsError(error.code, error.info, legacyFormat: legacyFormat)
        }
        let batch = commons.search(search.term, offset: search.offset, limit: search.limit)
        var members: [(String, OrderedJSON)] = [("batchcomplete", legacyFormat ? .string("") : .bool(true))]
        if let next = batch.nextOffset {
            members.append(("continue", .object([("gsroffset", .int(next)), ("continue", .string("gsroffset||"))])))
        }
        if let warning = search.limitWarning {
            let text = OrderedJSON.string(warning)
            members.append(("warnings", .object([("search", .object([(legacyFormat ? "*" : "warnings", text)]))])))
        }
        if search.askedForMost {
            members.append(("limits", .object([("search", .int(search.limit))])))
        }
        if !batch.files.isEmpty {
            let pages = batch.files.sorted { $0.pageID < $1.pageID }.map {
                (String($0.pageID), commons.page(of: $0, options: search.imageInfo, baseURL: baseURL))
            }
            members.append(("query", .object([("pages", legacyFormat ? .object(pages) : .array(pages.map(\.1)))])))
        }
        return Self.commonsJSON(.object(members))
    }

    private func commonsError(_ code: String, _ info: String, legacyFormat: Bool) -> SampleAPIResponse {
        let error = OrderedJSON.object([
            ("code", .string(code)), ("info", .string(info)),
            (legacyFormat ? "*" : "docref", .string(Self.commonsDocumentationReference)),
        ])
        var response = Self.commonsJSON(.object([("error", error), ("servedby", .string("mw-api-ext.sample"))]))
        response.headers["MediaWiki-API-Error"] = code
        return response
    }

    private static func commonsJSON(_ value: OrderedJSON) -> SampleAPIResponse {
        var response = SampleAPIResponse.json(value)
        response.headers["Content-Type"] = "application/json; charset=utf-8"
        return response
    }

    /// `/upload/{a}/{ab}/{Name}`: a photo's original, served by the 1,280-pixel rendition of its picture.
    func commonsOriginal(folder: Substring, subfolder: Substring, name: Substring) -> SampleAPIResponse {
        guard
            let image = commons.image(
                folders: (String(folder), String(subfolder)), name: String(name), thumbnailName: nil)
        else {
            return .text(404, "No such Commons file: \(name)")
        }
        return jpeg(image, servedAs: "commons/\(name)")
    }

    /// `/upload/thumb/{a}/{ab}/{Name}/{rendition}`: a rendition, served by the 640-pixel rendition of the file's
    /// picture up to 640 pixels wide and by the 1,280-pixel one above; a JPEG even for a drawing's `.png`.
    func commonsThumbnail(folder: Substring, subfolder: Substring, name: Substring, thumbnail: Substring)
        -> SampleAPIResponse
    {
        guard
            let image = commons.image(
                folders: (String(folder), String(subfolder)), name: String(name), thumbnailName: String(thumbnail))
        else {
            return .text(404, "No such Commons rendition: \(name)/\(thumbnail)")
        }
        return jpeg(image, servedAs: "commons/\(thumbnail)")
    }
}

/// An error the Action API reports in its answer: `{"error": {"code": …, "info": …}}`.
struct CommonsAPIError: Error {
    /// `badvalue`, `missingparam`, `badinteger`.
    var code: String
    /// MediaWiki's sentence.
    var info: String
}

/// A file search's parameters, read as MediaWiki reads them.
struct CommonsSearchParameters {
    /// `gsrsearch`.
    var term: String
    /// `gsroffset`, 0 unless given; a negative one counts as 0.
    var offset = 0
    /// `gsrlimit`, within `1...50`.
    var limit = CommonsCatalog.defaultSearchLimit
    /// Whether `gsrlimit` was `max`, which the answer's `limits` member reports.
    var askedForMost = false
    /// MediaWiki's warning when `gsrlimit` was out of range.
    var limitWarning: String?
    /// `iiprop`, `iiurlwidth` and `iiextmetadatafilter`.
    var imageInfo: CommonsImageInfoOptions

    /// Reads `query`, checking `action`, `format`, `gsrsearch` and the numbers in MediaWiki's order and words.
    init(_ query: [String: String]) throws(CommonsAPIError) {
        for (parameter, expected) in [("action", "query"), ("format", "json")] where query[parameter] != expected {
            guard let value = query[parameter], !value.isEmpty else {
                throw CommonsAPIError(code: "missingparam", info: "The \"\(parameter)\" parameter must be set.")
            }
            throw CommonsAPIError(
                code: "badvalue", info: "Unrecognized value for parameter \"\(parameter)\": \(value).")
        }
        guard let term = query["gsrsearch"], !term.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CommonsAPIError(code: "missingparam", info: "The \"gsrsearch\" parameter must be set.")
        }
        self.term = term
        let most = CommonsCatalog.largestSearchLimit
        if query["gsrlimit"] == "max" {
            (limit, askedForMost) = (most, true)
        } else if let asked = try Self.integer(query, "gsrlimit") {
            limit = min(max(asked, 1), most)
            if asked > most {
                limitWarning = "gsrlimit may not be over \(most) (set to \(most)) for users."
            } else if asked < 1 {
                limitWarning = "gsrlimit may not be less than 1 (set to 1)."
            }
        }
        offset = max(try Self.integer(query, "gsroffset") ?? 0, 0)
        imageInfo = CommonsImageInfoOptions(
            iiprop: query["iiprop"], urlWidth: try Self.integer(query, "iiurlwidth"),
            metadataFilter: query["iiextmetadatafilter"])
    }

    /// Integer parameter `name` (an optional sign and digits), nil when it is missing or empty.
    private static func integer(_ query: [String: String], _ name: String) throws(CommonsAPIError) -> Int? {
        guard let text = query[name], !text.isEmpty else { return nil }
        let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(digits)
        else {
            throw CommonsAPIError(
                code: "badinteger", info: "Invalid value \"\(text)\" for integer parameter \"\(name)\".")
        }
        return text.first == "-" ? -number : number
    }
}
