import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender

/// A gallery's search page and index in its model: named in the head of every page, one page that reads no item.
@Suite struct GallerySearchTests {
    static func gallery(captions: [String] = ["first", "second"]) -> GalleryModel {
        var gallery = taggedGallery([["harbour"], ["crane"]], captions: captions)
        gallery.search = GalleryModel.Search(folder: "hh/")
        return gallery
    }

    @Test func theSearchPageIsOnePageInTheGalleryFolderAndTheModelNamesItAndItsIndex() throws {
        let gallery = Self.gallery()
        let searchJobs = gallery.pages(salt: "t").map(\.job).filter { $0.kind == .search }
        #expect(searchJobs == [.init(kind: .search, id: "search", href: "hh/search.html")])
        let model = try LibXMLDocument.parse(try ModelFile.bytes(of: gallery))
        #expect(model.strings("/gallery/search/@href") == ["hh/search.html"])
        #expect(model.strings("/gallery/search/@index") == ["hh/search-index.js"])
        #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
    }

    @Test func aChangedCaptionChangesTheIndexButNotTheSearchPage() {
        let before = Self.gallery()
        let after = Self.gallery(captions: ["first", "changed"])
        func searchInputs(_ gallery: GalleryModel) -> [String] {
            gallery.pages(salt: "t").filter { $0.job.kind == .search }.map(\.inputs)
        }
        #expect(searchInputs(before) == searchInputs(after))
        #expect(SearchIndex.script(of: before) != SearchIndex.script(of: after))
    }

    @Test func aGalleryWithoutSearchHasNoSearchPageNorElement() throws {
        let gallery = taggedGallery([["harbour"]])
        #expect(!gallery.pages(salt: "t").contains { $0.job.kind == .search })
        let model = try LibXMLDocument.parse(try ModelFile.bytes(of: gallery))
        #expect(model.strings("/gallery/search").isEmpty)
    }
}
