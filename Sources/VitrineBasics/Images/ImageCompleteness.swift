/// Tells an image cut short from a whole one by its structure alone, never decoding a pixel: a server (or a cache
/// in front of it) that sends the first part of an image with a `Content-Length` to match passes every transfer
/// check, and browsers show such an image half grey or not at all.
///
/// What counts as whole: a JPEG reaches a scan (start of scan) and its end marker after it (bytes after the end
/// marker are allowed, as decoders ignore them); a PNG's chunks reach `IEND`; a GIF's blocks reach its trailer;
/// a WebP file is at least as long as its RIFF header says; an AVIF file's top-level boxes end where the file does.
package enum ImageCompleteness {
    /// Why `bytes`, sniffed as `format`, are not a whole image, in a few words for a placeholder; nil when they are.
    package static func problem(_ bytes: [UInt8], format: ImageFormat) -> String? {
        let missing: String? =
            switch format {
            case .jpeg: jpegMissing(bytes)
            case .png: pngMissing(bytes)
            case .gif: gifMissing(bytes)
            case .webp: webpMissing(bytes)
            case .avif: ISOBoxes.endOfBoxes(in: bytes) == bytes.count ? nil : "the AVIF file ends inside a box"
            }
        return missing.map { "Incomplete image: \($0)" }
    }

    /// Walks the segments to the first scan, then the scans' entropy-coded data (where `FF` is followed by `00` or a
    /// restart marker) and the segments between scans, to the end marker.
    private static func jpegMissing(_ bytes: [UInt8]) -> String? {
        let damaged = "the JPEG's segments are damaged"
        var offset = 2
        var scanned = false
        walk: while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else {
                // Outside a scan every segment starts with FF; inside one, coded data runs to the next FF.
                guard scanned else { return damaged }
                guard let next = bytes[offset...].firstIndex(of: 0xFF) else { break walk }
                offset = next
                continue
            }
            let marker = bytes[offset + 1]
            switch marker {
            case 0xFF: offset += 1
            case 0xD9: return scanned ? nil : "the JPEG has no image data"
            case 0x00:
                guard scanned else { return damaged }
                offset += 2
            case 0x01, 0xD0...0xD7: offset += 2
            default:
                guard offset + 3 < bytes.count else { break walk }
                let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                guard length >= 2 else { return damaged }
                offset += 2 + length
                if marker == 0xDA { scanned = true }
            }
        }
        return scanned ? "the JPEG ends before its end marker" : "the JPEG ends before its image data"
    }

    /// Walks the chunks (length, type, data, CRC) to `IEND`.
    private static func pngMissing(_ bytes: [UInt8]) -> String? {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let end = offset + 12 + length
            guard end <= bytes.count else { break }
            if bytes[offset + 4..<offset + 8].elementsEqual("IEND".utf8) { return nil }
            offset = end
        }
        return "the PNG ends before its IEND chunk"
    }

    /// Walks the header, colour tables, image descriptors, extensions and their data sub-blocks to the trailer.
    private static func gifMissing(_ bytes: [UInt8]) -> String? {
        let truncated = "the GIF ends before its trailer"
        guard bytes.count >= 13 else { return truncated }
        var offset = 13 + colorTableSize(flags: bytes[10])
        /// Skips a run of data sub-blocks (a size byte, that many bytes) up to its empty terminator.
        func skipSubBlocks() -> Bool {
            while offset < bytes.count {
                let size = Int(bytes[offset])
                offset += 1 + size
                if size == 0 { return true }
            }
            return false
        }
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x3B: return nil
            case 0x21:
                offset += 2
                guard skipSubBlocks() else { return truncated }
            case 0x2C:
                guard offset + 10 <= bytes.count else { return truncated }
                offset += 10 + colorTableSize(flags: bytes[offset + 9]) + 1
                guard skipSubBlocks() else { return truncated }
            default: return "the GIF's blocks are damaged"
            }
        }
        return truncated
    }

    /// The bytes of the colour table a GIF flags byte announces.
    private static func colorTableSize(flags: UInt8) -> Int {
        flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 0x07) + 1)
    }

    /// The RIFF header's size counts the bytes after its first 8.
    private static func webpMissing(_ bytes: [UInt8]) -> String? {
        guard bytes.count >= 12 else { return "the WebP file ends inside its header" }
        let size = bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        return bytes.count >= 8 + size ? nil : "the WebP file is shorter than its RIFF header says"
    }
}
