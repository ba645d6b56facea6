import Foundation

/// The photo sizes that Flickr's `url_X` extras name, with their file-name suffixes and longest edges.
///
/// The extra's letter is not the URL suffix: `url_s` is the 240-pixel `_m` file, `url_m` the 500-pixel file without
/// a suffix, `url_l` the 1024-pixel `_b` file (as on live.staticflickr.com).
package enum FlickrSize: String, CaseIterable, Sendable {
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
    package var suffix: String {
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
    package var nominalEdge: Int? {
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
    package var servedEdge: Int {
        guard let nominalEdge else { return 1280 }
        return nominalEdge <= 150 ? 150 : nominalEdge <= 640 ? 640 : 1280
    }

    /// The size whose file name ends in `_{suffix}.jpg` (`""` for none).
    package init?(suffix: String) {
        guard let size = Self.allCases.first(where: { $0.suffix == suffix }) else { return nil }
        self = size
    }
}

/// One `url_X` extra of a photo: the URL and the true pixel size of the JPEG it serves.
package struct FlickrPhotoSize: Sendable, Hashable {
    /// Which extra it is.
    package var size: FlickrSize
    /// `{base}/flickr/{server}/{id}_{secret}_{suffix}.jpg`.
    package var url: String
    /// Width in pixels, sent as `width_X`.
    package var width: Int
    /// Height in pixels, sent as `height_X`.
    package var height: Int

    package init(size: FlickrSize, url: String, width: Int, height: Int) {
        self.size = size
        self.url = url
        self.width = width
        self.height = height
    }
}

/// One element of a Flickr `photos.photo` list; the optional fields are present only when their extra was asked for.
///
/// Decoding accepts the sizes (`width_X`, `height_X`, `o_width`, `o_height`) as numbers or as strings of digits.
package struct FlickrPhoto: Sendable, Equatable, Decodable {
    package var id: String
    package var owner: String
    package var secret: String
    package var server: String
    package var farm: Int
    package var title: String
    package var isPublic: Int
    package var isFriend: Int
    package var isFamily: Int
    /// Extra `license`.
    package var license: String?
    /// Extra `description`, sent as `{"_content": …}`.
    package var description: String?
    /// Extra `o_dims`: `o_width`.
    package var originalWidth: Int?
    /// Extra `o_dims`: `o_height`.
    package var originalHeight: Int?
    /// Extra `date_upload`: `dateupload`, Unix seconds as a string.
    package var dateUpload: String?
    /// Extra `date_taken`: `datetaken`, `2024-05-01 13:22:11`.
    package var dateTaken: String?
    /// Extra `owner_name`: `ownername`.
    package var ownerName: String?
    /// Extra `views`.
    package var views: String?
    /// Extra `tags`: space-separated.
    package var tags: String?
    /// Extra `media`.
    package var media: String?
    /// The `url_X` extras, in ``FlickrSize`` order.
    package var sizes: [FlickrPhotoSize]

    /// The `url_X` extra for `size`, if it was asked for.
    package func size(_ size: FlickrSize) -> FlickrPhotoSize? {
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

    package init(from decoder: any Decoder) throws {
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
