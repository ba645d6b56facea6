import Foundation
import Testing
import VitrineTemplates

@testable import VitrinePublish
@testable import VitrineRender

/// The site's own search, built by the real binary against the sample API: its index holds every entry of every
/// gallery exactly once, as the galleries' models say, linking files that exist; the site's pages point at it.
extension SiteBuildTests {
    /// The object the site's `search-index.js` passes to `vitrineSearchIndex`, parsed as JSON.
    func siteIndex(_ root: URL) throws -> [String: Any] {
        let text = try String(contentsOf: root.appendingPathComponent("search-index.js"), encoding: .utf8)
        #expect(text.hasPrefix("vitrineSearchIndex(") && text.hasSuffix(");\n"))
        let json = text.dropFirst("vitrineSearchIndex(".count).dropLast(3)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// Each entry of a parsed index as its page, picture (empty when none) and gallery's place in `galleries`.
    func siteEntries(_ data: [String: Any]) throws -> [(page: String, image: String, gallery: Int)] {
        let paths = try #require(data["paths"] as? [[Any]])
        let items = try #require(data["items"] as? [[Any]])
        return try items.map { item in
            let page = paths[try #require(item[0] as? Int)]
            let image = try #require(item[2] as? Int)
            let name = try #require(item[1] as? String)
            let picture =
                image < 0 ? "" : "\(paths[image][0])\(try #require(item[3] as? String))\(paths[image][1])"
            return ("\(page[0])\(name)\(page[1])", picture, try #require(page[2] as? Int))
        }
    }

    @Test func theSiteIndexHoldsEveryEntryOfEveryGalleryOnceLinkingFilesThatExist() async throws {
        try await stopping(self) {
            try await writeConfig()
            let outcome = try await build()
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("site"))
            let siteModel = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("site.xml"))))
            #expect(siteModel.strings("/site/search/@href") == ["search.html"])
            let data = try siteIndex(site.root)
            let galleries = try #require(data["galleries"] as? [[String]])
            #expect(galleries.map { $0[0] } == siteModel.strings("/site/gallery/title"))
            #expect(galleries.map { $0[1] } == siteModel.strings("/site/gallery/@href"))
            // Every entry with a picture of every gallery's model (all its collections), in the site's order, once.
            var expected: [(String, Int)] = []
            for (number, href) in siteModel.strings("/site/gallery/@href").enumerated() {
                let folder = String(href.dropLast("index.html".count))
                let model = try LibXMLDocument.parse(
                    [UInt8](Data(contentsOf: site.root.appendingPathComponent(folder + "gallery.xml"))))
                expected += model.strings("//entry[not(missing)]/@href").map { ($0, number) }
            }
            let entries = try siteEntries(data)
            #expect(entries.count > 30)
            #expect(entries.map(\.page) == expected.map(\.0))
            #expect(entries.map(\.gallery) == expected.map(\.1))
            #expect(Set(entries.map(\.gallery)).count == 3)
            #expect(Set(entries.map(\.page)).count == entries.count)
            for entry in entries {
                #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent(entry.page).path))
                if !entry.image.isEmpty && !entry.image.hasPrefix("http") {
                    #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent(entry.image).path))
                }
            }
            // The search page and the box of the site's pages, which load no index.
            let search = try site.page("search.html")
            #expect(search.strings("//ol[@id='search-results']/@data-index") == ["search-index.js"])
            for page in ["index.html", "search.html", "tags/index.html"] {
                let html = try site.page(page)
                #expect(html.strings("//header//form[@role='search']/@action").count == 1, "\(page)")
                #expect(!html.strings("//script/@src").contains { $0.contains("search-index") }, "\(page)")
            }
            #expect(try site.crawl().broken == [])
            // Like the galleries' search pages, not in the sitemap.
            let sitemap = try String(contentsOf: site.root.appendingPathComponent("sitemap.xml"), encoding: .utf8)
            #expect(!sitemap.contains("search.html") && sitemap.contains("snapshots/index.html"))
        }
    }

    @Test func oneChangedItemRewritesTheSiteIndexAsAFreshBuildWritesIt() async throws {
        try await stopping(self) {
            try await writeConfig()
            #expect(try await build().status == 0)
            let root = workspace.url.appendingPathComponent("site")
            let before = try Data(contentsOf: root.appendingPathComponent("search-index.js"))
            let page = try Data(contentsOf: root.appendingPathComponent("search.html"))
            try rewriteCachedHits(query: "Hamburg") { hits in hits[3]["tags"] = "changed, tags" }
            let again = try await build(["--offline"])
            #expect(again.status == 0, "stderr: \(again.stderr)")
            let after = try Data(contentsOf: root.appendingPathComponent("search-index.js"))
            #expect(after != before)
            #expect(String(decoding: after, as: UTF8.self).contains("changed"))
            // What the rebuild wrote (or kept) is what a build into an empty folder writes; the page is as it was.
            let fresh = try await build(["--offline"], out: "fresh")
            #expect(fresh.status == 0, "stderr: \(fresh.stderr)")
            let freshRoot = workspace.url.appendingPathComponent("fresh")
            #expect(try Data(contentsOf: freshRoot.appendingPathComponent("search-index.js")) == after)
            #expect(try Data(contentsOf: root.appendingPathComponent("search.html")) == page)
        }
    }

    /// A gallery in the folder `search` keeps its own search page beside the site's, each with its own index.
    @Test func aGalleryInTheFolderSearchHasItsOwnSearchBesideTheSites() async throws {
        try await stopping(self) {
            let thumbnails = await server.thumbnailsEndpoint
            let text = """
                title = "Snapshots"

                [[gallery]]
                source = "thumbnails"
                path = "search"
                limit = 6
                endpoint = "\(thumbnails)"

                """
            try text.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
            let outcome = try await build()
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("site"))
            #expect(
                try site.page("search.html").strings("//ol[@id='search-results']/@data-index") == ["search-index.js"])
            let own = try site.page("search/search.html")
            #expect(own.strings("//ol[@id='search-results']/@data-index") == ["../search/search-index.js"])
            #expect(own.strings("//header//form[@role='search']/@action") == ["../search/search.html"])
            let entries = try siteEntries(try siteIndex(site.root))
            #expect(entries.count == 6 && entries.allSatisfy { $0.page.hasPrefix("search/") })
            #expect(try site.crawl().broken == [])
        }
    }
}
