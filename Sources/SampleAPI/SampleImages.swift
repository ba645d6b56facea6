import CSampleImages
import Foundation

/// One bundled JPEG rendition of a sample picture.
package struct SampleImage: Sendable, Equatable {
    /// The picture's theme, `"city"` or `"graffiti"`.
    package let theme: String
    /// The picture's 1-based number within its theme.
    package let number: Int
    /// The rendition's longest edge in pixels: 150, 640 or 1280.
    package let longestEdge: Int
    /// The rendition's width in pixels.
    package let width: Int
    /// The rendition's height in pixels.
    package let height: Int
    /// The JPEG file.
    package let bytes: Data
}

/// The sample pictures compiled into the binary (the `CSampleImages` table), looked up by theme, number and edge.
package struct SampleImages: Sendable {
    /// The longest edges every bundled picture is available in.
    package static let renditionEdges = [150, 640, 1280]

    /// The table compiled into this binary.
    package static let bundled = SampleImages(images: Self.readCTable())

    private struct Key: Hashable {
        let theme: String
        let number: Int
        let edge: Int
    }

    private let byKey: [Key: SampleImage]
    private let pictureCounts: [String: Int]

    /// Indexes `images`; a picture counts towards its theme only if numbers 1 through it exist in every rendition.
    package init(images: [SampleImage]) {
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
    package var all: [SampleImage] {
        byKey.values.sorted { ($0.theme, $0.number, $0.longestEdge) < ($1.theme, $1.number, $1.longestEdge) }
    }

    /// How many complete pictures (all renditions present, numbered from 1) `theme` has.
    package func pictureCount(theme: String) -> Int {
        pictureCounts[theme] ?? 0
    }

    /// The rendition of picture `number` of `theme` whose longest edge is exactly `longestEdge`.
    package func image(theme: String, number: Int, longestEdge: Int) -> SampleImage? {
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
