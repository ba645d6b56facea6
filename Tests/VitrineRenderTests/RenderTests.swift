import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrineRender

@Suite struct RenderTests {
    func render(_ job: GalleryModel.PageJob, theme: Theme = .builtIn) throws -> LibXMLDocument {
        let gallery = sampleGallery()
        let page = try PageRenderer(theme: theme).render(job, model: ModelDocument.make(gallery))
        return try LibXMLDocument.parseHTML(page.bytes)
    }

    @Test func gridPagesLinkTilesPagesAndAssetsRelatively() throws {
        let html = try render(.init(kind: .grid, id: "c1-p1", href: "index.html"))
        let links =
            html.strings("//a/@href") + html.strings("//img/@src") + html.strings("//link/@href")
            + html.strings("//script/@src")
        #expect(links.contains("items/101-original.html"))
        #expect(links.contains("page-2.html"))
        #expect(links.contains("assets/vitrine.css"))
        #expect(html.strings("//a[@rel='next']/@href") == ["page-2.html"])
        #expect(html.strings("//img/@alt").contains("<script>alert(\"x\")</script> & ü bell"))
        #expect(
            JSONLD.onlyDataBlocks(
                types: html.strings("//script[not(@src)]/@type"), texts: html.strings("//script[not(@src)]")))
    }

    /// A grid page of a long collection reads only the pages near it (and the first and last): its pager shows those,
    /// a gap as an ellipsis, and its title counts every page.
    @Test func aLongCollectionsPagerShowsTheEndsAndThePagesNearby() throws {
        let views = sampleGalleryWithArchive(of: 1_000).pages(salt: "")
        let view = try #require(views.first { $0.job.id == "c-archive-50" })
        let html = try LibXMLDocument.parseHTML(
            try PageRenderer(theme: .builtIn).render(view.job, model: ModelDocument.make(view)).bytes)
        #expect(
            html.strings("//nav[@class='pager']//li").map { $0.replacingOccurrences(of: "Page ", with: "") } == [
                "1", "…", "48", "49", "50", "51", "52", "…", "100",
            ])
        #expect(html.strings("//nav[@class='pager']//a[@aria-current='page']/@href") == ["archive-50.html"])
        #expect(html.strings("//a[@rel='prev']/@href") == ["archive-49.html"])
        #expect(html.strings("//a[@rel='next']/@href") == ["archive-51.html"])
        #expect(html.strings("//title").first?.hasSuffix("page 50 of 100") == true)

        let preview = try #require(views.first { $0.job.id == "agone_500-original" })
        let previewHTML = try LibXMLDocument.parseHTML(
            try PageRenderer(theme: .builtIn).render(preview.job, model: ModelDocument.make(preview)).bytes)
        #expect(previewHTML.strings("//a[@data-nav='up']/@href") == ["../archive-50.html#agone_500"])
        #expect(previewHTML.strings("//a[@data-nav='up']").first?.contains("Back to page 50") == true)
    }

    @Test func previewPagesChainAcrossGridPagesAndSwitchVariants() throws {
        let html = try render(.init(kind: .preview, id: "i102-graffiti", href: "items/102-graffiti.html"))
        #expect(
            html.strings("//a[@rel='prev']/@href") == ["101-graffiti.html"]
                || html.strings("//a[@rel='prev']/@href") == ["../items/101-graffiti.html"])
        let next = html.strings("//a[@rel='next']/@href")
        #expect(next.count == 1 && next[0].hasSuffix("103-graffiti.html"))
        #expect(html.strings("//a[@data-nav='variant']/@href").contains { $0.hasSuffix("102-original.html") })
        #expect(html.strings("//a[@data-nav='up']/@href").contains { $0.hasPrefix("../index.html") })
        #expect(html.strings("//img/@src").allSatisfy { $0.hasPrefix("../images/") || $0.hasPrefix("../assets/") })
    }

    @Test func aMissingVariantSaysSoPlainly() throws {
        let html = try render(.init(kind: .preview, id: "i103-graffiti", href: "items/103-graffiti.html"))
        let text = html.strings("//main").joined()
        #expect(text.contains("No “Hamburg graffiti” match for this item."))
    }

    @Test func hostileTextNeverBecomesMarkup() throws {
        let gallery = sampleGallery(
            hostileCaption: "</figcaption><img src=x onerror=alert(1)><a href=\"javascript:x\">")
        let page = try PageRenderer(theme: .builtIn).render(
            .init(kind: .preview, id: "i101-original", href: "items/101-original.html"),
            model: ModelDocument.make(gallery))
        let text = String(decoding: page.bytes, as: UTF8.self)
        #expect(!text.contains("<img src=x"))
        #expect(text.contains("&lt;img src=x onerror=alert(1)&gt;"))
        let html = try LibXMLDocument.parseHTML(page.bytes)
        #expect(html.strings("//@onerror").isEmpty)
        #expect(html.strings("//a/@href").allSatisfy { !$0.lowercased().hasPrefix("javascript:") })
        #expect(html.strings("//img[@src='x']").isEmpty)
    }

    @Test func theBuiltInThemeNeverDisablesEscaping() {
        for (name, bytes) in Theme.builtIn.files where name.hasSuffix(".xsl") {
            #expect(!String(decoding: bytes, as: UTF8.self).contains("disable-output-escaping"), "\(name)")
        }
    }

    func theme(grid: String) -> Theme {
        var files = Theme.builtIn.files
        files["grid.xsl"] = Array(grid.utf8)
        return Theme(files: files, origin: "a test theme")
    }

    @Test func templatesCannotWriteFiles() throws {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vitrine-exsl-\(UUID().uuidString).txt")
        let grid = """
            <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:exsl="http://exslt.org/common" extension-element-prefixes="exsl">
              <xsl:template match="/">
                <exsl:document href="\(target.path)" method="text">pwned</exsl:document>
                <html><body>ok</body></html>
              </xsl:template>
            </xsl:stylesheet>
            """
        #expect(throws: TemplateError.self) {
            try PageRenderer(theme: theme(grid: grid)).render(
                .init(kind: .grid, id: "c1-p1", href: "index.html"), model: ModelDocument.make(sampleGallery()))
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test func templatesCannotReadFilesOrTheNetwork() throws {
        let grid = """
            <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
              <xsl:template match="/">
                <html><body><pre><xsl:value-of select="document('file:///etc/passwd')"/></pre>
                <pre><xsl:value-of select="document('http://127.0.0.1:9/x.xml')"/></pre></body></html>
              </xsl:template>
            </xsl:stylesheet>
            """
        let output: String
        do {
            let page = try PageRenderer(theme: theme(grid: grid)).render(
                .init(kind: .grid, id: "c1-p1", href: "index.html"), model: ModelDocument.make(sampleGallery()))
            output = String(decoding: page.bytes, as: UTF8.self)
        } catch {
            output = ""
        }
        #expect(!output.contains("root:"))
    }

    @Test func importsReachOnlyTheThemesOwnFiles() {
        let grid = """
            <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
              <xsl:import href="/etc/passwd"/>
              <xsl:template match="/"><html/></xsl:template>
            </xsl:stylesheet>
            """
        #expect(throws: TemplateError.self) { try PageRenderer(theme: theme(grid: grid)) }
    }

    @Test func aBrokenTemplateIsOneClearError() {
        #expect {
            try PageRenderer(
                theme: theme(
                    grid:
                        "<xsl:stylesheet version='1.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform'><xsl:template match='/'><xsl:value-of select='(('/></xsl:template></xsl:stylesheet>"
                ))
        } throws: { error in
            let error = error as? TemplateError
            return error?.kind == .templateProblem && error?.sentence.contains("grid.xsl") == true
        }
        #expect(throws: TemplateError.self) { try PageRenderer(theme: theme(grid: "not xml")) }
    }

    @Test func aThemeFolderNeedsItsStylesheets() throws {
        let folder = try TemporaryFolder()
        try AtomicFile.write(Array("<x/>".utf8), to: folder.url.appendingPathComponent("grid.xsl"))
        #expect(throws: TemplateError.self) { try Theme.load(directory: folder.url) }
        try AtomicFile.write(Array("<x/>".utf8), to: folder.url.appendingPathComponent("preview.xsl"))
        try AtomicFile.write(Array("body{}".utf8), to: folder.url.appendingPathComponent("site.css"))
        let theme = try Theme.load(directory: folder.url)
        #expect(theme.assets.map(\.name) == ["site.css"])
    }
}
