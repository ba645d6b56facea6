import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineSources

@Suite struct PixabaySourceTests {
    @Test func plansTheFewestRequestsWithinPixabaysLimits() {
        #expect(PixabaySource.plan(itemCount: 10) == .init(wanted: 10, perPage: 10, pages: 1))
        #expect(PixabaySource.plan(itemCount: 1) == .init(wanted: 1, perPage: 3, pages: 1))
        #expect(PixabaySource.plan(itemCount: 200) == .init(wanted: 200, perPage: 200, pages: 1))
        #expect(PixabaySource.plan(itemCount: 450) == .init(wanted: 450, perPage: 150, pages: 3))
        let capped = PixabaySource.plan(itemCount: 5_000)
        #expect(capped.wanted == 500 && capped.perPage * capped.pages >= 500 && capped.perPage <= 200)
        #expect((500 + capped.perPage - 1) / capped.perPage >= capped.pages)
    }

    @Test func aRaisedHitCapFetchesPastPixabaysFiveHundred() async throws {
        #expect(PixabaySource.plan(itemCount: 1_000, hitCap: 1_000) == .init(wanted: 1_000, perPage: 200, pages: 5))
        let api = FakeAPI { url in
            let page = Int(url.query("page")!)!
            let perPage = Int(url.query("per_page")!)!
            let ids = ((page - 1) * perPage..<page * perPage).map { 1_000 + $0 }
            return (200, "{\"totalHits\": 1000, \"hits\": [\(ids.map { pixabayHit(id: $0) }.joined(separator: ","))]}")
        }
        let endpoint = "http://127.0.0.1:1/api/"
        let raised = PixabaySource(
            term: "bench", variantWord: nil, itemCount: 1_000, key: "k", endpoint: endpoint, hitCap: 1_000)
        let result = try await raised.collect(using: api)
        #expect(result.items.count == 1_000)
        #expect(result.warnings.isEmpty)
        #expect(api.urls.count == 5)
        let capped = try await PixabaySource(
            term: "bench", variantWord: nil, itemCount: 1_000, key: "k", endpoint: endpoint
        )
        .collect(using: api)
        #expect(capped.items.count == 500)
        #expect(capped.warnings.contains { $0.contains("at most 500 hits") })
    }

    /// Finding 4 of the hostile pass: one unusable hit on the first page was taken for the end of the results.
    @Test func anUnusableHitDoesNotEndThePaging() async throws {
        let api = FakeAPI { url in
            let page = Int(url.query("page")!)!
            let perPage = Int(url.query("per_page")!)!
            let hits = ((page - 1) * perPage..<min(page * perPage, 500)).map { index in
                index == 7
                    ? "{\"id\": \(index), \"webformatURL\": \"javascript:alert(1)\", \"tags\": \"x\"}"
                    : pixabayHit(id: 1_000 + index)
            }
            return (200, "{\"total\": 9000, \"totalHits\": 500, \"hits\": [\(hits.joined(separator: ","))]}")
        }
        let source = PixabaySource(
            term: "Hamburg", variantWord: nil, itemCount: 500, key: "k", endpoint: "http://127.0.0.1:1/api/")
        let result = try await source.collect(using: api)
        #expect(api.urls.count == 3, "every page the totals promise is asked for")
        #expect(result.items.count == 499 && result.skipped == 1)
        #expect(!result.warnings.contains { $0.contains("at most 500") }, "\(result.warnings)")
        #expect(result.warnings.contains { $0.contains("Skipped Pixabay hit 8 of page 1") })
    }

    @Test func pairsHitIOfEachSearchAndSaysWhenTheVariantRunsOut() async throws {
        let api = FakeAPI { url in
            let query = url.query("q")!
            let page = Int(url.query("page")!)!
            let perPage = Int(url.query("per_page")!)!
            let total = query == "Hamburg" ? 25 : 12
            let start = (page - 1) * perPage
            let ids = (start..<min(start + perPage, total)).map { (query == "Hamburg" ? 1000 : 5000) + $0 }
            return (
                200,
                "{\"total\": \(total), \"totalHits\": \(total), \"hits\": [\(ids.map { pixabayHit(id: $0) }.joined(separator: ","))]}"
            )
        }
        let source = PixabaySource(
            term: "Hamburg", variantWord: "graffiti", itemCount: 20, key: "k3y-secret",
            endpoint: "http://127.0.0.1:1/api/")
        let result = try await source.collect(using: api)
        #expect(result.items.count == 20)
        #expect(result.variants.map(\.key) == ["original", "graffiti"])
        #expect(result.variants[1].query == "Hamburg graffiti")
        #expect(result.items[0].sourceID == "1000")
        guard case .found(_, _, let tile, let full, _, _, _, _) = result.items[11].entries[1] else {
            Issue.record("item 12 should have its graffiti match")
            return
        }
        #expect(tile.url.hasSuffix("5011_640.jpg") && full.url.hasSuffix("5011_1280.jpg"))
        #expect(full.width == 1280 && full.height == 853)
        guard case .missing(let reason) = result.items[12].entries[1] else {
            Issue.record("item 13 has no graffiti match")
            return
        }
        #expect(reason.contains("Hamburg graffiti"))
        #expect(api.urls.count == 2)
        #expect(api.urls.allSatisfy { $0.contains("per_page=20") && $0.contains("key=k3y-secret") })
    }

    @Test func stopsCleanlyWhenResultsRunOut() async throws {
        let api = FakeAPI { url in
            let page = Int(url.query("page")!)!
            let perPage = Int(url.query("per_page")!)!
            let ids = ((page - 1) * perPage..<min(page * perPage, 207)).map { pixabayHit(id: $0 + 1) }
            return (200, "{\"total\": 207, \"totalHits\": 207, \"hits\": [\(ids.joined(separator: ","))]}")
        }
        let source = PixabaySource(
            term: "x", variantWord: nil, itemCount: 1_000, key: "key1", endpoint: "http://h/api/")
        let result = try await source.collect(using: api)
        #expect(result.items.count == 207)
        #expect(api.urls.count == 2)
        #expect(result.warnings.contains { $0.contains("at most 500") })
    }

    @Test func encodesTheQuerySoItCannotInjectParameters() {
        let source = PixabaySource(
            term: "a&key=stolen b#c", variantWord: nil, itemCount: 10, key: "real", endpoint: "https://h/api/?lang=de")
        let url = source.request(query: source.term, page: 1, perPage: 10).url
        let components = URLComponents(string: url)!
        #expect(components.queryItems?.filter { $0.name == "key" }.map(\.value) == ["real"])
        #expect(components.query("q") == "a&key=stolen b#c")
        #expect(components.query("lang") == "de")
    }

    @Test func readsLooselyTypedHitsAndSkipsUnusableOnes() throws {
        let body = """
            {"totalHits": "4", "hits": [
              {"id": "77", "tags": "", "webformatURL": "https://cdn.example/77_640.jpg", "webformatWidth": "640",
               "webformatHeight": -5, "user": "", "isLowQuality": false},
              {"id": 78, "webformatURL": "javascript:alert(1)", "previewURL": "file:///etc/passwd"},
              {"tags": "no id", "webformatURL": "https://cdn.example/x.jpg"},
              "not an object",
              {"id": 80, "webformatURL": "https://cdn.example/80.jpg", "pageURL": "javascript:alert(2)", "user": "eve"}
            ]}
            """
        let page = try PixabaySource.decodePage(Array(body.utf8), query: "q", page: 1, fetchedAt: nil)
        #expect(page.totalHits == 4)
        #expect(page.hits.map(\.id) == ["77", "80"])
        #expect(page.warnings.count == 3)
        guard case .found(let caption, let credit, let tile, _, _, _, _, _) = page.hits[0].entry else {
            Issue.record("hit 77 should decode")
            return
        }
        #expect(caption.isEmpty && credit == nil)
        #expect(tile.width == 640 && tile.height == nil)
        guard case .found(_, let eveCredit, _, _, _, _, _, _) = page.hits[1].entry else { return }
        #expect(eveCredit == Credit(name: "eve", url: nil))
    }

    /// A hotlinked URL goes into `src`, `srcset`, the feed and JSON-LD as it stands: what a URL cannot hold is
    /// percent-encoded (a space would split a `srcset` candidate in two), and what cannot be encoded (a line break,
    /// a URL longer than the model's longest text, which would be cut) is refused with a warning, the hit then shown
    /// as one without that URL.
    @Test func hotlinkedURLsAreValidAsTheyStandOrRefusedWithAWarning() throws {
        let long = "https://cdn.example/" + String(repeating: "a", count: 1_990) + "_640.jpg"
        let body = """
            {"hits": [
              {"id": 81, "webformatURL": "https://cdn.example/a b_640.jpg 1w, data:image/png;base64,AAAA 2w",
               "webformatWidth": 640, "webformatHeight": 427, "largeImageURL": "https://cdn.example/\\"<x>_1280.jpg",
               "user": "eve", "pageURL": "https://pixabay.com/p 1/"},
              {"id": 82, "webformatURL": "https://cdn.example/82\\n_640.jpg", "previewURL": "https://cdn.example/82_150.jpg"},
              {"id": 83, "webformatURL": "\(long)"}
            ]}
            """
        let page = try PixabaySource.decodePage(Array(body.utf8), query: "q", page: 1, fetchedAt: nil)
        #expect(page.hits.map(\.id) == ["81", "82"])
        guard case .found(_, let credit, let tile, let full, _, _, let alternates, _) = page.hits.first?.entry,
            case .found(_, _, let preview, _, _, _, _, _) = page.hits.last?.entry
        else {
            Issue.record("hits 81 and 82 should decode")
            return
        }
        #expect(tile.url == "https://cdn.example/a%20b_640.jpg%201w,%20data:image/png;base64,AAAA%202w")
        #expect(full.url == "https://cdn.example/%22%3Cx%3E_1280.jpg")
        #expect(credit?.url == "https://pixabay.com/p%201/")
        #expect(alternates.isEmpty)
        #expect(preview.url == "https://cdn.example/82_150.jpg")
        #expect(page.warnings.count == 2, "\(page.warnings)")
        #expect(page.warnings.contains { $0.contains("hit 2 ") && $0.contains("line break") })
        #expect(page.warnings.contains { $0.contains("hit 3 ") && $0.contains("longer than 2000 characters") })
    }

    @Test(arguments: ["not json", "[1,2]", "{\"total\": 3}", "{\"hits\": {}}", ""])
    func rejectsMalformedAnswersNamingTheSource(body: String) {
        #expect {
            try PixabaySource.decodePage(Array(body.utf8), query: "Hamburg", page: 2, fetchedAt: nil)
        } throws: { error in
            guard let error = error as? SourceError, case .badData = error else { return false }
            return error.sentence.contains("Pixabay") && error.sentence.contains("Hamburg")
                && error.kind == .badData
        }
    }

    @Test func mapsPixabaysErrorsToActionableOnes() {
        let badKey = PixabaySource.error(
            status: 400, message: "[ERROR 400] Invalid or missing API key (https://pixabay.com/api/docs/).")
        #expect(badKey.kind == .keyProblem)
        #expect(PixabaySource.error(status: 429, message: "API rate limit exceeded").sentence.contains("rate limit"))
        #expect(PixabaySource.error(status: 503, message: "").kind == .unavailable)
        #expect(
            PixabaySource.error(status: 400, message: "[ERROR 400] \"per_page\" is out of valid range.").sentence
                .contains("results per page"))
    }

    @Test func aMissingKeyIsOneSentenceSayingHowToGetOne() async {
        let source = PixabaySource(term: "x", variantWord: nil, itemCount: 10, key: "")
        await #expect {
            try await source.collect(using: FakeAPI { _ in (500, "") })
        } throws: { error in
            let sentence = (error as? SourceError)?.sentence ?? ""
            return sentence.contains("No Pixabay API key") && !sentence.contains("--")
                && sentence.contains("https://pixabay.com/api/docs/")
        }
    }
}
