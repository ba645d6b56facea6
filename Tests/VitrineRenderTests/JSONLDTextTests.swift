import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrineRender
@testable import VitrineSources
@testable import VitrineStore

/// The rights data (JSON-LD) of pages whose text is the longest the model keeps and made only of characters a JSON
/// string must escape: one such caption, title or name must never stop a build (libxslt stops a template that calls
/// itself 3,000 deep).
@Suite struct JSONLDTextTests {
    /// The longest text the model keeps, made of `characters` (each one JSON escapes) over and over.
    static func hostile(_ characters: String) -> String {
        String(String(repeating: characters, count: XMLText.maximumLength).prefix(XMLText.maximumLength))
    }

    static func gallery(_ hostile: String) -> GalleryModel {
        let record = CacheStore.ImageRecord(sha256: String(repeating: "ab", count: 32), format: .jpeg, byteCount: 10)
        let item = SourceItem(
            sourceID: "1",
            entries: [
                .found(
                    caption: hostile,
                    credit: Credit(
                        name: hostile, url: "https://www.flickr.com/photos/o@N01/1",
                        authorURL: "https://www.flickr.com/photos/o@N01/"),
                    tile: RemoteImage(url: "https://live.staticflickr.com/1/1_z.jpg", width: 640, height: 480),
                    full: RemoteImage(url: "https://live.staticflickr.com/1/1_b.jpg", width: 1024, height: 768),
                    license: License.flickr(
                        id: "11", name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/"),
                    aiGenerated: false)
            ])
        let result = SourceResult(
            title: hostile,
            source: SourceDescription(name: "flickr", label: "Flickr", home: "https://www.flickr.com/"),
            variants: [SourceVariant(key: "original", label: "Photo", query: "harbour")],
            items: [item], fetchedAt: nil)
        let images: [String: ImageOutcome] = [
            "https://live.staticflickr.com/1/1_z.jpg": .stored(record),
            "https://live.staticflickr.com/1/1_b.jpg": .stored(record),
        ]
        return GalleryAssembler(itemsPerPage: 10, folder: "").assemble(result, images: images)
    }

    func dataBlock(_ job: GalleryModel.PageJob, _ gallery: GalleryModel) throws -> [String: Any] {
        let page = try PageRenderer(theme: .builtIn).render(job, model: ModelDocument.make(gallery))
        let html = try LibXMLDocument.parseHTML(page.bytes)
        #expect(
            JSONLD.onlyDataBlocks(
                types: html.strings("//script[not(@src)]/@type"), texts: html.strings("//script[not(@src)]")))
        let texts = html.strings("//script[@type='application/ld+json']")
        return try #require(texts.count == 1 ? JSONLD.object(texts[0]) : nil)
    }

    @Test(arguments: ["\"", "\\", "<", "\t", "\"\\<\t\n"])
    func theLongestTextOfCharactersToEscapeIsDataOnEveryPage(characters: String) throws {
        let hostile = Self.hostile(characters)
        let gallery = Self.gallery(hostile)
        let caption = hostile.split(whereSeparator: { " \t\n\r".contains($0) }).joined(separator: " ")
        let preview = try dataBlock(.init(kind: .preview, id: "i1-original", href: "items/1-original.html"), gallery)
        #expect(preview["name"] as? String == (caption.isEmpty ? nil : caption))
        #expect((preview["creator"] as? [String: Any])?["name"] as? String == hostile)
        #expect(preview["creditText"] as? String == "Photo by \(hostile) on Flickr")
        #expect(preview["copyrightNotice"] as? String == "© \(hostile)")
        let grid = try dataBlock(.init(kind: .grid, id: "c1-p1", href: "index.html"), gallery)
        let media = try #require(grid["associatedMedia"] as? [[String: Any]])
        #expect(media.map { $0["name"] as? String } == [caption.isEmpty ? nil : caption])
        #expect((media.first?["creator"] as? [String: Any])?["name"] as? String == hostile)
    }
}
