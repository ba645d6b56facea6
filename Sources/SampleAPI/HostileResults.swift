import Foundation

/// Any JSON value, for responses whose shape `Codable` models cannot express (numbers as hits, ids as strings).
indirect enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Int)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// `value` as its JSON tree.
    static func from(_ value: some Encodable) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }
}

/// The `hostileResults` fault: a real search page in which every other hit is replaced by a hostile one.
///
/// Hits at even positions (0, 2, 4, …) stay exactly as the catalogue has them; the hostile variants fill the odd
/// positions in the order of ``variants``, so a page of 20 carries each of them once. `totalHits` becomes a string.
package enum HostileResults {
    /// The hostile variants, in the order they fill odd positions.
    enum Variant: CaseIterable {
        /// `tags` with NUL, BEL, an ANSI colour escape, a script tag, quotes and a right-to-left override.
        case controlCharacters
        /// `tags` of exactly 100,000 characters, the first 2,000 of them `"`, which JSON escapes: more than the model
        /// keeps of a caption.
        case hugeTags
        /// `webformatURL` `javascript:alert(1)`, `largeImageURL` `file:///etc/passwd`.
        case scriptAndFileURLs
        /// Every image URL a `data:` URL.
        case dataURLs
        /// Every image URL an `ftp:` URL.
        case ftpURLs
        /// The image URLs point at this server's `/redirect`, which redirects to `file:///etc/passwd`.
        case redirectToFile
        /// Negative, zero and huge sizes, and `id` as a string.
        case oddNumbers
        /// `user` containing HTML and `pageURL` `javascript:alert(2)`.
        case htmlUser
        /// A hit that is the number 42 instead of an object.
        case notAnObject
        /// A hit without `id`.
        case missingID
    }

    static let controlTags =
        "port\u{0}, bell\u{7}, \u{1B}[31mred\u{1B}[0m, <script>alert(1)</script>, \"quoted\" 'tag', "
        + "\u{202E}gpj.exe"
    static let hugeTagsLength = 100_000

    /// The page `result` with hostile hits mixed in, encoded like the normal search responses.
    static func page(from result: PixabaySearchResult, baseURL: String) throws -> Data {
        var hits: [JSONValue] = []
        for (position, hit) in result.hits.enumerated() {
            let normal = try JSONValue.from(hit)
            let variantIndex = position / 2
            if position % 2 == 1, variantIndex < Variant.allCases.count {
                hits.append(hostile(Variant.allCases[variantIndex], basedOn: normal, baseURL: baseURL))
            } else {
                hits.append(normal)
            }
        }
        let page = JSONValue.object([
            "total": .number(result.total),
            "totalHits": .string(String(result.totalHits)),
            "hits": .array(hits),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(page)
    }

    private static func hostile(_ variant: Variant, basedOn normal: JSONValue, baseURL: String) -> JSONValue {
        guard case .object(var hit) = normal else { return normal }
        let imageURLs = ["previewURL", "webformatURL", "largeImageURL"]
        switch variant {
        case .controlCharacters:
            hit["tags"] = .string(controlTags)
        case .hugeTags:
            let pattern = "very long tag, "
            let repeated = String(repeating: pattern, count: hugeTagsLength / pattern.count + 1)
            hit["tags"] = .string(String((String(repeating: "\"", count: 2_000) + repeated).prefix(hugeTagsLength)))
        case .scriptAndFileURLs:
            hit["webformatURL"] = .string("javascript:alert(1)")
            hit["largeImageURL"] = .string("file:///etc/passwd")
        case .dataURLs:
            for key in imageURLs {
                hit[key] = .string("data:image/png;base64,AAAA")
            }
        case .ftpURLs:
            for key in imageURLs {
                hit[key] = .string("ftp://127.0.0.1/x.jpg")
            }
        case .redirectToFile:
            for key in imageURLs {
                hit[key] = .string("\(baseURL)/redirect?to=file%3A%2F%2F%2Fetc%2Fpasswd")
            }
        case .oddNumbers:
            if case .number(let id)? = hit["id"] {
                hit["id"] = .string(String(id))
            }
            hit["previewWidth"] = .number(-150)
            hit["previewHeight"] = .number(0)
            hit["webformatWidth"] = .number(Int.max)
            hit["webformatHeight"] = .number(-1)
            hit["imageWidth"] = .number(0)
            hit["imageHeight"] = .number(4_294_967_296)
        case .htmlUser:
            hit["user"] = .string(#"<img src=x onerror="alert(3)"><b>evil</b> & co"#)
            hit["pageURL"] = .string("javascript:alert(2)")
        case .notAnObject:
            return .number(42)
        case .missingID:
            hit["id"] = nil
        }
        return .object(hit)
    }

    /// How many distinct tags ``manyTags(from:)`` gives each hit.
    package static let tagsPerHit = 20

    /// The page `result` with every hit's `tags` replaced by ``tagsPerHit`` tags of its own (made from its `id`),
    /// each sent in one of four spellings: twice in other cases ("Tag 7 0, TAG 7 0"), twice in other Unicode
    /// normalisations ("Café" composed and decomposed), in markup ("<b>7 2</b>") and behind a right-to-left override.
    /// Once normalised, the spellings of one tag are one tag, and no two hits share one.
    static func manyTags(from result: PixabaySearchResult) throws -> Data {
        var page = try JSONValue.from(result)
        guard case .object(var body) = page, case .array(let hits)? = body["hits"] else { return Data() }
        body["hits"] = .array(
            hits.map { hit in
                guard case .object(var fields) = hit, case .number(let id)? = fields["id"] else { return hit }
                let raw = (0..<tagsPerHit).flatMap { index -> [String] in
                    switch index % 4 {
                    case 0: ["Tag \(id) \(index)", "TAG \(id) \(index)"]
                    case 1: ["Caf\u{E9} \(id) \(index)", "Cafe\u{301} \(id) \(index)"]
                    case 2: ["<b>\(id) \(index)</b>"]
                    default: ["\u{202E}gpj \(id) \(index)"]
                    }
                }
                fields["tags"] = .string(raw.joined(separator: ", "))
                return .object(fields)
            })
        page = .object(body)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(page)
    }
}
