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

    /// An archive of thousands of items (`keep = "all"`) must not make every page read every page of it: a grid
    /// page's view holds, of the archive's pages, the newest, the oldest and those near its own, a preview page's
    /// only its items', so what a build makes and renders grows with the archive, not with its square.
    @Test func aViewHoldsABoundedNumberOfItsCollectionsPagesHoweverLargeTheCollection() throws {
        let views = sampleGalleryWithArchive(of: 1_000).pages(salt: "").filter {
            $0.collections.last?.id == ArchiveAssembler.collectionID
        }
        #expect(views.count == 100 + 2 * 1_000)
        let held = views.map { $0.collections.last?.pages.count ?? 0 }.reduce(0, +)
        #expect(held <= views.count * (3 + 2 * GalleryModel.pagerReach), "\(held) pages in \(views.count) views")

        let byID = Dictionary(uniqueKeysWithValues: views.map { ($0.job.id, $0) })
        let grid = try #require(byID["c-archive-50"])
        #expect(grid.collections.last?.pages.map(\.number) == [100, 52, 51, 50, 49, 48, 1])
        #expect(grid.items.map(\.position) == Array((491...500).reversed()))
        #expect(grid.items.allSatisfy { $0.page == 50 })
        // Item 500 is the newest of page 50; the next newer one is on page 51.
        let preview = try #require(byID["agone_500-original"])
        #expect(preview.items.map(\.page) == [51, 50, 50])
        #expect(preview.collections.last?.pages.map(\.number) == [51, 50])
        let oldest = try #require(byID["c-archive-1"])
        #expect(oldest.collections.last?.pages.map(\.number) == [100, 3, 2, 1])
    }

    /// The archive only grows at its newest end and its pages are numbered from the oldest, so an item that leaves
    /// changes the inputs of the archive's newest page and of its newer neighbour's preview pages, and adds its own;
    /// once every ten, when it starts a new page, also the grid pages (whose pagers gain it) and the previews of the
    /// ten items that move from `archive.html` to a page of their own (and their older neighbour's). Nothing else is
    /// rendered again.
    @Test func anItemThatLeavesChangesTheArchivesNewestPageAndItsNeighboursOnly() {
        func inputs(_ count: Int) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: sampleGalleryWithArchive(of: count).pages(salt: "").map {
                    ($0.job.href, $0.inputs)
                })
        }
        func changed(from before: [String: String], to after: [String: String]) -> Set<String> {
            Set(after.filter { before[$0.key] != $0.value }.keys)
        }
        let entries = { (number: Int) in
            ["items/archived-gone_\(number)-original.html", "items/archived-gone_\(number)-graffiti.html"]
        }
        let (k1001, k1002, k1000) = (inputs(1_001), inputs(1_002), inputs(1_000))
        #expect(changed(from: k1001, to: k1002) == Set(["archive.html"] + entries(1_001) + entries(1_002)))

        // Item 1,001 starts page 101: every grid page's pager changes, and items 991 to 1,000 move to archive-100.html
        // (and item 990's previews link 991 there).
        let moved = changed(from: k1000, to: k1001)
        let grids = Set(["archive.html"] + (1...100).map { "archive-\($0).html" })
        let expected = grids.union((990...1_001).flatMap(entries))
        #expect(
            moved == expected,
            "unexpected: \(moved.subtracting(expected).sorted()), missing: \(expected.subtracting(moved).sorted())")
    }

    /// A page of the archive takes its digest from what its view holds, so the digest must change exactly when the
    /// view's model does: compared over every archive page of two archives, one item apart, at and off a page
    /// boundary.
    @Test(arguments: [1_001, 1_000])
    func anArchivePagesDigestChangesExactlyWhenItsViewDoes(count: Int) {
        func views(_ count: Int) -> [String: (inputs: String, model: [UInt8])] {
            var found: [String: (inputs: String, model: [UInt8])] = [:]
            for view in sampleGalleryWithArchive(of: count).pages(salt: "")
            where view.collections.last?.id == ArchiveAssembler.collectionID {
                var bytes = ModelDigestBytes()
                ModelXML.write(view, to: &bytes)
                found[view.job.href] = (view.inputs, bytes.bytes)
            }
            return found
        }
        let (before, after) = (views(count), views(count + 1))
        var compared = 0
        for (href, old) in before {
            guard let new = after[href] else { continue }
            #expect((old.inputs == new.inputs) == (old.model == new.model), "\(href)")
            compared += 1
        }
        #expect(compared == before.count)
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

    /// The items' digests made on every core before the walk give the pages the walk gives alone, for a flat
    /// gallery and for nested collections (each collection's before those it holds), with as many items as cores
    /// split them.
    @Test(arguments: ["flat", "nested", "with an archive of 300"])
    func itemDigestsMadeOnEveryCoreGiveTheSamePages(_ shape: String) async {
        let gallery =
            switch shape {
            case "flat": sampleGallery()
            case "nested": sampleHierarchy()
            default: sampleGalleryWithArchive(of: 300)
            }
        let alone = gallery.pages(salt: "theme")
        let split = gallery.pages(salt: "theme", itemDigests: await gallery.itemDigestsOnEveryCore())
        #expect(split.map(\.job.id) == alone.map(\.job.id))
        #expect(split.map(\.inputs) == alone.map(\.inputs))
    }
}
