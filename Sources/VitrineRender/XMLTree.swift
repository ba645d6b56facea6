internal import CXSLT

/// libxml2's tree-building calls, checked. Outside a transform no template meter limits libxml2, so these fail only
/// when the process can allocate no more; a document with a node silently missing would be published as if whole,
/// so the process stops instead, saying so, as it does when Swift itself can allocate no more.
enum XMLTree {
    /// A new document with nothing in it yet.
    static func emptyDocument() -> LibXMLDocument { LibXMLDocument(owning: allocated(xmlNewDoc("1.0"), "xmlNewDoc")) }

    /// Gives `document` its root element, named `name`, in the default namespace `namespace` when given.
    static func root(_ name: String, of document: LibXMLDocument, namespace: String? = nil) -> xmlNodePtr {
        let root = allocated(xmlNewDocNode(document.raw, nil, name, nil), "xmlNewDocNode")
        xmlDocSetRootElement(document.raw, root)
        if let namespace { declare(namespace, on: root) }
        return root
    }

    /// A new document holding only its root element, named `name`, in the default namespace `namespace`.
    static func document(root name: String, namespace: String) -> (LibXMLDocument, xmlNodePtr) {
        let document = emptyDocument()
        return (document, root(name, of: document, namespace: namespace))
    }

    /// A new element `name` at the end of `parent`, holding `text` when given (escaped as text).
    @discardableResult
    static func child(_ parent: xmlNodePtr, _ name: String, text: String? = nil) -> xmlNodePtr {
        guard let text else { return allocated(xmlNewChild(parent, nil, name, nil), "xmlNewChild") }
        return allocated(xmlNewTextChild(parent, nil, name, text), "xmlNewTextChild")
    }

    /// Sets the attribute `name` of `node` to `value`.
    static func set(_ name: String, _ value: String, on node: xmlNodePtr) {
        _ = allocated(xmlSetProp(node, name, value), "xmlSetProp")
    }

    /// Appends `text` to the content of `node`.
    static func append(text: String, to node: xmlNodePtr, in document: LibXMLDocument) {
        let text = allocated(xmlNewDocText(document.raw, text), "xmlNewDocText")
        _ = allocated(xmlAddChild(node, text), "xmlAddChild")
    }

    /// Puts `node` and what it holds in the default namespace `href`.
    static func declare(_ href: String, on node: xmlNodePtr) {
        xmlSetNs(node, allocated(xmlNewNs(node, href, nil), "xmlNewNs"))
    }

    private static func allocated<Pointer>(_ pointer: Pointer?, _ call: StaticString) -> Pointer {
        guard let pointer else { fatalError("libxml2 is out of memory (\(call) failed)") }
        return pointer
    }
}
