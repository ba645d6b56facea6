import Foundation

/// The Lorem Picsum and Unsplash routes: Picsum's list, info, image and random-redirect routes at the root (as on
/// `https://picsum.photos/`), Unsplash's `/photos/random` and `download_location` under `/unsplash/`, the
/// hotlinked Unsplash images under `/unsplash-images/`, and stand-ins for the photo and profile pages.
extension SampleAPIRouter {
    static let picsumInvalidSize = "Invalid size"
    static let picsumLargestEdge = 5000
    static let unsplashInvalidToken = "OAuth error: The access token is invalid"
    static let unsplashRateLimitMessage = "Rate Limit Exceeded"
    static let unsplashLongestCount = 30

    /// The response for a Picsum or Unsplash path, or nil when the path is neither's.
    func randomImageRoute(
        _ request: SampleAPIRequest, _ components: [Substring], baseURL: String, now: ContinuousClock.Instant
    ) -> SampleAPIResponse? {
        let json = request.headers["accept"]?.contains("application/json") ?? false
        switch (components.first, components.count) {
        case ("v2", 2) where components[1] == "list":
            return picsumList(request.query, baseURL: baseURL)
        case ("id", 3) where components[2] == "info":
            guard let photo = randomCatalog.photo(picsumID: components[1]) else {
                return picsumError(404, "Image does not exist", json: json)
            }
            return .json(randomCatalog.picsumInfo(photo, baseURL: baseURL))
        case ("seed", 3) where components[2] == "info":
            guard let photo = randomCatalog.photo(seed: components[1]) else {
                return picsumError(404, "Image does not exist", json: json)
            }
            return .json(randomCatalog.picsumInfo(photo, baseURL: baseURL))
        case ("id", 4):
            return picsumImage(randomCatalog.photo(picsumID: components[1]), components[2], components[3], json: json)
        case ("seed", 4):
            return picsumImage(randomCatalog.photo(seed: components[1]), components[2], components[3], json: json)
        case ("seed", 3):
            // `/seed/{seed}/{size}`: square, where vitrine albums sends via.placeholder.com's URLs.
            return picsumImage(randomCatalog.photo(seed: components[1]), components[2], components[2], json: json)
        case (let width?, 2) where Self.decimal(width) != nil && Self.decimal(components[1]) != nil:
            return picsumRandom(width, components[1], baseURL: baseURL, json: json)
        case ("unsplash", 3) where components[1] == "photos" && components[2] == "random":
            return unsplash(request, now: now) { unsplashRandom(request.query, baseURL: baseURL) }
        case ("unsplash", 4) where components[1] == "photos" && components[3] == "download":
            return unsplash(request, now: now) { unsplashDownload(components[2], baseURL: baseURL) }
        case ("unsplash-images", 2):
            return unsplashImage(components[1], width: request.query["w"])
        case ("pages", 4) where components[1] == "unsplash" && components[2] == "photos":
            return .html(
                title: "Sample photo page",
                paragraph: "This page stands for the photo page https://unsplash.com/photos/\(components[3]).")
        case ("pages", 3) where components[1] == "unsplash" && components[2].hasPrefix("@"):
            return .html(
                title: "Sample profile page",
                paragraph: "This page stands for the profile https://unsplash.com/\(components[2]) on Unsplash.")
        default:
            return nil
        }
    }

    // MARK: - Lorem Picsum

    private func picsumError(_ status: Int, _ message: String, json: Bool) -> SampleAPIResponse {
        guard json else { return .text(status, message) }
        var response = SampleAPIResponse.json(.object([("error", .string(message))]))
        response.status = status
        return response
    }

    /// `/v2/list?page=&limit=`: `limit` defaults to 30 and is capped at 100; past the end, `[]`; a `Link` header
    /// names the neighbouring pages.
    private func picsumList(_ query: [String: String], baseURL: String) -> SampleAPIResponse {
        let limit = min(max(Int(query["limit"] ?? "") ?? 30, 1), 100)
        let page = max(Int(query["page"] ?? "") ?? 1, 1)
        let photos = randomCatalog.photos
        let start = (page - 1).multipliedReportingOverflow(by: limit)
        let slice =
            start.overflow || start.partialValue >= photos.count
            ? [] : Array(photos[start.partialValue...].prefix(limit))
        var response = SampleAPIResponse.json(.array(slice.map { randomCatalog.picsumInfo($0, baseURL: baseURL) }))
        var links: [String] = []
        if page > 1 { links.append("<\(baseURL)/v2/list?page=\(page - 1)&limit=\(limit)>; rel=\"prev\"") }
        if !start.overflow && start.partialValue + limit < photos.count {
            links.append("<\(baseURL)/v2/list?page=\(page + 1)&limit=\(limit)>; rel=\"next\"")
        }
        if !links.isEmpty { response.headers["Link"] = links.joined(separator: ", ") }
        return response
    }

    private func picsumImage(
        _ photo: RandomCatalogPhoto?, _ width: Substring, _ height: Substring, json: Bool
    ) -> SampleAPIResponse {
        guard let width = Self.decimal(width), let height = Self.decimal(height), width > 0, height > 0,
            width <= Self.picsumLargestEdge, height <= Self.picsumLargestEdge
        else { return picsumError(400, Self.picsumInvalidSize, json: json) }
        guard let photo, let image = randomCatalog.image(of: photo, longestEdge: max(width, height), images: images)
        else { return picsumError(404, "Image does not exist", json: json) }
        var response = SampleAPIResponse.jpeg(image)
        response.headers["Picsum-ID"] = photo.picsumID
        return response
    }

    /// `/{width}/{height}`: a 302 to the stable `/id/{id}/{width}/{height}` of the next photo, whose response
    /// carries `Picsum-ID`.
    private func picsumRandom(_ width: Substring, _ height: Substring, baseURL: String, json: Bool)
        -> SampleAPIResponse
    {
        guard let w = Self.decimal(width), let h = Self.decimal(height), w > 0, h > 0, w <= Self.picsumLargestEdge,
            h <= Self.picsumLargestEdge
        else { return picsumError(400, Self.picsumInvalidSize, json: json) }
        guard let photo = randomCatalog.next() else { return picsumError(404, "Image does not exist", json: json) }
        var response = SampleAPIResponse.text(302, "Found")
        response.headers["Location"] = "\(baseURL)/id/\(photo.picsumID)/\(w)/\(h)"
        response.headers["Cache-Control"] = "no-cache, no-store, must-revalidate"
        return response
    }

    // MARK: - Unsplash

    private func unsplashErrors(_ status: Int, _ messages: [String]) -> SampleAPIResponse {
        var response = SampleAPIResponse.json(.object([("errors", .array(messages.map(OrderedJSON.string)))]))
        response.status = status
        return response
    }

    /// Checks the access key (`Authorization: Client-ID KEY` or `client_id=`) and the hourly budget, then answers
    /// with `body`, adding `X-Ratelimit-Limit` and `X-Ratelimit-Remaining`.
    private func unsplash(
        _ request: SampleAPIRequest, now: ContinuousClock.Instant, body: () -> SampleAPIResponse
    ) -> SampleAPIResponse {
        let header = request.headers["authorization"] ?? ""
        let key = header.hasPrefix("Client-ID ") ? String(header.dropFirst(10)) : request.query["client_id"] ?? ""
        guard !key.isEmpty, key == configuration.unsplashKey else {
            return unsplashErrors(401, [Self.unsplashInvalidToken])
        }
        let decision = unsplashRateLimiter.consume(key: key, at: now)
        var response = decision.allowed ? body() : .text(403, Self.unsplashRateLimitMessage)
        response.headers["X-Ratelimit-Limit"] = String(decision.limit)
        response.headers["X-Ratelimit-Remaining"] = String(decision.remaining)
        return response
    }

    /// `/photos/random`: one photo, or with `count` (1 to 30) an array of that many.
    private func unsplashRandom(_ query: [String: String], baseURL: String) -> SampleAPIResponse {
        var count: Int?
        if let text = query["count"] {
            guard let value = Int(text), (1...Self.unsplashLongestCount).contains(value) else {
                return unsplashErrors(400, ["count must be between 1 and \(Self.unsplashLongestCount)"])
            }
            count = value
        }
        let photos = (0..<(count ?? 1)).compactMap { _ in randomCatalog.next() }
        guard !photos.isEmpty else { return unsplashErrors(404, ["Couldn't find Photo"]) }
        let shaped = photos.map { randomCatalog.unsplashPhoto($0, baseURL: baseURL) }
        return .json(count == nil ? shaped[0] : .array(shaped))
    }

    /// `links.download_location`: counts the photo as downloaded and answers `{"url": …}`.
    private func unsplashDownload(_ id: Substring, baseURL: String) -> SampleAPIResponse {
        guard let photo = randomCatalog.photo(unsplashID: id) else {
            return unsplashErrors(404, ["Couldn't find Photo"])
        }
        return .json(
            .object([("url", .string("\(baseURL)/unsplash-images/photo-\(photo.index + 1)-\(photo.unsplashID)"))]))
    }

    /// `/unsplash-images/photo-{n}-{id}?w=`: the bundled rendition that covers `w` (the largest without it).
    private func unsplashImage(_ name: Substring, width: String?) -> SampleAPIResponse {
        guard let id = name.split(separator: "-", maxSplits: 2).dropFirst(2).first,
            let photo = randomCatalog.photo(unsplashID: id),
            let image = randomCatalog.image(
                of: photo, longestEdge: Int(width ?? "") ?? SampleImages.longestEdgeSizes.last!, images: images)
        else { return .text(404, "No such Unsplash sample image: \(name)") }
        return .jpeg(image)
    }
}
