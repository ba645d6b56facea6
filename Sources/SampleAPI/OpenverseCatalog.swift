import Foundation

/// The sample API's deterministic Openverse: the results of an image search as pure functions of the search term.
///
/// A term (normalised like a Pixabay query; the empty term stands for the recent works a search without `q` lists)
/// has ``count(for:)`` results, and result `i` depends only on the term and `i` (plus the server's base URL). Its id
/// is a UUID whose last group encodes its picture, so a fresh server serves the image URLs an earlier one handed out.
///
/// Licenses run through all eight codes of ``OpenverseLicenseFilter/knownLicenses`` in an order the term shuffles,
/// so any eight results in a row hold each once (but for the unknown license at ``unknownLicenseIndex``); a
/// license depends on nothing else of the result, so filtering by it picks results without making them.
///
/// Every term's first 20 results hold the hostile ones at the fixed indexes below, each where the term has that
/// many results: what a client must escape, refuse or make do without. Mature results are served whatever the
/// request's `mature` says, so that a client's own filter is exercised.
package struct OpenverseCatalog: Sendable {
    /// How many results a term has unless configured otherwise.
    package static let defaultCount = 60
    /// The most results a configured count can give a term.
    package static let maxCount = 100_000
    /// `page_size` when the request has none.
    package static let defaultPageSize = 20
    /// The largest `page_size` of anonymous use; larger ones answer 401.
    package static let anonymousPageSizeLimit = 20
    /// How deep anonymous use may page (and the most `page_count` it is told); deeper pages answer 400.
    package static let anonymousPageLimit = 20
    /// The largest `page_size` with a token.
    package static let largestPageSize = 500

    /// Results `i` with `i % 20` among these are `mature` (3, 11, 23, 31, …), with `unstable__sensitivity`
    /// `["user_reported_sensitive"]`.
    package static let matureIndexes = [3, 11]
    /// The result whose title holds markup and a script: ``htmlTitle``.
    package static let htmlTitleIndex = 5
    /// The result whose `creator_url` is `javascript:alert(1)`.
    package static let scriptCreatorURLIndex = 7
    /// The result whose `url` is ``foreignImageURL``, an http URL of a host that is not the sample API.
    package static let foreignImageIndex = 9
    /// The result whose `license` is ``unknownLicense``, with `license_version` and `license_url` null.
    package static let unknownLicenseIndex = 13
    /// The result whose `title` is null (its attribution then says "This work").
    package static let nullTitleIndex = 15
    /// The result whose `title` is empty.
    package static let emptyTitleIndex = 16
    /// The result whose `creator` and `creator_url` are null.
    package static let nullCreatorIndex = 17
    /// The result whose `tags` are empty.
    package static let emptyTagsIndex = 18
    /// The result whose `title` is ``longTitleLength`` characters long.
    package static let longTitleIndex = 19

    /// The title at ``htmlTitleIndex``.
    package static let htmlTitle = "<b>Hafen</b> <script>alert(1)</script>"
    /// The `url` at ``foreignImageIndex``.
    package static let foreignImageURL = "http://example.invalid/x.jpg"
    /// The `license` at ``unknownLicenseIndex``.
    package static let unknownLicense = "all-rights-reserved-ish"
    /// How many characters the title at ``longTitleIndex`` has.
    package static let longTitleLength = 5_000

    private static let flickrOwners: [(name: String, nsid: String)] = [
        ("elbfoto", "143425468@N05"), ("Harbour Lights", "28460331@N02"), ("nordlicht.photo", "61203947@N03"),
        ("Speicherstadt Walks", "187732410@N04"), ("greycanvas", "33109585@N08"), ("pixelpier", "7650293@N05"),
    ]
    private static let wikimediaUsers = ["Deichgraf", "Kranich17", "Mara Deichblick", "Elbufer", "Fleetenkieker"]
    private static let museums = [
        "smithsonian_cooper_hewitt_museum", "smithsonian_national_museum_of_american_history",
        "smithsonian_american_art_museum",
    ]
    private static let museumMakers = ["Unknown maker", "Elbe Photo Studio", "Harbour Survey Office"]
    private static let cityWords = [
        "harbour", "ship", "crane", "warehouse", "bridge", "river", "skyline", "dusk", "street", "canal", "brick",
    ]
    private static let graffitiWords = ["wall", "spray", "mural", "colour", "paint", "stencil", "lettering", "alley"]
    private static let places = ["Hamburg", "Altona", "Ottensen", "Wilhelmsburg", "HafenCity", "Veddel"]
    private static let recognisedTags = ["architecture", "outdoors", "no person", "city", "travel", "water"]
    /// 2024-05-01T12:00:00Z, the newest `indexed_on`.
    private static let newestIndexing = 1_714_564_800

    private let counts: TermCounts
    let images: SampleImages

    /// `counts` gives terms (normalised here) their number of results, `defaultCount` every other term's; both are
    /// clamped to `0...maxCount`.
    package init(
        counts: [String: Int] = [:], defaultCount: Int = OpenverseCatalog.defaultCount,
        images: SampleImages = .bundled
    ) {
        self.counts = TermCounts(counts, default: defaultCount, maximum: Self.maxCount)
        self.images = images
    }

    /// How many results `term` has, filters aside.
    package func count(for term: String) -> Int {
        counts.count(for: term)
    }

    /// Page `page` (1-based) of `pageSize` results of `term` kept by `filter`. `page_count` is at most `pageLimit`
    /// when there is one; a page past `page_count` has no results (the route answers it with 400 instead).
    package func page(
        of term: String, filter: OpenverseLicenseFilter, page: Int, pageSize: Int, pageLimit: Int?, baseURL: String
    ) -> OpenverseSearchPage {
        let term = PixabayCatalog.normalize(term)
        let pageSize = max(pageSize, 1)
        let offset = Self.licenseOffset(of: term)
        let kept = (0..<count(for: term)).filter { filter.keeps(Self.license(at: $0, offset: offset)) }
        let pageCount = min((kept.count + pageSize - 1) / pageSize, pageLimit ?? .max)
        var results: [OpenverseImage] = []
        if (1...max(pageCount, 1)).contains(page) {
            let start = (page - 1) * pageSize
            results = kept.dropFirst(start).prefix(pageSize).map { result(at: $0, for: term, baseURL: baseURL) }
        }
        return OpenverseSearchPage(
            resultCount: kept.count, pageCount: pageCount, pageSize: pageSize, page: page, results: results)
    }

    /// The license code of result `index` of `term`.
    package static func license(at index: Int, for term: String) -> String {
        license(at: index, offset: licenseOffset(of: PixabayCatalog.normalize(term)))
    }

    /// Where the license cycle of the normalised `term` starts.
    private static func licenseOffset(of term: String) -> Int {
        Int(
            PixabayCatalog.stableHash("openverse-licenses:\(term)") % UInt64(OpenverseLicenseFilter.knownLicenses.count)
        )
    }

    private static func license(at index: Int, offset: Int) -> String {
        guard index != unknownLicenseIndex else { return unknownLicense }
        let codes = OpenverseLicenseFilter.knownLicenses
        // A step of 3 through 8 codes, which share no factor: any eight results in a row hold every code once.
        return codes[(offset + index * 3) % codes.count]
    }

    /// Whether result `index` of any term is mature.
    package static func isMature(at index: Int) -> Bool {
        matureIndexes.contains(index % 20)
    }

    /// Result `index` (0-based) of `term`, whose served URLs start with `baseURL`.
    package func result(at index: Int, for term: String, baseURL: String) -> OpenverseImage {
        let term = PixabayCatalog.normalize(term)
        let hash = PixabayCatalog.stableHash("openverse:\(term)")
        var random = SplitMix64(seed: hash ^ (UInt64(index) &* 0x9e37_79b9_7f4a_7c15))
        let mixedIn = random.next(below: 3) == 0
        let theme = term.contains("graffiti") || mixedIn ? "graffiti" : "city"
        let pictureCount = max(images.pictureCount(theme: theme), 1)
        let number = (Int(hash % UInt64(pictureCount)) + index * 7) % pictureCount + 1
        let id = Self.uuid(seed: random.next(), theme: theme, number: number)
        let full = images.image(theme: theme, number: number, size: 1280)

        let words = theme == "graffiti" ? Self.graffitiWords : Self.cityWords
        let first = words[random.next(below: words.count)]
        let place = Self.places[random.next(below: Self.places.count)]
        let subject = term.split(separator: " ").first.map { $0.prefix(1).uppercased() + $0.dropFirst() } ?? place
        let year = 2012 + random.next(below: 12)
        var work = Work(
            id: id, subject: subject, first: first, place: place, year: year, serial: index + 1,
            provider: Self.provider(random.next(below: 20)), random: random)
        var result = Self.result(&work, license: Self.license(at: index, for: term), baseURL: baseURL)
        result.title = Self.title(variant: index % 5, subject: subject, first: first, place: place)
        result.indexedOn = CivilTime.iso8601(
            term.isEmpty
                ? Self.newestIndexing - index * 3_600 - work.random.next(below: 3_600)
                : Self.newestIndexing - work.random.next(below: 3 * 365 * 86_400))
        result.tags = Self.tags(term: term, first: first, theme: theme, place: place, random: &work.random)
        let unsized = work.random.next(below: 4) == 0
        result.filesize = work.provider == "flickr" || unsized ? nil : full?.bytes.count
        result.width = full?.width ?? 0
        result.height = full?.height ?? 0
        result.mature = Self.isMature(at: index)
        result.unstableSensitivity = result.mature ? ["user_reported_sensitive"] : []
        Self.makeHostile(&result, at: index)
        result.attribution = Self.attribution(
            title: result.title, creator: result.creator, license: result.license, version: result.licenseVersion,
            licenseURL: result.licenseURL)
        return result
    }

    /// What one result is drawn from.
    private struct Work {
        var id: String
        var subject: String
        var first: String
        var place: String
        var year: Int
        var serial: Int
        var provider: String
        var random: SplitMix64
    }

    private static func provider(_ draw: Int) -> String {
        switch draw {
        case 0..<10: "flickr"
        case 10..<17: "wikimedia"
        default: "smithsonian"
        }
    }

    /// The result's provider, creator, license and URLs; its title, tags, sizes and attribution come after.
    private static func result(_ work: inout Work, license: String, baseURL: String) -> OpenverseImage {
        let landing: String
        let creator: String
        let creatorURL: String?
        let source: String
        var version = ["4.0", "3.0", "2.0"][work.random.next(below: 3)]
        switch work.provider {
        case "flickr":
            let owner = flickrOwners[work.random.next(below: flickrOwners.count)]
            let photo = 50_000_000_000 + Int(PixabayCatalog.stableHash(work.id) % 4_000_000_000)
            (creator, creatorURL, source) = (owner.name, "https://www.flickr.com/photos/\(owner.nsid)", "flickr")
            landing = "https://www.flickr.com/photos/\(owner.nsid)/\(photo)"
            version = "2.0"
        case "wikimedia":
            creator = wikimediaUsers[work.random.next(below: wikimediaUsers.count)]
            let user = creator.replacingOccurrences(of: " ", with: "_")
            creatorURL = work.random.next(below: 3) == 0 ? nil : "https://commons.wikimedia.org/wiki/User:\(user)"
            source = "wikimedia"
            let name = "\(work.subject) \(work.first) \(work.year) \(Digits.decimal(work.serial, width: 2))"
            let file = name.replacingOccurrences(of: " ", with: "_")
            let encoded = file.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? file
            landing = "https://commons.wikimedia.org/wiki/File:\(encoded).jpg"
        default:
            creator = museumMakers[work.random.next(below: museumMakers.count)]
            creatorURL = nil
            source = museums[work.random.next(below: museums.count)]
            landing = "https://www.si.edu/object/chndm_\(work.year)-\(30 + work.serial % 60)-\(work.serial)"
        }
        if license == "cc0" || license == "pdm" {
            version = "1.0"
        }
        return OpenverseImage(
            id: work.id, title: nil, indexedOn: "", foreignLandingURL: landing,
            url: "\(baseURL)/openverse/images/\(work.id).jpg", creator: creator, creatorURL: creatorURL,
            license: license, licenseVersion: version, licenseURL: licenseURL(license, version: version),
            provider: work.provider, source: source, category: work.random.next(below: 2) == 0 ? "photograph" : nil,
            filesize: nil, filetype: "jpg", tags: [], attribution: "", fieldsMatched: ["title"], mature: false,
            height: 0, width: 0, thumbnail: "\(baseURL)/v1/images/\(work.id)/thumb/",
            detailURL: "\(baseURL)/v1/images/\(work.id)/", relatedURL: "\(baseURL)/v1/images/\(work.id)/related/",
            unstableSensitivity: [])
    }

    private static func title(variant: Int, subject: String, first: String, place: String) -> String {
        let capitalised = first.prefix(1).uppercased() + first.dropFirst()
        switch variant {
        case 0: return "\(subject) \(first)"
        case 1: return "\(capitalised) in \(place)"
        case 2: return "\(subject)'s \(first)"
        case 3: return "\(capitalised), \(subject)"
        default: return "The \(first) at \(place)"
        }
    }

    /// The term's words, then two of the theme's and the place; a recogniser's tag with its accuracy on some.
    private static func tags(
        term: String, first: String, theme: String, place: String, random: inout SplitMix64
    ) -> [OpenverseTag] {
        var names = term.split(separator: " ").map(String.init)
        for name in [first, theme == "graffiti" ? "graffiti" : "harbour", place.lowercased()]
        where !names.contains(name) {
            names.append(name)
        }
        var tags = names.map { OpenverseTag(accuracy: nil, name: $0) }
        if random.next(below: 2) == 0 {
            let name = recognisedTags[random.next(below: recognisedTags.count)]
            tags.append(OpenverseTag(accuracy: Double(90 + random.next(below: 10)) / 100, name: name))
        }
        return tags
    }

    private static func makeHostile(_ result: inout OpenverseImage, at index: Int) {
        switch index {
        case htmlTitleIndex:
            result.title = htmlTitle
        case scriptCreatorURLIndex:
            result.creatorURL = "javascript:alert(1)"
        case foreignImageIndex:
            result.url = foreignImageURL
        case unknownLicenseIndex:
            (result.licenseVersion, result.licenseURL) = (nil, nil)
        case nullTitleIndex:
            result.title = nil
        case emptyTitleIndex:
            result.title = ""
        case nullCreatorIndex:
            (result.creator, result.creatorURL) = (nil, nil)
        case emptyTagsIndex:
            result.tags = []
        case longTitleIndex:
            let phrase = "Evening light over the Elbe, seen from the Speicherstadt; "
            let repeated = String(repeating: phrase, count: longTitleLength / phrase.count + 1)
            result.title = String(repeated.prefix(longTitleLength - 1)) + "."
        default:
            break
        }
    }
}
