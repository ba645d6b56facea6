import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender

/// A grid page's head asks for its first tile's picture (`<link rel="preload">`), and for nothing when that tile
/// has no picture: the head holds head elements only, whatever the tile shows.
@Suite struct PreloadRenderTests {
    let grid = GalleryModel.PageJob(kind: .grid, id: "c1-p1", href: "index.html")

    /// The page's bytes between `<head>` and `</head>`, and the page parsed.
    func head(of gallery: GalleryModel) throws -> (head: String, html: LibXMLDocument) {
        let bytes = try PageRenderer(theme: .builtIn).render(grid, model: ModelDocument.make(gallery)).bytes
        let text = String(decoding: bytes, as: UTF8.self)
        let start = try #require(text.range(of: "<head>")), end = try #require(text.range(of: "</head>"))
        return (String(text[start.upperBound..<end.lowerBound]), try LibXMLDocument.parseHTML(bytes))
    }

    @Test func theHeadFirstAsksForTheFileTheFirstTileShows() throws {
        let (head, html) = try head(of: sampleGallery())
        #expect(html.strings("//head/link[@rel='preload']/@href") == [html.strings("//main//li[1]//img/@src").first])
        #expect(html.strings("//head/link[@rel='preload']/@as") == ["image"])
        let preload = try #require(head.range(of: "<link rel=\"preload\""))
        let style = try #require(head.range(of: "<style"))
        #expect(preload.lowerBound < style.lowerBound, "the preload comes before the inline stylesheet")
        #expect(html.strings("//head/script[@type='application/ld+json']").isEmpty)
        #expect(html.strings("//body/script[@type='application/ld+json']").count == 1, "the rights data ends the body")
    }

    @Test func aFirstTileWithoutItsPictureIsAskedForNothingAndLeavesTheHeadAlone() throws {
        let (head, html) = try head(of: sampleGallery(failedTiles: [1]))
        #expect(html.strings("//main//li[1]//*[@class='ph']/@class") == ["ph"], "the first tile is a placeholder")
        #expect(html.strings("//link[@rel='preload']").isEmpty)
        #expect(!head.contains("<span"), "the placeholder is not written into the head")
        #expect(html.strings("//head/link[@rel='icon']/@href") == ["data:,"])
    }
}
