/// Reads an image's pixel size from its header, without decoding it.
package enum ImageDimensions {
    package static func read(_ bytes: [UInt8], format: ImageFormat) -> (width: Int, height: Int)? {
        let size: (Int, Int)?
        switch format {
        case .png: size = bytes.count >= 24 ? (bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4)) : nil
        case .gif: size = bytes.count >= 10 ? (littleEndian(bytes, 6, 2), littleEndian(bytes, 8, 2)) : nil
        case .jpeg: size = jpeg(bytes)
        case .webp: size = webp(bytes)
        case .avif: size = avif(bytes)
        }
        guard let (width, height) = size, width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// The longest side a page is given: browsers' decoders refuse larger ones (Chromium's and Firefox's limit
    /// a side to 32,767 pixels).
    static let largestSide = 32_767
    /// The most pixels a page is given, 2^28 (268 megapixels, about 1 GiB decoded): a header that declares more
    /// is an image bomb, or nothing a browser will show.
    static let largestPixelCount = 1 << 28

    /// Why an image of this declared size is refused, in a few words for a placeholder; nil when it is acceptable.
    package static func refusal(width: Int, height: Int) -> String? {
        guard width > largestSide || height > largestSide || width * height > largestPixelCount else { return nil }
        return "Image too large: \(width) × \(height) pixels"
    }

    /// The size in the first start-of-frame segment, as a browser shows the image: width and height swapped when
    /// an EXIF orientation before it turns the image a quarter (browsers apply it, `image-orientation: from-image`).
    private static func jpeg(_ bytes: [UInt8]) -> (Int, Int)? {
        var offset = 2
        var quarterTurn = false
        while offset + 9 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF {
                offset += 1
                continue
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) {
                offset += 2
                continue
            }
            let length = bigEndian(bytes, offset + 2, 2)
            let isFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isFrame {
                let stored = (bigEndian(bytes, offset + 7, 2), bigEndian(bytes, offset + 5, 2))
                return quarterTurn ? (stored.1, stored.0) : stored
            }
            guard length >= 2 else { return nil }
            if marker == 0xE1, let orientation = exifOrientation(bytes, segment: offset + 4..<offset + 2 + length) {
                quarterTurn = (5...8).contains(orientation)
            }
            offset += 2 + length
        }
        return nil
    }

    /// The orientation (tag 0x0112 of the first image file directory) of an APP1 segment's EXIF data, when the
    /// segment holds one that can be read within its bounds; nil otherwise.
    static func exifOrientation(_ bytes: [UInt8], segment: Range<Int>) -> Int? {
        let end = min(segment.upperBound, bytes.count)
        let tiff = segment.lowerBound + 6
        guard tiff + 8 <= end, bytes[segment.lowerBound..<tiff].elementsEqual(Array("Exif".utf8) + [0, 0])
        else { return nil }
        let little: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func number(_ at: Int, _ count: Int) -> Int? {
            guard at >= tiff, at + count <= end else { return nil }
            return little ? littleEndian(bytes, at, count) : bigEndian(bytes, at, count)
        }
        guard number(tiff + 2, 2) == 42, let directory = number(tiff + 4, 4), let entries = number(tiff + directory, 2)
        else { return nil }
        for index in 0..<min(entries, (end - tiff) / 12) {
            let entry = tiff + directory + 2 + 12 * index
            guard let tag = number(entry, 2) else { return nil }
            // A SHORT (type 3) with one value, which sits in the first two bytes of the value field.
            if tag == 0x0112 {
                guard number(entry + 2, 2) == 3, number(entry + 4, 4) == 1, let value = number(entry + 8, 2) else {
                    return nil
                }
                return value
            }
        }
        return nil
    }

    /// The first image spatial extent (`ispe`) among the item properties: `meta` > `iprp` > `ipco` > `ispe`, the
    /// primary image's in the files encoders write.
    private static func avif(_ bytes: [UInt8]) -> (Int, Int)? {
        // `meta` is a full box: its version and flags (4 bytes) come before its children.
        guard let meta = ISOBoxes.child("meta", in: bytes, range: 0..<bytes.count), meta.count >= 4,
            let properties = ISOBoxes.child("iprp", in: bytes, range: meta.lowerBound + 4..<meta.upperBound),
            let container = ISOBoxes.child("ipco", in: bytes, range: properties),
            let extent = ISOBoxes.child("ispe", in: bytes, range: container), extent.count >= 12
        else { return nil }
        let start = extent.lowerBound + 4
        return (bigEndian(bytes, start, 4), bigEndian(bytes, start + 4, 4))
    }

    private static func webp(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 30 else { return nil }
        switch String(decoding: bytes[12..<16], as: UTF8.self) {
        case "VP8 ": return (littleEndian(bytes, 26, 2) & 0x3FFF, littleEndian(bytes, 28, 2) & 0x3FFF)
        case "VP8L":
            let bits = littleEndian(bytes, 21, 4)
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X": return (littleEndian(bytes, 24, 3) + 1, littleEndian(bytes, 27, 3) + 1)
        default: return nil
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        guard offset + count <= bytes.count else { return 0 }
        return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        guard offset + count <= bytes.count else { return 0 }
        return bytes[offset..<offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
