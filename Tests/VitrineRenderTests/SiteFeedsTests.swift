import Foundation
import Testing

@testable import VitrineRender

@Suite struct SiteFeedsTests {
    let feeds = SiteFeeds(
        baseURL: "https://example.org/photos", title: "Fotos & <Bilder>",
        galleries: [
            .init(
                path: "hamburg/index.html", title: "Hamburg", summary: "10 images",
                updated: Date(timeIntervalSince1970: 1_700_000_000.9)),
            .init(path: "straße/index.html", title: "Straße", summary: "3 images", updated: nil),
        ])

    @Test func theSitemapListsEveryPageUnderTheBaseURLInPathOrder() throws {
        let document = try LibXMLDocument.parse(feeds.sitemap(pages: ["b/index.html", "a b/x.html", "index.html"]))
        #expect(
            document.strings("/*[local-name()='urlset']/namespace::*[name()='']") == [
                "http://www.sitemaps.org/schemas/sitemap/0.9"
            ])
        #expect(
            document.strings("//*[local-name()='loc']") == [
                "https://example.org/photos/a%20b/x.html", "https://example.org/photos/b/index.html",
                "https://example.org/photos/index.html",
            ])
    }

    @Test func theFeedIsAtomWithAnEntryPerGalleryAndWholeSecondUTCDates() throws {
        let document = try LibXMLDocument.parse(feeds.atom(timestamp: nil))
        func atom(_ path: String) -> [String] { document.strings(path) }
        #expect(atom("/*[local-name()='feed']/namespace::*[name()='']") == ["http://www.w3.org/2005/Atom"])
        #expect(atom("/*/*[local-name()='title']") == ["Fotos & <Bilder>"])
        #expect(atom("/*/*[local-name()='id']") == ["https://example.org/photos/"])
        #expect(atom("/*/*[local-name()='author']/*[local-name()='name']") == ["Fotos & <Bilder>"])
        #expect(atom("/*/*[local-name()='link'][@rel='self']/@href") == ["https://example.org/photos/feed.xml"])
        #expect(
            atom("//*[local-name()='entry']/*[local-name()='id']") == [
                "https://example.org/photos/hamburg/index.html", "https://example.org/photos/stra%C3%9Fe/index.html",
            ])
        #expect(
            atom("//*[local-name()='entry']/*[local-name()='updated']") == [
                "2023-11-14T22:13:20Z", "1970-01-01T00:00:00Z",
            ])
        #expect(atom("/*/*[local-name()='updated']") == ["2023-11-14T22:13:20Z"])
    }

    @Test func aTimestampStandsInForEveryDate() throws {
        let document = try LibXMLDocument.parse(feeds.atom(timestamp: Date(timeIntervalSince1970: 86_400)))
        #expect(Set(document.strings("//*[local-name()='updated']")) == ["1970-01-02T00:00:00Z"])
    }
}
