import Foundation

/// The sample API's deterministic Wikimedia Commons: the files a search finds, as pure functions of the search term.
///
/// A term (normalised like a Pixabay query) has ``count(for:)`` files, and file `i` depends only on the term and
/// `i`. Its name ends in an 11-digit number in parentheses, as the names of files brought from Flickr do, which
/// encodes its sample picture (with a check), so a fresh server serves the image URLs an earlier one handed out;
/// its URLs are filed under `{a}/{ab}` folders, as MediaWiki's (``hashPath(of:)``).
///
/// Licenses run through ``licenses`` in an order the term shuffles. Every term's first 20 files hold the ones at
/// the fixed indexes below, each where the term has that many files: a document, a book, a sound, a film, a
/// drawing, and files whose metadata a client must escape, refuse or make do without. The others are JPEG photos
/// whose `Artist` links a user page.
package struct CommonsCatalog: Sendable {
    /// How many files a term has unless configured otherwise.
    package static let defaultCount = 60
    /// The most files a configured count can give a term.
    package static let maxCount = 100_000
    /// `gsrlimit` when the request has none.
    package static let defaultSearchLimit = 10
    /// The largest `gsrlimit` for a client that is not a bot; larger ones are clamped, with a warning.
    package static let largestSearchLimit = 50
    /// The smallest page id; ids run up to `firstPageID + 2^26`.
    package static let firstPageID = 10_000_000

    /// The PDF file (`application/pdf`), whose rendition is a JPEG of its first page.
    package static let pdfIndex = 2
    /// The file whose `Artist` is ``scriptArtist``.
    package static let scriptArtistIndex = 3
    /// The file with no `LicenseShortName`, `LicenseUrl` or `UsageTerms` at all.
    package static let noLicenseIndex = 4
    /// The SVG drawing (`image/svg+xml`), whose rendition is a PNG (`…/1280px-Name.svg.png`) at any width.
    package static let svgIndex = 5
    /// The sound (`application/ogg`): no width, no height, no rendition.
    package static let audioIndex = 7
    /// The file whose `LicenseUrl` is `javascript:alert(1)`, under the short name "CC BY 4.0".
    package static let hostileLicenseURLIndex = 8
    /// The file in the public domain: `LicenseShortName` "Public domain" and no `LicenseUrl`.
    package static let publicDomainIndex = 9
    /// The film (`video/webm`), whose rendition is a JPEG of its first frame.
    package static let videoIndex = 11
    /// The file without `ObjectName`: a client then names it by its title.
    package static let noObjectNameIndex = 12
    /// The DjVu book (`image/vnd.djvu`), whose rendition is a JPEG of its first page.
    package static let djvuIndex = 13
    /// The JPEG whose `imageinfo` has no `thumburl`, `thumbwidth` or `thumbheight`: a client then shows `url`.
    package static let noThumbnailIndex = 14
    /// The file whose `Artist` is plain text without a link: ``plainArtist``.
    package static let plainArtistIndex = 16

    /// The `Artist` at ``scriptArtistIndex``.
    package static let scriptArtist =
        #"<a href="javascript:alert(1)">Mallory</a><script>alert(2)</script> &amp; <b>friends</b>"#
    /// The `Artist` at ``plainArtistIndex``, as the Biodiversity Heritage Library's scans name their authors.
    package static let plainArtist = "Nicholson, Henry Alleyne"
    /// The `LicenseUrl` at ``hostileLicenseURLIndex``.
    package static let hostileLicenseURL = "javascript:alert(1)"

    /// The licenses files are under, as Commons reports them: short name, URL (without a trailing slash, CC0's
    /// over http, a ported license's deed in English), usage terms, whether attribution is required and whether
    /// the work is copyrighted.
    package static let licenses: [CommonsLicense] = [
        CommonsLicense(
            shortName: "CC BY-SA 4.0", url: "https://creativecommons.org/licenses/by-sa/4.0",
            usageTerms: "Creative Commons Attribution-Share Alike 4.0", attributionRequired: true, copyrighted: true),
        CommonsLicense(
            shortName: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0",
            usageTerms: "Creative Commons Attribution 4.0", attributionRequired: true, copyrighted: true),
        CommonsLicense(
            shortName: "CC BY-SA 3.0 de", url: "https://creativecommons.org/licenses/by-sa/3.0/de/deed.en",
            usageTerms: "Creative Commons Attribution-Share Alike 3.0 de", attributionRequired: true,
            copyrighted: true),
        CommonsLicense(
            shortName: "CC0", url: "http://creativecommons.org/publicdomain/zero/1.0/deed.en",
            usageTerms: "Creative Commons Zero, Public Domain Dedication", attributionRequired: false,
            copyrighted: true),
        publicDomain,
    ]
    /// The license at ``publicDomainIndex``.
    package static let publicDomain = CommonsLicense(
        shortName: "Public domain", url: nil, usageTerms: "Public domain", attributionRequired: false,
        copyrighted: false)

    private static let users = ["Deichgraf", "Kranich17", "Mara Deichblick", "Elbufer", "Fleetenkieker", "Köhlbrand"]
    private static let cityWords = [
        "harbour", "ship", "crane", "warehouse", "bridge", "river", "skyline", "dusk", "street", "canal", "brick",
    ]
    private static let graffitiWords = ["wall", "spray", "mural", "colour", "paint", "stencil", "lettering", "alley"]
    private static let places = ["Hamburg", "Altona", "Övelgönne", "Wilhelmsburg", "HafenCity", "Veddel"]
    /// How much larger than the sample picture's 1,280-pixel rendition a photo's original is; the last is smaller,
    /// so that some originals are narrower than a 1,280-pixel rendition (MediaWiki then hands out the original).
    private static let originalScales = [3.125, 2.5, 4.8, 1.875, 0.75]
    /// 2008-01-01T00:00:00Z, the earliest upload.
    private static let earliestUpload = 1_199_145_600

    private let counts: TermCounts
    let images: SampleImages

    /// `counts` gives terms (normalised here) their number of files, `defaultCount` every other term's; both are
    /// clamped to `0...maxCount`.
    package init(
        counts: [String: Int] = [:], defaultCount: Int = CommonsCatalog.defaultCount, images: SampleImages = .bundled
    ) {
        self.counts = TermCounts(counts, default: defaultCount, maximum: Self.maxCount)
        self.images = images
    }

    /// How many files `term` has.
    package func count(for term: String) -> Int {
        counts.count(for: term)
    }

    /// The files of `term` from rank `offset + 1`, at most `limit` of them (at least one).
    package func search(_ term: String, offset: Int, limit: Int) -> CommonsSearchBatch {
        let total = count(for: term)
        let start = min(max(offset, 0), total)
        let end = start + min(max(limit, 1), total - start)
        return CommonsSearchBatch(
            files: (start..<end).map { file(at: $0, for: term) }, nextOffset: end < total ? end : nil)
    }

    /// What kind of file every term has at `index`.
    package static func kind(at index: Int) -> CommonsMediaKind {
        switch index {
        case pdfIndex: .pdf
        case djvuIndex: .djvu
        case audioIndex: .audio
        case videoIndex: .video
        case svgIndex: .svg
        default: .jpeg
        }
    }

    /// The license of file `index` of `term`, before the files at the fixed indexes change theirs.
    package static func license(at index: Int, for term: String) -> CommonsLicense {
        let hash = PixabayCatalog.stableHash("commons-licenses:\(PixabayCatalog.normalize(term))")
        let offset = Int(hash % UInt64(licenses.count))
        // A step of 2 through 5 licenses: any five files in a row hold each once.
        return licenses[(offset + index * 2) % licenses.count]
    }

    /// File `index` (0-based) of `term`.
    package func file(at index: Int, for term: String) -> CommonsFile {
        let term = PixabayCatalog.normalize(term)
        let hash = PixabayCatalog.stableHash("commons:\(term)")
        var random = SplitMix64(seed: hash ^ (UInt64(index) &* 0x9e37_79b9_7f4a_7c15))
        let mixedIn = random.next(below: 3) == 0
        let theme = term.contains("graffiti") || mixedIn ? "graffiti" : "city"
        let pictureCount = min(max(images.pictureCount(theme: theme), 1), 99)
        let number = (Int(hash % UInt64(pictureCount)) + index * 5) % pictureCount + 1
        let kind = Self.kind(at: index)
        let words = theme == "graffiti" ? Self.graffitiWords : Self.cityWords
        let word = words[random.next(below: words.count)]
        let place = Self.places[random.next(below: Self.places.count)]
        let year = 2008 + random.next(below: 17)
        let stem = Self.stem(variant: index % 4, subject: Self.subject(of: term), word: word, place: place, year: year)
        // 7919 and 10,000 share no factor: the first 10,000 files of a term have serials of their own.
        let serial = (Int((hash >> 24) % 10_000) + index * 7_919) % 10_000
        let name = Self.fileName(stem: stem, kind: kind, theme: theme, number: number, serial: serial)
        let user = Self.users[random.next(below: Self.users.count)]
        var file = CommonsFile(
            pageID: Self.pageID(at: index, termHash: hash), title: "File:\(name)", index: index + 1, kind: kind,
            theme: theme, pictureNumber: number,
            timestamp: CivilTime.iso8601(
                Self.earliestUpload + (year - 2008) * 31_557_600 + random.next(below: 31_000_000)),
            user: user, size: 0, width: 0, height: 0, pageCount: nil, duration: nil, hasThumbnail: kind != .audio,
            metadata: [])
        let picture = images.image(theme: theme, number: number, size: 1280)
        Self.setDimensions(&file, pictureWidth: picture?.width ?? 1280, pictureHeight: picture?.height ?? 853, &random)
        let objectName =
            index % 3 == 0
            ? (word.prefix(1).uppercased() + word.dropFirst() + " in \(place)", "commons-desc-page")
            : (String(name.prefix { $0 != "." }), "mediawiki-metadata")
        file.metadata = Self.metadata(
            objectName: objectName, artist: Self.artist(user: user, random: &random),
            ownWork: random.next(below: 4) == 0 ? ("de", "Eigenes Werk") : ("en", "Own work"),
            license: Self.license(at: index, for: term))
        Self.makeSpecial(&file, at: index)
        return file
    }

    /// A page id stable per term and index, in `firstPageID..<firstPageID + 2^26`, distinct for the first 2^26
    /// indexes of a term (an odd multiplier is a bijection modulo a power of two) and not in rank order.
    private static func pageID(at index: Int, termHash: UInt64) -> Int {
        firstPageID + Int((UInt64(index) &* 2_654_435_761 &+ termHash) % (1 << 26))
    }

    /// The term's first word as a file name may hold it, capitalised; "Hamburg" when nothing of it is left.
    private static func subject(of term: String) -> String {
        let word = (term.split(separator: " ").first ?? "").filter { $0.isLetter || $0.isNumber }.prefix(40)
        return word.isEmpty ? "Hamburg" : word.prefix(1).uppercased() + word.dropFirst()
    }

    private static func stem(variant: Int, subject: String, word: String, place: String, year: Int) -> String {
        let capitalised = word.prefix(1).uppercased() + word.dropFirst()
        switch variant {
        case 0: return "\(subject) \(word) in \(place)"
        case 1: return "\(place), \(subject), \(word)"
        case 2: return "\(subject) \(word) \(year)"
        default: return "\(capitalised) at \(place), \(year)"
        }
    }

    /// The original's size and, for documents, sounds and films, their pages or length.
    private static func setDimensions(
        _ file: inout CommonsFile, pictureWidth: Int, pictureHeight: Int, _ random: inout SplitMix64
    ) {
        switch file.kind {
        case .jpeg:
            let scale = originalScales[random.next(below: originalScales.count)]
            file.width = Int((Double(pictureWidth) * scale).rounded())
            file.height = Int((Double(pictureHeight) * scale).rounded())
            file.size = file.width * file.height / 4 + random.next(below: 400_000)
        case .svg:
            (file.width, file.height) = (pictureWidth / 2, pictureHeight / 2)
            file.size = 8_000 + random.next(below: 200_000)
        case .pdf:
            (file.width, file.height, file.pageCount) = (1_240, 1_754, 2 + random.next(below: 40))
            file.size = 200_000 + random.next(below: 9_000_000)
        case .djvu:
            (file.width, file.height, file.pageCount) = (2_550, 3_300, 120 + random.next(below: 360))
            file.size = 5_000_000 + random.next(below: 25_000_000)
        case .video:
            (file.width, file.height) = (1_920, 1_080)
            file.duration = Double(1_200 + random.next(below: 30_000)) / 100
            file.size = Int((file.duration ?? 0) * 250_000)
        case .audio:
            file.duration = Double(3_000 + random.next(below: 30_000)) / 100
            file.size = Int((file.duration ?? 0) * 16_000)
        }
    }

    /// `Name (5TNNSSSSCCC).ext`: `5` as a Flickr photo id starts, the theme (1 city, 2 graffiti), the picture
    /// number, a serial and a check over all that comes before it (``picture(forName:)`` reads it back).
    private static func fileName(stem: String, kind: CommonsMediaKind, theme: String, number: Int, serial: Int)
        -> String
    {
        let themeDigit = theme == "graffiti" ? "2" : "1"
        let head = "5" + themeDigit + Digits.decimal(number, width: 2) + Digits.decimal(serial, width: 4)
        let key = stem.replacingOccurrences(of: " ", with: "_")
        return "\(stem) (\(head)\(nameCheck(key: key, head: head, kind: kind))).\(kind.fileExtension)"
    }

    private static func nameCheck(key: some StringProtocol, head: some StringProtocol, kind: CommonsMediaKind)
        -> String
    {
        Digits.decimal(Int(PixabayCatalog.stableHash("commons-name:\(key)|\(head)|\(kind.rawValue)") % 1_000), width: 3)
    }

    /// The kind and sample picture of a file name this catalogue made (with underscores, as in its URLs), or nil
    /// for any other name.
    package static func picture(forName name: String) -> (kind: CommonsMediaKind, theme: String, number: Int)? {
        guard let dot = name.lastIndex(of: "."),
            let kind = CommonsMediaKind(fileExtension: name[name.index(after: dot)...])
        else { return nil }
        let stem = name[..<dot]
        guard stem.hasSuffix(")"), let open = stem.range(of: "_(", options: .backwards) else { return nil }
        let code = stem[open.upperBound..<stem.index(before: stem.endIndex)]
        guard code.count == 11, code.allSatisfy({ $0.isASCII && $0.isNumber }), code.first == "5",
            let number = Int(code.dropFirst(2).prefix(2)), number >= 1,
            nameCheck(key: stem[..<open.lowerBound], head: code.prefix(8), kind: kind) == code.suffix(3)
        else { return nil }
        switch code.dropFirst().first {
        case "1": return (kind, "city", number)
        case "2": return (kind, "graffiti", number)
        default: return nil
        }
    }

    /// An `Artist` linking the user's page as Commons writes it: a plain link, a link to a page not yet written
    /// (`redlink=1`, with `&amp;`), two authors joined by `&amp;`, or a link in `<bdi>`.
    private static func artist(user: String, random: inout SplitMix64) -> String {
        func link(_ user: String) -> String {
            let key = wikiURLEncoded(user.replacingOccurrences(of: " ", with: "_"))
            return #"<a href="//commons.wikimedia.org/wiki/User:\#(key)" title="User:\#(user)">\#(user)</a>"#
        }
        switch random.next(below: 4) {
        case 0:
            let key = wikiURLEncoded(user.replacingOccurrences(of: " ", with: "_"))
            return #"<a href="//commons.wikimedia.org/w/index.php?title=User:\#(key)&amp;action=edit&amp;redlink=1" "#
                + #"class="new" title="User:\#(user) (page does not exist)">\#(user)</a>"#
        case 1:
            let other = users[((users.firstIndex(of: user) ?? 0) + 1) % users.count]
            return "\(link(user)) &amp; \(link(other))"
        case 2:
            return "<bdi>\(link(user))\n</bdi>"
        default:
            return link(user)
        }
    }

    /// The `extmetadata` of a file, in MediaWiki's order.
    private static func metadata(
        objectName: (value: String, source: String), artist: String, ownWork: (language: String, text: String),
        license: CommonsLicense
    ) -> [CommonsMetadataField] {
        func field(_ name: String, _ value: String, hidden: Bool = true) -> CommonsMetadataField {
            CommonsMetadataField(name: name, value: value, source: "commons-desc-page", hidden: hidden)
        }
        var fields = [
            CommonsMetadataField(
                name: "ObjectName", value: objectName.value, source: objectName.source, hidden: true),
            field("Credit", #"<span class="int-own-work" lang="\#(ownWork.language)">\#(ownWork.text)</span>"#),
            field("Artist", artist, hidden: false),
            field("LicenseShortName", license.shortName),
            field("UsageTerms", license.usageTerms),
            field("AttributionRequired", license.attributionRequired ? "true" : "false"),
        ]
        if let url = license.url {
            fields.append(field("LicenseUrl", url))
        }
        fields.append(field("Copyrighted", license.copyrighted ? "True" : "False"))
        return fields
    }

    private static func makeSpecial(_ file: inout CommonsFile, at index: Int) {
        func set(_ name: String, _ value: String?) {
            let position = file.metadata.firstIndex { $0.name == name }
            switch (position, value) {
            case (let position?, let value?): file.metadata[position].value = value
            case (let position?, nil): file.metadata.remove(at: position)
            case (nil, let value?):
                let before = file.metadata.firstIndex { $0.name == "Copyrighted" } ?? file.metadata.endIndex
                file.metadata.insert(
                    CommonsMetadataField(name: name, value: value, source: "commons-desc-page", hidden: true),
                    at: before)
            case (nil, nil): break
            }
        }
        switch index {
        case scriptArtistIndex:
            set("Artist", scriptArtist)
        case noLicenseIndex:
            for name in ["LicenseShortName", "LicenseUrl", "UsageTerms"] { set(name, nil) }
        case hostileLicenseURLIndex:
            set("LicenseShortName", "CC BY 4.0")
            set("UsageTerms", "Creative Commons Attribution 4.0")
            set("AttributionRequired", "true")
            set("LicenseUrl", hostileLicenseURL)
            set("Copyrighted", "True")
        case publicDomainIndex:
            set("LicenseShortName", publicDomain.shortName)
            set("UsageTerms", publicDomain.usageTerms)
            set("AttributionRequired", "false")
            set("LicenseUrl", nil)
            set("Copyrighted", "False")
        case noObjectNameIndex:
            set("ObjectName", nil)
        case noThumbnailIndex:
            file.hasThumbnail = false
        case plainArtistIndex:
            set("Artist", plainArtist)
            let scan = "https://www.biodiversitylibrary.org/pageimage/22354849"
            set("Credit", #"<a rel="nofollow" class="external free" href="\#(scan)">\#(scan)</a>"#)
        default:
            break
        }
    }
}

/// A license as a Commons file reports it in its `extmetadata`.
package struct CommonsLicense: Sendable, Equatable {
    /// `LicenseShortName`: "CC BY-SA 4.0", "CC0", "Public domain".
    package var shortName: String
    /// `LicenseUrl`, or nil when the file has none (public domain).
    package var url: String?
    /// `UsageTerms`: "Creative Commons Attribution-Share Alike 4.0".
    package var usageTerms: String
    /// `AttributionRequired`, sent as `"true"` or `"false"`.
    package var attributionRequired: Bool
    /// `Copyrighted`, sent as `"True"` or `"False"`.
    package var copyrighted: Bool
}
