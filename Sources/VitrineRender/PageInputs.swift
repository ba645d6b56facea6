internal import CXSLT
import VitrineBasics

/// What each page of a model is made from: a digest of it, so that a rebuild renders only the pages whose inputs or
/// templates changed, and a view of the model holding just that, which is what the page is rendered from.
///
/// The contract with themes (docs/model.md, "What a page may read"): a grid page reads the model's head (everything
/// outside `collection`), its collection and the collections above it (attributes and `page` elements), the
/// collections below it, and the items on that page; a preview page reads the head, its collection and the ones
/// above it, its item and the items just before and after it. Rendering from the view keeps every theme to the
/// contract, and keeps each transform's work proportional to its page instead of to the whole gallery.
package final class PageInputs {
    /// The digest of every page, by the `id` the renderer's `page` parameter names.
    package private(set) var digests: [String: String] = [:]

    /// The model's parts one page reads, as nodes of `model`.
    private struct Part {
        /// The collections from the outermost down to the page's own.
        var collections: [xmlNodePtr]
        var below: [xmlNodePtr]
        var items: [xmlNodePtr]
    }

    private let model: LibXMLDocument
    private var head: [xmlNodePtr] = []
    private var parts: [String: Part] = [:]

    /// Computes the digests of every page of `model`; `salt` is mixed into each (the theme's digest).
    package init(of model: LibXMLDocument, salt: String) {
        self.model = model
        guard let root = xmlDocGetRootElement(model.raw) else { return }
        var hash = SHA256Hasher()
        hash.update(salt.utf8)
        hash.update(Self.attributes(of: root))
        var collections: [xmlNodePtr] = []
        for node in Self.children(of: root) {
            if Self.name(of: node) == "collection" {
                collections.append(node)
            } else {
                head.append(node)
                hash.update(Self.dump(node))
            }
        }
        let headDigest = hash.finalize()
        for collection in collections { visit(collection, above: [], context: headDigest) }
    }

    /// A whole document as the input of one page (the home page reads all of its model).
    package static func digest(ofWhole document: LibXMLDocument, salt: String) -> String {
        var hash = SHA256Hasher()
        hash.update(salt.utf8)
        if let root = xmlDocGetRootElement(document.raw) { hash.update(dump(root)) }
        return hash.finalize().hexString
    }

    /// A document with the parts of the model the page `id` reads, in the model's shape; nil for an unknown page.
    package func view(of id: String) -> LibXMLDocument? {
        guard let part = parts[id], let modelRoot = xmlDocGetRootElement(model.raw) else { return nil }
        let document = LibXMLDocument(owning: xmlNewDoc("1.0"))
        let root = xmlDocCopyNode(modelRoot, document.raw, 2)!
        xmlDocSetRootElement(document.raw, root)
        for node in head { xmlAddChild(root, xmlDocCopyNode(node, document.raw, 1)) }
        var parent = root
        for collection in part.collections {
            let copy = xmlDocCopyNode(collection, document.raw, 2)!
            xmlAddChild(parent, copy)
            for page in Self.children(of: collection) where Self.name(of: page) == "page" {
                xmlAddChild(copy, xmlDocCopyNode(page, document.raw, 1))
            }
            parent = copy
        }
        for node in part.below + part.items { xmlAddChild(parent, xmlDocCopyNode(node, document.raw, 1)) }
        return document
    }

    private func visit(_ collection: xmlNodePtr, above: [xmlNodePtr], context: [UInt8]) {
        let chain = above + [collection]
        var shell = SHA256Hasher()
        shell.update(context)
        shell.update(Self.attributes(of: collection))
        var pages: [(id: String, number: String)] = []
        var items: [(node: xmlNodePtr, page: String, digest: [UInt8], entries: [String])] = []
        var nested: [xmlNodePtr] = []
        var below = SHA256Hasher()
        for node in Self.children(of: collection) {
            switch Self.name(of: node) {
            case "page":
                shell.update(Self.dump(node))
                pages.append((Self.attribute("id", of: node), Self.attribute("number", of: node)))
            case "item":
                var item = SHA256Hasher()
                item.update(Self.dump(node))
                let entries = Self.children(of: node).filter { Self.name(of: $0) == "entry" }.map {
                    Self.attribute("id", of: $0)
                }
                items.append((node, Self.attribute("page", of: node), item.finalize(), entries))
            case "collection":
                nested.append(node)
                below.update(Self.dump(node))
            default:
                shell.update(Self.dump(node))
            }
        }
        let shellDigest = shell.finalize()
        let belowDigest = below.finalize()
        for page in pages {
            let shown = items.filter { $0.page == page.number }
            var hash = SHA256Hasher()
            hash.update("grid".utf8)
            hash.update(shellDigest)
            hash.update(belowDigest)
            for item in shown { hash.update(item.digest) }
            digests[page.id] = hash.finalize().hexString
            parts[page.id] = Part(collections: chain, below: nested, items: shown.map(\.node))
        }
        for (index, item) in items.enumerated() {
            let neighbourhood = items[max(0, index - 1)...min(items.count - 1, index + 1)]
            var hash = SHA256Hasher()
            hash.update("preview".utf8)
            hash.update(shellDigest)
            for neighbour in neighbourhood { hash.update(neighbour.digest) }
            let itemDigest = hash.finalize()
            for entry in item.entries {
                var entryHash = SHA256Hasher()
                entryHash.update(itemDigest)
                entryHash.update(entry.utf8)
                digests[entry] = entryHash.finalize().hexString
                parts[entry] = Part(collections: chain, below: [], items: neighbourhood.map(\.node))
            }
        }
        for child in nested { visit(child, above: chain, context: shellDigest) }
    }

    private static func children(of node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }

    private static func name(of node: xmlNodePtr) -> String {
        node.pointee.name.map { String(cString: $0) } ?? ""
    }

    private static func attribute(_ name: String, of node: xmlNodePtr) -> String {
        guard let value = xmlGetProp(node, name) else { return "" }
        defer { vitrine_xml_free(value) }
        return String(cString: value)
    }

    /// The element's own attributes (not its children) as bytes.
    private static func attributes(of node: xmlNodePtr) -> [UInt8] {
        var bytes: [UInt8] = []
        var property = node.pointee.properties
        while let current = property {
            bytes += Array((current.pointee.name.map { String(cString: $0) } ?? "").utf8) + [0x3D]
            if let value = xmlNodeGetContent(UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self)) {
                bytes += Array(UnsafeBufferPointer(start: value, count: Int(xmlStrlen(value))))
                vitrine_xml_free(value)
            }
            bytes.append(0)
            property = current.pointee.next
        }
        return bytes
    }

    /// An element and everything below it, serialized.
    private static func dump(_ node: xmlNodePtr) -> [UInt8] {
        guard let buffer = xmlBufferCreate() else { return [] }
        defer { xmlBufferFree(buffer) }
        xmlNodeDump(buffer, node.pointee.doc, node, 0, 0)
        guard let content = xmlBufferContent(buffer) else { return [] }
        return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
    }
}

@available(*, unavailable)
extension PageInputs: Sendable {}
