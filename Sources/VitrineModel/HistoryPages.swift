/// How a "What's new" page splits a history of many snapshots into pages (docs/model.md, "History"); the archive
/// of a gallery that keeps every item is paged the same way, an item for a snapshot (`ArchiveAssembler`).
///
/// The pages hold fixed runs of snapshots counted from the oldest: page 1 holds the first `perPage`, page 2 the next,
/// and the newest page, `changes.html`, what is left (1 to `perPage`). An older page is `changes-N.html`. So a new
/// snapshot changes the newest page only, and once the newest page is full, the next snapshot starts a new one: the
/// full page moves to a file of its own and keeps it, so a snapshot's link stays the same once it left the newest
/// page, and the pages whose pager shows the new page are the only others to change.
package struct HistoryPages: Sendable, Hashable {
    /// 25 snapshots a page: about a month of daily builds; a page shows at most 25 snapshots' new tiles (a site's up
    /// to 12 a gallery), loaded lazily, which keeps a page of a busy site's history under a few hundred kilobytes.
    package static let snapshotsPerPage = 25

    /// The newest page, relative to the output root (`hamburg/changes.html`).
    package var href: String
    package var snapshotCount: Int
    package var perPage: Int

    package init(href: String, snapshotCount: Int, perPage: Int = snapshotsPerPage) {
        self.href = href
        self.snapshotCount = snapshotCount
        self.perPage = max(1, perPage)
    }

    /// At least one: a history without snapshots has a newest page that says so.
    package var pageCount: Int { max(1, (snapshotCount + perPage - 1) / perPage) }

    /// The file of page `number` (1 is the oldest): the newest is `href`, another `changes-N.html` beside it.
    package func href(ofPage number: Int) -> String {
        guard number != pageCount, href.hasSuffix(".html") else { return href }
        return String(href.dropLast(".html".count)) + "-\(number).html"
    }

    /// The page that holds the snapshot at `position` in the history (1 is the oldest).
    package func page(ofPosition position: Int) -> Int { min(pageCount, max(1, (position - 1) / perPage + 1)) }

    /// The positions of the snapshots on page `number`, oldest first.
    package func positions(onPage number: Int) -> Range<Int> {
        let start = (number - 1) * perPage + 1
        return start..<min(snapshotCount + 1, start + perPage)
    }

    /// The pages the pager of page `number` links, newest first: the newest, the oldest and those within
    /// `GalleryModel.pagerReach` of it, as a grid page's pager does. Never more than a handful, whatever the
    /// history's length.
    func pager(around number: Int) -> [Page] {
        let reach = GalleryModel.pagerReach
        let near = max(1, number - reach)...min(pageCount, number + reach)
        let numbers = Set([1, pageCount]).union(near)
        return numbers.sorted(by: >).map {
            Page(number: $0 == pageCount && !near.contains($0) ? nil : $0, href: href(ofPage: $0))
        }
    }

    /// One page of the history as a pager links it. The pager names the newest page (the history's `href`)
    /// "Latest", and a page far from it knows it only by its `href`, so that it does not change when a new page
    /// begins.
    package struct Page: Sendable, Hashable {
        /// Nil for the newest page beyond a pager's reach.
        package var number: Int?
        package var href: String
    }
}

extension HistoryPages {
    /// What one "What's new" page reads of the paging: its number, the pages its pager links, and, on the newest page
    /// only, how many snapshots the history has (an older page must not change with every new snapshot).
    package struct View: Sendable, Hashable {
        package var number: Int
        var pager: [Page]
        package var snapshotCount: Int?
        /// A gallery's first grid page, which a page that shows none of its items links to.
        package var home: String?
    }

    package func view(ofPage number: Int, home: String? = nil) -> View {
        View(
            number: number, pager: pager(around: number), snapshotCount: number == pageCount ? snapshotCount : nil,
            home: home)
    }

    /// The pages' numbers, newest first.
    package var newestFirst: ReversedCollection<ClosedRange<Int>> { (1...pageCount).reversed() }

    /// Every page, newest first, as the whole model (`gallery.xml`, `site.xml`) lists them.
    package var allPages: [Page] { newestFirst.map { Page(number: $0, href: href(ofPage: $0)) } }

    /// The indices of page `number`'s snapshots in a list of all of them newest first.
    func newestFirstIndices(onPage number: Int) -> Range<Int> {
        let positions = positions(onPage: number)
        return (snapshotCount + 1 - positions.upperBound)..<(snapshotCount + 1 - positions.lowerBound)
    }

    /// The page of the snapshot at `index` of a list of all of them newest first.
    package func page(ofNewestFirstIndex index: Int) -> Int { page(ofPosition: snapshotCount - index) }
}
