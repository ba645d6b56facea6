/// Adds EXIF data with an orientation to a JPEG file, as a phone's camera writes it for a picture taken turned.
package enum JPEGOrientation {
    /// `jpeg` (a JPEG file, starting with its SOI marker) with an APP1 segment right after SOI holding EXIF data whose
    /// first image file directory has the orientation tag set to `orientation`, in Intel (`II`) or Motorola (`MM`)
    /// byte order; anything that is not a JPEG comes back as is.
    package static func insert(_ orientation: Int, into jpeg: [UInt8], littleEndian: Bool = true) -> [UInt8] {
        guard jpeg.count >= 2, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return jpeg }
        func number(_ value: Int, _ count: Int) -> [UInt8] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            return littleEndian ? bytes : bytes.reversed()
        }
        var tiff: [UInt8] = littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]
        tiff += number(42, 2) + number(8, 4)
        // One entry: tag 0x0112, type SHORT, one value, padded to four bytes; then no next directory.
        tiff += number(1, 2) + number(0x0112, 2) + number(3, 2) + number(1, 4) + number(orientation, 2) + [0, 0]
        tiff += number(0, 4)
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        return Array(jpeg[0..<2]) + segment + Array(jpeg[2...])
    }
}
