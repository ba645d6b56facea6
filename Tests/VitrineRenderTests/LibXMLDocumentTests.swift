import Testing

@testable import VitrineRender

@Suite struct XMLDocumentTests {
    @Test func neverExpandsExternalEntities() throws {
        let hostile = """
            <?xml version="1.0"?>
            <!DOCTYPE r [<!ENTITY secret SYSTEM "file:///etc/hostname">]>
            <r>&secret;</r>
            """
        let document = try LibXMLDocument.parse(Array(hostile.utf8))
        let text = document.strings("/r").first ?? ""
        #expect(text.isEmpty)
    }

    @Test func reportsMalformedXMLWithItsLine() {
        #expect(throws: XMLError.self) { try LibXMLDocument.parse(Array("<a>\n<b></a>".utf8)) }
    }

    @Test func selectsStringsWithXPath() throws {
        let document = try LibXMLDocument.parse(Array("<a><b x='1'/><b x='2'/></a>".utf8))
        #expect(document.strings("//b/@x") == ["1", "2"])
    }
}
