import Foundation
import Synchronization

/// A response before it is written to the socket. Later stages (such as fault injection) can delay, replace or
/// truncate it without knowing how it was produced.
struct SampleAPIResponse: Sendable {
    /// How the body goes on the wire. Every case but `whole` comes from a fault.
    enum Delivery: Sendable, Equatable {
        /// `body`, complete.
        case whole
        /// `body` followed by `count` zero bytes that are generated while sending.
        case zeroPadded(count: Int)
        /// The first `sentBytes` bytes of `body`, then the connection closes (with a TCP reset when `reset`).
        case cutOff(sentBytes: Int, reset: Bool)
        /// The first `sentBytes` bytes of `body`, then nothing for `duration`, then the connection closes.
        case stalled(sentBytes: Int, duration: Duration)
        /// `body`, then zeros without end, chunked (no `Content-Length`), at `bytesPerSecond`.
        case trickled(bytesPerSecond: Int)
    }

    var status: Int
    var headers: [String: String]
    var body: Data
    var delivery = Delivery.whole

    /// The `Content-Length` to announce: the whole body, even when a fault sends less of it.
    var contentLength: Int {
        if case .zeroPadded(let count) = delivery {
            return body.count + count
        }
        return body.count
    }

    static func text(_ status: Int, _ text: String) -> Self {
        Self(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    static func json(_ value: OrderedJSON) -> Self {
        Self(status: 200, headers: ["Content-Type": "application/json"], body: value.data)
    }

    static func jpeg(_ image: SampleImage) -> Self {
        Self(
            status: 200,
            headers: ["Content-Type": "image/jpeg", "Cache-Control": "public, max-age=86400"],
            body: image.bytes
        )
    }

    static func html(title: String, paragraph: String) -> Self {
        let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escapeHTML(title))</title></head>
            <body><h1>\(escapeHTML(title))</h1><p>\(escapeHTML(paragraph))</p></body></html>

            """
        return Self(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data(page.utf8))
    }

    private static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Maps a request to its response: the Pixabay search, the Flickr REST methods and feed, the media-coverage list,
/// Openverse's image search, Wikimedia Commons' file search, JSONPlaceholder's users, albums and photos, the image
/// files (seeded Picsum-like ones too), the stand-in web pages and the index.
struct SampleAPIRouter: Sendable {
    static let invalidKeyMessage = "[ERROR 400] Invalid or missing API key (https://pixabay.com/api/docs/)."
    static let queryTooLongMessage = "[ERROR 400] \"q\" is too long."
    static let perPageOutOfRangeMessage = "[ERROR 400] \"per_page\" is out of valid range."
    static let pageOutOfRangeMessage = "[ERROR 400] \"page\" is out of valid range."
    static let rateLimitMessage = "API rate limit exceeded"

    let configuration: SampleAPIConfiguration
    let catalog: PixabayCatalog
    let flickr: FlickrCatalog
    let thumbnails: ThumbnailCatalog
    let images: SampleImages
    let rateLimiter: RateLimiter
    let randomCatalog: RandomImageCatalog
    let unsplashRateLimiter: RateLimiter
    let openverse: OpenverseCatalog
    let openverseRateLimiter: RateLimiter
    let commons: CommonsCatalog
    let commonsRateLimiter: RateLimiter
    let searchAnswers = SearchAnswers()

    init(configuration: SampleAPIConfiguration, images: SampleImages = .bundled) {
        self.configuration = configuration
        self.catalog = PixabayCatalog(
            hitCounts: configuration.hitCounts, hitCap: configuration.hitCap, revisedHits: configuration.revisedHits,
            images: images)
        self.flickr = FlickrCatalog(counts: configuration.flickrCounts, images: images)
        self.thumbnails = ThumbnailCatalog(count: configuration.thumbnailCount, images: images)
        self.images = images
        self.rateLimiter = RateLimiter(limit: configuration.rateLimit, windowSeconds: configuration.rateWindowSeconds)
        self.randomCatalog = RandomImageCatalog(images: images)
        self.unsplashRateLimiter = RateLimiter(limit: configuration.unsplashRateLimit, windowSeconds: 3_600)
        self.openverse = OpenverseCatalog(
            counts: configuration.openverseCounts, defaultCount: configuration.openverseResultCount, images: images)
        self.openverseRateLimiter = RateLimiter(limit: configuration.openverseRateLimit, windowSeconds: 60)
        self.commons = CommonsCatalog(
            counts: configuration.commonsCounts, defaultCount: configuration.commonsResultCount, images: images)
        self.commonsRateLimiter = RateLimiter(limit: configuration.commonsRateLimit, windowSeconds: 60)
    }

    func respond(to request: SampleAPIRequest, baseURL: String, now: ContinuousClock.Instant) -> SampleAPIResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = SampleAPIResponse.text(405, "Method not allowed")
            response.headers["Allow"] = "GET, HEAD"
            return response
        }
        let components = request.path.split(separator: "/", omittingEmptySubsequences: true)
        if let response = randomImageRoute(request, components, baseURL: baseURL, now: now) { return response }
        switch (components.first, components.count) {
        case (nil, _):
            return .text(200, Self.index)
        case ("api", 1):
            return search(request.query, baseURL: baseURL, now: now)
        case ("photo", 2), ("get", 2):
            return image(fileName: components[1])
        case ("services", 2) where components[1] == "rest":
            return flickrREST(request.query, baseURL: baseURL)
        case ("services", 3) where components[1] == "feeds" && components[2] == "photos_public.gne":
            return flickrFeed(request.query, baseURL: baseURL)
        case ("flickr", 3):
            return flickrImage(server: components[1], file: components[2])
        case ("api", 5) where components.dropFirst().elementsEqual(Self.thumbnailsPath):
            return thumbnailList(request.query, baseURL: baseURL)
        case ("cimg", 5) where components[1] == "images" && components[4] == "image.jpg":
            return thumbnailImage(imageID: components[2], quality: components[3])
        case ("v1", 2) where components[1] == "images":
            return openverseSearch(request, baseURL: baseURL, now: now)
        case ("v1", 4) where components[1] == "images" && components[3] == "thumb":
            return openverseThumbnail(id: components[2])
        case ("openverse", 3) where components[1] == "images":
            return openverseImage(file: components[2])
        case ("w", 2) where components[1] == "api.php":
            return commonsSearch(request, baseURL: baseURL, now: now)
        case ("upload", 4):
            return commonsUpload(request) {
                commonsOriginal(folder: components[1], subfolder: components[2], name: components[3])
            }
        case ("upload", 6) where components[1] == "thumb":
            return commonsUpload(request) {
                commonsThumbnail(
                    folder: components[2], subfolder: components[3], name: components[4], thumbnail: components[5])
            }
        case ("photos", 2):
            return .html(
                title: "Sample photo page",
                paragraph: "This page stands for the photo page https://pixabay.com\(request.path) on Pixabay."
            )
        case ("users", 2):
            return .html(
                title: "Sample user page",
                paragraph: "This page stands for the user profile https://pixabay.com\(request.path) on Pixabay."
            )
        case _ where Self.isJSONPlaceholderList(components):
            return jsonPlaceholderList(components, query: request.query, path: request.path, baseURL: baseURL)
        case ("redirect", 1):
            return redirect(to: request.query["to"])
        case ("redirect-chain", 2):
            return redirectChain(remaining: components[1], baseURL: baseURL)
        default:
            return .text(404, "Not found: \(request.path)")
        }
    }

    private func search(_ query: [String: String], baseURL: String, now: ContinuousClock.Instant) -> SampleAPIResponse {
        let decision = rateLimiter.consume(key: query["key"] ?? "", at: now)
        var response =
            decision.allowed ? validatedSearch(query, baseURL: baseURL) : .text(429, Self.rateLimitMessage)
        response.headers.merge(decision.headers) { _, limitHeader in limitHeader }
        return response
    }

    private func validatedSearch(_ query: [String: String], baseURL: String) -> SampleAPIResponse {
        guard query["key"] == configuration.apiKey else {
            return .text(400, Self.invalidKeyMessage)
        }
        let term = query["q"] ?? ""
        guard term.count <= 100 else {
            return .text(400, Self.queryTooLongMessage)
        }
        guard let perPage = Self.integer(query["per_page"], default: 20), (3...200).contains(perPage) else {
            return .text(400, Self.perPageOutOfRangeMessage)
        }
        guard let page = Self.integer(query["page"], default: 1),
            (1...catalog.lastPage(for: term, perPage: perPage)).contains(page)
        else {
            return .text(400, Self.pageOutOfRangeMessage)
        }
        let firstHit = configuration.firstHit
        let key = SearchAnswers.Key(term: term, page: page, perPage: perPage, baseURL: baseURL, firstHit: firstHit)
        let answer = searchAnswers.answer(for: key) {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try? encoder.encode(
                catalog.search(query: term, page: page, perPage: perPage, baseURL: baseURL, firstHit: firstHit))
        }
        guard let body = answer else {
            return .text(500, "Could not encode the search result")
        }
        return SampleAPIResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
    }

    private func image(fileName: Substring) -> SampleAPIResponse {
        guard let name = Self.parseImageName(fileName),
            let image = images.image(theme: name.theme, number: name.number, size: name.size)
        else {
            return .text(404, "No such sample image: \(fileName)")
        }
        return jpeg(image, servedAs: fileName)
    }

    /// The image's response; with ``SampleAPIConfiguration/distinctImages``, its bytes also carry `name`, so that
    /// every URL serves a file of its own.
    func jpeg(_ image: SampleImage, servedAs name: some StringProtocol) -> SampleAPIResponse {
        var response = SampleAPIResponse.jpeg(image)
        if configuration.distinctImages {
            response.body = JPEGComment.insert("Vitrine sample image \(name)", into: image.bytes)
        }
        return response
    }

    private func redirect(to target: String?) -> SampleAPIResponse {
        guard let target, !target.isEmpty else {
            return .text(400, "Missing \"to\" parameter")
        }
        guard !target.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .text(400, "The \"to\" parameter must not contain control characters")
        }
        var response = SampleAPIResponse.text(302, "Redirecting to \(target)")
        response.headers["Location"] = target
        return response
    }

    /// `/redirect-chain/N`: N redirects in a row (N-1, N-2, …, 1), the last one to a real image.
    private func redirectChain(remaining: Substring, baseURL: String) -> SampleAPIResponse {
        guard let count = Self.decimal(remaining), count <= Self.longestRedirectChain else {
            return .text(404, "No such redirect chain: \(remaining)")
        }
        guard count > 0 else {
            return image(fileName: Self.redirectChainImage)
        }
        var response = SampleAPIResponse.text(302, "Redirecting")
        response.headers["Location"] =
            count == 1 ? "\(baseURL)/get/\(Self.redirectChainImage)" : "\(baseURL)/redirect-chain/\(count - 1)"
        return response
    }

    /// The picture at the end of every redirect chain.
    static let redirectChainImage: Substring = "1-city01_640.jpg"
    static let longestRedirectChain = 1000

    /// Splits `{anything}-{theme}{NN}_{size}.jpg` into its theme, picture number and size.
    static func parseImageName(_ name: Substring) -> (theme: String, number: Int, size: Int)? {
        guard name.hasSuffix(".jpg") else { return nil }
        let stem = name.dropLast(4)
        guard let underscore = stem.lastIndex(of: "_"), let dash = stem[..<underscore].lastIndex(of: "-") else {
            return nil
        }
        let code = stem[stem.index(after: dash)..<underscore]
        let theme = code.prefix { $0.isASCII && $0.isLetter }
        guard !theme.isEmpty,
            let number = decimal(code.dropFirst(theme.count)),
            let size = decimal(stem[stem.index(after: underscore)...])
        else {
            return nil
        }
        return (String(theme), number, size)
    }

    static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    private static func integer(_ value: String?, default defaultValue: Int) -> Int? {
        guard let value, !value.isEmpty else { return defaultValue }
        return Int(value)
    }

    private static let index = """
        Vitrine sample API: Pixabay, Flickr, a media-coverage list, Openverse and Wikimedia Commons, serving bundled
        sample pictures.

        GET /api/?key=KEY&q=TERM&page=N&per_page=N   search, as documented at https://pixabay.com/api/docs/
        GET /photo/{id}-{theme}{NN}_150.jpg           preview image (themes: city, graffiti)
        GET /get/{id}-{theme}{NN}_640.jpg             web-format image (_180 and _340: that tall; _960: within 960x720)
        GET /get/{id}-{theme}{NN}_1280.jpg            large image
        GET /photos/{slug}-{id}/                      stands for a photo page on Pixabay
        GET /users/{user}-{user_id}/                  stands for a user page on Pixabay
        GET /redirect?to=URL                          302 Found to URL, whatever it is
        GET /redirect-chain/{N}                       N redirects in a row, the last one to a JPEG

        GET /services/rest/?method=M&api_key=KEY&format=json&nojsoncallback=1
                                                      flickr.photos.search (text, tags, license=ID,ID, extras,
                                                      page, per_page), flickr.photos.getRecent (no license=)
                                                      and flickr.photos.licenses.getInfo (ids 0-16), as Flickr
                                                      documents them
        GET /services/feeds/photos_public.gne?format=json&nojsoncallback=1&tags=a,b
                                                      Flickr's public feed, \\' escapes and all
        GET /flickr/65535/{id}_{secret}[_{suffix}].jpg
                                                      Flickr image (suffixes s q t m n w z c b o)
        GET /api/v2/content/misc/media-coverages?limit=N
                                                      media-coverage list (a JSON array, at most 300)
        GET /cimg/images/img-{uuid}/{0|10|20|30|40}/image.jpg
                                                      media-coverage thumbnail in that quality

        GET /v1/images/?q=TERM&page=N&page_size=N&license=by,cc0,...&license_type=commercial,modification
                                                      Openverse's image search; anonymous: page_size up to 20
                                                      (else 401), 20 pages deep (else 400), throttled (429 with
                                                      Retry-After); Authorization: Bearer TOKEN lifts them
                                                      (page_size up to 500); mature= is ignored: mature results
                                                      are always included
        GET /openverse/images/{id}.jpg                Openverse result's image (1280 px)
        GET /v1/images/{id}/thumb/                    Openverse result's thumbnail (640 px)

        GET /w/api.php?action=query&format=json&formatversion=2&generator=search&gsrsearch=TERM&gsrnamespace=6
            &gsrlimit=N&gsroffset=N&prop=imageinfo&iiprop=url|size|mime|extmetadata&iiurlwidth=W
            &iiextmetadatafilter=Artist|LicenseUrl|...
                                                      Wikimedia Commons' file search (MediaWiki Action API):
                                                      gsrlimit up to 50 (more is cut to 50 with a warning), the
                                                      next batch by the answer's continue (gsroffset); a
                                                      User-Agent without a contact in parentheses answers 403;
                                                      throttled (429 with Retry-After)
        GET /upload/{a}/{ab}/{name}                   Commons photo's original (1280 px; {a}/{ab}: digest of name)
        GET /upload/thumb/{a}/{ab}/{name}/{W}px-{name}
                                                      Commons rendition W px wide (640 px up to 640, else 1280);
                                                      a drawing's is {W}px-{name}.png, a document's
                                                      page1-{W}px-{name}.jpg, a film's {W}px--{name}.jpg

        GET /v2/list?page=N&limit=N                   Lorem Picsum's list (Link header)
        GET /id/{id}/info, /seed/{seed}/info          Lorem Picsum's photo information
        GET /id/{id}/{w}/{h}, /seed/{seed}/{w}/{h}    Lorem Picsum image (header Picsum-ID; sizes up to 5000)
        GET /seed/{seed}/{size}                       the same, square (where via.placeholder.com URLs go)
        GET /{w}/{h}                                  a random Lorem Picsum image: 302 to /id/{id}/{w}/{h}
        GET /unsplash/photos/random?count=N           Unsplash's random photo (Authorization: Client-ID KEY)
        GET /unsplash/photos/{id}/download            Unsplash's download_location (counted in the request log)
        GET /unsplash-images/photo-{n}-{id}?w=N       a hotlinked Unsplash image
        GET /users, /users/{id}/albums, /albums?userId=N, /albums/{id}/photos, /photos?albumId=N
                                                      JSONPlaceholder (10 users, 100 albums, 5,000 photos):
                                                      field filters, _page/_limit (Link header), _start/_end
        GET /_sample-api/requests                     the requests this server has had, a line each (METHOD PATH)

        """
}

/// Encoded search answers, kept while the server runs (its catalog never changes): encoding a page of 200 hits takes
/// processor time that the benchmarks share with the client, which they would otherwise count as part of the
/// network's delay (BENCHMARKS.md, "Figures behind the code").
final class SearchAnswers: Sendable {
    struct Key: Hashable, Sendable {
        var term: String
        var page: Int
        var perPage: Int
        var baseURL: String
        var firstHit: Int
    }

    /// Pages kept at most (about 10 MB of the largest), all dropped when a new one would pass it.
    static let capacity = 64
    private let answers = Mutex<[Key: Data]>([:])

    /// The answer for `key`, encoded by `encode` the first time.
    func answer(for key: Key, encode: () -> Data?) -> Data? {
        if let known = answers.withLock({ $0[key] }) { return known }
        guard let data = encode() else { return nil }
        answers.withLock { answers in
            if answers.count >= Self.capacity { answers.removeAll() }
            answers[key] = data
        }
        return data
    }
}
