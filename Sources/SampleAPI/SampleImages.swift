import CSampleImages
import Foundation

/// One bundled JPEG rendition of a sample picture.
public struct SampleImage: Sendable, Equatable {
    /// The picture's theme, `"city"` or `"graffiti"`.
    public let theme: String
    /// The picture's 1-based number within its theme.
    public let number: Int
    /// The rendition's longest edge in pixels: 150, 640 or 1280.
    public let longestEdge: Int
    /// The rendition's width in pixels.
    public let width: Int
    /// The rendition's height in pixels.
    public let height: Int
    /// The JPEG file.
    public let bytes: Data
}

/// The sample pictures compiled into the binary (the `CSampleImages` table), looked up by theme, number and edge.
public struct SampleImages: Sendable {
    /// The longest edges every bundled picture is available in.
    public static let renditionEdges = [150, 640, 1280]

    /// The table compiled into this binary.
    public static let bundled = SampleImages(images: Self.readCTable())

    private struct Key: Hashable {
        let theme: String
        let number: Int
        let edge: Int
    }

    private let byKey: [Key: SampleImage]
    private let pictureCounts: [String: Int]

    /// Indexes `images`; a picture counts towards its theme only if numbers 1 through it exist in every rendition.
    public init(images: [SampleImage]) {
        var byKey: [Key: SampleImage] = [:]
        for image in images {
            byKey[Key(theme: image.theme, number: image.number, edge: image.longestEdge)] = image
        }
        var counts: [String: Int] = [:]
        for theme in Set(images.map(\.theme)) {
            var count = 0
            while Self.renditionEdges.allSatisfy({ byKey[Key(theme: theme, number: count + 1, edge: $0)] != nil }) {
                count += 1
            }
            counts[theme] = count
        }
        self.byKey = byKey
        self.pictureCounts = counts
    }

    /// Every rendition of every picture, ordered by theme, number and edge.
    public var all: [SampleImage] {
        byKey.values.sorted { ($0.theme, $0.number, $0.longestEdge) < ($1.theme, $1.number, $1.longestEdge) }
    }

    /// How many complete pictures (all renditions present, numbered from 1) `theme` has.
    public func pictureCount(theme: String) -> Int {
        pictureCounts[theme] ?? 0
    }

    /// The rendition of picture `number` of `theme` whose longest edge is exactly `longestEdge`.
    public func image(theme: String, number: Int, longestEdge: Int) -> SampleImage? {
        byKey[Key(theme: theme, number: number, edge: longestEdge)]
    }

    private static func readCTable() -> [SampleImage] {
        (0..<vitrine_sample_image_count()).compactMap { index in
            guard let entry = vitrine_sample_image_at(index)?.pointee, let theme = entry.theme, let bytes = entry.bytes
            else { return nil }
            return SampleImage(
                theme: String(cString: theme),
                number: Int(entry.number),
                longestEdge: Int(entry.longest_edge),
                width: Int(entry.width),
                height: Int(entry.height),
                bytes: Data(bytes: bytes, count: entry.length)
            )
        }
    }
}
