/// What `ModelXML` walks, as the bytes that the digests of pages' inputs are taken of: each element, attribute and
/// text as a tag byte and its strings, each string preceded by its length, so that two walks give the same bytes
/// exactly when they give the same XML. It is no XML: the model's files are written by libxml2 in the render stage.
package struct ModelDigestBytes: ModelXMLSink {
    private enum Tag: UInt8 {
        case startElement = 1, attribute, text, endElement
    }

    package private(set) var bytes: [UInt8] = []

    package init() {}

    /// Starts again with no bytes, keeping the memory.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    package mutating func startElement(_ name: String) {
        bytes.append(Tag.startElement.rawValue)
        append(name)
    }

    package mutating func attribute(_ name: String, _ value: String) {
        bytes.append(Tag.attribute.rawValue)
        append(name)
        append(value)
    }

    package mutating func text(_ value: String) {
        bytes.append(Tag.text.rawValue)
        append(value)
    }

    package mutating func endElement() {
        bytes.append(Tag.endElement.rawValue)
    }

    private mutating func append(_ string: String) {
        let length = UInt32(truncatingIfNeeded: string.utf8.count)
        withUnsafeBytes(of: length.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: string.utf8)
    }
}
