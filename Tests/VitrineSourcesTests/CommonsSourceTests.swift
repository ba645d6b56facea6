import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineSources
@testable import VitrineStore

@Suite struct CommonsSourceTests {
    static func response(_ json: String, status: Int = 200) -> APIResponse {
        APIResponse(status: status, body: Array(json.utf8), fetchedAt: Date(timeIntervalSince1970: 0), fromCache: false)
    }

    /// A file page as the API sends it with `formatversion=2`, every member overridable.
    static func page(
        id: Int, index: Int? = nil, title: String = "File:Hafen (Hamburg).jpg", mime: String = "image/jpeg",
        thumb: String? = nil, metadata: String? = nil
    ) -> String {
        let thumbURL = thumb ?? "https://upload.example/thumb/a/ab/Hafen.jpg/1280px-Hafen.jpg"
        let fields =
            metadata ?? """
                "ObjectName":{"value":"Hafen","source":"commons-desc-page"},
                "Artist":{"value":"<a href=\\"//commons.wikimedia.org/wiki/User:Anna\\" title=\\"User:Anna\\">Anna &amp; Ben</a>","source":"commons-desc-page"},
                "LicenseShortName":{"value":"CC BY-SA 4.0","source":"commons-desc-page","hidden":""},
                "LicenseUrl":{"value":"https://creativecommons.org/licenses/by-sa/4.0","source":"commons-desc-page","hidden":""},
                "AttributionRequired":{"value":"true","source":"commons-desc-page","hidden":""}
                """
        return """
            {"pageid":\(id),"ns":6,"title":"\(title)",\(index.map { "\"index\":\($0)," } ?? "")
             "imagerepository":"local","imageinfo":[{"size":2000000,"width":4000,"height":3000,
             "thumburl":"\(thumbURL)","thumbwidth":1280,"thumbheight":960,
             "url":"https://upload.example/a/ab/Hafen.jpg","descriptionurl":"https://commons.wikimedia.org/wiki/\(title)",
             "mime":"\(mime)","extmetadata":{\(fields)}}]}
            """
    }

    static func answer(_ pages: [String], continuation: String? = nil) -> String {
        """
        {"batchcomplete":true,\(continuation.map { "\"continue\":\($0)," } ?? "")"query":{"pages":[\(pages.joined(separator: ","))]}}
        """
    }

    @Test func readsAFileWithItsAuthorLicenseAndBothRenditions() throws {
        let batch = try CommonsSource.decodeBatch(Self.response(Self.answer([Self.page(id: 7)])), number: 1)
        guard
            case .found(let caption, let credit, let tile, let full, let license, _, _, _) =
                batch.files.first?.item.entries[0]
        else {
            Issue.record("the file decodes")
            return
        }
        #expect(batch.files[0].item.sourceID == "7" && caption == "Hafen")
        #expect(credit?.name == "Anna & Ben" && credit?.authorURL == "https://commons.wikimedia.org/wiki/User:Anna")
        #expect(credit?.url == "https://commons.wikimedia.org/wiki/File:Hafen%20(Hamburg).jpg")
        #expect(full.url == "https://upload.example/thumb/a/ab/Hafen.jpg/1280px-Hafen.jpg" && full.width == 1280)
        #expect(tile.url == "https://upload.example/thumb/a/ab/Hafen.jpg/500px-Hafen.jpg")
        #expect(tile.width == 500 && tile.height == 375)
        #expect(license.label == "CC BY-SA 4.0" && license.allowsCopies)
        #expect(license.url == "https://creativecommons.org/licenses/by-sa/4.0")
    }

    @Test func filesComeInTheOrderOfTheSearchNotOfTheirPageIDs() throws {
        let pages = [Self.page(id: 1, index: 3), Self.page(id: 2, index: 1), Self.page(id: 3, index: 2)]
        let batch = try CommonsSource.decodeBatch(Self.response(Self.answer(pages)), number: 1)
        #expect(batch.files.map(\.key) == ["2", "3", "1"])
    }

    /// Documents, sounds and films are left out and counted; an SVG is shown by its rendition, never its original;
    /// a JPEG without a rendition by its original, and anything else without one is skipped.
    @Test func showsWhatAPageCanShowAndLeavesTheRestOut() throws {
        let pages = [
            Self.page(id: 1, title: "File:Plan.pdf", mime: "application/pdf"),
            Self.page(id: 2, title: "File:Song.ogg", mime: "application/ogg"),
            Self.page(id: 3, title: "File:Book.djvu", mime: "image/vnd.djvu"),
            Self.page(id: 4, title: "File:Film.webm", mime: "video/webm"),
            Self.page(
                id: 5, title: "File:Map.svg", mime: "image/svg+xml",
                thumb: "https://upload.example/thumb/m/ma/Map.svg/1280px-Map.svg.png"),
            Self.page(id: 6, title: "File:Logo.svg", mime: "image/svg+xml", thumb: "javascript:alert(1)"),
            Self.page(id: 7, title: "File:Old.jpg", thumb: "ftp://upload.example/x.jpg"),
        ]
        let batch = try CommonsSource.decodeBatch(Self.response(Self.answer(pages)), number: 2)
        #expect(batch.unshowable == 4)
        #expect(batch.files.map(\.key) == ["5", "7"])
        let urls = batch.files.map { file -> String? in
            guard case .found(_, _, _, let full, _, _, _, _) = file.item.entries[0] else { return nil }
            return full.url
        }
        #expect(
            urls == [
                "https://upload.example/thumb/m/ma/Map.svg/1280px-Map.svg.png", "https://upload.example/a/ab/Hafen.jpg",
            ])
        #expect(
            batch.warnings == [
                "Skipped Wikimedia Commons file 6 of answer 2: it has no http(s) rendition to show (and its original is no JPEG or PNG)."
            ])
    }

    @Test(arguments: [
        ("CC BY-SA 3.0 es", "https://creativecommons.org/licenses/by-sa/3.0/es/", "CC BY-SA 3.0 es", true, true),
        ("CC0", "http://creativecommons.org/publicdomain/zero/1.0/deed.en", "CC0 1.0", true, true),
        ("Public domain", "", "Public domain", true, false),
        ("PD-old-70", "", "PD-old-70", true, false),
        ("GFDL", "https://www.gnu.org/copyleft/fdl.html", "GFDL", true, true),
        ("Attribution", "", "Attribution", false, false),
        ("", "", "License unknown", false, false),
        ("CC BY 4.0", "javascript:alert(1)", "CC BY 4.0", false, false),
    ])
    func aLicenseIsLabelledLinkedAndCopiedAsTheWikiReportsIt(
        name: String, url: String, label: String, copies: Bool, linked: Bool
    ) {
        let license = CommonsSource.license(
            shortName: name.isEmpty ? nil : name, url: url.isEmpty ? nil : url, usageTerms: nil)
        #expect(license.label == label && license.allowsCopies == copies && (license.url != nil) == linked)
    }

    @Test(arguments: [
        (
            "<a href=\"//commons.wikimedia.org/wiki/User:Anna\" title=\"User:Anna\">Anna</a>", "Anna",
            "https://commons.wikimedia.org/wiki/User:Anna"
        ),
        (
            "<bdi><a href='https://en.wikipedia.org/wiki/Alfred_Brehm'>Alfred Brehm</a></bdi>", "Alfred Brehm",
            "https://en.wikipedia.org/wiki/Alfred_Brehm"
        ),
        ("Bell, Thomas; Darwin, Charles", "Bell, Thomas; Darwin, Charles", nil),
        (
            "<a href=\"javascript:alert(1)\">X</a><script>alert(2)</script><style>b{}</style> &lt;b&gt; &#233;&#x1F600;",
            "X <b> é😀", nil
        ),
        ("<ul><li>One</li><li>Two &amp; three</li></ul>", "One Two & three", nil),
        ("Unclosed <a href=\"https://a.example/", "Unclosed", nil),
        ("&bogus; & &#0; &#xZZ;", "&bogus; & &#0; &#xZZ;", nil),
    ])
    func anArtistFieldIsReadAsTextWithItsFirstLink(html: String, text: String, link: String?) {
        let credit = CommonsHTML.credit(of: html)
        #expect(credit.text == text && credit.link == link)
    }

    @Test func theFileNameStandsInForAMissingObjectName() {
        #expect(CommonsSource.fileName(ofTitle: "File:Hafen (Hamburg).jpeg") == "Hafen (Hamburg)")
        #expect(CommonsSource.fileName(ofTitle: "Datei:Plan.v2.final") == "Datei:Plan.v2")
        #expect(CommonsSource.fileName(ofTitle: "File:No extension here") == "No extension here")
    }

    @Test(arguments: [
        (200, "{\"error\":{\"code\":\"ratelimited\",\"info\":\"You've exceeded your rate limit.\"}}", "rate limit"),
        (200, "{\"error\":{\"code\":\"badvalue\",\"info\":\"Unrecognized value\"}}", "badvalue: Unrecognized value"),
        (403, "Please set a user-agent", "User-Agent"),
        (429, "Too many requests", "rate limit"),
        (503, "<html>down</html>", "HTTP 503"),
        (200, "[1, 2]", "answer 1"),
        (200, "<html>not json</html>", "answer 1"),
    ])
    func anErrorBecomesOneSentenceNamingTheWiki(status: Int, body: String, expected: String) {
        #expect {
            try CommonsSource.decodeBatch(Self.response(body, status: status), number: 1)
        } throws: { error in
            let sentence = (error as? SourceError)?.sentence ?? ""
            return sentence.contains(expected) && sentence.hasPrefix("Wikimedia Commons")
        }
    }

    @Test func followsContinueUntilTheGalleryIsFullAndSendsAUserAgentWithTheContact() async throws {
        let api = FakeAPI { url in
            let offset = Int(url.query("gsroffset") ?? "0") ?? 0
            let pages = (offset..<offset + 3).map { Self.page(id: 100 + $0, index: $0) }
            return (200, Self.answer(pages, continuation: "{\"gsroffset\":\(offset + 3),\"continue\":\"gsroffset||\"}"))
        }
        let source = CommonsSource(
            term: "Hafen", itemCount: 7, endpoint: "http://127.0.0.1:1/w", contact: "ops@example.org")
        let result = try await source.collect(using: api)
        #expect(result.items.map(\.sourceID) == ["100", "101", "102", "103", "104", "105", "106"])
        #expect(api.urls.count == 3)
        #expect(api.urls[1].contains("&continue=gsroffset%7C%7C&gsroffset=3"))
        #expect(
            api.urls[0].hasPrefix(
                "http://127.0.0.1:1/w/api.php?action=query&format=json&formatversion=2&generator=search&gsrsearch=Hafen&gsrnamespace=6&gsrlimit=7"
            ))
        #expect(source.request(continuing: [:], limit: 7).headers["User-Agent"]?.contains("(ops@example.org)") == true)
    }

    @Test func aContinuationCannotOverrideTheSearchOrInjectParameters() {
        let source = CommonsSource(term: "Hafen", itemCount: 7, endpoint: "http://h/w/", contact: "x")
        let request = source.request(
            continuing: ["gsrsearch": "other", "action": "delete", "gsroffset": "3&action=edit"], limit: 7)
        #expect(request.url.contains("gsrsearch=Hafen") && !request.url.contains("other"))
        #expect(!request.url.contains("delete") && request.url.contains("gsroffset=3%26action%3Dedit"))
    }

    @Test func wikimediaIsNotAskedWithoutAContactNorWithOneThatBreaksTheHeader() async {
        for contact in [nil, "a\r\nX-Evil: 1"] {
            await #expect(throws: SourceError.self) {
                try await CommonsSource(term: "x", itemCount: 1, contact: contact).collect(
                    using: FakeAPI { _ in (200, "{}") })
            }
        }
        #expect(CommonsSource.isWikimedia("https://commons.wikimedia.org/w/"))
        #expect(CommonsSource.isWikimedia("https://de.wikipedia.org/w/"))
        #expect(!CommonsSource.isWikimedia("http://127.0.0.1:8080/w/"))
        #expect(!CommonsSource.isWikimedia("https://notwikimedia.org/w/"))
    }

    @Test func aFileWithoutLicenseIsNotCopiedAndAReusableChoiceLeavesItOut() async throws {
        let none = Self.page(id: 1, metadata: "\"ObjectName\":{\"value\":\"No license\"}")
        let api = FakeAPI { _ in (200, Self.answer([none, Self.page(id: 2)])) }
        let any = try await CommonsSource(term: "x", itemCount: 2, endpoint: "http://h/w/", contact: "c").collect(
            using: api)
        guard case .found(_, let credit, _, _, let license, _, _, _) = any.items.first?.entries[0] else {
            Issue.record("the file decodes")
            return
        }
        #expect(license.label == "License unknown" && !license.allowsCopies && credit?.name == "an unnamed author")
        let reusable = try await CommonsSource(
            term: "x", itemCount: 2, endpoint: "http://h/w/", contact: "c", licenses: .reusable
        ).collect(using: api)
        #expect(reusable.items.map(\.sourceID) == ["2"])
        #expect(reusable.warnings.contains { $0.hasPrefix("Left out 1 Wikimedia Commons file under other licenses") })
    }
}
