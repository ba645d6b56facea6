/// One element of the model as `ModelXML` writes it (an item, for a site's tag pages), kept as the calls it made on
/// its sink so that it can be written again into another document, or carried in a shard's record to the merge, and
/// give the same bytes and the same digest as the element it was made from.
///
/// Its text form (`lines`) is one string a call: `<NAME` opens an element, `@NAME=VALUE` gives it an attribute,
/// `#TEXT` is text and `>` closes the element. Read back from a file (`init?(lines:)`), it holds exactly one element,
/// closed, of names and attributes the model's item has, and every value is cleaned again as it is written.
package struct RecordedXML: ModelXMLSink, Sendable, Equatable {
    package private(set) var lines: [String] = []
    private var depth = 0

    package init() {}

    /// The element of `lines`, or nil when they are not one element of an item's names, balanced, or are more than
    /// `maximumLines`.
    package init?(lines: [String]) {
        guard lines.count <= Self.maximumLines, lines.first.map({ $0 == "<item" }) == true else { return nil }
        var depth = 0
        var openedLast = false
        for (index, line) in lines.enumerated() {
            guard let mark = line.first else { return nil }
            let rest = line.dropFirst()
            switch mark {
            case "<":
                guard index == 0 || depth > 0, Self.elementNames.contains(String(rest)) else { return nil }
                depth += 1
                openedLast = true
                continue
            case "@":
                guard openedLast, let equals = rest.firstIndex(of: "="),
                    Self.isName(rest[..<equals])
                else { return nil }
                continue
            case "#":
                guard depth > 0 else { return nil }
            case ">":
                guard rest.isEmpty, depth > 0 else { return nil }
                depth -= 1
            default:
                return nil
            }
            openedLast = false
        }
        guard depth == 0 else { return nil }
        self.lines = lines
    }

    /// The most lines a recorded item may have: an item of 16 entries, each with 20 tags, images and credits, has
    /// a few hundred.
    static let maximumLines = 10_000

    /// The elements an item holds (Templates/gallery.rng, `item`).
    static let elementNames: Set<String> = [
        "item", "entry", "missing", "caption", "tag", "credit", "license", "ai-generated", "image", "encoding",
        "unavailable",
    ]

    static func isName(_ name: Substring) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// Every attribute of the element and of the elements in it, with the name of the element it is on, in order.
    package var attributes: [(element: String, name: String, value: String)] {
        var open: [String] = []
        var found: [(element: String, name: String, value: String)] = []
        for line in lines {
            let rest = line.dropFirst()
            switch line.first {
            case "<": open.append(String(rest))
            case ">": _ = open.popLast()
            case "@":
                guard let element = open.last, let equals = rest.firstIndex(of: "=") else { continue }
                found.append((element, String(rest[..<equals]), String(rest[rest.index(after: equals)...])))
            default: continue
            }
        }
        return found
    }

    package mutating func startElement(_ name: String) { lines.append("<" + name) }
    package mutating func attribute(_ name: String, _ value: String) { lines.append("@" + name + "=" + value) }
    package mutating func text(_ value: String) { lines.append("#" + value) }
    package mutating func endElement() { lines.append(">") }

    /// Writes the element to `sink`, the `id` of its item and entries prefixed with `idPrefix`.
    package func replay(to sink: inout some ModelXMLSink, idPrefix: String = "") {
        var element = ""
        for line in lines {
            let rest = line.dropFirst()
            switch line.first {
            case "<":
                element = String(rest)
                sink.startElement(element)
            case "@":
                guard let equals = rest.firstIndex(of: "=") else { continue }
                let name = String(rest[..<equals])
                var value = XMLText.clean(String(rest[rest.index(after: equals)...]))
                if name == "id", element == "item" || element == "entry" { value = idPrefix + value }
                sink.attribute(name, value)
            case "#":
                sink.text(XMLText.clean(String(rest)))
            default:
                sink.endElement()
            }
        }
    }
}
