import Foundation

/// The history as the pages show it: a gallery's snapshots on its "What's new" pages, the site's on its own.
extension SiteHistory {
    /// The snapshots that changed the gallery in `folder`, newest first, with the added items it still has.
    package func snapshots(of folder: String, model: GalleryModel) -> [GalleryModel.Snapshot] {
        let ids = Dictionary(
            model.allItems.map { ($0.sourceID ?? $0.id, $0.id) }, uniquingKeysWith: { first, _ in first })
        return snapshots.reversed().compactMap { snapshot in
            guard let change = snapshot.galleries.first(where: { $0.path == folder }) else { return nil }
            return GalleryModel.Snapshot(
                number: snapshot.number, time: snapshot.time, addedItems: change.added.compactMap { ids[$0] },
                addedCount: change.added.count, removedCount: change.removed.count)
        }
    }

    /// The site's snapshots, newest first, for its "What's new" pages and feed: each gallery's counts, the gallery's
    /// "What's new" page that shows the snapshot, and at most `tilesPerGallery` tiles of the items it gained and still
    /// has.
    package func siteSnapshots(of parts: [(folder: String, model: GalleryModel?)], tilesPerGallery: Int = 12)
        -> [SiteModel.Snapshot]
    {
        // Each gallery's items by their id in the history, and its "What's new" page of each of its snapshots, worked
        // out once for all the snapshots.
        var itemsByFolder: [String: (index: Int, model: GalleryModel, items: [String: GalleryModel.Item])] = [:]
        var pageOfSnapshot: [String: [Int: String]] = [:]
        for (index, part) in parts.enumerated() {
            guard let model = part.model else { continue }
            itemsByFolder[part.folder] = (
                index, model,
                Dictionary(model.allItems.map { ($0.sourceID ?? $0.id, $0) }, uniquingKeysWith: { first, _ in first })
            )
            if let paging = model.historyPages {
                var pages: [Int: String] = [:]
                for (index, snapshot) in model.snapshots.enumerated() {
                    pages[snapshot.number] = paging.href(ofPage: paging.page(ofNewestFirstIndex: index))
                }
                pageOfSnapshot[part.folder] = pages
            }
        }
        // The snapshots that changed a gallery the build has, newest first: the site's pages split these.
        let shown = snapshots.reversed().filter { snapshot in
            snapshot.galleries.contains { itemsByFolder[$0.path]?.model.changesHref != nil }
        }
        let paging = HistoryPages(href: SiteModel.changesHref, snapshotCount: shown.count)
        // The tiles a source's terms still let a page show, newest first (Flickr: 30 photos a page); each of the
        // site's "What's new" pages starts afresh.
        var room: [String: Int] = [:]
        var page = paging.pageCount
        return shown.enumerated().map { position, snapshot in
            if paging.page(ofNewestFirstIndex: position) != page {
                page = paging.page(ofNewestFirstIndex: position)
                room = [:]
            }
            let changes = snapshot.galleries.compactMap { change -> SiteModel.Change? in
                guard let (index, model, byID) = itemsByFolder[change.path],
                    let href = pageOfSnapshot[change.path]?[snapshot.number] ?? model.changesHref
                else { return nil }
                let source = model.source.name
                let limit = min(tilesPerGallery, room[source] ?? model.source.photosPerPageLimit ?? .max)
                let tiles = Array(
                    change.added.lazy.compactMap { byID[$0] }.compactMap(SiteModel.Tile.init).prefix(limit))
                if model.source.photosPerPageLimit != nil {
                    room[source] = (room[source] ?? model.source.photosPerPageLimit ?? 0) - tiles.count
                }
                return SiteModel.Change(
                    gallery: "g\(index + 1)", title: model.title, href: href, added: change.added.count,
                    removed: change.removed.count, tiles: tiles)
            }
            return SiteModel.Snapshot(number: snapshot.number, time: snapshot.time, galleries: changes)
        }
    }
}
