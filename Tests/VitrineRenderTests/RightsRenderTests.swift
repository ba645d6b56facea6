import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrineRender
@testable import VitrineSources
@testable import VitrineStore

/// How the built-in theme shows each picture's license: the credit in words (title, author, source, license, each
/// linked), a picture that may not be copied from its own URL, rights data (JSON-LD) and link-preview cards.
@Suite struct RightsRenderTests {
    static let reserved = License.flickr(id: "0", name: "All Rights Reserved", url: "")
    static let attribution = License.flickr(
        id: "11", name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/")

    /// Two Flickr photos: one all rights reserved (never downloaded), one under CC BY 4.0 (downloaded unless
    /// `downloaded` is false: then its download failed) that the API says an AI made; the caption of the first is
    /// hostile. With `second`, the second photo is under that license instead.
    static func gallery(baseURL: String? = nil, downloaded: Bool = true, second: License = attribution)
        -> GalleryModel
    {
        let record = CacheStore.ImageRecord(sha256: String(repeating: "cd", count: 32), format: .jpeg, byteCount: 10)
        func photo(_ id: Int, caption: String, license: License, ai: Bool) -> SourceItem {
            SourceItem(
                sourceID: String(id),
                entries: [
                    .found(
                        caption: caption,
                        credit: Credit(
                            name: "Anna \"A\" <Ö>", url: "https://www.flickr.com/photos/o@N01/\(id)",
                            authorURL: "https://www.flickr.com/photos/o@N01/"),
                        tile: RemoteImage(url: "https://live.staticflickr.com/1/\(id)_z.jpg", width: 640, height: 480),
                        full: RemoteImage(url: "https://live.staticflickr.com/1/\(id)_b.jpg", width: 1024, height: 768),
                        license: license, aiGenerated: ai)
                ])
        }
        let result = SourceResult(
            title: "Harbour",
            source: SourceDescription(name: "flickr", label: "Flickr", home: "https://www.flickr.com/"),
            variants: [SourceVariant(key: "original", label: "Photo", query: "harbour")],
            items: [
                photo(
                    1, caption: "</script><script>alert(1)</script> \"quoted\" \\ back\nline", license: reserved,
                    ai: false),
                photo(2, caption: "Crane at dusk", license: second, ai: true),
            ],
            fetchedAt: nil)
        let images: [String: ImageOutcome] =
            downloaded
            ? [
                "https://live.staticflickr.com/1/2_z.jpg": .stored(record),
                "https://live.staticflickr.com/1/2_b.jpg": .stored(record),
            ]
            : [
                "https://live.staticflickr.com/1/2_z.jpg": .failed(reason: "Download failed: HTTP 404"),
                "https://live.staticflickr.com/1/2_b.jpg": .failed(reason: "Download failed: HTTP 404"),
            ]
        let site = baseURL.map { GalleryModel.SiteLink(title: "Photos", href: "index.html", baseURL: $0) }
        return GalleryAssembler(itemsPerPage: 10, folder: site == nil ? "" : "harbour/", site: site)
            .assemble(result, images: images)
    }

    func render(_ job: GalleryModel.PageJob, _ gallery: GalleryModel) throws -> LibXMLDocument {
        let page = try PageRenderer(theme: .builtIn).render(job, model: ModelDocument.make(gallery))
        return try LibXMLDocument.parseHTML(page.bytes)
    }

    func dataBlock(_ html: LibXMLDocument) throws -> [String: Any] {
        let texts = html.strings("//script[@type='application/ld+json']")
        #expect(
            JSONLD.onlyDataBlocks(
                types: html.strings("//script[not(@src)]/@type"), texts: html.strings("//script[not(@src)]")))
        return try #require(texts.count == 1 ? JSONLD.object(texts[0]) : nil)
    }

    @Test func aPictureThatMayNotBeCopiedIsShownFromItsOwnURLWithItsRightsAndTheLinkBack() throws {
        let gallery = Self.gallery()
        let html = try render(.init(kind: .preview, id: "i1-original", href: "items/1-original.html"), gallery)
        #expect(html.strings("//main//img/@src") == ["https://live.staticflickr.com/1/1_b.jpg"])
        #expect(
            html.strings("//main//img/@srcset") == [
                "https://live.staticflickr.com/1/1_z.jpg 640w, https://live.staticflickr.com/1/1_b.jpg 1024w"
            ])
        let credit = html.strings("//p[@class='credit']").joined()
        #expect(credit.contains("Photo by Anna \"A\" <Ö> on Flickr · All rights reserved"), "\(credit)")
        #expect(
            html.strings("//p[@class='credit']/a/@href") == [
                "https://www.flickr.com/photos/o@N01/", "https://www.flickr.com/photos/o@N01/1",
            ])
        #expect(html.strings("//span[@class='license']/@data-copies") == ["forbidden"])
        let object = try dataBlock(html)
        #expect(object["@type"] as? String == "ImageObject")
        #expect(object["contentUrl"] as? String == "https://live.staticflickr.com/1/1_b.jpg")
        #expect(object["name"] as? String == "</script><script>alert(1)</script> \"quoted\" \\ back line")
        #expect(object["acquireLicensePage"] as? String == "https://www.flickr.com/photos/o@N01/1")
        #expect(object["license"] == nil)
        #expect(object["creditText"] as? String == "Photo by Anna \"A\" <Ö> on Flickr")
        #expect(object["copyrightNotice"] as? String == "© Anna \"A\" <Ö>. All rights reserved.")
        let creator = try #require(object["creator"] as? [String: Any])
        #expect(creator["name"] as? String == "Anna \"A\" <Ö>")
        #expect(creator["url"] as? String == "https://www.flickr.com/photos/o@N01/")
        // No base URL: no card, whose URLs must be absolute.
        #expect(html.strings("//meta[starts-with(@property, 'og:')]").isEmpty)
    }

    @Test func aLicensedPictureIsAFileOfTheSiteAndLinksItsLicense() throws {
        let gallery = Self.gallery()
        let html = try render(.init(kind: .preview, id: "i2-original", href: "items/2-original.html"), gallery)
        #expect(html.strings("//main//img/@src") == ["../images/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.jpg"])
        #expect(html.strings("//span[@class='license']/a/@href") == ["https://creativecommons.org/licenses/by/4.0/"])
        #expect(html.strings("//span[@class='license']/a") == ["CC BY 4.0"])
        #expect(html.strings("//span[@class='ai']") == ["AI-generated"])
        let object = try dataBlock(html)
        #expect(object["license"] as? String == "https://creativecommons.org/licenses/by/4.0/")
        #expect(object["contentUrl"] as? String == "../images/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.jpg")
        #expect(object["copyrightNotice"] as? String == "© Anna \"A\" <Ö>")
    }

    @Test func gridTilesShowEachLicenseAndThePageDescribesItsPictures() throws {
        let html = try render(.init(kind: .grid, id: "c1-p1", href: "index.html"), Self.gallery())
        #expect(html.strings("//li[@class='tile']//span[@class='license']") == ["All rights reserved", "CC BY 4.0"])
        #expect(html.strings("//li[@class='tile']//span[@class='ai']") == ["AI-generated"])
        #expect(html.strings("//li[@class='tile']//img/@src").first == "https://live.staticflickr.com/1/1_z.jpg")
        let object = try dataBlock(html)
        #expect(object["@type"] as? String == "ImageGallery")
        let media = try #require(object["associatedMedia"] as? [[String: Any]])
        #expect(
            media.compactMap { $0["contentUrl"] as? String } == [
                "https://live.staticflickr.com/1/1_b.jpg", "images/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.jpg",
            ])
    }

    @Test func withABaseURLEveryPageHasAnAbsoluteCard() throws {
        let gallery = Self.gallery(baseURL: "https://example.org/photos/")
        let preview = try render(
            .init(kind: .preview, id: "i2-original", href: "harbour/items/2-original.html"), gallery)
        func meta(_ html: LibXMLDocument, _ property: String) -> [String] {
            html.strings("//meta[@property='\(property)']/@content")
        }
        #expect(meta(preview, "og:url") == ["https://example.org/photos/harbour/items/2-original.html"])
        #expect(meta(preview, "og:image") == ["https://example.org/photos/images/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.jpg"])
        #expect(meta(preview, "og:title").first?.hasPrefix("Crane at dusk") == true)
        #expect(meta(preview, "og:description") == ["Photo by Anna \"A\" <Ö> on Flickr · CC BY 4.0"])
        #expect(preview.strings("//meta[@name='twitter:card']/@content") == ["summary_large_image"])
        #expect(
            try dataBlock(preview)["contentUrl"] as? String
                == "https://example.org/photos/images/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.jpg")
        let hotlinked = try render(
            .init(kind: .preview, id: "i1-original", href: "harbour/items/1-original.html"), gallery)
        #expect(meta(hotlinked, "og:title").count == 1 && meta(hotlinked, "og:description").count == 1)
        let grid = try render(.init(kind: .grid, id: "c1-p1", href: "harbour/index.html"), gallery)
        #expect(meta(grid, "og:url") == ["https://example.org/photos/harbour/index.html"])
        var withHistory = gallery
        withHistory.changesHref = "harbour/changes.html"
        let changes = try render(.init(kind: .changes, id: "changes", href: "harbour/changes.html"), withHistory)
        #expect(meta(changes, "og:url") == ["https://example.org/photos/harbour/changes.html"])
        #expect(meta(changes, "og:title").count == 1)
        for html in [preview, hotlinked, grid, changes] {
            for url in meta(html, "og:url") + meta(html, "og:image") { #expect(url.hasPrefix("https://")) }
        }
    }

    /// The site's pages show a picture whose license does not allow copies from its own URL; a link-preview service
    /// copies a card's picture: a card has the first picture of its page that may be copied, or none.
    @Test func aCardNeverHoldsAPictureThatMayNotBeCopied() throws {
        func card(_ job: GalleryModel.PageJob, _ gallery: GalleryModel) throws -> (image: [String], kind: [String]) {
            let html = try render(job, gallery)
            return (
                html.strings("//meta[@property='og:image']/@content"),
                html.strings("//meta[@name='twitter:card']/@content")
            )
        }
        let gallery = Self.gallery(baseURL: "https://example.org/photos/")
        let reserved = try card(
            .init(kind: .preview, id: "i1-original", href: "harbour/items/1-original.html"), gallery)
        #expect(reserved.image == [] && reserved.kind == ["summary"])
        // The grid's first tile is the reserved photo: its card has the second, the first that may be copied.
        let grid = try card(.init(kind: .grid, id: "c1-p1", href: "harbour/index.html"), gallery)
        #expect(grid.image == ["https://example.org/photos/images/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.jpg"])
        #expect(grid.kind == ["summary_large_image"])
        // A grid of pictures none of which may be copied (all rights reserved, license unknown): no picture.
        let unknown = License(id: "99", name: "Mystery", label: "License unknown", url: nil, copies: .unknown)
        let none = Self.gallery(baseURL: "https://example.org/photos/", second: unknown)
        let noneGrid = try card(.init(kind: .grid, id: "c1-p1", href: "harbour/index.html"), none)
        #expect(noneGrid.image == [] && noneGrid.kind == ["summary"])
        let unknownPreview = try card(
            .init(kind: .preview, id: "i2-original", href: "harbour/items/2-original.html"), none)
        #expect(unknownPreview.image == [])
    }

    /// A photo whose image could not be downloaded is still named, credited and licensed by its page: its rights data
    /// says so, without a `contentUrl`.
    @Test func aPhotoWhoseImageCouldNotBeDownloadedKeepsItsRightsData() throws {
        let html = try render(
            .init(kind: .preview, id: "i2-original", href: "items/2-original.html"), Self.gallery(downloaded: false))
        #expect(html.strings("//main//img").isEmpty)
        let object = try dataBlock(html)
        #expect(object["@type"] as? String == "ImageObject")
        #expect(object["contentUrl"] == nil)
        #expect(object["name"] as? String == "Crane at dusk")
        #expect(object["license"] as? String == "https://creativecommons.org/licenses/by/4.0/")
        #expect(object["acquireLicensePage"] as? String == "https://www.flickr.com/photos/o@N01/2")
        #expect(object["creditText"] as? String == "Photo by Anna \"A\" <Ö> on Flickr")
        #expect((object["creator"] as? [String: Any])?["name"] as? String == "Anna \"A\" <Ö>")
    }

    @Test func theModelSaysEachLicenseAndWhichImagesAreShownFromTheirOwnURL() throws {
        let xml = try LibXMLDocument.parse(ModelFile.bytes(of: Self.gallery(baseURL: "https://example.org/")))
        #expect(xml.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
        #expect(xml.strings("//entry/license/@label") == ["All rights reserved", "CC BY 4.0"])
        #expect(xml.strings("//entry/license/@copies") == ["forbidden", "allowed"])
        #expect(
            xml.strings("//image/@url") == [
                "https://live.staticflickr.com/1/1_z.jpg", "https://live.staticflickr.com/1/1_b.jpg",
            ])
        #expect(xml.strings("//entry[ai-generated]/@id") == ["i2-original"])
        #expect(xml.strings("/gallery/site/@base-url") == ["https://example.org/"])
        #expect(xml.strings("//credit/@author-href").count == 2)
    }
}
