import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender

/// A site's search (`vitrine build`): its index holds every entry of every gallery once, each naming its gallery,
/// hostile text stays data, it keeps the size budget, and its page and the header's box point at it.
@Suite struct SiteSearchTests {
    /// "hh/" (Hamburg) and "bb/" (Bremen), tagged, in a site with tag pages.
    static func galleries(bremenTitle: String = "Bremen", captions: [String] = []) -> [GalleryModel] {
        let link = GalleryModel.SiteLink(title: "Snapshots", href: "index.html", tagsHref: SiteTags.href)
        return [
            taggedGallery([["harbour", "ship"], ["ship"]], captions: captions, folder: "hh/", site: link),
            taggedGallery(
                [["harbour"], []], variantTags: [[], ["C++"]], folder: "bb/", site: link, title: bremenTitle),
        ]
    }

    static func site(_ galleries: [GalleryModel] = galleries()) -> SiteModel {
        var site = SiteModel(
            title: "Snapshots", galleries: galleries.enumerated().map { SiteModel.card(for: $1, id: "g\($0 + 1)") })
        site.tags = SiteTags(
            galleries: zip(site.galleries, galleries).map { ($0, SiteTags.TaggedItem.all(in: $1)) }, itemsPerPage: 2)
        site.hasSearch = true
        return site
    }

    static func script(_ galleries: [GalleryModel]) -> [UInt8] {
        SearchIndex.script(
            ofSite: galleries.map {
                SearchIndex.SiteGallery(
                    title: $0.title, href: $0.collections[0].pages[0].href, entries: SearchIndex.entries(of: $0))
            })
    }

    @Test func theSiteIndexHoldsEveryEntryOfEveryGalleryOnceEachNamingItsGallery() throws {
        let galleries = Self.galleries()
        let data = try SearchIndexTests.data(of: Self.script(galleries))
        let named = try #require(data["galleries"] as? [[String]])
        #expect(named == [["Hamburg", "hh/index.html"], ["Bremen", "bb/index.html"]])
        let entries = try SearchIndexTests.entries(of: data)
        // Each gallery's entries, as its own index has them, in the site's order: every one exactly once.
        var expected: [String] = []
        for gallery in galleries {
            let own = try SearchIndexTests.entries(of: try SearchIndexTests.data(of: SearchIndex.script(of: gallery)))
            expected += own.map { "\($0.page) \($0.tile ?? "-") \($0.caption) \($0.text)" }
        }
        #expect(entries.map { "\($0.page) \($0.tile ?? "-") \($0.caption) \($0.text)" } == expected)
        #expect(Set(entries.map(\.page)).count == entries.count)
        // Each page's path names the gallery whose folder holds it.
        let paths = try #require(data["paths"] as? [[Any]])
        let items = try #require(data["items"] as? [[Any]])
        for (item, entry) in zip(items, entries) {
            let path = paths[try #require(item[0] as? Int)]
            let gallery = try #require(path.count > 2 ? path[2] as? Int : nil)
            #expect(entry.page.hasPrefix(["hh/", "bb/"][gallery]), "\(entry.page)")
        }
        // A gallery's own index names no gallery.
        let own = try SearchIndexTests.data(of: SearchIndex.script(of: galleries[0]))
        #expect(own["galleries"] == nil && (own["paths"] as? [[Any]])?.allSatisfy { $0.count == 2 } == true)
        #expect(Self.script(galleries) == Self.script(Self.galleries()))
    }

    @Test func hostileGalleryTitlesAndCaptionsStayDataInTheSiteIndex() throws {
        let hostile = "</script><script>alert(1)</script>\u{2028}\u{2029} & <!-- \u{202E}"
        let galleries = Self.galleries(bremenTitle: hostile, captions: [hostile, "<img src=x onerror=alert(2)>"])
        let script = Self.script(galleries)
        let text = try #require(String(bytes: script, encoding: .utf8))
        for bad in ["<", ">", "&", "\u{2028}", "\u{2029}", "\u{202E}"] {
            #expect(!text.contains(bad), "\(bad.debugDescription)")
        }
        let data = try SearchIndexTests.data(of: script)
        let shown = hostile.replacingOccurrences(of: "\u{202E}", with: "")
        #expect((data["galleries"] as? [[String]])?[1][0] == shown)
        let entries = try SearchIndexTests.entries(of: data)
        #expect(entries[0].caption == shown.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        #expect(entries[2].caption == "<img src=x onerror=alert(2)>")
    }

    /// Five galleries of 1,000 photos each (the albums set's titles, a thumbnail file each), as one site's index.
    @Test func theSiteIndexOfFiveThousandPhotosInFiveGalleriesTakesAtMostSixtyBytesAPhotoAfterGzip() async throws {
        let galleries = (1...5).map {
            SearchIndexTests.albumsSet(users: 2, seed: UInt64($0), folder: "gallery-\($0)/")
        }
        #expect(galleries.map(\.allItems.count) == [1_000, 1_000, 1_000, 1_000, 1_000])
        let script = Self.script(galleries)
        let entries = try SearchIndexTests.entries(of: try SearchIndexTests.data(of: script))
        #expect(entries.count == 5_000 && Set(entries.map(\.page)).count == 5_000)
        let compressed = try await SearchIndexTests.gzipped(script)
        #expect(compressed > 5_000 * 20, "gzip made \(compressed) bytes: not a real index")
        #expect(compressed <= 5_000 * 60, "\(script.count) bytes, \(compressed) after gzip")
    }

    /// 500 items of 20 tags each, 10,000 distinct tags in all: every entry's words are cut to their limit, and each
    /// gallery tag links the site's page of its tag, under a name no other tag has.
    @Test func tenThousandTagsKeepTheIndexBoundedAndTheSiteTagLinksDistinct() throws {
        let tags = (0..<500).map { item in (0..<20).map { "東京 \(item * 20 + $0)" + String(repeating: "x", count: 60) }
        }
        let link = GalleryModel.SiteLink(title: "Snapshots", href: "index.html", tagsHref: SiteTags.href)
        let gallery = taggedGallery(tags, perPage: 50, folder: "hh/", site: link)
        let site = Self.site([gallery])
        let siteTags = try #require(site.tags)
        #expect(siteTags.tags.count == 10_000)
        let entries = SearchIndex.entries(of: gallery)
        #expect(entries.allSatisfy { $0.words.count <= SearchIndex.maximumWords })
        #expect(entries.contains { $0.words.count > SearchIndex.maximumWords - 80 })
        let own = Dictionary(uniqueKeysWithValues: siteTags.tags.map { ($0.name, $0.href) })
        let linked = try #require(gallery.tags).tags.map { SiteTags.href(ofTag: $0.name) }
        #expect(Set(linked.map { $0.lowercased() }).count == 10_000)
        #expect(try #require(gallery.tags).tags.allSatisfy { own[$0.name] == SiteTags.href(ofTag: $0.name) })
    }

    func render(_ job: GalleryModel.PageJob, _ model: LibXMLDocument) throws -> LibXMLDocument {
        try LibXMLDocument.parseHTML(try PageRenderer(theme: .builtIn).render(job, model: model).bytes)
    }

    @Test func theSearchPageAndTheSitesHeadersPointAtTheSitesIndex() throws {
        let site = Self.site()
        let page = try #require(site.searchPage(salt: ""))
        #expect(page.job.href == "search.html" && page.job.kind == .siteSearch)
        let model = ModelDocument.make(page.view)
        let schema = DefaultTheme.files["gallery.rng"]!
        #expect(model.relaxNGErrors(schema: schema) == [])
        #expect(model.strings("/site/gallery/item").isEmpty && model.strings("/site/gallery/image").isEmpty)
        let html = try render(page.job, model)
        #expect(html.strings("//ol[@id='search-results']/@data-index") == ["search-index.js"])
        #expect(html.strings("//ol[@id='search-results']/@data-root") == [""])
        #expect(html.strings("//script/@src").contains("assets/search.js"))
        #expect(html.strings("//form[@role='search']/@action") == ["search.html"])
        #expect(html.strings("//form[@role='search']//label") == ["Search every gallery"])
        #expect(html.strings("//noscript//a/@href") == ["tags/index.html", "index.html"])
        // The box on the home page, the site's tag pages; none of them loads the index.
        let home = try render(
            .init(kind: .home, id: SiteModel.pageID, href: "index.html"), ModelDocument.make(site.homeView))
        #expect(home.strings("//form[@role='search']/@action") == ["search.html"])
        #expect(home.strings("//head/noscript").count == 1)
        #expect(ModelDocument.make(site.homeView).relaxNGErrors(schema: schema) == [])
        for view in try #require(site.tags).pages(site: site, salt: "") {
            let tagPage = try render(view.job, ModelDocument.make(view))
            #expect(tagPage.strings("//form[@role='search']/@action") == ["../search.html"], "\(view.job.href)")
            #expect(ModelDocument.make(view).relaxNGErrors(schema: schema) == [], "\(view.job.href)")
        }
        for document in [html, home] {
            #expect(!document.strings("//script/@src").contains { $0.hasSuffix("search-index.js") })
        }
        let whole = try LibXMLDocument.parse(ModelFile.bytes(of: site))
        #expect(whole.relaxNGErrors(schema: schema) == [])
        #expect(whole.strings("/site/search/@index") == ["search-index.js"])
        // A site without search has neither the element nor the box.
        var plain = site
        plain.hasSearch = false
        #expect(plain.searchPage(salt: "") == nil)
        let bare = try render(
            .init(kind: .home, id: SiteModel.pageID, href: "index.html"), ModelDocument.make(plain.homeView))
        #expect(bare.strings("//form[@role='search']").isEmpty && bare.strings("//head/noscript").isEmpty)
    }

    @Test func aChangedItemNeverChangesTheSearchPagesInputs() throws {
        let before = try #require(Self.site().searchPage(salt: "")).inputs
        let after = try #require(Self.site(Self.galleries(captions: ["other", "words"])).searchPage(salt: "")).inputs
        #expect(before == after)
        #expect(try #require(Self.site(Self.galleries(bremenTitle: "Kiel")).searchPage(salt: "")).inputs != before)
        #expect(try #require(Self.site().searchPage(salt: "x")).inputs != before)
    }

    /// A gallery's tag page in a site links the site's page of its tag, and its tag index the site's; a gallery
    /// alone links neither.
    @Test func aGallerysTagPagesLinkTheSitesPagesOfTheirTags() throws {
        let site = Self.site()
        let bremen = Self.galleries()[1]
        let views = bremen.pages(salt: "")
        let cpp = try #require(views.first { $0.job.kind == .tag && $0.job.href.hasPrefix("bb/tags/c--") })
        let html = try render(cpp.job, ModelDocument.make(cpp))
        let siteCpp = try #require(site.tags?.tags.first { $0.name == "c++" })
        #expect(html.strings("//a[@class='site-tag']/@href") == ["../../" + siteCpp.href])
        #expect(html.strings("//a[@class='site-tag']") == ["In every gallery"])
        let index = try #require(views.first { $0.job.kind == .tags })
        let indexHTML = try render(index.job, ModelDocument.make(index))
        #expect(indexHTML.strings("//a[@class='site-tags']/@href") == ["../../tags/index.html"])
        #expect(ModelDocument.make(cpp).relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
        let alone = taggedGallery([["harbour"], []], variantTags: [[], ["C++"]], folder: "bb/")
        for view in alone.pages(salt: "") where [.tag, .tags].contains(view.job.kind) {
            let page = try render(view.job, ModelDocument.make(view))
            #expect(page.strings("//a[@class='site-tag' or @class='site-tags']").isEmpty, "\(view.job.href)")
        }
    }
}
