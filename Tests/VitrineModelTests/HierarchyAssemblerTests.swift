import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender
@testable import VitrineSources
@testable import VitrineStore

@Suite struct HierarchyAssemblerTests {
    @Test func usersAlbumsAndPhotosBecomeNestedCollectionsWithTheirOwnFolders() throws {
        let gallery = sampleHierarchy()
        #expect(gallery.collections.count == 1)
        let root = gallery.collections[0]
        #expect(root.kind == .list && root.title == "Users" && gallery.title == "JSONPlaceholder albums")
        #expect(root.pages.map(\.href) == ["index.html"])
        let user = root.collections[0]
        #expect(user.kind == .list && user.subtitle == "Bret" && user.sourceID == "1")
        #expect(user.pages.map(\.href) == ["users/1/index.html"])
        let album = user.collections[0]
        #expect(album.kind == .album && album.tileShape == .square)
        #expect(album.pages.map(\.href) == ["albums/1/index.html", "albums/1/page-2.html"])
        #expect(album.items.map(\.page) == [1, 1, 2])
        #expect(album.items.map { $0.entries[0].href } == ["photos/1.html", "photos/2.html", "photos/3.html"])
        #expect(
            album.cover?.state
                == .available(path: "images/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.jpg", mediaType: "image/jpeg"))
        #expect(user.collections[1].cover?.state == .unavailable(reason: "Download failed: HTTP 500"))
        let empty = root.collections[1].collections[0]
        #expect(empty.pages.map(\.href) == ["albums/3/index.html"] && empty.items.isEmpty && empty.cover == nil)

        let jobs = gallery.pages(salt: "").map(\.job)
        #expect(
            jobs.filter { $0.kind == .list }.map(\.href) == ["index.html", "users/1/index.html", "users/2/index.html"])
        #expect(jobs.filter { $0.kind == .grid }.count == 4)
        #expect(jobs.filter { $0.kind == .photo }.map(\.href) == (1...4).map { "photos/\($0).html" })
        #expect(Set(jobs.map(\.href)).count == jobs.count && Set(jobs.map(\.id)).count == jobs.count)
    }

    @Test func theHierarchyValidatesAgainstThePublishedSchema() throws {
        let document = ModelDocument.make(sampleHierarchy())
        let schema = try #require(DefaultTheme.files["gallery.rng"])
        #expect(document.relaxNGErrors(schema: schema) == [])
        #expect(document.strings("/gallery/collection/collection/collection/image[@role='cover']").count == 2)
        #expect(document.strings("//collection[@kind='album']/@id") == ["albums-1", "albums-2", "albums-3"])
        // A cover that is not first, or a cover role on an entry, is not the shape.
        let misplaced = try LibXMLDocument.parse(
            Array(
                String(decoding: document.serialized(), as: UTF8.self)
                    .replacingOccurrences(of: "role=\"tile\"", with: "role=\"cover\"").utf8))
        #expect(!misplaced.relaxNGErrors(schema: schema).isEmpty)
    }

    @Test func oddIdsBecomeSafeUniqueFileNames() {
        var names = HierarchyAssembler.Names()
        #expect(names.unique("7", in: "photos") == "7")
        #expect(names.unique("7", in: "photos") == "7_2")
        #expect(names.unique("7", in: "albums") == "7")
        #expect(names.unique("../../etc/passwd", in: "photos") == "etc_passwd")
        #expect(names.unique("", in: "photos") == "n")
        #expect(names.unique("ü", in: "photos") == "n_2")
        #expect(HierarchyAssembler.Names.safe("a b/c", fallback: "x") == "a_b_c")
    }

    func render(_ kind: GalleryModel.PageJob.Kind, _ id: String, _ href: String) throws -> LibXMLDocument {
        let page = try PageRenderer(theme: .builtIn).render(
            .init(kind: kind, id: id, href: href), model: ModelDocument.make(sampleHierarchy()))
        return try LibXMLDocument.parseHTML(page.bytes)
    }

    @Test func theUsersPageListsUsernameAndNameLinkingToTheirAlbums() throws {
        let html = try render(.list, "root-p1", "index.html")
        #expect(html.strings("//ul[@class='list']/li//a/@href") == ["users/1/index.html", "users/2/index.html"])
        #expect(html.strings("//li[1]//span[@class='row-title']") == ["Leanne Graham"])
        #expect(html.strings("//li[1]//span[@class='row-subtitle']") == ["Bret"])
        #expect(html.strings("//nav[@class='toolbar']//*[@aria-current='page']") == ["Users"])
        #expect(html.strings("//a[@data-nav='up']").isEmpty)
        #expect(html.strings("//h1") == ["Users"])
    }

    @Test func aUsersAlbumsHaveTitleOnTheLeftAndCoverOnTheRight() throws {
        let html = try render(.list, "users-1-p1", "users/1/index.html")
        #expect(html.strings("//a[@data-nav='up']/@href") == ["../../index.html#users-1"])
        #expect(html.strings("//ol[@class='crumbs']/li/a/@href") == ["../../index.html"])
        #expect(html.strings("//ol[@class='crumbs']//*[@aria-current='page']") == ["Leanne Graham"])
        #expect(html.strings("//li[@id='albums-1']/a/@href") == ["../../albums/1/index.html"])
        #expect(
            html.strings("//li[@id='albums-1']//span[@class='row-thumb']/img/@src") == [
                "../../images/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.jpg"
            ])
        #expect(html.strings("//li[@id='albums-1']//span[@class='row-thumb']/img/@alt") == [""])
        #expect(html.strings("//li[@id='albums-2']//span[@class='row-thumb']//strong") == ["Image unavailable"])
        #expect(html.strings("//li[@id='albums-1']//span[@class='row-count']") == ["3 photos"])
    }

    @Test func anAlbumIsAGridOfTilesWithTheirTitlesOnThePictures() throws {
        let html = try render(.grid, "albums-1-p1", "albums/1/index.html")
        #expect(
            html.strings("//ol[contains(@class, 'grid-album')]/li/a/@href") == [
                "../../photos/1.html", "../../photos/2.html",
            ])
        #expect(html.strings("//li[@id='photos-1']//span[@class='overlay']") == ["photo <1>"])
        #expect(html.strings("//li[@id='photos-2']//span[@class='ph']//strong") == ["Image unavailable"])
        #expect(html.strings("//a[@data-nav='up']/@href") == ["../../users/1/index.html#albums-1"])
        #expect(html.strings("//ol[@class='crumbs']/li/a/@href") == ["../../index.html", "../../users/1/index.html"])
        #expect(html.strings("//a[@rel='next']/@href") == ["../../albums/1/page-2.html"])
    }

    @Test func aPhotoPageHasTheToolbarOnTopAndTheDetailsBelow() throws {
        let html = try render(.photo, "photos-3-photo", "photos/3.html")
        #expect(html.strings("//body/@class") == ["photo-page"])
        #expect(
            html.strings("//div[@data-toggle-chrome]/img/@src") == ["../images/cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd.jpg"])
        #expect(html.strings("//a[@data-nav='up']/@href") == ["../albums/1/page-2.html#photos-3"])
        #expect(
            html.strings("//ol[@class='crumbs']/li/a/@href") == [
                "../index.html", "../users/1/index.html", "../albums/1/page-2.html#photos-3",
            ])
        #expect(html.strings("//ol[@class='crumbs']//*[@aria-current='page']") == ["Image 3 of 3"])
        #expect(html.strings("//section[@class='details']/h1") == ["Image 3 of 3"])
        #expect(html.strings("//section[@class='details']//dd/a") == ["album 1", "Leanne Graham"])
        #expect(html.strings("//a[@rel='prev']/@href") == ["../photos/2.html"])
        #expect(html.strings("//a[@rel='next']").isEmpty)
    }

    @Test func everyPageRendersTheSameFromItsViewAsFromTheWholeModel() throws {
        // The theme's album pages keep to the rule of what a page may read (docs/model.md).
        let gallery = sampleHierarchy()
        let renderer = try PageRenderer(theme: .builtIn)
        let whole = ModelDocument.make(gallery)
        let views = gallery.pages(salt: "")
        for view in views {
            #expect(
                try renderer.render(view.job, model: ModelDocument.make(view)).bytes
                    == renderer.render(view.job, model: whole).bytes, "\(view.job.href)")
        }
        let photo = ModelDocument.make(try #require(views.first { $0.job.id == "photos-3-photo" }))
        #expect(photo.strings("//item/@id") == ["photos-2", "photos-3"])
        #expect(photo.strings("//collection/@id") == ["root", "users-1", "albums-1"])
    }

    @Test func aListPageReadsTheOutlineOfTheCollectionsBelowItAndNoPhoto() throws {
        let record = CacheStore.ImageRecord(sha256: String(repeating: "cd", count: 32), format: .jpeg, byteCount: 10)
        var images: [String: ImageOutcome] = [:]
        for id in 1...4 {
            images["https://img/\(id)/150"] = .stored(record)
            images["https://img/\(id)/600"] = .stored(record)
        }
        func views(_ result: SourceResult) -> [String: GalleryModel.PageView] {
            let gallery = GalleryAssembler(itemsPerPage: 2).assemble(result, images: images)
            return Dictionary(uniqueKeysWithValues: gallery.pages(salt: "").map { ($0.job.href, $0) })
        }
        let before = views(sampleHierarchyResult())
        let top = ModelDocument.make(try #require(before["index.html"]))
        #expect(top.strings("//item").isEmpty)
        #expect(top.strings("//collection/@id") == ["root", "users-1", "albums-1", "albums-2", "users-2", "albums-3"])
        #expect(top.strings("//collection[@id='albums-1']/@item-count") == ["3"])

        // Photo 2's caption changes: its album page and the photo pages that show it, and no list page.
        var changed = sampleHierarchyResult()
        changed.groups[0].groups[0].items[1] = SourceItem(
            sourceID: "2",
            entries: [
                .found(
                    caption: "a new caption", credit: nil,
                    tile: RemoteImage(url: "https://img/2/150", width: 150, height: 150),
                    full: RemoteImage(url: "https://img/2/600", width: 600, height: 600), license: .unsplash)
            ])
        let after = views(changed)
        let rendered = Set(after.keys.filter { after[$0]?.inputs != before[$0]?.inputs })
        #expect(rendered == ["albums/1/index.html", "photos/1.html", "photos/2.html", "photos/3.html"])
    }

    @Test func inASiteEveryPathIsBelowTheGallerysFolder() {
        let link = GalleryModel.SiteLink(title: "Site", href: "index.html")
        let gallery = HierarchyAssembler(itemsPerPage: 2, folder: "albums/", site: link).assemble(
            sampleHierarchyResult(), images: [:], notices: [])
        #expect(gallery.site == link)
        let hrefs = gallery.pages(salt: "").map(\.job.href)
        #expect(hrefs.allSatisfy { $0.hasPrefix("albums/") })
        #expect(hrefs.first == "albums/index.html")
        #expect(hrefs.contains("albums/photos/3.html"))
    }

    @Test func aThemeWithoutTheAlbumStylesheetsFailsBeforeAnyPageIsWritten() throws {
        var files = Theme.builtIn.files
        files["photo.xsl"] = nil
        let renderer = try PageRenderer(theme: Theme(files: files, origin: "a test theme"))
        #expect(throws: TemplateError.self) { try renderer.prepare(for: sampleHierarchy().pages(salt: "").map(\.job)) }
        try renderer.prepare(for: sampleGallery().pages(salt: "").map(\.job))
    }
}
