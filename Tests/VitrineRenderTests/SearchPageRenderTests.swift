import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender

/// The search page and the search box as the built-in theme renders them: a GET form to the search page on every
/// page, hidden without JavaScript; the page loads search.js and names the index, which no other page loads.
@Suite struct SearchPageRenderTests {
    static let model: GalleryModel = {
        var gallery = taggedGallery([["harbour"], ["ship"]])
        gallery.search = GalleryModel.Search(folder: "hh/")
        return gallery
    }()

    func render(_ href: String, model: GalleryModel = Self.model) throws -> LibXMLDocument {
        let view = try #require(model.pages(salt: "").first { $0.job.href == href }, "\(href)")
        let page = try PageRenderer(theme: .builtIn).render(view.job, model: ModelDocument.make(view))
        return try LibXMLDocument.parseHTML(page.bytes)
    }

    @Test func everyPageHasAGetFormToTheSearchPageHiddenWithoutJavaScript() throws {
        for href in ["hh/index.html", "hh/items/100-original.html", "hh/tags/index.html", "hh/search.html"] {
            let html = try render(href)
            let root = String(repeating: "../", count: href.split(separator: "/").count - 1)
            #expect(html.strings("//form[@role='search']/@action") == [root + "hh/search.html"], "\(href)")
            #expect(html.strings("//form[@role='search']/@method") == ["get"], "\(href)")
            #expect(html.strings("//form[@role='search']//input/@name") == ["q"], "\(href)")
            #expect(html.strings("//head/noscript/style").first?.contains(".site-search") == true, "\(href)")
            // No page but the search page loads the search script, and none loads the index itself.
            let scripts = html.strings("//script/@src")
            #expect(scripts.contains(root + "assets/search.js") == (href == "hh/search.html"), "\(href)")
            #expect(!scripts.contains { $0.contains("search-index") }, "\(href)")
        }
    }

    @Test func theSearchPageNamesTheIndexAndPointsToTheTagsWithoutJavaScript() throws {
        let html = try render("hh/search.html")
        #expect(html.strings("//ol[@id='search-results']/@data-index") == ["../hh/search-index.js"])
        #expect(html.strings("//ol[@id='search-results']/@data-root") == ["../"])
        #expect(html.strings("//main//noscript//a/@href").first == "../hh/tags/index.html")
        #expect(html.strings("//*[@role='status']").count == 1)
        #expect(html.strings("//title").first?.hasPrefix("Search") == true)
    }

    @Test func aGalleryWithoutSearchHasNoSearchBox() throws {
        let html = try render("hh/index.html", model: taggedGallery([["harbour"]]))
        #expect(html.strings("//form[@role='search']").isEmpty)
        #expect(html.strings("//noscript").isEmpty)
    }
}
