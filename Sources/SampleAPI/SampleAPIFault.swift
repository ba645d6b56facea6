import Foundation

/// One rule of the sample API's fault-injection mode: which requests misbehave, how many of them, and how.
///
/// The server checks its rules in order for every request; the first rule that matches the request and has budget
/// left applies, and its counter goes up by one. Requests that no rule claims get the normal response.
///
/// Rules can be written by hand (`vitrine sample-api --fault …`) in this grammar, parsed by ``parse(_:)``:
///
///     spec    = target [ ",q=" text ] ":" kind [ ":" count ]
///     target  = "api"                          ; Pixabay search, /api and /api/
///             | "flickr"                       ; Flickr REST, /services/rest and /services/rest/
///             | "feed"                         ; Flickr public feed, /services/feeds/photos_public.gne
///             | "thumbnails"                   ; media-coverage list, /api/v2/content/misc/media-coverages
///             | "picsum"                       ; Lorem Picsum's list, info and random routes
///             | "unsplash"                     ; Unsplash, /unsplash/
///             | "openverse"                    ; Openverse's image search, /v1/images and /v1/images/
///             | "commons"                      ; Wikimedia Commons' file search, /w/api.php
///             | "albums"                       ; JSONPlaceholder lists: /users, /users/N/albums, /albums, …
///             | "images"                       ; every image: /photo/, /get/, /flickr/, /cimg/, /unsplash-images/,
///                                              ; /openverse/, /v1/images/{id}/thumb/, /upload/, Lorem Picsum's
///                                              ; /id/{id}/{w}/{h}, /seed/{seed}/{w}/{h} and /seed/{seed}/{size}
///             | "all"                          ; every request
///     text    = percent-encoded text the request's search term must contain (ignoring case): the decoded `q`,
///               `text`, `tags` or `gsrsearch` parameter
///     kind    = "delay=" milliseconds          ; the normal response, late
///             | code                           ; 200…599 other than 429: that status, plain-text body
///             | "429"                          ; rate limited, without Retry-After
///             | "retry-after=" seconds         ; rate limited, `Retry-After: 2`
///             | "retry-after-date=" seconds    ; rate limited, `Retry-After: <IMF-fixdate now + seconds>`
///             | "truncate" | "reset"           ; half the body, then a close or a TCP reset
///             | "wrong-type"                   ; HTML sent as image/jpeg
///             | "oversized=" bytes [ "k" | "m" | "g" ]  ; a padded JPEG of that size (binary multiples)
///             | "stall=" seconds               ; headers and a few bytes, then silence, then a close
///             | "trickle=" bytes-per-second    ; the normal body, then zeros, chunked, that slowly, never ending
///             | "truncated-image=" bytes       ; the image's first bytes, whole, with a matching Content-Length
///             | "malformed-json" | "hostile"    ; broken JSON; a Pixabay page with hostile hits mixed in
///             | "huge-pixels"                  ; a small PNG whose header declares 100,000 × 100,000 pixels
///             | "turned-image"                 ; the image, a JPEG, with EXIF orientation 6 (shown turned a quarter)
///     count   = a positive number (only the first `count` matching requests) | "*" (every one, the default)
///
/// For example `api:429:3`, `images:500`, `all:delay=50`, `api,q=graffiti:hostile`, `api:retry-after-date=2:1`,
/// `flickr,q=hamburg:truncate:1`, `feed:503`, `thumbnails:malformed-json`, `openverse,q=hafen:retry-after=30` and
/// `commons,q=hafen:503:1`.
package struct SampleAPIFault: Sendable, Hashable, CustomStringConvertible {
    /// The requests a rule can apply to.
    package enum Target: String, Sendable, Hashable, CaseIterable {
        /// The Pixabay search endpoint, `/api` and `/api/`.
        case api
        /// The Flickr REST endpoint, `/services/rest` and `/services/rest/`.
        case flickr
        /// The Flickr public feed, `/services/feeds/photos_public.gne`.
        case feed
        /// The media-coverage list, `/api/v2/content/misc/media-coverages`.
        case thumbnails
        /// Lorem Picsum's `/v2/list`, `/id/{id}/info`, `/seed/{seed}/info` and random `/{w}/{h}`.
        case picsum
        /// Unsplash's routes under `/unsplash/`.
        case unsplash
        /// Openverse's image search, `/v1/images` and `/v1/images/`.
        case openverse
        /// Wikimedia Commons' file search, `/w/api.php`.
        case commons
        /// The JSONPlaceholder lists: `/users`, `/users/N/albums`, `/albums`, `/albums/N/photos`, `/photos`.
        case albums
        /// Everything under `/photo/`, `/get/`, `/flickr/`, `/cimg/`, `/unsplash-images/`, `/openverse/` and
        /// `/upload/` (Commons' files and renditions), Openverse's thumbnails (`/v1/images/{id}/thumb/`), and Lorem
        /// Picsum's images.
        case images
        /// Every request, including pages, redirects and unknown paths.
        case all
    }

    /// How a rate-limited response says when to try again.
    package enum RetryAfter: Sendable, Hashable {
        /// `Retry-After: n`.
        case seconds(Int)
        /// `Retry-After` as an HTTP date (RFC 9110 IMF-fixdate, GMT) `n` seconds after the response.
        case date(secondsFromNow: Int)
    }

    /// What happens to a request a rule claims.
    package enum Kind: Sendable, Hashable {
        /// The normal response, after this long; other connections are served meanwhile.
        case delay(milliseconds: Int)
        /// This status with a `text/plain` body (use ``SampleAPIFault/Kind/rateLimited(retryAfter:)`` for 429).
        case status(Int, body: String)
        /// HTTP 429 `API rate limit exceeded` with spent `X-RateLimit-*` headers and an optional `Retry-After`.
        case rateLimited(retryAfter: RetryAfter?)
        /// The normal headers, with the full `Content-Length`, but only half the body before the connection closes.
        case truncatedBody
        /// Like ``truncatedBody``, but the connection is torn down with a TCP reset (`SO_LINGER` 0).
        case resetMidBody
        /// `200 OK` with `Content-Type: image/jpeg` and an HTML page as the body.
        case wrongContentType
        /// `200 OK`, `image/jpeg`, exactly this many bytes: a JPEG/JFIF signature padded with zeros, streamed.
        case oversized(bytes: Int)
        /// The normal status line and headers and a few body bytes, then nothing for this long, then a close.
        case stall(seconds: Int)
        /// The normal status line and headers, then a chunked body that never ends (the normal body, then zeros) at
        /// this many bytes a second: fast enough never to stall, too slow and long ever to finish.
        case trickle(bytesPerSecond: Int)
        /// The first this many bytes of the normal body as the whole body, with a `Content-Length` that matches:
        /// an image cut short by its server, which no transfer check can tell from a whole one.
        case truncatedImage(bytes: Int)
        /// `200 OK`, `application/json`, and the normal JSON cut off in the middle.
        case malformedJSON
        /// The normal search page with hostile hits in every other slot and `totalHits` as a string.
        case hostileResults
        /// `200 OK`, `image/png`: a small, valid PNG whose header declares 100,000 × 100,000 pixels, the
        /// "decompression bomb" shape that decoders refuse.
        case hugePixels
        /// The normal image, when it is a JPEG, with EXIF data saying orientation 6 ("turn 90° clockwise to show"),
        /// as a phone's camera writes it: browsers show it with width and height swapped.
        case turnedImage
        /// The normal search page with 20 tags of its own on every hit (``HostileResults/manyTags(from:)``): a
        /// Pixabay search of 500 hits gives 10,000 distinct tags, spelled in case, Unicode normalisation, markup and
        /// bidi controls that Vitrine must normalise.
        case manyTags
    }

    /// What happens to the requests this rule claims.
    package var kind: Kind
    /// Which requests the rule can claim.
    package var target: Target
    /// When set, only requests whose decoded `q`, `text`, `tags` or `gsrsearch` contains this text (ignoring case)
    /// match.
    package var queryContains: String?
    /// How many matching requests the rule claims (the first ones); nil claims every one.
    package var times: Int?

    package init(_ kind: Kind, on target: Target = .all, queryContains: String? = nil, times: Int? = nil) {
        self.kind = kind
        self.target = target
        self.queryContains = queryContains
        self.times = times
    }

    /// Whether `request` is one this rule may claim (its budget aside).
    package func matches(_ request: SampleAPIRequest) -> Bool {
        let components = request.path.split(separator: "/", omittingEmptySubsequences: true)
        let targetMatches =
            switch target {
            case .api: components.elementsEqual(["api"])
            case .flickr: components.elementsEqual(["services", "rest"])
            case .feed: components.elementsEqual(["services", "feeds", "photos_public.gne"])
            case .thumbnails: components.elementsEqual(["api", "v2", "content", "misc", "media-coverages"])
            case .picsum: Self.isPicsumAPI(components)
            case .unsplash: components.first == "unsplash"
            case .openverse: components.elementsEqual(["v1", "images"])
            case .commons: components.elementsEqual(["w", "api.php"])
            case .albums: SampleAPIRouter.isJSONPlaceholderList(components)
            case .images:
                ["photo", "get", "flickr", "cimg", "unsplash-images", "openverse", "upload"].contains(
                    components.first ?? "")
                    || (components.count == 4 && components[0] == "v1" && components[1] == "images"
                        && components[3] == "thumb")
                    || (["id", "seed"].contains(components.first ?? "") && components.count == 4)
                    || (components.first == "seed" && components.count == 3 && components[2] != "info")
            case .all: true
            }
        guard targetMatches else { return false }
        guard let queryContains, !queryContains.isEmpty else { return true }
        let needle = queryContains.lowercased()
        return ["q", "text", "tags", "gsrsearch"].contains { request.query[$0]?.lowercased().contains(needle) ?? false }
    }

    private static func isPicsumAPI(_ components: [Substring]) -> Bool {
        let numeric = { (text: Substring) in !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        return switch (components.first, components.count) {
        case ("v2", 2): components[1] == "list"
        case ("id", 3), ("seed", 3): components[2] == "info"
        case (let first?, 2): numeric(first) && numeric(components[1])
        default: false
        }
    }

    /// The rule in the ``parse(_:)`` grammar. A custom ``Kind/status(_:body:)`` body is not part of it.
    package var description: String {
        var selector = target.rawValue
        if let queryContains, !queryContains.isEmpty {
            selector += ",q=" + (queryContains.addingPercentEncoding(withAllowedCharacters: Self.plainText) ?? "")
        }
        let count = times.map { ":\($0)" } ?? ""
        return "\(selector):\(kind.specName)\(count)"
    }

    /// Parses one rule written in the grammar above.
    ///
    /// - Throws: ``SampleAPIFaultSpecError`` with a one-sentence message naming the part that is wrong.
    package static func parse(_ spec: String) throws -> SampleAPIFault {
        let parts = spec.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), !parts[0].isEmpty, !parts[1].isEmpty else {
            throw SampleAPIFaultSpecError(
                "The fault \(quoted(spec)) must look like TARGET:KIND or TARGET:KIND:COUNT, as in \"api:503:2\"."
            )
        }
        let (target, queryContains) = try parseSelector(parts[0], in: spec)
        let kind = try parseKind(parts[1], in: spec)
        let times = parts.count == 3 ? try parseCount(parts[2], in: spec) : nil
        return SampleAPIFault(kind, on: target, queryContains: queryContains, times: times)
    }

    private static let plainText = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))

    private static let targetList =
        "api, flickr, feed, thumbnails, picsum, unsplash, openverse, commons, albums, images or all"

    private static let kindList =
        "delay=MS, a status code, 429, retry-after=S, retry-after-date=S, truncate, reset, wrong-type, "
        + "oversized=BYTES, stall=S, malformed-json, hostile, huge-pixels, turned-image or many-tags"

    private static func quoted(_ text: some StringProtocol) -> String {
        "\"\(text)\""
    }

    private static func parseSelector(_ selector: Substring, in spec: String) throws -> (Target, String?) {
        let options = selector.split(separator: ",", omittingEmptySubsequences: false)
        guard let target = Target(rawValue: String(options[0]).lowercased()) else {
            throw SampleAPIFaultSpecError(
                "Unknown fault target \(quoted(options[0])) in \(quoted(spec)); expected \(targetList)."
            )
        }
        var queryContains: String?
        for option in options.dropFirst() {
            guard option.hasPrefix("q=") else {
                throw SampleAPIFaultSpecError(
                    "Unknown fault option \(quoted(option)) in \(quoted(spec)); only q=TEXT is supported."
                )
            }
            let text = option.dropFirst(2)
            guard let decoded = text.removingPercentEncoding, !decoded.isEmpty else {
                throw SampleAPIFaultSpecError(
                    "The filter \(quoted(option)) in \(quoted(spec)) needs non-empty, validly percent-encoded text."
                )
            }
            queryContains = decoded
        }
        return (target, queryContains)
    }

    private static func parseKind(_ token: Substring, in spec: String) throws -> Kind {
        let pieces = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = pieces[0].lowercased()
        let value = pieces.count > 1 ? pieces[1] : nil
        func number(_ range: ClosedRange<Int>, unit: String) throws -> Int {
            guard let value else {
                throw SampleAPIFaultSpecError(
                    "The fault kind \(quoted(name)) in \(quoted(spec)) needs a value, as in \(name)=\(range.upperBound)."
                )
            }
            guard let parsed = Int(value), range.contains(parsed) else {
                throw SampleAPIFaultSpecError(
                    "The value \(quoted(value)) of \(name) in \(quoted(spec)) must be a whole number of \(unit) "
                        + "from \(range.lowerBound) to \(range.upperBound)."
                )
            }
            return parsed
        }
        if value == nil, let code = Int(name), name.count == 3 {
            switch code {
            case 429: return .rateLimited(retryAfter: nil)
            case 200...599: return .status(code, body: Kind.standardBody(forStatus: code))
            default:
                throw SampleAPIFaultSpecError(
                    "The status \(code) in \(quoted(spec)) is outside 200 to 599, the range the sample API can send."
                )
            }
        }
        switch (name, value) {
        case ("delay", _): return .delay(milliseconds: try number(0...600_000, unit: "milliseconds"))
        case ("retry-after", _): return .rateLimited(retryAfter: .seconds(try number(0...86_400, unit: "seconds")))
        case ("retry-after-date", _):
            return .rateLimited(retryAfter: .date(secondsFromNow: try number(0...86_400, unit: "seconds")))
        case ("stall", _): return .stall(seconds: try number(1...3_600, unit: "seconds"))
        case ("trickle", _): return .trickle(bytesPerSecond: try number(1...1_000_000, unit: "bytes a second"))
        case ("truncated-image", _): return .truncatedImage(bytes: try number(0...(1 << 30), unit: "bytes"))
        case ("oversized", _): return .oversized(bytes: try parseSize(value, in: spec))
        case ("truncate", nil): return .truncatedBody
        case ("reset", nil): return .resetMidBody
        case ("wrong-type", nil): return .wrongContentType
        case ("malformed-json", nil): return .malformedJSON
        case ("hostile", nil): return .hostileResults
        case ("huge-pixels", nil): return .hugePixels
        case ("turned-image", nil): return .turnedImage
        case ("many-tags", nil): return .manyTags
        default:
            throw SampleAPIFaultSpecError(
                "Unknown fault kind \(quoted(token)) in \(quoted(spec)); expected \(kindList)."
            )
        }
    }

    private static func parseSize(_ value: Substring?, in spec: String) throws -> Int {
        let multipliers: [Character: Int] = ["k": 1 << 10, "m": 1 << 20, "g": 1 << 30]
        let maximum = 1 << 40
        guard let value else {
            throw SampleAPIFaultSpecError(
                "The fault kind \"oversized\" in \(quoted(spec)) needs a size, as in oversized=20m."
            )
        }
        let lowered = value.lowercased()
        let multiplier = lowered.last.flatMap { multipliers[$0] }
        let digits = multiplier == nil ? lowered[...] : lowered.dropLast()
        guard let count = Int(digits), count > 0,
            case (let bytes, let overflow) = count.multipliedReportingOverflow(by: multiplier ?? 1),
            !overflow, bytes <= maximum
        else {
            throw SampleAPIFaultSpecError(
                "The size \(quoted(value)) in \(quoted(spec)) must be a positive whole number of bytes up to 1 TiB, "
                    + "optionally followed by k, m or g."
            )
        }
        return bytes
    }

    private static func parseCount(_ token: Substring, in spec: String) throws -> Int? {
        if token == "*" {
            return nil
        }
        guard let count = Int(token), count > 0 else {
            throw SampleAPIFaultSpecError(
                "The count \(quoted(token)) in \(quoted(spec)) must be a positive whole number or *."
            )
        }
        return count
    }
}

extension SampleAPIFault.Kind {
    /// The plain-text body a parsed status fault sends.
    static func standardBody(forStatus code: Int) -> String {
        "[ERROR \(code)] \(HTTPReasonPhrase.phrase(for: code)) (injected by the sample API)."
    }

    /// The kind in the ``SampleAPIFault/parse(_:)`` grammar.
    var specName: String {
        switch self {
        case .delay(let milliseconds): "delay=\(milliseconds)"
        case .status(let code, _): String(code)
        case .rateLimited(nil): "429"
        case .rateLimited(.seconds(let seconds)?): "retry-after=\(seconds)"
        case .rateLimited(.date(let seconds)?): "retry-after-date=\(seconds)"
        case .truncatedBody: "truncate"
        case .resetMidBody: "reset"
        case .wrongContentType: "wrong-type"
        case .oversized(let bytes): "oversized=\(bytes)"
        case .stall(let seconds): "stall=\(seconds)"
        case .trickle(let rate): "trickle=\(rate)"
        case .truncatedImage(let bytes): "truncated-image=\(bytes)"
        case .malformedJSON: "malformed-json"
        case .hostileResults: "hostile"
        case .hugePixels: "huge-pixels"
        case .turnedImage: "turned-image"
        case .manyTags: "many-tags"
        }
    }
}

/// Why a fault spec could not be parsed; ``message`` is one sentence naming the offending part.
package struct SampleAPIFaultSpecError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The one-sentence explanation.
    package let message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }

    package var errorDescription: String? { message }
}
