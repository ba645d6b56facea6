import Foundation
import SampleAPI
import Testing

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

@Suite("Sample API over HTTP")
struct SampleAPIServerTests {
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

    @Test func rateLimitHeadersAndTooManyRequests() async throws {
        try await withServer(SampleAPIConfiguration(rateLimit: 3)) { server in
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

    @Test func rateLimitWindowResets() async throws {
        // A window of 20 s: the second request comes within it even on a busy machine.
        try await withServer(SampleAPIConfiguration(rateLimit: 1, rateWindowSeconds: 20)) { server in
            let url = "\(await server.pixabayEndpoint)?key=\(key)&per_page=3"
            #expect(try await SocketHTTPClient.fetch(url).status == 200)
            let limited = try await SocketHTTPClient.fetch(url)
            #expect(limited.status == 429)
            let reset = try #require(limited.header("X-RateLimit-Reset").flatMap { Int($0) })
            #expect((1...20).contains(reset))
            try await Task.sleep(for: .milliseconds(reset * 1000 + 200))
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

    @Test func documentedSizeSwapsAndUnknownImages() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            let webformat = try await SocketHTTPClient.fetch("\(baseURL)/get/77-graffiti03_640.jpg")
            let large = try await SocketHTTPClient.fetch("\(baseURL)/get/77-graffiti03_1280.jpg")
            #expect(webformat.status == 200 && large.status == 200)
            #expect(webformat.body != large.body)
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/get/77-graffiti03_180.jpg").body == webformat.body)
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/get/77-graffiti03_340.jpg").body == webformat.body)
            #expect(try await SocketHTTPClient.fetch("\(baseURL)/get/77-graffiti03_960.jpg").body == large.body)
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

    @Test func headReportsLengthWithoutBody() async throws {
        try await withServer { server in
            let url = "\(await server.baseURL)/get/5-city02_1280.jpg"
            let full = try await SocketHTTPClient.fetch(url)
            // A body after the head of the HEAD response would be read as the head of the GET's.
            let exchanges = try await SocketHTTPClient.exchangesOnOneConnection([
                .init(method: "HEAD", url: url), .init(url: url),
            ])
            let head = try #require(exchanges.first)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(full.body.count))
            #expect(head.head.hasPrefix("HTTP/1.1 200"))
            #expect(head.head.hasSuffix("\r\n\r\n"))
            #expect(head.body.isEmpty)
            #expect(exchanges.count == 2 && exchanges[1].status == 200 && exchanges[1].body == full.body)
            let post = try await SocketHTTPClient.fetch(url, method: "POST")
            #expect(post.status == 405)
        }
    }

    @Test func connectionsAreKeptAlive() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            let exchanges = try await SocketHTTPClient.exchangesOnOneConnection(
                [
                    "\(baseURL)/api/?key=\(key)&q=hamburg", "\(baseURL)/get/1-city01_640.jpg",
                    "\(baseURL)/api/?key=wrong",
                ]
                .map { .init(url: $0) })
            #expect(exchanges.map(\.reusedConnection) == [false, true, true])
            #expect(exchanges.allSatisfy { $0.failure == nil && $0.status != 0 })
            #expect(exchanges.allSatisfy { $0.header("Connection")?.lowercased() != "close" })
            #expect(server.requests().count == 3)
        }
    }

    /// FlyingFox sends a response's head and body in two writes; with Nagle's algorithm on, the body waits for the
    /// client's delayed ACK of the head, about 40 ms on every request of a kept-alive connection.
    @Test func acceptedConnectionsSendSmallWritesAtOnce() async throws {
        try await withServer { server in
            let port = await server.port
            let client = try ConnectedClientSocket(port: port)
            defer { client.close() }
            let deadline = ContinuousClock.now + .seconds(30)
            var accepted: [Int32] = []
            while accepted.isEmpty && ContinuousClock.now < deadline {
                accepted = AcceptedSockets.descriptors(localPort: port, peerPort: client.localPort)
                if accepted.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
            }
            try #require(accepted.count == 1)
            #expect(AcceptedSockets.noDelay(accepted[0]) == true)
        }
    }

    @Test func requestLogRecordsDecodedRequestsInOrder() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            #expect(server.requests().isEmpty)
            _ = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=hamburg+graffiti&page=2&per_page=3")
            _ = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=m%C3%BCnchen%20a%26b%3Dc")
            _ = try await SocketHTTPClient.fetch("\(baseURL)/photo/1-city01_150.jpg")
            _ = try await SocketHTTPClient.fetch("\(baseURL)/")
            let log = server.requests()
            #expect(log.count == 4)
            let first = try #require(log.first)
            #expect(
                SampleAPIRequest(method: first.method, path: first.path, query: first.query)
                    == SampleAPIRequest(
                        method: "GET",
                        path: "/api/",
                        query: ["key": key, "q": "hamburg graffiti", "page": "2", "per_page": "3"]
                    )
            )
            #expect(first.headers["host"] == String(baseURL.dropFirst("http://".count)))
            #expect(log.dropFirst().first?.query["q"] == "münchen a&b=c")
            #expect(log.map(\.path) == ["/api/", "/api/", "/photo/1-city01_150.jpg", "/"])
            #expect(log.allSatisfy { $0.method == "GET" })
            server.resetRequests()
            #expect(server.requests().isEmpty)
            _ = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)")
            #expect(server.requests().count == 1)
        }
    }

    @Test func requestLogIsSafeUnderConcurrentClients() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=load+\(index)").status
                    }
                }
                for try await status in group {
                    #expect(status == 200)
                }
            }
            #expect(server.requests().count == 12)
            #expect(Set(server.requests().compactMap { $0.query["q"] }).count == 12)
        }
    }

    @Test func indexAndStandInPages() async throws {
        try await withServer { server in
            let baseURL = await server.baseURL
            let index = try await SocketHTTPClient.fetch("\(baseURL)/")
            #expect(index.status == 200)
            #expect(index.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(index.text.contains("/api/"))

            let search = try await SocketHTTPClient.fetch("\(baseURL)/api/?key=\(key)&q=hamburg&per_page=3")
            let hit = try #require(try JSONDecoder().decode(PixabaySearchResult.self, from: search.body).hits.first)
            for url in [hit.pageURL, hit.userURL] {
                let page = try await SocketHTTPClient.fetch(url)
                #expect(page.status == 200)
                #expect(page.header("Content-Type")?.hasPrefix("text/html") == true)
                #expect(page.header("Content-Length") == String(page.body.count))
                #expect(page.text.contains("stands for"))
                #expect(page.text.contains("Pixabay"))
            }
        }
    }

    @Test func stopFreesThePort() async throws {
        let server = SampleAPIServer()
        try await server.start()
        let port = await server.port
        #expect(port != 0)
        #expect(try await SocketHTTPClient.fetch("http://127.0.0.1:\(port)/").status == 200)
        await server.stop()

        let refused = try await SocketHTTPClient.fetch("http://127.0.0.1:\(port)/")
        #expect(refused.failure == .connectionRefused)

        let successor = SampleAPIServer()
        try await successor.start(port: port)
        #expect(await successor.port == port)
        #expect(try await SocketHTTPClient.fetch("http://127.0.0.1:\(port)/").status == 200)
        await successor.stop()

        try await server.start(port: port)
        #expect(try await SocketHTTPClient.fetch("http://127.0.0.1:\(port)/").status == 200)
        await server.stop()
    }

    @Test func startingTwiceOrOnABusyPortFails() async throws {
        try await withServer { server in
            await #expect(throws: SampleAPIServerError.alreadyRunning) {
                try await server.start()
            }
            let rival = SampleAPIServer()
            await #expect(throws: (any Error).self) {
                try await rival.start(port: await server.port)
            }
            let stillServing = try await SocketHTTPClient.fetch("\(await server.baseURL)/")
            #expect(stillServing.status == 200)
        }
    }

    @Test func customKeyIsRequired() async throws {
        try await withServer(SampleAPIConfiguration(apiKey: "custom")) { server in
            let endpoint = await server.pixabayEndpoint
            let custom = try await SocketHTTPClient.fetch("\(endpoint)?key=custom")
            let demo = try await SocketHTTPClient.fetch("\(endpoint)?key=\(key)")
            #expect(custom.status == 200)
            #expect(demo.status == 400)
        }
    }
}

/// A TCP connection to 127.0.0.1 that sends nothing, held open while a test looks at the server's end of it.
private struct ConnectedClientSocket {
    let descriptor: Int32
    let localPort: UInt16

    struct ConnectFailed: Error { let errno: Int32 }

    init(port: UInt16) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else { throw ConnectFailed(errno: errno) }
        self.descriptor = descriptor
        localPort = AcceptedSockets.port(of: descriptor, peer: false) ?? 0
    }

    func close() { Glibc.close(descriptor) }
}

/// The server's ends of connections, found among this process's file descriptors.
private enum AcceptedSockets {
    static func descriptors(localPort: UInt16, peerPort: UInt16) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter {
            port(of: $0, peer: false) == localPort && port(of: $0, peer: true) == peerPort
        }
    }

    static func port(of descriptor: Int32, peer: Bool) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)
            }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return UInt16(bigEndian: address.sin_port)
    }

    static func noDelay(_ descriptor: Int32) -> Bool? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0 else { return nil }
        return value != 0
    }
}
