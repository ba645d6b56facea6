internal import CXSLT
import VitrineModel

/// The models' XML files (`gallery.xml`, `site.xml`), written by libxml2's `xmlTextWriter` straight from a
/// `ModelXML` walk, with no tree built: UTF-8, indented by two spaces a level.
package enum ModelFile {
    /// The bytes of a gallery's `gallery.xml`.
    package static func bytes(of gallery: GalleryModel) throws(XMLError) -> [UInt8] {
        try write { ModelXML.write(gallery, to: &$0) }
    }

    /// The bytes of a site's `site.xml`.
    package static func bytes(of site: SiteModel) throws(XMLError) -> [UInt8] {
        try write { ModelXML.write(site, to: &$0) }
    }

    /// The bytes of a random page's `gallery.xml`.
    package static func bytes(of page: RandomPageModel) throws(XMLError) -> [UInt8] {
        try write { ModelXML.write(page, to: &$0) }
    }

    private static func write(_ walk: (inout LibXMLTextWriter) -> Void) throws(XMLError) -> [UInt8] {
        var writer = try LibXMLTextWriter()
        walk(&writer)
        return try writer.finish()
    }
}

/// Writes the elements, attributes and text of a `ModelXML` walk as an XML document with libxml2's `xmlTextWriter`
/// into memory; the first call libxml2 fails is remembered and reported by `finish`.
struct LibXMLTextWriter: ModelXMLSink {
    private let output: Output
    private var failure: String?

    init() throws(XMLError) {
        output = try Output()
        check(xmlTextWriterSetIndent(output.writer, 1), "setting the indentation")
        check(xmlTextWriterSetIndentString(output.writer, "  "), "setting the indentation")
        check(xmlTextWriterStartDocument(output.writer, "1.0", "UTF-8", nil), "starting the document")
    }

    mutating func startElement(_ name: String) {
        check(xmlTextWriterStartElement(output.writer, name), "starting the element \(name)")
    }

    mutating func attribute(_ name: String, _ value: String) {
        check(xmlTextWriterWriteAttribute(output.writer, name, value), "writing the attribute \(name)")
    }

    mutating func text(_ value: String) {
        check(xmlTextWriterWriteString(output.writer, value), "writing text")
    }

    mutating func endElement() {
        check(xmlTextWriterEndElement(output.writer), "ending an element")
    }

    /// The document's bytes, once every element is closed.
    mutating func finish() throws(XMLError) -> [UInt8] {
        check(xmlTextWriterEndDocument(output.writer), "ending the document")
        check(xmlTextWriterFlush(output.writer), "flushing the document")
        if let failure { throw XMLError(message: "libxml2 failed \(failure) of a model file") }
        return output.bytes
    }

    private mutating func check(_ result: Int32, _ what: @autoclosure () -> String) {
        if result < 0 && failure == nil { failure = what() }
    }

    /// Owns the writer and the memory buffer it writes into.
    private final class Output {
        let buffer: xmlBufferPtr
        let writer: xmlTextWriterPtr

        init() throws(XMLError) {
            guard let buffer = xmlBufferCreate() else { throw XMLError(message: "libxml2 could not allocate a buffer") }
            guard let writer = xmlNewTextWriterMemory(buffer, 0) else {
                xmlBufferFree(buffer)
                throw XMLError(message: "libxml2 could not create a text writer")
            }
            self.buffer = buffer
            self.writer = writer
        }

        deinit {
            xmlFreeTextWriter(writer)
            xmlBufferFree(buffer)
        }

        var bytes: [UInt8] {
            guard let content = xmlBufferContent(buffer) else { return [] }
            return Array(UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer))))
        }
    }
}

@available(*, unavailable)
extension LibXMLTextWriter: Sendable {}
