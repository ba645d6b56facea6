import Testing

@testable import VitrineRender

@Suite struct HTMLVoidEndTagsTests {
    func removed(_ text: String) -> String {
        String(decoding: HTMLVoidEndTags.removed(from: Array(text.utf8)), as: UTF8.self)
    }

    @Test func takesOutTheEndTagsOfHTML5sEmptyElementsAndNothingElse() {
        #expect(
            removed(#"<picture><source type="image/avif" srcset="a.avif"></source><img src="a.jpg"></picture>"#)
                == #"<picture><source type="image/avif" srcset="a.avif"><img src="a.jpg"></picture>"#)
        #expect(removed("<p>a<wbr></wbr>b</p></track></source></source>") == "<p>a<wbr>b</p>")
        #expect(removed("</sourc></sources></Source></ source>") == "</sourc></sources></Source></ source>")
        #expect(removed("") == "" && removed("<") == "<" && removed("</") == "</" && removed("</source") == "</source")
    }

    @Test func givesBackThePageAsItIsWhenItHasNone() {
        let page = Array("<html><body><p>&lt;/source&gt;</p></body></html>".utf8)
        #expect(HTMLVoidEndTags.removed(from: page) == page)
    }
}
