import Foundation

/// One image in a Pixabay search response, with every field Pixabay documents (JSON keys as Pixabay spells them).
package struct PixabayHit: Codable, Sendable, Equatable {
    package var id: Int
    package var pageURL: String
    package var type: String
    package var tags: String
    package var previewURL: String
    package var previewWidth: Int
    package var previewHeight: Int
    package var webformatURL: String
    package var webformatWidth: Int
    package var webformatHeight: Int
    package var largeImageURL: String
    package var imageWidth: Int
    package var imageHeight: Int
    package var imageSize: Int
    package var views: Int
    package var downloads: Int
    package var collections: Int
    package var likes: Int
    package var comments: Int
    package var userID: Int
    package var user: String
    package var userImageURL: String
    package var userURL: String
    package var noAiTraining: Bool
    package var isAiGenerated: Bool
    package var isGRated: Bool
    package var isLowQuality: Int

    enum CodingKeys: String, CodingKey {
        case id, pageURL, type, tags, previewURL, previewWidth, previewHeight
        case webformatURL, webformatWidth, webformatHeight, largeImageURL, imageWidth, imageHeight, imageSize
        case views, downloads, collections, likes, comments
        case userID = "user_id"
        case user, userImageURL, userURL, noAiTraining, isAiGenerated, isGRated, isLowQuality
    }
}

/// The body of a successful Pixabay search: `{"total": …, "totalHits": …, "hits": […]}`.
package struct PixabaySearchResult: Codable, Sendable, Equatable {
    package var total: Int
    package var totalHits: Int
    package var hits: [PixabayHit]
}

/// The sample API's deterministic image catalogue: result counts and hits as pure functions of the query.
///
/// Every query has up to 500 hits (more when the cap is raised for benchmarks). Hit `i` depends only on the
/// normalised query and `i` (plus the server's base URL and whether hit `i` is revised), so pages can be computed
/// independently, and a `graffiti` query shares every fifth hit with its base term.
///
/// One hit in seven is marked `isAiGenerated`: hit `i` of a query is when `(stableHash(query) % 7 + i) % 7 == 0`, so
/// any 7 hits in a row hold exactly one, wherever the query's cycle starts (a page of 20 has two or three); the hits
/// a `graffiti` query shares with its base term keep the base term's mark.
package struct PixabayCatalog: Sendable {
    /// Pixabay's cap on `totalHits`.
    package static let maxTotalHits = 500

    private static let cityWords = [
        "harbour", "ship", "crane", "warehouse", "bridge", "river", "skyline", "dusk", "street", "canal", "brick",
        "tower", "port", "architecture", "night", "water", "building",
    ]
    private static let graffitiWords = [
        "wall", "spray", "street art", "mural", "colour", "urban", "paint", "tag", "stencil", "lettering",
        "underground", "alley", "concrete", "artist",
    ]
    private static let users: [(name: String, id: Int)] = [
        ("elbfoto", 1_204_117), ("harbourlights", 2_381_905), ("streetframes", 3_093_442), ("nordlicht", 4_410_268),
        ("kranfuehrer", 5_127_731), ("speicherstadt", 6_652_019), ("urbanwalker", 7_018_374), ("greycanvas", 8_245_590),
        ("spraycan_jan", 9_361_827), ("moinmoin", 10_472_063), ("fischmarkt", 11_586_204), ("pixelpier", 12_693_358),
        ("nightferry", 13_704_915), ("wandmaler", 14_819_446), ("deichblick", 15_927_681),
    ]

    /// The most hits a query has: `maxTotalHits` unless raised.
    package let hitCap: Int
    private let hitCounts: [String: Int]
    private let revisedHits: Set<Int>
    private let images: SampleImages

    /// `hitCounts` overrides `totalHits` per query; keys are normalised and values clamped to `0...hitCap`.
    /// Hits whose 1-based number is in `revisedHits` carry other tags, as after an edit.
    package init(
        hitCounts: [String: Int] = SampleAPIConfiguration.demoHitCounts, hitCap: Int = maxTotalHits,
        revisedHits: Set<Int> = [], images: SampleImages = .bundled
    ) {
        let hitCap = max(hitCap, 1)
        var normalised: [String: Int] = [:]
        for (query, count) in hitCounts {
            normalised[Self.normalize(query)] = min(max(count, 0), hitCap)
        }
        self.hitCap = hitCap
        self.hitCounts = normalised
        self.revisedHits = revisedHits
        self.images = images
    }

    /// Lowercases `query`, collapses runs of whitespace into one space and trims it.
    package static func normalize(_ query: String) -> String {
        query.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// FNV-1a (64 bit) over the UTF-8 bytes of `text`: stable across runs, unlike `hashValue`.
    package static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// `totalHits` for `query`: the configured override, 16–55 for a `graffiti` query, else the cap (500).
    package func totalHits(for query: String) -> Int {
        let query = Self.normalize(query)
        if let count = hitCounts[query] {
            return count
        }
        if Self.isGraffiti(query) {
            return min(16 + Int(Self.stableHash(query) % 40), hitCap)
        }
        return hitCap
    }

    /// `total` for `query`: larger than `totalHits` only when the latter is capped.
    package func total(for query: String) -> Int {
        let hits = totalHits(for: query)
        guard hits == hitCap else { return hits }
        return hits + Int(Self.stableHash(Self.normalize(query)) % 5000)
    }

    /// The last page that Pixabay would accept for `query` at `perPage` results a page (at least 1).
    package func lastPage(for query: String, perPage: Int) -> Int {
        max(1, (totalHits(for: query) + perPage - 1) / perPage)
    }

    /// Page `page` (1-based) of `perPage` hits; a page past the end has no hits.
    ///
    /// The result list starts at hit `firstHit` of the catalogue (0 unless results move on by day), so the list of
    /// a later day has the hits of the day before from position `firstHit` on, and new hits at its end.
    package func search(
        query: String, page: Int, perPage: Int, baseURL: String, firstHit: Int = 0
    ) -> PixabaySearchResult {
        let totalHits = totalHits(for: query)
        let start = min(max(page - 1, 0) * perPage, totalHits)
        let end = min(start + perPage, totalHits)
        let firstHit = max(firstHit, 0)
        return PixabaySearchResult(
            total: total(for: query),
            totalHits: totalHits,
            hits: (start..<end).map { hit(at: firstHit + $0, query: query, baseURL: baseURL) }
        )
    }

    /// Hit `index` (0-based over the whole result list) of `query`, whose URLs start with `baseURL`.
    package func hit(at index: Int, query: String, baseURL: String) -> PixabayHit {
        precondition(index >= 0, "hit index must not be negative")
        let query = Self.normalize(query)
        if Self.isGraffiti(query) {
            let base = Self.baseTerm(ofGraffitiQuery: query)
            if !base.isEmpty, index % 5 == 4 {
                return hit(at: index, query: base, baseURL: baseURL)
            }
        }
        return makeHit(at: index, query: query, baseURL: baseURL)
    }

    /// Whether `query` contains the word `graffiti`.
    package static func isGraffiti(_ query: String) -> Bool {
        normalize(query).split(separator: " ").contains("graffiti")
    }

    /// `query` without the word `graffiti`, normalised (`"hamburg graffiti"` → `"hamburg"`).
    package static func baseTerm(ofGraffitiQuery query: String) -> String {
        normalize(query).split(separator: " ").filter { $0 != "graffiti" }.joined(separator: " ")
    }

    private func makeHit(at index: Int, query: String, baseURL: String) -> PixabayHit {
        let hash = Self.stableHash(query)
        let theme = Self.isGraffiti(query) ? "graffiti" : "city"
        let pictureCount = UInt64(max(images.pictureCount(theme: theme), 1))
        let number = Int((hash % pictureCount + UInt64(index * 7) % pictureCount) % pictureCount) + 1
        let id = 1_000_000 + Int(hash % 8000) * 1000 + index
        let stem = "\(id)-\(theme)\(number < 10 ? "0" : "")\(number)"
        var random = SplitMix64(seed: hash ^ (UInt64(index) &* 0x9e37_79b9_7f4a_7c15))

        let preview = images.image(theme: theme, number: number, size: 150)
        let webformat = images.image(theme: theme, number: number, size: 640)
        let large = images.image(theme: theme, number: number, size: 1280)
        let imageWidth = 3 * (large?.width ?? 0)
        let imageHeight = 3 * (large?.height ?? 0)

        var tags = Self.tags(query: query, theme: theme, index: index, random: &random)
        if revisedHits.contains(index + 1) {
            tags[tags.count - 1] = "revised"
        }
        let views = 800 + random.next(below: 250_000)
        let downloads = views * (15 + random.next(below: 50)) / 100
        let likes = downloads / (8 + random.next(below: 20))
        let collections = likes * (20 + random.next(below: 130)) / 100
        let comments = likes / (5 + random.next(below: 20))
        let imageSize = imageWidth * imageHeight * (18 + random.next(below: 30)) / 100
        let user = Self.users[random.next(below: Self.users.count)]

        return PixabayHit(
            id: id,
            pageURL: "\(baseURL)/photos/\(Self.slug(tags.first ?? ""))-\(id)/",
            type: "photo",
            tags: tags.joined(separator: ", "),
            previewURL: "\(baseURL)/photo/\(stem)_150.jpg",
            previewWidth: preview?.width ?? 0,
            previewHeight: preview?.height ?? 0,
            webformatURL: "\(baseURL)/get/\(stem)_640.jpg",
            webformatWidth: webformat?.width ?? 0,
            webformatHeight: webformat?.height ?? 0,
            largeImageURL: "\(baseURL)/get/\(stem)_1280.jpg",
            imageWidth: imageWidth,
            imageHeight: imageHeight,
            imageSize: imageSize,
            views: views,
            downloads: downloads,
            collections: collections,
            likes: likes,
            comments: comments,
            userID: user.id,
            user: user.name,
            userImageURL: "\(baseURL)/photo/u\(user.id)-city01_150.jpg",
            userURL: "\(baseURL)/users/\(user.name)-\(user.id)/",
            noAiTraining: false,
            isAiGenerated: Self.isAiGenerated(index: index, queryHash: hash),
            isGRated: false,
            isLowQuality: 0
        )
    }

    /// Whether hit `index` of the query whose ``stableHash(_:)`` is `queryHash` was made by an AI: one in every seven
    /// positions, starting at a position the query picks. Uses no randomness, so no other field depends on it.
    private static func isAiGenerated(index: Int, queryHash: UInt64) -> Bool {
        (Int(queryHash % 7) + index) % 7 == 0
    }

    /// Three distinct tags: the query's first word (if any), then words from the theme's list.
    private static func tags(query: String, theme: String, index: Int, random: inout SplitMix64) -> [String] {
        let words = theme == "graffiti" ? graffitiWords : cityWords
        var tags: [String] = []
        if let first = query.split(separator: " ").first?.filter({ $0 != "," }), !first.isEmpty {
            tags.append(first)
        }
        var position = (index * 3 + random.next(below: words.count)) % words.count
        while tags.count < 3 {
            if !tags.contains(words[position]) {
                tags.append(words[position])
            }
            position = (position + 5) % words.count
        }
        return tags
    }

    /// ASCII, hyphen-separated form of `text` for use in a URL path (`"straße kunst"` → `"strasse-kunst"`).
    static func slug(_ text: String) -> String {
        var slug = ""
        let decomposed = text.replacingOccurrences(of: "ß", with: "ss").decomposedStringWithCanonicalMapping
        for scalar in decomposed.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if scalar.properties.generalCategory != .nonspacingMark, !slug.isEmpty, !slug.hasSuffix("-") {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") {
            slug.removeLast()
        }
        return slug.isEmpty ? "photo" : slug
    }
}

/// A small deterministic pseudo-random sequence (SplitMix64) for per-hit numbers.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var value = state
        value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
        return value ^ (value >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
