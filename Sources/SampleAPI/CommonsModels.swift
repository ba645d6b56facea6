import Foundation

/// What a file of the Commons catalogue is, with its extension, MIME type and how MediaWiki names its renditions.
package enum CommonsMediaKind: String, Sendable, CaseIterable {
    case jpeg, svg, pdf, djvu, audio, video

    /// The file name's extension, without its dot.
    package var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .svg: "svg"
        case .pdf: "pdf"
        case .djvu: "djvu"
        case .audio: "ogg"
        case .video: "webm"
        }
    }

    /// The `mime` MediaWiki reports.
    package var mime: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        case .djvu: "image/vnd.djvu"
        case .audio: "application/ogg"
        case .video: "video/webm"
        }
    }

    /// The kind a file name's extension says, or nil for one the catalogue never uses.
    package init?(fileExtension: some StringProtocol) {
        guard let kind = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = kind
    }

    /// The last path component of the rendition `width` pixels wide of the file `name` (its name with
    /// underscores), as MediaWiki names it: `1280px-Name.jpg`, `1280px-Name.svg.png` (an SVG is rendered as PNG),
    /// `page1-1280px-Name.pdf.jpg` (a document's first page), `1280px--Name.webm.jpg` (a film's first frame); nil
    /// for a sound, which has none.
    package func thumbnailName(of name: String, width: Int) -> String? {
        switch self {
        case .jpeg: "\(width)px-\(name)"
        case .svg: "\(width)px-\(name).png"
        case .pdf, .djvu: "page1-\(width)px-\(name).jpg"
        case .video: "\(width)px--\(name).jpg"
        case .audio: nil
        }
    }

    /// The width a rendition name made by ``thumbnailName(of:width:)`` for `name` asks for, or nil when
    /// `thumbnail` is no such name (or its width is written with leading zeros or other than decimal digits).
    package func width(inThumbnailName thumbnail: String, of name: String) -> Int? {
        let (prefix, suffix): (String, String) =
            switch self {
            case .jpeg: ("", "px-\(name)")
            case .svg: ("", "px-\(name).png")
            case .pdf, .djvu: ("page1-", "px-\(name).jpg")
            case .video: ("", "px--\(name).jpg")
            case .audio: ("", "")
            }
        guard self != .audio, thumbnail.hasPrefix(prefix), thumbnail.hasSuffix(suffix),
            thumbnail.count > prefix.count + suffix.count
        else { return nil }
        let digits = thumbnail.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let width = Int(digits),
            String(width) == digits
        else { return nil }
        return width
    }
}

/// One member of a file's `extmetadata`: `{"value": …, "source": …, "hidden": ""}`, `hidden` only on the fields
/// MediaWiki hides from its file page's summary (every one the catalogue sends but `Artist`).
package struct CommonsMetadataField: Sendable, Equatable {
    /// `ObjectName`, `Artist`, `LicenseUrl`, …
    package var name: String
    /// Text, HTML for some fields.
    package var value: String
    /// Where MediaWiki read it: `commons-desc-page` or, for `ObjectName`, `mediawiki-metadata`.
    package var source: String
    /// Whether the member carries `"hidden": ""`.
    package var hidden: Bool

    var json: OrderedJSON {
        var members: [(String, OrderedJSON)] = [("value", .string(value)), ("source", .string(source))]
        if hidden {
            members.append(("hidden", .string("")))
        }
        return .object(members)
    }
}

/// One file of a Commons search, everything MediaWiki knows of it but the URLs, which depend on the server's
/// address and on the width asked for (``CommonsCatalog/imageInfo(of:options:baseURL:)``).
package struct CommonsFile: Sendable, Equatable {
    /// The file page's id, stable per search term and rank.
    package var pageID: Int
    /// `File:Name.ext`, with spaces.
    package var title: String
    /// The rank in the search, from 1.
    package var index: Int
    /// What the file is.
    package var kind: CommonsMediaKind
    /// The theme of the sample picture its renditions show.
    package var theme: String
    /// The number of the sample picture its renditions show.
    package var pictureNumber: Int
    /// The upload's time, `2019-07-14T10:22:31Z`.
    package var timestamp: String
    /// Who uploaded it.
    package var user: String
    /// The original's byte count.
    package var size: Int
    /// The original's width (0 for a sound).
    package var width: Int
    /// The original's height (0 for a sound).
    package var height: Int
    /// How many pages a PDF or DjVu file has.
    package var pageCount: Int?
    /// How many seconds a sound or a film lasts.
    package var duration: Double?
    /// Whether MediaWiki renders it at a width (false for a sound and for the file at
    /// ``CommonsCatalog/noThumbnailIndex``).
    package var hasThumbnail: Bool
    /// Its `extmetadata`, in MediaWiki's order.
    package var metadata: [CommonsMetadataField]

    /// The name as MediaWiki stores it (its database key): the title without `File:`, spaces as underscores.
    package var name: String {
        String(title.dropFirst("File:".count)).replacingOccurrences(of: " ", with: "_")
    }

    /// The value of `extmetadata` member `field`, or nil when the file has none.
    package func metadataValue(_ field: String) -> String? {
        metadata.first { $0.name == field }?.value
    }
}

/// What a search asks of each file's `imageinfo`: `iiprop`, `iiurlwidth` and `iiextmetadatafilter`.
package struct CommonsImageInfoOptions: Sendable, Equatable {
    /// The `iiprop` values the catalogue answers; the others are ignored.
    package static let knownProperties: Set<String> = [
        "timestamp", "user", "size", "dimensions", "url", "mime", "extmetadata",
    ]

    /// The properties asked for (`timestamp|user` when `iiprop` is not given, as MediaWiki's default).
    package var properties: Set<String>
    /// The width of the rendition asked for, or nil for none (`iiurlwidth` missing or not above 0).
    package var thumbnailWidth: Int?
    /// The `extmetadata` members to send, or nil for every one.
    package var metadataFilter: Set<String>?

    /// The options of `iiprop`, `iiurlwidth` (already read as a number) and `iiextmetadatafilter`, each a `|` list.
    package init(iiprop: String?, urlWidth: Int?, metadataFilter: String?) {
        let listed = (iiprop ?? "timestamp|user").split(separator: "|").map(String.init)
        properties = Set(listed).intersection(Self.knownProperties)
        thumbnailWidth = urlWidth.flatMap { $0 > 0 ? $0 : nil }
        let fields = (metadataFilter ?? "").split(separator: "|").map(String.init)
        self.metadataFilter = fields.isEmpty ? nil : Set(fields)
    }
}

/// One batch of a Commons search: the files from `offset`, and where the next batch starts.
package struct CommonsSearchBatch: Sendable, Equatable {
    /// The batch's files, in rank order.
    package var files: [CommonsFile]
    /// The `gsroffset` of the next batch, or nil when the search ends here.
    package var nextOffset: Int?
}
