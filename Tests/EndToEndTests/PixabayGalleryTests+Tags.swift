import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineRender

/// The tag pages of a Pixabay gallery built by the real binary against the sample API: each lists exactly the
/// items with its tag, each preview links exactly its picture's tags, and the index counts them.
extension PixabayGalleryTests {
    @Test func tagPagesAndPreviewsLinkEachOtherExactlyAsTheModelSays() async throws {
        try await stopping(self) {
            let outcome = try await build()
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml"))))
            #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])

            // The model's tags, and which items have each (by any of their entries).
            let tagHrefs = model.strings("/gallery/tags/tag/@href")
            #expect(tagHrefs.count > 5)
            var itemsOf: [String: Set<String>] = [:]
            for item in model.strings("//item/@id") {
                for href in model.strings("//item[@id='\(item)']/entry/tag/@href") {
                    itemsOf[href, default: []].insert(item)
                }
            }
            #expect(Set(itemsOf.keys) == Set(tagHrefs))
            #expect(crawl.pages.isSuperset(of: Set(tagHrefs + ["tags/index.html"])))

            // Each tag's pages, followed by rel=next, list exactly its items, and each tile shows an entry with it.
            var anyPaged = false
            for href in tagHrefs {
                let chain = try site.nextChain(from: href)
                #expect(chain.prevMatches, "\(href)")
                anyPaged = anyPaged || chain.chain.count > 1
                var listed: [String] = []
                for page in chain.chain {
                    let html = try site.page(page)
                    listed += html.strings("//li[@class='tile']/@id")
                    for frame in SiteInspector.resolved(
                        html.strings("//li[@class='tile']//a[@class='frame']/@href"), from: page)
                    {
                        let tags = model.strings("//entry[@href='\(frame)']/tag/@href")
                        #expect(tags.contains(href), "\(page): \(frame) has not the tag")
                    }
                }
                #expect(listed.count == Set(listed).count, "\(href)")
                #expect(Set(listed) == itemsOf[href], "\(href)")
            }
            #expect(anyPaged)

            // Each preview links exactly its entry's tags.
            for entry in model.strings("//entry[not(missing)]/@href") {
                let html = try site.page(entry)
                let links = SiteInspector.resolved(html.strings("//nav[@aria-label='Tags']//a/@href"), from: entry)
                #expect(links == model.strings("//entry[@href='\(entry)']/tag/@href"), "\(entry)")
                #expect(
                    html.strings("//nav[@aria-label='Tags']//a") == model.strings("//entry[@href='\(entry)']/tag"),
                    "\(entry)")
            }

            // The index: every tag, by count then name, with the number of items its pages list.
            let index = try site.page("tags/index.html")
            let names = index.strings("//main//nav//li/a")
            let counts = index.strings("//main//nav//li/span[@class='count']").map {
                Int($0.filter(\.isNumber)) ?? -1
            }
            let indexHrefs = SiteInspector.resolved(index.strings("//main//nav//li/a/@href"), from: "tags/index.html")
            #expect(indexHrefs == tagHrefs)
            #expect(counts == tagHrefs.map { itemsOf[$0]?.count ?? 0 })
            let ordered = zip(counts, names).map { (count: $0, name: $1) }
            let sorted = ordered.sorted { (a, b) -> Bool in a.count != b.count ? a.count > b.count : a.name < b.name }
            #expect(ordered.map(\.name) == sorted.map(\.name))
            #expect(try site.page("index.html").strings("//header//a[@class='tag-index']/@href") == ["tags/index.html"])
        }
    }

    /// A theme exported before tag pages existed has neither stylesheet: its galleries get no tags, no tag pages and
    /// no link to one, and build as before.
    @Test func aThemeWithoutTagStylesheetsGetsNoTagPagesNorLinksToThem() async throws {
        try await stopping(self) {
            let theme = workspace.url.appendingPathComponent("older-theme")
            try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
            for (name, bytes) in DefaultTheme.files where !["tags.xsl", "tag.xsl"].contains(name) {
                try Data(bytes).write(to: theme.appendingPathComponent(name))
            }
            let outcome = try await build(["--templates", theme.path])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("tags").path))
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            #expect(!crawl.pages.contains { $0.hasPrefix("tags/") })
            #expect(crawl.pages.filter { $0.hasPrefix("items/") }.count == 60)
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml"))))
            #expect(model.strings("//tags | //tag").isEmpty)
        }
    }
}
