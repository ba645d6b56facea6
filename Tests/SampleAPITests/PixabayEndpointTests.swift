import Foundation
import SampleAPI
import Testing
import VitrineTestSupport

/// A hit decoded with exactly the types Pixabay documents, so a wrongly typed field fails to decode.
private struct DocumentedHit: Decodable {
    var id: Int
    var pageURL: String
    var type: String
    var tags: String
    var previewURL: String
    var previewWidth: Int
    var previewHeight: Int
    var webformatURL: String
    var webformatWidth: Int
    var webformatHeight: Int
    var largeImageURL: String
    var imageWidth: Int
    var imageHeight: Int
    var imageSize: Int
    var views: Int
    var downloads: Int
    var collections: Int
    var likes: Int
    var comments: Int
    var userID: Int
    var user: String
    var userImageURL: String
    var userURL: String
    var noAiTraining: Bool
    var isAiGenerated: Bool
    var isGRated: Bool
    var isLowQuality: Int

    enum CodingKeys: String, CodingKey {
        case id, pageURL, type, tags, previewURL, previewWidth, previewHeight
        case webformatURL, webformatWidth, webformatHeight, largeImageURL, imageWidth, imageHeight, imageSize
        case views, downloads, collections, likes, comments
        case userID = "user_id"
        case user, userImageURL, userURL, noAiTraining, isAiGenerated, isGRated, isLowQuality
    }
}

private struct DocumentedResponse: Decodable {
    var total: Int
    var totalHits: Int
    var hits: [DocumentedHit]
}

private let documentedHitKeys: Set<String> = [
    "id", "pageURL", "type", "tags", "previewURL", "previewWidth", "previewHeight", "webformatURL", "webformatWidth",
    "webformatHeight", "largeImageURL", "imageWidth", "imageHeight", "imageSize", "views", "downloads", "collections",
    "likes", "comments", "user_id", "user", "userImageURL", "userURL", "noAiTraining", "isAiGenerated", "isGRated",
    "isLowQuality",
]

private let key = SampleAPIServer.demoKey

@Suite("Pixabay endpoints over HTTP")
struct PixabayEndpointTests {
    @Test func searchResponseHasPixabaysShape() async throws {
        try await withServer { server in
            let endpoint = await server.pixabayEndpoint
            #expect(endpoint == "http://127.0.0.1:\(await server.port)/api/")
            let response = try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)&q=hamburg")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Content-Length") == String(response.body.count))

            let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(Set(object.keys) == ["total", "totalHits", "hits"])
            let rawHits = try #require(object["hits"] as? [[String: Any]])
            #expect(rawHits.count == 20)
            for rawHit in rawHits {
                #expect(Set(rawHit.keys) == documentedHitKeys)
            }

            let baseURL = await server.baseURL
            let decoded = try JSONDecoder().decode(DocumentedResponse.self, from: response.body)
            #expect(decoded.totalHits == 500)
            #expect(decoded.total >= decoded.totalHits)
            #expect(decoded.hits.allSatisfy { $0.type == "photo" && $0.pageURL.hasPrefix(baseURL) })

            let expected = PixabayCatalog().search(query: "hamburg", page: 1, perPage: 20, baseURL: baseURL)
            #expect(try JSONDecoder().decode(PixabaySearchResult.self, from: response.body) == expected)
            #expect(response.text.hasPrefix(#"{"hits":[{"collections":"#))

            let again = try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)&q=hamburg")
            #expect(again.body == response.body)
        }
    }

    @Test func pagesOverHTTP() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            let catalog = PixabayCatalog()
            func ids(_ query: String) async throws -> (status: Int, ids: [Int]) {
                let response = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&\(query)")
                guard response.status == 200 else { return (response.status, []) }
                return (200, try JSONDecoder().decode(PixabaySearchResult.self, from: response.body).hits.map(\.id))
            }
            let expectedSecondPage = (10..<20).map { catalog.hit(at: $0, query: "hamburg", baseURL: baseURL).id }
            #expect(try await ids("q=hamburg&page=2&per_page=10") == (200, expectedSecondPage))
            #expect(try await ids("q=hamburg&page=25").ids.count == 20)
            #expect(try await ids("q=hamburg&page=26").status == 400)
            #expect(try await ids("q=hamburg&page=3&per_page=200").ids.count == 100)
            #expect(try await ids("q=hamburg+graffiti&page=6&per_page=3").ids.count == 1)
            #expect(try await ids("q=hamburg+graffiti&page=7&per_page=3").status == 400)
            #expect(try await ids("q=HAMBURG%20%20graffiti&per_page=16").ids.count == 16)

            let unpaged = try await SocketHTTPClient.fetch("\(baseURL)/api?key=\(key)")
            #expect(unpaged.status == 200)
        }
    }

    @Test func emptyResultsStillAllowPageOne() async throws {
        try await withServer(SampleAPIConfiguration(hitCounts: ["nothing here": 0])) { server in
            let baseURL = await server.baseURL
            let response = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=nothing+here")
            #expect(response.status == 200)
            #expect(response.text == #"{"hits":[],"total":0,"totalHits":0}"#)
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=nothing+here&page=2").status == 400)
        }
    }

    @Test func errorBodiesMatchPixabay() async throws {
        let invalidKey = "[ERROR 400] Invalid or missing API key (https://pixabay.com/api/docs/)."
        let tooLong = #"[ERROR 400] "q" is too long."#
        let perPage = #"[ERROR 400] "per_page" is out of valid range."#
        let page = #"[ERROR 400] "page" is out of valid range."#
        let longQuery = String(repeating: "a", count: 101)
        let cases: [(String, String)] = [
            ("q=hamburg", invalidKey),
            ("key=wrong&q=hamburg", invalidKey),
            ("key=&q=hamburg", invalidKey),
            ("key=\(key)&q=\(longQuery)", tooLong),
            ("key=\(key)&q=%C3%BC\(String(repeating: "a", count: 100))", tooLong),
            ("key=\(key)&per_page=2", perPage),
            ("key=\(key)&per_page=201", perPage),
            ("key=\(key)&per_page=abc", perPage),
            ("key=\(key)&page=0", page),
            ("key=\(key)&page=-1", page),
            ("key=\(key)&page=two", page),
            ("key=\(key)&q=hamburg&page=26", page),
            ("key=\(key)&q=hamburg&per_page=3&page=168", page),
        ]
        try await withServer { server in
            let endpoint = await server.pixabayEndpoint
            for (query, body) in cases {
                let response = try await SocketHTTPClient.fetch("\(endpoint)?\(query)")
                #expect(response.status == 400, "\(query)")
                #expect(response.text == body, "\(query)")
                #expect(response.header("Content-Type")?.hasPrefix("text/plain") == true)
                #expect(response.header("Content-Length") == String(response.body.count))
                #expect(response.header("X-RateLimit-Limit") == "100")
            }
            let longestAllowed = String(repeating: "a", count: 100)
            #expect(try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)&q=\(longestAllowed)").status == 200)
            #expect(
                try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)&q=hamburg&per_page=3&page=167").status == 200)
            #expect(try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)&per_page=200").status == 200)
        }
    }

    @Test func otherDocumentedParametersAreAccepted() async throws {
        try await withServer { server in
            let parameters =
                "lang=de&image_type=photo&orientation=horizontal&category=places&min_width=100"
                + "&min_height=100&colors=red,blue&editors_choice=true&safesearch=true&order=latest&id=42"
            let response = try await SocketHTTPClient.fetch(
                "\(await server.pixabayEndpoint)?key=\(key)&q=hamburg&\(parameters)")
            #expect(response.status == 200)
        }
    }

    /// On a clock that stands still: on a busy machine the test's requests can come more than the 60-second window
    /// apart (two runs beside two busy loops saw a third request open a new window).
    @Test func rateLimitHeadersAndTooManyRequests() async throws {
        let clock = VirtualClock()
        var configuration = SampleAPIConfiguration(rateLimit: 3)
        configuration.now = { clock.now }
        try await withServer(configuration) { server in
            let endpoint = await server.pixabayEndpoint
            for remaining in [2, 1, 0] {
                let response = try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)&q=hamburg&per_page=3")
                #expect(response.status == 200)
                #expect(response.header("X-RateLimit-Limit") == "3")
                #expect(response.header("X-RateLimit-Remaining") == String(remaining))
                let reset = try #require(response.header("X-RateLimit-Reset").flatMap { Int($0) })
                #expect((1...60).contains(reset))
            }
            let limited = try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)&q=hamburg&per_page=3")
            #expect(limited.status == 429)
            #expect(limited.text == "API rate limit exceeded")
            #expect(limited.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(limited.header("Content-Length") == String(limited.body.count))
            #expect(limited.header("X-RateLimit-Limit") == "3")
            #expect(limited.header("X-RateLimit-Remaining") == "0")
            #expect(limited.header("X-RateLimit-Reset").flatMap { Int($0) }.map { (1...60).contains($0) } == true)

            let image = try await SocketHTTPClient.fetch("\(await server.baseURL)/get/1-city01_640.jpg")
            #expect(image.status == 200)
            #expect(image.header("X-RateLimit-Limit") == nil)

            let otherKey = try await SocketHTTPClient.fetch("\(endpoint)?key=someone-else&q=hamburg")
            #expect(otherKey.status == 400)
            #expect(otherKey.header("X-RateLimit-Remaining") == "2")
        }
    }

    /// The window is measured by a clock the test moves on: a refused key is allowed again once the reset it was
    /// told has passed, and not a second before.
    @Test func rateLimitWindowResets() async throws {
        let clock = VirtualClock()
        var configuration = SampleAPIConfiguration(rateLimit: 1, rateWindowSeconds: 20)
        configuration.now = { clock.now }
        try await withServer(configuration) { server in
            let url = "\(await server.pixabayEndpoint)?key=\(key)&per_page=3"
            #expect(try await SocketHTTPClient.fetch(url).status == 200)
            clock.advance(by: .milliseconds(4_500))
            let limited = try await SocketHTTPClient.fetch(url)
            #expect(limited.status == 429)
            #expect(limited.header("X-RateLimit-Reset") == "16")
            clock.advance(by: .milliseconds(15_000))
            #expect(try await SocketHTTPClient.fetch(url).status == 429, "allowed before the reset")
            clock.advance(by: .seconds(1))
            let renewed = try await SocketHTTPClient.fetch(url)
            #expect(renewed.status == 200)
            #expect(renewed.header("X-RateLimit-Remaining") == "0")
        }
    }

    @Test func everyImageURLOfAPageServesAMatchingJPEG() async throws {
        try await withServer { server in
            let endpoint = await server.pixabayEndpoint
            let response = try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)&q=hamburg+graffiti&per_page=16")
            let hits = try JSONDecoder().decode(PixabaySearchResult.self, from: response.body).hits
            #expect(hits.count == 16)
            #expect(hits.contains { $0.previewURL.contains("-city") })
            #expect(hits.contains { $0.previewURL.contains("-graffiti") })
            var checks: [(url: String, width: Int, height: Int)] = []
            for hit in hits {
                checks.append((hit.previewURL, hit.previewWidth, hit.previewHeight))
                checks.append((hit.webformatURL, hit.webformatWidth, hit.webformatHeight))
                checks.append((hit.largeImageURL, hit.imageWidth / 3, hit.imageHeight / 3))
                checks.append((hit.userImageURL, 0, 0))
            }
            for check in checks {
                let image = try await SocketHTTPClient.fetch(check.url)
                #expect(image.status == 200, "\(check.url)")
                #expect(isJPEG(image.body), "\(check.url)")
                #expect(image.header("Content-Type") == "image/jpeg")
                #expect(image.header("Content-Length") == String(image.body.count))
                #expect(image.header("Cache-Control") == "public, max-age=86400")
                if check.width > 0 {
                    let size = try #require(jpegDimensions(image.body))
                    #expect(size.width == check.width && size.height == check.height, "\(check.url)")
                }
            }
        }
    }

    @Test func everyDocumentedSizeIsItsOwnRenditionAndUnknownImagesAreMissing() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            let webformat = try await SocketHTTPClient.fetch("\(baseURL)/get/77-graffiti03_640.jpg")
            let large = try await SocketHTTPClient.fetch("\(baseURL)/get/77-graffiti03_1280.jpg")
            #expect(webformat.status == 200 && large.status == 200)
            #expect(webformat.body != large.body)
            // Pixabay's other sizes of webformatURL: 180 and 340 px tall, and within 960 x 720 px.
            for (size, width, height) in [(180, 270, 180), (340, 510, 340), (960, 960, 640)] {
                let image = try await SocketHTTPClient.fetch("\(baseURL)/get/77-graffiti03_\(size).jpg")
                let dimensions = try #require(jpegDimensions(image.body))
                #expect(image.status == 200 && dimensions.width == width && dimensions.height == height, "\(size)")
            }
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/photo/some-slug-77-city12_150.jpg").status == 200)

            let missing = [
                "/get/77-graffiti03_500.jpg", "/get/77-graffiti09_640.jpg", "/get/77-city13_640.jpg",
                "/get/77-city00_640.jpg", "/get/77-beach01_640.jpg", "/get/77-city01_640.png", "/get/city01_640.jpg",
                "/get/77-city01_+640.jpg", "/photo/77-city01_640.jpg/extra", "/nothing",
            ]
            for path in missing {
                let response = try await SocketHTTPClient.fetch(baseURL + path)
                #expect(response.status == 404, "\(path)")
                #expect(response.header("Content-Type")?.hasPrefix("text/plain") == true)
                #expect(response.header("Content-Length") == String(response.body.count))
            }
        }
    }
}
