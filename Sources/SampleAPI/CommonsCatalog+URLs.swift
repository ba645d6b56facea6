import Foundation

/// Where a Commons file and its renditions are served, as MediaWiki lays out its uploads, and the `imageinfo` that
/// points at them.
extension CommonsCatalog {
    /// The widest rendition served; MediaWiki renders a drawing at any width, the sample API up to this one.
    package static let widestRendition = 4_000
    /// The longest edge of the sample picture a rendition up to this width serves.
    package static let smallRenditionEdge = 640
    /// The longest edge of the sample picture a wider rendition, and a photo's original, serve.
    package static let largeRenditionEdge = 1280
    /// Where file pages live: `descriptionurl` is this followed by the name.
    package static let descriptionPageBase = "https://commons.wikimedia.org/wiki/File:"

    /// `{a}/{ab}`: the first one and two hex digits of a digest of `name` (with underscores), laid out as MediaWiki
    /// files an upload under the MD5 of its name (the sample's digest is its own stable hash).
    package static func hashPath(of name: String) -> String {
        let hex = String(PixabayCatalog.stableHash(name), radix: 16)
        let digest = String(repeating: "0", count: 16 - hex.count) + hex
        return "\(digest.prefix(1))/\(digest.prefix(2))"
    }

    /// `name` percent-encoded as PHP's `rawurlencode` does (all but letters, digits and `-_.~`), as MediaWiki
    /// writes upload URLs.
    package static func rawURLEncoded(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: rawAllowed) ?? name
    }

    /// `name` percent-encoded as MediaWiki's `wfUrlencode` does (`rawurlencode`, then `;@$!*(),/~:` written as
    /// themselves), as it writes page URLs.
    package static func wikiURLEncoded(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: wikiAllowed) ?? name
    }

    private static let rawAllowed = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~")
    private static let wikiAllowed = rawAllowed.union(CharacterSet(charactersIn: ";@$!*(),/~:"))

    /// `{baseURL}/upload/{a}/{ab}/{Name}`.
    package static func originalURL(of name: String, baseURL: String) -> String {
        "\(baseURL)/upload/\(hashPath(of: name))/\(rawURLEncoded(name))"
    }

    /// `{baseURL}/upload/thumb/{a}/{ab}/{Name}/{thumbnailName}`.
    package static func thumbnailURL(of name: String, thumbnailName: String, baseURL: String) -> String {
        "\(baseURL)/upload/thumb/\(hashPath(of: name))/\(rawURLEncoded(name))/\(rawURLEncoded(thumbnailName))"
    }

    /// The rendition MediaWiki hands out for `file` at `width`, or nil when it makes none (a sound, or the file
    /// at ``noThumbnailIndex``). A photo is never enlarged: at its own width or more, the original stands in. A
    /// drawing is rendered at the width asked for (up to ``widestRendition``); a document's page or a film's frame
    /// at most at the file's width.
    package func rendition(of file: CommonsFile, width asked: Int, baseURL: String) -> CommonsRendition? {
        guard file.hasThumbnail, asked > 0 else { return nil }
        if file.kind == .jpeg && asked >= file.width {
            return CommonsRendition(
                url: Self.originalURL(of: file.name, baseURL: baseURL), width: file.width, height: file.height)
        }
        let width = file.kind == .svg ? min(asked, Self.widestRendition) : min(asked, file.width)
        guard let thumbnailName = file.kind.thumbnailName(of: file.name, width: width) else { return nil }
        let height = max(1, Int((Double(file.height) * Double(width) / Double(max(file.width, 1))).rounded()))
        return CommonsRendition(
            url: Self.thumbnailURL(of: file.name, thumbnailName: thumbnailName, baseURL: baseURL), width: width,
            height: height)
    }

    /// `responsiveUrls`: the renditions at 1.5 and 2 times the width of `base`, each only when it is another URL
    /// than `base`'s (so none for an original standing in), as MediaWiki's `processResponsiveImages` reports them.
    func responsiveURLs(of file: CommonsFile, base: CommonsRendition, baseURL: String) -> [(String, OrderedJSON)] {
        let scaled = [("1.5", Int((Double(base.width) * 1.5).rounded())), ("2", base.width * 2)]
        return scaled.compactMap { density, width in
            guard let larger = rendition(of: file, width: width, baseURL: baseURL), larger.url != base.url else {
                return nil
            }
            return (density, .string(larger.url))
        }
    }

    /// The file's `imageinfo` element as MediaWiki writes it, with the members `options` asks for in MediaWiki's
    /// order: `timestamp`, `user`, `size`, `width`, `height`, `pagecount`, `duration`, `thumburl`, `thumbwidth`,
    /// `thumbheight`, `responsiveUrls`, `url`, `descriptionurl`, `descriptionshorturl`, `extmetadata`, `mime`.
    func imageInfo(of file: CommonsFile, options: CommonsImageInfoOptions, baseURL: String) -> OrderedJSON {
        let asked = options.properties
        var members: [(String, OrderedJSON)] = []
        if asked.contains("timestamp") { members.append(("timestamp", .string(file.timestamp))) }
        if asked.contains("user") { members.append(("user", .string(file.user))) }
        if asked.contains("size") || asked.contains("dimensions") {
            members += [("size", .int(file.size)), ("width", .int(file.width)), ("height", .int(file.height))]
            if let pageCount = file.pageCount { members.append(("pagecount", .int(pageCount))) }
            if let duration = file.duration { members.append(("duration", .double(duration))) }
        }
        if asked.contains("url") {
            if let width = options.thumbnailWidth, let thumbnail = rendition(of: file, width: width, baseURL: baseURL) {
                members += [
                    ("thumburl", .string(thumbnail.url)), ("thumbwidth", .int(thumbnail.width)),
                    ("thumbheight", .int(thumbnail.height)),
                ]
                let responsive = responsiveURLs(of: file, base: thumbnail, baseURL: baseURL)
                if !responsive.isEmpty { members.append(("responsiveUrls", .object(responsive))) }
            }
            members += [
                ("url", .string(Self.originalURL(of: file.name, baseURL: baseURL))),
                ("descriptionurl", .string(Self.descriptionPageBase + Self.wikiURLEncoded(file.name))),
                ("descriptionshorturl", .string("https://commons.wikimedia.org/w/index.php?curid=\(file.pageID)")),
            ]
        }
        if asked.contains("extmetadata") {
            let kept = file.metadata.filter { options.metadataFilter?.contains($0.name) ?? true }
            members.append(("extmetadata", .object(kept.map { ($0.name, $0.json) })))
        }
        if asked.contains("mime") { members.append(("mime", .string(file.kind.mime))) }
        return .object(members)
    }

    /// The file's element of `query.pages`: `pageid`, `ns`, `title`, `index`, `imagerepository`, `imageinfo`.
    func page(of file: CommonsFile, options: CommonsImageInfoOptions, baseURL: String) -> OrderedJSON {
        .object([
            ("pageid", .int(file.pageID)), ("ns", .int(6)), ("title", .string(file.title)), ("index", .int(file.index)),
            ("imagerepository", .string("local")),
            ("imageinfo", .array([imageInfo(of: file, options: options, baseURL: baseURL)])),
        ])
    }

    /// The sample picture a served path shows: `folders` (`{a}/{ab}`) must be those of `name`, which must be a name
    /// this catalogue made; the original of a photo and any rendition from 1 to ``widestRendition`` pixels wide
    /// (`thumbnailName` as ``CommonsMediaKind/thumbnailName(of:width:)`` writes it) are served, a rendition up to
    /// ``smallRenditionEdge`` by that rendition of the picture, a wider one and an original by the
    /// ``largeRenditionEdge`` one. Nil for anything else: the originals of drawings, documents, sounds and films
    /// are not kept.
    package func image(folders: (String, String), name: String, thumbnailName: String?) -> SampleImage? {
        guard "\(folders.0)/\(folders.1)" == Self.hashPath(of: name), let picture = Self.picture(forName: name) else {
            return nil
        }
        let edge: Int
        if let thumbnailName {
            guard let width = picture.kind.width(inThumbnailName: thumbnailName, of: name),
                (1...Self.widestRendition).contains(width)
            else { return nil }
            edge = width <= Self.smallRenditionEdge ? Self.smallRenditionEdge : Self.largeRenditionEdge
        } else {
            guard picture.kind == .jpeg else { return nil }
            edge = Self.largeRenditionEdge
        }
        return images.image(theme: picture.theme, number: picture.number, size: edge)
    }
}

/// A rendition of a Commons file, or its original standing in for one: `thumburl`, `thumbwidth`, `thumbheight`.
package struct CommonsRendition: Sendable, Equatable {
    /// Where it is served.
    package var url: String
    /// Its width in pixels.
    package var width: Int
    /// Its height in pixels.
    package var height: Int
}
