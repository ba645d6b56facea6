import Foundation

/// The Openverse routes: the image search `/v1/images/` as `api.openverse.org` answers it, with its anonymous limits,
/// and the images its results point at.
///
/// A search is anonymous unless it sends `Authorization: Bearer TOKEN` with the configured token; another bearer
/// token fails with 401 before anything else is looked at. Anonymous use is throttled
/// (``SampleAPIConfiguration/openverseRateLimit`` a minute, the Django REST framework's 429), limited to a
/// `page_size` of 20 (401) and to 20 pages deep (400); with the token, `page_size` goes up to 500 and pages as deep
/// as the results go. Errors are JSON, `{"detail": "…"}` or, for a parameter that is not a number in range,
/// `{"page_size": ["…"]}`.
///
/// `mature` is accepted and ignored: mature results are always included, so that a client's own filter is
/// exercised.
extension SampleAPIRouter {
    static let openversePageSizeMessage = "Anonymous API requests are limited to a maximum page size of 20."
    static let openverseInvalidPageMessage = "Invalid page number."
    static let openverseInvalidTokenMessage = "Invalid token."
    /// The scope Openverse names its anonymous burst throttle by in its `X-RateLimit-*-{scope}` headers.
    static let openverseThrottleScope = "anon_burst"

    /// `/v1/images/?q=&page=&page_size=&license=&license_type=`: authentication, then the throttle, then the
    /// parameters, in the order Openverse checks them.
    func openverseSearch(_ request: SampleAPIRequest, baseURL: String, now: ContinuousClock.Instant)
        -> SampleAPIResponse
    {
        let authorization = (request.headers["authorization"] ?? "").split(separator: " ", maxSplits: 1)
        let authenticated = authorization.first?.lowercased() == "bearer"
        if authenticated {
            let token = authorization.dropFirst().first?.trimmingCharacters(in: .whitespaces) ?? ""
            guard token == configuration.openverseToken else {
                return openverseError(401, Self.openverseInvalidTokenMessage)
            }
        }
        guard !authenticated, configuration.openverseRateLimit > 0 else {
            return openverseAnswer(request.query, authenticated: authenticated, baseURL: baseURL)
        }
        let decision = openverseRateLimiter.consume(key: "anonymous", at: now)
        var response: SampleAPIResponse
        if decision.allowed {
            response = openverseAnswer(request.query, authenticated: false, baseURL: baseURL)
        } else {
            let wait = max(decision.resetSeconds, 1)
            let unit = wait == 1 ? "second" : "seconds"
            response = openverseError(429, "Request was throttled. Expected available in \(wait) \(unit).")
            response.headers["Retry-After"] = String(wait)
        }
        response.headers["X-RateLimit-Limit-\(Self.openverseThrottleScope)"] = "\(decision.limit)/min"
        response.headers["X-RateLimit-Available-\(Self.openverseThrottleScope)"] = String(decision.remaining)
        return response
    }

    private func openverseAnswer(_ query: [String: String], authenticated: Bool, baseURL: String)
        -> SampleAPIResponse
    {
        let pageSize: Int
        switch Self.openverseNumber(query["page_size"], default: OpenverseCatalog.defaultPageSize) {
        case .failure(let problem):
            return openverseFieldError("page_size", problem.sentence)
        case .success(let size) where !authenticated && size > OpenverseCatalog.anonymousPageSizeLimit:
            return openverseError(401, Self.openversePageSizeMessage)
        case .success(let size) where size > OpenverseCatalog.largestPageSize:
            return openverseFieldError(
                "page_size", "Ensure this value is less than or equal to \(OpenverseCatalog.largestPageSize).")
        case .success(let size):
            pageSize = size
        }
        let page: Int
        switch Self.openverseNumber(query["page"], default: 1) {
        case .failure(let problem): return openverseFieldError("page", problem.sentence)
        case .success(let number): page = number
        }
        let filter = OpenverseLicenseFilter(license: query["license"], licenseType: query["license_type"])
        let answer = openverse.page(
            of: query["q"] ?? "", filter: filter, page: page, pageSize: pageSize,
            pageLimit: authenticated ? nil : OpenverseCatalog.anonymousPageLimit, baseURL: baseURL)
        guard page <= max(answer.pageCount, 1) else {
            return openverseError(400, Self.openverseInvalidPageMessage)
        }
        return .json(answer.json)
    }

    /// A parameter that must be a whole number from 1: its value, `defaultValue` when it is missing or empty, or the
    /// Django REST framework's sentence for what is wrong with it.
    private static func openverseNumber(_ text: String?, default defaultValue: Int) -> Result<Int, FieldProblem> {
        guard let text, !text.isEmpty else { return .success(defaultValue) }
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
            return .failure(FieldProblem(sentence: "A valid integer is required."))
        }
        guard number >= 1 else {
            return .failure(FieldProblem(sentence: "Ensure this value is greater than or equal to 1."))
        }
        return .success(number)
    }

    /// Why a parameter was refused, in the Django REST framework's words.
    private struct FieldProblem: Error {
        var sentence: String
    }

    private func openverseFieldError(_ field: String, _ sentence: String) -> SampleAPIResponse {
        var response = SampleAPIResponse.json(.object([(field, .array([.string(sentence)]))]))
        response.status = 400
        return response
    }

    private func openverseError(_ status: Int, _ detail: String) -> SampleAPIResponse {
        var response = SampleAPIResponse.json(.object([("detail", .string(detail))]))
        response.status = status
        return response
    }

    /// `/openverse/images/{id}.jpg`: the 1,280-pixel rendition of the result's picture.
    func openverseImage(file: Substring) -> SampleAPIResponse {
        guard file.hasSuffix(".jpg"),
            let image = openverse.image(id: String(file.dropLast(4)), edge: OpenverseCatalog.imageEdge)
        else {
            return .text(404, "No such Openverse image: \(file)")
        }
        return jpeg(image, servedAs: "openverse/\(file)")
    }

    /// `/v1/images/{id}/thumb/`: the 640-pixel rendition of the result's picture.
    func openverseThumbnail(id: Substring) -> SampleAPIResponse {
        guard let image = openverse.image(id: String(id), edge: OpenverseCatalog.thumbnailEdge) else {
            return .text(404, "No such Openverse image: \(id)")
        }
        return jpeg(image, servedAs: "openverse/\(id)/thumb")
    }
}
