import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender
@testable import VitrineSources
@testable import VitrineStore

/// The tags a history keeps of an archived picture: recorded as the model has them, read back from an older file
/// without them, refused in one sentence when a file holds tags Vitrine would not write, and shown, unlinked, on the
/// archive's preview pages.
@Suite struct SiteHistoryTagsTests {
    /// A history file whose one archived entry has `tags` (JSON), or none.
    static func file(tags: String?) -> [UInt8] {
        let field = tags.map { #","tags":\#($0)"# } ?? ""
        let text =
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"2026-01-01T00:00:00Z","#
            + #""galleries":[{"path":"a/","added":["1"],"removed":[]}]}],"galleries":[{"path":"a/","items":[{"id":"1","#
            + #""first-seen":1,"last-seen":1,"current":true,"record":{"entries":[{"variant":"original","caption":"c","#
            + #""license":{"name":"n","label":"l","copies":"unknown"},"tile":{"url":"https://x.example/1.jpg"},"#
            + #""full":{"url":"https://x.example/2.jpg"}"# + field + "}]}}]}]}"
        return Array(text.utf8)
    }

    func entry(_ bytes: [UInt8]) throws -> SiteHistory.ArchivedEntry? {
        try SiteHistory.decode(bytes, file: "h.json").galleries.first?.items.first?.record?.entries.first
    }

    @Test func anOlderHistoryWithoutTagsLoadsAndTagsRoundTrip() throws {
        #expect(try entry(Self.file(tags: nil))?.tags == nil)
        let tagged = try SiteHistory.decode(Self.file(tags: #"["harbour","<b>c++</b>","straße"]"#), file: "h.json")
        #expect(tagged.galleries[0].items[0].record?.entries[0].tags == ["harbour", "<b>c++</b>", "straße"])
        #expect(try SiteHistory.decode(tagged.encoded(), file: "h.json") == tagged)
    }

    @Test(arguments: [
        #"["Harbour"]"#, "[\"\(String(repeating: "a", count: 10_000))\"]", #"["evil\u202Egpj"]"#,
        #"["bell\u0007"]"#, #"["x","x"]"#, "[" + (0..<21).map { "\"t\($0)\"" }.joined(separator: ",") + "]",
    ])
    func tagsVitrineWouldNotWriteAreRefusedInOneSentence(tags: String) {
        let error = #expect(throws: HistoryFileError.self) { try entry(Self.file(tags: tags)) }
        #expect(error?.sentence.contains("has tags Vitrine does not write") == true, "\(error?.sentence ?? "")")
        #expect(error?.sentence.contains("h.json") == true)
    }

    @Test(arguments: ["42", #"[1,2]"#, #"{"a":"b"}"#, #""harbour""#])
    func tagsOfTheWrongTypesAreRefusedInOneSentence(tags: String) {
        let error = #expect(throws: HistoryFileError.self) { try entry(Self.file(tags: tags)) }
        #expect(error?.sentence.contains("it is not a Vitrine history") == true, "\(error?.sentence ?? "")")
    }

    @Test func theHistoryRecordsEachArchivedPicturesTags() {
        let model = taggedGallery([["harbour", "<b>ship</b>"], []])
        let record = CacheStore.ImageRecord(sha256: String(repeating: "ab", count: 32), format: .jpeg, byteCount: 10)
        let images = Dictionary(uniqueKeysWithValues: (0..<2).map { ("https://cdn/\($0)-0_640.jpg", record) })
        let items = SiteHistory.archivedItems(of: model, images: images)
        #expect(items["100"]?.entries.first?.tags == ["harbour", "<b>ship</b>"])
        #expect(items["101"]?.entries.first?.tags == nil)
    }

    @Test func anArchivedPictureShowsItsTagsWithoutLinks() throws {
        let kept = SiteHistory.ArchivedEntry(
            variant: "original", caption: "c", credit: nil,
            tile: .init(shownFrom: "https://x.example/1.jpg", width: 640, height: 480),
            full: .init(shownFrom: "https://x.example/2.jpg", width: nil, height: nil),
            tags: ["harbour", "<b>gone</b>"])
        let archive = try #require(
            ArchiveAssembler(itemsPerPage: 2, folder: "hh/").assemble(
                [.init(id: "7", lastSeen: "2026-01-01T00:00:00Z", record: .init(entries: [kept]))],
                variants: [SourceVariant(key: "original", label: "Original", query: "Hamburg")], images: [:]))
        #expect(archive.items[0].entries[0].tags.map(\.name) == ["harbour", "<b>gone</b>"])
        var model = taggedGallery([["harbour"]])
        model.collections.append(archive)
        let view = try #require(model.pages(salt: "").first { $0.job.href == "hh/items/archived-7-original.html" })
        let html = try LibXMLDocument.parseHTML(
            try PageRenderer(theme: .builtIn).render(view.job, model: ModelDocument.make(view)).bytes)
        #expect(html.strings("//nav[@aria-label='Tags']//li") == ["harbour", "<b>gone</b>"])
        #expect(html.strings("//nav[@aria-label='Tags']//a").isEmpty)
        let whole = try LibXMLDocument.parse(ModelFile.bytes(of: model))
        #expect(whole.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
    }
}
