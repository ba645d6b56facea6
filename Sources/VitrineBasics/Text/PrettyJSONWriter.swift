/// Writes JSON straight into bytes, in the layout of `JSONEncoder` with `.prettyPrinted`, `.sortedKeys` and
/// `.withoutEscapingSlashes` (the caller gives keys in sorted order), without building `JSONEncoder`'s tree of
/// values first. It is kept for the output manifest alone, where `JSONEncoder` made an incremental rebuild slower end
/// to end (BENCHMARKS.md, "Figures behind the code").
package struct PrettyJSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// For each open array or object: whether it has a member yet.
    private var open: [Bool] = []
    /// A key was written and its value comes next.
    private var afterKey = false

    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// Hands the bytes written so far to `sink` and forgets them, so that a long document can go to a file in
    /// pieces.
    package mutating func flush(into sink: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try bytes.withUnsafeBytes(sink)
        bytes.removeAll(keepingCapacity: true)
    }

    /// Ends the document with a line break, as a text file ends.
    package mutating func newline() { bytes.append(0x0A) }

    package mutating func beginObject() { beginContainer(UInt8(ascii: "{")) }
    package mutating func endObject() { endContainer(UInt8(ascii: "}")) }
    package mutating func beginArray() { beginContainer(UInt8(ascii: "[")) }
    package mutating func endArray() { endContainer(UInt8(ascii: "]")) }

    /// Starts an object member; its value follows.
    package mutating func key(_ name: String) {
        startValue()
        appendString(name)
        bytes.append(0x20)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(0x20)
        afterKey = true
    }

    package mutating func string(_ value: String) {
        startValue()
        appendString(value)
    }

    package mutating func integer(_ value: Int) {
        startValue()
        bytes.append(contentsOf: String(value).utf8)
    }

    /// Starts a member of the open container: a comma after the one before, a new line, the indent. A value right
    /// after its key stays on the key's line.
    private mutating func startValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard let hasMember = open.last else { return }
        if hasMember { bytes.append(UInt8(ascii: ",")) }
        open[open.count - 1] = true
        bytes.append(0x0A)
        indent(open.count)
    }

    private mutating func beginContainer(_ bracket: UInt8) {
        startValue()
        bytes.append(bracket)
        open.append(false)
    }

    private mutating func endContainer(_ bracket: UInt8) {
        let hadMember = open.removeLast()
        bytes.append(0x0A)
        if !hadMember { bytes.append(0x0A) }
        indent(open.count)
        bytes.append(bracket)
    }

    private mutating func indent(_ depth: Int) {
        for _ in 0..<depth * 2 { bytes.append(0x20) }
    }

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        // Nearly every string of a manifest (paths, digests, URLs) needs no escape: its bytes go in at once.
        let plain: Bool? = value.utf8.withContiguousStorageIfAvailable { text in
            guard !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return false
            }
            bytes.append(contentsOf: text)
            return true
        }
        if plain != true { appendEscaped(value) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ value: String) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
    }
}
