import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineStore

extension CommonsSource {
    /// An answer of the Action API: a batch of files and how to continue, or an error.
    struct QueryAnswer: Decodable {
        var query: Tolerant<QueryPart>?
        var error: Tolerant<ErrorPart>?
        /// The members to send back for the next batch; every value is text.
        var `continue`: Tolerant<[String: LooseString]>?
    }

    /// The `query` member: the files, as a list (`formatversion=2`) or keyed by page id (the older format).
    struct QueryPart: Decodable {
        var pages: [Tolerant<PageFields>]

        enum CodingKeys: String, CodingKey { case pages }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let list = try? container.decode([Tolerant<PageFields>].self, forKey: .pages) {
                pages = list
            } else if let keyed = try? container.decode([String: Tolerant<PageFields>].self, forKey: .pages) {
                pages = keyed.sorted { (Int($0.key) ?? .max, $0.key) < (Int($1.key) ?? .max, $1.key) }.map(\.value)
            } else {
                pages = []
            }
        }
    }

    /// An error the API reports with HTTP 200.
    struct ErrorPart: Decodable {
        var code, info: LooseString?
    }

    /// One file page of the search.
    struct PageFields: Decodable {
        var pageid, index: LooseInt?
        var title: LooseString?
        var imageinfo: Tolerant<[Tolerant<ImageInfo>]>?
    }

    /// The file's `imageinfo`: its URLs, size, type and metadata.
    struct ImageInfo: Decodable {
        var url, descriptionurl, thumburl, mime: LooseString?
        var width, height, thumbwidth, thumbheight: LooseInt?
        var extmetadata: Tolerant<[String: Tolerant<MetadataField>]>?
    }

    /// One metadata field: its value is text (HTML for some fields), a number, or a map of languages.
    struct MetadataField: Decodable {
        var value: LooseString?
    }

    /// A file Vitrine can show, with where it stands in the search.
    struct DecodedFile {
        /// The page id, or for a file of a shared repository that has none here, a digest of its title.
        var key: String
        var item: SourceItem
        var license: License
    }

    /// A batch's files, what became of the others, and the continuation (nil when the search has no more).
    struct DecodedBatch {
        var files: [DecodedFile]
        var unshowable: Int
        var warnings: [String]
        var continuation: [String: String]?
    }

    /// Decodes batch `number`, once the HTTP status and the answer's own `error` say it is no failure; files in the
    /// order of the search.
    static func decodeBatch(_ response: APIResponse, number: Int) throws -> DecodedBatch {
        try requireSuccess(response)
        let answer: QueryAnswer
        do {
            answer = try APIAnswer.decode(QueryAnswer.self, from: response.body)
        } catch {
            throw SourceError.unreadable(error, source: "Wikimedia Commons", document: "answer \(number)")
        }
        if let error = answer.error {
            let code = error.value?.code?.value ?? "unknown"
            let info = SourceError.shown(error.value?.info?.value ?? "")
            throw code == "ratelimited" || code == "maxlag"
                ? SourceError.rateLimited(source: "Wikimedia Commons", message: "\(code): \(info)")
                : SourceError.rejected(
                    source: "Wikimedia Commons", status: response.status, message: "\(code): \(info)", hint: nil)
        }
        var batch = DecodedBatch(files: [], unshowable: 0, warnings: [], continuation: nil)
        if let members = answer.continue?.value {
            var continuation: [String: String] = [:]
            for (name, value) in members.prefix(20) {
                guard name.utf8.count <= 40, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
                    let text = value.value, text.utf8.count <= 1_000
                else { continue }
                continuation[name] = text
            }
            batch.continuation = continuation.isEmpty ? nil : continuation
        }
        let pages = (answer.query?.value?.pages ?? []).enumerated().sorted {
            ($0.element.value?.index?.value ?? Int.max, $0.offset) < (
                $1.element.value?.index?.value ?? Int.max, $1.offset
            )
        }
        for (position, page) in pages {
            switch decodeFile(page.value) {
            case .file(let file): batch.files.append(file)
            case .unshowable: batch.unshowable += 1
            case .pending: break
            case .skipped(let reason):
                batch.warnings.append("Skipped Wikimedia Commons file \(position + 1) of answer \(number): \(reason).")
            }
        }
        return batch
    }

    /// Throws the error of an HTTP failure.
    static func requireSuccess(_ response: APIResponse) throws {
        let status = response.status
        guard !(200..<300).contains(status) else { return }
        throw SourceError.httpFailure(
            status: status, source: "Wikimedia Commons", message: response.bodyText,
            hint: status == 403
                ? "Wikimedia refuses clients whose User-Agent names no contact; check the contact given" : nil)
    }

    /// What a page of the answer is to the gallery.
    enum FileOutcome {
        case file(DecodedFile)
        /// A document, a sound or a film: no picture to show.
        case unshowable
        /// Its `imageinfo` comes in a later batch of the same search.
        case pending
        case skipped(String)
    }

    /// The MIME types whose files are shown by the wiki's rendition; the originals of JPEG and PNG files may stand
    /// in when the answer has none. An SVG is shown only by its rendition (a PNG), never by its original.
    static let showableTypes: Set<String> = [
        "image/jpeg", "image/png", "image/gif", "image/webp", "image/tiff", "image/svg+xml", "image/x-xcf",
    ]

    /// A file Vitrine can show, from its page.
    static func decodeFile(_ page: PageFields?) -> FileOutcome {
        guard let page else { return .skipped("it is not a JSON object") }
        let key: String
        if let pageID = page.pageid?.value, pageID > 0 {
            key = String(pageID)
        } else if let title = page.title?.value, !title.isEmpty {
            key = "t" + SHA256Hasher.hex(of: title).prefix(16)
        } else {
            return .skipped("it has neither a page id nor a title")
        }
        guard let info = page.imageinfo?.value?.first?.value else { return .pending }
        let mime =
            info.mime?.value?.lowercased().trimmingCharacters(in: .whitespaces)
            ?? mimeType(ofName: page.title?.value ?? info.url?.value ?? "")
        guard showableTypes.contains(mime) else { return .unshowable }
        let rendition = RemoteURLPolicy.accepted(info.thumburl?.value).map {
            RemoteImage(url: $0, width: info.thumbwidth?.dimension, height: info.thumbheight?.dimension)
        }
        let original =
            ["image/jpeg", "image/png"].contains(mime)
            ? RemoteURLPolicy.accepted(info.url?.value).map {
                RemoteImage(url: $0, width: info.width?.dimension, height: info.height?.dimension)
            } : nil
        guard let full = rendition ?? original else {
            return .skipped("it has no http(s) rendition to show (and its original is no JPEG or PNG)")
        }
        let metadata = info.extmetadata?.value ?? [:]
        func field(_ name: String) -> String? {
            metadata[name]?.value?.value?.value?.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let title = (page.title?.value).map(fileName(ofTitle:)) ?? ""
        let objectName = field("ObjectName").map(CommonsHTML.text(of:)) ?? ""
        let artist = field("Artist").map(CommonsHTML.credit(of:))
        let creditLine = field("Credit").map(CommonsHTML.text(of:))
        let name = [artist?.text, creditLine].compactMap { $0 }.first { !$0.isEmpty }
        let credit = Credit(
            name: String((name ?? "an unnamed author").prefix(200)),
            url: RemoteURLPolicy.accepted(info.descriptionurl?.value), authorURL: artist?.link)
        let license = license(
            shortName: field("LicenseShortName").map(CommonsHTML.text(of:)), url: field("LicenseUrl"),
            usageTerms: field("UsageTerms").map(CommonsHTML.text(of:)))
        return .file(
            DecodedFile(
                key: key,
                item: SourceItem(
                    sourceID: key,
                    entries: [
                        .found(
                            caption: objectName.isEmpty ? title : objectName, credit: credit,
                            tile: tile(of: full, rendition: rendition != nil), full: full, license: license)
                    ]),
                license: license))
    }

    /// The MIME type a file's name says, for an answer that gives none (`iiprop` without `mime`).
    static func mimeType(ofName name: String) -> String {
        let suffix = name.lowercased().split(separator: ".").last.map(String.init) ?? ""
        switch suffix {
        case "jpg", "jpeg": return "image/jpeg"
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "tif", "tiff": return "image/tiff"
        case "svg": return "image/svg+xml"
        default: return ""
        }
    }

    /// The smaller rendition of the same thumbnail path for a tile (`…/1280px-Name.jpg` → `…/500px-Name.jpg`), or
    /// the full one when its URL is not a wiki thumbnail of a larger width.
    static func tile(of full: RemoteImage, rendition: Bool) -> RemoteImage {
        guard rendition, let width = full.width, width > tileWidth, var components = URLComponents(string: full.url),
            components.path.contains("/thumb/"), let slash = components.path.lastIndex(of: "/")
        else { return full }
        let last = components.path[components.path.index(after: slash)...]
        guard last.hasPrefix("\(width)px-") else { return full }
        components.path =
            String(components.path[...slash]) + "\(tileWidth)px-" + String(last.dropFirst("\(width)px-".count))
        guard let url = RemoteURLPolicy.accepted(components.string) else { return full }
        let height = full.height.map { max(1, Int((Double($0) * Double(tileWidth) / Double(width)).rounded())) }
        return RemoteImage(url: url, width: tileWidth, height: height)
    }

    /// The file's name from its page title: "File:Hafen (Hamburg).jpg" → "Hafen (Hamburg)".
    static func fileName(ofTitle title: String) -> String {
        var name = Substring(title)
        if let colon = name.firstIndex(of: ":"), name[..<colon].lowercased() == "file" {
            name = name[name.index(after: colon)...]
        }
        if let dot = name.lastIndex(of: "."), name.distance(from: dot, to: name.endIndex) <= 6 {
            name = name[..<dot]
        }
        return name.trimmingCharacters(in: .whitespaces)
    }

    /// The license a file reports: with a link, as the link names it (a Creative Commons license or public-domain
    /// tool labelled as Creative Commons does) or by its short name; without one, a public-domain statement by its
    /// name, not linked. Any license the wiki reports with a link allows copies: Commons takes free files alone.
    /// A file that reports nothing, or a name alone that says no public domain, is of unknown terms and never
    /// copied.
    static func license(shortName: String?, url: String?, usageTerms: String?) -> License {
        let name = [shortName, usageTerms].compactMap { $0 }.first { !$0.isEmpty }.map { String($0.prefix(100)) }
        let link = url.flatMap { RemoteURLPolicy.accepted($0) }
        if let link, let label = License.label(ofLicenseAt: link) {
            // A ported license keeps its jurisdiction: "CC BY-SA 3.0 es".
            let shown = name.flatMap { $0.hasPrefix(label) && $0.count <= label.count + 6 ? $0 : nil } ?? label
            return License(id: nil, name: name ?? label, label: shown, url: link, copies: .allowed)
        }
        guard let name else { return .unknown }
        if let link { return License(id: nil, name: name, label: name, url: link, copies: .allowed) }
        let folded = name.lowercased()
        if folded.hasPrefix("public domain") || folded.hasPrefix("pd-") || folded == "pd" || folded.hasPrefix("cc0")
            || folded.hasPrefix("no restrictions")
        {
            return License(id: nil, name: name, label: name, url: nil, copies: .allowed)
        }
        return License(id: nil, name: name, label: name, url: nil, copies: .unknown)
    }
}

/// Reads the HTML of a Commons metadata field (`Artist`, `Credit`, `ObjectName`) as text: tags dropped with what
/// `script` and `style` hold, character references decoded, white space collapsed; and the first http(s) or
/// protocol-relative link. The fields are short and their markup simple (links, spans, lists); the sources stage
/// has no HTML parser of its own, and libxml2 belongs to the render stage.
enum CommonsHTML {
    /// The most of a field read; the rest is cut.
    static let limit = 20_000

    /// The field as text.
    static func text(of html: String) -> String { read(html).text }

    /// The field as text, with its first link.
    static func credit(of html: String) -> (text: String, link: String?) { read(html) }

    private static func read(_ html: String) -> (text: String, link: String?) {
        let scalars = Array(html.unicodeScalars.prefix(limit))
        var text = String.UnicodeScalarView()
        var link: String?
        var skipping: String?
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "<" {
                let end = scalars[index...].firstIndex(of: ">") ?? scalars.count
                let tag = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
                let name = tag.lowercased().prefix { $0.isLetter || $0 == "/" }
                if let open = skipping {
                    if name == "/" + open { skipping = nil }
                } else if name == "script" || name == "style" {
                    skipping = String(name)
                } else {
                    if name == "a", link == nil, end < scalars.count { link = href(in: tag) }
                    if ["br", "p", "/p", "li", "div", "/div", "/li"].contains(name) { text.append(" ") }
                }
                index = end + 1
                continue
            }
            if skipping == nil { text.append(scalar) }
            index += 1
        }
        let decoded = decodeReferences(String(text))
        let collapsed = decoded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return (collapsed, link)
    }

    /// The `href` of a tag's text, made absolute when protocol-relative, if it is an http(s) URL.
    private static func href(in tag: String) -> String? {
        guard let start = tag.range(of: "href=\"") ?? tag.range(of: "href='") else { return nil }
        let quote = tag[tag.index(before: start.upperBound)]
        let value = tag[start.upperBound...].prefix { $0 != quote }
        var url = decodeReferences(String(value)).trimmingCharacters(in: .whitespaces)
        if url.hasPrefix("//") { url = "https:" + url }
        return RemoteURLPolicy.accepted(url)
    }

    /// The text with its character references (`&amp;`, `&#233;`, `&#x1F600;`) decoded; an unknown one is kept.
    static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [Substring: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "#39": "'",
        ]
        var output = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            let after = rest[rest.index(after: ampersand)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                output += "&"
                rest = after
                continue
            }
            let reference = after[..<semicolon]
            var decoded = named[reference]
            if decoded == nil, reference.hasPrefix("#") {
                let digits = reference.dropFirst()
                let value =
                    digits.first == "x" || digits.first == "X"
                    ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                decoded = value.flatMap(Unicode.Scalar.init).flatMap { $0.value >= 32 ? String($0) : nil }
            }
            if let decoded {
                output += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                output += "&"
                rest = after
            }
        }
        return output + rest
    }
}
