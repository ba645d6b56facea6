import Foundation

/// Adds a comment segment (`FF FE`) to a JPEG file, which changes its bytes but not the picture.
enum JPEGComment {
    /// `jpeg` with `text` (at most 65,533 UTF-8 bytes are kept) in a comment segment right after the JFIF `APP0`
    /// segment, or after the start-of-image marker when there is none; anything that is not a JPEG comes back as is.
    static func insert(_ text: String, into jpeg: Data) -> Data {
        let bytes = [UInt8](jpeg)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return jpeg }
        var position = 2
        if bytes[2] == 0xFF, bytes[3] == 0xE0, bytes.count >= 6 {
            let length = Int(bytes[4]) << 8 | Int(bytes[5])
            if position + 2 + length <= bytes.count { position += 2 + length }
        }
        let payload = Array(text.utf8.prefix(65_533))
        let length = payload.count + 2
        var result = Data(capacity: bytes.count + length + 2)
        result.append(contentsOf: bytes[..<position])
        result.append(contentsOf: [0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)])
        result.append(contentsOf: payload)
        result.append(contentsOf: bytes[position...])
        return result
    }
}
