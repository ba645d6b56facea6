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
            + html.strings("//style/@data-href") + html.strings("//script/@src")
        #expect(links.contains("items/101-original.html"))
        #expect(links.contains("page-2.html"))
        #expect(links.contains("assets/vitrine.css"))
        #expect(html.strings("//a[@rel='next']/@href") == ["page-2.html"])
        #expect(html.strings("//img/@alt").contains("<script>alert(\"x\")</script> & ü bell"))
        #expect(
            JSONLD.onlyDataBlocks(
                types: html.strings("//script[not(@src)]/@type"), texts: html.strings("//script[not(@src)]")))
    }

    /// A grid page of a long archive reads only the pages near it (and the newest and the oldest): its pager lists
    /// those newest first, a gap as an ellipsis, the newest as "Latest"; only the newest page counts the pages and
    /// items, which change whenever an item leaves.
    @Test func aLongArchivesPagerShowsTheEndsAndThePagesNearbyNewestFirst() throws {
        let views = sampleGalleryWithArchive(of: 1_000).pages(salt: "")
        let render = { (id: String) in
            let view = try #require(views.first { $0.job.id == id })
            return try LibXMLDocument.parseHTML(
                try PageRenderer(theme: .builtIn).render(view.job, model: ModelDocument.make(view)).bytes)
        }
        let html = try render("c-archive-50")
        #expect(
            html.strings("//nav[@class='pager']//li").map { $0.replacingOccurrences(of: "Page ", with: "") } == [
                "Latest", "…", "52", "51", "50", "49", "48", "…", "1",
            ])
        #expect(html.strings("//nav[@class='pager']//a[@aria-current='page']/@href") == ["archive-50.html"])
        #expect(html.strings("//a[@rel='prev']/@href") == ["archive-51.html"])
        #expect(html.strings("//a[@rel='prev']") == ["←Newer"])
        #expect(html.strings("//a[@rel='next']/@href") == ["archive-49.html"])
        #expect(html.strings("//title").first?.hasSuffix("No longer in the results — page 50") == true)
        #expect(html.strings("//main//p[@class='count']") == ["Page 50"])
        // Newest first, numbered from the oldest: page 50 holds items 500 down to 491.
        #expect(html.strings("//ol[contains(@class, 'grid')]/@reversed") == ["reversed"])
        #expect(html.strings("//ol[contains(@class, 'grid')]/@start") == ["500"])
        #expect(html.strings("//header//a[@class='archive']") == ["No longer in the results"])

        let newest = try render("c-archive-100")
        #expect(newest.strings("//title").first?.hasSuffix("page 100 of 100") == true)
        #expect(newest.strings("//main//p[@class='count']") == ["1000 images · page 100 of 100"])
        #expect(newest.strings("//a[@rel='next']/@href") == ["archive-99.html"])

        let preview = try render("agone_500-original")
        #expect(preview.strings("//a[@data-nav='up']/@href") == ["../archive-50.html#agone_500"])
        #expect(preview.strings("//a[@data-nav='up']").first?.contains("Back to page 50") == true)
        #expect(preview.strings("//a[@rel='prev']/@href") == ["../items/archived-gone_501-original.html"])
        #expect(preview.strings("//a[@rel='next']/@href") == ["../items/archived-gone_499-original.html"])
        #expect(preview.strings("//span[@class='pos']").isEmpty)
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

    /// The explicit bidirectional formatting characters: embeddings, overrides and isolates with their ends.
    static let bidiControls: [Unicode.Scalar] = [
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}",
    ]

    @Test func bidiControlsInACaptionNeverReorderTheTextAroundIt() throws {
        let gallery = sampleGallery(
            hostileCaption: "harbour \u{202E}gpj.exe\u{2066}a\u{2067}b\u{2068}c\u{2069} at dusk")
        let shown = "harbour gpj.exeabc at dusk"
        for job in [
            GalleryModel.PageJob(kind: .preview, id: "i101-original", href: "items/101-original.html"),
            GalleryModel.PageJob(kind: .grid, id: "c1-p1", href: "index.html"),
        ] {
            let page = try PageRenderer(theme: .builtIn).render(job, model: ModelDocument.make(gallery))
            let text = String(decoding: page.bytes, as: UTF8.self)
            #expect(!text.unicodeScalars.contains { Self.bidiControls.contains($0) }, "\(job.href)")
            let html = try LibXMLDocument.parseHTML(page.bytes)
            #expect(html.strings("//img/@alt").contains(shown), "\(job.href)")
            // The visible caption is isolated from what surrounds it, whatever its direction.
            let isolated = html.strings("//*[@dir='auto' or self::bdi]").map {
                $0.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            }
            #expect(isolated.contains(shown), "\(job.href): \(isolated)")
            if job.kind == .preview {
                #expect(html.strings("//title").first?.hasPrefix(shown) == true)
                #expect(html.strings("//h1[@dir='auto']") == [shown])
            }
        }
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

    /// The error of rendering the sample gallery's first grid page with `grid` within `limits`, if any, and how long
    /// it took.
    func renderFirstGridPage(grid: String, limits: TemplateLimits) throws -> (error: TemplateError?, seconds: Double) {
        let renderer = try PageRenderer(theme: theme(grid: grid), limits: limits)
        let started = Date()
        do {
            _ = try renderer.render(
                .init(kind: .grid, id: "c1-p1", href: "index.html"), model: ModelDocument.make(sampleGallery()))
            return (nil, Date().timeIntervalSince(started))
        } catch {
            return (error, Date().timeIntervalSince(started))
        }
    }

    @Test func aTemplateThatGrowsAStringWithoutEndIsStoppedAtItsMemoryLimit() throws {
        let limits = TemplateLimits(memoryBytes: 16 << 20, seconds: 60)
        let greedy = try renderFirstGridPage(grid: HostileTemplates.doublingString, limits: limits)
        #expect(greedy.error?.kind == .templateProblem)
        #expect(
            greedy.error?.sentence.contains(
                "rendering index.html needed more than 16 MB of memory, the most one page may use") == true)
        // The next page renders: the limit was the stopped transform's alone.
        let builtIn = String(decoding: try #require(Theme.builtIn.files["grid.xsl"]), as: UTF8.self)
        #expect(try renderFirstGridPage(grid: builtIn, limits: limits).error == nil)
    }

    @Test func aTemplateThatLoopsWithoutEndIsStoppedAtItsTimeLimit() throws {
        let looping = try renderFirstGridPage(
            grid: HostileTemplates.endlessLoop, limits: TemplateLimits(memoryBytes: 512 << 20, seconds: 0.5))
        #expect(looping.error?.sentence.contains("rendering index.html took more than 0.5 seconds") == true)
        #expect(looping.seconds < 10)
    }

    /// The built-in theme's pages of a 1,000-item gallery (100 a grid page, the whole gallery's model) stay within a
    /// tenth of the default limits, with room to spare on a loaded machine.
    @Test func theBuiltInThemeNeedsATenthOfTheLimitsAtAThousandItems() throws {
        let limits = TemplateLimits(
            memoryBytes: TemplateLimits.standard.memoryBytes / 10, seconds: TemplateLimits.standard.seconds / 10)
        let gallery = largeGallery(items: 1_000, perPage: 100)
        let model = ModelDocument.make(gallery)
        let renderer = try PageRenderer(theme: .builtIn, limits: limits)
        for job in [
            GalleryModel.PageJob(kind: .grid, id: "c1-p1", href: "index.html"),
            GalleryModel.PageJob(kind: .grid, id: "c1-p10", href: "page-10.html"),
            GalleryModel.PageJob(kind: .preview, id: "i1-original", href: "items/1-original.html"),
            GalleryModel.PageJob(kind: .preview, id: "i1000-graffiti", href: "items/1000-graffiti.html"),
        ] {
            let page = try renderer.render(job, model: model)
            #expect(page.bytes.count > 1_000, "\(job.href)")
        }
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
