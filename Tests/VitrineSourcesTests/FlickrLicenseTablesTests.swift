import Foundation
import Testing

@testable import VitrineSources

/// Flickr's `flickr.photos.licenses.getInfo` table as Flickr has answered it over the years: the same ids, with
/// other names and URLs. What can be wrong: Vitrine reading one year's table and misreading another's (All Rights
/// Reserved with a help page instead of no URL, the United States Government Work on another usa.gov page). What we
/// promise: each table's every id is recognised from its name and URL together, the same way whatever the year.
@Suite struct FlickrLicenseTablesTests {
    /// The table as Flickr answers it now: ids 0–16, short names for the Creative Commons licenses, a help page for
    /// All Rights Reserved.
    static let current = """
        {"licenses":{"license":[
          {"id":0,"name":"All Rights Reserved","url":"https://www.flickrhelp.com/hc/en-us/articles/10710266545556-Using-Flickr-images-shared-by-other-members"},
          {"id":1,"name":"CC BY-NC-SA 2.0","url":"https://creativecommons.org/licenses/by-nc-sa/2.0/"},
          {"id":2,"name":"CC BY-NC 2.0","url":"https://creativecommons.org/licenses/by-nc/2.0/"},
          {"id":3,"name":"CC BY-NC-ND 2.0","url":"https://creativecommons.org/licenses/by-nc-nd/2.0/"},
          {"id":4,"name":"CC BY 2.0","url":"https://creativecommons.org/licenses/by/2.0/"},
          {"id":5,"name":"CC BY-SA 2.0","url":"https://creativecommons.org/licenses/by-sa/2.0/"},
          {"id":6,"name":"CC BY-ND 2.0","url":"https://creativecommons.org/licenses/by-nd/2.0/"},
          {"id":7,"name":"No known copyright restrictions","url":"https://www.flickr.com/commons/usage/"},
          {"id":8,"name":"United States Government Work","url":"https://www.usa.gov/government-copyright"},
          {"id":9,"name":"Public Domain Dedication (CC0)","url":"https://creativecommons.org/publicdomain/zero/1.0/"},
          {"id":10,"name":"Public Domain Mark","url":"https://creativecommons.org/publicdomain/mark/1.0/"},
          {"id":11,"name":"CC BY 4.0","url":"https://creativecommons.org/licenses/by/4.0/"},
          {"id":12,"name":"CC BY-SA 4.0","url":"https://creativecommons.org/licenses/by-sa/4.0/"},
          {"id":13,"name":"CC BY-ND 4.0","url":"https://creativecommons.org/licenses/by-nd/4.0/"},
          {"id":14,"name":"CC BY-NC 4.0","url":"https://creativecommons.org/licenses/by-nc/4.0/"},
          {"id":15,"name":"CC BY-NC-SA 4.0","url":"https://creativecommons.org/licenses/by-nc-sa/4.0/"},
          {"id":16,"name":"CC BY-NC-ND 4.0","url":"https://creativecommons.org/licenses/by-nc-nd/4.0/"}
        ]},"stat":"ok"}
        """

    /// The table of 2023: ids 0–10, long names, no URL for All Rights Reserved, the old usa.gov page.
    static let of2023 = """
        {"licenses":{"license":[
          {"id":"0","name":"All Rights Reserved","url":""},
          {"id":"4","name":"Attribution License","url":"https://creativecommons.org/licenses/by/2.0/"},
          {"id":"6","name":"Attribution-NoDerivs License","url":"https://creativecommons.org/licenses/by-nd/2.0/"},
          {"id":"3","name":"Attribution-NonCommercial-NoDerivs License","url":"https://creativecommons.org/licenses/by-nc-nd/2.0/"},
          {"id":"2","name":"Attribution-NonCommercial License","url":"https://creativecommons.org/licenses/by-nc/2.0/"},
          {"id":"1","name":"Attribution-NonCommercial-ShareAlike License","url":"https://creativecommons.org/licenses/by-nc-sa/2.0/"},
          {"id":"5","name":"Attribution-ShareAlike License","url":"https://creativecommons.org/licenses/by-sa/2.0/"},
          {"id":"7","name":"No known copyright restrictions","url":"https://www.flickr.com/commons/usage/"},
          {"id":"8","name":"United States Government Work","url":"http://www.usa.gov/copyright.shtml"},
          {"id":"9","name":"Public Domain Dedication (CC0)","url":"https://creativecommons.org/publicdomain/zero/1.0/"},
          {"id":"10","name":"Public Domain Mark","url":"https://creativecommons.org/publicdomain/mark/1.0/"}
        ]},"stat":"ok"}
        """

    /// The table of 2012: ids 0–8, http URLs, Flickr Commons on flickr.com without "www".
    static let of2012 = """
        {"licenses":{"license":[
          {"id":"0","name":"All Rights Reserved","url":""},
          {"id":"1","name":"Attribution-NonCommercial-ShareAlike License","url":"http://creativecommons.org/licenses/by-nc-sa/2.0/"},
          {"id":"2","name":"Attribution-NonCommercial License","url":"http://creativecommons.org/licenses/by-nc/2.0/"},
          {"id":"3","name":"Attribution-NonCommercial-NoDerivs License","url":"http://creativecommons.org/licenses/by-nc-nd/2.0/"},
          {"id":"4","name":"Attribution License","url":"http://creativecommons.org/licenses/by/2.0/"},
          {"id":"5","name":"Attribution-ShareAlike License","url":"http://creativecommons.org/licenses/by-sa/2.0/"},
          {"id":"6","name":"Attribution-NoDerivs License","url":"http://creativecommons.org/licenses/by-nd/2.0/"},
          {"id":"7","name":"No known copyright restrictions","url":"http://flickr.com/commons/usage/"},
          {"id":"8","name":"United States Government Work","url":"http://www.usa.gov/copyright.shtml"}
        ]},"stat":"ok"}
        """

    /// Each id's short label, the same in every year's table.
    static let labels: [String: String] = [
        "0": "All rights reserved", "1": "CC BY-NC-SA 2.0", "2": "CC BY-NC 2.0", "3": "CC BY-NC-ND 2.0",
        "4": "CC BY 2.0", "5": "CC BY-SA 2.0", "6": "CC BY-ND 2.0", "7": "No known copyright restrictions",
        "8": "United States Government Work", "9": "CC0 1.0", "10": "Public Domain Mark 1.0", "11": "CC BY 4.0",
        "12": "CC BY-SA 4.0", "13": "CC BY-ND 4.0", "14": "CC BY-NC 4.0", "15": "CC BY-NC-SA 4.0",
        "16": "CC BY-NC-ND 4.0",
    ]

    static func table(_ json: String) throws -> [String: License] {
        try FlickrSource.decodeLicenses(LicenseTests.response(json))
    }

    @Test(arguments: [(current, 16), (of2023, 10), (of2012, 8)])
    func everyYearsTableIsReadTheSameWay(json: String, lastID: Int) throws {
        let table = try Self.table(json)
        #expect(table.keys.sorted { Int($0)! < Int($1)! } == (0...lastID).map(String.init))
        for (id, license) in table {
            #expect(license.label == Self.labels[id], "\(id)")
            #expect(license.copies == (id == "0" ? .forbidden : .allowed), "\(id)")
            #expect(license.url != nil || id == "0", "\(id)")
        }
        #expect(try FlickrSource.licenseIDs(for: .reusable, in: table) == (1...lastID).map(String.init))
        #expect(try FlickrSource.licenseIDs(for: .named(["all rights reserved"]), in: table) == ["0"])
        #expect(
            try FlickrSource.licenseIDs(for: .named(["United States Government Work"]), in: table) == ["8"])
    }

    @Test func theCurrentTableKeepsAllRightsReservedsHelpPageAsItsLink() throws {
        let reserved = try #require(try Self.table(Self.current)["0"])
        #expect(reserved.name == "All Rights Reserved" && reserved.copies == .forbidden)
        #expect(reserved.url?.hasPrefix("https://www.flickrhelp.com/hc/en-us/articles/") == true)
        let contradicted = License.flickr(
            id: "0", name: "All Rights Reserved", url: "https://creativecommons.org/licenses/by/2.0/")
        #expect(contradicted.copies == .forbidden && contradicted.url == nil)
    }

    /// A name and a URL that disagree never make a photo copyable that one of them says may not be.
    @Test(arguments: [
        ("All Rights Reserved", "https://creativecommons.org/licenses/by/2.0/", License.Copies.forbidden),
        ("all rights reserved", "https://evil.example/", .forbidden),
        ("United States Government Work", "https://evil.example/copyright.shtml", .unknown),
        ("United States Government Work", "https://www.usa.gov.evil.example/government-copyright", .unknown),
        ("United States Government Work", "", .unknown),
        ("Public domain, really", "https://www.usa.gov/government-copyright", .unknown),
        ("No known copyright restrictions", "https://evil.example/commons/usage/", .unknown),
    ])
    func aNameAndAURLThatDisagreeAllowNoCopies(name: String, url: String, copies: License.Copies) {
        #expect(License.flickr(id: "8", name: name, url: url).copies == copies)
    }
}
