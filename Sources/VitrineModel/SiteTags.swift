import VitrineBasics
import VitrineSources

/// The tags of a site (`vitrine build`): every tag of its galleries' results, each with the items of every gallery
/// that have it, on pages of the site's own (`tags/index.html`, `tags/SLUG.html`, `tags/SLUG-page-2.html`, …) whose
/// file names `TagSlugs.siteSlug(of:)` gives from each tag alone, so that a gallery's pages (made before the other
/// galleries are known, or in another shard) can link them.
package struct SiteTags: Sendable {
    /// The `id` of the site's `tags` element, which the site tag index page's `page` parameter names.
    package static let id = "tags"
    /// The site's tag index page.
    package static let href = "tags/index.html"

    /// The first page of the site's tag `name`, relative to the output root, which a gallery's tag page links
    /// knowing only its own tags (`TagSlugs.siteSlug(of:)`).
    package static func href(ofTag name: String) -> String { TagSlugs.file(of: TagSlugs.siteSlug(of: name), page: 1) }

    /// How many items a site tag page lists.
    package var itemsPerPage: Int
    /// Those with the most items first, then by name; each tag's `items` are its members' keys
    /// (`Member.key`).
    package var tags: [GalleryModel.Tag]
    /// The items of each tag (by name), gallery by gallery in the site's order, each in its gallery's order.
    var members: [String: [Member]]

    /// An item of a gallery of the site, as a site tag page lists it.
    struct Member: Sendable {
        /// The gallery's card on the home page.
        var gallery: SiteModel.Gallery
        var item: TaggedItem

        /// Unique in the site: the gallery's card id and the item's id (`g1-i100`), the item's `id` on the page.
        var key: String { gallery.id + "-" + item.id }
    }

    /// An item of a gallery's results that has tags, as the site's tag pages need it: its id, its tags (of all its
    /// entries, each once, in order) and its element as the gallery's model writes it. A shard's record carries
    /// these to the merge.
    package struct TaggedItem: Sendable, Equatable {
        package var id: String
        package var tags: [String]
        package var xml: RecordedXML

        package init(id: String, tags: [String], xml: RecordedXML) {
            self.id = id
            self.tags = tags
            self.xml = xml
        }

        /// The items of `model`'s results (its first collection) that have tags; none when the gallery has no tag
        /// pages.
        package static func all(in model: GalleryModel) -> [TaggedItem] {
            guard model.tags != nil else { return [] }
            return (model.collections.first?.items ?? []).compactMap { item in
                var seen = Set<String>()
                let tags = item.entries.flatMap(\.tags).map(\.name).filter { seen.insert($0).inserted }
                guard !tags.isEmpty else { return nil }
                var xml = RecordedXML()
                ModelXML.write(item, to: &xml)
                return TaggedItem(id: item.id, tags: tags, xml: xml)
            }
        }
    }

    /// The tags of the tagged items of `galleries` (`TaggedItem.all(in:)`), each gallery with its card, as many items
    /// to a page as `itemsPerPage`; nil when none has a tag.
    package init?(galleries: [(card: SiteModel.Gallery, items: [TaggedItem])], itemsPerPage: Int) {
        var order: [String] = []
        var members: [String: [Member]] = [:]
        for (card, items) in galleries {
            for item in items {
                for tag in item.tags {
                    if members[tag] == nil { order.append(tag) }
                    members[tag, default: []].append(Member(gallery: card, item: item))
                }
            }
        }
        guard !order.isEmpty else { return nil }
        let perPage = max(1, itemsPerPage)
        self.itemsPerPage = perPage
        self.members = members
        tags = order.compactMap { name in
            guard let listed = members[name] else { return nil }
            let slug = TagSlugs.siteSlug(of: name)
            let pageCount = (listed.count + perPage - 1) / perPage
            return GalleryModel.Tag(
                name: name, slug: slug,
                pages: (1...pageCount).map {
                    GalleryModel.GridPage(
                        id: "site-tag-\(slug)-p\($0)", number: $0, href: TagSlugs.file(of: slug, page: $0))
                }, items: listed.map(\.key))
        }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
    }

    /// What one page of the site's tags reads (docs/model.md, "Site tags"): the site's head (its attributes, title
    /// and the link to its history) and an outline of every gallery (`id`, `href`, `title`, `source`); the index
    /// every tag with its count, no pages; a tag page its tag with the pages its pager links, and the items on it,
    /// each in its gallery's outline. So a changed item changes the pages of its tags, and the index when a count
    /// changes.
    package struct PageView: Sendable {
        package var job: GalleryModel.PageJob
        package var site: SiteModel
        package var perPage: Int
        package var tags: [GalleryModel.Tag]
        /// Whether each tag says how many pages it has (a tag page).
        package var pageCounts: Bool
        /// Every gallery of the site, each with the items on the page; their ids and their entries' are made unique
        /// in the site by their gallery's card id as they are written (`Member.key`).
        package var galleries: [(gallery: SiteModel.Gallery, items: [RecordedXML])]
        /// The digest of the view, the page's id and `salt` (the theme).
        package var inputs = ""
    }

    /// The index page and every page of every tag, each with its digest. `site` is the site's model, of which the
    /// pages read the head (`SiteModel.homeView` without its galleries).
    package func pages(site: SiteModel, salt: String) -> [PageView] {
        var head = site.homeView
        head.galleries = []
        head.tags = nil
        var index = PageView(
            job: .init(kind: .siteTags, id: Self.id, href: Self.href), site: head, perPage: itemsPerPage,
            tags: tags.map {
                var tag = $0
                tag.pages = []
                tag.items = []
                return tag
            }, pageCounts: false, galleries: site.galleries.map { ($0, []) })
        index.inputs = ModelXML.inputs(salt: salt + "\u{0}" + Self.id) { ModelXML.write(index, to: &$0) }
        var views = [index]
        for tag in tags {
            let listed = members[tag.name] ?? []
            for page in tag.pages {
                let near = (page.number - GalleryModel.pagerReach)...(page.number + GalleryModel.pagerReach)
                var shown = tag
                shown.pages = tag.pages.filter {
                    $0.number == 1 || $0.number == tag.pageCount || near.contains($0.number)
                }
                shown.items = []
                var onPage: [String: [RecordedXML]] = [:]
                for member in listed.dropFirst((page.number - 1) * itemsPerPage).prefix(itemsPerPage) {
                    onPage[member.gallery.id, default: []].append(member.item.xml)
                }
                var view = PageView(
                    job: .init(kind: .siteTag, id: page.id, href: page.href), site: head, perPage: itemsPerPage,
                    tags: [shown], pageCounts: true, galleries: site.galleries.map { ($0, onPage[$0.id] ?? []) })
                view.inputs = ModelXML.inputs(salt: salt + "\u{0}" + page.id) { ModelXML.write(view, to: &$0) }
                views.append(view)
            }
        }
        return views
    }

    /// Every file the site's tag pages are written to.
    package var files: [String] { [Self.href] + tags.flatMap { $0.pages.map(\.href) } }
}

extension ModelXML {
    /// One page of the site's tags: the `site` element with the site's head, the galleries of the items on the page
    /// in outline with those items, the link to the site's history and the `tags` the page reads.
    package static func write(_ view: SiteTags.PageView, to sink: inout some ModelXMLSink) {
        sink.startElement("site")
        writeAttributes(of: view.site, to: &sink)
        sink.textElement("title", view.site.title)
        for (gallery, items) in view.galleries {
            sink.startElement("gallery")
            sink.cleanAttribute("id", gallery.id)
            sink.cleanAttribute("href", gallery.href)
            sink.textElement("title", gallery.title)
            write(gallery.source, to: &sink)
            if !items.isEmpty {
                sink.startElement("variants")
                for variant in gallery.variants {
                    sink.startElement("variant")
                    sink.cleanAttribute("key", variant.key)
                    sink.cleanAttribute("label", variant.label)
                    sink.endElement()
                }
                sink.endElement()
            }
            for item in items { item.replay(to: &sink, idPrefix: gallery.id + "-") }
            sink.endElement()
        }
        if let changes = view.site.changesHref {
            sink.startElement("history")
            sink.attribute("id", changesID)
            sink.cleanAttribute("href", changes)
            sink.endElement()
        }
        writeSiteTags(view.tags, perPage: view.perPage, pageCounts: view.pageCounts, to: &sink)
        if view.site.hasSearch { writeSiteSearch(to: &sink) }
        sink.endElement()
    }

    /// The attributes of a `site` element.
    static func writeAttributes(of site: SiteModel, to sink: inout some ModelXMLSink) {
        sink.attribute("version", version)
        sink.attribute("id", SiteModel.pageID)
        sink.cleanAttribute("lang", site.language)
        sink.attribute("href", SiteModel.homeHref)
        if let feed = site.feedHref { sink.cleanAttribute("feed", feed) }
        if let baseURL = site.baseURL { sink.cleanAttribute("base-url", baseURL) }
    }

    /// The site's `tags` element: its link and per-page, and `tags`.
    static func writeSiteTags(
        _ tags: [GalleryModel.Tag], perPage: Int, pageCounts: Bool, to sink: inout some ModelXMLSink
    ) {
        sink.startElement("tags")
        sink.attribute("id", SiteTags.id)
        sink.attribute("href", SiteTags.href)
        sink.attribute("per-page", String(perPage))
        for tag in tags { write(tag, pageCount: pageCounts, to: &sink) }
        sink.endElement()
    }
}
