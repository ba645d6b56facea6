import Foundation
import Synchronization
import Testing

@testable import VitrineModel
@testable import VitrineRender

/// libxslt reports some transform errors through its one process-wide handler rather than the transform context's
/// (an EXSLT function called with too many arguments is one): each must reach the page whose transform raised it.
@Suite struct StylesheetTests {
    /// A grid template whose EXSLT function `NAME:twice` takes one argument and is called with two.
    static func miscalledFunctionTheme(_ name: String) -> Theme {
        let grid = """
            <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:func="http://exslt.org/functions" xmlns:\(name)="urn:\(name)" extension-element-prefixes="func">
              <func:function name="\(name):twice"><xsl:param name="x"/><func:result select="$x * 2"/></func:function>
              <xsl:template match="/"><p><xsl:value-of select="\(name):twice(1, 2)"/></p></xsl:template>
            </xsl:stylesheet>
            """
        return Theme(files: ["grid.xsl": Array(grid.utf8)], origin: "the \(name) theme")
    }

    static func renderError(_ theme: Theme) throws -> TemplateError? {
        let renderer = try PageRenderer(theme: theme, kinds: [.grid])
        let model = try LibXMLDocument.parse(Array("<gallery/>".utf8))
        do {
            _ = try renderer.render(.init(kind: .grid, id: "c1-p1", href: "index.html"), model: model)
            return nil
        } catch {
            return error
        }
    }

    @Test func anErrorLibxsltReportsOutsideTheTransformContextNamesItsCause() throws {
        let error = try #require(try Self.renderError(Self.miscalledFunctionTheme("alpha")))
        #expect(error.sentence.contains("{urn:alpha}twice: called with too many arguments"), "\(error.sentence)")
    }

    /// Two failing transforms and a failing compilation at once, many times over: each message is its own.
    @Test func messagesOfTransformsAndCompilationsAtOnceDoNotMix() {
        let names = ["alpha", "beta"]
        let broken = Theme(
            files: [
                "grid.xsl": Array(
                    "<xsl:stylesheet version='1.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform'><xsl:template match='/'><xsl:value-of select='(('/></xsl:template></xsl:stylesheet>"
                        .utf8)
            ],
            origin: "the broken theme")
        let wrong = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { lane in
            for _ in 0..<40 {
                let sentence: String
                do {
                    if lane == 2 {
                        _ = try PageRenderer(theme: broken, kinds: [.grid])
                        sentence = "compiled"
                    } else {
                        sentence = try Self.renderError(Self.miscalledFunctionTheme(names[lane]))?.sentence ?? "none"
                    }
                } catch let error as TemplateError {
                    sentence = error.sentence
                } catch {
                    sentence = "\(error)"
                }
                let own = lane == 2 ? "grid.xsl" : "{urn:\(names[lane])}twice: called with too many arguments"
                let others = names.enumerated().filter { $0.offset != lane }.map { "urn:\($0.element)" }
                if !sentence.contains(own) || others.contains(where: sentence.contains) {
                    wrong.withLock { $0.append("lane \(lane): \(sentence)") }
                }
            }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(3) })")
    }
}
