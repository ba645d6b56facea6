import Foundation

/// What an image API's terms say about using its photos, in one place: whether images are downloaded or
/// hotlinked, how the credit reads and links, and whether the API must hear when a photo is used. Sources declare
/// theirs; the pipeline and the model follow it and nothing else decides these things.
///
/// Public because the sources' requirements name it; its members are the package's own, so a program embedding
/// Vitrine hands it along without reading or making one.
public struct ImageUsagePolicy: Sendable, Hashable {
    /// Where the page's image bytes come from.
    package enum Delivery: String, Sendable, Codable, Hashable {
        /// Downloaded into the site (Picsum allows it; Pixabay requires it).
        case download
        /// Loaded by the browser from the API's own URLs (Unsplash requires it).
        case hotlink
    }

    package var delivery: Delivery
    /// The `utm_source` every link to the source carries (`?utm_source=APP&utm_medium=referral`), or nil for plain
    /// links.
    var referralApp: String?
    /// Whether the API must be told each time a new photo is shown (Unsplash's `download_location`).
    package var reportsUse: Bool
    /// The license of every photo of the API.
    package var license: License

    package init(delivery: Delivery, referralApp: String?, reportsUse: Bool, license: License) {
        self.delivery = delivery
        self.referralApp = referralApp
        self.reportsUse = reportsUse
        self.license = license
    }

    /// The application name Unsplash's referral links carry.
    static let applicationName = "vitrine"

    /// Lorem Picsum: its images (Unsplash's photos, under the Unsplash License) may be downloaded; credit the author
    /// with a plain link.
    package static let picsum = ImageUsagePolicy(
        delivery: .download, referralApp: nil, reportsUse: false, license: .unsplash)

    /// Unsplash: hotlink the image URLs, credit "Photo by NAME on Unsplash" with referral links, and request
    /// `download_location` when a photo is used.
    package static let unsplash = ImageUsagePolicy(
        delivery: .hotlink, referralApp: applicationName, reportsUse: true, license: .unsplash)

    /// `url` as a page may link to it: with the referral parameters when the policy has them; nil for anything
    /// but an http(s) URL.
    package func link(_ url: String?) -> String? {
        guard let url = RemoteURLPolicy.accepted(url) else { return nil }
        guard let referralApp, var components = URLComponents(string: url) else { return url }
        var items = (components.queryItems ?? []).filter { $0.name != "utm_source" && $0.name != "utm_medium" }
        items += [
            URLQueryItem(name: "utm_source", value: referralApp), URLQueryItem(name: "utm_medium", value: "referral"),
        ]
        components.setStrictQuery(items)
        return RemoteURLPolicy.accepted(components.string) ?? url
    }

    /// The credit line of a photo: "Photo by NAME on SOURCE", both linked as the policy wants (the author to their
    /// profile, or to the photo's page when the API names no profile).
    package func credit(for photo: RandomPhoto, source: SourceDescription) -> RandomCredit {
        RandomCredit(
            author: photo.author.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
                ?? "an unknown author",
            authorURL: link(photo.authorURL) ?? link(photo.pageURL), sourceLabel: source.label,
            sourceURL: link(source.home))
    }
}

/// "Photo by AUTHOR on SOURCE", with the links the source's policy wants.
package struct RandomCredit: Sendable, Hashable {
    package var author: String
    package var authorURL: String?
    package var sourceLabel: String
    package var sourceURL: String?

    package init(author: String, authorURL: String? = nil, sourceLabel: String, sourceURL: String? = nil) {
        self.author = author
        self.authorURL = authorURL
        self.sourceLabel = sourceLabel
        self.sourceURL = sourceURL
    }
}
