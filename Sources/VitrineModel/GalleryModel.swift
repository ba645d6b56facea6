import VitrineSources

/// A gallery ready to render: every page named, every image a local file or a stated failure.
/// It mirrors the XML model documented in docs/model.md one to one.
///
/// Public only as the namespace of `TileShape`; the model itself is the package's own.
public struct GalleryModel: Sendable {
    package var title: String
    package var language: String
    package var source: SourceDescription
    package var notices: [Notice]
    package var variants: [SourceVariant]
    /// The site this gallery is part of, when `vitrine build` puts several galleries under one home page.
    package var site: SiteLink?
    package var collections: [Collection]
    /// The snapshots that changed the gallery, newest first (its "What's new" pages).
    package var snapshots: [Snapshot] = [] {
        didSet { historyPages?.snapshotCount = snapshots.count }
    }
    /// How its "What's new" pages split the snapshots, when the site keeps a history; `changesHref` is the newest.
    package var historyPages: HistoryPages?
    /// The gallery's newest "What's new" page, relative to the output root, when the site keeps a history.
    package var changesHref: String? {
        get { historyPages?.href }
        set { historyPages = newValue.map { HistoryPages(href: $0, snapshotCount: snapshots.count) } }
    }
    /// The collection of the items that left the results, when the gallery keeps them (`keep = "all"`).
    package var archive: ArchiveLink?
    /// The gallery's tags and their pages, when its pictures have tags (`GalleryTags`).
    package var tags: TagIndex?
    /// The gallery's search page and index, when its theme has a search page (`GallerySearch`).
    package var search: Search?

    /// Where the items that left the results are, and how many there are.
    package struct ArchiveLink: Sendable, Hashable {
        /// Its newest grid page, relative to the output root. Every page of the gallery links it, so it holds no count
        /// that changes when an item leaves (the archive's own pages say how many there are).
        package var href: String

        package init(href: String) {
            self.href = href
        }
    }

    package init(
        title: String,
        language: String,
        source: SourceDescription,
        notices: [Notice],
        variants: [SourceVariant],
        site: SiteLink? = nil,
        collections: [Collection]
    ) {
        self.title = title
        self.language = language
        self.source = source
        self.notices = notices
        self.variants = variants
        self.site = site
        self.collections = collections
    }

    /// A link from a gallery's pages up to the home page of the site that holds it.
    package struct SiteLink: Sendable, Hashable {
        package var title: String
        /// The home page, relative to the output root.
        package var href: String
        /// The absolute URL the site is published at, ending in "/", when its config names one: link-preview cards
        /// and rights data need absolute URLs.
        package var baseURL: String?
        /// The site's tag index (`SiteTags.href`), when its theme renders site tag pages: a site has them when any
        /// of its galleries has tags, so a gallery links them only from its own tag pages.
        package var tagsHref: String?

        package init(title: String, href: String, baseURL: String? = nil, tagsHref: String? = nil) {
            self.title = title
            self.href = href
            self.baseURL = baseURL
            self.tagsHref = tagsHref
        }
    }

    /// One build that changed the gallery (`SiteHistory`): when, the items it added that the gallery still has
    /// (by their model ids), and how many it added and removed in all.
    package struct Snapshot: Sendable, Hashable {
        package var number: Int
        /// RFC 3339, UTC.
        package var time: String
        package var addedItems: [String]
        package var addedCount: Int
        package var removedCount: Int

        package init(number: Int, time: String, addedItems: [String], addedCount: Int, removedCount: Int) {
            self.number = number
            self.time = time
            self.addedItems = addedItems
            self.addedCount = addedCount
            self.removedCount = removedCount
        }
    }

    /// A message shown on every page, such as "these results are from the cache".
    package struct Notice: Sendable, Hashable {
        package enum Kind: String, Sendable { case stale, info, warning }
        package var kind: Kind
        package var text: String

        package init(kind: Kind, text: String) {
            self.kind = kind
            self.text = text
        }
    }

    /// A set of items shown as grid pages; collections may nest (album hierarchies).
    package struct Collection: Sendable {
        package var id: String
        package var title: String
        /// How grid tiles are shaped.
        package var tileShape: TileShape = .natural
        package var pages: [GridPage]
        package var collections: [Collection]
        package var items: [Item]
        /// What its pages show: a grid of its items, a list of its nested collections, or an album.
        package var kind: CollectionKind = .gallery
        /// A second name shown beside the title (a user's username).
        package var subtitle: String?
        /// The API's id of what the collection stands for.
        package var sourceID: String?
        /// The picture standing for the collection in its parent's list.
        package var cover: LocalImage?
        /// In which order its items are listed, and so from which end its positions and pages count.
        package var order: Order = .asListed

        package init(
            id: String,
            title: String,
            tileShape: TileShape = .natural,
            pages: [GridPage],
            collections: [Collection],
            items: [Item],
            kind: CollectionKind = .gallery,
            subtitle: String? = nil,
            sourceID: String? = nil,
            cover: LocalImage? = nil,
            order: Order = .asListed
        ) {
            self.id = id
            self.title = title
            self.tileShape = tileShape
            self.pages = pages
            self.collections = collections
            self.items = items
            self.kind = kind
            self.subtitle = subtitle
            self.sourceID = sourceID
            self.cover = cover
            self.order = order
        }

        /// Its items and those of the collections below it, depth first.
        package var allItems: [Item] { items + collections.flatMap(\.allItems) }
    }

    /// Every item of every collection, nested ones included, depth first.
    package var allItems: [Item] { collections.flatMap(\.allItems) }

    /// What a collection's pages show: `gallery`, a grid of items with preview pages; `list`, a list of its nested
    /// collections; `album`, a grid of photos with their titles on the pictures and a full-screen page per photo.
    package enum CollectionKind: String, Sendable { case gallery, list, album }

    /// The order of a collection's items. `asListed`: as the API lists them, positions and pages counted from the
    /// first. `newestFirst`: a collection that only grows at its newest end (the archive), listed newest first but
    /// with positions and pages counted from the oldest, so that a new item changes its newest page and its
    /// neighbours' pages only (docs/model.md, "The archive").
    package enum Order: String, Sendable { case asListed = "as-listed", newestFirst = "newest-first" }

    /// How grid tiles are shaped: each picture in its own proportions, or square crops (thumbnail grids).
    public enum TileShape: String, Sendable { case natural, square }

    /// One grid page of a collection.
    package struct GridPage: Sendable, Hashable {
        package var id: String
        package var number: Int
        package var href: String

        package init(id: String, number: Int, href: String) {
            self.id = id
            self.number = number
            self.href = href
        }
    }

    /// One item and its entries, one per variant.
    package struct Item: Sendable {
        package var id: String
        package var position: Int
        package var page: Int
        package var sourceID: String?
        package var entries: [Entry]
        /// An archived item: when it was last in the results (RFC 3339, UTC).
        package var lastSeen: String?

        package init(
            id: String, position: Int, page: Int, sourceID: String? = nil, entries: [Entry], lastSeen: String? = nil
        ) {
            self.id = id
            self.position = position
            self.page = page
            self.sourceID = sourceID
            self.entries = entries
            self.lastSeen = lastSeen
        }
    }

    /// One variant of an item; it has a preview page of its own.
    package struct Entry: Sendable {
        package var id: String
        package var variant: String
        package var href: String
        package var content: Content
        /// The picture in the other sizes the source offers, each available or shown from its URL (never one
        /// that is unavailable), for the pages' `srcset`.
        package var alternates: [LocalImage]
        /// The picture's tags, each with its tag page.
        package var tags: [TagLink] = []

        package init(
            id: String, variant: String, href: String, content: Content, alternates: [LocalImage] = [],
            tags: [TagLink] = []
        ) {
            self.id = id
            self.variant = variant
            self.href = href
            self.content = content
            self.alternates = alternates
            self.tags = tags
        }
    }

    /// What an entry shows: a picture under its license (and whether an AI made it), or why there is none.
    package enum Content: Sendable {
        case picture(
            caption: String, credit: Credit?, tile: LocalImage, full: LocalImage, license: License,
            aiGenerated: Bool)
        case missing(reason: String)
    }

    /// A rendition as the pages reference it.
    package struct LocalImage: Sendable, Hashable {
        package enum State: Sendable, Hashable {
            /// A file under the output root, by its relative path.
            case available(path: String, mediaType: String)
            /// Shown from the API's own URL and never copied, as the picture's license asks.
            case remote(url: String)
            case unavailable(reason: String)
        }
        /// The same picture re-encoded in another format, smaller: a file under the output root.
        package struct Encoding: Sendable, Hashable {
            package var path: String
            package var mediaType: String
            /// For screens of at least this many device pixels per CSS pixel only; nil for any screen.
            package var minimumDensity: Int?

            package init(path: String, mediaType: String, minimumDensity: Int? = nil) {
                self.path = path
                self.mediaType = mediaType
                self.minimumDensity = minimumDensity
            }
        }
        package var state: State
        package var width: Int?
        package var height: Int?
        /// Its re-encoded copies (only of an available file), in the order a page prefers them.
        package var encodings: [Encoding] = []

        package init(state: State, width: Int? = nil, height: Int? = nil, encodings: [Encoding] = []) {
            self.state = state
            self.width = width
            self.height = height
            self.encodings = encodings
        }
    }

    /// A page to render: the element to render, by id, the stylesheet that renders it, and its file.
    package struct PageJob: Sendable, Hashable {
        package enum Kind: String, Sendable {
            case grid, preview, home, random, favorites, list, photo, changes
            case siteChanges = "site-changes"
            /// A gallery's tag index (`tags.xsl`) and the pages of one tag (`tag.xsl`).
            case tags, tag
            /// A site's tag index (`site-tags.xsl`) and the pages of one of its tags (`site-tag.xsl`).
            case siteTags = "site-tags"
            case siteTag = "site-tag"
            /// A gallery's search page (`search.xsl`).
            case search
            /// A site's search page (`site-search.xsl`).
            case siteSearch = "site-search"
        }
        package var kind: Kind
        package var id: String
        package var href: String

        package init(kind: Kind, id: String, href: String) {
            self.kind = kind
            self.id = id
            self.href = href
        }
    }
}
