internal import CXSLT
import VitrineModel

/// Builds the XML models (docs/model.md, Templates/gallery.rng) of a gallery and of a site's home page with libxml2.
package enum ModelDocument {
    static let version = "1"

    package static func make(_ gallery: GalleryModel) -> LibXMLDocument {
        let (document, root) = LibXMLDocument.make(root: "gallery")
        set(root, "version", version)
        set(root, "lang", gallery.language)
        text(root, "title", gallery.title)
        let source = child(root, "source")
        set(source, "name", gallery.source.name)
        set(source, "label", gallery.source.label)
        if let home = gallery.source.home { set(source, "home", home) }
        for notice in gallery.notices {
            set(text(root, "notice", notice.text), "kind", notice.kind.rawValue)
        }
        let variants = child(root, "variants")
        for variant in gallery.variants {
            let element = child(variants, "variant")
            set(element, "key", variant.key)
            set(element, "label", variant.label)
            if let query = variant.query { set(element, "query", query) }
        }
        if let site = gallery.site { add(site, to: root) }
        for collection in gallery.collections { add(collection, to: root) }
        return document
    }

    /// The link up to the home page of the site that holds a gallery or a random page.
    static func add(_ site: GalleryModel.SiteLink, to parent: xmlNodePtr) {
        let element = child(parent, "site")
        set(element, "title", site.title)
        set(element, "href", site.href)
    }

    /// The model of a site's home page (`site` root; docs/model.md).
    package static func make(_ site: SiteModel) -> LibXMLDocument {
        let (document, root) = LibXMLDocument.make(root: "site")
        set(root, "version", version)
        set(root, "id", SiteModel.pageID)
        set(root, "lang", site.language)
        set(root, "href", SiteModel.homeHref)
        if let feed = site.feedHref { set(root, "feed", feed) }
        text(root, "title", site.title)
        for gallery in site.galleries {
            let element = child(root, "gallery")
            set(element, "id", gallery.id)
            set(element, "href", gallery.href)
            set(element, "item-count", String(gallery.itemCount))
            text(element, "title", gallery.title)
            let source = child(element, "source")
            set(source, "name", gallery.source.name)
            set(source, "label", gallery.source.label)
            if let home = gallery.source.home { set(source, "home", home) }
            for query in gallery.queries { text(element, "query", query) }
            if let every = gallery.every {
                set(text(element, "schedule", SiteModel.scheduleLine(every)), "every", String(every.seconds))
            }
            if let cover = gallery.cover { add(cover, role: "cover", to: element) }
        }
        return document
    }

    private static func add(_ collection: GalleryModel.Collection, to parent: xmlNodePtr) {
        let element = child(parent, "collection")
        set(element, "id", collection.id)
        set(element, "title", collection.title)
        set(element, "item-count", String(collection.items.count))
        set(element, "page-count", String(collection.pages.count))
        if collection.tileShape != .natural { set(element, "layout", collection.tileShape.rawValue) }
        if collection.kind != .gallery { set(element, "kind", collection.kind.rawValue) }
        if let subtitle = collection.subtitle { set(element, "subtitle", subtitle) }
        if let sourceID = collection.sourceID { set(element, "source-id", sourceID) }
        if let cover = collection.cover { add(cover, role: "cover", to: element) }
        for page in collection.pages {
            let node = child(element, "page")
            set(node, "id", page.id)
            set(node, "number", String(page.number))
            set(node, "href", page.href)
        }
        for nested in collection.collections { add(nested, to: element) }
        for item in collection.items {
            let node = child(element, "item")
            set(node, "id", item.id)
            set(node, "position", String(item.position))
            set(node, "page", String(item.page))
            if let sourceID = item.sourceID { set(node, "source-id", sourceID) }
            for entry in item.entries { add(entry, to: node) }
        }
    }

    private static func add(_ entry: GalleryModel.Entry, to item: xmlNodePtr) {
        let node = child(item, "entry")
        set(node, "id", entry.id)
        set(node, "variant", entry.variant)
        set(node, "href", entry.href)
        switch entry.content {
        case .missing(let reason):
            text(node, "missing", reason)
        case .picture(let caption, let credit, let tile, let full):
            text(node, "caption", caption)
            if let credit {
                let element = child(node, "credit")
                set(element, "name", credit.name)
                if let url = credit.url { set(element, "href", url) }
                if credit.role != .author { set(element, "role", credit.role.rawValue) }
            }
            add(tile, role: "tile", to: node)
            add(full, role: "full", to: node)
        }
    }

    private static func add(_ image: GalleryModel.LocalImage, role: String, to parent: xmlNodePtr) {
        let node = child(parent, "image")
        set(node, "role", role)
        switch image.state {
        case .available(let path, let mediaType):
            set(node, "src", path)
            if let width = image.width, let height = image.height {
                set(node, "width", String(width))
                set(node, "height", String(height))
            }
            set(node, "type", mediaType)
        case .unavailable(let reason):
            if let width = image.width, let height = image.height {
                set(node, "width", String(width))
                set(node, "height", String(height))
            }
            text(node, "unavailable", reason)
        }
    }

    static func child(_ parent: xmlNodePtr, _ name: String) -> xmlNodePtr {
        xmlNewChild(parent, nil, name, nil)!
    }

    /// A child element holding `value` as escaped text.
    @discardableResult
    static func text(_ parent: xmlNodePtr, _ name: String, _ value: String) -> xmlNodePtr {
        xmlNewTextChild(parent, nil, name, XMLText.clean(value))!
    }

    static func set(_ node: xmlNodePtr, _ name: String, _ value: String) {
        xmlSetProp(node, name, XMLText.clean(value))
    }
}

/// Makes API text safe to store in XML 1.0: drops characters XML cannot hold and caps absurd lengths.
enum XMLText {
    static let maximumLength = 2_000

    static func clean(_ value: String) -> String {
        // Most API text is short printable ASCII, which needs no change and no scalar-by-scalar copy.
        if value.utf8.count <= maximumLength, value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) { return value }
        var scalars = String.UnicodeScalarView()
        var count = 0
        for scalar in value.unicodeScalars where isAllowed(scalar) {
            if count == maximumLength {
                scalars.append("…")
                break
            }
            scalars.append(scalar)
            count += 1
        }
        return String(scalars)
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: !(0x7F...0x9F).contains(scalar.value)
        default: false
        }
    }
}
