import Foundation
import SampleAPI
import Testing

private let baseURL = "http://127.0.0.1:9"
private let allURLExtras = FlickrSize.allCases.map { "url_\($0.rawValue)" }
private let everyExtra =
    ["description", "license", "date_upload", "date_taken", "owner_name", "tags", "o_dims", "views", "media"]
    + allURLExtras

@Suite("Flickr catalogue (no server)")
struct FlickrCatalogTests {
    @Test func sizesFollowFlickrsSuffixTable() {
        let table: [(FlickrSize, String, Int?, Int)] = [
            (.sq, "s", 75, 150), (.t, "t", 100, 150), (.s, "m", 240, 640), (.q, "q", 150, 150), (.m, "", 500, 640),
            (.n, "n", 320, 640), (.w, "w", 400, 640), (.z, "z", 640, 640), (.c, "c", 800, 1280),
            (.l, "b", 1024, 1280), (.o, "o", nil, 1280),
        ]
        #expect(table.map(\.0) == FlickrSize.allCases)
        for (size, suffix, nominal, served) in table {
            #expect(size.suffix == suffix, "\(size)")
            #expect(size.nominalEdge == nominal, "\(size)")
            #expect(size.servedEdge == served, "\(size)")
            #expect(FlickrSize(suffix: suffix) == size)
        }
        #expect(FlickrSize(suffix: "h") == nil)
    }

    @Test func totalsAreDeterministicAndOverridable() {
        let catalog = FlickrCatalog()
        #expect(catalog.total(of: .recent) == 1000)
        for term in ["hamburg", "hamburg graffiti", "elbe bridge", "münchen"] {
            let expected = 40 + Int(PixabayCatalog.stableHash(term) % 2000)
            #expect(catalog.total(of: .search(term)) == expected)
            #expect(catalog.total(of: .search(term.uppercased() + "  ")) == expected)
        }
        #expect(catalog.total(of: .search("nothing")) == 0)
        #expect(catalog.total(of: .search("absolutely nothing here")) == 0)

        let configured = FlickrCatalog(counts: ["Hamburg  Port": 7, "nothing": 3, "negative": -5])
        #expect(configured.total(of: .search("hamburg port")) == 7)
        #expect(configured.total(of: .search("nothing")) == 3)
        #expect(configured.total(of: .search("negative")) == 0)
        #expect(configured.total(of: .search("hamburg")) == catalog.total(of: .search("hamburg")))
    }

    @Test func searchTermJoinsTextAndTags() {
        #expect(FlickrCatalog.searchTerm(text: "Hamburg", tags: nil) == "hamburg")
        #expect(FlickrCatalog.searchTerm(text: nil, tags: "hamburg,graffiti") == "hamburg graffiti")
        #expect(FlickrCatalog.searchTerm(text: " Elbe ", tags: "bridge, night") == "elbe bridge night")
        #expect(FlickrCatalog.searchTerm(text: nil, tags: nil).isEmpty)
        #expect(FlickrCatalog.searchTerm(text: "", tags: ",,").isEmpty)
    }

    @Test func pagesCoverTheListingWithoutGapsOrRepeats() {
        let catalog = FlickrCatalog(counts: ["short": 45])
        let listing = FlickrListing.search("short")
        var ids: [String] = []
        for page in 1...3 {
            let list = catalog.page(of: listing, page: page, perPage: 20, baseURL: baseURL)
            #expect(list.page == page && list.pages == 3 && list.perPage == 20 && list.total == 45)
            #expect(list.photos.count == (page < 3 ? 20 : 5))
            ids += list.photos.map(\.id)
        }
        #expect(Set(ids).count == 45)
        #expect(ids == (0..<45).map { catalog.photo(at: $0, in: listing, baseURL: baseURL).id })
        let pastTheEnd = catalog.page(of: listing, page: 4, perPage: 20, baseURL: baseURL)
        #expect(pastTheEnd.photos.isEmpty && pastTheEnd.page == 4 && pastTheEnd.total == 45)

        let recent = catalog.page(of: .recent, page: 1, perPage: 500, baseURL: baseURL)
        #expect(recent.pages == 2 && recent.photos.count == 500)
        #expect(catalog.page(of: .recent, page: 2, perPage: 500, baseURL: baseURL).photos.count == 500)
        #expect(catalog.page(of: .recent, page: 3, perPage: 500, baseURL: baseURL).photos.isEmpty)
        let allRecent = (1...10).flatMap { catalog.page(of: .recent, page: $0, perPage: 100, baseURL: baseURL).photos }
        #expect(Set(allRecent.map(\.id)).count == 1000)
    }

    @Test func searchesReachOnlyTheFirst4000() {
        let catalog = FlickrCatalog(counts: ["huge": 9234])
        let listing = FlickrListing.search("huge")
        #expect(catalog.reachable(in: listing) == 4000)
        #expect(catalog.reachable(in: .recent) == 1000)
        let last = catalog.page(of: listing, page: 8, perPage: 500, baseURL: baseURL)
        #expect(last.total == 9234 && last.pages == 19 && last.photos.count == 500)
        #expect(catalog.page(of: listing, page: 9, perPage: 500, baseURL: baseURL).photos.isEmpty)
        #expect(catalog.page(of: .search("nothing"), page: 1, perPage: 100, baseURL: baseURL).pages == 0)
        let enormous = FlickrCatalog(counts: ["all": Int.max])
            .page(of: .search("all"), page: 1, perPage: 500, baseURL: baseURL)
        #expect(enormous.total == FlickrCatalog.maxConfiguredTotal && enormous.pages == 2_000_000)
        #expect(enormous.photos.count == 500)
    }

    @Test func typeDriftFollowsPageParity() {
        let catalog = FlickrCatalog()
        for page in 1...4 {
            let list = catalog.page(of: .recent, page: page, perPage: 5, baseURL: baseURL)
            #expect(list.numbersAsStrings == (page % 2 == 1))
        }
    }

    @Test func photosAreDeterministicAndCarryTheRequestedExtras() throws {
        let catalog = FlickrCatalog()
        let listing = FlickrListing.search("hamburg")
        let bare = catalog.photo(at: 3, in: listing, baseURL: baseURL)
        #expect(bare == FlickrCatalog().photo(at: 3, in: listing, baseURL: baseURL))
        #expect(bare.server == "65535" && bare.farm == 66)
        #expect(bare.isPublic == 1 && bare.isFriend == 0 && bare.isFamily == 0)
        #expect(captures(#"(\d+)@N0\d"#, in: bare.owner) != nil, "\(bare.owner)")
        #expect(captures("[0-9a-f]{10}", in: bare.secret) != nil)
        #expect(captures(#"5\d{10}"#, in: bare.id) != nil)
        #expect(bare.sizes.isEmpty && bare.ownerName == nil && bare.tags == nil && bare.description == nil)
        #expect(bare.dateUpload == nil && bare.originalWidth == nil)

        let full = catalog.photo(at: 3, in: listing, extras: everyExtra, baseURL: baseURL)
        #expect(full.id == bare.id && full.title == bare.title && full.secret == bare.secret)
        #expect(full.sizes.map(\.size) == FlickrSize.allCases)
        #expect(full.ownerName?.isEmpty == false)
        #expect(full.tags?.split(separator: " ").first == "hamburg")
        #expect(full.tags?.contains(",") == false)
        #expect(full.description?.isEmpty == false)
        let uploaded = try #require(full.dateUpload.flatMap { Int($0) })
        #expect(uploaded < FlickrCatalog.referenceTime)
        #expect(captures(#"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"#, in: full.dateTaken ?? "") != nil)
        #expect(full.views.flatMap { Int($0) } != nil && full.license.flatMap { Int($0) } != nil)
        #expect(full.media == "photo")
        let original = full.size(.o)
        #expect(full.originalWidth == original?.width && full.originalHeight == original?.height)

        let partial = catalog.photo(at: 3, in: listing, extras: [" URL_M", "tags", "unknown"], baseURL: baseURL)
        #expect(partial.sizes.map(\.size) == [.m] && partial.tags == full.tags && partial.ownerName == nil)
    }

    @Test func titlesComeFromTheQueryAndThemeWords() {
        let catalog = FlickrCatalog()
        let titles = (0..<14).map { catalog.photo(at: $0, in: .search("hamburg"), baseURL: baseURL).title }
        #expect(titles.filter { $0.contains("Hamburg") }.count >= 4)
        #expect(titles.filter { $0.contains("'") }.count == 4)
        #expect(titles.contains { $0.hasPrefix("IMG_") })
        #expect(Set(titles).count >= 10)
    }

    @Test func urlsHaveFlickrsShapeAndServeTheirReportedSize() throws {
        let catalog = FlickrCatalog()
        for listing in [FlickrListing.recent, .search("hamburg graffiti"), .search("elbe")] {
            let list = catalog.page(of: listing, page: 1, perPage: 15, extras: allURLExtras, baseURL: baseURL)
            for photo in list.photos {
                for size in photo.sizes {
                    let suffix = size.size.suffix.isEmpty ? "" : "_\(size.size.suffix)"
                    let expected = "\(baseURL)/flickr/65535/\(photo.id)_\(photo.secret)\(suffix).jpg"
                    #expect(size.url == expected)
                    let file = String(try #require(size.url.split(separator: "/").last))
                    let image = try #require(catalog.image(server: "65535", file: file), "\(size.url)")
                    #expect(image.size == size.size.servedEdge)
                    let pixels = try #require(jpegDimensions(image.bytes))
                    #expect(pixels.width == size.width && pixels.height == size.height, "\(size.url)")
                }
            }
        }
    }

    @Test func themesFollowTheQuery() throws {
        let catalog = FlickrCatalog()
        func themes(_ listing: FlickrListing) throws -> Set<String> {
            let photos = catalog.page(of: listing, page: 1, perPage: 60, baseURL: baseURL).photos
            return Set(try photos.map { try #require(FlickrCatalog.picture(forPhotoID: $0.id)).theme })
        }
        #expect(try themes(.search("hamburg graffiti")) == ["graffiti"])
        #expect(try themes(.search("graffiti")) == ["graffiti"])
        #expect(try themes(.search("hamburg")) == ["city"])
        #expect(try themes(.recent) == ["city", "graffiti"])
        let numbers = Set(
            catalog.page(of: .search("hamburg"), page: 1, perPage: 60, baseURL: baseURL).photos
                .compactMap { FlickrCatalog.picture(forPhotoID: $0.id)?.number }
        )
        #expect(numbers == Set(1...12))
    }

    @Test func imageNamesAreCheckedStrictly() throws {
        let catalog = FlickrCatalog()
        let photo = catalog.photo(at: 0, in: .search("hamburg"), baseURL: baseURL)
        let stem = "\(photo.id)_\(photo.secret)"
        #expect(catalog.image(server: "65535", file: "\(stem).jpg")?.size == 640)
        #expect(catalog.image(server: "65535", file: "\(stem)_b.jpg")?.size == 1280)
        #expect(catalog.image(server: "65535", file: "\(stem)_s.jpg")?.size == 150)
        #expect(FlickrCatalog().image(server: "65535", file: "\(stem)_z.jpg") != nil, "a fresh catalogue serves it")
        func named(_ id: String, _ suffix: String = "") -> String {
            "\(id)_\(FlickrCatalog.secret(forPhotoID: id))\(suffix).jpg"
        }
        let rejected = [
            ("65534", "\(stem).jpg"), ("65535", "\(stem)_h.jpg"), ("65535", "\(stem)_.jpg"),
            ("65535", "\(stem).png"), ("65535", "\(photo.id)_0000000000.jpg"), ("65535", "\(stem)_m_x.jpg"),
            ("65535", named("1234")), ("65535", named("50000000113")), ("65535", named("50000000209", "_q")),
            ("65535", named("50000000301")), ("65535", named("50000000100")), ("65535", named("40000000101")),
        ]
        for (server, file) in rejected {
            #expect(catalog.image(server: server, file: file) == nil, "\(server)/\(file)")
        }
        let graffiti = try #require(catalog.image(server: "65535", file: named("50000000207", "_n")))
        #expect(graffiti.theme == "graffiti" && graffiti.number == 7 && graffiti.size == 640)
    }

    @Test func feedHasTheLatestTwentyWithApostrophes() throws {
        let catalog = FlickrCatalog()
        for tags in [nil, "hamburg", "hamburg,graffiti"] as [String?] {
            let feed = catalog.feed(tags: tags, baseURL: baseURL)
            #expect(feed.items.count == 20)
            #expect(feed.items.filter { $0.title.contains("'") }.count >= 2)
            #expect(feed.items.map(\.published) == feed.items.map(\.published).sorted(by: >))
            #expect(feed.modified == "2026-11-20T10:00:00Z" && feed.generator == "https://www.flickr.com")
            #expect(feed.description.isEmpty)
            #expect(feed == FlickrCatalog().feed(tags: tags, baseURL: baseURL))
            for item in feed.items {
                let parts = try #require(
                    captures(#"https://www\.flickr\.com/photos/(\d+@N0\d)/(5\d{10})/"#, in: item.link),
                    "\(item.link)"
                )
                #expect(parts[0] == item.authorID)
                let secret = FlickrCatalog.secret(forPhotoID: parts[1])
                #expect(item.media.m == "\(baseURL)/flickr/65535/\(parts[1])_\(secret)_m.jpg")
                let image = try #require(catalog.image(server: "65535", file: "\(parts[1])_\(secret)_m.jpg"))
                #expect(item.description.contains("width=\"\(image.width)\" height=\"\(image.height)\""))
                #expect(item.description.contains("<img src=\"\(item.media.m)\""))
                #expect(item.description.hasPrefix(" <p><a href=\"https://www.flickr.com/people/\(item.authorID)/\">"))
                #expect(captures(#"nobody@flickr\.com \(("[^"]+"|[^"()]+)\)"#, in: item.author) != nil)
                #expect(captures(#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-08:00"#, in: item.dateTaken) != nil)
                #expect(captures(#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, in: item.published) != nil)
                #expect(!item.tags.isEmpty && !item.tags.contains(","))
            }
        }
        #expect(catalog.feed(tags: nil, baseURL: baseURL).title == "Uploads from everyone")
        #expect(catalog.feed(tags: "hamburg", baseURL: baseURL).title == "Recent Uploads tagged hamburg")
        #expect(catalog.feed(tags: "nothing", baseURL: baseURL).items.isEmpty)
        #expect(catalog.feed(tags: "elbe,nothing", baseURL: baseURL).items.isEmpty)
        #expect(FlickrCatalog(counts: ["elbe": 3]).feed(tags: "elbe", baseURL: baseURL).items.count == 3)
    }
}

/// The id groups every page of 20 must show: All Rights Reserved, CC 2.0, public domain, and the ids Flickr added.
private let allRightsReserved: Set<String> = ["0"]
private let creativeCommons2: Set<String> = ["1", "2", "3", "4", "5", "6"]
private let publicDomain: Set<String> = ["7", "8", "9", "10"]
private let addedLater: Set<String> = ["11", "12", "13", "14", "15", "16"]
private let licenseListings: [FlickrListing] = [
    .recent, .search("hamburg"), .search("hamburg graffiti"), .search("elbe bridge"), .search("münchen"),
]

@Suite("Flickr licenses (no server)")
struct FlickrLicenseTests {
    @Test func tableHasFlickrsIdsNamesAndURLs() {
        let table = FlickrCatalog.licenses
        #expect(table.map(\.id) == (0...16).map(String.init))
        let expected: [String: (String, String)] = [
            "0": (
                "All Rights Reserved",
                "https://www.flickrhelp.com/hc/en-us/articles/10710266545556-Using-Flickr-images-shared-by-other-members"
            ),
            "1": ("CC BY-NC-SA 2.0", "https://creativecommons.org/licenses/by-nc-sa/2.0/"),
            "2": ("CC BY-NC 2.0", "https://creativecommons.org/licenses/by-nc/2.0/"),
            "3": ("CC BY-NC-ND 2.0", "https://creativecommons.org/licenses/by-nc-nd/2.0/"),
            "4": ("CC BY 2.0", "https://creativecommons.org/licenses/by/2.0/"),
            "5": ("CC BY-SA 2.0", "https://creativecommons.org/licenses/by-sa/2.0/"),
            "6": ("CC BY-ND 2.0", "https://creativecommons.org/licenses/by-nd/2.0/"),
            "7": ("No known copyright restrictions", "https://www.flickr.com/commons/usage/"),
            "8": ("United States Government Work", "https://www.usa.gov/government-copyright"),
            "9": ("Public Domain Dedication (CC0)", "https://creativecommons.org/publicdomain/zero/1.0/"),
            "10": ("Public Domain Mark", "https://creativecommons.org/publicdomain/mark/1.0/"),
            "11": ("CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"),
            "12": ("CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/"),
            "13": ("CC BY-ND 4.0", "https://creativecommons.org/licenses/by-nd/4.0/"),
            "14": ("CC BY-NC 4.0", "https://creativecommons.org/licenses/by-nc/4.0/"),
            "15": ("CC BY-NC-SA 4.0", "https://creativecommons.org/licenses/by-nc-sa/4.0/"),
            "16": ("CC BY-NC-ND 4.0", "https://creativecommons.org/licenses/by-nc-nd/4.0/"),
        ]
        for license in table {
            #expect(license.name == expected[license.id]?.0, "\(license.id)")
            #expect(license.url == expected[license.id]?.1, "\(license.id)")
        }
    }

    @Test func theLicenseExtraCarriesAnIdOfTheTable() {
        let catalog = FlickrCatalog()
        let ids = Set(FlickrCatalog.licenses.map(\.id))
        for listing in licenseListings {
            let photos = catalog.page(of: listing, page: 1, perPage: 100, extras: ["license"], baseURL: baseURL).photos
            #expect(photos.count == 100)
            for (index, photo) in photos.enumerated() {
                let license = photo.license ?? "none"
                #expect(ids.contains(license), "\(listing) \(index): \(license)")
                #expect(license == FlickrCatalog.license(at: index, in: listing))
            }
            let bare = catalog.page(of: listing, page: 1, perPage: 100, baseURL: baseURL).photos
            #expect(bare.allSatisfy { $0.license == nil })
        }
        let again = FlickrCatalog(counts: ["hamburg": 3]).photo(
            at: 7, in: .search("Hamburg"), extras: ["license"], baseURL: "")
        #expect(
            again.license == catalog.photo(at: 7, in: .search("hamburg"), extras: ["license"], baseURL: baseURL).license
        )
    }

    @Test func everyPageOfTwentyHoldsEveryKindOfLicense() {
        let catalog = FlickrCatalog()
        for listing in licenseListings {
            for page in 1...5 {
                let photos = catalog.page(of: listing, page: page, perPage: 20, extras: ["license"], baseURL: baseURL)
                    .photos
                let licenses = Set(photos.compactMap(\.license))
                #expect(photos.count == 20)
                for group in [allRightsReserved, creativeCommons2, publicDomain, addedLater] {
                    #expect(!licenses.isDisjoint(with: group), "\(listing) page \(page): \(licenses.sorted())")
                }
                #expect(licenses.contains { (Int($0) ?? 0) > 10 })
            }
            let all = (0..<600).map { FlickrCatalog.license(at: $0, in: listing) }
            for start in 0...(all.count - 19) {
                let window = Set(all[start..<start + 19])
                #expect(
                    [allRightsReserved, creativeCommons2, publicDomain, addedLater].allSatisfy {
                        !window.isDisjoint(with: $0)
                    },
                    "\(listing) photos \(start)..<\(start + 19)"
                )
            }
            #expect(Set(all) == Set(FlickrCatalog.licenses.map(\.id)), "every id comes up")
            #expect(all.filter { $0 == "0" }.count == 240, "four in ten are All Rights Reserved")
        }
        let hamburg = (0..<60).map { FlickrCatalog.license(at: $0, in: .search("hamburg")) }
        let recent = (0..<60).map { FlickrCatalog.license(at: $0, in: .recent) }
        #expect(hamburg != recent, "each listing shuffles its cycle")
    }

    @Test func theLicenseExtraChangesNoOtherField() {
        let catalog = FlickrCatalog()
        let withoutLicense = everyExtra.filter { $0 != "license" }
        for listing in licenseListings {
            for index in 0..<40 {
                var full = catalog.photo(at: index, in: listing, extras: everyExtra, baseURL: baseURL)
                let rest = catalog.photo(at: index, in: listing, extras: withoutLicense, baseURL: baseURL)
                #expect(full.license != nil && rest.license == nil)
                full.license = nil
                #expect(full == rest, "\(listing) photo \(index)")
                var viewsAndLicense = catalog.photo(at: index, in: listing, extras: ["license", "views"], baseURL: "")
                let views = catalog.photo(at: index, in: listing, extras: ["views"], baseURL: "")
                viewsAndLicense.license = nil
                #expect(viewsAndLicense == views)
            }
        }
    }

    @Test func licenseParameterIsReadLikeFlickrs() {
        #expect(FlickrCatalog.licenseFilter(nil) == nil)
        #expect(FlickrCatalog.licenseFilter("") == nil)
        #expect(FlickrCatalog.licenseFilter(" , ,") == nil)
        #expect(FlickrCatalog.licenseFilter("4") == ["4"])
        #expect(FlickrCatalog.licenseFilter("4,9, 11,") == ["4", "9", "11"])
        #expect(FlickrCatalog.licenseFilter("0,99,abc,-1") == ["0"])
        #expect(FlickrCatalog.licenseFilter("99,04,x") == [])
    }

    @Test func theFilterKeepsThePhotosWithThoseLicensesInOrder() {
        let catalog = FlickrCatalog(counts: ["short": 130, "huge": 9234])
        let unfiltered = (0..<130).map {
            catalog.photo(at: $0, in: .search("short"), extras: ["license", "url_m"], baseURL: baseURL)
        }
        for filter in [["4"], ["0"], ["4", "11"], ["9", "10", "7", "8"], ["16", "1"]] as [Set<String>] {
            let expected = unfiltered.filter { filter.contains($0.license ?? "") }
            let first = catalog.page(
                of: .search("short"), page: 1, perPage: 20, extras: ["license", "url_m"], licenses: filter,
                baseURL: baseURL)
            #expect(first.total == expected.count && first.pages == (expected.count + 19) / 20, "\(filter)")
            var filtered: [FlickrPhoto] = []
            for page in 1...max(first.pages, 1) {
                let list = catalog.page(
                    of: .search("short"), page: page, perPage: 20, extras: ["license", "url_m"], licenses: filter,
                    baseURL: baseURL)
                #expect(list.total == first.total && list.pages == first.pages)
                filtered += list.photos
            }
            #expect(filtered == expected, "\(filter)")
            #expect(filtered.allSatisfy { filter.contains($0.license ?? "") })
            let idsOnly = catalog.page(of: .search("short"), page: 1, perPage: 20, licenses: filter, baseURL: baseURL)
            #expect(
                idsOnly.photos.map(\.id) == first.photos.map(\.id) && idsOnly.photos.allSatisfy { $0.license == nil })
        }

        let everything = Set(FlickrCatalog.licenses.map(\.id))
        let all = catalog.page(of: .search("short"), page: 2, perPage: 50, licenses: everything, baseURL: baseURL)
        #expect(all == catalog.page(of: .search("short"), page: 2, perPage: 50, baseURL: baseURL))

        let none = catalog.page(of: .search("short"), page: 1, perPage: 20, licenses: [], baseURL: baseURL)
        #expect(none.photos.isEmpty && none.total == 0 && none.pages == 0)

        let huge = catalog.page(of: .search("huge"), page: 1, perPage: 500, licenses: everything, baseURL: baseURL)
        #expect(huge.total == 4000 && huge.pages == 8, "a filtered search counts the 4,000 it can reach")
        let rare = catalog.page(
            of: .search("huge"), page: 1, perPage: 500, extras: ["license"], licenses: ["8"], baseURL: baseURL)
        #expect(
            rare.total == 4000 / 60 * 3
                + (0..<4000 % 60).filter { FlickrCatalog.license(at: $0, in: .search("huge")) == "8" }.count)
        #expect(rare.photos.count == rare.total && rare.photos.allSatisfy { $0.license == "8" })
        let lastPage = catalog.page(
            of: .search("huge"), page: rare.total, perPage: 1, licenses: ["8"], baseURL: baseURL)
        #expect(lastPage.photos.count == 1 && lastPage.photos.last?.id == rare.photos.last?.id)
        #expect(
            catalog.page(of: .search("huge"), page: rare.total + 1, perPage: 1, licenses: ["8"], baseURL: baseURL)
                .photos.isEmpty)
    }
}
