import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineModel

/// A long history's "What's new" pages: a fixed number of snapshots a page, newest first, each page's view holding its
/// own snapshots only, and a new snapshot changing only the pages that show something new.
@Suite struct HistoryPagesTests {
    /// A gallery whose history has `count` snapshots, the newest adding its first item.
    func gallery(snapshots count: Int) -> GalleryModel {
        var gallery = sampleGallery()
        gallery.changesHref = "hamburg/changes.html"
        let first = gallery.allItems[0].id
        gallery.snapshots = (1...max(1, count)).reversed().prefix(count).map { number in
            .init(
                number: number, time: "2026-01-01T00:00:00Z", addedItems: number == count ? [first] : [],
                addedCount: 1, removedCount: 1)
        }
        return gallery
    }

    func inputs(_ gallery: GalleryModel) -> [String: String] {
        Dictionary(uniqueKeysWithValues: gallery.changesPages(salt: "t").map { ($0.job.href, $0.inputs) })
    }

    @Test(arguments: [(0, 1), (1, 1), (25, 1), (26, 2), (53, 3), (100, 4), (20_000, 800)])
    func aHistoryOfNSnapshotsHasCeilingOfNOver25Pages(count: Int, pages: Int) {
        let paging = HistoryPages(href: "changes.html", snapshotCount: count)
        #expect(HistoryPages.snapshotsPerPage == 25)
        #expect(paging.pageCount == pages)
        let shown = (1...paging.pageCount).map { paging.positions(onPage: $0) }
        #expect(shown.map(\.count).reduce(0, +) == count)
        #expect(shown.dropLast().allSatisfy { $0.count == 25 })
        #expect(Set((1...paging.pageCount).map(paging.href(ofPage:))).count == pages)
    }

    @Test func eachPageHoldsItsOwnSnapshotsNewestFirstWithThePagerOfItsNeighbours() throws {
        let pages = gallery(snapshots: 53).changesPages(salt: "t")
        #expect(pages.map(\.job.href) == ["hamburg/changes.html", "hamburg/changes-2.html", "hamburg/changes-1.html"])
        #expect(pages.allSatisfy { $0.job.kind == .changes && $0.job.id == "changes" })
        // The newest page holds what is left over after the full pages, counted from the oldest snapshot.
        #expect(pages[0].snapshots.map(\.number) == [53, 52, 51])
        #expect(pages[1].snapshots.map(\.number) == Array((26...50).reversed()))
        #expect(pages[2].snapshots.map(\.number) == Array((1...25).reversed()))
        // Only the newest page has the item the newest snapshot added.
        #expect(pages[0].items.count == 1)
        #expect(pages[1].items.isEmpty && pages[2].items.isEmpty)
        // The pager: newest first; the newest page says how many snapshots there are in all.
        let middle = try #require(pages[1].history)
        #expect(middle.number == 2)
        #expect(middle.pager.map(\.number) == [3, 2, 1])
        #expect(middle.pager.map(\.href) == pages.map(\.job.href))
        #expect(middle.snapshotCount == nil)
        #expect(pages[0].history?.snapshotCount == 53)

        let view = xml(of: pages[1])
        #expect(view.contains(#"<history id="changes" href="hamburg/changes.html" page="2" home=""#))
        // A page that shows none of the gallery's items does not read its collection, whose counts change with it.
        #expect(!view.contains("<collection"))
        #expect(xml(of: pages[0]).contains("<collection"))
        #expect(view.contains(#"<page number="3" href="hamburg/changes.html"/>"#))
        #expect(view.contains(#"<page number="1" href="hamburg/changes-1.html"/>"#))
        #expect(view.components(separatedBy: "<snapshot ").count - 1 == 25)
    }

    @Test func thePagerOfALongHistoryNamesAHandfulOfPages() {
        let paging = HistoryPages(href: "changes.html", snapshotCount: 100_000)
        #expect(paging.pageCount == 4_000)
        // The newest page far away is known by its link only: the page does not change when a new one begins.
        #expect(paging.pager(around: 2_000).map(\.number) == [nil, 2_002, 2_001, 2_000, 1_999, 1_998, 1])
        #expect(paging.pager(around: 2_000).first?.href == "changes.html")
        #expect(paging.pager(around: 4_000).map(\.number) == [4_000, 3_999, 3_998, 1])
        #expect(paging.pager(around: 4_000).first?.href == "changes.html")
        #expect(
            paging.pager(around: 1).map(\.href) == [
                "changes.html", "changes-3.html", "changes-2.html", "changes-1.html",
            ])
    }

    @Test func aNewSnapshotChangesTheNewestPageAndANewPageOnlyThePagesThatLinkIt() {
        let before = inputs(gallery(snapshots: 249))
        let next = inputs(gallery(snapshots: 250))
        // 250 fills the newest page (page 10): only it changes.
        #expect(Set(next.keys) == Set(before.keys))
        #expect(next.filter { before[$0.key] != $0.value }.keys.sorted() == ["hamburg/changes.html"])

        // 251 starts page 11: the full page 10 moves to a file of its own, and pages 8 and 9, whose pager links it,
        // change with it; pages 1 to 7 stay as they were.
        let grown = inputs(gallery(snapshots: 251))
        #expect(Set(grown.keys) == Set(next.keys).union(["hamburg/changes-10.html"]))
        #expect(
            grown.filter { next[$0.key] != $0.value }.keys.sorted() == [
                "hamburg/changes-10.html", "hamburg/changes-8.html", "hamburg/changes-9.html", "hamburg/changes.html",
            ])
    }

    @Test func theOtherPagesAndTheWholeModelReadTheHistorysPagesNotItsSnapshotsOnEveryPage() {
        let long = gallery(snapshots: 60)
        let short = gallery(snapshots: 2)
        // A grid or preview page reads only the history's link.
        #expect(long.pages(salt: "t").map(\.inputs) == short.pages(salt: "t").map(\.inputs))
        // The whole model (`gallery.xml`) lists every page and every snapshot with the page that shows it.
        var sink = TextSink()
        ModelXML.write(long, to: &sink)
        #expect(sink.text.contains(#"<history id="changes" href="hamburg/changes.html" snapshot-count="60">"#))
        #expect(sink.text.contains(#"<page number="3" href="hamburg/changes.html"/>"#))
        #expect(sink.text.contains(#"<page number="1" href="hamburg/changes-1.html"/>"#))
        #expect(sink.text.components(separatedBy: "<snapshot ").count - 1 == 60)
        #expect(sink.text.contains(#"<snapshot number="1" time="2026-01-01T00:00:00Z""#))
    }

    @Test func aSitesOlderPagesReadNeitherTheGalleriesCountsNorTheNewerSnapshots() {
        func site(snapshots count: Int, items: Int) -> SiteModel {
            let gallery = sampleGallery()
            var site = SiteModel(
                title: "Site",
                galleries: [
                    .init(
                        id: "g1", title: gallery.title, href: "hamburg/index.html", source: gallery.source,
                        queries: ["harbour"], itemCount: items)
                ])
            site.changesHref = SiteModel.changesHref
            site.snapshots = (1...count).reversed().map { number in
                SiteModel.Snapshot(
                    number: number, time: "2026-01-01T00:00:00Z",
                    galleries: [
                        .init(
                            gallery: "g1", title: gallery.title, href: "hamburg/changes.html", added: 1, removed: 1,
                            tiles: [])
                    ])
            }
            return site
        }
        let before = site(snapshots: 60, items: 10)
        let after = site(snapshots: 61, items: 11)
        #expect(before.historyPages?.pageCount == 3)
        // The oldest page: the same inputs although the gallery grew and a snapshot came.
        #expect(after.changesView(ofPage: 1).inputs(salt: "t") == before.changesView(ofPage: 1).inputs(salt: "t"))
        #expect(after.changesView(ofPage: 3).inputs(salt: "t") != before.changesView(ofPage: 3).inputs(salt: "t"))
        #expect(after.changesView(ofPage: 1).snapshots.map(\.number) == Array((1...25).reversed()))
        // The home page reads the counts, not the snapshots.
        #expect(after.homeView.snapshots.isEmpty)
        #expect(after.homeView.inputs(salt: "t") != before.homeView.inputs(salt: "t"))
        #expect(site(snapshots: 61, items: 10).homeView.inputs(salt: "t") == before.homeView.inputs(salt: "t"))
    }

    func xml(of view: GalleryModel.PageView) -> String {
        var sink = TextSink()
        ModelXML.write(view, to: &sink)
        return sink.text
    }
}

/// The model's XML as plain text, attributes in double quotes, elements without children closed at once.
private struct TextSink: ModelXMLSink {
    var text = ""
    var open: [String] = []
    var empty = false

    mutating func startElement(_ name: String) {
        if empty { text += ">" }
        text += "<\(name)"
        open.append(name)
        empty = true
    }
    mutating func attribute(_ name: String, _ value: String) { text += " \(name)=\"\(value)\"" }
    mutating func text(_ value: String) {
        if empty { text += ">" }
        empty = false
        text += value
    }
    mutating func endElement() {
        let name = open.removeLast()
        text += empty ? "/>" : "</\(name)>"
        empty = false
    }
}
