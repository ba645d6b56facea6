internal import CXSLT
import Foundation

/// The random-image page and the favorites page, ready to render: the photo, its credit and fields, its images
/// (files of the site or hotlinked URLs, as the source's policy says) and the schedule. It mirrors the `random`
/// and `favorites` elements of the model (docs/model.md).
public struct RandomPageModel: Sendable {
    /// A labelled piece of information shown under the image, linked when it has an http(s) URL.
    public struct Field: Sendable, Hashable {
        public var key: String
        public var label: String
        public var value: String
        public var href: String?
    }

    /// An image of the page: a file of the site by its relative path, or a hotlinked URL.
    public struct Image: Sendable, Hashable {
        /// Where the browser gets the image from.
        public enum Location: Sendable, Hashable {
            case file(path: String, mediaType: String)
            case remote(url: String)
        }
        public var location: Location
        public var width: Int?
        public var height: Int?
    }

    public static let pageHref = "index.html"
    public static let favoritesHref = "favorites.html"
    /// Fields beyond author, size and source page: at most this many.
    static let extraFieldLimit = 2

    public var title: String
    public var language = "en"
    /// The folder of its pages under the output root: "" alone, "NAME/" in a site.
    public var folder: String
    /// The home page of the site that holds the page, if any.
    public var site: GalleryModel.SiteLink?
    public var source: SourceDescription
    public var notices: [GalleryModel.Notice]
    public var delivery: ImageUsagePolicy.Delivery
    public var fetchedAt: Date
    public var nextUpdate: Date
    public var every: UpdateInterval
    public var photoID: String
    public var caption: String
    public var credit: RandomCredit
    /// Smallest first; the last is the main one.
    public var images: [Image]
    public var fields: [Field]

    /// Builds the page from the kept state, following the source's usage policy for every link.
    public init(
        state: RandomPageState, source: SourceDescription, policy: ImageUsagePolicy, every: UpdateInterval,
        notices: [GalleryModel.Notice], folder: String = "", site: GalleryModel.SiteLink? = nil
    ) {
        title = "Random image"
        self.folder = folder
        self.site = site
        self.source = source
        self.source.home = policy.link(source.home)
        self.notices = notices
        delivery = state.delivery
        fetchedAt = state.fetchedAt
        nextUpdate = state.nextUpdate
        self.every = every
        let photo = state.photo
        photoID = photo.id
        credit = policy.credit(for: photo, source: source)
        caption = photo.caption ?? "Photo by \(credit.author) on \(source.label)"
        images = state.images.map { shown in
            if let path = shown.path {
                return Image(
                    location: .file(path: path, mediaType: shown.mediaType ?? "image/jpeg"), width: shown.width,
                    height: shown.height)
            }
            return Image(location: .remote(url: shown.remoteURL), width: shown.width, height: shown.height)
        }
        var fields = [
            Field(
                key: "author", label: "Author", value: credit.author,
                href: credit.authorURL)
        ]
        if let width = photo.width, let height = photo.height {
            fields.append(Field(key: "size", label: "Size", value: "\(width) × \(height) px", href: nil))
        } else if let main = state.images.last, let width = main.width, let height = main.height {
            fields.append(Field(key: "size", label: "Size", value: "\(width) × \(height) px (as shown)", href: nil))
        }
        if let page = policy.link(photo.pageURL) {
            fields.append(
                Field(key: "page", label: "Source page", value: Self.shortForm(of: photo.pageURL!), href: page))
        }
        for fact in photo.facts.prefix(Self.extraFieldLimit) {
            let key = fact.label.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
            fields.append(Field(key: key.isEmpty ? "fact" : key, label: fact.label, value: fact.value, href: nil))
        }
        self.fields = fields
    }

    /// `unsplash.com/photos/abc` for `https://unsplash.com/photos/abc?x=1`.
    static func shortForm(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host else { return url }
        let path = components.path == "/" ? "" : components.path
        return String((host + path).prefix(80))
    }

    public var pageJobs: [GalleryModel.PageJob] {
        [
            .init(kind: .random, id: "random", href: folder + Self.pageHref),
            .init(kind: .favorites, id: "favorites", href: folder + Self.favoritesHref),
        ]
    }

    /// An instant as the model writes it: ISO 8601 in UTC, to the second.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    func document() -> XMLDocument {
        typealias M = ModelDocument
        let document = XMLDocument(owning: xmlNewDoc("1.0"))
        let root = xmlNewDocNode(document.raw, nil, "gallery", nil)!
        xmlDocSetRootElement(document.raw, root)
        M.set(root, "version", ModelDocument.version)
        M.set(root, "lang", language)
        M.text(root, "title", title)
        let sourceNode = M.child(root, "source")
        M.set(sourceNode, "name", source.name)
        M.set(sourceNode, "label", source.label)
        if let home = source.home { M.set(sourceNode, "home", home) }
        for notice in notices { M.set(M.text(root, "notice", notice.text), "kind", notice.kind.rawValue) }
        if let site { M.add(site, to: root) }
        let random = M.child(root, "random")
        M.set(random, "id", "random")
        M.set(random, "href", folder + Self.pageHref)
        M.set(random, "favorites", folder + Self.favoritesHref)
        M.set(random, "delivery", delivery.rawValue)
        M.set(random, "fetched-at", Self.timestamp(fetchedAt))
        M.set(random, "next-update", Self.timestamp(nextUpdate))
        M.set(random, "every", String(every.seconds))
        let photo = M.child(random, "photo")
        M.set(photo, "source-id", photoID)
        M.text(photo, "caption", caption)
        let creditNode = M.child(photo, "credit")
        M.set(creditNode, "name", credit.author)
        if let url = credit.authorURL { M.set(creditNode, "href", url) }
        if let url = credit.sourceURL { M.set(creditNode, "source-href", url) }
        for (index, image) in images.enumerated() {
            let node = M.child(photo, "image")
            M.set(node, "role", index == images.count - 1 ? "full" : "tile")
            switch image.location {
            case .file(let path, let mediaType):
                M.set(node, "src", path)
                M.set(node, "type", mediaType)
            case .remote(let url):
                M.set(node, "url", url)
            }
            if let width = image.width, let height = image.height {
                M.set(node, "width", String(width))
                M.set(node, "height", String(height))
            }
        }
        for field in fields {
            let node = M.text(photo, "field", field.value)
            M.set(node, "key", field.key)
            M.set(node, "label", field.label)
            if let href = field.href { M.set(node, "href", href) }
        }
        let favorites = M.child(root, "favorites")
        M.set(favorites, "id", "favorites")
        M.set(favorites, "href", folder + Self.favoritesHref)
        return document
    }
}
