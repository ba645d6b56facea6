import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender

/// A site's own tag pages (`vitrine build`): every tag of every gallery, each listing the items of every gallery
/// that have it, with digests that follow what each page shows.
@Suite struct SiteTagsTests {
    /// "hh/" with items tagged harbour/ship/harbour, "bb/" with harbour/C++ (C++ in its second variant only).
    static func site(_ hamburg: [[String]] = [["harbour", "ship"], ["ship"], ["harbour"]], perPage: Int = 2)
        -> SiteModel
    {
        let galleries = [
            taggedGallery(hamburg, perPage: perPage, folder: "hh/"),
            taggedGallery([["harbour"], []], variantTags: [[], ["C++"]], perPage: perPage, folder: "bb/"),
        ]
        var site = SiteModel(
            title: "Snapshots", galleries: galleries.enumerated().map { SiteModel.card(for: $1, id: "g\($0 + 1)") })
        site.tags = SiteTags(
            galleries: zip(site.galleries, galleries).map { ($0, SiteTags.TaggedItem.all(in: $1)) },
            itemsPerPage: perPage)
        return site
    }

    @Test func everyTagGathersTheItemsOfEveryGalleryByCountThenName() throws {
        let tags = try #require(Self.site().tags)
        #expect(tags.tags.map(\.name) == ["harbour", "ship", "c++"])
        #expect(tags.tags.map(\.count) == [3, 2, 1])
        #expect(tags.tags[0].items == ["g1-i100", "g1-i102", "g2-i100"])
        #expect(tags.tags[0].pages.map(\.href) == ["tags/harbour.html", "tags/harbour-page-2.html"])
        #expect(tags.tags[2].href.hasPrefix("tags/c--"))
        #expect(Set(tags.files.map { $0.lowercased() }).count == tags.files.count)
        let untagged = SiteTags.TaggedItem.all(in: taggedGallery([[], []]))
        #expect(untagged.isEmpty && SiteTags(galleries: [(Self.site().galleries[0], untagged)], itemsPerPage: 2) == nil)
        // A gallery without tag pages (its theme has none) gives the site no tags either.
        #expect(SiteTags.TaggedItem.all(in: taggedGallery([["harbour"]], tagPages: false)).isEmpty)
    }

    func render(_ view: SiteTags.PageView) throws -> LibXMLDocument {
        let page = try PageRenderer(theme: .builtIn).render(view.job, model: ModelDocument.make(view))
        return try LibXMLDocument.parseHTML(page.bytes)
    }

    @Test func theIndexAndTheTagPagesLinkTheGalleriesPreviewsRelatively() throws {
        let site = Self.site()
        let views = try #require(site.tags).pages(site: site, salt: "")
        #expect(views.map(\.job.href) == site.tags?.files)
        let index = try render(views[0])
        #expect(index.strings("//main//nav//a") == ["harbour", "ship", "c++"])
        #expect(index.strings("//main//nav//a/@href").first == "../tags/harbour.html")
        #expect(index.strings("//header//a[@class='brand']/@href") == ["../index.html"])
        let first = try render(views[1])
        #expect(first.strings("//li[@class='tile']/@id") == ["g1-i100", "g1-i102"])
        #expect(first.strings("//li[@class='tile']//a[@class='frame']/@href").first == "../hh/items/100-original.html")
        #expect(first.strings("//a[@rel='next']/@href") == ["../tags/harbour-page-2.html"])
        #expect(first.strings("//ol[contains(@class, 'grid')]/@start") == ["1"])
        let second = try render(views[2])
        #expect(second.strings("//li[@class='tile']/@id") == ["g2-i100"])
        #expect(second.strings("//li[@class='tile']//a[@class='frame']/@href") == ["../bb/items/100-original.html"])
        #expect(second.strings("//a[@rel='prev']/@href") == ["../tags/harbour.html"])
        #expect(second.strings("//ol[contains(@class, 'grid')]/@start") == ["3"])
        // The tile of an item tagged in its second variant only shows that variant.
        let cpp = try render(try #require(views.first { $0.job.href.hasPrefix("tags/c--") }))
        #expect(cpp.strings("//li[@class='tile']//a[@class='frame']/@href") == ["../bb/items/101-graffiti.html"])
        // Its other variant by its label, as the gallery's own pages name it, not by its key.
        #expect(cpp.strings("//li[@class='tile']//a[@class='variant']/text()") == ["Original"])
        #expect(first.strings("//header//a[@class='tag-index']/@href") == ["../tags/index.html"])
        #expect(first.strings("//header//p[@class='lede']").first?.hasPrefix("2 galleries") == true)
        let home = try PageRenderer(theme: .builtIn).render(
            .init(kind: .home, id: SiteModel.pageID, href: SiteModel.homeHref), model: ModelDocument.make(site.homeView)
        )
        #expect(
            try LibXMLDocument.parseHTML(home.bytes).strings("//a[@class='tag-index']/@href") == ["tags/index.html"])
    }

    @Test func aChangedItemChangesOnlyThePagesOfTheTagsWhoseListsChanged() throws {
        func inputs(_ site: SiteModel) -> [String: String] {
            Dictionary(uniqueKeysWithValues: site.tags!.pages(site: site, salt: "").map { ($0.job.href, $0.inputs) })
        }
        let before = inputs(Self.site())
        // The third Hamburg item loses "harbour" and gains "boat": harbour's pages (its items move) and the index
        // (counts) change, boat's page is new, ship's and c++'s stay.
        let after = inputs(Self.site([["harbour", "ship"], ["ship"], ["boat"]]))
        let changed = Set(after.keys.filter { before[$0] != after[$0] })
        #expect(changed == ["tags/index.html", "tags/harbour.html", "tags/boat.html"])
        #expect(before["tags/harbour-page-2.html"] != nil && after["tags/harbour-page-2.html"] == nil)
        // The same model gives the same digests; the theme is in them.
        #expect(inputs(Self.site()) == before)
        #expect(Self.site().tags!.pages(site: Self.site(), salt: "x")[0].inputs != before["tags/index.html"])
    }

    @Test func siteXMLHoldsEveryTagWithItsPagesAndTheHomePageOnlyTheLink() throws {
        let site = Self.site()
        let whole = try LibXMLDocument.parse(ModelFile.bytes(of: site))
        #expect(whole.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
        #expect(whole.strings("/site/tags/tag/@name") == ["harbour", "ship", "c++"])
        #expect(whole.strings("/site/tags/tag[1]/page/@href") == ["tags/harbour.html", "tags/harbour-page-2.html"])
        let home = ModelDocument.make(site.homeView)
        #expect(home.strings("/site/tags/@href") == ["tags/index.html"] && home.strings("/site/tags/tag").isEmpty)
        for view in try #require(site.tags).pages(site: site, salt: "") {
            let model = ModelDocument.make(view)
            #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [], "\(view.job.href)")
        }
    }

    /// An item recorded for a shard's record gives, written again, the bytes of the item itself; lines that are not
    /// one item of the model are refused.
    @Test func aRecordedItemWritesTheSameBytesAndOnlyAnItemIsRead() throws {
        let item = try #require(taggedGallery([["<b>harbour</b>"]]).collections.first?.items.first)
        var direct = ModelDigestBytes()
        ModelXML.write(item, to: &direct)
        var recorded = RecordedXML()
        ModelXML.write(item, to: &recorded)
        var replayed = ModelDigestBytes()
        try #require(RecordedXML(lines: recorded.lines)).replay(to: &replayed)
        #expect(replayed.bytes == direct.bytes)
        for lines in [
            ["<script", ">"], ["<item", "@id=1"], ["<item", ">", "<item", ">"], ["<item", "@on click=x", ">"],
            ["<item", ">", ">"], ["#text"], [], ["<item", "<entry", "<html", ">", ">", ">"],
        ] {
            #expect(RecordedXML(lines: lines) == nil, "\(lines)")
        }
    }
}
