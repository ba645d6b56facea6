import VitrineBasics
import VitrineSources

/// Receives the XML model (docs/model.md, Templates/gallery.rng) element by element as `ModelXML` walks a model.
/// An element's attributes come before its content, which is either one text or child elements; every value is
/// already safe to store in XML (`XMLText.clean`).
package protocol ModelXMLSink {
    mutating func startElement(_ name: String)
    mutating func attribute(_ name: String, _ value: String)
    mutating func text(_ value: String)
    mutating func endElement()
}

extension ModelXMLSink {
    mutating func attributes(_ pairs: [(name: String, value: String)]) {
        for pair in pairs { attribute(pair.name, pair.value) }
    }

    /// An attribute holding API text, cleaned first.
    /// `width` and `height`, when both are known.
    mutating func sizeAttributes(width: Int?, height: Int?) {
        guard let width, let height else { return }
        attribute("width", String(width))
        attribute("height", String(height))
    }

    mutating func cleanAttribute(_ name: String, _ value: String) {
        attribute(name, XMLText.clean(value))
    }

    /// An element holding only `value` as text.
    mutating func textElement(_ name: String, _ value: String, attributes pairs: [(String, String)] = []) {
        startElement(name)
        for (attributeName, attributeValue) in pairs { cleanAttribute(attributeName, attributeValue) }
        text(XMLText.clean(value))
        endElement()
    }
}

/// The XML form of the models, written in one place for everything that needs it: the bytes of `gallery.xml` and
/// `site.xml`, the digests of what each page reads, and the documents the stylesheets are applied to.
package enum ModelXML {
    package static let version = "1"
    /// The `id` of the `history` element, which a "What's new" page's `page` parameter names.
    package static let changesID = "changes"

    /// The whole model of a gallery, as `gallery.xml` holds it.
    package static func write(_ gallery: GalleryModel, to sink: inout some ModelXMLSink) {
        let head = gallery.head
        sink.startElement("gallery")
        sink.attributes(rootAttributes(of: head))
        write(
            head, history: gallery.historyPages.map { HistoryContent(whole: $0, snapshots: gallery.snapshots) },
            tags: gallery.tags.map { TagList(tags: $0.tags, counts: true) }, to: &sink)
        for collection in gallery.collections { write(collection, to: &sink) }
        sink.endElement()
    }

    /// What one page of a gallery reads, in the model's shape: the head, the collections from the outermost down to
    /// the page's own with their attributes and pages, then the outlines of the collections below and the items the
    /// view holds.
    package static func write(_ view: GalleryModel.PageView, to sink: inout some ModelXMLSink) {
        sink.startElement("gallery")
        sink.attributes(rootAttributes(of: view.head))
        write(
            view.head, history: view.history.map { HistoryContent(view: $0, snapshots: view.snapshots) },
            tags: view.tags, to: &sink)
        for heading in view.collections {
            sink.startElement("collection")
            sink.attributes(attributes(of: heading))
            for page in heading.pages { write(page, to: &sink) }
        }
        for collection in view.below { writeOutline(of: collection, to: &sink) }
        for item in view.items { write(item, to: &sink) }
        for _ in view.collections { sink.endElement() }
        sink.endElement()
    }

    /// The model of a site's home page (`site` root).
    package static func write(_ site: SiteModel, to sink: inout some ModelXMLSink) {
        sink.startElement("site")
        writeAttributes(of: site, to: &sink)
        sink.textElement("title", site.title)
        // A "What's new" page reads of each gallery only what names it: its other parts change with its results,
        // which must not change every page of the history.
        let outline = if case .page = site.historyScope { true } else { site.galleriesInOutline }
        for gallery in site.galleries {
            sink.startElement("gallery")
            sink.cleanAttribute("id", gallery.id)
            sink.cleanAttribute("href", gallery.href)
            if !outline { sink.attribute("item-count", String(gallery.itemCount)) }
            sink.textElement("title", gallery.title)
            write(gallery.source, to: &sink)
            if outline {
                sink.endElement()
                continue
            }
            for query in gallery.queries { sink.textElement("query", query) }
            if let every = gallery.every {
                sink.textElement(
                    "schedule", SiteModel.scheduleLine(every), attributes: [("every", String(every.seconds))])
            }
            if let cover = gallery.cover { write(cover, role: "cover", to: &sink) }
            sink.endElement()
        }
        if let changes = site.changesHref {
            sink.startElement("history")
            sink.attribute("id", changesID)
            sink.cleanAttribute("href", changes)
            let history = site.historyContent
            if let history { writeStart(of: history, to: &sink) }
            for (index, snapshot) in (history?.snapshots ?? []).enumerated() {
                writeStart(
                    of: (
                        snapshot.number, snapshot.time, snapshot.galleries.reduce(0) { $0 + $1.added },
                        snapshot.galleries.reduce(0) { $0 + $1.removed }
                    ), page: history?.page(index) ?? 1, to: &sink)
                for change in snapshot.galleries {
                    sink.startElement("change")
                    sink.cleanAttribute("gallery", change.gallery)
                    sink.cleanAttribute("href", change.href)
                    sink.attribute("added", String(change.added))
                    sink.attribute("removed", String(change.removed))
                    sink.textElement("title", change.title)
                    for tile in change.tiles {
                        sink.startElement("tile")
                        sink.cleanAttribute("href", tile.href)
                        sink.textElement("caption", tile.caption)
                        if let credit = tile.credit { write(credit, to: &sink) }
                        write(tile.image, role: "tile", to: &sink)
                        sink.endElement()
                    }
                    sink.endElement()
                }
                sink.endElement()
            }
            sink.endElement()
        }
        // Every tag with its pages in `site.xml`; the link alone on the pages that are not the site's tag pages.
        if let tags = site.tags {
            let whole = if case .whole = site.historyScope { true } else { false }
            writeSiteTags(whole ? tags.tags : [], perPage: tags.itemsPerPage, pageCounts: true, to: &sink)
        }
        if site.hasSearch { writeSiteSearch(to: &sink) }
        sink.endElement()
    }

    /// The site's `search` element: its page and index script.
    static func writeSiteSearch(to sink: inout some ModelXMLSink) {
        sink.startElement("search")
        sink.attribute("id", SiteSearch.id)
        sink.attribute("href", SiteSearch.href)
        sink.attribute("index", SiteSearch.indexHref)
        sink.endElement()
    }

    // MARK: - The parts of a gallery's model that pages read

    /// The attributes of the root element.
    static func rootAttributes(of head: GalleryModel.Head) -> [(name: String, value: String)] {
        [("version", version), ("lang", XMLText.clean(head.language))]
    }

    /// Everything outside `collection`: `title`, `source`, `notice`, `variants`, `site` and `history` (with
    /// `history`'s pages and snapshots in it, for the whole model and the "What's new" pages).
    static func write(
        _ head: GalleryModel.Head, history: HistoryContent<GalleryModel.Snapshot>? = nil, tags: TagList? = nil,
        to sink: inout some ModelXMLSink
    ) {
        sink.textElement("title", head.title)
        write(head.source, to: &sink)
        for notice in head.notices { write(notice, to: &sink) }
        sink.startElement("variants")
        for variant in head.variants {
            sink.startElement("variant")
            sink.cleanAttribute("key", variant.key)
            sink.cleanAttribute("label", variant.label)
            if let query = variant.query { sink.cleanAttribute("query", query) }
            sink.endElement()
        }
        sink.endElement()
        if let site = head.site { write(site, to: &sink) }
        if let changes = head.changesHref {
            sink.startElement("history")
            sink.attribute("id", changesID)
            sink.cleanAttribute("href", changes)
            if let history {
                writeStart(of: history, to: &sink)
                for (index, snapshot) in history.snapshots.enumerated() {
                    write(snapshot, page: history.page(index), to: &sink)
                }
            }
            sink.endElement()
        }
        if let archive = head.archive {
            sink.startElement("archive")
            sink.cleanAttribute("href", archive.href)
            sink.endElement()
        }
        if let href = head.tagIndexHref {
            sink.startElement("tags")
            sink.attribute("id", GalleryModel.TagIndex.id)
            sink.cleanAttribute("href", href)
            sink.attribute("per-page", String(head.tagsPerPage))
            for tag in tags?.tags ?? [] {
                write(tag, pageCount: tags?.counts == true, siteTags: head.site?.tagsHref != nil, to: &sink)
            }
            sink.endElement()
        }
        if let search = head.search {
            sink.startElement("search")
            sink.attribute("id", GalleryModel.Search.id)
            sink.cleanAttribute("href", search.href)
            sink.cleanAttribute("index", search.indexHref)
            sink.endElement()
        }
    }

    /// What a `tags` element holds: in the whole model every tag with its pages; on the tag index page every tag
    /// without them; on a tag page its tag with the pages its pager links. `counts`: whether each tag says how many
    /// pages it has.
    package struct TagList: Sendable {
        var tags: [GalleryModel.Tag]
        var counts: Bool
    }

    static func write(
        _ tag: GalleryModel.Tag, pageCount: Bool, siteTags: Bool = false, to sink: inout some ModelXMLSink
    ) {
        sink.startElement("tag")
        sink.cleanAttribute("name", tag.name)
        sink.cleanAttribute("href", tag.href)
        if siteTags { sink.cleanAttribute("site-href", SiteTags.href(ofTag: tag.name)) }
        sink.attribute("count", String(tag.count))
        if pageCount { sink.attribute("page-count", String(tag.pageCount)) }
        for page in tag.pages { write(page, to: &sink) }
        sink.endElement()
    }

    static func write(_ snapshot: GalleryModel.Snapshot, page: Int, to sink: inout some ModelXMLSink) {
        writeStart(
            of: (snapshot.number, snapshot.time, snapshot.addedCount, snapshot.removedCount), page: page, to: &sink)
        for item in snapshot.addedItems {
            sink.startElement("added")
            sink.cleanAttribute("item", item)
            sink.endElement()
        }
        sink.endElement()
    }

    /// The attributes of a `collection` element.
    static func attributes(of heading: GalleryModel.CollectionHeading) -> [(name: String, value: String)] {
        var pairs = [("id", XMLText.clean(heading.id)), ("title", XMLText.clean(heading.title))]
        if heading.holdsCounts {
            pairs += [("item-count", String(heading.itemCount)), ("page-count", String(heading.pageCount))]
        }
        if heading.order != .asListed { pairs.append(("order", heading.order.rawValue)) }
        if heading.tileShape != .natural { pairs.append(("layout", heading.tileShape.rawValue)) }
        if heading.kind != .gallery { pairs.append(("kind", heading.kind.rawValue)) }
        if let subtitle = heading.subtitle { pairs.append(("subtitle", XMLText.clean(subtitle))) }
        if let sourceID = heading.sourceID { pairs.append(("source-id", XMLText.clean(sourceID))) }
        return pairs
    }

    /// A whole `collection` element: its cover, pages, nested collections and items.
    static func write(_ collection: GalleryModel.Collection, to sink: inout some ModelXMLSink) {
        sink.startElement("collection")
        sink.attributes(attributes(of: GalleryModel.CollectionHeading(collection)))
        writeCoverAndPages(of: collection, to: &sink)
        for nested in collection.collections { write(nested, to: &sink) }
        for item in collection.items { write(item, to: &sink) }
        sink.endElement()
    }

    /// A `collection` element as the list above it reads it: its attributes, cover and pages, and the same of the
    /// collections below it, without items (a list of users counts their albums and shows each album's cover and
    /// photo count, never a photo).
    static func writeOutline(of collection: GalleryModel.Collection, to sink: inout some ModelXMLSink) {
        sink.startElement("collection")
        sink.attributes(attributes(of: GalleryModel.CollectionHeading(collection)))
        writeCoverAndPages(of: collection, to: &sink)
        for nested in collection.collections { writeOutline(of: nested, to: &sink) }
        sink.endElement()
    }

    /// The children of a `collection` element before its nested collections and items: its cover and pages.
    static func writeCoverAndPages(of collection: GalleryModel.Collection, to sink: inout some ModelXMLSink) {
        if let cover = collection.cover { write(cover, role: "cover", to: &sink) }
        for page in collection.pages { write(page, to: &sink) }
    }

    static func write(_ page: GalleryModel.GridPage, to sink: inout some ModelXMLSink) {
        sink.startElement("page")
        sink.cleanAttribute("id", page.id)
        sink.attribute("number", String(page.number))
        sink.cleanAttribute("href", page.href)
        sink.endElement()
    }

    static func write(_ item: GalleryModel.Item, to sink: inout some ModelXMLSink) {
        sink.startElement("item")
        sink.cleanAttribute("id", item.id)
        sink.attribute("position", String(item.position))
        sink.attribute("page", String(item.page))
        if let sourceID = item.sourceID { sink.cleanAttribute("source-id", sourceID) }
        if let lastSeen = item.lastSeen {
            sink.cleanAttribute("last-seen", lastSeen)
            sink.cleanAttribute("last-seen-label", UTCTime.spoken(rfc3339: lastSeen))
        }
        for entry in item.entries { write(entry, to: &sink) }
        sink.endElement()
    }

    private static func write(_ entry: GalleryModel.Entry, to sink: inout some ModelXMLSink) {
        sink.startElement("entry")
        sink.cleanAttribute("id", entry.id)
        sink.cleanAttribute("variant", entry.variant)
        sink.cleanAttribute("href", entry.href)
        switch entry.content {
        case .missing(let reason):
            sink.textElement("missing", reason)
        case .picture(let caption, let credit, let tile, let full, let license, let aiGenerated):
            sink.textElement("caption", caption)
            for tag in entry.tags {
                sink.textElement("tag", tag.name, attributes: tag.href.isEmpty ? [] : [("href", tag.href)])
            }
            if let credit { write(credit, to: &sink) }
            write(license, to: &sink)
            if aiGenerated {
                sink.startElement("ai-generated")
                sink.endElement()
            }
            write(tile, role: "tile", to: &sink)
            write(full, role: "full", to: &sink)
            for alternate in entry.alternates { write(alternate, role: "alternate", to: &sink) }
        }
        sink.endElement()
    }

    /// A picture's `credit`: whom it names, the link back, and a publication's role.
    private static func write(_ credit: Credit, to sink: inout some ModelXMLSink) {
        sink.startElement("credit")
        sink.cleanAttribute("name", credit.name)
        if let url = credit.url { sink.cleanAttribute("href", url) }
        if let url = credit.authorURL { sink.cleanAttribute("author-href", url) }
        if credit.role != .author { sink.attribute("role", credit.role.rawValue) }
        sink.endElement()
    }

    /// A picture's `license`: its short label, name, link, id, whether it allows copies and whether the site
    /// declared it.
    static func write(_ license: License, to sink: inout some ModelXMLSink) {
        sink.startElement("license")
        if let id = license.id { sink.cleanAttribute("id", id) }
        sink.cleanAttribute("label", license.label)
        sink.cleanAttribute("name", license.name)
        if let url = license.url { sink.cleanAttribute("href", url) }
        sink.attribute("copies", license.copies.rawValue)
        if license.declaredBySite { sink.attribute("declared-by", "site") }
        sink.endElement()
    }

    private static func write(_ image: GalleryModel.LocalImage, role: String, to sink: inout some ModelXMLSink) {
        sink.startElement("image")
        sink.attribute("role", role)
        switch image.state {
        case .available(let path, let mediaType):
            sink.cleanAttribute("src", path)
            sink.sizeAttributes(width: image.width, height: image.height)
            sink.cleanAttribute("type", mediaType)
            for encoding in image.encodings {
                sink.startElement("encoding")
                sink.cleanAttribute("src", encoding.path)
                sink.cleanAttribute("type", encoding.mediaType)
                if let density = encoding.minimumDensity { sink.cleanAttribute("min-density", String(density)) }
                sink.endElement()
            }
        case .remote(let url):
            sink.cleanAttribute("url", url)
            sink.sizeAttributes(width: image.width, height: image.height)
        case .unavailable(let reason):
            sink.sizeAttributes(width: image.width, height: image.height)
            sink.textElement("unavailable", reason)
        }
        sink.endElement()
    }

    static func write(_ source: SourceDescription, to sink: inout some ModelXMLSink) {
        sink.startElement("source")
        sink.cleanAttribute("name", source.name)
        sink.cleanAttribute("label", source.label)
        if let home = source.home { sink.cleanAttribute("home", home) }
        if let limit = source.photosPerPageLimit { sink.attribute("most-per-page", String(limit)) }
        sink.endElement()
    }

    static func write(_ notice: GalleryModel.Notice, to sink: inout some ModelXMLSink) {
        sink.textElement("notice", notice.text, attributes: [("kind", notice.kind.rawValue)])
    }

    static func write(_ site: GalleryModel.SiteLink, to sink: inout some ModelXMLSink) {
        sink.startElement("site")
        sink.cleanAttribute("title", site.title)
        sink.cleanAttribute("href", site.href)
        if let baseURL = site.baseURL { sink.cleanAttribute("base-url", baseURL) }
        if let tags = site.tagsHref { sink.cleanAttribute("tags", tags) }
        sink.endElement()
    }
}
