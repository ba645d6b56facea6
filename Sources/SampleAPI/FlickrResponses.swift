import Foundation

/// The `photos` object of a successful `flickr.photos.search` or `flickr.photos.getRecent` response.
///
/// Flickr's types have drifted over the years, and the sample API reproduces that deterministically: on odd pages
/// `total` and every `width_X`, `height_X`, `o_width` and `o_height` are strings (`"1000"`), on even pages numbers.
/// Decoding accepts both.
package struct FlickrPhotoList: Sendable, Equatable, Decodable {
    package var page: Int
    package var pages: Int
    package var perPage: Int
    package var total: Int
    package var photos: [FlickrPhoto]

    /// Whether this page sends `total` and the photo sizes as strings: true on odd pages.
    package var numbersAsStrings: Bool {
        page % 2 != 0
    }

    package init(page: Int, pages: Int, perPage: Int, total: Int, photos: [FlickrPhoto]) {
        self.page = page
        self.pages = pages
        self.perPage = perPage
        self.total = total
        self.photos = photos
    }

    package init(from decoder: any Decoder) throws {
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
package struct FlickrPhotosResponse: Sendable, Equatable, Decodable {
    package var photos: FlickrPhotoList
    package var stat: String
}

/// One row of the `flickr.photos.licenses.getInfo` table: the id a photo's `license` extra carries, Flickr's name for
/// the license and the URL of its terms (for All Rights Reserved, a help page now; empty in older tables).
///
/// Decoding accepts the id as a JSON string (`"4"`, as Flickr sends it) or as a number.
package struct FlickrLicense: Sendable, Hashable, Decodable {
    package var id: String
    package var name: String
    package var url: String

    package init(id: String, name: String, url: String) {
        self.id = id
        self.name = name
        self.url = url
    }

    package init(from decoder: any Decoder) throws {
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
package struct FlickrLicensesResponse: Sendable, Equatable, Decodable {
    /// The rows of `licenses.license`, in the order sent.
    package var licenses: [FlickrLicense]
    package var stat: String

    package init(licenses: [FlickrLicense]) {
        self.licenses = licenses
        self.stat = "ok"
    }

    private struct Table: Decodable {
        var license: [FlickrLicense]
    }

    package init(from decoder: any Decoder) throws {
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
package struct FlickrFailure: Sendable, Equatable, Decodable, Error {
    package var stat: String
    package var code: Int
    package var message: String

    package init(code: Int, message: String) {
        self.stat = "fail"
        self.code = code
        self.message = message
    }

    /// Code 100, the answer to a missing or wrong `api_key`.
    package static let invalidKey = FlickrFailure(code: 100, message: "Invalid API Key (Key has invalid format)")
    /// Code 3, the answer to `flickr.photos.search` without `text` and `tags`.
    package static let parameterlessSearch = FlickrFailure(
        code: 3,
        message: "Parameterless searches have been disabled. Please use flickr.photos.getRecent instead."
    )
    /// Code 20, the answer to a search page that reaches past the first 4,000 results.
    package static let excessiveOffset = FlickrFailure(
        code: 20,
        message: "Sorry, the Flickr search API will not return more than 4000 photos for any given search query. "
            + "Please try again with a more specific query."
    )

    /// Code 112, the answer to an unknown `method`.
    package static func unknownMethod(_ method: String) -> FlickrFailure {
        FlickrFailure(code: 112, message: "Method \"\(method)\" not found")
    }

    var json: OrderedJSON {
        .object([("stat", .string(stat)), ("code", .int(code)), ("message", .string(message))])
    }
}

/// The public photo feed, `photos_public.gne?format=json`, once its `\'` escapes are replaced by `'`.
package struct FlickrFeed: Sendable, Equatable, Decodable {
    package var title: String
    package var link: String
    package var description: String
    package var modified: String
    package var generator: String
    package var items: [FlickrFeedItem]

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
package struct FlickrFeedItem: Sendable, Equatable, Decodable {
    /// The `media` object: `m` is the URL of the 240-pixel `_m` file.
    package struct Media: Sendable, Equatable, Decodable {
        package var m: String
    }

    package var title: String
    /// `https://www.flickr.com/photos/{owner}/{id}/`.
    package var link: String
    package var media: Media
    /// `2026-11-19T18:42:10-08:00`.
    package var dateTaken: String
    /// HTML naming the author and embedding the `_m` image with its true width and height.
    package var description: String
    /// `2026-11-20T09:12:33Z`.
    package var published: String
    /// `nobody@flickr.com ("name")`.
    package var author: String
    package var authorID: String
    /// Space-separated.
    package var tags: String

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
