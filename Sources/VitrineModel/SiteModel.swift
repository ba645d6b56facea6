import Foundation
import VitrineSources

/// The home page of a site of several galleries (`vitrine build`): a card per gallery linking to its first page.
package struct SiteModel: Sendable {
    /// The `id` of the home page's root element, which the renderer's `page` parameter names.
    package static let pageID = "home"
    package static let homeHref = "index.html"
    /// The site's "What's new" page, when it keeps a history.
    package static let changesHref = "changes.html"

    package var title: String
    package var language: String
    package var galleries: [Gallery]
    /// The site's Atom feed, relative to the output root, when it has one.
    package var feedHref: String?
    /// The absolute URL the site is published at, ending in "/", when its config names one.
    package var baseURL: String?
    /// The site's "What's new" page, when it keeps a history.
    package var changesHref: String?
    /// The snapshots of the site's history, newest first: all of them in `site.xml`, a page's in the view of a "What's
    /// new" page, none in the home page's.
    package var snapshots: [Snapshot] = []
    /// The site's tags, when its galleries' pictures have some and the theme renders site tag pages.
    package var tags: SiteTags?
    /// What the `history` element holds besides its link.
    package var historyScope = HistoryScope.whole
    /// Whether the site has a search page and index (`SiteSearch`).
    package var hasSearch = false
    /// Whether the galleries are written in outline (what names them), as a page that shows none of them reads them.
    package var galleriesInOutline = false

    /// What a site model's `history` element holds: every page and snapshot (`site.xml`), one page of them (a "What's
    /// new" page's view), or only its link (the home page's view).
    package enum HistoryScope: Sendable {
        case whole
        case page(HistoryPages.View)
        case link
    }

    /// How the site's "What's new" pages split its snapshots, when it keeps a history.
    package var historyPages: HistoryPages? {
        changesHref.map { HistoryPages(href: $0, snapshotCount: snapshots.count) }
    }

    /// The view the home page is rendered from: the model without the snapshots, which it does not read.
    package var homeView: SiteModel {
        var view = self
        view.snapshots = []
        view.historyScope = .link
        return view
    }

    /// The view "What's new" page `number` (`HistoryPages`) is rendered from: the model with that page's snapshots.
    package func changesView(ofPage number: Int) -> SiteModel {
        guard let paging = historyPages else { return homeView }
        var view = self
        view.snapshots = Array(snapshots[paging.newestFirstIndices(onPage: number)])
        view.historyScope = .page(paging.view(ofPage: number))
        return view
    }

    /// The `history` element's pages and snapshots, as `historyScope` says.
    package var historyContent: ModelXML.HistoryContent<Snapshot>? {
        switch historyScope {
        case .whole: historyPages.map { ModelXML.HistoryContent(whole: $0, snapshots: snapshots) }
        case .page(let view): ModelXML.HistoryContent(view: view, snapshots: snapshots)
        case .link: nil
        }
    }

    /// One build that changed the site: when, and what it changed in each gallery.
    package struct Snapshot: Sendable {
        package var number: Int
        /// RFC 3339, UTC.
        package var time: String
        package var galleries: [Change]

        package init(number: Int, time: String, galleries: [Change]) {
            self.number = number
            self.time = time
            self.galleries = galleries
        }
    }

    /// What a snapshot changed in one gallery: how many items came and left, and the tiles of those that came and
    /// are still there.
    package struct Change: Sendable {
        /// The gallery's card id on the home page (`g1`, …).
        package var gallery: String
        package var title: String
        /// The gallery's "What's new" page.
        package var href: String
        package var added: Int
        package var removed: Int
        package var tiles: [Tile]

        package init(gallery: String, title: String, href: String, added: Int, removed: Int, tiles: [Tile]) {
            self.gallery = gallery
            self.title = title
            self.href = href
            self.added = added
            self.removed = removed
            self.tiles = tiles
        }
    }

    /// An added item as the site's "What's new" page and the feed show it: its first entry's page, caption and
    /// tile.
    package struct Tile: Sendable {
        package var href: String
        package var caption: String
        package var image: GalleryModel.LocalImage
        package var credit: Credit?
        /// Whether the picture's license lets others copy it: the site's own pages show it either way, the feed,
        /// which feed readers copy, only then.
        package var allowsCopies: Bool

        package init(
            href: String, caption: String, image: GalleryModel.LocalImage, credit: Credit?, allowsCopies: Bool
        ) {
            self.href = href
            self.caption = caption
            self.image = image
            self.credit = credit
            self.allowsCopies = allowsCopies
        }

        /// The tile of `item`: its first entry that has a picture.
        package init?(_ item: GalleryModel.Item) {
            for entry in item.entries {
                if case .picture(let caption, let credit, let tile, _, let license, _) = entry.content {
                    self.init(
                        href: entry.href, caption: caption, image: tile, credit: credit,
                        allowsCopies: license.allowsCopies)
                    return
                }
            }
            return nil
        }
    }

    /// One gallery as the home page shows it.
    package struct Gallery: Sendable {
        package var id: String
        package var title: String
        /// Its first grid page, relative to the output root.
        package var href: String
        package var source: SourceDescription
        package var queries: [String]
        package var itemCount: Int
        /// The first picture of the gallery that has an image, as a cover.
        package var cover: GalleryModel.LocalImage?
        /// A random page's schedule: how often its image changes.
        package var every: UpdateInterval?
        /// Its variants' keys and labels, which a site tag page's tiles name.
        package var variants: [SourceVariant] = []

        package init(
            id: String,
            title: String,
            href: String,
            source: SourceDescription,
            queries: [String],
            itemCount: Int,
            cover: GalleryModel.LocalImage? = nil,
            every: UpdateInterval? = nil,
            variants: [SourceVariant] = []
        ) {
            self.variants = variants
            self.id = id
            self.title = title
            self.href = href
            self.source = source
            self.queries = queries
            self.itemCount = itemCount
            self.cover = cover
            self.every = every
        }
    }

    package init(title: String, language: String = "en", galleries: [Gallery], feedHref: String? = nil) {
        self.title = title
        self.language = language
        self.galleries = galleries
        self.feedHref = feedHref
    }

    /// The home page's entry for `gallery`: its first grid page and its first available tile as the cover.
    package static func card(for gallery: GalleryModel, id: String) -> Gallery {
        let collection = gallery.collections.first
        let tiles = gallery.allItems.lazy.flatMap(\.entries).compactMap { entry -> GalleryModel.LocalImage? in
            guard case .picture(_, _, let tile, _, _, _) = entry.content else { return nil }
            return tile
        }
        // A file of the site first; a picture shown from its own URL when the gallery has no file.
        let cover =
            tiles.first { if case .available = $0.state { true } else { false } }
            ?? tiles.first { if case .remote = $0.state { true } else { false } }
        return Gallery(
            id: id, title: gallery.title, href: collection?.pages.first?.href ?? "index.html", source: gallery.source,
            queries: gallery.variants.compactMap(\.query),
            itemCount: gallery.collections.filter { $0.id != ArchiveAssembler.collectionID }.flatMap(\.allItems).count,
            cover: cover, variants: gallery.variants)
    }

    /// The home page's entry for a random page: its page, its current image (a file of the site, or its URL) as the cover,
    /// and its schedule.
    package static func card(for page: RandomPageModel, id: String) -> Gallery {
        let cover = page.images.last.map { image -> GalleryModel.LocalImage in
            switch image.location {
            case .file(let path, let mediaType):
                GalleryModel.LocalImage(
                    state: .available(path: path, mediaType: mediaType), width: image.width, height: image.height)
            case .remote(let url):
                GalleryModel.LocalImage(state: .remote(url: url), width: image.width, height: image.height)
            }
        }
        return Gallery(
            id: id, title: page.title, href: page.pageJobs[0].href, source: page.source, queries: [], itemCount: 1,
            cover: cover, every: page.every)
    }

    /// The line that says how often a random page changes: "A new image every 10 minutes".
    package static func scheduleLine(_ every: UpdateInterval) -> String { "A new image every \(every.spoken)" }
}
