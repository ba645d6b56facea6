import Foundation
import Testing

@testable import SampleAPI

private let token = SampleAPIServer.openverseDemoToken
private let bearer = ["Authorization": "Bearer \(token)"]
private let pageMembers = ["result_count", "page_count", "page_size", "page", "results"]
private let resultMembers = [
    "id", "title", "indexed_on", "foreign_landing_url", "url", "creator", "creator_url", "license", "license_version",
    "license_url", "provider", "source", "category", "filesize", "filetype", "tags", "attribution", "fields_matched",
    "mature", "height", "width", "thumbnail", "detail_url", "related_url", "unstable__sensitivity",
]

/// Openverse's image search and images over HTTP: the answer's shape, paging, license filters, the anonymous limits
/// and the token that lifts them, the throttle, the images and the fault rules.
@Suite("Openverse routes over HTTP")
struct OpenverseRoutesTests {
    private func search(_ server: SampleAPIServer, _ query: String, headers: [String: String] = [:]) async throws
        -> HTTPExchange
    {
        try await SocketHTTPClient.fetch("\(await server.openverseEndpoint)v1/images/?\(query)", headers: headers)
    }

    private func object(_ response: HTTPExchange) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    private func page(_ response: HTTPExchange) throws -> OpenverseSearchPage {
        try JSONDecoder().decode(OpenverseSearchPage.self, from: response.body)
    }

    /// The keys of a JSON object's text in the order written, for an object whose values hold no `"key":` of their own.
    private func memberOrder(_ text: Substring) -> [String] {
        text.matches(of: #/"([a-z_]+)":/#).map { String($0.output.1) }
    }

    @Test func theAnswerHasEveryMemberInOpenversesOrderAndTypes() async throws {
        try await withServer { server in
            let response = try await search(server, "q=hafen")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            let body = try object(response)
            #expect(Set(body.keys) == Set(pageMembers))
            #expect(memberOrder(response.text[...]).prefix(4) == ["result_count", "page_count", "page_size", "page"])
            let results = try #require(body["results"] as? [[String: Any]])
            #expect(results.count == 20)
            let nullable: Set = ["title", "creator", "creator_url", "license_version", "license_url", "category"]
            for result in results {
                #expect(Set(result.keys) == Set(resultMembers))
                for member in resultMembers {
                    let value = result[member]
                    switch member {
                    case "tags":
                        let tags = try #require(value as? [[String: Any]])
                        #expect(tags.allSatisfy { Set($0.keys) == ["accuracy", "name"] && $0["name"] is String })
                        #expect(tags.allSatisfy { $0["accuracy"] is NSNull || isNumber($0["accuracy"]) })
                    case "fields_matched": #expect(value as? [String] == ["title"])
                    case "unstable__sensitivity": #expect(value is [String])
                    case "mature": #expect(value is NSNumber)
                    case "height", "width": #expect(isNumber(value) && (value as? Int ?? 0) > 0)
                    case "filesize": #expect(value is NSNull || isNumber(value))
                    case _ where nullable.contains(member): #expect(value is NSNull || isString(value))
                    default: #expect(isString(value), "\(member)")
                    }
                }
            }
            let first = try #require(response.text.range(of: #"{"id":"#))
            let second = try #require(response.text[first.upperBound...].range(of: #"{"id":"#))
            let firstResult = response.text[first.lowerBound..<second.lowerBound]
            #expect(memberOrder(firstResult).filter { $0 != "accuracy" && $0 != "name" } == resultMembers)
            #expect(response.text.contains(#"{"accuracy":null,"name":"hafen"}"#))
            #expect(response.text.matches(of: #/"mature":true,/#).count == 2)
            #expect(response.text.matches(of: #/"mature":false,/#).count == 18)
            let decoded = try page(response)
            let baseURL = await server.baseURL
            let expected = (0..<20).map { OpenverseCatalog().result(at: $0, for: "hafen", baseURL: baseURL) }
            #expect(decoded.results == expected)
            #expect(try await search(server, "q=hafen").body == response.body, "the same request, the same bytes")
            #expect(try await search(server, "q=hafen&mature=false").body == response.body, "mature is ignored")
        }
    }

    @Test func pagesCountTheResults() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.openverseCounts = ["kran": 7, "": 25]
        try await withServer(configuration) { server in
            let first = try page(try await search(server, "q=hafen"))
            #expect((first.resultCount, first.pageCount, first.pageSize, first.page) == (60, 3, 20, 1))
            let third = try page(try await search(server, "q=hafen&page=3"))
            #expect(third.page == 3 && third.results.count == 20)
            #expect(Set(first.results.map(\.id)).isDisjoint(with: third.results.map(\.id)))
            let small = try page(try await search(server, "q=hafen&page_size=7&page=9"))
            #expect((small.resultCount, small.pageCount, small.pageSize, small.results.count) == (60, 9, 7, 4))
            #expect(small.results == Array(third.results.suffix(4)))
            let beyond = try await search(server, "q=hafen&page=4")
            #expect(beyond.status == 400)
            #expect(try object(beyond)["detail"] as? String == "Invalid page number.")
            let kran = try page(try await search(server, "q=Kran"))
            #expect((kran.resultCount, kran.pageCount, kran.results.count) == (7, 1, 7))
            let recent = try page(try await search(server, "page_size=20&page=2"))
            #expect((recent.resultCount, recent.pageCount, recent.results.count) == (25, 2, 5))
            #expect(try await search(server, "q=&page=2").body == (try await search(server, "page=2")).body)
            for (query, member, sentence) in [
                ("page_size=0", "page_size", "Ensure this value is greater than or equal to 1."),
                ("page_size=many", "page_size", "A valid integer is required."),
                ("page=0", "page", "Ensure this value is greater than or equal to 1."),
                ("page=x", "page", "A valid integer is required."),
            ] {
                let refused = try await search(server, "q=hafen&\(query)")
                #expect(refused.status == 400, "\(query)")
                #expect(try object(refused)[member] as? [String] == [sentence], "\(query)")
            }
        }
    }

    @Test func licenseFiltersKeepOnlyTheirLicenses() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.openverseCounts = ["hafen": 200]
        try await withServer(configuration) { server in
            let licenses = (0..<200).map { OpenverseCatalog.license(at: $0, for: "hafen") }
            let filters: [(query: String, kept: Set<String>)] = [
                ("license=by,cc0", ["by", "cc0"]), ("license=BY-NC-SA", ["by-nc-sa"]),
                ("license_type=commercial", ["by", "by-sa", "by-nd", "cc0", "pdm"]),
                ("license_type=modification", ["by", "by-sa", "by-nc", "by-nc-sa", "cc0", "pdm"]),
                ("license_type=commercial,modification", ["by", "by-sa", "cc0", "pdm"]),
                ("license=by-nd,pdm&license_type=modification", ["pdm"]),
            ]
            for (query, kept) in filters {
                let answer = try page(try await search(server, "q=hafen&page_size=500&\(query)", headers: bearer))
                #expect(answer.resultCount == licenses.filter(kept.contains).count, "\(query)")
                #expect(answer.results.count == answer.resultCount, "\(query)")
                #expect(answer.results.allSatisfy { kept.contains($0.license) }, "\(query)")
                #expect(Set(answer.results.map(\.license)) == kept, "\(query)")
            }
            let unfiltered = try page(try await search(server, "q=hafen&page_size=500", headers: bearer))
            #expect(unfiltered.resultCount == 200)
            #expect(unfiltered.results.contains { $0.license == OpenverseCatalog.unknownLicense })
            let nothing = try page(try await search(server, "q=hafen&license=cc-by"))
            #expect((nothing.resultCount, nothing.pageCount, nothing.results.count) == (0, 0, 0))
        }
    }

    @Test func anonymousUseIsLimitedAndTheTokenLiftsTheLimits() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.openverseCounts = ["deep": 1_000]
        try await withServer(configuration) { server in
            let wide = try await search(server, "q=hafen&page_size=21")
            #expect(wide.status == 401)
            #expect(
                try object(wide)["detail"] as? String
                    == "Anonymous API requests are limited to a maximum page size of 20.")
            let deep = try page(try await search(server, "q=deep&page=20"))
            #expect((deep.resultCount, deep.pageCount, deep.results.count) == (1_000, 20, 20))
            let tooDeep = try await search(server, "q=deep&page=21")
            #expect(tooDeep.status == 400)
            #expect(try object(tooDeep)["detail"] as? String == "Invalid page number.")

            let fifty = try page(try await search(server, "q=hafen&page_size=50", headers: bearer))
            #expect((fifty.resultCount, fifty.pageCount, fifty.pageSize, fifty.results.count) == (60, 2, 50, 50))
            let deepWithToken = try page(try await search(server, "q=deep&page=21", headers: bearer))
            #expect((deepWithToken.pageCount, deepWithToken.results.count) == (50, 20))
            let widest = try await search(server, "q=hafen&page_size=501", headers: bearer)
            #expect(widest.status == 400)
            #expect(try object(widest)["page_size"] as? [String] == ["Ensure this value is less than or equal to 500."])
            #expect(try await search(server, "q=hafen&page_size=500", headers: bearer).status == 200)

            for header in ["Bearer nope", "Bearer ", "bearer \(token)x"] {
                let wrong = try await search(server, "q=hafen", headers: ["Authorization": header])
                #expect(wrong.status == 401, "\(header)")
                #expect(try object(wrong)["detail"] as? String == "Invalid token.", "\(header)")
            }
            #expect(try await search(server, "q=hafen", headers: ["Authorization": "bearer \(token)"]).status == 200)
        }
    }

    @Test func anonymousSearchesAreThrottled() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.openverseRateLimit = 3
        let start = ContinuousClock.now
        let router = SampleAPIRouter(configuration: configuration)
        func ask(at seconds: Int, headers: [String: String] = [:]) -> SampleAPIResponse {
            let request = SampleAPIRequest(method: "GET", path: "/v1/images/", query: ["q": "hafen"], headers: headers)
            return router.respond(to: request, baseURL: "http://127.0.0.1:1", now: start + .seconds(seconds))
        }
        let allowed = (0..<3).map { ask(at: $0) }
        #expect(allowed.map(\.status) == [200, 200, 200])
        #expect(allowed.map { $0.headers["X-RateLimit-Available-anon_burst"] } == ["2", "1", "0"])
        #expect(allowed[0].headers["X-RateLimit-Limit-anon_burst"] == "3/min")
        let throttled = ask(at: 20)
        #expect(throttled.status == 429)
        #expect(throttled.headers["Retry-After"] == "40")
        #expect(throttled.headers["X-RateLimit-Available-anon_burst"] == "0")
        #expect(
            String(decoding: throttled.body, as: UTF8.self)
                == #"{"detail":"Request was throttled. Expected available in 40 seconds."}"#)
        #expect(String(decoding: ask(at: 59).body, as: UTF8.self).hasSuffix("available in 1 second.\"}"))
        #expect(ask(at: 30, headers: ["authorization": "Bearer \(token)"]).status == 200, "a token is not throttled")
        #expect(ask(at: 30, headers: ["authorization": "Bearer wrong"]).status == 401)
        #expect(ask(at: 60).status == 200, "a new minute")

        var unlimited = SampleAPIConfiguration()
        unlimited.openverseRateLimit = 0
        let free = SampleAPIRouter(configuration: unlimited)
        let request = SampleAPIRequest(method: "GET", path: "/v1/images/", query: [:])
        #expect((0..<50).allSatisfy { _ in free.respond(to: request, baseURL: "", now: start).status == 200 })
    }

    @Test func throttledAnswersCarryRetryAfterOnTheWire() async throws {
        var configuration = SampleAPIConfiguration()
        configuration.openverseRateLimit = 2
        let start = ContinuousClock.now
        configuration.now = { start }
        try await withServer(configuration) { server in
            #expect(try await search(server, "q=a").status == 200)
            #expect(try await search(server, "q=b").header("X-RateLimit-Available-anon_burst") == "0")
            let throttled = try await search(server, "q=c")
            #expect(throttled.status == 429 && throttled.header("Retry-After") == "60")
            #expect(throttled.header("Content-Type") == "application/json")
            #expect(
                try object(throttled)["detail"] as? String
                    == "Request was throttled. Expected available in 60 seconds.")
        }
    }

    @Test func imagesAreServedAsJPEGsOfTheirSizes() async throws {
        try await withServer { server in
            let answer = try page(try await search(server, "q=hafen&page_size=20"))
            let images = SampleImages.bundled
            var checks: [(url: String, width: Int, height: Int)] = []
            for result in answer.results {
                let picture = try #require(OpenverseCatalog.picture(forID: result.id))
                let thumbnail = try #require(images.image(theme: picture.theme, number: picture.number, size: 640))
                checks.append((result.thumbnail, thumbnail.width, thumbnail.height))
                if result.url != OpenverseCatalog.foreignImageURL {
                    checks.append((result.url, result.width, result.height))
                }
            }
            #expect(checks.count == 39)
            try await expectJPEGs(checks)

            let baseURL = await server.baseURL
            let id = answer.results[0].id
            let head = try await SocketHTTPClient.fetch(answer.results[0].url, method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Type") == "image/jpeg")
            let thumbnailID = ThumbnailCatalog().coverage(at: 0, baseURL: "").thumbnail.id.dropFirst(4)
            for path in [
                "/openverse/images/\(id).png", "/openverse/images/\(id)", "/openverse/images/\(thumbnailID).jpg",
                "/openverse/images/00000000-0000-4000-8000-100000000000.jpg", "/v1/images/\(id)/thumbnail/",
                "/v1/images/\(id.uppercased())/thumb/", "/v1/images/x/thumb/", "/v1/images/\(id)/",
            ] {
                #expect(try await SocketHTTPClient.fetch(baseURL + path).status == 404, "\(path)")
            }
        }
    }

    @Test func faultRulesTargetTheSearchAndItsImages() async throws {
        let faults = [
            try SampleAPIFault.parse("openverse,q=kran:503:1"), try SampleAPIFault.parse("openverse:truncate:1"),
            try SampleAPIFault.parse("images:502:2"),
        ]
        try await withServer(SampleAPIConfiguration(faults: faults)) { server in
            #expect(try await search(server, "q=hafen+kran").status == 503)
            let truncated = try await search(server, "q=hafen")
            let whole = try await search(server, "q=hafen")
            #expect(truncated.failure == .truncated(missing: whole.body.count - whole.body.count / 2))
            #expect(whole.status == 200 && whole.failure == nil)
            let result = try #require(try page(whole).results.first)
            #expect(try await SocketHTTPClient.fetch(result.url).status == 502)
            #expect(try await SocketHTTPClient.fetch(result.thumbnail).status == 502)
            #expect(try await SocketHTTPClient.fetch(result.url).status == 200)
            #expect(server.injectedFaultCounts() == [1, 1, 2])
            let index = try await SocketHTTPClient.fetch("\(await server.baseURL)/")
            #expect(index.text.contains("GET /v1/images/?q=TERM") && index.text.contains("/openverse/images/{id}.jpg"))
        }
    }
}
