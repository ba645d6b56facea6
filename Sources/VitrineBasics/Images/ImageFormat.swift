/// The image formats Vitrine accepts, recognised by their first bytes rather than by any header or file name.
package enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, gif, webp, avif

    package var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .avif: "image/avif"
        }
    }

    /// The format whose media type is `mediaType` (`image/jpeg`, …), or nil when it is not one of them.
    package init?(mediaType: String) {
        guard let format = Self.allCases.first(where: { $0.mediaType == mediaType }) else { return nil }
        self = format
    }

    package var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        default: rawValue
        }
    }

    /// The format whose signature `bytes` start with, or nil when they are not one of the accepted images.
    package static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return .gif }
        if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            return .webp
        }
        // An ISO base media file whose first box is `ftyp` with the AVIF image (or image sequence) brand.
        if head.count == 12, Array(head[4..<8]) == Array("ftyp".utf8),
            ["avif", "avis"].contains(where: { Array(head[8..<12]) == Array($0.utf8) })
        {
            return .avif
        }
        return nil
    }
}
