/// Walks the boxes of an ISO base media file (AVIF, HEIF) by their headers: a 32-bit size and a four-letter type,
/// the size 1 followed by a 64-bit size, or 0 for "to the end of the file".
enum ISOBoxes {
    /// The payload (after the header) of the first box of `type` directly inside `range`; nil when there is none or
    /// a box header before it is cut short or says more bytes than the range has.
    static func child(_ type: String, in bytes: [UInt8], range: Range<Int>) -> Range<Int>? {
        var offset = range.lowerBound
        let wanted = Array(type.utf8)
        while let box = box(at: offset, in: bytes, end: range.upperBound) {
            if bytes[offset + 4..<offset + 8].elementsEqual(wanted) { return box }
            offset = box.upperBound
        }
        return nil
    }

    /// Where the top-level boxes stop: the file's length when they fill it exactly, less when a box is cut short.
    static func endOfBoxes(in bytes: [UInt8]) -> Int {
        var offset = 0
        while let box = box(at: offset, in: bytes, end: Int.max) {
            guard box.upperBound <= bytes.count else { return offset }
            offset = box.upperBound
            if offset == bytes.count { break }
        }
        return offset
    }

    /// The payload of the box whose header starts at `offset`, if its header is there; the payload may reach past
    /// the bytes when `end` allows it (the caller checks).
    private static func box(at offset: Int, in bytes: [UInt8], end: Int) -> Range<Int>? {
        let limit = min(end, bytes.count)
        guard offset >= 0, offset + 8 <= limit else { return nil }
        var size = number(bytes, offset, 4)
        var header = 8
        if size == 1 {
            guard offset + 16 <= limit else { return nil }
            size = number(bytes, offset + 8, 8)
            header = 16
        } else if size == 0 {
            size = limit - offset
        }
        guard size >= header, size <= end - offset else { return nil }
        return offset + header..<offset + size
    }

    /// A big-endian number of `count` bytes (at most 8), `Int.max` for larger values.
    private static func number(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        let value = bytes[offset..<offset + count].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }
}
