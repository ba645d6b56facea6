internal import CXSLT

/// Digests of what each page of a model is made from, so that a rebuild renders only the pages whose inputs or
/// templates changed.
///
/// The contract with themes (Templates/README.md): a grid page may read the model's head (everything outside
/// `collection`), its collection and the collections above it (attributes and `page` elements), the collections
/// below it, and the items on that page; a preview page may read the head, its collection and the ones above it,
/// its item and the items just before and after it.
struct PageInputs {
    /// The digest of every page, by the `id` the renderer's `page` parameter names.
    private(set) var digests: [String: String] = [:]

    /// Computes the digests of every page of `model`; `salt` is mixed into each (the theme's digest).
    init(of model: XMLDocument, salt: String) {
        guard let root = xmlDocGetRootElement(model.raw) else { return }
        var head = SHA256()
        head.update(salt.utf8)
        head.update(Self.attributes(of: root))
        var collections: [xmlNodePtr] = []
        for node in Self.children(of: root) {
            if Self.name(of: node) == "collection" { collections.append(node) } else { head.update(Self.dump(node)) }
        }
        let headDigest = head.finalize()
        for collection in collections { visit(collection, context: headDigest) }
    }

    /// A whole document as the input of one page (the home page reads all of its model).
    static func digest(ofWhole document: XMLDocument, salt: String) -> String {
        var hash = SHA256()
        hash.update(salt.utf8)
        if let root = xmlDocGetRootElement(document.raw) { hash.update(dump(root)) }
        return hash.finalize().hexString
    }

    private mutating func visit(_ collection: xmlNodePtr, context: [UInt8]) {
        var shell = SHA256()
        shell.update(context)
        shell.update(Self.attributes(of: collection))
        var pages: [(id: String, number: String, bytes: [UInt8])] = []
        var items: [(id: String, page: String, digest: [UInt8], entries: [String])] = []
        var nested: [xmlNodePtr] = []
        var below = SHA256()
        for node in Self.children(of: collection) {
            switch Self.name(of: node) {
            case "page":
                let bytes = Self.dump(node)
                shell.update(bytes)
                pages.append((Self.attribute("id", of: node), Self.attribute("number", of: node), bytes))
            case "item":
                var item = SHA256()
                item.update(Self.dump(node))
                let entries = Self.children(of: node).filter { Self.name(of: $0) == "entry" }.map {
                    Self.attribute("id", of: $0)
                }
                items.append(
                    (Self.attribute("id", of: node), Self.attribute("page", of: node), item.finalize(), entries))
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
            var hash = SHA256()
            hash.update("grid".utf8)
            hash.update(shellDigest)
            hash.update(belowDigest)
            for item in items where item.page == page.number { hash.update(item.digest) }
            digests[page.id] = hash.finalize().hexString
        }
        for (index, item) in items.enumerated() {
            var hash = SHA256()
            hash.update("preview".utf8)
            hash.update(shellDigest)
            if index > 0 { hash.update(items[index - 1].digest) }
            hash.update(item.digest)
            if index + 1 < items.count { hash.update(items[index + 1].digest) }
            let itemDigest = hash.finalize()
            for entry in item.entries {
                var entryHash = SHA256()
                entryHash.update(itemDigest)
                entryHash.update(entry.utf8)
                digests[entry] = entryHash.finalize().hexString
            }
        }
        for child in nested { visit(child, context: shellDigest) }
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
            bytes += Array(name(ofAttribute: current).utf8) + [0x3D]
            if let value = xmlNodeGetContent(UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self)) {
                bytes += Array(UnsafeBufferPointer(start: value, count: Int(xmlStrlen(value))))
                vitrine_xml_free(value)
            }
            bytes.append(0)
            property = current.pointee.next
        }
        return bytes
    }

    private static func name(ofAttribute attribute: xmlAttrPtr) -> String {
        attribute.pointee.name.map { String(cString: $0) } ?? ""
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
