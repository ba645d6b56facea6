import Foundation
import SampleAPI
import Testing
import VitrineTestSupport

@testable import VitrineRender

/// What others copy from a site with a base URL: link-preview services copy a page's card (`og:image`), feed readers
/// the pictures of `feed.xml`. The site's own pages show a picture whose license does not allow copies from its own
/// URL; neither a card nor the feed ever holds one.
extension RightsTests {
    static let baseURL = "https://example.org/site/"

    /// A site with a base URL and a history of a Pixabay gallery (every picture may be copied), a Flickr search (some
    /// all rights reserved, some not) and a thumbnail list (every license unknown), built once.
    func buildSiteWithCards(_ server: SampleAPIServer, _ workspace: Workspace) async throws -> SiteInspector {
        try """
        title = "Cards"
        base-url = "\(Self.baseURL)"
        history = true

        [[gallery]]
        source = "pixabay"
        term = "Hamburg"
        per-page = 5
        endpoint = "\(await server.pixabayEndpoint)"

        [[gallery]]
        source = "flickr"
        term = "harbour"
        per-page = 30
        endpoint = "\(await server.flickrEndpoint)"

        [[gallery]]
        source = "thumbnails"
        path = "press"
        limit = 12
        endpoint = "\(await server.thumbnailsEndpoint)"
        """.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
        let outcome = try await VitrineProcess.run(
            [
                "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                workspace.path("out"), "--new-history",
            ],
            environment: [
                "FLICKR_API_KEY": Self.key, "PIXABAY_API_KEY": SampleAPIServer.demoKey,
                "SOURCE_DATE_EPOCH": "1790000000",
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return SiteInspector(root: workspace.url.appendingPathComponent("out"))
    }

    /// The absolute URLs of the site's pictures whose license allows copies (files of the site, and those shown from
    /// their own URLs), and of those whose license does not.
    func picturesByRights(_ site: SiteInspector) throws -> (copyable: Set<String>, reserved: Set<String>) {
        var copyable: Set<String> = []
        var reserved: Set<String> = []
        for folder in ["hamburg/", "harbour/", "press/"] {
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent(folder + "gallery.xml"))))
            copyable.formUnion(model.strings("//entry[license/@copies = 'allowed']/image/@url"))
            reserved.formUnion(model.strings("//entry[not(license/@copies = 'allowed')]/image/@url"))
            copyable.formUnion(model.strings("//image/@src").map { Self.baseURL + $0 })
        }
        let home = try LibXMLDocument.parse([UInt8](Data(contentsOf: site.root.appendingPathComponent("site.xml"))))
        copyable.formUnion(home.strings("//image/@src").map { Self.baseURL + $0 })
        return (copyable, reserved)
    }

    /// Every HTML page of the output, by its path from the root.
    func htmlPages(_ workspace: Workspace) throws -> [String] {
        try workspace.tree("out").keys.filter { $0.hasSuffix(".html") }.sorted()
    }

    /// The absolute URLs of the pictures `page` shows in its main part.
    func shownPictures(_ html: LibXMLDocument, on page: String) -> Set<String> {
        let base = URL(string: Self.baseURL + page)
        return Set(html.strings("//main//img/@src").compactMap { URL(string: $0, relativeTo: base)?.absoluteString })
    }

    @Test func cardsAndTheFeedHoldOnlyPicturesWhoseLicenseAllowsCopies() async throws {
        try await withServer { server, workspace in
            let site = try await buildSiteWithCards(server, workspace)
            let (copyable, reserved) = try picturesByRights(site)
            #expect(!copyable.isEmpty && !reserved.isEmpty)
            var reservedShown = 0
            for page in try htmlPages(workspace) {
                let html = try site.page(page)
                reservedShown += shownPictures(html, on: page).intersection(reserved).count
                for image in html.strings("//meta[@property='og:image']/@content") {
                    #expect(copyable.contains(image), "\(page): og:image \(image)")
                }
            }
            #expect(reservedShown > 0, "the site's own pages show the reserved pictures")

            let feed = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("feed.xml"))))
            let inFeed = feed.strings("//*[local-name()='img']/@src")
            #expect(!inFeed.isEmpty)
            for image in inFeed { #expect(copyable.contains(image), "feed.xml: \(image)") }
            let siteModel = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("site.xml"))))
            #expect(
                !Set(siteModel.strings("//history//tile/image/@url")).intersection(reserved).isEmpty,
                "the site's \u{201C}What's new\u{201D} shows reserved pictures the feed leaves out")
        }
    }

    /// README.md: with a base URL every page carries `og:title`, `og:description` and `og:url`, and `og:image` when it
    /// shows a picture that may be copied: the first of them. A page that shows none (the search and tag index pages,
    /// a photo all rights reserved) has a card without a picture.
    @Test func everyPageWithABaseURLHasTheCardTheREADMEPromises() async throws {
        try await withServer { server, workspace in
            let site = try await buildSiteWithCards(server, workspace)
            let (copyable, _) = try picturesByRights(site)
            let pages = try htmlPages(workspace)
            #expect(pages.contains("search.html") && pages.contains("tags/index.html"))
            #expect(pages.contains("changes.html") && pages.contains("harbour/changes.html"))
            var withImage = 0
            for page in pages {
                let html = try site.page(page)
                func meta(_ property: String) -> [String] {
                    html.strings("//meta[@property='\(property)']/@content")
                }
                for property in ["og:title", "og:description", "og:url"] {
                    let values = meta(property)
                    #expect(values.count == 1 && values.allSatisfy { !$0.isEmpty }, "\(page): \(property) \(values)")
                }
                #expect(meta("og:url") == [Self.baseURL + page], "\(page)")
                let candidates = shownPictures(html, on: page).intersection(copyable)
                let image = meta("og:image")
                #expect(image.count <= 1, "\(page): \(image)")
                #expect(image.isEmpty == candidates.isEmpty, "\(page): og:image \(image), shows \(candidates)")
                #expect(image.allSatisfy(candidates.contains), "\(page): og:image \(image) is not shown")
                #expect(
                    html.strings("//meta[@name='twitter:card']/@content")
                        == [image.isEmpty ? "summary" : "summary_large_image"], "\(page)")
                if !image.isEmpty { withImage += 1 }
            }
            #expect(withImage > 0)
            for page in ["changes.html", "hamburg/changes.html", "hamburg/tags/index.html"] {
                #expect(try !site.page(page).strings("//meta[@property='og:description']/@content").isEmpty)
            }
        }
    }
}
