import Foundation
import SampleAPI
import Testing

/// The JSON array `data` holds, as objects.
private func objects(_ data: Data) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
}

private func ids(_ data: Data) throws -> [Int] {
    try objects(data).compactMap { $0["id"] as? Int }
}

@Suite("JSONPlaceholder and seeded-image endpoints over HTTP")
struct JSONPlaceholderEndpointTests {
    @Test func theDataSetHasTheRealSizeAndShape() async throws {
        try await withServer { server in
            let base = await server.jsonPlaceholderEndpoint
            let users = try objects(try await SocketHTTPClient.fetch("\(base)/users").body)
            #expect(users.count == 10)
            #expect(users[0]["name"] as? String == "Leanne Graham" && users[0]["username"] as? String == "Bret")
            #expect(
                Set(users[0].keys)
                    == ["id", "name", "username", "email", "address", "phone", "website", "company"])
            let albums = try objects(try await SocketHTTPClient.fetch("\(base)/albums").body)
            #expect(albums.count == 100)
            #expect(albums[0]["title"] as? String == "quidem molestiae enim" && albums[0]["userId"] as? Int == 1)
            #expect(albums[99]["userId"] as? Int == 10)
            let photos = try objects(try await SocketHTTPClient.fetch("\(base)/photos").body)
            #expect(photos.count == 5_000)
            #expect(photos[0]["url"] as? String == "https://via.placeholder.com/600/92c952")
            #expect(photos[0]["thumbnailUrl"] as? String == "https://via.placeholder.com/150/92c952")
            #expect(Set(photos[4_999].keys) == ["albumId", "id", "title", "url", "thumbnailUrl"])
            let codes = photos.compactMap { ($0["url"] as? String)?.split(separator: "/").last.map(String.init) }
            #expect(codes.count == 5_000)
            #expect(codes.allSatisfy { $0.count <= 6 && !$0.isEmpty && $0.allSatisfy(\.isHexDigit) })
            #expect(codes.filter { $0.count < 6 }.count >= 20)
            // The same bytes on every request.
            #expect(
                try await SocketHTTPClient.fetch("\(base)/albums").body
                    == (try await SocketHTTPClient.fetch("\(base)/albums")).body)
        }
    }

    @Test func nestedRoutesAndFiltersAgree() async throws {
        try await withServer { server in
            let base = await server.jsonPlaceholderEndpoint
            let nested = try await SocketHTTPClient.fetch("\(base)/users/3/albums")
            let filtered = try await SocketHTTPClient.fetch("\(base)/albums?userId=3")
            #expect(nested.status == 200 && nested.header("Content-Type") == "application/json")
            #expect(nested.body == filtered.body)
            #expect(try ids(nested.body) == Array(21...30))
            let photos = try await SocketHTTPClient.fetch("\(base)/albums/2/photos")
            #expect(photos.body == (try await SocketHTTPClient.fetch("\(base)/photos?albumId=2")).body)
            #expect(try ids(photos.body) == Array(51...100))
            #expect(try objects(photos.body).allSatisfy { $0["albumId"] as? Int == 2 })
            #expect(try objects(try await SocketHTTPClient.fetch("\(base)/users/11/albums").body).isEmpty)
            #expect(try objects(try await SocketHTTPClient.fetch("\(base)/albums/101/photos").body).isEmpty)
            #expect(try ids(try await SocketHTTPClient.fetch("\(base)/users?id=4").body) == [4])
        }
    }

    @Test func pagesCarryALinkHeaderAndTheTotal() async throws {
        try await withServer { server in
            let base = await server.jsonPlaceholderEndpoint
            let page = try await SocketHTTPClient.fetch("\(base)/photos?albumId=1&_page=2&_limit=20")
            #expect(try ids(page.body) == Array(21...40))
            #expect(page.header("X-Total-Count") == "50")
            let link = try #require(page.header("Link"))
            #expect(
                link == "<\(base)/photos?_limit=20&_page=1&albumId=1>; rel=\"first\", "
                    + "<\(base)/photos?_limit=20&_page=1&albumId=1>; rel=\"prev\", "
                    + "<\(base)/photos?_limit=20&_page=3&albumId=1>; rel=\"next\", "
                    + "<\(base)/photos?_limit=20&_page=3&albumId=1>; rel=\"last\"")
            let last = try await SocketHTTPClient.fetch("\(base)/photos?albumId=1&_page=3&_limit=20")
            #expect(try ids(last.body) == Array(41...50))
            #expect(last.header("Link")?.contains("rel=\"next\"") == false)
            #expect(last.header("Link")?.contains("rel=\"prev\"") == true)
            let defaultLimit = try await SocketHTTPClient.fetch("\(base)/users?_page=1")
            #expect(try ids(defaultLimit.body).count == 10 && defaultLimit.header("Link") == nil)
            #expect(try ids(try await SocketHTTPClient.fetch("\(base)/albums?_page=99").body).isEmpty)
        }
    }

    @Test func startEndAndLimitSlice() async throws {
        try await withServer { server in
            let base = await server.jsonPlaceholderEndpoint
            #expect(try ids(try await SocketHTTPClient.fetch("\(base)/albums?_start=5&_end=8").body) == [6, 7, 8])
            #expect(
                try ids(try await SocketHTTPClient.fetch("\(base)/albums?_start=95&_limit=10").body) == Array(96...100))
            let limited = try await SocketHTTPClient.fetch("\(base)/photos?_limit=3")
            #expect(try ids(limited.body) == [1, 2, 3] && limited.header("X-Total-Count") == "5000")
            #expect(try ids(try await SocketHTTPClient.fetch("\(base)/albums?_start=200&_end=300").body).isEmpty)
        }
    }

    @Test func squareSeededImagesAreStableJPEGsOfTheNearestRendition() async throws {
        try await withServer { server in
            let base = await server.baseURL
            let tile = try await SocketHTTPClient.fetch("\(base)/seed/92c952/150")
            #expect(tile.status == 200 && isJPEG(tile.body) && tile.header("Content-Type") == "image/jpeg")
            let size = try #require(jpegDimensions(tile.body))
            #expect(max(size.width, size.height) == 150)
            #expect(try await SocketHTTPClient.fetch("\(base)/seed/92c952/150").body == tile.body)
            let full = try #require(jpegDimensions(try await SocketHTTPClient.fetch("\(base)/seed/92c952/600").body))
            #expect(max(full.width, full.height) == 640)
            let sized = try #require(
                jpegDimensions(try await SocketHTTPClient.fetch("\(base)/seed/92c952/800/600").body))
            #expect(max(sized.width, sized.height) == 1280)
            let others = try await SocketHTTPClient.fetchAll((1...30).map { "\(base)/seed/c\($0)/150" })
            #expect(Set(others.map(\.body)).count > 5)
            for bad in ["/seed/x/0", "/seed/x/5001", "/seed/x/abc", "/seed/x/10/-3"] {
                let response = try await SocketHTTPClient.fetch(base + bad)
                #expect(response.status == 400 && response.text == "Invalid size", "\(bad)")
            }
        }
    }

    @Test func faultsTargetTheListsAndTheSeededImages() async throws {
        let faults = [
            try SampleAPIFault.parse("albums:503:1"), try SampleAPIFault.parse("images:404:1"),
        ]
        try await withServer(SampleAPIConfiguration(faults: faults)) { server in
            let base = await server.baseURL
            var statuses: [Int] = []
            for path in ["/users/1/albums", "/users/1/albums", "/seed/abc/150", "/seed/abc/150", "/users/bret-1/"] {
                statuses.append(try await SocketHTTPClient.fetch(base + path).status)
            }
            #expect(statuses == [503, 200, 404, 200, 200])
            #expect(server.injectedFaultCounts() == [1, 1])
        }
    }
}
