import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender
@testable import VitrineSources
@testable import VitrineStore

@Suite struct ModelTests {
    @Test func laysItemsOutOnPagesWithStableNames() {
        let gallery = sampleGallery()
        let collection = gallery.collections[0]
        #expect(collection.pages.map(\.href) == ["index.html", "page-2.html"])
        #expect(collection.items.map(\.page) == [1, 1, 2])
        #expect(collection.items[0].entries.map(\.href) == ["items/101-original.html", "items/101-graffiti.html"])
        #expect(gallery.pages(salt: "").count == 2 + 3 * 2)
        guard case .picture(_, _, _, let full, _, _) = collection.items[2].entries[0].content else {
            Issue.record("item 3 has a picture")
            return
        }
        #expect(full.state == .unavailable(reason: "Download failed: HTTP 404"))
    }

    @Test func givesDuplicateIdsDistinctNames() {
        let entry = SourceEntry.missing(reason: "none")
        let result = SourceResult(
            title: "t", source: SourceDescription(name: "s", label: "S", home: nil),
            variants: [SourceVariant(key: "original", label: "Original", query: nil)],
            items: [
                SourceItem(sourceID: "7", entries: [entry]), SourceItem(sourceID: "7", entries: [entry]),
                SourceItem(sourceID: "../x", entries: [entry]),
            ],
            fetchedAt: nil)
        let items = GalleryAssembler(itemsPerPage: 10).assemble(result, images: [:]).collections[0].items
        #expect(items.map(\.id) == ["i7", "i7-2", "ix"])
        #expect(items.allSatisfy { $0.entries[0].href.hasPrefix("items/") && !$0.entries[0].href.contains("..") })
    }

    /// Finding 7 of the hostile pass: ids 5, 5 and 5-2 gave two items one page name.
    @Test(arguments: [
        ["5", "5", "5-2"], ["5-2", "5", "5"], ["A", "a", "a-2", "A-2"], ["", "n2", "", "n4", "n4"],
        [String(repeating: "x", count: 50), String(repeating: "x", count: 45), "x"], ["é", "e", "ü", "-", "--"],
    ])
    func pageNamesAreUniqueForAnySetOfIds(ids: [String]) {
        let entry = SourceEntry.missing(reason: "none")
        let result = SourceResult(
            title: "t", source: SourceDescription(name: "s", label: "S", home: nil),
            variants: [SourceVariant(key: "original", label: "Original", query: nil)],
            items: ids.map { SourceItem(sourceID: $0, entries: [entry]) }, fetchedAt: nil)
        let model = GalleryAssembler(itemsPerPage: 2).assemble(result, images: [:])
        let jobs = model.pages(salt: "").map(\.job)
        let hrefs = jobs.map { $0.href.lowercased() }
        #expect(Set(hrefs).count == hrefs.count, "\(hrefs)")
        #expect(Set(jobs.map(\.id)).count == jobs.count)
        let again = GalleryAssembler(itemsPerPage: 2).assemble(result, images: [:])
        #expect(again.pages(salt: "").map(\.job.href) == jobs.map(\.href), "the same ids give the same names")
    }

    @Test func theModelValidatesAgainstThePublishedSchema() throws {
        let document = ModelDocument.make(sampleGallery())
        let schema = try #require(DefaultTheme.files["gallery.rng"])
        #expect(document.relaxNGErrors(schema: schema) == [])
    }

    @Test func theSchemaRejectsABrokenModel() throws {
        let broken = try LibXMLDocument.parse(Array("<gallery version='1' lang='en'><title>x</title></gallery>".utf8))
        #expect(!broken.relaxNGErrors(schema: try #require(DefaultTheme.files["gallery.rng"])).isEmpty)
    }

    @Test func textSurvivesAsTextAndForbiddenCharactersGo() throws {
        let document = ModelDocument.make(sampleGallery())
        let reparsed = try LibXMLDocument.parse(document.serialized())
        let caption = reparsed.strings("//item[1]/entry[1]/caption").first
        #expect(caption == "<script>alert(\"x\")</script> & ü bell")
        #expect(reparsed.strings("//script").isEmpty)
        #expect(XMLText.clean(String(repeating: "a", count: 5_000)).count == XMLText.maximumLength + 1)
    }
}
