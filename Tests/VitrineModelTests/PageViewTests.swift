import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineModel

/// The page digests decide which pages a rebuild renders again: every page whose inputs changed must get a new
/// digest, and the others must keep theirs. The views are what the pages are rendered from.
@Suite struct PageViewTests {
    func digests(_ gallery: GalleryModel, salt: String = "theme") -> [String: String] {
        Dictionary(uniqueKeysWithValues: gallery.pages(salt: salt).map { ($0.job.id, $0.inputs) })
    }

    func changedPages(_ before: [String: String], _ after: [String: String]) -> Set<String> {
        Set(before.keys.filter { before[$0] != after[$0] })
    }

    @Test func everyPageHasADigestAndTheSameModelGivesTheSameOnes() {
        let first = digests(sampleGallery())
        #expect(first.count == sampleGallery().pages(salt: "theme").count)
        #expect(digests(sampleGallery()) == first)
        #expect(Set(first.values).count == first.count)
    }

    @Test func aChangedItemChangesItsPagesItsNeighboursAndItsGridPageOnly() {
        let before = digests(sampleGallery())
        var gallery = sampleGallery()
        guard
            case .picture(_, let credit, let tile, let full, let license, let aiGenerated) = gallery.collections[0]
                .items[1]
                .entries[0].content
        else {
            Issue.record("item 2 has a picture")
            return
        }
        gallery.collections[0].items[1].entries[0].content = .picture(
            caption: "a new caption", credit: credit, tile: tile, full: full, license: license, aiGenerated: aiGenerated
        )
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

    @Test func aChangeInANestedCollectionReachesTheListPagesAboveItButNotItsSiblings() {
        let before = digests(sampleHierarchy())
        var gallery = sampleHierarchy()
        gallery.collections[0].collections[1].collections[0].title = "renamed"
        #expect(changedPages(before, digests(gallery)) == ["root-p1", "users-2-p1", "albums-3-p1"])
    }

    @Test func eachViewHoldsThePartsItsPageReads() throws {
        let views = Dictionary(uniqueKeysWithValues: sampleGallery().pages(salt: "").map { ($0.job.id, $0) })
        let grid = try #require(views["c1-p1"])
        #expect(grid.job == .init(kind: .grid, id: "c1-p1", href: "index.html"))
        #expect(grid.items.map(\.id) == ["i101", "i102"])
        #expect(grid.collections.map(\.id) == ["c1"] && grid.collections[0].itemCount == 3)
        #expect(grid.head.title == "Hamburg" && grid.head.notices.count == 1)
        #expect(try #require(views["i101-graffiti"]).items.map(\.id) == ["i101", "i102"])
        #expect(try #require(views["i102-original"]).items.map(\.id) == ["i101", "i102", "i103"])
        #expect(try #require(views["i103-original"]).job.href == "items/103-original.html")

        let hierarchy = Dictionary(uniqueKeysWithValues: sampleHierarchy().pages(salt: "").map { ($0.job.id, $0) })
        let users = try #require(hierarchy["root-p1"])
        #expect(users.job.kind == .list && users.below.map(\.id) == ["users-1", "users-2"] && users.items.isEmpty)
        let photo = try #require(hierarchy["photos-3-photo"])
        #expect(photo.job.kind == .photo && photo.below.isEmpty)
        #expect(photo.collections.map(\.id) == ["root", "users-1", "albums-1"])
        #expect(photo.items.map(\.id) == ["photos-2", "photos-3"])
    }

    /// An archive of thousands of items (`keep = "all"`) must not make every page read every page of it: a view
    /// holds, of its collection's pages, the first, the last and those near its own (a grid page) or its items' (a
    /// preview page), so what a build makes and renders grows with the archive, not with its square.
    @Test func aViewHoldsABoundedNumberOfItsCollectionsPagesHoweverLargeTheCollection() throws {
        let views = sampleGalleryWithArchive(of: 1_000).pages(salt: "").filter {
            $0.collections.last?.id == ArchiveAssembler.collectionID
        }
        #expect(views.count == 100 + 2 * 1_000)
        #expect(views.allSatisfy { $0.collections.last?.pageCount == 100 })
        let held = views.map { $0.collections.last?.pages.count ?? 0 }.reduce(0, +)
        #expect(held <= views.count * (3 + 2 * GalleryModel.pagerReach), "\(held) pages in \(views.count) views")

        let byID = Dictionary(uniqueKeysWithValues: views.map { ($0.job.id, $0) })
        let grid = try #require(byID["c-archive-50"])
        #expect(grid.collections.last?.pages.map(\.number) == [1, 48, 49, 50, 51, 52, 100])
        #expect(grid.items.count == 10 && grid.items.allSatisfy { $0.page == 50 })
        // Item 500 is the last of page 50; the next one is on page 51.
        let preview = try #require(byID["agone_500-original"])
        #expect(preview.items.map(\.page) == [50, 50, 51])
        #expect(preview.collections.last?.pages.map(\.number) == [1, 50, 51, 100])
        let first = try #require(byID["c-archive-1"])
        #expect(first.collections.last?.pages.map(\.number) == [1, 2, 3, 100])
    }

    @Test func theHomePageDigestCoversTheWholeSiteModel() {
        let gallery = sampleGallery()
        let site = SiteModel(title: "Site", galleries: [SiteModel.card(for: gallery, id: "g1")])
        let digest = site.inputs(salt: "theme")
        var renamed = site
        renamed.galleries[0].title = "Other"
        #expect(renamed.inputs(salt: "theme") != digest)
        #expect(site.inputs(salt: "theme") == digest)
        #expect(site.inputs(salt: "other") != digest)
    }
}
