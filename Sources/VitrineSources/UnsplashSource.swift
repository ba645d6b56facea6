import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineStore

/// Unsplash's `GET /photos/random` with an access key (`Authorization: Client-ID KEY`, only ever in that header).
/// Its images are hotlinked and its `download_location` is requested when a photo is shown, as its terms require.
public struct UnsplashSource: RandomImageSource {
    /// Unsplash's own API; the sample API may stand in.
    public static let defaultEndpoint = "https://api.unsplash.com/"
    static let keySignup =
        "an access key comes with an Unsplash developer account: https://unsplash.com/developers"
    /// Photos asked for per request, so that one request nearly always holds one other than the current photo.
    static let count = 3
    /// The width of the largest rendition, made from the dynamically resizable `urls.raw`.
    static let largeWidth = 2048

    package var key: String
    package var endpoint: String
    /// Unsplash's `query`: limit the random photo to this search.
    package var query: String?

    /// A random photo, matching `query` if given, asked with the access `key`.
    public init(key: String, endpoint: String = defaultEndpoint, query: String? = nil) {
        self.key = key
        self.endpoint = endpoint
        self.query = query
    }

    /// Unsplash, for the page's credit.
    public var description: SourceDescription {
        SourceDescription(name: "unsplash", label: "Unsplash", home: "https://unsplash.com/")
    }

    /// Unsplash's API guidelines: images hotlinked from Unsplash, credited with referral links, each use reported.
    public var usage: ImageUsagePolicy { .unsplash }

    /// The endpoint, the query and a digest of the key (never the key itself).
    public var configuration: String {
        SourceSettings.text(
            "unsplash", ["endpoint": endpoint, "query": query, "key": SourceSettings.keyDigest(key)])
    }

    var authorization: [String: String] { ["Authorization": "Client-ID \(key)", "Accept-Version": "v1"] }

    func request() -> FetchRequest {
        var components = URLComponents(string: endpoint) ?? URLComponents()
        components.path = (components.path.hasSuffix("/") ? components.path : components.path + "/") + "photos/random"
        var items = [URLQueryItem(name: "count", value: String(Self.count))]
        if let query, !query.trimmingCharacters(in: .whitespaces).isEmpty {
            items.append(URLQueryItem(name: "query", value: query))
        }
        components.setStrictQuery(items)
        return FetchRequest(url: components.string ?? endpoint, headers: authorization, maximumBodyBytes: 4 << 20)
    }

    /// Asks `/photos/random` (with the query), once more if it gave `currentID` again.
    public func pick(avoiding currentID: String?, using api: any APIResponseLoading) async throws -> RandomPhoto {
        guard !key.isEmpty else { throw SourceError.keyMissing(source: "Unsplash", signup: Self.keySignup) }
        try RemoteURLPolicy.requireEndpoint(endpoint, of: "Unsplash")
        let photos = try await api.load(request()) { response in
            guard (200..<300).contains(response.status) else {
                throw Self.error(status: response.status, body: response.body)
            }
            return try Self.decode(response.body)
        }
        guard let photo = photos.first(where: { $0.id != currentID }) ?? photos.first else {
            throw SourceError.badData(source: "Unsplash", detail: "the answer holds no photo with an image URL")
        }
        return photo
    }

    /// The authorised request to the photo's `download_location`; nil when it is missing or on another host than
    /// the API's, which must never see the key.
    public func useReport(for photo: RandomPhoto) -> FetchRequest? {
        guard let location = photo.downloadLocation, RemoteURLPolicy.accepts(location),
            let host = URLComponents(string: location)?.host?.lowercased(),
            host == URLComponents(string: endpoint)?.host?.lowercased()
        else { return nil }
        return FetchRequest(url: location, headers: authorization, maximumBodyBytes: 1 << 20)
    }

    /// The message of an error answer: `{"errors":["…"]}`, or the plain text of a rate-limit answer.
    static func message(of body: [UInt8]) -> String {
        if let errors = (try? APIAnswer.decode(ErrorAnswer.self, from: body))?.errors.compactMap(\.value),
            !errors.isEmpty
        {
            return String(errors.joined(separator: "; ").prefix(300))
        }
        let text = String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "no message" : text
    }

    /// An error answer: `{"errors":["…"]}`.
    struct ErrorAnswer: Decodable {
        var errors: [LooseString]
    }

    static func error(status: Int, body: [UInt8]) -> SourceError {
        let message = message(of: body)
        switch status {
        case 401: return .keyRejected(source: "Unsplash", message: message)
        case 403 where message.localizedCaseInsensitiveContains("rate limit"), 429:
            return .rateLimited(source: "Unsplash", message: message)
        case 403: return .keyRejected(source: "Unsplash", message: message)
        case 400..<500: return .rejected(source: "Unsplash", status: status, message: message, hint: nil)
        default: return .unavailable(source: "Unsplash", status: status, message: message)
        }
    }

    /// The answer to `/photos/random`: a list of photos (with `count`) or one photo (without).
    struct RandomAnswer: Decodable {
        var photos: [Tolerant<PhotoFields>]

        init(from decoder: any Decoder) throws {
            do {
                photos = try [Tolerant<PhotoFields>](from: decoder)
            } catch is DecodingError {
                do {
                    photos = [Tolerant(try PhotoFields(from: decoder))]
                } catch is DecodingError {
                    throw DecodingProblem(path: "", problem: "is neither a photo nor a list")
                }
            }
        }
    }

    /// One photo as Unsplash describes it, every field read loosely and every object allowed to be null.
    struct PhotoFields: Decodable {
        var id, description, altDescription, createdAt: LooseString?
        var width, height, likes: LooseInt?
        var urls: Tolerant<URLs>?
        var links: Tolerant<Links>?
        var user: Tolerant<User>?
        var location: Tolerant<Location>?
        var exif: Tolerant<Exif>?

        enum CodingKeys: String, CodingKey {
            case id, description, width, height, likes, urls, links, user, location, exif
            case altDescription = "alt_description", createdAt = "created_at"
        }

        /// The photo's renditions.
        struct URLs: Decodable {
            var raw, full, regular, small: LooseString?
        }

        /// The photo's (or its author's) page, and where its use is to be reported.
        struct Links: Decodable {
            var html, downloadLocation: LooseString?

            enum CodingKeys: String, CodingKey {
                case html
                case downloadLocation = "download_location"
            }
        }

        /// The photo's author.
        struct User: Decodable {
            var name, username: LooseString?
            var links: Tolerant<Links>?
        }

        /// Where the photo was taken.
        struct Location: Decodable {
            var name, city, country: LooseString?
        }

        /// The camera the photo was taken with.
        struct Exif: Decodable {
            var make, model: LooseString?
        }
    }

    /// Reads the answer to `/photos/random`: an array with `count`, one object without; photos without a usable
    /// image URL are left out.
    static func decode(_ body: [UInt8]) throws -> [RandomPhoto] {
        do {
            return try APIAnswer.decode(RandomAnswer.self, from: body).photos.compactMap {
                $0.value.flatMap(decodePhoto)
            }
        } catch {
            throw SourceError.unreadable(error, source: "Unsplash", document: "the random photo answer")
        }
    }

    static func decodePhoto(_ photo: PhotoFields) -> RandomPhoto? {
        guard let id = photo.id?.value, !id.isEmpty, id.count <= 64 else { return nil }
        let urls = photo.urls?.value
        let width = photo.width?.dimension
        let height = photo.height?.dimension
        func rendition(_ url: String?, width wanted: Int) -> RandomPhoto.Rendition? {
            guard let url = RemoteURLPolicy.accepted(url) else { return nil }
            guard let width, let height else { return .init(url: url, width: nil, height: nil) }
            let shown = min(wanted, width)
            return .init(
                url: url, width: shown,
                height: max(1, Int((Double(height) * Double(shown) / Double(width)).rounded())))
        }
        var large: RandomPhoto.Rendition?
        if let raw = RemoteURLPolicy.accepted(urls?.raw?.value), var components = URLComponents(string: raw) {
            var items = (components.queryItems ?? []).filter { !["w", "fit", "q", "fm"].contains($0.name) }
            items += [
                URLQueryItem(name: "w", value: String(largeWidth)), URLQueryItem(name: "fit", value: "max"),
                URLQueryItem(name: "q", value: "80"), URLQueryItem(name: "fm", value: "jpg"),
            ]
            components.setStrictQuery(items)
            large = rendition(components.string, width: largeWidth)
        }
        var renditions = [
            rendition(urls?.small?.value, width: 400), rendition(urls?.regular?.value, width: 1080), large,
        ].compactMap { $0 }
        renditions = renditions.reduce(into: []) { kept, next in
            if kept.last?.width == nil || next.width == nil || next.width! > kept.last!.width! { kept.append(next) }
        }
        if renditions.isEmpty, let full = rendition(urls?.full?.value, width: width ?? 1080) {
            renditions = [full]
        }
        guard !renditions.isEmpty else { return nil }
        let user = photo.user?.value
        let name = user?.name?.value?.trimmingCharacters(in: .whitespacesAndNewlines)
        let username = user?.username?.value
        let profile =
            RemoteURLPolicy.accepted(user?.links?.value?.html?.value)
            ?? username.map {
                "https://unsplash.com/@\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)"
            }
        let links = photo.links?.value
        let page = RemoteURLPolicy.accepted(links?.html?.value)
        let caption = [photo.description?.value, photo.altDescription?.value].compactMap {
            $0?.trimmingCharacters(in: .whitespacesAndNewlines)
        }.first { !$0.isEmpty }
        return RandomPhoto(
            id: id, author: name?.isEmpty == false ? name : username, authorURL: profile, pageURL: page,
            caption: caption, width: width, height: height, renditions: renditions, facts: facts(of: photo),
            downloadLocation: RemoteURLPolicy.accepted(links?.downloadLocation?.value))
    }

    /// Location, camera, date and likes, as far as the API gave them (anything can be null).
    static func facts(of photo: PhotoFields) -> [RandomPhoto.Fact] {
        var facts: [RandomPhoto.Fact] = []
        func clean(_ text: String?) -> String? {
            guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
            return String(text.prefix(120))
        }
        let location = photo.location?.value
        let place =
            clean(location?.name?.value)
            ?? clean(
                [location?.city?.value, location?.country?.value].compactMap(clean).joined(separator: ", "))
        if let place { facts.append(.init(label: "Location", value: place)) }
        let exif = photo.exif?.value
        let make = clean(exif?.make?.value)
        let model = clean(exif?.model?.value)
        let camera: String? =
            switch (make, model) {
            case (let make?, let model?): model.localizedCaseInsensitiveContains(make) ? model : "\(make) \(model)"
            case (let make?, nil): make
            case (nil, let model?): model
            case (nil, nil): nil
            }
        if let camera { facts.append(.init(label: "Camera", value: camera)) }
        if let created = clean(photo.createdAt?.value), created.count >= 10 {
            let day = created.prefix(10)
            if day.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) {
                facts.append(.init(label: "Published", value: String(day)))
            }
        }
        if let likes = photo.likes?.value, likes >= 0 { facts.append(.init(label: "Likes", value: String(likes))) }
        return facts
    }
}
