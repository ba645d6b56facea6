import VitrineBasics
import VitrineSources

extension GalleryModel {
    /// What every page of a gallery reads outside its collections: the `gallery` element's attributes and `title`,
    /// `source`, `notice`, `variants` and `site`.
    package struct Head: Sendable {
        package var title: String
        package var language: String
        package var source: SourceDescription
        package var notices: [Notice]
        package var variants: [SourceVariant]
        package var site: SiteLink?
        /// The gallery's "What's new" page, when the site keeps a history.
        package var changesHref: String?
        /// The items that left the results, when the gallery keeps them.
        package var archive: ArchiveLink?
        /// The gallery's tag index page, when it has tags.
        package var tagIndexHref: String?
        /// How many items a tag page lists (`per-page`), which a later tag page numbers its items from.
        package var tagsPerPage = 1
        /// The gallery's search page and index script, when it has them.
        package var search: Search?
    }

    package var head: Head {
        Head(
            title: title, language: language, source: source, notices: notices, variants: variants, site: site,
            changesHref: changesHref, archive: archive, tagIndexHref: tags?.href, tagsPerPage: tags?.itemsPerPage ?? 1,
            search: search)
    }

    /// What every page reads of its collection and of the collections above it: their attributes and grid pages.
    package struct CollectionHeading: Sendable {
        package var id: String
        package var title: String
        package var itemCount: Int
        package var tileShape: TileShape
        package var kind: CollectionKind
        package var subtitle: String?
        package var sourceID: String?
        /// How many grid pages the collection has (`page-count`), which a view may hold only some of.
        package var pageCount: Int
        package var pages: [GridPage]
        package var order: Order
        /// Whether the view holds `itemCount` and `pageCount`: a page of a newest-first collection other than its
        /// newest grid page does not, since they change with every item it gains.
        var holdsCounts = true

        init(_ collection: Collection) {
            id = collection.id
            title = collection.title
            itemCount = collection.items.count
            tileShape = collection.tileShape
            kind = collection.kind
            subtitle = collection.subtitle
            sourceID = collection.sourceID
            pageCount = collection.pages.count
            pages = collection.pages
            order = collection.order
        }

        /// The heading with only the collection's first and last pages and those numbered in `numbers`: what a page
        /// needs to link to them, in a size that does not grow with the collection (docs/model.md, "What a page
        /// reads").
        func keepingPages(_ numbers: Set<Int>, ends: Bool = true) -> CollectionHeading {
            var kept = self
            kept.pages = pages.enumerated().filter { index, page in
                (ends && (index == 0 || index == pages.count - 1)) || numbers.contains(page.number)
            }.map(\.element)
            return kept
        }

        /// The heading as a page of a newest-first collection reads it: its counts only on the newest grid page
        /// (`isNewest`), and, on a preview page (`ends` false), only the pages of the items it shows.
        func readByNewestFirstPage(_ numbers: Set<Int>, isNewest: Bool, ends: Bool) -> CollectionHeading {
            var kept = keepingPages(numbers, ends: ends)
            kept.holdsCounts = isNewest
            return kept
        }
    }

    /// How many pages either side of the current one a pager names (a grid page's and a "What's new" page's; the first
    /// and the last it always names), and so how many a grid page's view holds.
    static let pagerReach = 2

    /// One page of a gallery: the stylesheet that renders it and its file (`job`), exactly the parts of the model
    /// that it reads (docs/model.md, "What a page reads"), in the model's shape, and the digest of those parts and of
    /// the theme (`inputs`), which lets a rebuild keep the page when the digest is the one it was written from.
    package struct PageView: Sendable {
        package var job: PageJob
        package var head: Head
        /// The collections from the outermost down to the page's own.
        package var collections: [CollectionHeading]
        /// A grid or list page: the collections below its own, of which the page reads their outlines (attributes,
        /// cover and pages, and the same of the collections below them), not their items.
        package var below: [Collection]
        /// A grid page: the items on it; a preview or photo page: its item and the items just before and after it.
        package var items: [Item]
        /// The digest of what the page reads and of `salt` (the theme), as hexadecimal text.
        package var inputs: String
        /// A "What's new" page: its snapshots, newest first (`items` holds the items they added).
        package var snapshots: [Snapshot] = []
        /// A "What's new" page: which page of the history it is and the pages its pager links.
        package var history: HistoryPages.View?
        /// The tag index page: every tag; a tag page: its tag, with the pages its pager links.
        package var tags: ModelXML.TagList?
    }

    /// The tag index page and the pages of every tag, when the gallery has tags. The index reads the head and every
    /// tag's name, page and count; a tag page the head, its tag with its count and the pages its pager links (as a
    /// grid page's), the attributes of the collection of its items and its first page but not its counts and other
    /// pages (which change with items the page does not show), and the items it shows. So an item's change
    /// re-renders the index when a count changes, and the pages of its tags only. Each digest is of the view, the
    /// theme (`salt`) and the page's id; `itemDigests` are those of the first collection's items, which the walk of
    /// the collections made (an item is on the page of each of its tags: its digest is taken once for all of them).
    func tagPages(salt: String, itemDigests: [[UInt8]]) -> [PageView] {
        guard let index = tags, let collection = collections.first else { return [] }
        let head = self.head
        // The collection's first page stays: every page links it (the gallery's home).
        var heading = CollectionHeading(collection).keepingPages([1], ends: false)
        heading.holdsCounts = false
        var positions: [String: Int] = [:]
        for (position, item) in collection.items.enumerated() { positions[item.id] = position }
        var part = ModelDigestBytes()
        var views: [PageView] = []
        var indexView = PageView(
            job: .init(kind: .tags, id: TagIndex.id, href: index.href), head: head, collections: [heading], below: [],
            items: [], inputs: "",
            tags: ModelXML.TagList(
                tags: index.tags.map {
                    var tag = $0; tag.pages = []; tag.items = []; return tag
                }, counts: false))
        indexView.inputs = ModelXML.inputs(salt: salt + "\u{0}" + TagIndex.id) {
            ModelXML.write(indexView, to: &$0)
        }
        views.append(indexView)
        for tag in index.tags {
            let perPage = index.itemsPerPage
            for page in tag.pages {
                let near = (page.number - Self.pagerReach)...(page.number + Self.pagerReach)
                var shown = tag
                shown.pages = tag.pages.filter {
                    $0.number == 1 || $0.number == tag.pageCount || near.contains($0.number)
                }
                shown.items = Array(tag.items.dropFirst((page.number - 1) * perPage).prefix(perPage))
                let shownPositions = shown.items.compactMap { positions[$0] }
                var view = PageView(
                    job: .init(kind: .tag, id: page.id, href: page.href), head: head, collections: [heading],
                    below: [], items: shownPositions.map { collection.items[$0] }, inputs: "",
                    tags: ModelXML.TagList(tags: [shown], counts: true))
                view.inputs = Self.inputs(
                    of: view, salt: salt + "\u{0}" + page.id, itemDigests: shownPositions.map { itemDigests[$0] },
                    part: &part)
                views.append(view)
            }
        }
        return views
    }

    /// The digests of every collection's items, in the order `pages(salt:)` walks the collections (each before
    /// the collections it holds).
    package struct ItemDigests: Sendable {
        fileprivate var byCollection: [[[UInt8]]]
    }

    /// The digests of every collection's items, made in parts on every core: at 1,000 items, writing and hashing
    /// each item was half of laying out a gallery's pages.
    package func itemDigestsOnEveryCore() async -> ItemDigests {
        var items: [Item] = []
        var counts: [Int] = []
        func collect(_ collection: Collection) {
            items += collection.items
            counts.append(collection.items.count)
            collection.collections.forEach(collect)
        }
        collections.forEach(collect)
        let all = items
        let parts = await CoreSplit.mapParts(of: all.count, threshold: 64) { range in
            var part = ModelDigestBytes()
            return Self.digests(of: Array(all[range]), part: &part)
        }
        let digests = Array(parts.joined())
        var start = 0
        return ItemDigests(
            byCollection: counts.map { count in
                defer { start += count }
                return Array(digests[start..<start + count])
            })
    }

    /// The digest of each of `items` as `ModelXML.write(item)` writes it, made in `part`.
    static func digests(of items: [Item], part: inout ModelDigestBytes) -> [[UInt8]] {
        items.map { item in
            part.removeAll()
            ModelXML.write(item, to: &part)
            var hash = SHA256Hasher()
            hash.update(part.bytes)
            return hash.finalize()
        }
    }

    /// The digest of `salt` and of all that `view` holds, as `ModelXML.write(view)` writes it, but for its items,
    /// each taken by its digest in `itemDigests` (in the view's order): what a page whose items are also on other
    /// pages reads, without writing an item again for each page.
    static func inputs(
        of view: PageView, salt: String, itemDigests: [[UInt8]], part: inout ModelDigestBytes
    ) -> String {
        var shell = view
        shell.items = []
        part.removeAll()
        ModelXML.write(shell, to: &part)
        var hash = SHA256Hasher()
        hash.update("items by digest".utf8)
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: salt.utf8.count).littleEndian) { hash.update($0) }
        hash.update(salt.utf8)
        hash.update(part.bytes)
        for digest in itemDigests { hash.update(digest) }
        return hash.finalize().hexString
    }

    /// The gallery's "What's new" pages, newest first, when it has them (`HistoryPages`): each with the head, the top
    /// collection's attributes and pages, its snapshots, and the items they added that the gallery still has (in the
    /// top collection, in model order). A page's view holds its own snapshots only, however long the history.
    package func changesPages(salt: String) -> [PageView] {
        guard let paging = historyPages else { return [] }
        let all = allItems
        var positions: [String: Int] = [:]
        for (position, item) in all.enumerated() where positions[item.id] == nil { positions[item.id] = position }
        let headings = collections.prefix(1).map(CollectionHeading.init)
        return paging.newestFirst.map { number in
            let shown = Array(snapshots[paging.newestFirstIndices(onPage: number)])
            let items = Set(shown.flatMap(\.addedItems)).compactMap { positions[$0] }.sorted().map { all[$0] }
            // The top collection only for a page that shows some of its items: one without them must not change
            // whenever the gallery's results do (the history's `home` links the gallery's first page).
            var view = PageView(
                job: .init(kind: .changes, id: ModelXML.changesID, href: paging.href(ofPage: number)), head: head,
                collections: items.isEmpty ? [] : headings, below: [], items: items, inputs: "", snapshots: shown,
                history: paging.view(ofPage: number, home: collections.first?.pages.first?.href))
            view.inputs = ModelXML.inputs(salt: salt) { ModelXML.write(view, to: &$0) }
            return view
        }
    }

    /// Every page of the gallery in order (each collection's grid pages, then its nested collections' pages, then
    /// its entries' pages), worked out in one walk over the model; `salt` (the theme's digest) goes into every
    /// page's `inputs`.
    ///
    /// A page's `inputs` is the SHA-256 of the model of its parts (as `ModelDigestBytes`), built up so that each part
    /// is walked once: the head; then, for each collection, its attributes, cover and pages (the "shell", which also
    /// goes into the collections below it); for a grid page, the outlines of its nested collections and the items on
    /// the page; for a preview page, its item and the items just before and after it.
    package func pages(salt: String) -> [PageView] {
        pages(salt: salt, itemDigests: nil)
    }

    /// ``pages(salt:)`` with the digests of the items taken from `itemDigests` (``itemDigestsOnEveryCore()``)
    /// rather than made one item at a time.
    package func pages(salt: String, itemDigests: ItemDigests?) -> [PageView] {
        var walk = PageWalk(head: head, itemDigests: itemDigests)
        var hash = SHA256Hasher()
        hash.update(salt.utf8)
        hash.update(PageWalk.bytes(of: ModelXML.rootAttributes(of: walk.head)))
        walk.part.removeAll()
        ModelXML.write(walk.head, to: &walk.part)
        hash.update(walk.part.bytes)
        let context = hash.finalize()
        for collection in collections { walk.visit(collection, above: [], context: context) }
        let tagViews = tagPages(salt: salt, itemDigests: walk.firstItemDigests ?? [])
        return walk.views + tagViews + searchPages(salt: salt)
    }
}

/// The walk of `GalleryModel.pages(salt:)`: the views found so far, and one buffer of digest bytes reused for every
/// part.
private struct PageWalk {
    let head: GalleryModel.Head
    var part = ModelDigestBytes()
    var views: [GalleryModel.PageView] = []
    /// The digests of the first collection's items, which its tag pages take too.
    var firstItemDigests: [[UInt8]]?
    /// The items' digests made before the walk, a collection's taken as the walk reaches it.
    private var madeItemDigests: IndexingIterator<[[[UInt8]]]>?

    init(head: GalleryModel.Head, itemDigests: GalleryModel.ItemDigests?) {
        self.head = head
        madeItemDigests = itemDigests?.byCollection.makeIterator()
    }

    mutating func visit(
        _ collection: GalleryModel.Collection, above: [GalleryModel.CollectionHeading], context: [UInt8]
    ) {
        let heading = GalleryModel.CollectionHeading(collection)
        let chain = above + [heading]
        var shell = SHA256Hasher()
        shell.update(context)
        shell.update(Self.bytes(of: ModelXML.attributes(of: heading)))
        part.removeAll()
        ModelXML.writeCoverAndPages(of: collection, to: &part)
        shell.update(part.bytes)
        let shellDigest = shell.finalize()

        part.removeAll()
        for nested in collection.collections { ModelXML.writeOutline(of: nested, to: &part) }
        var below = SHA256Hasher()
        below.update(part.bytes)
        let belowDigest = below.finalize()

        let itemDigests =
            madeItemDigests?.next() ?? GalleryModel.digests(of: collection.items, part: &part)
        if above.isEmpty && firstItemDigests == nil { firstItemDigests = itemDigests }

        // The collections above are read for their first pages (the breadcrumb, the back link), the page's own for
        // the pages near the one shown.
        let ends = above.map { $0.keepingPages([]) }
        var shownOn: [Int: [Int]] = [:]
        for index in collection.items.indices { shownOn[collection.items[index].page, default: []].append(index) }

        // A newest-first collection's pages hold less than the rest of its collection's shell (neither its counts
        // nor all its ends), so their digest is taken of what each view holds, with the head's and the theme's.
        let newestFirst = collection.order == .newestFirst
        let pageKind: GalleryModel.PageJob.Kind = collection.kind == .list ? .list : .grid
        let reach = GalleryModel.pagerReach
        for page in collection.pages {
            let shown = shownOn[page.number] ?? []
            let near = Set(page.number - reach...page.number + reach)
            var view = GalleryModel.PageView(
                job: .init(kind: pageKind, id: page.id, href: page.href), head: head,
                collections: ends + [
                    newestFirst
                        ? heading.readByNewestFirstPage(
                            near, isNewest: page.number == collection.pages.count, ends: true)
                        : heading.keepingPages(near)
                ], below: collection.collections, items: shown.map { collection.items[$0] }, inputs: "")
            if newestFirst {
                view.inputs = inputs(
                    of: view, context: context, belowDigest: belowDigest, itemDigests: shown.map { itemDigests[$0] })
            } else {
                var hash = SHA256Hasher()
                hash.update("grid".utf8)
                hash.update(shellDigest)
                hash.update(belowDigest)
                for index in shown { hash.update(itemDigests[index]) }
                view.inputs = hash.finalize().hexString
            }
            views.append(view)
        }

        for nested in collection.collections { visit(nested, above: chain, context: shellDigest) }

        let entryKind: GalleryModel.PageJob.Kind = collection.kind == .album ? .photo : .preview
        for (index, item) in collection.items.enumerated() {
            let neighbourhood = max(0, index - 1)...min(collection.items.count - 1, index + 1)
            let items = Array(collection.items[neighbourhood])
            let numbers = Set(items.map(\.page))
            let collections =
                ends
                + [
                    newestFirst
                        ? heading.readByNewestFirstPage(numbers, isNewest: false, ends: false)
                        : heading.keepingPages(numbers)
                ]
            // Not needed by a newest-first collection, whose pages are digested as their views hold them.
            let itemDigest: [UInt8] =
                newestFirst
                ? []
                : {
                    var hash = SHA256Hasher()
                    hash.update("preview".utf8)
                    hash.update(shellDigest)
                    for neighbour in neighbourhood { hash.update(itemDigests[neighbour]) }
                    return hash.finalize()
                }()
            for entry in item.entries {
                var view = GalleryModel.PageView(
                    job: .init(kind: entryKind, id: entry.id, href: entry.href), head: head,
                    collections: collections, below: [], items: items, inputs: "")
                if newestFirst {
                    view.inputs = inputs(
                        of: view, context: context, belowDigest: [],
                        itemDigests: neighbourhood.map { itemDigests[$0] })
                } else {
                    var entryHash = SHA256Hasher()
                    entryHash.update(itemDigest)
                    entryHash.update(entry.id.utf8)
                    view.inputs = entryHash.finalize().hexString
                }
                views.append(view)
            }
        }
    }

    /// The digest of `context` (the theme and the head) and of all that `view` holds, as `ModelXML.write(view)`
    /// writes it: the headings with their pages as held, the outlines below (`belowDigest`), the items (each by its
    /// digest in `itemDigests`) and the page's job.
    mutating func inputs(
        of view: GalleryModel.PageView, context: [UInt8], belowDigest: [UInt8], itemDigests: [[UInt8]]
    ) -> String {
        var hash = SHA256Hasher()
        hash.update("view".utf8)
        hash.update(context)
        for heading in view.collections {
            hash.update(Self.bytes(of: ModelXML.attributes(of: heading)))
            part.removeAll()
            for page in heading.pages { ModelXML.write(page, to: &part) }
            hash.update(part.bytes)
        }
        hash.update(belowDigest)
        for digest in itemDigests { hash.update(digest) }
        hash.update(view.job.kind.rawValue.utf8)
        hash.update([0])
        hash.update(view.job.id.utf8)
        return hash.finalize().hexString
    }

    /// Attributes as the digests take them: each `name=value` and a zero byte, the value unescaped.
    static func bytes(of attributes: [(name: String, value: String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in attributes {
            bytes += Array(name.utf8) + [UInt8(ascii: "=")] + Array(value.utf8) + [0]
        }
        return bytes
    }
}

extension SiteModel {
    /// The digest of the home page's inputs: all of the site's model, and `salt` (the theme).
    package func inputs(salt: String) -> String {
        ModelXML.inputs(salt: salt) { ModelXML.write(self, to: &$0) }
    }
}

extension RandomPageModel {
    /// The digest of the inputs of the random page and the favorites page, which read all of the model, and `salt`.
    package func inputs(salt: String) -> String {
        ModelXML.inputs(salt: salt) { ModelXML.write(self, to: &$0) }
    }
}

extension ModelXML {
    /// The digest of `salt` and of the elements `write` gives, as pages that read a whole model take it.
    static func inputs(salt: String, _ write: (inout ModelDigestBytes) -> Void) -> String {
        var part = ModelDigestBytes()
        write(&part)
        var hash = SHA256Hasher()
        hash.update(salt.utf8)
        hash.update(part.bytes)
        return hash.finalize().hexString
    }
}
