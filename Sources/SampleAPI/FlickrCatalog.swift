import Foundation

/// Which photo list a Flickr request asks for.
package enum FlickrListing: Sendable, Hashable {
    /// `flickr.photos.getRecent`: the latest public photos, city and graffiti pictures mixed.
    case recent
    /// `flickr.photos.search` for a term made by ``FlickrCatalog/searchTerm(text:tags:)``.
    case search(String)
}

/// The sample API's deterministic Flickr: photo lists, photos and the public feed as pure functions of the request.
///
/// Photo `i` of a listing depends only on the listing and `i` (plus the server's base URL). A photo's id encodes its
/// picture (`5` + 7 digits + theme digit + two-digit picture number) and its secret is a hash of the id, so a fresh
/// server serves image URLs handed out by an earlier one.
///
/// Licenses follow ``licenses``, the `flickr.photos.licenses.getInfo` table: photo `i` carries
/// ``license(at:in:)``, which takes no randomness from the photo's other fields, so asking for the `license` extra
/// changes nothing else. The licenses run in a cycle of 60 photos that the listing shuffles, made of six blocks of ten
/// photos, each block holding four All Rights Reserved (id 0), two CC 2.0 (1–6), two public-domain (7–10) and two
/// CC 4.0 (11–16) photos; every id of a group comes up equally often in a cycle. So any 19 photos in a row, and any
/// page of 20, hold all four groups, an id above 10 among them.
package struct FlickrCatalog: Sendable {
    /// `total` of `flickr.photos.getRecent`.
    package static let recentTotal = 1000
    /// How far into its results a search may page (`page * per_page`); further pages fail with code 20.
    package static let searchLimit = 4000
    /// `per_page` when the request has none.
    package static let defaultPerPage = 100
    /// The largest `per_page`; larger values are treated as this.
    package static let maxPerPage = 500
    /// How many items the public feed has at most.
    package static let feedLength = 20
    /// Every photo's `server`.
    package static let server = "65535"
    /// Every photo's `farm`.
    package static let farm = 66
    /// The moment the sample Flickr considers "now": 2026-11-20T10:00:00Z, the feed's `modified`.
    package static let referenceTime = 1_795_168_800

    private static let owners: [(nsid: String, name: String)] = [
        ("143425468@N05", "elbfoto"), ("28460331@N02", "Harbour Lights"), ("99817022@N07", "Jan Kranführer"),
        ("61203947@N03", "nordlicht.photo"), ("187732410@N04", "Speicherstadt Walks"), ("33109585@N08", "greycanvas"),
        ("120448816@N06", "Mara Deichblick"), ("7650293@N05", "pixelpier"), ("156093274@N02", "nightferry"),
        ("44120985@N03", "Wandmaler Kollektiv"),
    ]
    private static let cityWords = [
        "harbour", "ship", "crane", "warehouse", "bridge", "river", "skyline", "dusk", "street", "canal", "brick",
        "tower", "port", "architecture", "night", "water", "building",
    ]
    private static let graffitiWords = [
        "wall", "spray", "streetart", "mural", "colour", "urban", "paint", "tag", "stencil", "lettering",
        "underground", "alley", "concrete", "artist",
    ]
    private static let places = ["Hamburg", "Altona", "Ottensen", "Wilhelmsburg", "HafenCity", "Veddel"]

    /// The `flickr.photos.licenses.getInfo` table as Flickr answers it now: ids 0–10 as Flickr has long listed them
    /// (All Rights Reserved with a help page for its URL, the United States Government Work on usa.gov), then the
    /// Creative Commons 4.0 family (11–16) that it added later. Every photo's `license` is one of these.
    package static let licenses: [FlickrLicense] = [
        FlickrLicense(
            id: "0", name: "All Rights Reserved",
            url:
                "https://www.flickrhelp.com/hc/en-us/articles/10710266545556-Using-Flickr-images-shared-by-other-members"
        ),
        FlickrLicense(id: "1", name: "CC BY-NC-SA 2.0", url: "https://creativecommons.org/licenses/by-nc-sa/2.0/"),
        FlickrLicense(id: "2", name: "CC BY-NC 2.0", url: "https://creativecommons.org/licenses/by-nc/2.0/"),
        FlickrLicense(id: "3", name: "CC BY-NC-ND 2.0", url: "https://creativecommons.org/licenses/by-nc-nd/2.0/"),
        FlickrLicense(id: "4", name: "CC BY 2.0", url: "https://creativecommons.org/licenses/by/2.0/"),
        FlickrLicense(id: "5", name: "CC BY-SA 2.0", url: "https://creativecommons.org/licenses/by-sa/2.0/"),
        FlickrLicense(id: "6", name: "CC BY-ND 2.0", url: "https://creativecommons.org/licenses/by-nd/2.0/"),
        FlickrLicense(id: "7", name: "No known copyright restrictions", url: "https://www.flickr.com/commons/usage/"),
        FlickrLicense(
            id: "8", name: "United States Government Work", url: "https://www.usa.gov/government-copyright"),
        FlickrLicense(
            id: "9", name: "Public Domain Dedication (CC0)", url: "https://creativecommons.org/publicdomain/zero/1.0/"),
        FlickrLicense(id: "10", name: "Public Domain Mark", url: "https://creativecommons.org/publicdomain/mark/1.0/"),
        FlickrLicense(id: "11", name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/"),
        FlickrLicense(id: "12", name: "CC BY-SA 4.0", url: "https://creativecommons.org/licenses/by-sa/4.0/"),
        FlickrLicense(id: "13", name: "CC BY-ND 4.0", url: "https://creativecommons.org/licenses/by-nd/4.0/"),
        FlickrLicense(id: "14", name: "CC BY-NC 4.0", url: "https://creativecommons.org/licenses/by-nc/4.0/"),
        FlickrLicense(id: "15", name: "CC BY-NC-SA 4.0", url: "https://creativecommons.org/licenses/by-nc-sa/4.0/"),
        FlickrLicense(id: "16", name: "CC BY-NC-ND 4.0", url: "https://creativecommons.org/licenses/by-nc-nd/4.0/"),
    ]

    /// The license groups of the cycle, with how many photos of each block of ten carry one of the group's ids: All
    /// Rights Reserved, CC 2.0, public domain (no known restrictions, US government, CC0, mark), CC 4.0.
    static let licenseGroups: [(ids: [String], perBlock: Int)] = [
        (["0"], 4), (["1", "2", "3", "4", "5", "6"], 2), (["7", "8", "9", "10"], 2),
        (["11", "12", "13", "14", "15", "16"], 2),
    ]
    /// The length of the license cycle: six blocks of ten, so that every id of a group comes up equally often.
    static let licenseCycleLength = 60

    private let counts: [String: Int]
    private let images: SampleImages

    /// The largest search `total` a configured count can set.
    package static let maxConfiguredTotal = 1_000_000_000

    /// `counts` overrides the search `total` per term; keys are normalised like search terms, values clamped to
    /// `0...1_000_000_000`.
    package init(counts: [String: Int] = [:], images: SampleImages = .bundled) {
        var normalised: [String: Int] = [:]
        for (term, count) in counts {
            normalised[PixabayCatalog.normalize(term)] = min(max(count, 0), Self.maxConfiguredTotal)
        }
        self.counts = normalised
        self.images = images
    }

    /// The search term of `flickr.photos.search`: `text` and the comma-separated `tags`, joined, normalised.
    package static func searchTerm(text: String?, tags: String?) -> String {
        let tagWords = (tags ?? "").replacingOccurrences(of: ",", with: " ")
        return PixabayCatalog.normalize("\(text ?? "") \(tagWords)")
    }

    /// `total` of `listing`: 1000 for recent; for a search the configured count, 0 when the term contains `nothing`,
    /// else `40 + stableHash(term) % 2000`.
    package func total(of listing: FlickrListing) -> Int {
        switch listing {
        case .recent:
            return Self.recentTotal
        case .search(let term):
            let term = PixabayCatalog.normalize(term)
            if let count = counts[term] {
                return count
            }
            if term.contains("nothing") {
                return 0
            }
            return 40 + Int(PixabayCatalog.stableHash(term) % 2000)
        }
    }

    /// How many photos of `listing` can be paged to: all of a recent list, at most 4,000 of a search.
    package func reachable(in listing: FlickrListing) -> Int {
        if case .search = listing {
            return min(total(of: listing), Self.searchLimit)
        }
        return total(of: listing)
    }

    /// Page `page` (1-based) of `perPage` photos with `extras` (Flickr's comma-list names); past the end: no photos.
    ///
    /// `licenses`, the ids of a `license=` filter (see ``licenseFilter(_:)``), narrows the list to the photos that
    /// carry one of them: the filtered list is, in order, those of the first ``reachable(in:)`` photos of the
    /// unfiltered list whose ``license(at:in:)`` is in the set, each one the very photo the unfiltered list has at its
    /// index. `total` and `pages` count the filtered list, so they shrink with the filter and a filtered search's
    /// `total` is at most 4,000; an empty set gives no photos and `total` 0. Photos therefore depend only on the
    /// listing, the filter, the position and `extras`. (The REST route passes the filter for `flickr.photos.search`
    /// only: `flickr.photos.getRecent` ignores `license=`, as Flickr's does.)
    package func page(
        of listing: FlickrListing,
        page: Int,
        perPage: Int,
        extras: [String] = [],
        licenses: Set<String>? = nil,
        baseURL: String
    ) -> FlickrPhotoList {
        let perPage = max(perPage, 1)
        var total = total(of: listing)
        var reachable = reachable(in: listing)
        var index: (Int) -> Int = { $0 }
        if let licenses {
            let cycle = Self.licenseCycle(of: listing)
            let slots = cycle.indices.filter { licenses.contains(cycle[$0]) }
            let length = Self.licenseCycleLength
            let matching =
                slots.isEmpty ? 0 : reachable / length * slots.count + slots.filter { $0 < reachable % length }.count
            total = matching
            reachable = matching
            index = { position in position / slots.count * length + slots[position % slots.count] }
        }
        let lastPage = (reachable + perPage - 1) / perPage
        var photos: [FlickrPhoto] = []
        if page >= 1, page <= lastPage {
            let start = (page - 1) * perPage
            photos = (start..<min(start + perPage, reachable)).map {
                photo(at: index($0), in: listing, extras: extras, baseURL: baseURL)
            }
        }
        return FlickrPhotoList(
            page: page,
            pages: (total + perPage - 1) / perPage,
            perPage: perPage,
            total: total,
            photos: photos
        )
    }

    /// Photo `index` (0-based, below 4,000) of `listing` with `extras`, whose URLs start with `baseURL`.
    package func photo(at index: Int, in listing: FlickrListing, extras: [String] = [], baseURL: String) -> FlickrPhoto
    {
        precondition((0..<Self.searchLimit).contains(index), "photo index out of range")
        let details = details(at: index, in: listing)
        let extras = Set(extras.map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
        var photo = FlickrPhoto(id: details.id, owner: details.owner.nsid, secret: details.secret, title: details.title)
        var random = details.random
        if extras.contains("license") {
            photo.license = Self.license(at: index, in: listing)
        }
        if extras.contains("description") {
            photo.description = details.description
        }
        let original = images.image(theme: details.theme, number: details.number, size: 1280)
        if extras.contains("o_dims"), let original {
            photo.originalWidth = original.width
            photo.originalHeight = original.height
        }
        if extras.contains("date_upload") {
            photo.dateUpload = String(details.uploaded)
        }
        if extras.contains("date_taken") {
            photo.dateTaken = CivilTime.dateTime(details.taken)
        }
        if extras.contains("owner_name") {
            photo.ownerName = details.owner.name
        }
        if extras.contains("views") {
            photo.views = String(3 + random.next(below: 40_000))
        }
        if extras.contains("tags") {
            photo.tags = details.tags
        }
        if extras.contains("media") {
            photo.media = "photo"
        }
        photo.sizes = FlickrSize.allCases.compactMap { size in
            guard extras.contains("url_\(size.rawValue)"),
                let image = images.image(theme: details.theme, number: details.number, size: size.servedEdge)
            else { return nil }
            return FlickrPhotoSize(
                size: size,
                url: Self.imageURL(baseURL: baseURL, id: details.id, secret: details.secret, size: size),
                width: image.width,
                height: image.height
            )
        }
        return photo
    }

    /// The public feed for `tags` (a comma list; none: everyone's uploads): the latest of up to 20 photos, newest first.
    package func feed(tags: String?, baseURL: String) -> FlickrFeed {
        let tagList = (tags ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let listing: FlickrListing = tagList.isEmpty ? .recent : .search(Self.searchTerm(text: nil, tags: tags))
        let count = min(Self.feedLength, reachable(in: listing))
        let items = (0..<count).map { feedItem(at: $0, in: listing, baseURL: baseURL) }
            .sorted { ($0.published, $0.link) > ($1.published, $1.link) }
        let joinedTags = tagList.joined(separator: ",")
        return FlickrFeed(
            title: tagList.isEmpty ? "Uploads from everyone" : "Recent Uploads tagged \(joinedTags)",
            link: tagList.isEmpty
                ? "https://www.flickr.com/photos/" : "https://www.flickr.com/photos/tags/\(joinedTags)/",
            description: "",
            modified: CivilTime.iso8601(Self.referenceTime),
            generator: "https://www.flickr.com",
            items: items
        )
    }

    private func feedItem(at index: Int, in listing: FlickrListing, baseURL: String) -> FlickrFeedItem {
        let details = details(at: index, in: listing)
        let mediaURL = Self.imageURL(baseURL: baseURL, id: details.id, secret: details.secret, size: .s)
        let media = images.image(theme: details.theme, number: details.number, size: FlickrSize.s.servedEdge)
        let link = "https://www.flickr.com/photos/\(details.owner.nsid)/\(details.id)/"
        let title = Self.escapeHTML(details.title)
        let description =
            " <p><a href=\"https://www.flickr.com/people/\(details.owner.nsid)/\">\(Self.escapeHTML(details.owner.name))"
            + "</a> posted a photo:</p> <p><a href=\"\(link)\" title=\"\(title)\"><img src=\"\(mediaURL)\" "
            + "width=\"\(media?.width ?? 0)\" height=\"\(media?.height ?? 0)\" alt=\"\(title)\" /></a></p> "
        return FlickrFeedItem(
            title: details.title,
            link: link,
            media: FlickrFeedItem.Media(m: mediaURL),
            dateTaken: CivilTime.dateTime(details.taken - 8 * 3600, separator: "T") + "-08:00",
            description: description,
            published: CivilTime.iso8601(details.uploaded),
            // Both forms the real feed sends: with inner quotes, and the older one without (group pools).
            author: details.number.isMultiple(of: 2)
                ? "nobody@flickr.com (\"\(details.owner.name)\")" : "nobody@flickr.com (\(details.owner.name))",
            authorID: details.owner.nsid,
            tags: details.tags
        )
    }

    /// The bundled rendition that `/flickr/{server}/{file}` serves, or nil when the name is not one this catalogue
    /// hands out (wrong server, malformed id, unknown picture, wrong secret or unknown suffix).
    package func image(server: String, file: String) -> SampleImage? {
        guard server == Self.server, file.hasSuffix(".jpg") else { return nil }
        let parts = file.dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let size = FlickrSize(suffix: parts.count == 3 ? String(parts[2]) : ""),
            parts.count == 2 || size != .m,
            let picture = Self.picture(forPhotoID: String(parts[0])),
            parts[1] == Self.secret(forPhotoID: String(parts[0]))
        else {
            return nil
        }
        return images.image(theme: picture.theme, number: picture.number, size: size.servedEdge)
    }

    /// The theme and picture number encoded in a photo id this catalogue made, or nil for any other text.
    package static func picture(forPhotoID id: String) -> (theme: String, number: Int)? {
        let digits = Array(id)
        guard digits.count == 11, digits.first == "5", digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(String(digits[9...])), number >= 1
        else {
            return nil
        }
        switch digits[8] {
        case "1": return ("city", number)
        case "2": return ("graffiti", number)
        default: return nil
        }
    }

    /// The 10-hex-digit secret of photo `id`.
    package static func secret(forPhotoID id: String) -> String {
        Digits.hex(PixabayCatalog.stableHash("flickr-secret:\(id)"), width: 10)
    }

    /// `{baseURL}/flickr/65535/{id}_{secret}_{suffix}.jpg` (`{id}_{secret}.jpg` for the 500-pixel size).
    package static func imageURL(baseURL: String, id: String, secret: String, size: FlickrSize) -> String {
        let suffix = size.suffix.isEmpty ? "" : "_\(size.suffix)"
        return "\(baseURL)/flickr/\(server)/\(id)_\(secret)\(suffix).jpg"
    }

    private struct Details {
        var id: String
        var secret: String
        var theme: String
        var number: Int
        var owner: (nsid: String, name: String)
        var title: String
        var description: String
        var tags: String
        var uploaded: Int
        var taken: Int
        var random: SplitMix64
    }

    private func details(at index: Int, in listing: FlickrListing) -> Details {
        let term: String
        switch listing {
        case .recent: term = ""
        case .search(let searchTerm): term = PixabayCatalog.normalize(searchTerm)
        }
        let hash = PixabayCatalog.stableHash(listing == .recent ? "flickr-recent" : "flickr-search:\(term)")
        var random = SplitMix64(seed: hash ^ (UInt64(index) &* 0x9e37_79b9_7f4a_7c15))
        let theme: String
        switch listing {
        case .recent: theme = random.next(below: 3) == 0 ? "graffiti" : "city"
        case .search: theme = term.contains("graffiti") ? "graffiti" : "city"
        }
        let pictureCount = max(images.pictureCount(theme: theme), 1)
        let number = (Int(hash % UInt64(pictureCount)) + index * 7) % pictureCount + 1
        let serial = Int(hash % 2000) * Self.searchLimit + index
        let id = "5\(Digits.decimal(serial, width: 7))\(theme == "graffiti" ? 2 : 1)\(Digits.decimal(number, width: 2))"

        let words = theme == "graffiti" ? Self.graffitiWords : Self.cityWords
        let firstIndex = random.next(below: words.count)
        let first = words[firstIndex]
        let second = words[(firstIndex + 1 + random.next(below: words.count - 1)) % words.count]
        let place = Self.places[random.next(below: Self.places.count)]
        let subject = term.split(separator: " ").first.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? place
        let owner = Self.owners[random.next(below: Self.owners.count)]
        let uploaded: Int
        switch listing {
        case .recent: uploaded = Self.referenceTime - 60 - index * 420 - random.next(below: 400)
        case .search: uploaded = Self.referenceTime - 3600 - random.next(below: 3 * 365 * 86_400)
        }
        let taken = uploaded - random.next(below: 5 * 86_400)
        let queryTags = term.split(separator: " ").map(String.init)
        var tags = queryTags
        for word in [first, second, theme == "graffiti" ? "graffiti" : place.lowercased()] where !tags.contains(word) {
            tags.append(word)
        }
        return Details(
            id: id,
            secret: Self.secret(forPhotoID: id),
            theme: theme,
            number: number,
            owner: owner,
            title: Self.title(variant: index % 7, subject: subject, first: first, second: second, random: &random),
            description: "Taken near the \(first) in \(place).",
            tags: tags.joined(separator: " "),
            uploaded: uploaded,
            taken: taken,
            random: random
        )
    }

    /// A title; variants 2 and 6 contain an apostrophe (`Hamburg's harbour`, `The crane's dusk`).
    private static func title(
        variant: Int,
        subject: String,
        first: String,
        second: String,
        random: inout SplitMix64
    ) -> String {
        let capitalised = first.prefix(1).uppercased() + first.dropFirst()
        switch variant {
        case 0: return "\(subject) \(first)"
        case 1: return "\(capitalised) at \(second)"
        case 2: return "\(subject)'s \(first)"
        case 3: return "IMG_\(Digits.decimal(random.next(below: 10_000), width: 4))"
        case 4: return "\(capitalised) and \(second)"
        case 5: return "\(capitalised), \(subject)"
        default: return "The \(first)'s \(second)"
        }
    }

    private static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
