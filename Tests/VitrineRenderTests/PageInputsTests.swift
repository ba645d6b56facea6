import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender

/// The page digests decide which pages a rebuild renders again: every page whose inputs changed must get a new
/// digest, and the others must keep theirs.
@Suite struct PageInputsTests {
    func digests(_ gallery: GalleryModel, salt: String = "theme") -> [String: String] {
        PageInputs(of: ModelDocument.make(gallery), salt: salt).digests
    }

    func changedPages(_ before: [String: String], _ after: [String: String]) -> Set<String> {
        Set(before.keys.filter { before[$0] != after[$0] })
    }

    @Test func everyPageHasADigestAndTheSameModelGivesTheSameOnes() {
        let first = digests(sampleGallery())
        #expect(Set(first.keys) == Set(sampleGallery().pageJobs.map(\.id)))
        #expect(digests(sampleGallery()) == first)
        #expect(Set(first.values).count == first.count)
    }

    @Test func aChangedItemChangesItsPagesItsNeighboursAndItsGridPageOnly() {
        let before = digests(sampleGallery())
        var gallery = sampleGallery()
        guard case .picture(_, let credit, let tile, let full) = gallery.collections[0].items[1].entries[0].content
        else {
            Issue.record("item 2 has a picture")
            return
        }
        gallery.collections[0].items[1].entries[0].content = .picture(
            caption: "a new caption", credit: credit, tile: tile, full: full)
        #expect(
            changedPages(before, digests(gallery)) == [
                "i102-original", "i102-graffiti", "i101-original", "i101-graffiti", "i103-original", "i103-graffiti",
                "c1-p1",
            ])

        var last = sampleGallery()
        last.collections[0].items[2].entries[1].content = .missing(reason: "Another reason.")
        #expect(
            changedPages(before, digests(last)) == [
                "i103-original", "i103-graffiti", "i102-original", "i102-graffiti", "c1-p2",
            ])
    }

    @Test func theHeadTheCollectionAndTheTemplatesReachEveryPage() {
        let before = digests(sampleGallery())
        var retitled = sampleGallery()
        retitled.title = "Altona"
        #expect(changedPages(before, digests(retitled)) == Set(before.keys))

        var notices = sampleGallery()
        notices.notices.append(.init(kind: .stale, text: "Showing results saved earlier."))
        #expect(changedPages(before, digests(notices)) == Set(before.keys))

        var paged = sampleGallery()
        paged.collections[0].pages[1].href = "seite-2.html"
        #expect(changedPages(before, digests(paged)) == Set(before.keys))

        #expect(changedPages(before, digests(sampleGallery(), salt: "another theme")) == Set(before.keys))
    }

    @Test func theHomePageDigestCoversTheWholeSiteModel() {
        let gallery = sampleGallery()
        let site = SiteModel(title: "Site", galleries: [SiteModel.card(for: gallery, id: "g1")])
        let digest = PageInputs.digest(ofWhole: ModelDocument.make(site), salt: "theme")
        var renamed = site
        renamed.galleries[0].title = "Other"
        #expect(PageInputs.digest(ofWhole: ModelDocument.make(renamed), salt: "theme") != digest)
        #expect(PageInputs.digest(ofWhole: ModelDocument.make(site), salt: "theme") == digest)
        #expect(PageInputs.digest(ofWhole: ModelDocument.make(site), salt: "other") != digest)
    }
}
