import Foundation

/// The sample API's deterministic JSONPlaceholder data set, the real size: 10 users, 10 albums per user (100), 50
/// photos per album (5,000). Every record is a pure function of its id; photo URLs point to via.placeholder.com with a
/// hex colour code, exactly like the real API (so some codes are shorter than six digits).
package struct JSONPlaceholderCatalog: Sendable {
    package static let userCount = 10
    package static let albumsPerUser = 10
    package static let photosPerAlbum = 50
    package static var albumCount: Int { userCount * albumsPerUser }
    package static var photoCount: Int { albumCount * photosPerAlbum }

    /// The ten users of the real API: name, username, e-mail domain, city.
    private static let people: [(name: String, username: String, email: String, city: String)] = [
        ("Leanne Graham", "Bret", "Sincere@april.biz", "Gwenborough"),
        ("Ervin Howell", "Antonette", "Shanna@melissa.tv", "Wisokyburgh"),
        ("Clementine Bauch", "Samantha", "Nathan@yesenia.net", "McKenziehaven"),
        ("Patricia Lebsack", "Karianne", "Julianne.OConner@kory.org", "South Elvis"),
        ("Chelsey Dietrich", "Kamren", "Lucio_Hettinger@annie.ca", "Roscoeview"),
        ("Mrs. Dennis Schulist", "Leopoldo_Corkery", "Karley_Dach@jasper.info", "South Christy"),
        ("Kurtis Weissnat", "Elwyn.Skiles", "Telly.Hoeger@billy.biz", "Howemouth"),
        ("Nicholas Runolfsdottir V", "Maxime_Nienow", "Sherwood@rosamond.me", "Aliyaview"),
        ("Glenna Reichert", "Delphine", "Chaim_McDermott@dana.io", "Bartholomebury"),
        ("Clementina DuBuque", "Moriah.Stanton", "Rey.Padberg@karina.biz", "Lebsackbury"),
    ]

    /// Lorem-ipsum words, as JSONPlaceholder's titles are made of.
    private static let words = [
        "quidem", "molestiae", "enim", "sunt", "qui", "excepturi", "placeat", "culpa", "omnis", "laborum", "dolores",
        "accusamus", "beatae", "ad", "facilis", "cum", "similique", "reprehenderit", "officia", "porro", "iure",
        "quia", "iusto", "natus", "eos", "ut", "est", "voluptas", "harum", "repudiandae", "odio", "eaque",
        "dolorem", "aut", "doloribus", "distinctio", "vel", "labore", "rerum", "magnam", "nesciunt", "fugit",
        "velit", "saepe", "tenetur", "nihil", "consequatur", "voluptatem", "perspiciatis", "sequi",
    ]

    package init() {}

    /// A user of the data set, in the real API's shape (id, name, username, email, address, phone, website, company).
    func user(_ id: Int) -> OrderedJSON? {
        guard (1...Self.userCount).contains(id) else { return nil }
        let person = Self.people[id - 1]
        var random = SplitMix64(seed: PixabayCatalog.stableHash("jsonplaceholder-user:\(id)"))
        let slug = person.username.lowercased().replacingOccurrences(of: "_", with: "-")
        return .object([
            ("id", .int(id)), ("name", .string(person.name)), ("username", .string(person.username)),
            ("email", .string(person.email)),
            (
                "address",
                .object([
                    ("street", .string("\(Self.title(&random, words: 1).capitalized) Light")),
                    ("suite", .string("Apt. \(100 + random.next(below: 900))")), ("city", .string(person.city)),
                    ("zipcode", .string(Digits.decimal(random.next(below: 100_000), width: 5))),
                    (
                        "geo",
                        .object([
                            ("lat", .string(String(format: "%.4f", Double(random.next(below: 1_800_000)) / 1e4 - 90))),
                            ("lng", .string(String(format: "%.4f", Double(random.next(below: 3_600_000)) / 1e4 - 180))),
                        ])
                    ),
                ])
            ),
            ("phone", .string("1-770-736-\(Digits.decimal(random.next(below: 10_000), width: 4))")),
            ("website", .string("\(slug).example.org")),
            (
                "company",
                .object([
                    ("name", .string("\(person.name.split(separator: " ").last ?? "Acme") Group")),
                    ("catchPhrase", .string(Self.title(&random, words: 3))),
                    ("bs", .string(Self.title(&random, words: 3))),
                ])
            ),
        ])
    }

    /// Every user, by id.
    func users() -> [OrderedJSON] { (1...Self.userCount).compactMap(user) }

    /// An album: `{"userId":1,"id":1,"title":"quidem molestiae enim"}`.
    func album(_ id: Int) -> OrderedJSON? {
        guard (1...Self.albumCount).contains(id) else { return nil }
        var random = SplitMix64(seed: PixabayCatalog.stableHash("jsonplaceholder-album:\(id)"))
        let title = id == 1 ? "quidem molestiae enim" : Self.title(&random, words: 2 + random.next(below: 5))
        return .object([
            ("userId", .int((id - 1) / Self.albumsPerUser + 1)), ("id", .int(id)), ("title", .string(title)),
        ])
    }

    /// The albums of user `userID` (empty for an unknown user).
    func albums(ofUser userID: Int) -> [OrderedJSON] {
        guard (1...Self.userCount).contains(userID) else { return [] }
        let first = (userID - 1) * Self.albumsPerUser + 1
        return (first..<first + Self.albumsPerUser).compactMap(album)
    }

    /// Every album, by id.
    func albums() -> [OrderedJSON] { (1...Self.albumCount).compactMap(album) }

    /// The colour code of photo `id`: lowercase hex without leading zeros, as JavaScript's `toString(16)` writes
    /// a random number; every 97th photo gets a code of five digits or fewer, like the real data's.
    package static func colour(ofPhoto id: Int) -> String {
        var random = SplitMix64(seed: PixabayCatalog.stableHash("jsonplaceholder-photo:\(id)"))
        let value = random.next() % 0xFF_FFFF
        return String(id % 97 == 0 ? value >> (4 * (1 + id % 3)) : value, radix: 16)
    }

    /// A photo: `{"albumId":1,"id":1,"title":"…","url":"https://via.placeholder.com/600/92c952",
    /// "thumbnailUrl":"https://via.placeholder.com/150/92c952"}`.
    func photo(_ id: Int) -> OrderedJSON? {
        guard (1...Self.photoCount).contains(id) else { return nil }
        var random = SplitMix64(seed: PixabayCatalog.stableHash("jsonplaceholder-photo-title:\(id)"))
        let colour = id == 1 ? "92c952" : Self.colour(ofPhoto: id)
        let title =
            id == 1
            ? "accusamus beatae ad facilis cum similique qui sunt"
            : Self.title(&random, words: 3 + random.next(below: 6))
        return .object([
            ("albumId", .int((id - 1) / Self.photosPerAlbum + 1)), ("id", .int(id)), ("title", .string(title)),
            ("url", .string("https://via.placeholder.com/600/\(colour)")),
            ("thumbnailUrl", .string("https://via.placeholder.com/150/\(colour)")),
        ])
    }

    /// The photos of album `albumID` (empty for an unknown album).
    func photos(ofAlbum albumID: Int) -> [OrderedJSON] {
        guard (1...Self.albumCount).contains(albumID) else { return [] }
        let first = (albumID - 1) * Self.photosPerAlbum + 1
        return (first..<first + Self.photosPerAlbum).compactMap(photo)
    }

    /// Every photo, by id.
    func photos() -> [OrderedJSON] { (1...Self.photoCount).compactMap(photo) }

    private static func title(_ random: inout SplitMix64, words count: Int) -> String {
        (0..<max(1, count)).map { _ in words[random.next(below: words.count)] }.joined(separator: " ")
    }
}
