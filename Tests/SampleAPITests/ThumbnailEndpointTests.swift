import Foundation
import SampleAPI
import Testing

private let key = SampleAPIServer.demoKey
private let coverageKeys: Set<String> = [
    "id", "title", "language", "thumbnail", "mediaType", "coverageURL", "publishedAt", "publishedBy",
]
private let optionalCoverageKeys: Set<String> = ["backupDetails", "description", "seoSlugWithId"]
private let thumbnailKeys: Set<String> = [
    "id", "version", "domain", "basePath", "key", "qualities", "aspectRatio",
]

@Suite("Media-coverage endpoints over HTTP")
struct ThumbnailEndpointTests {
    @Test func thumbnailListIsATopLevelArray() async throws {
        try await withServer { server in
            let endpoint = await server.thumbnailsEndpoint
            let baseURL = await server.baseURL
            let response = try await SocketHTTPClient.fetch("\(endpoint)?limit=100")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Content-Length") == String(response.body.count))
            let array = try #require(try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]])
            #expect(array.count == 100)
            for element in array {
                let keys = Set(element.keys)
                #expect(keys.isSuperset(of: coverageKeys))
                #expect(keys.subtracting(coverageKeys).isSubset(of: optionalCoverageKeys))
                let strings = ["id", "title", "language", "coverageURL", "publishedAt", "publishedBy"]
                #expect(strings.allSatisfy { isString(element[$0]) })
                #expect(isNumber(element["mediaType"]))
                let thumbnail = try #require(element["thumbnail"] as? [String: Any])
                #expect(Set(thumbnail.keys) == thumbnailKeys)
                #expect(isNumber(thumbnail["version"]) && isNumber(thumbnail["aspectRatio"]))
                #expect(thumbnail["qualities"] is [Any])
                if let backup = element["backupDetails"] as? [String: Any] {
                    #expect(Set(backup.keys) == ["pdfLink", "screenshotURL"])
                }
            }
            let ratios = response.text.matches(of: #/"aspectRatio":([0-9.eE+-]+)/#).map { String($0.output.1) }
            #expect(ratios.count == 100 && ratios.allSatisfy { captures(#"\d\.\d{1,3}"#, in: $0) != nil })
            #expect(response.text.contains(#""qualities":[]"#))
            #expect(response.text.contains(#""qualities":[10,20,30,40]"#))
            #expect(response.text.contains(#""language":"hindi""#))

            let decoded = try JSONDecoder().decode([MediaCoverage].self, from: response.body)
            #expect(decoded == ThumbnailCatalog().coverages(limit: 100, baseURL: baseURL))
            #expect(try await SocketHTTPClient.fetch("\(endpoint)/?limit=100").body == response.body)
        }
    }

    @Test func thumbnailLimitIsClamped() async throws {
        func lengths(_ configuration: SampleAPIConfiguration, _ queries: [String]) async throws -> [Int] {
            try await withServer(configuration) { server in
                let endpoint = await server.thumbnailsEndpoint
                var counts: [Int] = []
                for query in queries {
                    let response = try await SocketHTTPClient.fetch("\(endpoint)\(query)")
                    #expect(response.status == 200)
                    counts.append(try JSONDecoder().decode([MediaCoverage].self, from: response.body).count)
                }
                return counts
            }
        }
        let queries = [
            "", "?limit=5", "?limit=300", "?limit=301", "?limit=100000", "?limit=0", "?limit=-4", "?limit=x",
            "?limit=99999999999999999999", "?limit=1.5",
        ]
        #expect(try await lengths(.init(), queries) == [100, 5, 240, 240, 240, 0, 0, 100, 240, 100])
        #expect(
            try await lengths(.init(thumbnailCount: 300), queries) == [100, 5, 300, 300, 300, 0, 0, 100, 300, 100]
        )
        #expect(try await lengths(.init(thumbnailCount: 12), ["", "?limit=300"]) == [12, 12])
        #expect(try await lengths(.init(thumbnailCount: 0), [""]) == [0])
    }

    @Test func everyThumbnailURLServesItsQuality() async throws {
        try await withServer { server in
            let response = try await SocketHTTPClient.fetch("\(await server.thumbnailsEndpoint)?limit=30")
            let coverages = try JSONDecoder().decode([MediaCoverage].self, from: response.body)
            #expect(coverages.count == 30)
            let images = SampleImages.bundled
            var checks: [(url: String, width: Int, height: Int)] = []
            for coverage in coverages {
                let thumbnail = coverage.thumbnail
                let uuid = String(thumbnail.id.dropFirst(4))
                let picture = try #require(ThumbnailCatalog.picture(forUUID: uuid))
                for quality in [0] + thumbnail.qualities {
                    let edge = try #require(ThumbnailCatalog.servedEdge(forQuality: quality))
                    let image = try #require(
                        images.image(theme: picture.theme, number: picture.number, size: edge)
                    )
                    checks.append((thumbnail.url(quality: quality), image.width, image.height))
                    if quality == 0 {
                        let ratio = (Double(image.width) / Double(image.height) * 1000).rounded() / 1000
                        #expect(thumbnail.aspectRatio == ratio)
                    }
                }
            }
            #expect(checks.count > 100)
            try await expectJPEGs(checks)

            let baseURL = await server.baseURL
            let id = coverages[0].thumbnail.id
            let missing = [
                "/cimg/images/\(id)/50/image.jpg", "/cimg/images/\(id)/010/image.jpg", "/cimg/images/\(id)/0/image.png",
                "/cimg/images/img-00000000-0000-4000-8000-100000000000/0/image.jpg", "/cimg/images/\(id)/0",
                "/cimg/\(id)/0/image.jpg", "/cimg/images/\(id.dropFirst(4))/0/image.jpg",
            ]
            for path in missing {
                #expect(try await SocketHTTPClient.fetch(baseURL + path).status == 404, "\(path)")
            }
        }
    }

    @Test func thumbnailImagesSurviveARestart() async throws {
        let thumbnail = ThumbnailCatalog().coverage(at: 17, baseURL: "").thumbnail
        try await withServer(SampleAPIConfiguration(thumbnailCount: 0)) { server in
            let response = try await SocketHTTPClient.fetch(await server.baseURL + thumbnail.url(quality: 30))
            #expect(response.status == 200 && isJPEG(response.body))
        }
    }

    @Test func faultRulesApplyToTheNewRoutes() async throws {
        let faults = [
            try SampleAPIFault.parse("flickr,q=graffiti:503:1"),
            try SampleAPIFault.parse("flickr:truncate:1"),
            try SampleAPIFault.parse("feed:500:1"),
            try SampleAPIFault.parse("thumbnails:malformed-json:1"),
            try SampleAPIFault.parse("images:502:2"),
        ]
        try await withServer(SampleAPIConfiguration(faults: faults)) { server in
            let rest = "\(await server.flickrEndpoint)rest/?method=flickr.photos.search&api_key=\(key)"
            let baseURL = await server.baseURL
            let tagged = try await SocketHTTPClient.fetch("\(rest)&tags=hamburg,graffiti")
            #expect(tagged.status == 503)
            let truncated = try await SocketHTTPClient.fetch("\(rest)&text=elbe")
            let whole = try await SocketHTTPClient.fetch("\(rest)&text=elbe")
            #expect(
                truncated.failure == .truncated(missing: whole.body.count - whole.body.count / 2)
                    && whole.failure == nil)
            #expect(truncated.body == whole.body.prefix(whole.body.count / 2))
            #expect(try await SocketHTTPClient.fetch("\(rest)&tags=hamburg,graffiti").status == 200)

            let feedURL = "\(await server.flickrEndpoint)feeds/photos_public.gne?format=json&nojsoncallback=1"
            #expect(try await SocketHTTPClient.fetch(feedURL).status == 500)
            #expect(try await SocketHTTPClient.fetch(feedURL).status == 200)

            let listURL = await server.thumbnailsEndpoint
            let malformed = try await SocketHTTPClient.fetch(listURL)
            let list = try await SocketHTTPClient.fetch(listURL)
            #expect(malformed.status == 200 && malformed.body == list.body.prefix(list.body.count / 2))
            #expect(throws: (any Error).self) { try JSONSerialization.jsonObject(with: malformed.body) }

            let coverage = try #require(try JSONDecoder().decode([MediaCoverage].self, from: list.body).first)
            let flickrImage = try #require(
                FlickrCatalog().photo(at: 0, in: .recent, extras: ["url_m"], baseURL: baseURL).size(.m)?.url
            )
            #expect(try await SocketHTTPClient.fetch(flickrImage).status == 502)
            #expect(try await SocketHTTPClient.fetch(coverage.thumbnail.url()).status == 502)
            #expect(try await SocketHTTPClient.fetch(flickrImage).status == 200)
            #expect(try await SocketHTTPClient.fetch(coverage.thumbnail.url()).status == 200)
            #expect(server.injectedFaultCounts() == [1, 1, 1, 1, 2])
        }
    }
}
