internal import CXSLT
import Foundation
import VitrineModel

extension RandomPageModel {
    /// The model of the random page and the favorites page as a libxml2 document, ready for the theme.
    package func document() -> LibXMLDocument {
        typealias M = ModelDocument
        let document = LibXMLDocument(owning: xmlNewDoc("1.0"))
        let root = xmlNewDocNode(document.raw, nil, "gallery", nil)!
        xmlDocSetRootElement(document.raw, root)
        M.set(root, "version", ModelDocument.version)
        M.set(root, "lang", language)
        M.text(root, "title", title)
        let sourceNode = M.child(root, "source")
        M.set(sourceNode, "name", source.name)
        M.set(sourceNode, "label", source.label)
        if let home = source.home { M.set(sourceNode, "home", home) }
        for notice in notices { M.set(M.text(root, "notice", notice.text), "kind", notice.kind.rawValue) }
        if let site { M.add(site, to: root) }
        let random = M.child(root, "random")
        M.set(random, "id", "random")
        M.set(random, "href", folder + Self.pageHref)
        M.set(random, "favorites", folder + Self.favoritesHref)
        M.set(random, "delivery", delivery.rawValue)
        M.set(random, "fetched-at", Self.timestamp(fetchedAt))
        M.set(random, "next-update", Self.timestamp(nextUpdate))
        M.set(random, "every", String(every.seconds))
        let photo = M.child(random, "photo")
        M.set(photo, "source-id", photoID)
        M.text(photo, "caption", caption)
        let creditNode = M.child(photo, "credit")
        M.set(creditNode, "name", credit.author)
        if let url = credit.authorURL { M.set(creditNode, "href", url) }
        if let url = credit.sourceURL { M.set(creditNode, "source-href", url) }
        for (index, image) in images.enumerated() {
            let node = M.child(photo, "image")
            M.set(node, "role", index == images.count - 1 ? "full" : "tile")
            switch image.location {
            case .file(let path, let mediaType):
                M.set(node, "src", path)
                M.set(node, "type", mediaType)
            case .remote(let url):
                M.set(node, "url", url)
            }
            if let width = image.width, let height = image.height {
                M.set(node, "width", String(width))
                M.set(node, "height", String(height))
            }
        }
        for field in fields {
            let node = M.text(photo, "field", field.value)
            M.set(node, "key", field.key)
            M.set(node, "label", field.label)
            if let href = field.href { M.set(node, "href", href) }
        }
        let favorites = M.child(root, "favorites")
        M.set(favorites, "id", "favorites")
        M.set(favorites, "href", folder + Self.favoritesHref)
        return document
    }
}
