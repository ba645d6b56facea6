import Foundation

/// The photo sizes that Flickr's `url_X` extras name, with their file-name suffixes and longest edges.
///
/// The extra's letter is not the URL suffix: `url_s` is the 240-pixel `_m` file, `url_m` the 500-pixel file without
/// a suffix, `url_l` the 1024-pixel `_b` file (as on live.staticflickr.com).
public enum FlickrSize: String, CaseIterable, Sendable {
    /// Square 75 (`_s`).
    case sq
    /// Thumbnail 100 (`_t`).
    case t
    /// Small 240 (`_m`).
    case s
    /// Large square 150 (`_q`).
    case q
    /// Medium 500 (no suffix).
    case m
    /// Small 320 (`_n`).
    case n
    /// Small 400 (`_w`).
    case w
    /// Medium 640 (`_z`).
    case z
    /// Medium 800 (`_c`).
    case c
    /// Large 1024 (`_b`).
    case l
    /// Original (`_o`).
    case o

    /// The suffix after the secret in the file name, without the underscore; empty for the 500-pixel size.
    public var suffix: String {
        switch self {
        case .sq: "s"
        case .t: "t"
        case .s: "m"
        case .q: "q"
        case .m: ""
        case .n: "n"
        case .w: "w"
        case .z: "z"
        case .c: "c"
        case .l: "b"
        case .o: "o"
        }
    }

    /// Flickr's longest edge for the size; nil for the original.
    public var nominalEdge: Int? {
        switch self {
        case .sq: 75
        case .t: 100
        case .s: 240
        case .q: 150
        case .m: 500
        case .n: 320
        case .w: 400
        case .z: 640
        case .c: 800
        case .l: 1024
        case .o: nil
        }
    }

    /// The longest edge of the bundled rendition the sample API serves for the size (150, 640 or 1280).
    public var servedEdge: Int {
        guard let nominalEdge else { return 1280 }
        return nominalEdge <= 150 ? 150 : nominalEdge <= 640 ? 640 : 1280
    }

    /// The size whose file name ends in `_{suffix}.jpg` (`""` for none).
    public init?(suffix: String) {
        guard let size = Self.allCases.first(where: { $0.suffix == suffix }) else { return nil }
        self = size
    }
}

/// One `url_X` extra of a photo: the URL and the true pixel size of the JPEG it serves.
public struct FlickrPhotoSize: Sendable, Hashable {
    /// Which extra it is.
    public var size: FlickrSize
    /// `{base}/flickr/{server}/{id}_{secret}_{suffix}.jpg`.
    public var url: String
    /// Width in pixels, sent as `width_X`.
    public var width: Int
    /// Height in pixels, sent as `height_X`.
    public var height: Int

    public init(size: FlickrSize, url: String, width: Int, height: Int) {
        self.size = size
        self.url = url
        self.width = width
        self.height = height
    }
}

/// One element of a Flickr `photos.photo` list; the optional fields are present only when their extra was asked for.
///
/// Decoding accepts the sizes (`width_X`, `height_X`, `o_width`, `o_height`) as numbers or as strings of digits.
public struct FlickrPhoto: Sendable, Equatable, Decodable {
    public var id: String
    public var owner: String
    public var secret: String
    public var server: String
    public var farm: Int
    public var title: String
    public var isPublic: Int
    public var isFriend: Int
    public var isFamily: Int
    /// Extra `license`.
    public var license: String?
    /// Extra `description`, sent as `{"_content": …}`.
    public var description: String?
    /// Extra `o_dims`: `o_width`.
    public var originalWidth: Int?
    /// Extra `o_dims`: `o_height`.
    public var originalHeight: Int?
    /// Extra `date_upload`: `dateupload`, Unix seconds as a string.
    public var dateUpload: String?
    /// Extra `date_taken`: `datetaken`, `2024-05-01 13:22:11`.
    public var dateTaken: String?
    /// Extra `owner_name`: `ownername`.
    public var ownerName: String?
    /// Extra `views`.
    public var views: String?
    /// Extra `tags`: space-separated.
    public var tags: String?
    /// Extra `media`.
    public var media: String?
    /// The `url_X` extras, in ``FlickrSize`` order.
    public var sizes: [FlickrPhotoSize]

    /// The `url_X` extra for `size`, if it was asked for.
    public func size(_ size: FlickrSize) -> FlickrPhotoSize? {
        sizes.first { $0.size == size }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) {
            stringValue = name
        }

        init?(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    private struct Content: Decodable {
        var content: String

        enum CodingKeys: String, CodingKey {
            case content = "_content"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func string(_ name: String) throws -> String? {
            try container.decodeIfPresent(String.self, forKey: Key(name))
        }
        func required<T: Decodable>(_ type: T.Type, _ name: String) throws -> T {
            try container.decode(type, forKey: Key(name))
        }
        id = try required(String.self, "id")
        owner = try required(String.self, "owner")
        secret = try required(String.self, "secret")
        server = try required(String.self, "server")
        farm = try required(Int.self, "farm")
        title = try required(String.self, "title")
        isPublic = try required(Int.self, "ispublic")
        isFriend = try required(Int.self, "isfriend")
        isFamily = try required(Int.self, "isfamily")
        license = try string("license")
        description = try container.decodeIfPresent(Content.self, forKey: Key("description"))?.content
        originalWidth = try Self.flexibleInt(in: container, "o_width")
        originalHeight = try Self.flexibleInt(in: container, "o_height")
        dateUpload = try string("dateupload")
        dateTaken = try string("datetaken")
        ownerName = try string("ownername")
        views = try string("views")
        tags = try string("tags")
        media = try string("media")
        sizes = try FlickrSize.allCases.compactMap { size in
            guard let url = try string("url_\(size.rawValue)") else { return nil }
            return FlickrPhotoSize(
                size: size,
                url: url,
                width: try Self.flexibleInt(in: container, "width_\(size.rawValue)") ?? 0,
                height: try Self.flexibleInt(in: container, "height_\(size.rawValue)") ?? 0
            )
        }
    }

    init(
        id: String, owner: String, secret: String, title: String, sizes: [FlickrPhotoSize] = []
    ) {
        self.id = id
        self.owner = owner
        self.secret = secret
        self.server = FlickrCatalog.server
        self.farm = FlickrCatalog.farm
        self.title = title
        self.isPublic = 1
        self.isFriend = 0
        self.isFamily = 0
        self.sizes = sizes
    }

    /// An integer sent either as a JSON number or as a JSON string of digits.
    static func flexibleInt(in container: KeyedDecodingContainer<Key>, _ name: String) throws -> Int? {
        let key = Key(name)
        guard container.contains(key) else { return nil }
        if let number = try? container.decode(Int.self, forKey: key) {
            return number
        }
        let text = try container.decode(String.self, forKey: key)
        guard let number = Int(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "\(name) is neither a number nor a string of digits"
            )
        }
        return number
    }

    /// The photo as Flickr writes it, in Flickr's key order; sizes as strings when `numbersAsStrings`.
    func json(numbersAsStrings: Bool) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [
            ("id", .string(id)), ("owner", .string(owner)), ("secret", .string(secret)), ("server", .string(server)),
            ("farm", .int(farm)), ("title", .string(title)), ("ispublic", .int(isPublic)),
            ("isfriend", .int(isFriend)), ("isfamily", .int(isFamily)),
        ]
        if let license {
            members.append(("license", .string(license)))
        }
        if let description {
            members.append(("description", .object([("_content", .string(description))])))
        }
        if let originalWidth, let originalHeight {
            members.append(("o_width", .number(originalWidth, asString: numbersAsStrings)))
            members.append(("o_height", .number(originalHeight, asString: numbersAsStrings)))
        }
        if let dateUpload {
            members.append(("dateupload", .string(dateUpload)))
        }
        if let dateTaken {
            members += [
                ("datetaken", .string(dateTaken)), ("datetakengranularity", .int(0)),
                ("datetakenunknown", .string("0")),
            ]
        }
        if let ownerName {
            members.append(("ownername", .string(ownerName)))
        }
        if let views {
            members.append(("views", .string(views)))
        }
        if let tags {
            members.append(("tags", .string(tags)))
        }
        if let media {
            members += [("media", .string(media)), ("media_status", .string("ready"))]
        }
        for size in sizes {
            members += [
                ("url_\(size.size.rawValue)", .string(size.url)),
                ("height_\(size.size.rawValue)", .number(size.height, asString: numbersAsStrings)),
                ("width_\(size.size.rawValue)", .number(size.width, asString: numbersAsStrings)),
            ]
        }
        return .object(members)
    }
}

/// The `photos` object of a successful `flickr.photos.search` or `flickr.photos.getRecent` response.
///
/// Flickr's types have drifted over the years, and the sample API reproduces that deterministically: on odd pages
/// `total` and every `width_X`, `height_X`, `o_width` and `o_height` are strings (`"1000"`), on even pages numbers.
/// Decoding accepts both.
public struct FlickrPhotoList: Sendable, Equatable, Decodable {
    public var page: Int
    public var pages: Int
    public var perPage: Int
    public var total: Int
    public var photos: [FlickrPhoto]

    /// Whether this page sends `total` and the photo sizes as strings: true on odd pages.
    public var numbersAsStrings: Bool {
        page % 2 != 0
    }

    public init(page: Int, pages: Int, perPage: Int, total: Int, photos: [FlickrPhoto]) {
        self.page = page
        self.pages = pages
        self.perPage = perPage
        self.total = total
        self.photos = photos
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FlickrPhoto.Key.self)
        page = try container.decode(Int.self, forKey: .init("page"))
        pages = try container.decode(Int.self, forKey: .init("pages"))
        perPage = try container.decode(Int.self, forKey: .init("perpage"))
        total = try FlickrPhoto.flexibleInt(in: container, "total") ?? 0
        photos = try container.decode([FlickrPhoto].self, forKey: .init("photo"))
    }

    /// The whole success body, `{"photos":{…},"stat":"ok"}`.
    var responseJSON: OrderedJSON {
        let strings = numbersAsStrings
        let list = OrderedJSON.object([
            ("page", .int(page)), ("pages", .int(pages)), ("perpage", .int(perPage)),
            ("total", .number(total, asString: strings)),
            ("photo", .array(photos.map { $0.json(numbersAsStrings: strings) })),
        ])
        return .object([("photos", list), ("stat", .string("ok"))])
    }
}

/// The body of a successful Flickr REST photo-list call: `{"photos": {…}, "stat": "ok"}`.
public struct FlickrPhotosResponse: Sendable, Equatable, Decodable {
    public var photos: FlickrPhotoList
    public var stat: String
}

/// One row of the `flickr.photos.licenses.getInfo` table: the id a photo's `license` extra carries, Flickr's name for
/// the license and the URL of its terms (empty for All Rights Reserved).
///
/// Decoding accepts the id as a JSON string (`"4"`, as Flickr sends it) or as a number.
public struct FlickrLicense: Sendable, Hashable, Decodable {
    public var id: String
    public var name: String
    public var url: String

    public init(id: String, name: String, url: String) {
        self.id = id
        self.name = name
        self.url = url
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FlickrPhoto.Key.self)
        let idKey = FlickrPhoto.Key("id")
        if let number = try? container.decode(Int.self, forKey: idKey) {
            id = String(number)
        } else {
            id = try container.decode(String.self, forKey: idKey)
        }
        name = try container.decode(String.self, forKey: .init("name"))
        url = try container.decode(String.self, forKey: .init("url"))
    }

    var json: OrderedJSON {
        .object([("id", .string(id)), ("name", .string(name)), ("url", .string(url))])
    }
}

/// The body of a successful `flickr.photos.licenses.getInfo`: `{"licenses":{"license":[…]},"stat":"ok"}`.
public struct FlickrLicensesResponse: Sendable, Equatable, Decodable {
    /// The rows of `licenses.license`, in the order sent.
    public var licenses: [FlickrLicense]
    public var stat: String

    public init(licenses: [FlickrLicense]) {
        self.licenses = licenses
        self.stat = "ok"
    }

    private struct Table: Decodable {
        var license: [FlickrLicense]
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FlickrPhoto.Key.self)
        licenses = try container.decode(Table.self, forKey: .init("licenses")).license
        stat = try container.decode(String.self, forKey: .init("stat"))
    }

    /// The whole body, in Flickr's key order.
    var json: OrderedJSON {
        .object([
            ("licenses", .object([("license", .array(licenses.map(\.json)))])), ("stat", .string(stat)),
        ])
    }
}

/// The body of a failed Flickr REST call, sent with HTTP 200: `{"stat":"fail","code":100,"message":"…"}`.
public struct FlickrFailure: Sendable, Equatable, Decodable, Error {
    public var stat: String
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.stat = "fail"
        self.code = code
        self.message = message
    }

    /// Code 100, the answer to a missing or wrong `api_key`.
    public static let invalidKey = FlickrFailure(code: 100, message: "Invalid API Key (Key has invalid format)")
    /// Code 3, the answer to `flickr.photos.search` without `text` and `tags`.
    public static let parameterlessSearch = FlickrFailure(
        code: 3,
        message: "Parameterless searches have been disabled. Please use flickr.photos.getRecent instead."
    )
    /// Code 20, the answer to a search page that reaches past the first 4,000 results.
    public static let excessiveOffset = FlickrFailure(
        code: 20,
        message: "Sorry, the Flickr search API will not return more than 4000 photos for any given search query. "
            + "Please try again with a more specific query."
    )

    /// Code 112, the answer to an unknown `method`.
    public static func unknownMethod(_ method: String) -> FlickrFailure {
        FlickrFailure(code: 112, message: "Method \"\(method)\" not found")
    }

    var json: OrderedJSON {
        .object([("stat", .string(stat)), ("code", .int(code)), ("message", .string(message))])
    }
}

/// The public photo feed, `photos_public.gne?format=json`, once its `\'` escapes are replaced by `'`.
public struct FlickrFeed: Sendable, Equatable, Decodable {
    public var title: String
    public var link: String
    public var description: String
    public var modified: String
    public var generator: String
    public var items: [FlickrFeedItem]

    /// The feed as Flickr writes it: JSON in which every `'` is escaped as `\'`, which makes it invalid JSON.
    var quirkyBody: Data {
        let json = OrderedJSON.object([
            ("title", .string(title)), ("link", .string(link)), ("description", .string(description)),
            ("modified", .string(modified)), ("generator", .string(generator)),
            ("items", .array(items.map(\.json))),
        ])
        return Data(json.serialized.replacingOccurrences(of: "'", with: "\\'").utf8)
    }
}

/// One item of the public photo feed. Its only size information is inside the `description` HTML.
public struct FlickrFeedItem: Sendable, Equatable, Decodable {
    /// The `media` object: `m` is the URL of the 240-pixel `_m` file.
    public struct Media: Sendable, Equatable, Decodable {
        public var m: String
    }

    public var title: String
    /// `https://www.flickr.com/photos/{owner}/{id}/`.
    public var link: String
    public var media: Media
    /// `2026-11-19T18:42:10-08:00`.
    public var dateTaken: String
    /// HTML naming the author and embedding the `_m` image with its true width and height.
    public var description: String
    /// `2026-11-20T09:12:33Z`.
    public var published: String
    /// `nobody@flickr.com ("name")`.
    public var author: String
    public var authorID: String
    /// Space-separated.
    public var tags: String

    enum CodingKeys: String, CodingKey {
        case title, link, media
        case dateTaken = "date_taken"
        case description, published, author
        case authorID = "author_id"
        case tags
    }

    var json: OrderedJSON {
        .object([
            ("title", .string(title)), ("link", .string(link)), ("media", .object([("m", .string(media.m))])),
            ("date_taken", .string(dateTaken)), ("description", .string(description)),
            ("published", .string(published)), ("author", .string(author)), ("author_id", .string(authorID)),
            ("tags", .string(tags)),
        ])
    }
}
