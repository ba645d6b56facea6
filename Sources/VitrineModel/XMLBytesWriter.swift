/// Writes what `ModelXML` walks as XML bytes, exactly as libxml2 2.9 serializes the same elements, so that the files
/// and the digests of pages' inputs do not depend on which of the two wrote them (the tests hold them to that).
package struct XMLBytesWriter: ModelXMLSink {
    /// How the bytes are laid out.
    package enum Style {
        /// On one line, non-ASCII characters of attribute values as character references: libxml2's `xmlNodeDump`
        /// of an element, what pages' inputs are digests of.
        case element
        /// A document with its XML declaration, indented by two spaces a level, in UTF-8: libxml2's formatted
        /// dump (`xmlDocDumpFormatMemoryEnc`), what `gallery.xml` and `site.xml` hold.
        case document
    }

    /// What an open element holds so far.
    private enum Content {
        case nothing, text, elements
    }

    package private(set) var bytes: [UInt8] = []
    private let style: Style
    private var open: [(name: String, content: Content)] = []

    package init(_ style: Style) {
        self.style = style
        if style == .document { bytes.append(contentsOf: #"<?xml version="1.0" encoding="UTF-8"?>"#.utf8 + [0x0A]) }
    }

    /// The bytes of the document that `write` gives.
    package static func document(_ write: (inout XMLBytesWriter) -> Void) -> [UInt8] {
        var writer = XMLBytesWriter(.document)
        write(&writer)
        return writer.bytes
    }

    /// Starts again with no bytes, keeping the memory (style `element` only).
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
    }

    package mutating func startElement(_ name: String) {
        if let parent = open.indices.last {
            if open[parent].content == .nothing {
                bytes.append(UInt8(ascii: ">"))
                if style == .document { bytes.append(0x0A) }
            }
            open[parent].content = .elements
            if style == .document { bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * open.count)) }
        }
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: name.utf8)
        open.append((name, .nothing))
    }

    package mutating func attribute(_ name: String, _ value: String) {
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: #"=""#.utf8)
        appendEscaped(value, inAttribute: true)
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func text(_ value: String) {
        let current = open.count - 1
        if open[current].content == .nothing { bytes.append(UInt8(ascii: ">")) }
        open[current].content = .text
        appendEscaped(value, inAttribute: false)
    }

    package mutating func endElement() {
        let (name, content) = open.removeLast()
        switch content {
        case .nothing:
            bytes.append(contentsOf: "/>".utf8)
        case .text, .elements:
            if content == .elements && style == .document {
                bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * open.count))
            }
            bytes.append(contentsOf: "</".utf8)
            bytes.append(contentsOf: name.utf8)
            bytes.append(UInt8(ascii: ">"))
        }
        if style == .document { bytes.append(0x0A) }
    }

    /// `value` with the characters XML reserves as entities, and the ones libxml2 writes as character references.
    private mutating func appendEscaped(_ value: String, inAttribute: Bool) {
        let referencesNonASCII = inAttribute && style == .element
        var value = value
        value.withUTF8 { utf8 in
            var index = 0
            var plainStart = 0
            while index < utf8.count {
                let byte = utf8[index]
                let replacement: String? =
                    switch byte {
                    case UInt8(ascii: "<"): "&lt;"
                    case UInt8(ascii: ">"): "&gt;"
                    case UInt8(ascii: "&"): "&amp;"
                    case 0x0D: "&#13;"
                    case UInt8(ascii: "\"") where inAttribute: "&quot;"
                    case 0x0A where inAttribute: "&#10;"
                    case 0x09 where inAttribute: "&#9;"
                    default: nil
                    }
                if let replacement {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<index]))
                    bytes.append(contentsOf: replacement.utf8)
                    index += 1
                    plainStart = index
                } else if byte >= 0x80 && referencesNonASCII {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<index]))
                    let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                    var scalar = UInt32(byte) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
                    for continuation in utf8[(index + 1)..<(index + length)] {
                        scalar = scalar << 6 | UInt32(continuation & 0x3F)
                    }
                    bytes.append(contentsOf: "&#x\(String(scalar, radix: 16, uppercase: true));".utf8)
                    index += length
                    plainStart = index
                } else {
                    index += 1
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainStart..<utf8.count]))
        }
    }
}
