import Foundation
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrinePublish
@testable import VitrineRender

/// The site's own tag pages, built by the real binary against the sample API: each lists exactly the items of every
/// gallery that have its tag, as the galleries' models say, and links to their preview pages.
extension SiteBuildTests {
    @Test func siteTagPagesGatherTheItemsOfEveryGalleryExactlyAsTheirModelsSay() async throws {
        try await stopping(self) {
            try await writeConfig()
            let outcome = try await build()
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("site"))
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            let schema = DefaultTheme.files["gallery.rng"]!
            let siteModel = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("site.xml"))))
            #expect(siteModel.relaxNGErrors(schema: schema) == [])

            // Which items of which gallery have each tag (by any of their entries), and which entries.
            var itemsOf: [String: Set<String>] = [:]
            var entriesOf: [String: Set<String>] = [:]
            var galleriesOf: [String: Set<String>] = [:]
            for card in siteModel.strings("/site/gallery/@id") {
                let href = siteModel.strings("/site/gallery[@id='\(card)']/@href")[0]
                let folder = String(href.dropLast("index.html".count))
                let path = site.root.appendingPathComponent(folder + "gallery.xml")
                guard let bytes = try? Data(contentsOf: path) else { continue }
                let model = try LibXMLDocument.parse([UInt8](bytes))
                for item in model.strings("/gallery/collection[1]/item/@id") {
                    for entry in model.strings("/gallery/collection[1]/item[@id='\(item)']/entry/@href") {
                        for tag in model.strings("//entry[@href='\(entry)']/tag") {
                            itemsOf[tag, default: []].insert("\(card)-\(item)")
                            entriesOf[tag, default: []].insert(entry)
                            galleriesOf[tag, default: []].insert(card)
                        }
                    }
                }
            }
            #expect(galleriesOf.values.contains { $0.count > 1 }, "no tag spans two galleries")
            let names = siteModel.strings("/site/tags/tag/@name")
            #expect(Set(names) == Set(itemsOf.keys))
            let hrefs = siteModel.strings("/site/tags/tag/@href")
            #expect(crawl.pages.isSuperset(of: Set(hrefs + ["tags/index.html"])))
            let tagFiles = crawl.files.filter { $0.hasPrefix("tags/") }
            #expect(Set(tagFiles.map { $0.lowercased() }).count == tagFiles.count)

            // Each tag's pages, followed by rel=next, list exactly its items, each tile an entry with the tag.
            var anyPaged = false
            for (name, href) in zip(names, hrefs) {
                let chain = try site.nextChain(from: href)
                #expect(chain.prevMatches, "\(href)")
                anyPaged = anyPaged || chain.chain.count > 1
                var listed: [String] = []
                var start = 1
                for page in chain.chain {
                    let html = try site.page(page)
                    let tiles = html.strings("//li[@class='tile']/@id")
                    #expect(html.strings("//ol[contains(@class, 'grid')]/@start") == [String(start)], "\(page)")
                    start += tiles.count
                    listed += tiles
                    for frame in SiteInspector.resolved(
                        html.strings("//li[@class='tile']//a[@class='frame']/@href"), from: page)
                    {
                        #expect(entriesOf[name]?.contains(frame) == true, "\(page): \(frame) has not the tag")
                    }
                }
                #expect(listed.count == Set(listed).count, "\(href)")
                #expect(Set(listed) == itemsOf[name], "\(href)")
            }
            #expect(anyPaged)

            // The index: every tag by count then name, with the number of items its pages list.
            let index = try site.page("tags/index.html")
            #expect(SiteInspector.resolved(index.strings("//main//nav//li/a/@href"), from: "tags/index.html") == hrefs)
            let counts = index.strings("//main//nav//li/span[@class='count']").map { Int($0.filter(\.isNumber)) ?? -1 }
            #expect(counts == names.map { itemsOf[$0]?.count ?? 0 })
            #expect(try site.page("index.html").strings("//header//a[@class='tag-index']/@href") == ["tags/index.html"])
        }
    }

    /// A site tag page's tiles come from several galleries: each credits its picture as its gallery's pages do
    /// ("Photo by NAME on SOURCE"), and says which gallery it is in, linked to it.
    @Test func siteTagTilesCreditTheirSourceAndNameTheirGallery() async throws {
        try await stopping(self) {
            try await writeConfig()
            let outcome = try await build()
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("site"))
            let siteModel = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("site.xml"))))
            var checked: Set<String> = []
            for page in siteModel.strings("/site/tags/tag/page/@href") {
                let html = try site.page(page)
                for tile in html.strings("//li[@class='tile']/@id") {
                    let card = String(tile.prefix { $0 != "-" })
                    let gallery = "/site/gallery[@id='\(card)']"
                    let label = try #require(siteModel.strings(gallery + "/source/@label").first)
                    let path = "//li[@id='\(tile)']//figcaption"
                    let credit = html.strings(path + "//span[@class='credit']").joined()
                    #expect(!credit.contains(" on  ") && !credit.hasSuffix(" on "), "\(page): \(credit)")
                    if credit.hasPrefix("Photo by ") {
                        #expect(credit.contains(" on \(label)"), "\(page): \(credit)")
                    }
                    let links = html.strings(path + "//a[@class='gallery']/@href")
                    #expect(
                        SiteInspector.resolved(links, from: page) == siteModel.strings(gallery + "/@href"),
                        "\(page): \(tile) links \(links)")
                    #expect(
                        html.strings(path + "//a[@class='gallery']") == siteModel.strings(gallery + "/title"),
                        "\(page): \(tile)")
                    checked.insert(card)
                }
            }
            #expect(checked.count > 1, "tiles of several galleries: \(checked)")
        }
    }

    @Test func oneChangedItemRerendersOnlyThePagesThatShowIt() async throws {
        try await stopping(self) {
            try await writeConfig()
            #expect(try await build().status == 0)
            let site = SiteInspector(root: workspace.url.appendingPathComponent("site"))
            let model = {
                try LibXMLDocument.parse(
                    [UInt8](Data(contentsOf: site.root.appendingPathComponent("hamburg/gallery.xml"))))
            }
            let tagCounts = {
                let model = try model()
                let pages = model.strings("//tags/tag/@page-count").map { Int($0) ?? 0 }
                let counts = zip(model.strings("//tags/tag/@count"), pages).map { "\($0)/\($1)" }
                return Dictionary(uniqueKeysWithValues: zip(model.strings("//tags/tag/@name"), counts))
            }
            // The same of the site's tags, in site.xml.
            let siteTagCounts = {
                let model = try LibXMLDocument.parse(
                    [UInt8](Data(contentsOf: site.root.appendingPathComponent("site.xml"))))
                let pages = model.strings("/site/tags/tag/@page-count").map { Int($0) ?? 0 }
                let counts = zip(model.strings("/site/tags/tag/@count"), pages).map { "\($0)/\($1)" }
                return Dictionary(uniqueKeysWithValues: zip(model.strings("/site/tags/tag/@name"), counts))
            }
            let before = try tagCounts()
            let siteBefore = try siteTagCounts()
            let formerTags = Set(try model().strings("/gallery/collection[1]/item[4]/entry[1]/tag"))
            // Change the tags of the 4th "Hamburg" hit in the cached API response, as if the API had changed them.
            try rewriteCachedHits(query: "Hamburg") { hits in
                hits[3]["tags"] = "changed, tags"
            }
            let again = try await build(["--offline"])
            #expect(again.status == 0, "stderr: \(again.stderr)")
            let summary = try report(again)
            #expect(!summary.upToDate)
            // Every page of each tag whose count changed (the tags it lost and gained) shows another count, and the
            // tag index another list; no other tag page changes.
            let after = try tagCounts()
            #expect(after["changed"] == "1/1" && after["tags"] == "1/1")
            let tagPages =
                after.filter { before[$0.key] != $0.value }.map { Int($0.value.split(separator: "/")[1]) ?? 0 }
                .reduce(1, +)
            #expect(tagPages > 3)
            // The site's tag pages follow the same rule: every page of the tags whose counts changed, and the index.
            let siteAfter = try siteTagCounts()
            let siteTagPages =
                siteAfter.filter { siteBefore[$0.key] != $0.value }.map { Int($0.value.split(separator: "/")[1]) ?? 0 }
                .reduce(1, +)
            #expect(siteTagPages >= tagPages)
            // The page of each tag of its other variant's picture shows that picture, as it was, but reads the item.
            let otherTags = Set(try model().strings("/gallery/collection[1]/item[4]/entry[2]/tag"))
            let unchanged = otherTags.filter { before[$0] != nil && before[$0] == after[$0] }
            // Of those, a tag its changed picture had too showed that picture and now shows the other.
            // Its two preview pages, its neighbours' four (they may show it in their previous/next links) and the grid
            // page; of these, the grid page and its own preview page show its caption, so only they get new bytes.
            // The page of each such tag of the site that lists the item, likewise.
            #expect(summary.pagesRendered == 7 + tagPages + siteTagPages + 2 * unchanged.count)
            #expect(
                summary.pagesWritten == 2 + tagPages + siteTagPages + 2 * unchanged.intersection(formerTags).count)
            #expect(
                try site.page("hamburg/index.html").strings("//main//span[@class='caption']").contains("changed, tags"))
        }
    }
}
