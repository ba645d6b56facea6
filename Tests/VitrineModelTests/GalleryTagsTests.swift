import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender
@testable import VitrineSources
@testable import VitrineStore

/// The tags of a gallery in its model: one file per tag that no other tag shares (on any file system), the tag
/// index and tag pages as views, and digests that follow what each page shows.
@Suite struct GalleryTagsTests {
    static func gallery(
        _ tags: [[String]], variantTags: [[String]] = [], captions: [String] = [], perPage: Int = 2,
        tagPages: Bool = true
    ) -> GalleryModel {
        taggedGallery(tags, variantTags: variantTags, captions: captions, perPage: perPage, tagPages: tagPages)
    }

    @Test func tagsThatDifferOnlyInNormalisationAreOneAndOthersGetFilesOfTheirOwn() throws {
        let slugs = TagSlugs.slugs(of: [
            "c++", "c", "straße", "strasse", "index", "x-page-2", "x", "con", "東京", "new york", "new-york",
        ])
        #expect(
            slugs["c"] == "c" && slugs["strasse"] == "strasse" && slugs["x"] == "x" && slugs["new-york"] == "new-york")
        for lossy in ["c++", "straße", "index", "x-page-2", "con", "東京", "new york"] {
            let slug = try #require(slugs[lossy])
            #expect(slug.contains("--") && slug.utf8.allSatisfy { $0 < 0x80 }, "\(lossy): \(slug)")
        }
        #expect(slugs["c++"]!.hasPrefix("c--") && slugs["東京"]!.hasPrefix("t--"))
        let files = slugs.values.flatMap { slug in (1...3).map { TagSlugs.file(of: slug, page: $0).lowercased() } }
        #expect(Set(files).count == files.count)
        #expect(!files.contains("tags/index.html"))
    }

    @Test func tenThousandTagsGetTenThousandFileNamesEvenWhenCaseIsIgnored() {
        var tags = (0..<5_000).map { "tag-\($0)" }
        tags += (0..<5_000).map { "Tag \($0) ünïcödé \u{202E}" }.compactMap { PictureTags.normalise($0) }
        let slugs = TagSlugs.slugs(of: tags)
        let files = Set(
            slugs.values.flatMap { [TagSlugs.file(of: $0, page: 1), TagSlugs.file(of: $0, page: 2)] }
                .map { $0.lowercased() })
        #expect(slugs.count == 10_000 && files.count == 20_000)
    }

    @Test func theModelListsEachTagWithItsItemsCountAndPages() throws {
        let model = Self.gallery(
            [["Harbour", "ship"], ["harbour"], ["HARBOUR", "crane"], ["ship"], []],
            variantTags: [["harbour", "graffiti"], ["graffiti"]])
        let index = try #require(model.tags)
        #expect(index.href == "hh/tags/index.html")
        #expect(index.tags.map(\.name) == ["harbour", "graffiti", "ship", "crane"])
        #expect(index.tags.map(\.items.count) == [3, 2, 2, 1])
        #expect(index.tags[0].items == ["i100", "i101", "i102"])
        #expect(index.tags[0].pages.map(\.href) == ["hh/tags/harbour.html", "hh/tags/harbour-page-2.html"])
        #expect(index.tags[0].pages.map(\.id) == ["tag-harbour-p1", "tag-harbour-p2"])
        let entry = model.collections[0].items[0].entries[0]
        #expect(
            entry.tags == [
                .init(name: "harbour", href: "hh/tags/harbour.html"), .init(name: "ship", href: "hh/tags/ship.html"),
            ])
        let document = ModelDocument.make(model)
        #expect(document.relaxNGErrors(schema: try #require(DefaultTheme.files["gallery.rng"])) == [])
        let parsed = try LibXMLDocument.parse(document.serialized())
        #expect(parsed.strings("/gallery/tags/tag/@name") == ["harbour", "graffiti", "ship", "crane"])
        #expect(parsed.strings("/gallery/tags/tag/@count") == ["3", "2", "2", "1"])
        #expect(parsed.strings("//item[@id='i100']/entry[1]/tag") == ["harbour", "ship"])
        #expect(
            parsed.strings("//item[@id='i100']/entry[1]/tag/@href") == ["hh/tags/harbour.html", "hh/tags/ship.html"])
    }

    @Test func aGalleryWithoutTagsOrWithoutTagStylesheetsHasNoTagPages() throws {
        for model in [Self.gallery([[], []]), Self.gallery([["a"], ["b"]], tagPages: false)] {
            #expect(model.tags == nil)
            #expect(model.allItems.flatMap(\.entries).allSatisfy { $0.tags.isEmpty })
            #expect(!model.pages(salt: "").contains { $0.job.kind == .tag || $0.job.kind == .tags })
            let parsed = try LibXMLDocument.parse(ModelDocument.make(model).serialized())
            #expect(parsed.strings("//tags | //tag").isEmpty)
        }
    }

    @Test func markupInATagIsTextInTheModel() throws {
        let model = Self.gallery([["<script>alert(1)</script>", "a&b"]])
        let document = ModelDocument.make(model)
        #expect(document.relaxNGErrors(schema: try #require(DefaultTheme.files["gallery.rng"])) == [])
        let parsed = try LibXMLDocument.parse(document.serialized())
        #expect(parsed.strings("//entry/tag") == ["<script>alert(1)</script>", "a&b"])
        #expect(parsed.strings("//script").isEmpty)
    }

    @Test func aTagPageViewHoldsItsTagItsItemsAndNoCountThatOtherItemsChange() throws {
        let model = Self.gallery([["harbour"], ["ship"], ["harbour"], ["harbour"], ["ship"]])
        let views = model.pages(salt: "")
        let pages = views.filter { $0.job.kind == .tag }
        #expect(pages.map(\.job.href) == ["hh/tags/harbour.html", "hh/tags/harbour-page-2.html", "hh/tags/ship.html"])
        #expect(pages.map { $0.items.map(\.id) } == [["i100", "i102"], ["i103"], ["i101", "i104"]])
        let first = try #require(pages.first)
        #expect(first.collections.count == 1 && first.collections[0].holdsCounts == false)
        #expect(first.collections[0].pages.map(\.number) == [1])
        let index = try #require(views.first { $0.job.kind == .tags })
        #expect(index.job == .init(kind: .tags, id: "tags", href: "hh/tags/index.html"))
        #expect(index.items.isEmpty && index.tags?.tags.map(\.name) == ["harbour", "ship"])
    }

    @Test func aChangedItemChangesThePagesOfItsTagsAndTheIndexOnly() {
        let digests = { (model: GalleryModel) in
            Dictionary(uniqueKeysWithValues: model.pages(salt: "").map { ($0.job.href, $0.inputs) })
        }
        let tags = [["harbour"], ["ship"], ["crane"], ["crane"]]
        let before = digests(Self.gallery(tags, perPage: 10))
        // item 2's caption: its tag's page shows its tile; the index shows no caption
        let captioned = digests(Self.gallery(tags, captions: ["item 0", "a new caption"], perPage: 10))
        #expect(captioned["hh/tags/ship.html"] != before["hh/tags/ship.html"])
        #expect(captioned["hh/tags/harbour.html"] == before["hh/tags/harbour.html"])
        #expect(captioned["hh/tags/crane.html"] == before["hh/tags/crane.html"])
        #expect(captioned["hh/tags/index.html"] == before["hh/tags/index.html"])
        // item 1 gains a tag: the index's counts and its tags' pages change, the others do not
        let tagged = digests(Self.gallery([["harbour", "crane"], ["ship"], ["crane"], ["crane"]], perPage: 10))
        #expect(tagged["hh/tags/index.html"] != before["hh/tags/index.html"])
        #expect(tagged["hh/tags/crane.html"] != before["hh/tags/crane.html"])
        #expect(tagged["hh/tags/harbour.html"] != before["hh/tags/harbour.html"])
        #expect(tagged["hh/tags/ship.html"] == before["hh/tags/ship.html"])
        // an item more, at the end, with a tag of its own: no other tag page changes (the collection's counts are not
        // on them)
        let grown = digests(Self.gallery(tags + [["new"]], perPage: 10))
        for page in ["hh/tags/harbour.html", "hh/tags/ship.html", "hh/tags/crane.html"] {
            #expect(grown[page] == before[page], "\(page)")
        }
        #expect(grown["hh/tags/new.html"] != nil)
    }

    @Test func aTagPagesDigestCoversAllOfEachItemItShowsAndItsPager() throws {
        let digests = { (model: GalleryModel) in
            Dictionary(uniqueKeysWithValues: model.pages(salt: "").map { ($0.job.href, $0.inputs) })
        }
        let tags = [["harbour"], ["ship"], ["harbour"], ["harbour"]]
        let model = Self.gallery(tags, perPage: 2)
        let before = digests(model)
        let harbour = model.pages(salt: "").filter { $0.job.kind == .tag && $0.job.href.contains("harbour") }
        #expect(harbour.count == 2 && Set(harbour.map(\.inputs)).count == 2)
        // Item 3 (on harbour's second page) gets another address for its preview: a part of the item no caption
        // shows, which only the item's whole digest holds.
        var moved = model
        moved.collections[0].items[3].entries[0].href += "?moved"
        let after = digests(moved)
        let second = try #require(harbour.last?.job.href)
        #expect(after[second] != before[second])
        for page in harbour.dropLast().map(\.job.href) + ["hh/tags/ship.html"] { #expect(after[page] == before[page]) }
        // The same items under another salt (a theme of its own): every tag page changes.
        let salted = Dictionary(uniqueKeysWithValues: model.pages(salt: "theme").map { ($0.job.href, $0.inputs) })
        for page in harbour.map(\.job.href) { #expect(salted[page] != before[page]) }
    }

    @Test func tenThousandDistinctTagsMakeTheirPagesInReasonableTime() throws {
        let tags = (0..<500).map { item in (0..<20).map { "t\(item)-\($0)" } }
        let clock = ContinuousClock()
        var views: [GalleryModel.PageView] = []
        let elapsed = clock.measure {
            views = Self.gallery(tags, perPage: 100).pages(salt: "")
        }
        #expect(views.filter { $0.job.kind == .tag }.count == 10_000)
        #expect(Set(views.map { $0.job.href.lowercased() }).count == views.count)
        // A debug build on a shared machine: about 2 s for these 10,000 pages when measured.
        #expect(elapsed < .seconds(30))
    }
}
