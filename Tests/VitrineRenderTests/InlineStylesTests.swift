import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrineRender

/// The theme's stylesheet inline in every page but those of one photo (`$styles`), and linked wherever it cannot be
/// put in a `style` element whole.
@Suite struct InlineStylesTests {
    func page(_ job: GalleryModel.PageJob, css: [UInt8]? = nil) throws -> (bytes: [UInt8], html: LibXMLDocument) {
        var files = Theme.builtIn.files
        if let css { files["vitrine.css"] = css }
        let theme = Theme(files: files, origin: "a theme of the test")
        let bytes = try PageRenderer(theme: theme).render(job, model: ModelDocument.make(sampleGallery())).bytes
        return (bytes, try LibXMLDocument.parseHTML(bytes))
    }

    let grid = GalleryModel.PageJob(kind: .grid, id: "c1-p1", href: "index.html")
    let preview = GalleryModel.PageJob(kind: .preview, id: "i102-graffiti", href: "items/102-graffiti.html")

    @Test func aGridPageCarriesTheThemesStylesheetCompactedAndAPreviewPageLinksIt() throws {
        let css = Array("/* mine */ .grid > li[data-x=\"a&b\"] { content: '<b>'; }\n".utf8)
        let compacted = ".grid > li[data-x=\"a&b\"]{content:'<b>';}"
        let (bytes, html) = try page(grid, css: css)
        #expect(html.strings("//head/style[@data-href]") == [compacted])
        #expect(html.strings("//style/@data-href") == ["assets/vitrine.css"])
        #expect(html.strings("//link[@rel='stylesheet']").isEmpty)
        // Not escaped: a `style` element's text is CSS, where `&gt;` would be no combinator.
        #expect(bytes.firstRange(of: Array(compacted.utf8)) != nil)

        let (_, photo) = try page(preview, css: css)
        #expect(photo.strings("//link[@rel='stylesheet']/@href") == ["../assets/vitrine.css"])
        #expect(photo.strings("//style[@data-href]").isEmpty)
    }

    @Test func theBuiltInThemesStylesheetIsPutInline() throws {
        let css = try #require(Theme.builtIn.files["vitrine.css"])
        #expect(PageRenderer.inlineStyles(of: .builtIn) == CSSCompaction.compact(String(decoding: css, as: UTF8.self)))
        #expect(css.count <= PageRenderer.maximumInlineStyleBytes / 2, "room for a theme's own rules")
    }

    static let stylesNotInline: [(String, [UInt8])] = [
        ("an end tag", Array("a { color: red } </style><script>alert(1)</script>".utf8)),
        ("an end tag in capitals", Array("/* </STYLE > */ a { color: red }".utf8)),
        ("an end tag of mixed case", Array("a{}</sTyLe".utf8)),
        ("a NUL", Array("a { color: red }\u{0}".utf8)),
        ("a byte order mark", [0xEF, 0xBB, 0xBF] + Array("a { color: red }".utf8)),
        ("bytes that are not UTF-8", Array("a { content: '".utf8) + [0xC3, 0x28] + Array("' }".utf8)),
        ("more than 64 KiB", [UInt8](repeating: UInt8(ascii: " "), count: (64 << 10) + 1)),
    ]

    /// A stylesheet that a `style` element cannot hold whole, or not as its bytes, stays a file every page links.
    @Test(arguments: stylesNotInline)
    func aStylesheetThatCannotBeInlineIsLinked(_ what: String, css: [UInt8]) throws {
        var files = Theme.builtIn.files
        files["vitrine.css"] = css
        #expect(PageRenderer.inlineStyles(of: Theme(files: files, origin: what)) == "")
        let (_, html) = try page(grid, css: css)
        #expect(html.strings("//link[@rel='stylesheet']/@href") == ["assets/vitrine.css"], "\(what)")
        #expect(html.strings("//style[@data-href]").isEmpty)
        #expect(html.strings("//script[not(@src)]/@type").allSatisfy { $0 == "application/ld+json" })
    }

    @Test func stylesAtTheLimitOrCloseToAnEndTagAreInline() throws {
        var files = Theme.builtIn.files
        for css in [
            Array(String(repeating: "a{}\n", count: 16 << 10).utf8), Array("a::after { content: '</styl' }".utf8),
            Array("a::after { content: '<\\/style>' }".utf8), Array("</".utf8),
        ] {
            files["vitrine.css"] = css
            let inline = PageRenderer.inlineStyles(of: Theme(files: files, origin: "test"))
            #expect(!inline.isEmpty && inline == CSSCompaction.compact(String(decoding: css, as: UTF8.self)))
        }
        files["vitrine.css"] = nil
        #expect(PageRenderer.inlineStyles(of: Theme(files: files, origin: "a theme without the stylesheet")) == "")
    }
}
