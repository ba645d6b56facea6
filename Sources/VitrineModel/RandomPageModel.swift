import Foundation
import VitrineSources

/// The random-image page and the favorites page, ready to render: the photo, its credit and fields, its images
/// (files of the site or hotlinked URLs, as the source's policy says) and the schedule. It mirrors the `random`
/// and `favorites` elements of the model (docs/model.md).
package struct RandomPageModel: Sendable {
    /// A labelled piece of information shown under the image, linked when it has an http(s) URL.
    package struct Field: Sendable, Hashable {
        package var key: String
        package var label: String
        package var value: String
        package var href: String?

        package init(key: String, label: String, value: String, href: String? = nil) {
            self.key = key
            self.label = label
            self.value = value
            self.href = href
        }
    }

    /// An image of the page: a file of the site by its relative path, or a hotlinked URL.
    package struct Image: Sendable, Hashable {
        /// Where the browser gets the image from.
        package enum Location: Sendable, Hashable {
            case file(path: String, mediaType: String)
            case remote(url: String)
        }
        package var location: Location
        package var width: Int?
        package var height: Int?

        package init(location: Location, width: Int? = nil, height: Int? = nil) {
            self.location = location
            self.width = width
            self.height = height
        }
    }

    package static let pageHref = "index.html"
    static let favoritesHref = "favorites.html"
    /// Fields beyond author, size and source page: at most this many.
    static let extraFieldLimit = 2

    package var title: String
    package var language = "en"
    /// The folder of its pages under the output root: "" alone, "NAME/" in a site.
    package var folder: String
    /// The home page of the site that holds the page, if any.
    package var site: GalleryModel.SiteLink?
    package var source: SourceDescription
    package var notices: [GalleryModel.Notice]
    package var delivery: ImageUsagePolicy.Delivery
    package var fetchedAt: Date
    package var nextUpdate: Date
    package var every: UpdateInterval
    package var photoID: String
    package var caption: String
    package var credit: RandomCredit
    /// The photo's license: the source's, which every one of its photos has.
    package var license: License
    /// Smallest first; the last is the main one.
    package var images: [Image]
    package var fields: [Field]

    /// Builds the page from the kept state, following the source's usage policy for every link.
    package init(
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
        license = policy.license
        license.url = policy.link(policy.license.url)
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

    package var pageJobs: [GalleryModel.PageJob] {
        [
            .init(kind: .random, id: "random", href: folder + Self.pageHref),
            .init(kind: .favorites, id: "favorites", href: folder + Self.favoritesHref),
        ]
    }

    /// An instant as the model writes it: ISO 8601 in UTC, to the second.
    package static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
