import Foundation

/// One element of the media-coverage thumbnail list (`GET /api/v2/content/misc/media-coverages`).
package struct MediaCoverage: Sendable, Equatable, Decodable {
    /// `coverage-2cc583`.
    package var id: String
    package var title: String
    /// `english` or `hindi`.
    package var language: String
    package var thumbnail: MediaCoverageThumbnail
    package var mediaType: Int
    package var coverageURL: String
    /// `2024-05-01`.
    package var publishedAt: String
    package var publishedBy: String
    /// Present on some elements only.
    package var backupDetails: MediaCoverageBackup?
    /// Present on some elements only.
    package var description: String?
    /// Present on some elements only.
    package var seoSlugWithId: String?

    var json: OrderedJSON {
        var members: [(String, OrderedJSON)] = [
            ("id", .string(id)), ("title", .string(title)), ("language", .string(language)),
            ("thumbnail", thumbnail.json), ("mediaType", .int(mediaType)), ("coverageURL", .string(coverageURL)),
            ("publishedAt", .string(publishedAt)), ("publishedBy", .string(publishedBy)),
        ]
        if let backupDetails {
            members.append(
                (
                    "backupDetails",
                    .object([
                        ("pdfLink", .string(backupDetails.pdfLink)),
                        ("screenshotURL", .string(backupDetails.screenshotURL)),
                    ])
                )
            )
        }
        if let description {
            members.append(("description", .string(description)))
        }
        if let seoSlugWithId {
            members.append(("seoSlugWithId", .string(seoSlugWithId)))
        }
        return .object(members)
    }
}

/// The `thumbnail` of a ``MediaCoverage``: where its image lives and in which qualities.
package struct MediaCoverageThumbnail: Sendable, Equatable, Decodable {
    /// `img-{uuid}`.
    package var id: String
    package var version: Int
    /// `{base}/cimg`.
    package var domain: String
    /// `images/img-{uuid}`.
    package var basePath: String
    /// `image.jpg`.
    package var key: String
    /// `[10, 20, 30, 40]`, or empty on some elements.
    package var qualities: [Int]
    /// Width / height of the full image (quality 0), rounded to 3 decimals.
    package var aspectRatio: Double

    /// `domain/basePath/{quality}/key`; quality 0 is the full image.
    package func url(quality: Int = 0) -> String {
        "\(domain)/\(basePath)/\(quality)/\(key)"
    }

    var json: OrderedJSON {
        .object([
            ("id", .string(id)), ("version", .int(version)), ("domain", .string(domain)),
            ("basePath", .string(basePath)), ("key", .string(key)), ("qualities", .array(qualities.map { .int($0) })),
            ("aspectRatio", .double(aspectRatio)),
        ])
    }
}

/// The optional `backupDetails` of a ``MediaCoverage``.
package struct MediaCoverageBackup: Sendable, Equatable, Decodable {
    package var pdfLink: String
    package var screenshotURL: String
}

/// The sample API's deterministic media-coverage list: element `i` is a pure function of `i` and the base URL.
///
/// A thumbnail's uuid encodes its picture (the last group starts with the theme digit and the two hex digits of the
/// picture number, followed by a checksum), so a fresh server serves image URLs handed out by an earlier one.
package struct ThumbnailCatalog: Sendable {
    /// The most elements the list ever returns.
    package static let maxCount = 300
    /// How many elements exist unless configured otherwise.
    package static let defaultCount = 240
    /// `limit` when the request has none.
    package static let defaultLimit = 100
    /// The qualities every thumbnail is served in besides 0, the full image.
    package static let qualities = [10, 20, 30, 40]

    private static let englishTitles = [
        "Why young readers are returning to long essays",
        "A conversation on climate, cities and consumption",
        "Harbour towns and the art of slowing down",
        "The \"quiet\" revolution in adult education",
        "What students ask when nobody is grading",
        "Street art, public walls & the question of ownership",
        "Inside a volunteer-run library that never closes",
        "Reading groups are back, and they're growing",
        "Five questions about attention in a noisy age",
        "How a podcast became a classroom",
        "Old warehouses, new audiences: culture by the river",
        "Learning without fear: notes from a workshop",
    ]
    private static let hindiTitles: [(title: String, slug: String)] = [
        ("बंदरगाह की कहानी", "bandargah-ki-kahani"),
        ("शहर और कला", "shahar-aur-kala"),
        ("दीवारों पर रंग", "deewaron-par-rang"),
        ("नदी किनारे एक शाम", "nadi-kinare-ek-shaam"),
        ("युवा और पढ़ने की आदत", "yuva-aur-padhne-ki-aadat"),
    ]
    private static let outlets = [
        "Entrepreneur India", "The Harbour Herald", "Morning Ledger", "Deccan Daily Mirror", "Riverside Times",
        "Nagar Samachar", "The Weekly Lantern", "Metro Pulse",
    ]

    /// How many elements exist (clamped to `0...300`).
    package let count: Int
    private let images: SampleImages

    package init(count: Int = ThumbnailCatalog.defaultCount, images: SampleImages = .bundled) {
        self.count = min(max(count, 0), Self.maxCount)
        self.images = images
    }

    /// The list for `limit` (clamped to `0...300`; nil means 100): the first `min(limit, count)` elements.
    package func coverages(limit: Int?, baseURL: String) -> [MediaCoverage] {
        let limit = min(max(limit ?? Self.defaultLimit, 0), Self.maxCount)
        return (0..<min(limit, count)).map { coverage(at: $0, baseURL: baseURL) }
    }

    /// Element `index` (0-based); its thumbnail URLs start with `{baseURL}/cimg`.
    package func coverage(at index: Int, baseURL: String) -> MediaCoverage {
        let hash = PixabayCatalog.stableHash("media-coverage:\(index)")
        var random = SplitMix64(seed: hash)
        let shortID = Digits.hex(random.next(), width: 6)
        let theme = random.next(below: 3) == 0 ? "graffiti" : "city"
        let pictureCount = max(images.pictureCount(theme: theme), 1)
        let number = (index * 5 + random.next(below: pictureCount)) % pictureCount + 1
        let uuid = Self.uuid(seed: random.next(), theme: theme, number: number)
        let full = images.image(theme: theme, number: number, size: 1280)
        let aspectRatio = full.map { (Double($0.width) / Double($0.height) * 1000).rounded() / 1000 } ?? 1

        let isHindi = index % 5 == 2
        let title: String
        let slug: String
        if isHindi {
            let entry = Self.hindiTitles[(index / 5 + random.next(below: 2)) % Self.hindiTitles.count]
            (title, slug) = (entry.title, entry.slug)
        } else {
            title = Self.englishTitles[(index * 7 + random.next(below: 3)) % Self.englishTitles.count]
            slug = PixabayCatalog.slug(title.lowercased())
        }
        let published = 1_731_628_800 - (index * 3 + random.next(below: 3)) * 86_400
        let outlet = Self.outlets[random.next(below: Self.outlets.count)]
        return MediaCoverage(
            id: "coverage-\(shortID)",
            title: title,
            language: isHindi ? "hindi" : "english",
            thumbnail: MediaCoverageThumbnail(
                id: "img-\(uuid)",
                version: 1,
                domain: "\(baseURL)/cimg",
                basePath: "images/img-\(uuid)",
                key: "image.jpg",
                qualities: index % 10 == 7 ? [] : Self.qualities,
                aspectRatio: aspectRatio
            ),
            mediaType: 0,
            coverageURL: "https://example.com/news/\(slug)-\(shortID)",
            publishedAt: CivilTime.date(published),
            publishedBy: outlet,
            backupDetails: index % 3 == 0
                ? MediaCoverageBackup(
                    pdfLink: "https://example.com/backups/coverage-\(shortID).pdf",
                    screenshotURL: "https://example.com/backups/coverage-\(shortID).png"
                ) : nil,
            description: index % 4 == 1 ? "\(outlet) reports: \(title)." : nil,
            seoSlugWithId: index % 2 == 0 ? "\(slug)-\(shortID)" : nil
        )
    }

    /// The longest edge of the rendition served for `quality`: 0 → 1280, 30 and 40 → 640, 10 and 20 → 150.
    package static func servedEdge(forQuality quality: Int) -> Int? {
        switch quality {
        case 0: 1280
        case 30, 40: 640
        case 10, 20: 150
        default: nil
        }
    }

    /// The rendition `/cimg/images/{imageID}/{quality}/image.jpg` serves, or nil for an id this catalogue did not
    /// make or an unknown quality.
    package func image(imageID: String, quality: Int) -> SampleImage? {
        guard let edge = Self.servedEdge(forQuality: quality), imageID.hasPrefix("img-"),
            let picture = Self.picture(forUUID: String(imageID.dropFirst(4)))
        else {
            return nil
        }
        return images.image(theme: picture.theme, number: picture.number, size: edge)
    }

    /// The theme and picture number encoded in a thumbnail uuid this catalogue made, or nil for any other text.
    package static func picture(forUUID uuid: String) -> (theme: String, number: Int)? {
        uuids.picture(in: uuid)
    }

    /// The thumbnails' ids: the scheme unsalted, as it was first made.
    private static let uuids = PictureUUID(salt: "")

    private static func uuid(seed: UInt64, theme: String, number: Int) -> String {
        uuids.make(seed: seed, theme: theme, number: number)
    }
}
