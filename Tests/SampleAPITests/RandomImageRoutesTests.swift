import Foundation
import SampleAPI
import Testing

/// The sample Lorem Picsum and Unsplash routes, over HTTP.
@Suite("Lorem Picsum and Unsplash routes")
struct RandomImageRoutesTests {
    static let key = "unsplash-key-4242"

    func json(_ response: HTTPExchange) -> Any? {
        try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])
    }

    @Test func picsumListPagesWithALinkHeaderAndEndsWithAnEmptyArray() async throws {
        try await withServer { server in
            let base = await server.baseURL
            let first = try await SocketHTTPClient.fetch("\(base)/v2/list?page=1&limit=8")
            let items = try #require(json(first) as? [[String: Any]])
            #expect(first.status == 200 && items.count == 8)
            #expect(items.allSatisfy { $0["id"] is String && $0["width"] is Int && $0["author"] is String })
            #expect(first.header("Link")?.contains("page=2&limit=8>; rel=\"next\"") == true)
            let ids = Set(items.compactMap { $0["id"] as? String })
            #expect(ids.count == 8 && ids.contains("1000") && !ids.contains("7"))
            let capped = try await SocketHTTPClient.fetch("\(base)/v2/list?limit=500")
            #expect((json(capped) as? [Any])?.count == 20)
            let past = try await SocketHTTPClient.fetch("\(base)/v2/list?page=9&limit=30")
            #expect(past.status == 200 && past.text == "[]")
            #expect(past.header("Link")?.contains("rel=\"prev\"") == true)
        }
    }

    @Test func picsumInfoBySeedIsStableAndByIDMatchesTheList() async throws {
        try await withServer { server in
            let base = await server.baseURL
            let a = try await SocketHTTPClient.fetch("\(base)/seed/hamburg/info")
            let b = try await SocketHTTPClient.fetch("\(base)/seed/hamburg/info")
            #expect(a.status == 200 && a.text == b.text)
            let info = try #require(json(a) as? [String: Any])
            let id = try #require(info["id"] as? String)
            let byID = try await SocketHTTPClient.fetch("\(base)/id/\(id)/info")
            #expect(byID.text == a.text)
            #expect((info["download_url"] as? String)?.hasPrefix("\(base)/id/\(id)/") == true)
            let missing = try await SocketHTTPClient.fetch("\(base)/id/7/info")
            #expect(missing.status == 404 && missing.text == "Image does not exist")
            let asJSON = try await SocketHTTPClient.fetch("\(base)/id/7/info", headers: ["Accept": "application/json"])
            #expect(asJSON.status == 404 && asJSON.text == #"{"error":"Image does not exist"}"#)
        }
    }

    @Test func picsumImagesCarryTheirIDAndRefuseSizesAbove5000() async throws {
        try await withServer { server in
            let base = await server.baseURL
            let image = try await SocketHTTPClient.fetch("\(base)/id/1003/300/200")
            #expect(image.status == 200 && isJPEG(image.body) && image.header("Picsum-ID") == "1003")
            #expect(jpegDimensions(image.body).map { max($0.width, $0.height) } == 640)
            let large = try await SocketHTTPClient.fetch("\(base)/seed/abc/1920/1280")
            #expect(large.status == 200 && jpegDimensions(large.body).map { max($0.width, $0.height) } == 1280)
            for path in ["/id/1003/5001/10", "/seed/abc/10/9999", "/6000/100", "/0/100"] {
                let refused = try await SocketHTTPClient.fetch(base + path)
                #expect(refused.status == 400 && refused.text == "Invalid size", "\(path)")
            }
        }
    }

    @Test func picsumRandomRedirectsToAStableImageWithItsID() async throws {
        try await withServer { server in
            let base = await server.baseURL
            let first = try await SocketHTTPClient.fetch("\(base)/400/300")
            #expect(first.status == 302)
            let location = try #require(first.header("Location"))
            let id = try #require(captures(#"http://127\.0\.0\.1:\d+/id/(\d+)/400/300"#, in: location)?.first)
            let followed = try await SocketHTTPClient.fetch("\(base)/400/300", followingRedirects: 10)
            #expect(followed.status == 200 && isJPEG(followed.body))
            let shown = try #require(followed.header("Picsum-ID"))
            #expect(shown != id, "two random requests in a row give two photos")
        }
    }

    @Test func unsplashRandomNeedsTheKeyInTheHeaderAndCountsTheRateLimit() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.unsplashKey = Self.key
        configuration.unsplashRateLimit = 3
        try await withServer(configuration) { server in
            let url = "\(await server.unsplashEndpoint)photos/random"
            let auth = ["Authorization": "Client-ID \(Self.key)", "Accept-Version": "v1"]
            let none = try await SocketHTTPClient.fetch(url)
            #expect(none.status == 401)
            #expect(
                (json(none) as? [String: Any])?["errors"] as? [String] == ["OAuth error: The access token is invalid"])
            let wrong = try await SocketHTTPClient.fetch(url, headers: ["Authorization": "Client-ID nope"])
            #expect(wrong.status == 401)
            let one = try await SocketHTTPClient.fetch(url, headers: auth)
            #expect(one.status == 200 && one.header("X-Ratelimit-Limit") == "3")
            #expect(one.header("X-Ratelimit-Remaining") == "2")
            let photo = try #require(json(one) as? [String: Any])
            #expect(photo["id"] is String && photo["urls"] is [String: Any] && photo["user"] is [String: Any])
            let three = try await SocketHTTPClient.fetch(url + "?count=3", headers: auth)
            #expect((json(three) as? [[String: Any]])?.count == 3)
            let tooMany = try await SocketHTTPClient.fetch(url + "?count=31", headers: auth)
            #expect(tooMany.status == 400 && tooMany.text.contains("count must be between 1 and 30"))
            let spent = try await SocketHTTPClient.fetch(url, headers: auth)
            #expect(spent.status == 403 && spent.text == "Rate Limit Exceeded")
            #expect(spent.header("X-Ratelimit-Remaining") == "0")
        }
    }

    @Test func unsplashPhotosAreNullHeavyAndTheirImagesAndDownloadLocationWork() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.unsplashKey = Self.key
        try await withServer(configuration) { server in
            let auth = ["Authorization": "Client-ID \(Self.key)"]
            let answer = try await SocketHTTPClient.fetch(
                "\(await server.unsplashEndpoint)photos/random?count=20", headers: auth)
            let photos = try #require(json(answer) as? [[String: Any]])
            #expect(Set(photos.compactMap { $0["id"] as? String }).count == 20)
            #expect(photos.contains { $0["description"] is NSNull } && photos.contains { $0["description"] is String })
            #expect(photos.contains { ($0["exif"] as? [String: Any])?["make"] is NSNull })
            #expect(photos.contains { $0["alt_description"] is NSNull })
            let photo = try #require(photos.first)
            let urls = try #require(photo["urls"] as? [String: String])
            let small = try await SocketHTTPClient.fetch(try #require(urls["small"]))
            #expect(small.status == 200 && jpegDimensions(small.body).map { max($0.width, $0.height) } == 640)
            let raw = try await SocketHTTPClient.fetch(try #require(urls["raw"]))
            #expect(jpegDimensions(raw.body).map { max($0.width, $0.height) } == 1280)
            let links = try #require(photo["links"] as? [String: String])
            let location = try #require(links["download_location"])
            server.resetRequests()
            #expect(try await SocketHTTPClient.fetch(location).status == 401)
            let download = try await SocketHTTPClient.fetch(location, headers: auth)
            #expect(download.status == 200 && (json(download) as? [String: String])?["url"] != nil)
            let hits = server.requests().filter { $0.path.hasSuffix("/download") }
            #expect(hits.count == 2 && hits.last?.headers["authorization"] == "Client-ID \(Self.key)")
            #expect(
                try await SocketHTTPClient.fetch("\(await server.unsplashEndpoint)photos/nope/download", headers: auth)
                    .status == 404)
        }
    }

    @Test func faultTargetsNameThePicsumAndUnsplashRoutes() throws {
        let picsum = try SampleAPIFault.parse("picsum:503")
        let unsplash = try SampleAPIFault.parse("unsplash:500:1")
        let images = try SampleAPIFault.parse("images:404")
        func request(_ path: String) -> SampleAPIRequest { SampleAPIRequest(method: "GET", path: path, query: [:]) }
        #expect(picsum.matches(request("/seed/x/info")) && picsum.matches(request("/v2/list")))
        #expect(picsum.matches(request("/400/300")) && !picsum.matches(request("/id/1/400/300")))
        #expect(images.matches(request("/id/1/400/300")) && images.matches(request("/unsplash-images/photo-1-x")))
        #expect(!images.matches(request("/id/1/info")))
        #expect(unsplash.matches(request("/unsplash/photos/random")) && !unsplash.matches(request("/api/")))
        #expect(picsum.description == "picsum:503" && unsplash.description == "unsplash:500:1")
    }
}
