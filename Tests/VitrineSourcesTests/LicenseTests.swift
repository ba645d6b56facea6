import Foundation
import Testing
import VitrineBasics
import VitrineHTTP

@testable import VitrineSources
@testable import VitrineStore

/// What can be hostile: the license table and `license` extras come from the API (any name, any URL, ids that
/// are not in the table, wrong types); `--license` comes from the user. What we promise: a license is "allows
/// copies" only when its URL says so, an id the table lacks is unknown and never guessed, no text from the API
/// becomes a link unless it is http(s), and a choice that names no license is refused in one sentence.
@Suite struct LicenseTests {
    static func response(_ json: String, status: Int = 200) -> APIResponse {
        APIResponse(status: status, body: Array(json.utf8), fetchedAt: Date(timeIntervalSince1970: 0), fromCache: false)
    }

    static let table = """
        {"licenses":{"license":[
          {"id":"0","name":"All Rights Reserved","url":""},
          {"id":"1","name":"Attribution-NonCommercial-ShareAlike License","url":"https://creativecommons.org/licenses/by-nc-sa/2.0/"},
          {"id":4,"name":"Attribution License","url":"https://creativecommons.org/licenses/by/2.0/"},
          {"id":"7","name":"No known copyright restrictions","url":"https://www.flickr.com/commons/usage/"},
          {"id":"8","name":"United States Government Work","url":"http://www.usa.gov/copyright.shtml"},
          {"id":"9","name":"Public Domain Dedication (CC0)","url":"https://creativecommons.org/publicdomain/zero/1.0/"},
          {"id":"10","name":"Public Domain Mark","url":"https://creativecommons.org/publicdomain/mark/1.0/"},
          {"id":"11","name":"CC BY 4.0","url":"https://creativecommons.org/licenses/by/4.0/"},
          {"id":"42","name":"Some Future License","url":"https://example.org/license"},
          {"id":"43","name":"<b>javascript</b>","url":"javascript:alert(1)"},
          {"name":"no id","url":"https://creativecommons.org/licenses/by/2.0/"},
          "not an object"
        ]},"stat":"ok"}
        """

    @Test func flickrsTableIsReadFromItsNamesAndURLs() throws {
        let table = try FlickrSource.decodeLicenses(Self.response(Self.table))
        #expect(table.count == 10)
        #expect(
            table["0"]?.label == "All rights reserved" && table["0"]?.copies == .forbidden && table["0"]?.url == nil)
        #expect(table["1"]?.label == "CC BY-NC-SA 2.0" && table["1"]?.copies == .allowed)
        #expect(table["4"]?.label == "CC BY 2.0" && table["4"]?.url == "https://creativecommons.org/licenses/by/2.0/")
        #expect(table["7"]?.label == "No known copyright restrictions" && table["7"]?.allowsCopies == true)
        #expect(table["8"]?.label == "United States Government Work" && table["8"]?.allowsCopies == true)
        #expect(table["9"]?.label == "CC0 1.0" && table["10"]?.label == "Public Domain Mark 1.0")
        #expect(
            table["11"]?.label == "CC BY 4.0" && table["11"]?.name == "CC BY 4.0" && table["11"]?.allowsCopies == true)
        // A license Vitrine cannot read keeps its name and link, and is not taken to allow copies.
        #expect(table["42"]?.label == "Some Future License" && table["42"]?.copies == .unknown)
        #expect(table["42"]?.url == "https://example.org/license")
        #expect(table["43"]?.url == nil && table["43"]?.copies == .unknown)
    }

    @Test(arguments: [
        "https://creativecommons.org/licenses/by-xx/2.0/", "https://creativecommons.org/licenses/nc/2.0/",
        "https://creativecommons.org/licenses/by/two/", "https://creativecommons.org.evil.example/licenses/by/2.0/",
        "https://evil.example/creativecommons.org/licenses/by/2.0/", "ftp://creativecommons.org/licenses/by/2.0/",
        "https://creativecommons.org/publicdomain/other/1.0/", "https://www.flickr.com/commons/usage/more",
    ])
    func aURLThatIsNotAKnownLicenseNeverAllowsCopies(url: String) {
        let license = License.flickr(id: "5", name: "Looks free", url: url)
        #expect(license.copies == .unknown && license.label == "Looks free")
    }

    @Test func aFailedTableIsTheAPIsError() {
        let failure = #"{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}"#
        #expect(throws: SourceError.self) { try FlickrSource.decodeLicenses(Self.response(failure)) }
        #expect(throws: SourceError.self) { try FlickrSource.decodeLicenses(Self.response(#"{"stat":"ok"}"#)) }
        #expect(throws: SourceError.self) { try FlickrSource.decodeLicenses(Self.response("[]", status: 503)) }
    }

    @Test func aPhotosLicenseComesFromTheTableAndAnIDItLacksIsUnknown() throws {
        let table = try FlickrSource.decodeLicenses(Self.response(Self.table))
        let json = """
            {"photos":{"page":1,"pages":1,"photo":[
              {"id":"1","owner":"o@N01","secret":"ab","server":"1","license":"11"},
              {"id":"2","owner":"o@N01","secret":"ab","server":"1","license":0},
              {"id":"3","owner":"o@N01","secret":"ab","server":"1","license":"99"},
              {"id":"4","owner":"o@N01","secret":"ab","server":"1"}
            ]},"stat":"ok"}
            """
        let page = try FlickrSource.decodeREST(Self.response(json), page: 1, licenses: table)
        let licenses = page.items.map { item -> License? in
            guard case .found(_, _, _, _, let license, _, _, _) = item.entries[0] else { return nil }
            return license
        }
        #expect(
            licenses.map { $0?.label } == ["CC BY 4.0", "All rights reserved", "License unknown", "License unknown"])
        #expect(licenses[2]?.id == "99" && licenses[2]?.copies == .unknown && licenses[3]?.id == nil)
        guard case .found(_, let credit, _, _, _, _, _, _) = page.items[0].entries[0] else { return }
        #expect(credit?.authorURL == "https://www.flickr.com/photos/o@N01/")
    }

    @Test func aChoiceBecomesTheIDsTheSearchAsksFor() throws {
        let table = try FlickrSource.decodeLicenses(Self.response(Self.table))
        #expect(try FlickrSource.licenseIDs(for: .any, in: table) == [])
        #expect(try FlickrSource.licenseIDs(for: .reusable, in: table) == ["1", "4", "7", "8", "9", "10", "11"])
        #expect(
            try FlickrSource.licenseIDs(for: .named(["4", "cc by 4.0", "CC0-1.0"]), in: table) == ["4", "9", "11"])
        #expect(throws: LicenseChoiceError.self) {
            try FlickrSource.licenseIDs(for: .named(["4", "CC BY 9.0"]), in: table)
        }
        #expect(throws: LicenseChoiceError.self) { try FlickrSource.licenseIDs(for: .reusable, in: [:]) }
    }

    /// A table of a thousand licenses, none of which allows copies: a refused choice names a few, not all.
    @Test func aRefusedChoiceNamesAFewOfTheTablesLicensesNotAll() throws {
        let rows = (0..<1_000).map {
            #"{"id":"\#($0)","name":"\#(String(repeating: "Reserved ", count: 20))","url":""}"#
        }
        let json = #"{"licenses":{"license":["# + rows.joined(separator: ",") + #"]},"stat":"ok"}"#
        let table = try FlickrSource.decodeLicenses(Self.response(json))
        #expect(table.count == 1_000)
        for choice in [LicenseChoice.reusable, .named(["4", "CC BY 9.0"])] {
            let error = try #require(
                #expect(throws: LicenseChoiceError.self) { try FlickrSource.licenseIDs(for: choice, in: table) })
            #expect(error.sentence.utf8.count < 600, "\(error.sentence.utf8.count) bytes")
            #expect(error.sentence.contains("its 1000 licenses include 0 ("), "\(error.sentence)")
            if choice == .reusable {
                #expect(error.sentence.contains("none of its licenses allows copies"), "\(error.sentence)")
                #expect(!error.sentence.contains("names no"), "\(error.sentence)")
            }
        }
    }

    @Test(arguments: [
        ("CC BY 4.0", "CC BY 4.0"), ("cc-by-sa-4.0", "CC BY-SA 4.0"), ("CC-BY-NC-ND-2.0", "CC BY-NC-ND 2.0"),
        ("by nc 3.0", "CC BY-NC 3.0"), ("CC0", "CC0 1.0"), ("cc0-1.0", "CC0 1.0"), ("PDM", "Public Domain Mark 1.0"),
        ("https://creativecommons.org/licenses/by/4.0/", "CC BY 4.0"), (" own ", "The site's own"),
    ])
    func aLicenseTheSiteDeclaresIsReadFromItsLabelIDOrURL(text: String, label: String) throws {
        let license = try #require(License.declaredBySite(text))
        #expect(license.label == label && license.copies == .allowed && license.declaredBySite)
        #expect((license.url == nil) == (label == "The site's own"))
    }

    @Test(arguments: [
        "All Rights Reserved", "CC BY 9.0", "cc-by-sa-nd-4.0", "CC BY BY 4.0", "https://example.org/license",
        "javascript:alert(1)", "", "2", "ownership",
    ])
    func aDeclaredLicenseIsOneVitrineKnowsThatAllowsCopies(text: String) {
        #expect(License.declaredBySite(text) == nil)
    }

    @Test func theSearchAsksForTheChosenLicensesAndTheRecentPhotosCannot() {
        let search = FlickrSource(term: "harbour", itemCount: 10, key: "k")
        let url = search.request(page: 1, perPage: 10, licenseIDs: ["4", "11"]).url
        #expect(url.contains("license=4%2C11") && url.contains("extras=license%2C"))
        #expect(!search.request(page: 1, perPage: 10).url.contains("license=4"))
        let recent = FlickrSource(term: nil, itemCount: 10, key: "k")
        #expect(!recent.request(page: 1, perPage: 10, licenseIDs: ["4"]).url.contains("license=4"))
        #expect(search.licensesRequest().url.contains("method=flickr.photos.licenses.getInfo"))
        #expect(search.licensesRequest().secretQueryNames == ["api_key"])
    }

    @Test func theChoiceIsReadAsTheUserWritesIt() {
        #expect(LicenseChoice("any") == .any && LicenseChoice(" Reusable ") == .reusable)
        #expect(LicenseChoice("4, CC BY 2.0,,") == .named(["4", "CC BY 2.0"]))
        #expect(LicenseChoice("") == nil && LicenseChoice(" , ") == nil)
        #expect(LicenseChoice(String(repeating: "x", count: 101)) == nil)
        #expect(LicenseChoice.reusable.configuration != LicenseChoice.any.configuration)
        #expect(
            FlickrSource(term: "a", itemCount: 1, key: "k", licenses: .reusable).configuration
                != FlickrSource(term: "a", itemCount: 1, key: "k").configuration)
    }

    @Test func aFixedLicenseRefusesAChoiceThatLeavesNothing() {
        #expect(throws: Never.self) { try LicenseChoice.reusable.check(fixed: .pixabay, source: "Pixabay") }
        #expect(throws: Never.self) {
            try LicenseChoice.named(["Pixabay License"]).check(fixed: .pixabay, source: "Pixabay")
        }
        #expect(throws: LicenseChoiceError.self) {
            try LicenseChoice.named(["4"]).check(fixed: .pixabay, source: "Pixabay")
        }
        #expect(throws: LicenseChoiceError.self) {
            try LicenseChoice.reusable.check(fixed: .unknown, source: "the feed")
        }
        #expect(throws: Never.self) { try LicenseChoice.any.check(fixed: .unknown, source: "the feed") }
    }

    @Test func theFeedSaysNothingOfLicensesSoOnlyAnyApplies() async {
        let feed = FlickrSource(term: "harbour", itemCount: 5, key: nil, licenses: .reusable)
        await #expect(throws: LicenseChoiceError.self) { try await feed.collect(using: NoAnswers()) }
    }

    struct NoAnswers: APIResponseLoading {
        func load(_ request: FetchRequest) async throws -> APIResponse {
            throw SourceError.unavailable(source: "test", status: 500, message: "no answers here")
        }
    }
}

/// Pixabay's rights fields, as loosely as the API sends them: `isAiGenerated` as a boolean, 0/1 or text, and the
/// author's profile from `userURL` (only an http(s) one) or from the user's name and id.
@Suite struct PixabayRightsTests {
    func hit(_ fields: String) throws -> PixabaySource.Hit {
        let json = """
            {"totalHits":1,"hits":[{"id":7,"tags":"t","user":"jane_doe","pageURL":"https://pixabay.com/photos/t-7/",
             "webformatURL":"https://cdn.pixabay.com/7_640.jpg",\(fields)}]}
            """
        let page = try PixabaySource.decodePage(Array(json.utf8), query: "t", page: 1, fetchedAt: nil)
        return try #require(page.hits.first)
    }

    func parts(_ hit: PixabaySource.Hit) -> (credit: Credit?, license: License, ai: Bool)? {
        guard case .found(_, let credit, _, _, let license, let ai, _, _) = hit.entry else { return nil }
        return (credit, license, ai)
    }

    @Test(arguments: [
        (#""isAiGenerated":true"#, true), (#""isAiGenerated":1"#, true), (#""isAiGenerated":"true""#, true),
        (#""isAiGenerated":false"#, false), (#""isAiGenerated":0"#, false), (#""isAiGenerated":null"#, false),
        (#""isAiGenerated":2"#, false), (#""isAiGenerated":{"x":1}"#, false), (#""isLowQuality":1"#, false),
    ])
    func anAIMarkIsReadHoweverItIsSent(fields: String, expected: Bool) throws {
        let found = try #require(parts(try hit(fields)))
        #expect(found.ai == expected)
        #expect(found.license == .pixabay)
    }

    @Test func theAuthorsProfileIsAWebLinkOrBuiltFromThePlainNameAndID() throws {
        let given = try #require(parts(try hit(#""userURL":"https://pixabay.com/users/jane_doe-42/","user_id":42"#)))
        #expect(given.credit?.authorURL == "https://pixabay.com/users/jane_doe-42/")
        #expect(given.credit?.url == "https://pixabay.com/photos/t-7/")
        let built = try #require(parts(try hit(#""userURL":"javascript:alert(1)","user_id":"42""#)))
        #expect(built.credit?.authorURL == "https://pixabay.com/users/jane_doe-42/")
        let none = try #require(parts(try hit(#""user_id":"4 2""#)))
        #expect(none.credit?.authorURL == nil)
    }
}
