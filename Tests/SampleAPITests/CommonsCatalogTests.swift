import Foundation
import Testing

@testable import SampleAPI

private let base = "http://127.0.0.1:4321"

/// The Commons catalogue on its own: files as functions of the term, their names, licenses, metadata, renditions
/// and the special files at the fixed indexes.
@Suite("Commons catalogue")
struct CommonsCatalogTests {
    private let catalog = CommonsCatalog()

    private func files(_ term: String, count: Int = CommonsCatalog.defaultCount) -> [CommonsFile] {
        (0..<count).map { catalog.file(at: $0, for: term) }
    }

    @Test func uploadsAreFiledAndEncodedAsMediaWikiDoes() {
        let folders = CommonsCatalog.hashPath(of: "Collage_of_Nine_Dogs.jpg")
        #expect(folders.count == 4 && folders.dropFirst(2).hasPrefix(folders.prefix(1)))
        #expect(folders == CommonsCatalog.hashPath(of: "Collage_of_Nine_Dogs.jpg"))
        #expect(CommonsCatalog.rawURLEncoded("Beagle_(Pl._8)_'x'~ö.jpg") == "Beagle_%28Pl._8%29_%27x%27~%C3%B6.jpg")
        #expect(CommonsCatalog.wikiURLEncoded("Beagle_(Pl._8),_'x'_ö.jpg") == "Beagle_(Pl._8),_%27x%27_%C3%B6.jpg")
    }

    @Test func twoCataloguesGiveTheSameFiles() {
        for term in ["hafen", "Hamburg  Graffiti", "kran"] {
            #expect(CommonsCatalog().search(term, offset: 5, limit: 20) == catalog.search(term, offset: 5, limit: 20))
        }
        #expect(files("hafen") != files("elbe"), "another term has other files")
        #expect(files("HAFEN ") == files("hafen"), "terms are normalised")
    }

    @Test func filesHaveNamesIdsAndRanksOfTheirOwn() throws {
        let all = files("hafen", count: 500)
        #expect(Set(all.map(\.pageID)).count == all.count)
        #expect(Set(all.map(\.title)).count == all.count)
        #expect(all.map(\.index) == Array(1...500))
        #expect(all.allSatisfy { $0.pageID >= CommonsCatalog.firstPageID && $0.pageID < 10_000_000 + (1 << 26) })
        #expect(all.map(\.pageID) != all.map(\.pageID).sorted(), "page ids do not follow the ranks")
        for file in all {
            #expect(file.title.hasPrefix("File:") && file.title.hasSuffix(").\(file.kind.fileExtension)"))
            #expect(
                !file.name.contains(" ")
                    && file.name == String(file.title.dropFirst(5)).replacingOccurrences(of: " ", with: "_"))
            let picture = try #require(CommonsCatalog.picture(forName: file.name), "\(file.name)")
            #expect(picture.kind == file.kind && picture.theme == file.theme && picture.number == file.pictureNumber)
            #expect(captures(#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, in: file.timestamp) != nil)
        }
        #expect(all.contains { $0.title.contains("Övelgönne") }, "names hold letters that need percent-encoding")
        #expect(Set(all.map(\.theme)) == ["city", "graffiti"])
        #expect(files("hamburg graffiti").allSatisfy { $0.theme == "graffiti" })
        let name = all[0].name
        let stem = name.dropLast(".jpg".count)
        let otherCheck = stem.dropLast().last == "0" ? "1" : "0"
        for other in [
            "", "x.jpg", stem + ".png", stem + ".pdf", name.replacingOccurrences(of: "_(5", with: "_(6"),
            stem.dropLast(2) + otherCheck + ").jpg", name.replacingOccurrences(of: "_", with: " "),
        ] {
            #expect(CommonsCatalog.picture(forName: other) == nil, "\(other)")
        }
    }

    @Test func searchesPageThroughTheFiles() {
        let configured = CommonsCatalog(counts: ["Hafen  Kran": 7, "none": 0, "huge": 10_000_000], defaultCount: 12)
        #expect(configured.count(for: "hafen kran") == 7)
        #expect(configured.count(for: "none") == 0 && configured.count(for: "anything") == 12)
        #expect(configured.count(for: "huge") == CommonsCatalog.maxCount)
        #expect(CommonsCatalog(defaultCount: -3).count(for: "x") == 0)
        let first = catalog.search("hafen", offset: 0, limit: 25)
        #expect(first.files.map(\.index) == Array(1...25) && first.nextOffset == 25)
        let last = catalog.search("hafen", offset: 50, limit: 25)
        #expect(last.files.map(\.index) == Array(51...60) && last.nextOffset == nil)
        #expect(catalog.search("hafen", offset: 60, limit: 10) == CommonsSearchBatch(files: [], nextOffset: nil))
        #expect(catalog.search("hafen", offset: 500, limit: 10).files.isEmpty)
        #expect(configured.search("none", offset: 0, limit: 10) == CommonsSearchBatch(files: [], nextOffset: nil))
    }

    @Test func licensesRunThroughCommonsShapes() {
        for term in ["hafen", "elbe"] {
            let names = (20..<60).map { CommonsCatalog.license(at: $0, for: term).shortName }
            for start in 0...(names.count - 5) {
                #expect(Set(names[start..<start + 5]) == Set(CommonsCatalog.licenses.map(\.shortName)))
            }
        }
        for file in files("hafen", count: 100) where file.index > 20 {
            let license = CommonsCatalog.license(at: file.index - 1, for: "hafen")
            #expect(file.metadataValue("LicenseShortName") == license.shortName)
            #expect(file.metadataValue("LicenseUrl") == license.url)
            #expect(file.metadataValue("UsageTerms") == license.usageTerms)
            #expect(file.metadataValue("AttributionRequired") == (license.attributionRequired ? "true" : "false"))
            #expect(file.metadataValue("Copyrighted") == (license.copyrighted ? "True" : "False"))
        }
        let urls = CommonsCatalog.licenses.compactMap(\.url)
        #expect(urls.allSatisfy { !$0.hasSuffix("/") } && urls.contains { $0.hasPrefix("http://") })
        #expect(urls.contains("https://creativecommons.org/licenses/by-sa/3.0/de/deed.en"))
    }

    @Test func ordinaryFilesArePhotosWhoseArtistLinksAUserPage() {
        let special: Set = [
            CommonsCatalog.pdfIndex, CommonsCatalog.djvuIndex, CommonsCatalog.audioIndex, CommonsCatalog.videoIndex,
            CommonsCatalog.svgIndex, CommonsCatalog.noLicenseIndex, CommonsCatalog.publicDomainIndex,
            CommonsCatalog.scriptArtistIndex, CommonsCatalog.hostileLicenseURLIndex,
            CommonsCatalog.noObjectNameIndex, CommonsCatalog.noThumbnailIndex, CommonsCatalog.plainArtistIndex,
        ]
        #expect(special.count == 12 && special.allSatisfy { (0..<20).contains($0) }, "one index each, below 20")
        let all = files("hafen")
        let fieldNames = [
            "ObjectName", "Credit", "Artist", "LicenseShortName", "UsageTerms", "AttributionRequired", "LicenseUrl",
            "Copyrighted",
        ]
        for file in all where !special.contains(file.index - 1) {
            #expect(file.kind == .jpeg && file.hasThumbnail && file.width > 0 && file.height > 0 && file.size > 0)
            let artist = file.metadataValue("Artist") ?? ""
            #expect(artist.contains(#"<a href="//commons.wikimedia.org/"#) && artist.contains("User:"))
            #expect(file.metadataValue("Credit")?.hasPrefix(#"<span class="int-own-work" lang=""#) == true)
            #expect(!(file.metadataValue("ObjectName") ?? "").isEmpty)
            let expected = fieldNames.filter { $0 != "LicenseUrl" || file.metadataValue("LicenseUrl") != nil }
            #expect(file.metadata.map(\.name) == expected)
            #expect(file.metadata.allSatisfy { $0.hidden == ($0.name != "Artist") })
        }
        let artists = all.compactMap { $0.metadataValue("Artist") }
        #expect(artists.contains { $0.contains("&amp;action=edit&amp;redlink=1") })
        #expect(artists.contains { $0.hasPrefix("<bdi>") } && artists.contains { $0.contains("</a> &amp; <a") })
        #expect(all.contains { $0.width < 1280 } && all.contains { $0.width >= 4000 })
        #expect(all.contains { $0.height > $0.width }, "portrait photos too")
    }

    @Test func specialFilesAreAtTheirIndexes() throws {
        let all = files("hafen", count: 20)
        let pdf = all[CommonsCatalog.pdfIndex]
        #expect(pdf.kind == .pdf && pdf.kind.mime == "application/pdf" && pdf.title.hasSuffix(".pdf"))
        #expect((pdf.pageCount ?? 0) >= 2 && pdf.hasThumbnail)
        let djvu = all[CommonsCatalog.djvuIndex]
        #expect(djvu.kind.mime == "image/vnd.djvu" && djvu.title.hasSuffix(".djvu") && djvu.pageCount != nil)
        let audio = all[CommonsCatalog.audioIndex]
        #expect(audio.kind.mime == "application/ogg" && audio.title.hasSuffix(".ogg"))
        #expect(audio.width == 0 && audio.height == 0 && (audio.duration ?? 0) > 0 && !audio.hasThumbnail)
        let video = all[CommonsCatalog.videoIndex]
        #expect(video.kind.mime == "video/webm" && video.duration != nil && video.hasThumbnail)
        #expect(all[CommonsCatalog.svgIndex].kind.mime == "image/svg+xml")

        let unlicensed = all[CommonsCatalog.noLicenseIndex]
        for name in ["LicenseShortName", "LicenseUrl", "UsageTerms"] {
            #expect(unlicensed.metadataValue(name) == nil)
        }
        let publicDomain = all[CommonsCatalog.publicDomainIndex]
        #expect(publicDomain.metadataValue("LicenseShortName") == "Public domain")
        #expect(publicDomain.metadataValue("LicenseUrl") == nil)
        #expect(publicDomain.metadataValue("AttributionRequired") == "false")
        #expect(
            all[CommonsCatalog.scriptArtistIndex].metadataValue("Artist")
                == #"<a href="javascript:alert(1)">Mallory</a><script>alert(2)</script> &amp; <b>friends</b>"#)
        let hostile = all[CommonsCatalog.hostileLicenseURLIndex]
        #expect(hostile.metadataValue("LicenseUrl") == "javascript:alert(1)")
        #expect(hostile.metadataValue("LicenseShortName") == "CC BY 4.0")
        #expect(hostile.metadata.map(\.name).suffix(2) == ["LicenseUrl", "Copyrighted"])
        #expect(all[CommonsCatalog.noObjectNameIndex].metadataValue("ObjectName") == nil)
        let unrendered = all[CommonsCatalog.noThumbnailIndex]
        #expect(unrendered.kind == .jpeg && !unrendered.hasThumbnail)
        #expect(catalog.rendition(of: unrendered, width: 1280, baseURL: base) == nil)
        #expect(all[CommonsCatalog.plainArtistIndex].metadataValue("Artist") == "Nicholson, Henry Alleyne")
    }

    @Test func renditionsFollowMediaWikisRules() throws {
        let all = files("hafen")
        let photo = try #require(all.first { $0.kind == .jpeg && $0.hasThumbnail && $0.width >= 2_000 })
        let folders = CommonsCatalog.hashPath(of: photo.name)
        let encoded = CommonsCatalog.rawURLEncoded(photo.name)
        let thumbnail = try #require(catalog.rendition(of: photo, width: 1280, baseURL: base))
        #expect(thumbnail.url == "\(base)/upload/thumb/\(folders)/\(encoded)/1280px-\(encoded)")
        #expect(thumbnail.width == 1280)
        #expect(thumbnail.height == Int((Double(photo.height) * 1280 / Double(photo.width)).rounded()))
        let original = try #require(catalog.rendition(of: photo, width: photo.width, baseURL: base))
        #expect(original.url == "\(base)/upload/\(folders)/\(encoded)" && original.width == photo.width)
        #expect(catalog.rendition(of: photo, width: 0, baseURL: base) == nil)

        let drawing = all[CommonsCatalog.svgIndex]
        let wide = try #require(catalog.rendition(of: drawing, width: drawing.width * 3, baseURL: base))
        #expect(
            wide.width == drawing.width * 3
                && wide.url.hasSuffix("px-\(CommonsCatalog.rawURLEncoded(drawing.name)).png"))
        #expect(catalog.rendition(of: drawing, width: 9_000, baseURL: base)?.width == CommonsCatalog.widestRendition)
        let pdf = all[CommonsCatalog.pdfIndex]
        let page = try #require(catalog.rendition(of: pdf, width: 5_000, baseURL: base))
        #expect(
            page.width == pdf.width
                && page.url.hasSuffix("/page1-\(pdf.width)px-\(CommonsCatalog.rawURLEncoded(pdf.name)).jpg"))
        let video = all[CommonsCatalog.videoIndex]
        #expect(catalog.rendition(of: video, width: 640, baseURL: base)?.url.contains("/640px--") == true)
        #expect(catalog.rendition(of: all[CommonsCatalog.audioIndex], width: 640, baseURL: base) == nil)
    }

    @Test func everyRenditionNameIsReadBackAndNoOtherIs() throws {
        for kind in CommonsMediaKind.allCases where kind != .audio {
            let name = "Kran_(51070000123).\(kind.fileExtension)"
            for width in [1, 500, 640, 1280, 4000] {
                let thumbnail = try #require(kind.thumbnailName(of: name, width: width))
                #expect(kind.width(inThumbnailName: thumbnail, of: name) == width)
            }
            for wrong in ["0640px-\(name)", "px-\(name)", "640px-Other.jpg", "-640px-\(name)", "640px_\(name)"] {
                #expect(kind.width(inThumbnailName: wrong, of: name) == nil, "\(wrong)")
            }
        }
        #expect(CommonsMediaKind.audio.thumbnailName(of: "A.ogg", width: 640) == nil)
        #expect(CommonsMediaKind.jpeg.width(inThumbnailName: "640px-A.jpg.png", of: "A.jpg") == nil)
        #expect(CommonsMediaKind.svg.width(inThumbnailName: "640px-A.svg", of: "A.svg") == nil)
    }

    @Test func imagesAreFoundByTheirPathsOnly() throws {
        let all = files("hafen", count: 20)
        let photo = all[0]
        let folders = CommonsCatalog.hashPath(of: photo.name).split(separator: "/").map(String.init)
        let pair = (folders[0], folders[1])
        let small = try #require(catalog.image(folders: pair, name: photo.name, thumbnailName: "500px-\(photo.name)"))
        #expect(small.size == 640 && small.theme == photo.theme && small.number == photo.pictureNumber)
        #expect(catalog.image(folders: pair, name: photo.name, thumbnailName: "641px-\(photo.name)")?.size == 1280)
        #expect(catalog.image(folders: pair, name: photo.name, thumbnailName: nil)?.size == 1280)
        #expect(catalog.image(folders: pair, name: photo.name, thumbnailName: "4001px-\(photo.name)") == nil)
        let otherFolder = folders[0] + (folders[1].last == "0" ? "1" : "0")
        #expect(catalog.image(folders: (folders[0], otherFolder), name: photo.name, thumbnailName: nil) == nil)
        for index in [CommonsCatalog.svgIndex, CommonsCatalog.pdfIndex, CommonsCatalog.audioIndex] {
            let file = all[index]
            let parts = CommonsCatalog.hashPath(of: file.name).split(separator: "/").map(String.init)
            #expect(catalog.image(folders: (parts[0], parts[1]), name: file.name, thumbnailName: nil) == nil)
        }
    }
}
