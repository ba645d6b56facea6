import Foundation
import VitrineHTTP
import VitrineStore

/// JSONPlaceholder's users, their albums and the albums' photos, as a hierarchy: users → albums → photos. Its photo
/// URLs point to via.placeholder.com, which no longer exists; they are rewritten to the agreed replacement on
/// Lorem Picsum (`https://picsum.photos/seed/{hex}/{size}`, see ``PlaceholderURLRewrite``).
public struct JSONPlaceholderSource: ImageSource {
    /// The license of every picture of the source. JSONPlaceholder says nothing of its photos' licenses.
    package static let license = License.unknown
    /// JSONPlaceholder's own API; the sample API may stand in.
    public static let defaultEndpoint = "https://jsonplaceholder.typicode.com"
    static let name = "JSONPlaceholder"
    /// How many album or photo lists are requested at the same time.
    static let concurrentRequests = 8

    package var endpoint: String
    /// Where the rewritten image URLs point (`https://picsum.photos`, or a stand-in serving `/seed/…`).
    package var imageEndpoint: String
    /// The API and the image host: the hosts whose images a history's archive may fetch again.
    public var endpoints: [String] { [endpoint, imageEndpoint] }
    /// The first this many users (nil: all).
    package var userLimit: Int?
    /// The first this many albums of each user (nil: all).
    package var albumLimit: Int?
    /// The license the site declares for every photo (`--declared-license`), or nil: JSONPlaceholder names none.
    package var declaredLicense: License?

    /// The albums of the first `userLimit` users, and the first `albumLimit` of each (nil: all), under
    /// `declaredLicense` when the site declares one.
    public init(
        endpoint: String = defaultEndpoint, imageEndpoint: String = PlaceholderURLRewrite.defaultImageEndpoint,
        userLimit: Int? = nil, albumLimit: Int? = nil, declaredLicense: License? = nil
    ) {
        self.endpoint = endpoint
        self.imageEndpoint = imageEndpoint
        self.userLimit = userLimit
        self.albumLimit = albumLimit
        self.declaredLicense = declaredLicense
    }

    /// The license of every photo: the one the site declares, else unknown.
    var license: License { declaredLicense ?? Self.license }

    /// Both endpoints, both limits and the declared license.
    public var configuration: String {
        Self.configuration(
            "albums",
            [
                "endpoint": endpoint, "image-endpoint": imageEndpoint, "users": userLimit.map(String.init),
                "albums": albumLimit.map(String.init),
            ]) + (declaredLicense.map { " " + $0.configuration } ?? "")
    }

    /// One user as read from `/users`.
    struct User: Equatable, Sendable {
        var id: Int
        var name: String
        var username: String
    }

    /// One album as read from `/users/N/albums`.
    struct Album: Equatable, Sendable {
        var id: Int
        var title: String
    }

    /// One list and what reading it left out.
    struct Decoded<Element: Sendable>: Sendable {
        var elements: [Element] = []
        var warnings: [String] = []
    }

    /// Reads the users, their albums and each album's photos, with the photo URLs rewritten to the image endpoint.
    public func collect(using api: any APIResponseLoading) async throws -> SourceResult {
        try RemoteURLPolicy.requireEndpoint(endpoint, of: Self.name)
        try RemoteURLPolicy.requireEndpoint(imageEndpoint, of: "The image endpoint")
        let rewrite = PlaceholderURLRewrite(imageEndpoint: imageEndpoint)
        var warnings: [String] = []
        var dates: [Date] = []

        let (users, usersDate) = try await load("users", api: api, decode: Self.decodeUsers)
        dates.append(usersDate)
        warnings += users.warnings
        let chosenUsers = Array(users.elements.prefix(userLimit ?? .max))

        let albumLists = try await Self.boundedMap(chosenUsers) { user in
            try await load("users/\(user.id)/albums", api: api) { try Self.decodeAlbums($0, of: user) }
        }
        var userAlbums: [(User, [Album])] = []
        for (user, (albums, date)) in zip(chosenUsers, albumLists) {
            warnings += albums.warnings
            dates.append(date)
            userAlbums.append((user, Array(albums.elements.prefix(albumLimit ?? .max))))
        }

        let albums = userAlbums.flatMap { user, albums in albums.map { (user, $0) } }
        let photoLists = try await Self.boundedMap(albums) { _, album in
            try await load("albums/\(album.id)/photos", api: api) { [license] in
                try Self.decodePhotos($0, album: album, rewrite: rewrite, license: license)
            }
        }
        var photosByAlbum: [Int: [SourceItem]] = [:]
        for ((_, album), (photos, date)) in zip(albums, photoLists) {
            warnings += photos.warnings
            dates.append(date)
            photosByAlbum[album.id] = photos.elements
        }

        let groups = userAlbums.map { user, albums in
            SourceGroup(
                sourceID: String(user.id), title: user.name, subtitle: user.username, folder: "users",
                groups: albums.map { album in
                    let photos = photosByAlbum[album.id] ?? []
                    var group = SourceGroup(
                        sourceID: String(album.id), title: album.title,
                        cover: Self.cover(of: photos, albumID: album.id), folder: "albums", itemFolder: "photos",
                        items: photos)
                    group.coverLicense = license
                    return group
                })
        }
        var result = SourceResult(
            title: "JSONPlaceholder albums",
            source: SourceDescription(name: "jsonplaceholder", label: Self.name, home: Self.home),
            variants: [SourceVariant(key: "photo", label: "Photo", query: nil)], items: [],
            fetchedAt: dates.min(), warnings: warnings, skipped: warnings.count)
        result.groups = groups
        result.groupsTitle = "Users"
        return result
    }

    static let home = "https://jsonplaceholder.typicode.com/"

    /// The album's cover: the tile of one of its photos, picked by a hash of the album id, so the choice looks
    /// random but is the same on every run (Swift's `Hasher` is seeded per process, so it is not used).
    static func cover(of photos: [SourceItem], albumID: Int) -> RemoteImage? {
        let pictures = photos.compactMap { item -> RemoteImage? in
            guard case .found(_, _, let tile, _, _, _, _, _)? = item.entries.first else { return nil }
            return tile
        }
        guard !pictures.isEmpty else { return nil }
        return pictures[Int(stableHash("album-cover:\(albumID)") % UInt64(pictures.count))]
    }

    /// FNV-1a, 64 bits: the same number for the same text in every process.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The list at `path`, read by `decode`, and when it was fetched.
    private func load<Value>(
        _ path: String, api: any APIResponseLoading, decode: ([UInt8]) throws -> Value
    ) async throws -> (Value, Date) {
        let base = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        return try await api.load(FetchRequest(url: "\(base)/\(path)", maximumBodyBytes: 16 << 20)) { response in
            guard (200..<300).contains(response.status) else {
                let message = response.bodyText.isEmpty ? "no message" : String(response.bodyText.prefix(300))
                throw (500...599).contains(response.status) || response.status == 429
                    ? SourceError.unavailable(source: Self.name, status: response.status, message: message)
                    : SourceError.rejected(
                        source: Self.name, status: response.status, message: message, hint: "check the endpoint URL")
            }
            return (try decode(response.body), response.fetchedAt)
        }
    }

    /// Runs `transform` on every element, at most ``concurrentRequests`` at a time; results in `elements` order.
    static func boundedMap<Element: Sendable, Output: Sendable>(
        _ elements: [Element], _ transform: @escaping @Sendable (Element) async throws -> Output
    ) async throws -> [Output] {
        try await withThrowingTaskGroup(of: (Int, Output).self) { group in
            var outputs = [Output?](repeating: nil, count: elements.count)
            var next = 0
            while next < min(concurrentRequests, elements.count) {
                let (index, element) = (next, elements[next])
                group.addTask { (index, try await transform(element)) }
                next += 1
            }
            while let (index, output) = try await group.next() {
                outputs[index] = output
                if next < elements.count {
                    let (index, element) = (next, elements[next])
                    group.addTask { (index, try await transform(element)) }
                    next += 1
                }
            }
            return outputs.compactMap { $0 }
        }
    }

    // MARK: - Decoding

    /// A record of one of JSONPlaceholder's lists, every field read loosely: a user (`name`, `username`), an
    /// album (`userId`, `title`) or a photo (`title`, `url`, `thumbnailUrl`).
    struct Record: Decodable {
        var id, userId: LooseInt?
        var name, username, title, url, thumbnailUrl: LooseString?
    }

    /// A positive whole-number id (JSONPlaceholder's ids are numbers; strings of digits are accepted too).
    private static func id(_ record: Record) -> Int? {
        guard let id = record.id?.value, id > 0 else { return nil }
        return id
    }

    /// The text of a field, trimmed; nil when it is missing or blank.
    private static func text(_ field: LooseString?) -> String? {
        guard let text = field?.value?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return nil
        }
        return text
    }

    /// Why one element of a list is skipped.
    private struct Skip: Error {
        let reason: String
    }

    /// Decodes a JSON array of objects with distinct positive ids: `read` makes each into an element or throws why
    /// it is skipped; an element that is not an object or has no id of its own is skipped too. Every skip is a
    /// warning naming the element (`describe` of its 1-based position).
    private static func decodeList<Element: Sendable>(
        _ body: [UInt8], what: String, describe: (Int) -> String, _ read: (Record, Int) throws(Skip) -> Element
    ) throws -> Decoded<Element> {
        let list: [Tolerant<Record>]
        do {
            list = try APIAnswer.decode([Tolerant<Record>].self, from: body)
        } catch {
            throw SourceError.unreadable(error, source: name, document: "the list of \(what)")
        }
        var decoded = Decoded<Element>()
        var seen = Set<Int>()
        for (index, element) in list.enumerated() {
            do throws(Skip) {
                guard let record = element.value else { throw Skip(reason: "it is not a JSON object") }
                guard let id = id(record), seen.insert(id).inserted else {
                    throw Skip(reason: "field “id” is missing, not a positive number or repeated")
                }
                decoded.elements.append(try read(record, id))
            } catch {
                decoded.warnings.append("Skipped \(describe(index + 1)): \(error.reason).")
            }
        }
        return decoded
    }

    static func decodeUsers(_ body: [UInt8]) throws -> Decoded<User> {
        try decodeList(body, what: "users", describe: { "user \($0)" }) { record, id throws(Skip) in
            let name = text(record.name)
            let username = text(record.username)
            guard let label = name ?? username else { throw Skip(reason: "it has neither “name” nor “username”") }
            return User(id: id, name: label, username: username ?? label)
        }
    }

    static func decodeAlbums(_ body: [UInt8], of user: User) throws -> Decoded<Album> {
        try decodeList(body, what: "albums of user \(user.id)", describe: { "album \($0) of user \(user.id)" }) {
            record, id throws(Skip) in
            if let owner = record.userId?.value, owner != user.id {
                throw Skip(reason: "it belongs to user \(owner)")
            }
            return Album(id: id, title: text(record.title) ?? "Album \(id)")
        }
    }

    static func decodePhotos(
        _ body: [UInt8], album: Album, rewrite: PlaceholderURLRewrite, license: License = JSONPlaceholderSource.license
    ) throws -> Decoded<SourceItem> {
        try decodeList(
            body, what: "photos of album \(album.id)", describe: { "photo \($0) of album \(album.id)" }
        ) { record, id throws(Skip) in
            let full = record.url?.value.flatMap(rewrite.rewrite)
            let tile = record.thumbnailUrl?.value.flatMap(rewrite.rewrite)
            guard let fullImage = full ?? tile, let tileImage = tile ?? full else {
                throw Skip(reason: "neither “url” nor “thumbnailUrl” is an image URL Vitrine can use")
            }
            return SourceItem(
                sourceID: String(id),
                entries: [
                    .found(
                        caption: text(record.title) ?? "", credit: nil, tile: tileImage, full: fullImage,
                        license: license)
                ])
        }
    }
}

/// Rewrites JSONPlaceholder's dead via.placeholder.com URLs to the agreed replacement:
/// `https://via.placeholder.com/600/92c952` → `https://picsum.photos/seed/92c952/600`. The colour code is kept as it
/// is (some are shorter than six digits); other http(s) URLs are left alone; anything else is refused.
public struct PlaceholderURLRewrite: Sendable {
    /// Lorem Picsum, which serves the seeded images that stand in for via.placeholder.com's.
    public static let defaultImageEndpoint = "https://picsum.photos"
    static let placeholderHost = "via.placeholder.com"

    /// The base the rewritten URLs start with, without a trailing slash.
    package var imageEndpoint: String

    package init(imageEndpoint: String = defaultImageEndpoint) {
        self.imageEndpoint = imageEndpoint.hasSuffix("/") ? String(imageEndpoint.dropLast()) : imageEndpoint
    }

    /// The picture `url` stands for, with its size as far as the URL says it; nil when it cannot be used.
    package func rewrite(_ url: String) -> RemoteImage? {
        guard let url = RemoteURLPolicy.accepted(url), let components = URLComponents(string: url) else { return nil }
        guard components.host?.lowercased() == Self.placeholderHost else { return RemoteImage(url: url) }
        let parts = components.path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2, let size = Self.size(parts[0]), let colour = Self.colour(parts[1]) else {
            return nil
        }
        return RemoteImage(url: "\(imageEndpoint)/seed/\(colour)/\(size)", width: size, height: size)
    }

    /// A size of 1 to 5000 pixels (Picsum's limit), in plain digits.
    private static func size(_ text: Substring) -> Int? {
        guard text.count <= 4, text.allSatisfy({ $0.isASCII && $0.isNumber }), let size = Int(text),
            (1...5_000).contains(size)
        else { return nil }
        return size
    }

    /// One to six hex digits, lowercased; a file extension (`.png`) is dropped.
    private static func colour(_ text: Substring) -> String? {
        let code = text.split(separator: ".", maxSplits: 1).first ?? ""
        guard (1...6).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        return code.lowercased()
    }
}
