import Foundation
import Synchronization

/// One sample picture as Lorem Picsum and Unsplash describe it: the bundled JPEG behind it and the metadata both
/// APIs report for it.
package struct RandomCatalogPhoto: Sendable, Equatable {
    /// Picsum's id: a string, not contiguous (`"1003"`).
    package var picsumID: String
    /// Unsplash's id: 11 letters and digits.
    package var unsplashID: String
    package var author: String
    package var username: String
    /// The original's size: twice the bundled 1280 px rendition.
    package var width: Int
    package var height: Int
    package var theme: String
    package var number: Int
    /// Its position in the catalog, which decides which fields Unsplash leaves null.
    package var index: Int
}

/// The photos behind the sample Lorem Picsum and Unsplash routes, and the sequence their random endpoints hand
/// them out in: a fixed rotation, so two requests in a row never get the same photo.
final class RandomImageCatalog: Sendable {
    static let picsumIDs = [
        "0", "1", "10", "100", "1000", "1001", "1002", "1003", "1004", "1005", "1006", "1008", "1009", "101", "1010",
        "1011", "1012", "1013", "1014", "1015",
    ]
    static let authors = [
        "Alejandro Escamilla", "Paul Jarvis", "Rick Waalders", "Tina Rataj", "Lukas Budimaier", "Danielle MacInnes",
        "NASA", "Vladimir Kudinov", "Jenna Lohmann", "Aleks Dorohovich", "Nina Hamburg-Süd", "Ishan Seefromthesky",
        "Matthew Wiebe", "Greg Rakozy", "Jana Ö'Brien", "Yoann Boyer", "Ales Krivec", "Rula Sibai", "Mika Matin",
        "Ruth Troughton",
    ]

    let photos: [RandomCatalogPhoto]
    private let rotation = Mutex(0)

    init(images: SampleImages) {
        var photos: [RandomCatalogPhoto] = []
        for theme in ["city", "graffiti"] {
            for number in stride(from: 1, through: images.pictureCount(theme: theme), by: 1) {
                guard photos.count < Self.picsumIDs.count,
                    let large = images.image(theme: theme, number: number, size: 1280)
                else { continue }
                let index = photos.count
                let author = Self.authors[index]
                let username = author.lowercased().unicodeScalars.filter {
                    $0.isASCII && CharacterSet.alphanumerics.contains($0)
                }
                photos.append(
                    RandomCatalogPhoto(
                        picsumID: Self.picsumIDs[index], unsplashID: Self.unsplashID(index),
                        author: author, username: String(String.UnicodeScalarView(username)),
                        width: large.width * 2, height: large.height * 2, theme: theme, number: number, index: index))
            }
        }
        self.photos = photos
    }

    /// An 11-character id in Unsplash's alphabet, the same for the same index.
    static func unsplashID(_ index: Int) -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789-_")
        var state = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
        return String(
            (0..<11).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return alphabet[Int(state >> 58) % alphabet.count]
            })
    }

    /// The next photo of the rotation (a step coprime with the count, so it runs through all before repeating).
    func next() -> RandomCatalogPhoto? {
        guard !photos.isEmpty else { return nil }
        let position = rotation.withLock { position -> Int in
            defer { position += 1 }
            return position
        }
        return photos[(position * 7 + 3) % photos.count]
    }

    func photo(picsumID: Substring) -> RandomCatalogPhoto? { photos.first { $0.picsumID == picsumID } }
    func photo(unsplashID: Substring) -> RandomCatalogPhoto? { photos.first { $0.unsplashID == unsplashID } }

    /// The photo a Picsum seed stands for: always the same one (FNV-1a of the seed).
    func photo(seed: Substring) -> RandomCatalogPhoto? {
        guard !photos.isEmpty else { return nil }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in seed.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return photos[Int(hash % UInt64(photos.count))]
    }

    /// The bundled rendition for a requested size: the smallest whose longest edge covers it, else the largest.
    func image(of photo: RandomCatalogPhoto, longestEdge wanted: Int, images: SampleImages) -> SampleImage? {
        let edge = SampleImages.longestEdgeSizes.first { $0 >= wanted } ?? SampleImages.longestEdgeSizes.last!
        return images.image(theme: photo.theme, number: photo.number, size: edge)
    }

    // MARK: - Lorem Picsum's shapes

    func picsumInfo(_ photo: RandomCatalogPhoto, baseURL: String) -> OrderedJSON {
        .object([
            ("id", .string(photo.picsumID)), ("author", .string(photo.author)), ("width", .int(photo.width)),
            ("height", .int(photo.height)), ("url", .string("\(baseURL)/pages/unsplash/photos/\(photo.unsplashID)")),
            ("download_url", .string("\(baseURL)/id/\(photo.picsumID)/\(photo.width)/\(photo.height)")),
        ])
    }

    // MARK: - Unsplash's shapes

    /// A photo as `/photos/random` returns it; some fields are null as they often are on Unsplash: every third
    /// photo has no description, location or EXIF data, every fourth no alt text.
    func unsplashPhoto(_ photo: RandomCatalogPhoto, baseURL: String) -> OrderedJSON {
        let sparse = photo.index % 3 == 1
        let image = "\(baseURL)/unsplash-images/photo-\(photo.index + 1)-\(photo.unsplashID)"
        let ixid = "ixid=M3w\(photo.unsplashID)"
        func sized(_ query: String) -> OrderedJSON { .string("\(image)?\(ixid)&\(query)") }
        let profile = "\(baseURL)/pages/unsplash/@\(photo.username)"
        let created = CivilTime.iso8601(1_600_000_000 + photo.index * 86_400 * 11)
        let location: OrderedJSON =
            sparse
            ? .object([("name", .null), ("city", .null), ("country", .null)])
            : photo.index % 2 == 0
                ? .object([
                    ("name", .string("Hamburg, Germany")), ("city", .string("Hamburg")),
                    ("country", .string("Germany")),
                ])
                : .object([("name", .null), ("city", .string("Lisbon")), ("country", .string("Portugal"))])
        let exif: OrderedJSON =
            sparse
            ? .object([
                ("make", .null), ("model", .null), ("name", .null), ("exposure_time", .null), ("aperture", .null),
                ("focal_length", .null), ("iso", .null),
            ])
            : .object([
                ("make", .string("FUJIFILM")), ("model", .string("X-T3")), ("name", .string("FUJIFILM, X-T3")),
                ("exposure_time", .string("1/250")), ("aperture", .string("5.6")), ("focal_length", .string("23.0")),
                ("iso", .int(160)),
            ])
        return .object([
            ("id", .string(photo.unsplashID)), ("slug", .string("sample-\(photo.unsplashID)")),
            ("created_at", .string(created)), ("updated_at", .string(created)), ("promoted_at", .null),
            ("width", .int(photo.width)), ("height", .int(photo.height)), ("color", .string("#595959")),
            ("blur_hash", .string("LEHV6nWB2yk8pyo0adR*.7kCMdnj")),
            ("description", sparse ? .null : .string("A \(photo.theme) scene, sample \(photo.number)")),
            ("alt_description", photo.index % 4 == 3 ? .null : .string("\(photo.theme) photo by \(photo.author)")),
            (
                "urls",
                .object([
                    ("raw", .string("\(image)?\(ixid)")), ("full", sized("q=85&fm=jpg")),
                    ("regular", sized("w=1080&fit=max&q=80&fm=jpg")), ("small", sized("w=400&fit=max&q=80&fm=jpg")),
                    ("thumb", sized("w=200&fit=max&q=80&fm=jpg")),
                ])
            ),
            (
                "links",
                .object([
                    ("self", .string("\(baseURL)/unsplash/photos/\(photo.unsplashID)")),
                    ("html", .string("\(baseURL)/pages/unsplash/photos/\(photo.unsplashID)")),
                    ("download", .string("\(baseURL)/unsplash/photos/\(photo.unsplashID)/download")),
                    ("download_location", .string("\(baseURL)/unsplash/photos/\(photo.unsplashID)/download?\(ixid)")),
                ])
            ),
            ("likes", .int(photo.index * 37 + 5)), ("downloads", .int(photo.index * 311 + 40)),
            ("location", location), ("exif", exif),
            (
                "user",
                .object([
                    ("id", .string("u\(photo.unsplashID)")), ("username", .string(photo.username)),
                    ("name", .string(photo.author)), ("portfolio_url", .null), ("bio", .null),
                    ("links", .object([("self", .null), ("html", .string(profile))])),
                ])
            ),
        ])
    }
}
