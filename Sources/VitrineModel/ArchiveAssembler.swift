import VitrineSources

/// Lays out the items a gallery keeps after they left the API's results (`keep = "all"`) as a collection of its
/// own, the archive: grid pages `archive.html`, `archive-2.html`, … and a preview page per item and variant, each
/// item marked with when it was last seen, its credits and links back as they were.
package struct ArchiveAssembler: Sendable {
    /// The archive collection's id, which its pages' ids start with (items' ids start with "a" or "i").
    static let collectionID = "c-archive"
    package static let title = "No longer in the results"

    package var itemsPerPage: Int
    package var folder: String
    package var tileShape: GalleryModel.TileShape

    package init(itemsPerPage: Int, folder: String, tileShape: GalleryModel.TileShape = .natural) {
        self.itemsPerPage = max(1, itemsPerPage)
        self.folder = folder
        self.tileShape = tileShape
    }

    /// One item that left: its id as the history has it, when it was last seen, and what it showed.
    package struct Departed: Sendable {
        package var id: String
        package var lastSeen: String
        package var record: SiteHistory.ArchivedItem

        package init(id: String, lastSeen: String, record: SiteHistory.ArchivedItem) {
            self.id = id
            self.lastSeen = lastSeen
            self.record = record
        }
    }

    /// The archive of `items` (in the history's order: those that left last first), shown with the gallery's
    /// `variants` (a variant the item had no picture for says so), its images from `images` (by the URL each was
    /// downloaded from); nil when nothing left.
    ///
    /// The archive only grows at its newest end, so it is laid out as the "What's new" pages are (`HistoryPages`):
    /// newest first, positions and pages counted from the oldest item. Page 1 holds the oldest `itemsPerPage`, the
    /// newest page, `archive.html`, what is left; an older page is `archive-N.html`. An item that leaves changes the
    /// newest page and its neighbours' preview pages, not the rest of the archive.
    ///
    /// An archived picture's tags are shown without a link (a `tag` without `href`): tag pages list the items of the
    /// results, and a link to one would come and go with them, changing archive pages the rule above keeps.
    package func assemble(
        _ items: [Departed], variants: [SourceVariant], images: [String: ImageOutcome]
    ) -> GalleryModel.Collection? {
        guard !items.isEmpty else { return nil }
        // Oldest first: by the time each was last seen, those that left together in the reverse of the history's
        // order (which lists them as the results did).
        let oldestFirst = Array(items.reversed()).enumerated().sorted {
            ($0.element.lastSeen, $0.offset) < ($1.element.lastSeen, $1.offset)
        }.map(\.element)
        let paging = HistoryPages(href: folder + "archive.html", snapshotCount: items.count, perPage: itemsPerPage)
        let pages = paging.newestFirst.map { number in
            GalleryModel.GridPage(
                id: "\(Self.collectionID)-\(number)", number: number, href: paging.href(ofPage: number))
        }
        let layout = GalleryAssembler(itemsPerPage: itemsPerPage, folder: folder)
        var names = HierarchyAssembler.Names()
        let modelItems = oldestFirst.enumerated().map { index, departed -> GalleryModel.Item in
            let slug = names.unique(departed.id, in: "")
            let entries = variants.map { variant -> GalleryModel.Entry in
                let content: GalleryModel.Content
                let kept = departed.record.entries.first { $0.variant == variant.key }
                if let kept {
                    content = layout.content(
                        of: .found(
                            caption: kept.caption,
                            credit: kept.credit.map {
                                Credit(
                                    name: $0.name, url: $0.url, role: $0.role == "publication" ? .publication : .author,
                                    authorURL: $0.authorURL)
                            },
                            tile: Self.remote(kept.tile), full: Self.remote(kept.full),
                            license: kept.license?.license ?? .unknown,
                            aiGenerated: kept.aiGenerated ?? false),
                        images: images)
                } else {
                    content = .missing(reason: "No “\(variant.query ?? variant.label)” picture was kept for this item.")
                }
                return GalleryModel.Entry(
                    id: "a\(slug)-\(variant.key)", variant: variant.key,
                    href: "\(folder)items/archived-\(slug)-\(variant.key).html", content: content,
                    tags: (kept?.tags ?? []).map { .init(name: $0, href: "") })
            }
            return GalleryModel.Item(
                id: "a\(slug)", position: index + 1, page: paging.page(ofPosition: index + 1), sourceID: departed.id,
                entries: entries, lastSeen: departed.lastSeen)
        }
        return GalleryModel.Collection(
            id: Self.collectionID, title: Self.title, tileShape: tileShape, pages: pages, collections: [],
            items: modelItems.reversed(), order: .newestFirst)
    }

    static func remote(_ image: SiteHistory.ArchivedImage) -> RemoteImage {
        RemoteImage(url: image.url, width: image.width, height: image.height)
    }
}
