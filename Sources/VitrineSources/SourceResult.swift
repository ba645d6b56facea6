import Foundation
import VitrineBasics
import VitrineStore

/// A picture a source found: one rendition at a remote URL, with its pixel size when the API says it.
package struct RemoteImage: Sendable, Hashable {
    package var url: String
    package var width: Int?
    package var height: Int?

    package init(url: String, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }
}

/// Who made a picture, and where the source's page for it (and the author's own page) is.
package struct Credit: Sendable, Hashable {
    /// Whom a credit names.
    package enum Role: String, Sendable, Hashable {
        /// The photographer or uploader: "Photo by NAME on SOURCE".
        case author
        /// The publication the image appeared in (the media-coverage list): "Published by NAME".
        case publication
    }

    package var name: String
    /// The picture's page on its source, which every credit links back to.
    package var url: String?
    package var role: Role
    /// The author's own page on the source (a profile or photostream).
    package var authorURL: String?

    package init(name: String, url: String?, role: Role = .author, authorURL: String? = nil) {
        self.name = name
        self.url = url
        self.role = role
        self.authorURL = authorURL
    }
}

/// One variant of one item as the source found it: a picture in two renditions under its license (and whether
/// the API says an AI made it), or a plain reason why not. `alternates` are the same picture in the other sizes
/// the API offers, with their pixel sizes, so that a page lets the browser choose the smallest that is sharp enough.
/// `tags` are the picture's tags, normalised (`PictureTags`), in the source's order.
package enum SourceEntry: Sendable, Hashable {
    case found(
        caption: String, credit: Credit?, tile: RemoteImage, full: RemoteImage, license: License,
        aiGenerated: Bool = false, alternates: [RemoteImage] = [], tags: [String] = [])
    case missing(reason: String)
}

/// One item of a gallery: one entry per variant, in the order of the result's variants.
package struct SourceItem: Sendable, Hashable {
    package var sourceID: String
    package var entries: [SourceEntry]

    package init(sourceID: String, entries: [SourceEntry]) {
        self.sourceID = sourceID
        self.entries = entries
    }
}

/// One way of looking at every item, such as the original search and the graffiti search.
package struct SourceVariant: Sendable, Hashable {
    package var key: String
    package var label: String
    package var query: String?

    package init(key: String, label: String, query: String?) {
        self.key = key
        self.label = label
        self.query = query
    }
}

/// Names a source by a machine id, a display label and its home page, with how many of its photos its terms let
/// one page show.
///
/// Public because the sources' requirements name it; its members are the package's own, so a program embedding
/// Vitrine hands it along without reading or making one.
public struct SourceDescription: Sendable, Hashable {
    package var name: String
    package var label: String
    package var home: String?
    /// The most of the source's photos one page may show (Flickr's API terms: 30); nil for no limit.
    package var photosPerPageLimit: Int?

    package init(name: String, label: String, home: String?, photosPerPageLimit: Int? = nil) {
        self.name = name
        self.label = label
        self.home = home
        self.photosPerPageLimit = photosPerPageLimit
    }
}

/// Everything a source found for one gallery; it knows nothing of files or HTML.
///
/// Public because the sources' requirements name it; its members are the package's own, so a program embedding
/// Vitrine hands it along without reading or making one.
public struct SourceResult: Sendable {
    package var title: String
    package var source: SourceDescription
    package var variants: [SourceVariant]
    package var items: [SourceItem]
    /// When the oldest API response used was fetched.
    package var fetchedAt: Date?
    package var warnings: [String]
    /// Results the API returned that could not be used (each has a warning).
    package var skipped: Int
    /// A tree of groups (users, their albums) holding the items, for sources that have one; when it is not empty,
    /// `items` is empty and the gallery is a hierarchy of list pages above grid pages.
    package var groups: [SourceGroup] = []
    /// The title of the top list of a hierarchy (`Users`); the gallery title when empty.
    package var groupsTitle = ""

    package init(
        title: String, source: SourceDescription, variants: [SourceVariant], items: [SourceItem],
        fetchedAt: Date?, warnings: [String] = [], skipped: Int = 0
    ) {
        self.title = title
        self.source = source
        self.variants = variants
        self.items = items
        self.fetchedAt = fetchedAt
        self.warnings = warnings
        self.skipped = skipped
    }
}

/// A group of a hierarchical result, such as a user or an album: either further groups or items.
package struct SourceGroup: Sendable, Hashable {
    /// The API's id of the group.
    package var sourceID: String
    package var title: String
    /// A second name shown beside the title, such as a user's username.
    package var subtitle: String?
    /// A picture standing for the group in the list of its parent, such as one photo of an album.
    package var cover: RemoteImage?
    /// The license of the cover's picture.
    package var coverLicense: License = .unknown
    /// The folder of the output its pages go in (`users`, `albums`): `FOLDER/ID/index.html`.
    package var folder: String
    /// The folder the pages of its items go in (`photos`): `FOLDER/ID.html`.
    package var itemFolder: String
    package var groups: [SourceGroup]
    package var items: [SourceItem]

    package init(
        sourceID: String, title: String, subtitle: String? = nil, cover: RemoteImage? = nil, folder: String,
        itemFolder: String = "items", groups: [SourceGroup] = [], items: [SourceItem] = []
    ) {
        self.sourceID = sourceID
        self.title = title
        self.subtitle = subtitle
        self.cover = cover
        self.folder = folder
        self.itemFolder = itemFolder
        self.groups = groups
        self.items = items
    }

    /// Every item of the group and of the groups below it, depth first.
    package var allItems: [SourceItem] { items + groups.flatMap(\.allItems) }

    /// Every cover of the group and of the groups below it, depth first, with its license.
    var allCovers: [(image: RemoteImage, license: License)] {
        [cover.map { ($0, coverLicense) }].compactMap { $0 } + groups.flatMap(\.allCovers)
    }
}

extension SourceResult {
    /// Every item, of the flat list and of the groups.
    package var allItems: [SourceItem] { items + groups.flatMap(\.allItems) }

    /// Every remote picture the gallery downloads, in a stable order: item renditions, then group covers. A
    /// picture whose license does not allow copies is shown from its own URL and never downloaded.
    package var remoteImageURLs: [String] {
        var seen = Set<String>()
        var urls: [String] = []
        for item in allItems {
            for case .found(_, _, let tile, let full, let license, _, let alternates, _) in item.entries
            where license.allowsCopies {
                for url in [tile.url, full.url] + alternates.map(\.url) where seen.insert(url).inserted {
                    urls.append(url)
                }
            }
        }
        for cover in groups.flatMap(\.allCovers) where cover.license.allowsCopies {
            if seen.insert(cover.image.url).inserted { urls.append(cover.image.url) }
        }
        return urls
    }
}

/// An image API that can fill a gallery.
///
/// Vitrine's own sources conform to it (`PixabaySource`, `FlickrSource`, `ThumbnailSource`, `JSONPlaceholderSource`);
/// a program embedding Vitrine passes one of them to a plan. The types its requirements name expose no members
/// outside the package, so it cannot be conformed to elsewhere.
public protocol ImageSource: Sendable {
    /// Everything besides the API's answers that shapes what `collect` returns (endpoints, terms, counts), and no
    /// secret: a rebuild whose sources' configurations and cached answers are unchanged has nothing to do.
    var configuration: String { get }

    func collect(using api: any APIResponseLoading) async throws -> SourceResult

    /// The base URLs of the API it asks, in the form it was given them: whose hosts are the source's own.
    var endpoints: [String] { get }

    /// Header fields each download of an image its answers list sends, as its API asks of every client (Wikimedia's
    /// User-Agent policy covers its upload host too).
    var imageRequestHeaders: [String: String] { get }
}

extension ImageSource {
    package var endpoints: [String] { [] }

    /// None: most APIs ask nothing of the downloads of their images.
    public var imageRequestHeaders: [String: String] { [:] }

    static func keyDigest(_ key: String) -> String { SourceSettings.keyDigest(key) }

    static func configuration(_ name: String, _ settings: KeyValuePairs<String, String?>) -> String {
        SourceSettings.text(name, settings)
    }
}

/// How a source writes its `configuration`.
enum SourceSettings {
    /// A one-way digest of an API key, for what must change with the key (the answers it gets) without holding it.
    static func keyDigest(_ key: String) -> String { SHA256Hasher.hex(of: "vitrine-key-digest-1\u{0}" + key) }

    /// A source's `configuration` from its name and settings, each value length-prefixed so that no two settings
    /// read alike.
    static func text(_ name: String, _ settings: KeyValuePairs<String, String?>) -> String {
        settings.reduce(name) { text, setting in
            let value = setting.value.map { "\($0.utf8.count):\($0)" } ?? "-"
            return text + " \(setting.key)=\(value)"
        }
    }
}

/// Why a source could not produce its results.
public enum SourceError: UserFacingError {
    /// No key was given; `signup` says where one comes from.
    case keyMissing(source: String, signup: String)
    case keyRejected(source: String, message: String)
    case rejected(source: String, status: Int, message: String, hint: String?)
    case rateLimited(source: String, message: String)
    case unavailable(source: String, status: Int, message: String)
    case badData(source: String, detail: String)
    case invalidOption(source: String, detail: String)

    /// Names the API and what it said; for a key, where to get one or to check it.
    public var sentence: String {
        switch self {
        case .keyMissing(let source, let signup): "No \(source) API key was given (\(signup))."
        case .keyRejected(let source, let message):
            "\(source) rejected the API key (\(message)); check the key."
        case .rejected(let source, let status, let message, let hint):
            "\(source) refused the request with HTTP \(status) (\(message))" + (hint.map { "; \($0)." } ?? ".")
        case .rateLimited(let source, let message):
            "\(source)'s rate limit was reached (\(message)); wait a minute and run again."
        case .unavailable(let source, let status, let message):
            "\(source) answered HTTP \(status) (\(message)); try again later."
        case .badData(let source, let detail): "\(source) returned data Vitrine cannot read: \(detail)."
        case .invalidOption(_, let detail): detail
        }
    }

    /// The error of an HTTP failure of `source`: a 429 is its rate limit, a 5xx an outage, anything else a refusal
    /// (with `hint`, what to do about it, when the status tells); `message` is what the API said, as ``shown(_:)``
    /// puts it.
    static func httpFailure(status: Int, source: String, message: String, hint: String? = nil) -> SourceError {
        let message = shown(message)
        return switch status {
        case 429: .rateLimited(source: source, message: message)
        case 500...599: .unavailable(source: source, status: status, message: message)
        default: .rejected(source: source, status: status, message: message, hint: hint)
        }
    }

    /// What an API said, for a sentence: trimmed, cut to 300 characters, and "no message" when it said nothing.
    static func shown(_ message: String) -> String {
        let text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "no message" : String(text.prefix(300))
    }

    /// `.keyProblem` for a key, `.unavailable` for a refusal or an outage, `.badData` for an unreadable answer,
    /// `.invalidArgument` for a setting the API cannot take.
    public var kind: FailureKind {
        switch self {
        case .keyMissing, .keyRejected: .keyProblem
        case .rejected, .rateLimited, .unavailable: .unavailable
        case .badData: .badData
        case .invalidOption: .invalidArgument
        }
    }
}

extension URLComponents {
    /// Sets the query to `items` with every value strictly encoded (only unreserved characters stay as they are), so
    /// no value can add a parameter or end the query.
    mutating func setStrictQuery(_ items: [URLQueryItem]) {
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        percentEncodedQueryItems = items.map {
            URLQueryItem(name: $0.name, value: $0.value?.addingPercentEncoding(withAllowedCharacters: unreserved))
        }
    }
}

/// Accepts only absolute http and https URLs from API responses and endpoints, each as a `WebURL`: percent-encoded
/// where it must be, so that it stands as it is in a request, a page, a feed and JSON-LD, and never cut.
enum RemoteURLPolicy {
    /// The error every source gives for an endpoint that is not an http or https URL.
    static func requireEndpoint(_ endpoint: String, of source: String) throws(SourceError) {
        guard accepts(endpoint) else {
            throw .invalidOption(source: source, detail: "The endpoint \(endpoint) is not an http or https URL.")
        }
    }

    /// Whether `text` can be made a web URL (`accepted(_:)`).
    static func accepts(_ text: String?) -> Bool { accepted(text) != nil }

    /// `text` as a web URL, percent-encoded where it must be; nil when it cannot be one.
    static func accepted(_ text: String?) -> String? {
        guard let text, case .success(let url) = WebURL.encoding(text) else { return nil }
        return url.text
    }

    /// `text` as a web URL, percent-encoded where it must be, or why it cannot be one.
    static func checked(_ text: String) -> Result<WebURL, WebURL.Refusal> { WebURL.encoding(text) }
}
