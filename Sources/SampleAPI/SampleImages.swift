import CSampleImages
import Foundation

/// One bundled JPEG rendition of a sample picture.
package struct SampleImage: Sendable, Equatable {
    /// The picture's theme, `"city"` or `"graffiti"`.
    package let theme: String
    /// The picture's 1-based number within its theme.
    package let number: Int
    /// The rendition's size as Pixabay names it in its URLs: 150, 640 and 1280 are the longest edge in pixels, 180
    /// and 340 the height, and 960 fits 960 × 720 (the sizes of `webformatURL` with its `_640` replaced).
    package let size: Int
    /// The rendition's width in pixels.
    package let width: Int
    /// The rendition's height in pixels.
    package let height: Int
    /// The JPEG file.
    package let bytes: Data
}

/// The sample pictures compiled into the binary (the `CSampleImages` table), looked up by theme, number and size.
package struct SampleImages: Sendable {
    /// The sizes every bundled picture is available in.
    package static let sizes = [150, 180, 340, 640, 960, 1280]

    /// The sizes that are the longest edge in pixels, for sources that ask for a rendition by its longest edge.
    package static let longestEdgeSizes = [150, 640, 1280]

    /// The table compiled into this binary.
    package static let bundled = SampleImages(images: Self.readCTable())

    private struct Key: Hashable {
        let theme: String
        let number: Int
        let size: Int
    }

    private let byKey: [Key: SampleImage]
    private let pictureCounts: [String: Int]

    /// Indexes `images`; a picture counts towards its theme only if numbers 1 through it exist in every rendition.
    package init(images: [SampleImage]) {
        var byKey: [Key: SampleImage] = [:]
        for image in images {
            byKey[Key(theme: image.theme, number: image.number, size: image.size)] = image
        }
        var counts: [String: Int] = [:]
        for theme in Set(images.map(\.theme)) {
            var count = 0
            while Self.sizes.allSatisfy({ byKey[Key(theme: theme, number: count + 1, size: $0)] != nil }) {
                count += 1
            }
            counts[theme] = count
        }
        self.byKey = byKey
        self.pictureCounts = counts
    }

    /// Every rendition of every picture, ordered by theme, number and size.
    package var all: [SampleImage] {
        byKey.values.sorted { ($0.theme, $0.number, $0.size) < ($1.theme, $1.number, $1.size) }
    }

    /// How many complete pictures (every size present, numbered from 1) `theme` has.
    package func pictureCount(theme: String) -> Int {
        pictureCounts[theme] ?? 0
    }

    /// The rendition of picture `number` of `theme` of exactly `size` (see ``SampleImage/size``).
    package func image(theme: String, number: Int, size: Int) -> SampleImage? {
        byKey[Key(theme: theme, number: number, size: size)]
    }

    private static func readCTable() -> [SampleImage] {
        (0..<vitrine_sample_image_count()).compactMap { index in
            guard let entry = vitrine_sample_image_at(index)?.pointee, let theme = entry.theme, let bytes = entry.bytes
            else { return nil }
            return SampleImage(
                theme: String(cString: theme),
                number: Int(entry.number),
                size: Int(entry.size),
                width: Int(entry.width),
                height: Int(entry.height),
                bytes: Data(bytes: bytes, count: entry.length)
            )
        }
    }
}
