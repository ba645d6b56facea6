import Foundation
import Testing

@testable import SampleAPI

private let base = "http://127.0.0.1:4321"

/// The Openverse catalogue on its own: results as functions of the term, their licenses, ids and hostile ones.
@Suite("Openverse catalogue")
struct OpenverseCatalogTests {
    private let catalog = OpenverseCatalog()

    private func results(_ term: String, count: Int = OpenverseCatalog.defaultCount) -> [OpenverseImage] {
        (0..<count).map { catalog.result(at: $0, for: term, baseURL: base) }
    }

    @Test func twoCataloguesGiveTheSameBytes() {
        let everything = OpenverseLicenseFilter(license: nil, licenseType: nil)
        for term in ["hafen", "Hamburg  Graffiti", ""] {
            let first = OpenverseCatalog().page(
                of: term, filter: everything, page: 2, pageSize: 20, pageLimit: 20, baseURL: base)
            let second = OpenverseCatalog().page(
                of: term, filter: everything, page: 2, pageSize: 20, pageLimit: 20, baseURL: base)
            #expect(first.json.data == second.json.data)
            #expect(first.results.count == 20)
        }
        #expect(results("hafen") != results("elbe"), "another term has other results")
        #expect(results("HAFEN ") == results("hafen"), "terms are normalised")
    }

    @Test func resultsVaryTheirProvidersLicensesCreatorsAndTags() {
        let all = results("hafen")
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(Set(all.map(\.provider)) == ["flickr", "wikimedia", "smithsonian"])
        let licenses = OpenverseLicenseFilter.knownLicenses + [OpenverseCatalog.unknownLicense]
        #expect(Set(all.map(\.license)) == Set(licenses))
        #expect(Set(all.compactMap(\.creator)).count >= 5)
        #expect(all.contains { $0.creatorURL == nil } && all.contains { $0.creatorURL?.hasPrefix("https://") == true })
        #expect(all.contains { $0.category == nil } && all.contains { $0.category == "photograph" })
        #expect(all.contains { $0.filesize == nil } && all.contains { ($0.filesize ?? 0) > 1000 })
        #expect(all.contains { $0.tags.contains { $0.accuracy != nil } })
        #expect(all.allSatisfy { result in result.tags.allSatisfy { ($0.accuracy ?? 0.5) > 0 } })
        for result in all where result.provider != "smithsonian" {
            #expect(result.source == result.provider)
        }
        for result in all where result.provider == "smithsonian" {
            #expect(result.source.hasPrefix("smithsonian_"))
        }
        for result in all where result.provider == "flickr" {
            #expect(captures(#"https://www\.flickr\.com/photos/[^/]+/\d{11}"#, in: result.foreignLandingURL) != nil)
        }
        for result in all where result.provider == "wikimedia" {
            #expect(result.foreignLandingURL.hasPrefix("https://commons.wikimedia.org/wiki/File:"))
            #expect(result.foreignLandingURL.hasSuffix(".jpg"))
        }
        #expect(all.allSatisfy { captures(#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, in: $0.indexedOn) != nil })
    }

    @Test func anyEightResultsInARowHoldEveryKnownLicenseOnce() {
        for term in ["hafen", "elbe", ""] {
            let licenses = (20..<100).map { OpenverseCatalog.license(at: $0, for: term) }
            for start in 0...(licenses.count - 8) {
                #expect(Set(licenses[start..<start + 8]) == Set(OpenverseLicenseFilter.knownLicenses))
            }
        }
    }

    @Test func licenseVersionsAndURLsFollowTheLicense() {
        for result in results("hafen", count: 200) where result.license != OpenverseCatalog.unknownLicense {
            let version = result.licenseVersion
            #expect(version != nil)
            switch result.license {
            case "cc0":
                #expect(version == "1.0" && result.licenseURL == "https://creativecommons.org/publicdomain/zero/1.0/")
            case "pdm":
                #expect(version == "1.0" && result.licenseURL == "https://creativecommons.org/publicdomain/mark/1.0/")
            default:
                #expect(["4.0", "3.0", "2.0"].contains(version ?? ""))
                #expect(
                    result.licenseURL == "https://creativecommons.org/licenses/\(result.license)/\(version ?? "")/")
            }
        }
    }

    @Test func attributionIsWrittenAsOpenversesAPIWritesIt() {
        #expect(
            OpenverseCatalog.attribution(
                title: "TITLE", creator: "CREATOR", license: "by-sa", version: "4.0",
                licenseURL: "https://creativecommons.org/licenses/by-sa/4.0/")
                == "\"TITLE\" by CREATOR is licensed under CC BY-SA 4.0. To view a copy of this license, visit "
                + "https://creativecommons.org/licenses/by-sa/4.0/.")
        #expect(
            OpenverseCatalog.attribution(
                title: nil, creator: nil, license: "cc0", version: "1.0",
                licenseURL: "https://creativecommons.org/publicdomain/zero/1.0/")
                == "This work is marked with CC0 1.0. To view the terms, visit "
                + "https://creativecommons.org/publicdomain/zero/1.0/.")
        #expect(
            OpenverseCatalog.attribution(
                title: "", creator: "Jo", license: "pdm", version: "1.0",
                licenseURL: "https://creativecommons.org/publicdomain/mark/1.0/")
                == "This work by Jo is marked with Public Domain Mark 1.0. To view the terms, visit "
                + "https://creativecommons.org/publicdomain/mark/1.0/.")
        #expect(
            OpenverseCatalog.attribution(
                title: "Kran", creator: "Jo", license: "all-rights-reserved-ish", version: nil, licenseURL: nil)
                == "\"Kran\" by Jo is licensed under CC ALL-RIGHTS-RESERVED-ISH.")
        for result in results("hafen") {
            #expect(
                result.attribution
                    == OpenverseCatalog.attribution(
                        title: result.title, creator: result.creator, license: result.license,
                        version: result.licenseVersion, licenseURL: result.licenseURL))
        }
    }

    @Test func hostileResultsAreAtTheirIndexes() throws {
        let all = results("hafen", count: 20)
        #expect(all.indices.filter { all[$0].mature } == OpenverseCatalog.matureIndexes)
        for result in all {
            #expect(result.unstableSensitivity == (result.mature ? ["user_reported_sensitive"] : []))
        }
        #expect(results("hafen", count: 40).filter(\.mature).count == 4)
        #expect(all[OpenverseCatalog.htmlTitleIndex].title == "<b>Hafen</b> <script>alert(1)</script>")
        #expect(all[OpenverseCatalog.htmlTitleIndex].attribution.hasPrefix("\"<b>Hafen</b> <script>"))
        #expect(all[OpenverseCatalog.scriptCreatorURLIndex].creatorURL == "javascript:alert(1)")
        #expect(all[OpenverseCatalog.scriptCreatorURLIndex].creator != nil)
        #expect(all[OpenverseCatalog.foreignImageIndex].url == "http://example.invalid/x.jpg")
        let unknown = all[OpenverseCatalog.unknownLicenseIndex]
        #expect(unknown.license == "all-rights-reserved-ish")
        #expect(unknown.licenseVersion == nil && unknown.licenseURL == nil)
        #expect(unknown.attribution.hasSuffix("is licensed under CC ALL-RIGHTS-RESERVED-ISH."))
        #expect(all[OpenverseCatalog.nullTitleIndex].title == nil)
        #expect(all[OpenverseCatalog.nullTitleIndex].attribution.hasPrefix("This work "))
        #expect(all[OpenverseCatalog.emptyTitleIndex].title == "")
        #expect(all[OpenverseCatalog.nullCreatorIndex].creator == nil)
        #expect(all[OpenverseCatalog.nullCreatorIndex].creatorURL == nil)
        #expect(!all[OpenverseCatalog.nullCreatorIndex].attribution.contains(" by "))
        #expect(all[OpenverseCatalog.emptyTagsIndex].tags.isEmpty)
        let long = try #require(all[OpenverseCatalog.longTitleIndex].title)
        #expect(long.count == 5_000 && long.hasSuffix("."))

        let hostile = Set(
            [
                OpenverseCatalog.htmlTitleIndex, OpenverseCatalog.scriptCreatorURLIndex,
                OpenverseCatalog.foreignImageIndex, OpenverseCatalog.unknownLicenseIndex,
                OpenverseCatalog.nullTitleIndex, OpenverseCatalog.emptyTitleIndex, OpenverseCatalog.nullCreatorIndex,
                OpenverseCatalog.emptyTagsIndex, OpenverseCatalog.longTitleIndex,
            ] + OpenverseCatalog.matureIndexes)
        #expect(hostile.count == 11, "no two hostile results share an index")
        for index in 0..<20 where !hostile.contains(index) {
            let result = all[index]
            #expect(result.url == "\(base)/openverse/images/\(result.id).jpg")
            #expect(!(result.title ?? "").isEmpty && (result.title ?? "").count < 100)
            #expect(result.creator != nil && !result.tags.isEmpty && !result.mature)
            #expect(result.creatorURL.map { $0.hasPrefix("https://") } ?? true)
            #expect(OpenverseLicenseFilter.knownLicenses.contains(result.license))
        }
    }

    @Test func everyIdNamesItsPictureAndNoOtherTextDoes() throws {
        let images = SampleImages.bundled
        for result in results("hafen") + results("graffiti") {
            let picture = try #require(OpenverseCatalog.picture(forID: result.id))
            let full = try #require(images.image(theme: picture.theme, number: picture.number, size: 1280))
            #expect(result.width == full.width && result.height == full.height)
            #expect(catalog.image(id: result.id, edge: 1280) == full)
            #expect(catalog.image(id: result.id, edge: 640)?.size == 640)
            #expect(catalog.image(id: result.id, edge: 150) == nil)
            #expect(result.thumbnail == "\(base)/v1/images/\(result.id)/thumb/")
            #expect(result.detailURL == "\(base)/v1/images/\(result.id)/")
            #expect(result.relatedURL == "\(base)/v1/images/\(result.id)/related/")
        }
        #expect(results("graffiti").allSatisfy { OpenverseCatalog.picture(forID: $0.id)?.theme == "graffiti" })
        let id = results("hafen")[0].id
        let thumbnailID = ThumbnailCatalog().coverage(at: 0, baseURL: base).thumbnail.id.dropFirst(4)
        for other in [
            "", "x", id.uppercased(), String(id.dropLast()) + (id.last == "0" ? "1" : "0"), String(thumbnailID),
            "00000000-0000-4000-8000-100000000000",
        ] {
            #expect(OpenverseCatalog.picture(forID: other) == nil, "\(other)")
        }
    }

    @Test func countsAreConfiguredByTermNormalisedAndClamped() {
        let configured = OpenverseCatalog(counts: ["Hafen  Kran": 7, "none": 0, "huge": 10_000_000], defaultCount: 12)
        #expect(configured.count(for: "hafen kran") == 7)
        #expect(configured.count(for: "none") == 0)
        #expect(configured.count(for: "huge") == OpenverseCatalog.maxCount)
        #expect(configured.count(for: "anything") == 12)
        #expect(OpenverseCatalog(defaultCount: -3).count(for: "x") == 0)
        #expect(OpenverseCatalog().count(for: "") == 60)
    }

    @Test func licenseFiltersKeepTheirGroups() {
        let none = OpenverseLicenseFilter(license: nil, licenseType: "")
        #expect(none.licenses == nil && none.keeps(OpenverseCatalog.unknownLicense))
        #expect(OpenverseLicenseFilter(license: "BY, cc0,,", licenseType: nil).licenses == ["by", "cc0"])
        #expect(
            OpenverseLicenseFilter(license: nil, licenseType: "commercial").licenses
                == ["by", "by-sa", "by-nd", "cc0", "pdm"])
        #expect(
            OpenverseLicenseFilter(license: nil, licenseType: "modification").licenses
                == ["by", "by-sa", "by-nc", "by-nc-sa", "cc0", "pdm"])
        #expect(
            OpenverseLicenseFilter(license: nil, licenseType: "commercial,modification").licenses
                == ["by", "by-sa", "cc0", "pdm"])
        #expect(OpenverseLicenseFilter(license: "by-nc,by", licenseType: "commercial").licenses == ["by"])
        #expect(OpenverseLicenseFilter(license: nil, licenseType: "free").licenses == [])
    }
}
