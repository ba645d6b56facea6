import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineRender

/// The search of a Pixabay gallery built by the real binary against the sample API: its page and its index, which
/// holds every entry with a picture as the model has it, built byte for byte the same and not written again by a
/// rebuild that changes nothing.
extension PixabayGalleryTests {
    /// The index script's data (`SearchIndex`), parsed as JSON.
    private func searchIndex(in out: String = "out") throws -> (bytes: Data, paths: [[String]], items: [[Any]]) {
        let bytes = try Data(contentsOf: workspace.url.appendingPathComponent("\(out)/search-index.js"))
        let text = try #require(String(data: bytes, encoding: .utf8))
        #expect(text.hasPrefix("vitrineSearchIndex({") && text.hasSuffix("});\n"))
        let json = text.dropFirst("vitrineSearchIndex(".count).dropLast(3)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return (bytes, try #require(object["paths"] as? [[String]]), try #require(object["items"] as? [[Any]]))
    }

    @Test func theSearchIndexHoldsEveryEntryWithAPictureAndNoPageLoadsIt() async throws {
        try await stopping(self) {
            let outcome = try await build()
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml"))))
            #expect(model.strings("/gallery/search/@href") == ["search.html"])
            #expect(model.strings("/gallery/search/@index") == ["search-index.js"])
            let index = try searchIndex()
            let pages = index.items.map {
                index.paths[$0[0] as! Int][0] + ($0[1] as! String) + index.paths[$0[0] as! Int][1]
            }
            #expect(pages == model.strings("//entry[not(missing)]/@href"))
            for (item, page) in zip(index.items, pages) {
                let tile = index.paths[item[2] as! Int]
                let src = tile[0] + (item[3] as! String) + tile[1]
                #expect(model.strings("//entry[@href='\(page)']/image[@role='tile']/@src") == [src], "\(page)")
                #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent(src).path))
                // Tags and the credit are searchable, folded.
                let text =
                    ((item.count > 7 ? item[7] as? String : nil) ?? (item[6] as! String)) + " "
                    + (item.count > 8 ? item[8] as! String : "")
                for tag in model.strings("//entry[@href='\(page)']/tag") {
                    for word in tag.split(separator: " ") { #expect(text.contains(word), "\(page): \(tag)") }
                }
            }
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            for page in crawl.pages {
                let html = try site.page(page)
                #expect(!html.strings("//script/@src").contains { $0.contains("search-index") }, "\(page)")
                #expect(html.strings("//form[@role='search']/@action").count == 1, "\(page)")
            }
            let search = try site.page("search.html")
            #expect(search.strings("//ol[@id='search-results']/@data-index") == ["search-index.js"])
        }
    }

    @Test func theSearchIndexIsTheSameBytesInTwoBuildsAndARebuildThatChangesNothingLeavesIt() async throws {
        try await stopping(self) {
            #expect(try await build().status == 0)
            #expect(try await build(out: "again").status == 0)
            let first = try searchIndex()
            #expect(first.bytes == (try searchIndex(in: "again")).bytes)
            let page = { (out: String) in
                try Data(contentsOf: self.workspace.url.appendingPathComponent("\(out)/search.html"))
            }
            #expect(try page("out") == page("again"))

            let path = workspace.path("out/search-index.js")
            let before = try FileManager.default.attributesOfItem(atPath: path)
            let rebuilt = try await build()
            #expect(rebuilt.status == 0, "stderr: \(rebuilt.stderr)")
            let after = try FileManager.default.attributesOfItem(atPath: path)
            #expect(after[.systemFileNumber] as? Int == before[.systemFileNumber] as? Int)
            #expect(after[.modificationDate] as? Date == before[.modificationDate] as? Date)
            #expect(try searchIndex().bytes == first.bytes)
        }
    }

    /// A theme exported before search existed has no search.xsl: no search page, no index, no search box.
    @Test func aThemeWithoutTheSearchStylesheetGetsNoSearch() async throws {
        try await stopping(self) {
            let theme = workspace.url.appendingPathComponent("older-theme")
            try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
            for (name, bytes) in DefaultTheme.files where !["search.xsl", "search.js"].contains(name) {
                try Data(bytes).write(to: theme.appendingPathComponent(name))
            }
            let outcome = try await build(["--templates", theme.path])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let root = workspace.url.appendingPathComponent("out")
            for file in ["search.html", "search-index.js"] {
                #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path))
            }
            let grid = try SiteInspector(root: root).page("index.html")
            #expect(grid.strings("//form[@role='search'] | //noscript").isEmpty)
        }
    }
}
