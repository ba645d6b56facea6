import VitrineBasics

// The `history` element's parts: its pages and snapshots, in the whole model and in a "What's new" page's view.
extension ModelXML {
    /// What a `history` element holds besides its `id` and `href`: in the whole model every page and every snapshot,
    /// in a "What's new" page's view its page's number, its pager's pages and its snapshots.
    package struct HistoryContent<Snapshot> {
        var snapshots: [Snapshot]
        var pages: [HistoryPages.Page]
        /// The view's page; nil in the whole model.
        var number: Int?
        var snapshotCount: Int?
        var home: String?
        /// The page of the snapshot at an index of `snapshots`.
        var page: (Int) -> Int

        /// The whole model's: every page, and every snapshot (newest first) with the page that shows it.
        init(whole paging: HistoryPages, snapshots: [Snapshot]) {
            self.snapshots = snapshots
            pages = paging.allPages
            number = nil
            snapshotCount = paging.snapshotCount
            page = paging.page(ofNewestFirstIndex:)
        }

        /// A page's view: the snapshots on it.
        init(view: HistoryPages.View, snapshots: [Snapshot]) {
            self.snapshots = snapshots
            pages = view.pager
            number = view.number
            snapshotCount = view.snapshotCount
            home = view.home
            page = { [number = view.number] _ in number }
        }
    }

    /// The attributes of a `history` element after `href`, and its `page` elements.
    static func writeStart<Snapshot>(of history: HistoryContent<Snapshot>, to sink: inout some ModelXMLSink) {
        if let number = history.number { sink.attribute("page", String(number)) }
        if let count = history.snapshotCount { sink.attribute("snapshot-count", String(count)) }
        if let home = history.home { sink.cleanAttribute("home", home) }
        for page in history.pages {
            sink.startElement("page")
            if let number = page.number { sink.attribute("number", String(number)) }
            sink.cleanAttribute("href", page.href)
            sink.endElement()
        }
    }

    /// Opens a `snapshot` element and writes its attributes.
    static func writeStart(
        of snapshot: (number: Int, time: String, added: Int, removed: Int), page: Int, to sink: inout some ModelXMLSink
    ) {
        sink.startElement("snapshot")
        sink.attribute("number", String(snapshot.number))
        sink.cleanAttribute("time", snapshot.time)
        sink.cleanAttribute("label", UTCTime.spoken(rfc3339: snapshot.time))
        sink.attribute("added", String(snapshot.added))
        sink.attribute("removed", String(snapshot.removed))
        sink.attribute("page", String(page))
    }
}
