import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineStore

/// The public photo feed: the source without a key, its answer and its quirks.
extension FlickrSource {
    func feedRequest() -> FetchRequest {
        var components = URLComponents(string: endpoint + "feeds/photos_public.gne") ?? URLComponents()
        var items = [URLQueryItem(name: "format", value: "json"), URLQueryItem(name: "nojsoncallback", value: "1")]
        if let term {
            let tags = term.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: ",")
            items += [URLQueryItem(name: "tags", value: tags), URLQueryItem(name: "tagmode", value: "all")]
        }
        components.setStrictQuery(items)
        return FetchRequest(url: components.string ?? endpoint, maximumBodyBytes: 4 << 20)
    }

    func collectFeed(using api: any APIResponseLoading) async throws -> SourceResult {
        let license = feedLicense ?? .unknown
        try licenses.check(fixed: license, source: "Flickr's public feed")
        let (decoded, fetchedAt) = try await api.load(feedRequest()) { response in
            guard (200..<300).contains(response.status) else {
                throw SourceError.unavailable(source: "Flickr", status: response.status, message: response.bodyText)
            }
            return (try Self.decodeFeed(response.body, license: license), response.fetchedAt)
        }
        let items = Array(decoded.items.prefix(max(0, itemCount)))
        return SourceResult(
            title: term ?? "Latest public photos on Flickr", source: Self.source, variants: Self.variants(term: term),
            items: items, fetchedAt: fetchedAt, warnings: decoded.warnings, skipped: decoded.warnings.count)
    }

    /// The public feed as it is sent.
    struct FeedAnswer: Decodable {
        var items: [Tolerant<FeedEntry>]
    }

    /// One entry of the public feed, every field read loosely.
    struct FeedEntry: Decodable {
        var title, link, description, author, tags: LooseString?
        var media: Tolerant<Media>?

        /// The entry's small rendition.
        struct Media: Decodable {
            var m: LooseString?
        }
    }

    /// Decodes the public feed, mending its habit of escaping single quotes as `\'`, which JSON does not allow.
    static func decodeFeed(_ body: [UInt8], license: License = .unknown) throws
        -> (items: [SourceItem], warnings: [String])
    {
        let answer: FeedAnswer
        do {
            answer = try APIAnswer.decode(FeedAnswer.self, from: mendQuoteEscapes(body))
        } catch {
            throw SourceError.unreadable(error, source: "Flickr", document: "the public feed")
        }
        var items: [SourceItem] = []
        var warnings: [String] = []
        for (index, element) in answer.items.enumerated() {
            // The larger sizes are the small one's with the `_m.` of its file's name replaced, never its host's or
            // query's.
            var why = ""
            var sized: (tile: WebURL, full: WebURL)?
            if let entry = element.value, let small = entry.media?.value?.m?.value {
                switch RemoteURLPolicy.checked(small) {
                case .success(let url):
                    sized = url.replacingOnceInFileName("_m.", with: "_z.").flatMap { tile in
                        url.replacingOnceInFileName("_m.", with: "_b.").map { (tile, $0) }
                    }
                case .failure(let refusal): why = " (it was refused: \(refusal))"
                }
            }
            guard let entry = element.value, let sized else {
                warnings.append("Skipped Flickr feed item \(index + 1): it has no usable “media.m” image URL\(why).")
                continue
            }
            let (width, height) = feedImageSize(entry.description?.value ?? "")
            let scale = { (edge: Int) -> (Int?, Int?) in
                guard let width, let height else { return (nil, nil) }
                let factor = Double(edge) / Double(max(width, height))
                return (Int((Double(width) * factor).rounded()), Int((Double(height) * factor).rounded()))
            }
            let (tileWidth, tileHeight) = scale(640)
            let (fullWidth, fullHeight) = scale(1024)
            let tile = RemoteImage(url: sized.tile.text, width: tileWidth, height: tileHeight)
            let full = RemoteImage(url: sized.full.text, width: fullWidth, height: fullHeight)
            let link = RemoteURLPolicy.accepted(entry.link?.value)
            let id =
                link.flatMap { URL(string: $0)?.pathComponents.last(where: { $0.allSatisfy(\.isNumber) }) }
                ?? String(index + 1)
            let credit = Credit(name: authorName(entry.author?.value), url: link)
            items.append(
                SourceItem(
                    sourceID: id,
                    entries: [
                        .found(
                            caption: entry.title?.value ?? "", credit: credit, tile: tile, full: full,
                            license: license, tags: PictureTags.flickr(entry.tags?.value))
                    ]))
        }
        return (items, warnings)
    }

    /// `\'` outside any other escape becomes `'`.
    static func mendQuoteEscapes(_ body: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(body.count)
        var index = 0
        while index < body.count {
            if body[index] == UInt8(ascii: "\\"), index + 1 < body.count {
                if body[index + 1] == UInt8(ascii: "'") {
                    output.append(UInt8(ascii: "'"))
                } else {
                    output.append(body[index])
                    output.append(body[index + 1])
                }
                index += 2
            } else {
                output.append(body[index])
                index += 1
            }
        }
        return output
    }

    /// The name in a feed entry's `author`, in each form the feed sends: `nobody@flickr.com ("name")`, the older
    /// `nobody@flickr.com (name)` (group pools still send it), and a bare name; "a Flickr member" when there is none.
    static func authorName(_ author: String?) -> String {
        let fallback = "a Flickr member"
        guard let author = author?.trimmingCharacters(in: .whitespaces), !author.isEmpty else { return fallback }
        var name: Substring
        if let open = author.firstIndex(of: "("), author.hasSuffix(")"), open < author.index(before: author.endIndex) {
            name = author[author.index(after: open)..<author.index(before: author.endIndex)]
            if name.count >= 2, name.first == "\"", name.last == "\"" { name = name.dropFirst().dropLast() }
        } else if !author.contains("@") {
            name = Substring(author)
        } else {
            return fallback
        }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? fallback : trimmed
    }

    /// The width and height attributes of the image in the feed's description HTML.
    static func feedImageSize(_ html: String) -> (Int?, Int?) {
        func attribute(_ name: String) -> Int? {
            guard let range = html.range(of: "\(name)=\"") else { return nil }
            let digits = html[range.upperBound...].prefix { $0.isNumber }
            return Int(digits).flatMap { $0 > 0 && $0 <= 100_000 ? $0 : nil }
        }
        return (attribute("width"), attribute("height"))
    }
}
