/// Takes out of a serialized HTML page the end tags that libxml2's HTML serializer writes for the empty elements
/// HTML 5 added (`<source>`, `<track>`, `<wbr>`): it knows HTML 4's empty elements only, so it closes these, and HTML
/// forbids their end tags (a validator reports each as a stray end tag). In the serialized page a `<` in text or in
/// an attribute value is escaped, so these bytes are end tags wherever they are (in a comment, they go too).
enum HTMLVoidEndTags {
    static let endTags: [[UInt8]] = ["</source>", "</track>", "</wbr>"].map { Array($0.utf8) }

    /// `bytes` without those end tags; the same bytes when they have none.
    static func removed(from bytes: [UInt8]) -> [UInt8] {
        guard let first = nextEndTag(in: bytes, from: 0) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var start = 0
        var found: (offset: Int, length: Int)? = first
        while let (offset, length) = found {
            output.append(contentsOf: bytes[start..<offset])
            start = offset + length
            found = nextEndTag(in: bytes, from: start)
        }
        output.append(contentsOf: bytes[start...])
        return output
    }

    private static func nextEndTag(in bytes: [UInt8], from start: Int) -> (offset: Int, length: Int)? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "/"),
                let tag = endTags.first(where: { bytes[index...].starts(with: $0) })
            {
                return (index, tag.count)
            }
            index += 1
        }
        return nil
    }
}
