import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender

/// The tag index, the tag pages and the tags of a preview page as the built-in theme renders them from their views.
@Suite struct TagPagesRenderTests {
    static let model = taggedGallery(
        [["harbour", "<script>alert(1)</script>"], ["ship"], ["harbour"], ["harbour"], ["evil\u{202E}gpj.exe"]],
        variantTags: [[], ["harbour"]])

    func render(_ href: String) throws -> LibXMLDocument {
        let view = try #require(Self.model.pages(salt: "").first { $0.job.href == href }, "\(href)")
        let page = try PageRenderer(theme: .builtIn).render(view.job, model: ModelDocument.make(view))
        return try LibXMLDocument.parseHTML(page.bytes)
    }

    @Test func theIndexListsEveryTagWithItsCountByCountThenName() throws {
        let html = try render("hh/tags/index.html")
        let links = html.strings("//main//nav//a")
        #expect(links.first == "harbour" && links.count == 4)
        #expect(Array(links.dropFirst()) == ["<script>alert(1)</script>", "evilgpj.exe", "ship"].sorted())
        #expect(html.strings("//main//nav//li[1]//span[@class='count']") == [": 4 images"])
        #expect(html.strings("//main//nav/@aria-labelledby") == [html.strings("//h1/@id").first ?? "none"])
        #expect(
            html.strings("//main//nav//a/@href").allSatisfy { $0.hasPrefix("../../hh/tags/") && $0.hasSuffix(".html") })
        #expect(html.strings("//main//nav//a[1]/@href").first == "../../hh/tags/harbour.html")
        #expect(html.strings("//script[not(@src)]").isEmpty)
    }

    @Test func aTagPageShowsItsItemsAsTilesOfTheEntryWithTheTagAndAPager() throws {
        let first = try render("hh/tags/harbour.html")
        // items 1, 2 (by its second variant), 3 and 4, two to a page
        #expect(first.strings("//li[@class='tile']/@id") == ["i100", "i101"])
        #expect(first.strings("//li[@id='i101']//a[@class='frame']/@href") == ["../../hh/items/101-graffiti.html"])
        #expect(first.strings("//a[@rel='next']/@href") == ["../../hh/tags/harbour-page-2.html"])
        #expect(first.strings("//h1") == ["Tagged harbour"] && first.strings("//h1/q/@dir") == ["auto"])
        #expect(first.strings("//main//p[@class='count']").first?.hasPrefix("4 images · page 1 of 2") == true)
        let second = try render("hh/tags/harbour-page-2.html")
        #expect(second.strings("//li[@class='tile']/@id") == ["i102", "i103"])
        #expect(second.strings("//a[@rel='prev']/@href") == ["../../hh/tags/harbour.html"])
        #expect(second.strings("//header//a[@class='tag-index']/@href") == ["../../hh/tags/index.html"])
    }

    /// A tag page numbers its tiles as the tag's list does: page 2 of a tag with two items a page starts at 3.
    @Test func aLaterTagPageNumbersItsItemsFromWhereThePageBeforeEnded() throws {
        #expect(try render("hh/tags/harbour.html").strings("//ol[contains(@class, 'grid')]/@start") == ["1"])
        #expect(try render("hh/tags/harbour-page-2.html").strings("//ol[contains(@class, 'grid')]/@start") == ["3"])
    }

    @Test func aPreviewLinksItsTagsAndTheirMarkupIsText() throws {
        let html = try render("hh/items/100-original.html")
        #expect(html.strings("//nav[@aria-label='Tags']//a") == ["harbour", "<script>alert(1)</script>"])
        let hrefs = html.strings("//nav[@aria-label='Tags']//a/@href")
        #expect(hrefs.first == "../../hh/tags/harbour.html" && hrefs.count == 2)
        #expect(hrefs.last?.hasPrefix("../../hh/tags/script-alert-1-script--") == true)
        #expect(html.strings("//script[not(@src)][not(@type='application/ld+json')]").isEmpty)
        let untagged = try render("hh/items/100-graffiti.html")
        #expect(untagged.strings("//nav[@aria-label='Tags']").isEmpty)
    }

    @Test func aGalleryWithoutTagsLinksNoTagPages() throws {
        let model = taggedGallery([[], []])
        let view = try #require(model.pages(salt: "").first { $0.job.kind == .grid })
        let page = try PageRenderer(theme: .builtIn).render(view.job, model: ModelDocument.make(view))
        let html = try LibXMLDocument.parseHTML(page.bytes)
        #expect(html.strings("//a[contains(@href, 'tags/')]").isEmpty)
    }
}
