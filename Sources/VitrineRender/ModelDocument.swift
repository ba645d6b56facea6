internal import CXSLT
import VitrineModel

/// The XML models (docs/model.md, Templates/gallery.rng) as libxml2 documents, for the stylesheets: built node by
/// node from what `ModelXML` writes, only for the pages that are rendered.
package enum ModelDocument {
    /// What one page of a gallery reads, which is what it is rendered from.
    package static func make(_ view: GalleryModel.PageView) -> LibXMLDocument {
        build { ModelXML.write(view, to: &$0) }
    }

    /// The whole model of a gallery.
    package static func make(_ gallery: GalleryModel) -> LibXMLDocument { build { ModelXML.write(gallery, to: &$0) } }

    /// The model of a site's home page.
    package static func make(_ site: SiteModel) -> LibXMLDocument { build { ModelXML.write(site, to: &$0) } }

    /// What one page of a site's tags reads.
    package static func make(_ view: SiteTags.PageView) -> LibXMLDocument { build { ModelXML.write(view, to: &$0) } }

    /// The model of the random-image page and the favorites page.
    package static func make(_ page: RandomPageModel) -> LibXMLDocument { build { ModelXML.write(page, to: &$0) } }

    private static func build(_ write: (inout LibXMLTreeBuilder) -> Void) -> LibXMLDocument {
        var builder = LibXMLTreeBuilder()
        write(&builder)
        return builder.document
    }
}

/// Builds a libxml2 document from the elements, attributes and text a `ModelXML` walk gives it.
struct LibXMLTreeBuilder: ModelXMLSink {
    let document = XMLTree.emptyDocument()
    /// The open elements, the root first.
    private var path: [xmlNodePtr] = []

    mutating func startElement(_ name: String) {
        if let parent = path.last {
            path.append(XMLTree.child(parent, name))
        } else {
            path.append(XMLTree.root(name, of: document))
        }
    }

    mutating func attribute(_ name: String, _ value: String) {
        XMLTree.set(name, value, on: path[path.count - 1])
    }

    /// An empty text adds no node, as none is read back from the file where it was written.
    mutating func text(_ value: String) {
        guard !value.isEmpty else { return }
        XMLTree.append(text: value, to: path[path.count - 1], in: document)
    }

    mutating func endElement() {
        path.removeLast()
    }
}
