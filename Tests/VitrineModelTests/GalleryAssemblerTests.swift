import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender
@testable import VitrineSources
@testable import VitrineStore

/// The other sizes of a picture (`SourceEntry`'s alternates) in the model: each one a page can show, with its size.
@Suite struct GalleryAssemblerTests {
    private static func record(_ byte: String, width: Int? = nil, height: Int? = nil) -> CacheStore.ImageRecord {
        CacheStore.ImageRecord(
            sha256: String(repeating: byte, count: 32), format: .jpeg, byteCount: 10, width: width, height: height)
    }

    private static func gallery(license: License = .pixabay, smallOutcome: ImageOutcome? = nil) -> GalleryModel {
        let tile = RemoteImage(url: "https://cdn/1_640.jpg", width: 640, height: 427)
        let full = RemoteImage(url: "https://cdn/1_1280.jpg", width: 1280, height: 853)
        let alternates = [
            RemoteImage(url: "https://cdn/1_180.jpg", width: 270, height: 180),
            RemoteImage(url: "https://cdn/1_340.jpg", width: 510, height: 340),
            RemoteImage(url: "https://cdn/1_960.jpg", width: 960, height: 640),
        ]
        let entry = SourceEntry.found(
            caption: "port", credit: nil, tile: tile, full: full, license: license, alternates: alternates)
        let result = SourceResult(
            title: "Hamburg", source: SourceDescription(name: "pixabay", label: "Pixabay", home: nil),
            variants: [SourceVariant(key: "original", label: "Original", query: "Hamburg")],
            items: [SourceItem(sourceID: "1", entries: [entry])], fetchedAt: nil)
        let images: [String: ImageOutcome] = [
            tile.url: .stored(record("aa")), full.url: .stored(record("bb")),
            // measured smaller than the API said: the measured size wins, as for the tile and the full image
            alternates[0].url: smallOutcome ?? .stored(record("cc", width: 268, height: 179)),
            alternates[1].url: .failed(reason: "Download failed: HTTP 404"),
            // alternates[2] was not downloaded
        ]
        return GalleryAssembler(itemsPerPage: 10).assemble(result, images: images)
    }

    @Test func onlyTheOtherSizesAPageCanShowAreInTheModelWithTheirMeasuredSize() throws {
        let model = Self.gallery()
        let entry = model.collections[0].items[0].entries[0]
        let path = "images/\(String(repeating: "cc", count: 16)).jpg"
        #expect(
            entry.alternates == [
                GalleryModel.LocalImage(state: .available(path: path, mediaType: "image/jpeg"), width: 268, height: 179)
            ])
        let document = try LibXMLDocument.parse(ModelDocument.make(model).serialized())
        #expect(document.strings("//entry/image[@role = 'alternate']/@width") == ["268"])
        #expect(document.strings("//entry/image/@role") == ["tile", "full", "alternate"])
        #expect(ModelDocument.make(model).relaxNGErrors(schema: try #require(DefaultTheme.files["gallery.rng"])) == [])
    }

    @Test func aPictureThatMayNotBeCopiedOffersItsOtherSizesFromTheirURLs() throws {
        let model = Self.gallery(license: .unknown)
        let entry = model.collections[0].items[0].entries[0]
        let urls = ["https://cdn/1_180.jpg", "https://cdn/1_340.jpg", "https://cdn/1_960.jpg"]
        #expect(entry.alternates.map(\.state) == urls.map { .remote(url: $0) })
        #expect(ModelDocument.make(model).relaxNGErrors(schema: try #require(DefaultTheme.files["gallery.rng"])) == [])
    }

    @Test func anOtherSizeNotMeasuredKeepsTheSizeTheAPIGave() {
        let unmeasured = ImageOutcome.stored(Self.record("dd"))
        let entry = Self.gallery(smallOutcome: unmeasured).collections[0].items[0].entries[0]
        #expect(entry.alternates.map(\.width) == [270])
    }

    @Test func aChangedOtherSizeChangesTheDigestOfThePagesThatShowIt() {
        let before = Self.gallery().pages(salt: "")
        let after = Self.gallery(smallOutcome: .stored(Self.record("ee", width: 268, height: 179))).pages(salt: "")
        let changed = zip(before, after).filter { $0.inputs != $1.inputs }.map(\.0.job.href)
        #expect(changed == ["index.html", "items/1-original.html"])
    }
}
