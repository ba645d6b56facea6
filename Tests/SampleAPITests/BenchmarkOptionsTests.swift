import Foundation
import SampleAPI
import Synchronization
import Testing

/// The sample API's options for benchmarks: more hits than Pixabay's cap, one revised hit, distinct image bytes.
@Suite("Sample API benchmark options")
struct BenchmarkOptionsTests {
    private let base = "http://127.0.0.1:4321"

    @Test func theCapStaysAt500UnlessRaised() {
        let real = PixabayCatalog(hitCounts: ["bench": 1000])
        #expect(real.hitCap == 500)
        #expect(real.totalHits(for: "bench") == 500)
        #expect(real.lastPage(for: "bench", perPage: 200) == 3)

        let raised = PixabayCatalog(hitCounts: ["bench": 1000, "bench graffiti": 1000, "huge": 5000], hitCap: 1000)
        #expect(raised.totalHits(for: "bench") == 1000)
        #expect(raised.totalHits(for: "bench graffiti") == 1000)
        #expect(raised.totalHits(for: "huge") == 1000)
        #expect(raised.totalHits(for: "anything") == 1000, "a query without an override has the cap")
        #expect(raised.total(for: "bench") > 1000)
        #expect(raised.lastPage(for: "bench", perPage: 200) == 5)
    }

    @Test func aThousandHitsHaveDistinctIDsAndImageURLs() {
        let catalog = PixabayCatalog(hitCounts: ["bench": 1000], hitCap: 1000)
        let hits = (1...5).flatMap { catalog.search(query: "bench", page: $0, perPage: 200, baseURL: base).hits }
        #expect(hits.count == 1000)
        #expect(Set(hits.map(\.id)).count == 1000)
        #expect(Set(hits.flatMap { [$0.webformatURL, $0.largeImageURL] }).count == 2000)
    }

    @Test func aRevisedHitChangesItsTagsAndNothingElse() {
        let original = PixabayCatalog()
        let revised = PixabayCatalog(revisedHits: [2])
        for query in ["hamburg", "hamburg graffiti"] {
            let before = original.search(query: query, page: 1, perPage: 10, baseURL: base).hits
            let after = revised.search(query: query, page: 1, perPage: 10, baseURL: base).hits
            #expect(after[1].tags != before[1].tags)
            #expect(after[1].tags.hasSuffix("revised"))
            var unchanged = after[1]
            unchanged.tags = before[1].tags
            #expect(unchanged == before[1], "only the tags differ")
            #expect(after[0] == before[0] && Array(after[2...]) == Array(before[2...]))
        }
    }

    @Test func distinctImagesServeBytesOfTheirOwnThatAreStillTheSamePicture() async throws {
        let configuration = SampleAPIConfiguration(distinctImages: true)
        try await withServer(configuration) { server in
            let baseURL = await server.baseURL
            let first = try await SocketHTTPClient.fetch("\(baseURL)/get/1000001-city01_640.jpg")
            let second = try await SocketHTTPClient.fetch("\(baseURL)/get/1000002-city01_640.jpg")
            #expect(first.status == 200 && second.status == 200)
            #expect(first.body != second.body)
            #expect(isJPEG(first.body) && first.body.suffix(2) == Data([0xFF, 0xD9]))
            let picture = try #require(SampleImages.bundled.image(theme: "city", number: 1, size: 640))
            #expect(first.body.count > picture.bytes.count)
            #expect(jpegDimensions(first.body)?.width == picture.width)
            #expect(jpegDimensions(first.body)?.height == picture.height)
            #expect(first.header("Content-Length") == String(first.body.count))
        }
        try await withServer { server in
            let baseURL = await server.baseURL
            let plain = try await SocketHTTPClient.fetch("\(baseURL)/get/1000001-city01_640.jpg")
            #expect(plain.body == SampleImages.bundled.image(theme: "city", number: 1, size: 640)?.bytes)
        }
    }

    @Test func theRaisedCapAndRevisionReachTheSearchEndpoint() async throws {
        let configuration = SampleAPIConfiguration(
            hitCounts: ["bench": 1000], hitCap: 1000, revisedHits: [1], rateLimit: 1000)
        try await withServer(configuration) { server in
            let endpoint = await server.pixabayEndpoint
            let last = try await SocketHTTPClient.fetch("\(endpoint)?key=sample-key&q=bench&per_page=200&page=5")
            #expect(last.status == 200)
            let page = try JSONDecoder().decode(PixabaySearchResult.self, from: last.body)
            #expect(page.totalHits == 1000 && page.hits.count == 200)
            let beyond = try await SocketHTTPClient.fetch("\(endpoint)?key=sample-key&q=bench&per_page=200&page=6")
            #expect(beyond.status == 400)
            let first = try await SocketHTTPClient.fetch("\(endpoint)?key=sample-key&q=bench&per_page=3")
            let hits = try JSONDecoder().decode(PixabaySearchResult.self, from: first.body).hits
            #expect(hits[0].tags.hasSuffix("revised") && !hits[1].tags.contains("revised"))
        }
    }

    @Test func aLaterDaysResultsAreTheDayBeforesMovedOnWithNewHitsAtTheEnd() {
        let catalog = PixabayCatalog(hitCounts: ["bench": 40, "bench graffiti": 40])
        for query in ["bench", "bench graffiti"] {
            func results(day: Int) -> [PixabayHit] {
                catalog.search(query: query, page: 1, perPage: 40, baseURL: base, firstHit: day * 4).hits
            }
            let day0 = results(day: 0)
            #expect(day0 == catalog.search(query: query, page: 1, perPage: 40, baseURL: base).hits)
            for day in [1, 2, 365] {
                let today = results(day: day)
                let yesterday = results(day: day - 1)
                #expect(today.count == 40)
                #expect(Array(today.prefix(36)) == Array(yesterday.dropFirst(4)), "day \(day) keeps 36 hits")
                let new = today.suffix(4)
                #expect(Set(new.map(\.id)).isDisjoint(with: yesterday.map(\.id)), "day \(day) has 4 new hits")
                #expect(Set(new.map(\.largeImageURL)).isDisjoint(with: yesterday.map(\.largeImageURL)))
            }
            let year = (0...365).flatMap { results(day: $0) }
            #expect(Set(year.map(\.id)).count == 40 + 365 * 4, "no hit comes back once it has left")
        }
    }

    @Test func theServerAnswersForTheDayItIsAtWhenAsked() async throws {
        let day = Mutex(0)
        var configuration = SampleAPIConfiguration(hitCounts: ["bench": 40], rateLimit: 1000)
        configuration.hitsPerDay = 4
        configuration.day = { day.withLock { $0 } }
        try await withServer(configuration) { server in
            let endpoint = await server.pixabayEndpoint
            func ids() async throws -> [Int] {
                let answer = try await SocketHTTPClient.fetch("\(endpoint)?key=sample-key&q=bench&per_page=40")
                return try JSONDecoder().decode(PixabaySearchResult.self, from: answer.body).hits.map(\.id)
            }
            let first = try await ids()
            #expect(try await ids() == first)
            day.withLock { $0 = 3 }
            let third = try await ids()
            #expect(third.count == 40)
            #expect(Array(third.prefix(28)) == Array(first.dropFirst(12)), "the answer of day 0 is not served again")
            #expect(Set(third.suffix(12)).isDisjoint(with: first))
            _ = try await SocketHTTPClient.fetch("\(baseURL(endpoint))/get/1000001-city01_640.jpg")
            let log = try await SocketHTTPClient.fetch("\(baseURL(endpoint))/_sample-api/requests")
            #expect(log.status == 200)
            #expect(
                String(decoding: log.body, as: UTF8.self)
                    == "GET /api/\nGET /api/\nGET /api/\nGET /get/1000001-city01_640.jpg\n")
            #expect(server.requests().count == 4, "asking for the log is not logged")
        }
    }

    @Test func theCalendarDayCountsWholeDaysFromTheStart() {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        #expect(SampleAPIConfiguration.days(from: start, to: start.addingTimeInterval(-5)) == 0)
        #expect(SampleAPIConfiguration.days(from: start, to: start.addingTimeInterval(86_399)) == 0)
        #expect(SampleAPIConfiguration.days(from: start, to: start.addingTimeInterval(86_400)) == 1)
        #expect(SampleAPIConfiguration.days(from: start, to: start.addingTimeInterval(86_400 * 365.5)) == 365)
        #expect(
            SampleAPIConfiguration.days(from: start, to: Date(timeIntervalSince1970: 1e15))
                == SampleAPIConfiguration.lastDay)
        var configuration = SampleAPIConfiguration()
        configuration.hitsPerDay = SampleAPIConfiguration.mostHitsPerDay
        configuration.day = { .max }
        #expect(configuration.firstHit == SampleAPIConfiguration.mostHitsPerDay * SampleAPIConfiguration.lastDay)
        configuration.day = { -3 }
        #expect(configuration.firstHit == 0)
    }

    /// `http://127.0.0.1:PORT` of an endpoint `http://127.0.0.1:PORT/api/`.
    private func baseURL(_ endpoint: String) -> String {
        String(endpoint.dropLast("/api/".count))
    }
}
