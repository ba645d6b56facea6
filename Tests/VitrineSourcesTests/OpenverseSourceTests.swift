import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineSources
@testable import VitrineStore

@Suite struct OpenverseSourceTests {
    static func response(_ json: String, status: Int = 200) -> APIResponse {
        APIResponse(status: status, body: Array(json.utf8), fetchedAt: Date(timeIntervalSince1970: 0), fromCache: false)
    }

    /// A result as Openverse sends it, with every member overridable.
    static func result(
        id: String, license: String = "\"by-sa\"", version: String = "\"4.0\"", mature: String = "false",
        title: String = "\"Hafen\"", creator: String = "\"Anna\"",
        creatorURL: String = "\"https://www.flickr.com/photos/anna\"",
        url: String? = nil,
        tags: String = "[{\"accuracy\":null,\"name\":\"harbour\"},{\"accuracy\":0.9,\"name\":\"Ship\"}]"
    ) -> String {
        """
        {"id":"\(id)","title":\(title),"indexed_on":"2024-05-01T12:00:00Z",
         "foreign_landing_url":"https://www.flickr.com/photos/anna/\(id.count)","url":\(url ?? "\"https://live.example/\(id).jpg\""),
         "creator":\(creator),"creator_url":\(creatorURL),"license":\(license),"license_version":\(version),
         "license_url":"https://creativecommons.org/licenses/by-sa/4.0/","provider":"flickr","source":"flickr",
         "category":null,"filesize":null,"filetype":"jpg","tags":\(tags),"attribution":"\\"Hafen\\" by Anna",
         "fields_matched":["title"],"mature":\(mature),"height":683,"width":1024,
         "thumbnail":"https://api.example/v1/images/\(id)/thumb/","detail_url":"https://api.example/v1/images/\(id)/",
         "related_url":"https://api.example/v1/images/\(id)/related/","unstable__sensitivity":[]}
        """
    }

    static func page(_ results: [String], count: Int? = nil, pageCount: Int = 1) -> String {
        """
        {"result_count":\(count ?? results.count),"page_count":\(pageCount),"page_size":20,"page":1,
         "results":[\(results.joined(separator: ","))]}
        """
    }

    @Test func readsAWorkWithItsCreditLicenseTagsAndBothImages() throws {
        let page = try OpenverseSource.decodePage(Self.response(Self.page([Self.result(id: "a1-b2")])), page: 1)
        #expect(page.results.count == 1 && page.skipped == 0)
        let result = page.results[0]
        guard
            case .found(let caption, let credit, let tile, let full, let license, _, _, let tags) =
                result.item.entries[0]
        else {
            Issue.record("the result decodes")
            return
        }
        #expect(result.item.sourceID == "a1-b2" && caption == "Hafen")
        #expect(credit?.name == "Anna" && credit?.authorURL == "https://www.flickr.com/photos/anna")
        #expect(credit?.url == "https://www.flickr.com/photos/anna/5")
        #expect(tile.url == "https://api.example/v1/images/a1-b2/thumb/")
        #expect(full.url == "https://live.example/a1-b2.jpg" && full.width == 1024 && full.height == 683)
        #expect(license.label == "CC BY-SA 4.0" && license.allowsCopies)
        #expect(license.url == "https://creativecommons.org/licenses/by-sa/4.0/")
        #expect(tags == ["harbour", "ship"])
    }

    @Test(arguments: [
        ("by", "4.0", "CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"),
        ("by-nc-nd", "2.0", "CC BY-NC-ND 2.0", "https://creativecommons.org/licenses/by-nc-nd/2.0/"),
        ("cc0", "1.0", "CC0 1.0", "https://creativecommons.org/publicdomain/zero/1.0/"),
        ("pdm", "1.0", "Public Domain Mark 1.0", "https://creativecommons.org/publicdomain/mark/1.0/"),
        ("PDM", "", "Public Domain Mark 1.0", "https://creativecommons.org/publicdomain/mark/1.0/"),
    ])
    func labelsEachLicenseAsCreativeCommonsDoes(code: String, version: String, label: String, url: String) {
        let license = OpenverseSource.license(code: code, version: version, url: nil)
        #expect(license.label == label && license.url == url && license.allowsCopies)
    }

    /// A license Vitrine cannot know, or a Creative Commons code with a hostile version or link, is never taken
    /// as one that allows copies, and never links where the answer says.
    @Test(arguments: [
        ("all-rights-reserved-ish", "null", "https://evil.example/license"),
        ("by", "null", "https://creativecommons.org/licenses/by/4.0/"),
        ("by", "4.0/../../x", "javascript:alert(1)"),
        ("", "4.0", "https://creativecommons.org/licenses/by/4.0/"),
    ])
    func anUnknownOrHostileLicenseIsUnknownAndNeverCopied(code: String, version: String, url: String) {
        let license = OpenverseSource.license(code: code, version: version == "null" ? nil : version, url: url)
        #expect(license.copies == .unknown && license.label == "License unknown" && license.url == nil)
    }

    /// A thumbnail has no size until it is downloaded: a work shown from its own URL keeps the sized image for its
    /// tile too, so that the grid does not jump when it loads.
    @Test func aWorkShownFromItsOwnURLHasASizedTile() throws {
        let unknown = Self.result(id: "unknown", license: "\"mystery\"")
        let page = try OpenverseSource.decodePage(Self.response(Self.page([unknown])), page: 1)
        guard case .found(_, _, let tile, let full, let license, _, _, _) = page.results.first?.item.entries[0] else {
            Issue.record("the result decodes")
            return
        }
        #expect(!license.allowsCopies && tile == full && tile.width == 1024 && tile.height == 683)
    }

    @Test func aLicenseLinkOfTheAPIIsKeptOnlyWhenItIsThatLicensesPage() {
        let own = OpenverseSource.license(
            code: "by", version: "4.0", url: "https://creativecommons.org/licenses/by/4.0/deed.de")
        #expect(own.url == "https://creativecommons.org/licenses/by/4.0/deed.de")
        let other = OpenverseSource.license(
            code: "by", version: "4.0", url: "https://creativecommons.org/licenses/by-nc/4.0/")
        #expect(other.url == "https://creativecommons.org/licenses/by/4.0/")
    }

    @Test func hostileFieldsCostTheFieldOrTheResultNeverThePage() throws {
        let results = [
            Self.result(id: "no-url", url: "\"javascript:alert(1)\""),
            Self.result(id: "../../etc", title: "\"x\""),
            Self.result(
                id: "html", title: "\"<b>Hafen</b> <script>alert(1)</script>\"", creatorURL: "\"javascript:alert(1)\""),
            Self.result(id: "types", title: "42", creator: "{\"a\":1}", tags: "\"not a list\""),
            Self.result(id: "nulls", title: "null", creator: "null", creatorURL: "null", tags: "[]"),
            "\"not an object\"",
        ]
        let page = try OpenverseSource.decodePage(Self.response(Self.page(results)), page: 2)
        #expect(page.results.map(\.item.sourceID) == ["html", "types", "nulls"])
        #expect(page.skipped == 3 && page.received == 6)
        #expect(
            page.warnings.first == "Skipped Openverse result 1 of page 2: field “url” is missing or not an http(s) URL."
        )
        let entries = page.results.map(\.item.entries[0])
        guard case .found(let caption, let credit, _, _, _, _, _, _) = entries[0],
            case .found(let number, let object, _, _, _, _, _, let noTags) = entries[1],
            case .found(let none, let nobody, _, _, _, _, _, _) = entries[2]
        else {
            Issue.record("the results decode")
            return
        }
        #expect(caption == "<b>Hafen</b> <script>alert(1)</script>" && credit?.authorURL == nil)
        #expect(number == "42" && object?.name == "an unnamed creator" && noTags.isEmpty)
        #expect(none == "" && nobody?.name == "an unnamed creator" && nobody?.authorURL == nil)
    }

    @Test(arguments: [
        ("-5", "683"), ("1e30", "683"), ("\"wide\"", "null"), ("0", "100001"), ("123456789012345678901234", "2"),
    ])
    func absurdSizesAreNoSizesAndCostNothingElse(width: String, height: String) throws {
        let json = Self.result(id: "sized").replacingOccurrences(
            of: "\"height\":683,\"width\":1024", with: "\"height\":\(height),\"width\":\(width)")
        let page = try OpenverseSource.decodePage(Self.response(Self.page([json])), page: 1)
        guard case .found(_, _, _, let full, _, _, _, _) = page.results.first?.item.entries[0] else {
            Issue.record("the result decodes")
            return
        }
        #expect(full.width == nil && full.url == "https://live.example/sized.jpg")
    }

    @Test func aPageThatIsNotAnAnswerIsBadDataNamingThePage() {
        #expect {
            try OpenverseSource.decodePage(Self.response("{\"results\": 3}"), page: 4)
        } throws: { error in
            (error as? SourceError)?.sentence.contains("page 4") == true
        }
    }

    @Test(arguments: [
        (401, "{\"detail\":\"Anonymous API requests are limited to a maximum page size of 20.\"}", "at most 20"),
        (401, "{\"detail\":\"Invalid token.\"}", "OPENVERSE_TOKEN"),
        (429, "{\"detail\":\"Request was throttled. Expected available in 7 seconds.\"}", "rate limit"),
        (503, "<html>down</html>", "HTTP 503"),
        (400, "{\"detail\":\"Invalid page number.\"}", "Invalid page number."),
    ])
    func anErrorAnswerBecomesOneSentenceWithTheAPIsDetail(status: Int, body: String, expected: String) {
        #expect {
            try OpenverseSource.decodePage(Self.response(body, status: status), page: 1)
        } throws: { error in
            let sentence = (error as? SourceError)?.sentence ?? ""
            return sentence.contains(expected) && sentence.hasPrefix("Openverse")
        }
    }

    @Test(arguments: [
        (20, false, 20, 1, 20), (45, false, 15, 3, 45), (1_000, false, 20, 20, 400), (1_000, true, 500, 2, 1_000),
        (1, false, 1, 1, 1),
    ])
    func plansTheFewestRequestsWithinThePageSizeAndDepth(
        items: Int, authenticated: Bool, pageSize: Int, pages: Int, reachable: Int
    ) {
        #expect(
            OpenverseSource.plan(itemCount: items, authenticated: authenticated)
                == .init(pageSize: pageSize, pages: pages, reachable: reachable))
    }

    @Test func collectsPagesLeavingOutMatureWorksAndRepeats() async throws {
        let api = FakeAPI { url in
            let page = Int(url.query("page") ?? "") ?? 0
            let ids = (0..<15).map { "p\(page)-\($0)" }
            var results = ids.enumerated().map { index, id in
                Self.result(id: id, mature: index == 3 ? "true" : "false")
            }
            if page == 2 { results[0] = Self.result(id: "p1-0") }
            return (200, Self.page(results, count: 45, pageCount: 3))
        }
        let source = OpenverseSource(term: "Hamburg", itemCount: 45, endpoint: "http://127.0.0.1:1/")
        let result = try await source.collect(using: api)
        #expect(api.urls.count == 3)
        #expect(api.urls[0] == "http://127.0.0.1:1/v1/images/?q=Hamburg&page=1&page_size=15")
        #expect(result.items.count == 41)
        #expect(result.warnings.contains("Left out 3 Openverse results marked as mature."))
        let mature = try await OpenverseSource(
            term: "Hamburg", itemCount: 45, endpoint: "http://127.0.0.1:1/", includeMature: true
        ).collect(using: api)
        #expect(mature.items.count == 44)
    }

    @Test func anonymousUseStopsAtTheAPIsDepthAndSaysSo() async throws {
        let api = FakeAPI { url in
            let page = url.query("page") ?? ""
            return (200, Self.page((0..<20).map { Self.result(id: "p\(page)-\($0)") }, count: 10_000, pageCount: 500))
        }
        let result = try await OpenverseSource(term: "x", itemCount: 1_000, endpoint: "http://127.0.0.1:1/")
            .collect(using: api)
        #expect(api.urls.count == 20 && result.items.count == 400)
        #expect(result.warnings.contains { $0.hasPrefix("Openverse gives anonymous use at most 400 results") })
    }

    /// The API counts more pages than it answers (anonymous depth changes): a refused later page ends the
    /// gallery with what came before, and a result count reached asks no further.
    @Test func aRefusedLaterPageOrTheLastResultEndsTheSearch() async throws {
        let refusing = FakeAPI { url in
            guard url.query("page") == "1" else { return (400, "{\"detail\":\"Invalid page number.\"}") }
            return (200, Self.page((0..<20).map { Self.result(id: "a\($0)") }, count: 10_000, pageCount: 500))
        }
        let result = try await OpenverseSource(term: "x", itemCount: 60, endpoint: "http://127.0.0.1:1/")
            .collect(using: refusing)
        #expect(result.items.count == 20 && refusing.urls.count == 2)
        #expect(
            result.warnings.contains { $0.hasPrefix("Openverse answered no page after page 1 (Invalid page number.)") })
        let counted = FakeAPI { url in
            let page = url.query("page") ?? ""
            return (200, Self.page((0..<20).map { Self.result(id: "p\(page)-\($0)") }, count: 40, pageCount: 20))
        }
        let two = try await OpenverseSource(term: "x", itemCount: 100, endpoint: "http://127.0.0.1:1/")
            .collect(using: counted)
        #expect(two.items.count == 40 && counted.urls.count == 2)
    }

    @Test func aTokenIsSentAsABearerAndNeverInTheURLOrConfiguration() {
        let source = OpenverseSource(term: "x", itemCount: 100, token: "s3cret", endpoint: "http://127.0.0.1:1")
        let request = source.request(page: 1, pageSize: 100)
        #expect(request.headers["Authorization"] == "Bearer s3cret")
        #expect(!request.url.contains("s3cret") && !source.configuration.contains("s3cret"))
        #expect(OpenverseSource(term: "x", itemCount: 100, token: "").token == nil)
    }

    @Test(arguments: [
        ("by-sa, cc0", "license=by-sa%2Ccc0", ["by-sa", "cc0"]),
        ("CC BY 4.0,commercial", "license=by&license_type=commercial", ["by"]),
        ("commercial,modification", "license_type=commercial%2Cmodification", ["by", "by-sa", "cc0", "pdm"]),
        ("reusable", "", ["by", "by-sa", "by-nd", "by-nc", "by-nc-sa", "by-nc-nd", "cc0", "pdm"]),
        ("Public Domain Mark", "license=pdm", ["pdm"]),
    ])
    func aLicenseChoiceIsAskedOfTheAPIAndCheckedOnItsAnswers(choice: String, query: String, kept: [String]) throws {
        let filter = try OpenverseLicenseFilter(LicenseChoice(choice)!)
        let request = OpenverseSource(term: "x", itemCount: 20, endpoint: "http://h/").request(
            page: 1, pageSize: 20, filter: filter)
        #expect(request.url == "http://h/v1/images/?q=x&page=1&page_size=20" + (query.isEmpty ? "" : "&" + query))
        let all = OpenverseLicenseFilter.codes.map {
            OpenverseSource.license(code: $0, version: ["cc0", "pdm"].contains($0) ? "1.0" : "4.0", url: nil)
        }
        #expect(all.filter(filter.keeps).compactMap(\.id) == kept)
        #expect(!filter.keeps(OpenverseSource.license(code: "mystery", version: nil, url: nil)))
    }

    @Test func aLicenseVersionInTheChoiceIsCheckedOnTheAnswers() throws {
        let filter = try OpenverseLicenseFilter(LicenseChoice("CC BY-SA 4.0")!)
        #expect(filter.keeps(OpenverseSource.license(code: "by-sa", version: "4.0", url: nil)))
        #expect(!filter.keeps(OpenverseSource.license(code: "by-sa", version: "2.0", url: nil)))
    }

    @Test func aNameThatIsNoOpenverseLicenseIsRefusedNamingTheKnownOnes() {
        #expect {
            try OpenverseLicenseFilter(LicenseChoice("by,All rights reserved")!)
        } throws: { error in
            let sentence = (error as? LicenseChoiceError)?.sentence ?? ""
            return sentence.contains("All rights reserved") && sentence.contains("no Openverse license")
        }
    }
}
