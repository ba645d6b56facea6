import Foundation
import Testing

@testable import VitrineRender

/// The inline copy of a stylesheet loses its comments and spare whitespace, and nothing CSS reads.
@Suite struct CSSCompactionTests {
    @Test(arguments: [
        // Comments and the whitespace around braces, semicolons and commas and after colons go; other runs become one
        // space.
        (
            "/* a theme */\n:root {\n  --bg: #fff; /* page */\n}\n\na, b  >  c {\n\tcolor: red;\n}\n",
            ":root{--bg:#fff;}a,b > c{color:red;}"
        ),
        // A space before a colon is a descendant selector; the spaces of calc() are needed.
        ("a :hover { width: calc(100vw - 24px) }", "a :hover{width:calc(100vw - 24px)}"),
        // Strings keep everything, an escaped quote included.
        (
            "a::before { content: \"/* not a comment */  \\\"x\\\"\" }",
            "a::before{content:\"/* not a comment */  \\\"x\\\"\"}"
        ),
        ("b { font-family: 'Segoe  UI', x }", "b{font-family:'Segoe  UI',x}"),
        // An unquoted url() is one token, /* included; a quoted one is a string.
        ("c { background: url( data:x/*y*/z ) }", "c{background:url( data:x/*y*/z )}"),
        ("d { background: URL('a /* b') }", "d{background:URL('a /* b')}"),
        // A comment between two parts of a name keeps them apart; elsewhere it goes.
        ("e/**/f { color/**/: red }", "e/**/f{color:red}"),
        ("g /* x */ h {}", "g h{}"),
        // An escape keeps the byte after it.
        (".a\\:b { x: 1 }", ".a\\:b{x:1}"),
        ("@media (max-width: 40em) {\n  .x { y: 1; }\n}\n", "@media (max-width: 40em){.x{y:1;}}"),
        // A custom property's value is kept as written, its spaces and comments included.
        (
            ":root {\n  --pad: clamp(.75rem, 3vw,  2.5rem) ;\n  --x:a /* c; */ b;--y : { p: q; } }",
            ":root{--pad:clamp(.75rem, 3vw,  2.5rem);--x:a /* c; */ b;--y:{ p: q; }}"
        ),
        // So is a value that holds a var(), which CSS keeps as written until it substitutes it; a selector taken
        // for a declaration is copied as it is.
        (
            ".g { grid: repeat(auto-fill, minmax(min(var(--tile), 100%), 1fr)); margin: 0 auto }",
            ".g{grid:repeat(auto-fill, minmax(min(var(--tile), 100%), 1fr));margin:0 auto}"
        ),
        ("@media print { a:hover { b: var(--c, 1px 2px) } }", "@media print{a:hover { b: var(--c, 1px 2px) }}"),
        // An at-rule's prelude is kept as written.
        (
            "@supports  (width: 1cqh)  and (x: \"{\")\n{ a { b: c } }",
            "@supports  (width: 1cqh)  and (x: \"{\"){a{b:c}}"
        ),
        ("@media /* { */ print { a { b: c } }", "@media /* { */ print{a{b:c}}"),
        // An unterminated comment runs to the end, as CSS reads it.
        ("i { j: 1 } /* open", "i{j:1}"),
    ])
    func compactsWithoutChangingTheTokens(_ css: String, _ expected: String) {
        #expect(CSSCompaction.compact(css) == expected)
    }

    @Test func theBuiltInThemeLosesItsCommentsAndIndentation() throws {
        let bytes = try #require(Theme.builtIn.files["vitrine.css"])
        let inline = PageRenderer.inlineStyles(of: .builtIn)
        #expect(!inline.contains("/*") && !inline.contains("\n  "))
        #expect(inline.utf8.count * 4 < bytes.count * 3)
        #expect(inline.contains(".grid{display:grid;"))
    }

    @Test func aCommentThatWouldJoinAStyleEndTagLeavesTheStylesheetLinked() {
        var theme = Theme.builtIn
        theme.files["vitrine.css"] = Array("a { b: c } <//**/style>".utf8)
        #expect(PageRenderer.inlineStyles(of: theme) == "")
    }
}
