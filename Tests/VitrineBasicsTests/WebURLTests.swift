import Testing

@testable import VitrineBasics

/// The one check every URL passes where it enters (an API's answer, a history's record, a shard's record): valid as
/// it stands, or percent-encoded where it must be, or refused.
@Suite struct WebURLTests {
    private func encoded(_ text: String) -> String? {
        guard case .success(let url) = WebURL.encoding(text) else { return nil }
        return url.text
    }

    private func refusal(_ text: String) -> WebURL.Refusal? {
        guard case .failure(let refusal) = WebURL.encoding(text) else { return nil }
        return refusal
    }

    @Test func aPlainURLStandsAsItIs() {
        for text in [
            "https://cdn.example/photo/2024/a_640.jpg", "http://127.0.0.1:8080/x?a=1&b=2,3#top",
            "HTTPS://CDN.example/a%20b.jpg", "https://[::1]:443/a", "https://www.flickr.com/photos/o@N01/1/",
            "http://host", "https://img_640.localhost/a,b.jpg",
        ] {
            #expect(WebURL(text)?.text == text)
            #expect(encoded(text) == text)
        }
    }

    @Test func whatASrcsetOrAnAttributeWouldSplitOrEndIsPercentEncoded() {
        #expect(
            encoded("https://cdn.example/a b.jpg 1w, data:image/png;base64,AAAA 2w, /evil.jpg")
                == "https://cdn.example/a%20b.jpg%201w,%20data:image/png;base64,AAAA%202w,%20/evil.jpg")
        #expect(encoded("https://cdn.example/\"><script>.jpg") == "https://cdn.example/%22%3E%3Cscript%3E.jpg")
        #expect(encoded("https://cdn.example/a.jpg,,") == "https://cdn.example/a.jpg%2C%2C")
        #expect(encoded("https://cdn.example/a\\b^`{|}[].jpg") == "https://cdn.example/a%5Cb%5E%60%7B%7C%7D%5B%5D.jpg")
        #expect(encoded("https://cdn.example/é.jpg#a#b") == "https://cdn.example/%C3%A9.jpg#a%23b")
        // Encoded once, a URL stands as it is.
        #expect(WebURL("https://cdn.example/a b.jpg") == nil)
        #expect(WebURL("https://cdn.example/a%20b.jpg") != nil)
    }

    @Test func whatCannotBeMadeAURLIsRefusedSayingWhy() {
        #expect(refusal("https://cdn.example/a\n.jpg") == .control)
        #expect(refusal("https://cdn.example/a\r\n2w.jpg") == .control)
        #expect(refusal("https://cdn.example/a\u{0}.jpg") == .control)
        #expect(refusal("https://cdn.example/a\u{85}.jpg") == .control)
        for text in [
            "javascript:alert(1)", "data:image/png;base64,AAAA", "/relative.jpg", "../../evil.html", "ftp://h/a",
        ] {
            #expect(refusal(text) == .notHTTP, "\(text)")
        }
        for text in [
            "http:///a", "http://", "https://a b/", "https://é.example/", "https://h:99999/", "https://h:x/",
            "http://evil.example\\good.example/", "https://[::1/", "https://h%2e/",
        ] {
            #expect(refusal(text) == .badHost, "\(text)")
        }
        #expect(refusal("https://user:secret@cdn.example/a.jpg") == .credentials)
        #expect(refusal("http://evil.example\\@good.example/") == .credentials)
        #expect(refusal("https://cdn.example/100%.jpg") == .badEscape)
        #expect(refusal("https://cdn.example/%zz.jpg") == .badEscape)
    }

    @Test func aURLLongerThanTheModelsLongestTextIsRefusedNeverCut() {
        let base = "https://cdn.example/"
        let longest = base + String(repeating: "a", count: WebURL.maximumLength - base.count)
        #expect(WebURL(longest)?.text == longest)
        #expect(refusal(longest + "b") == .tooLong)
        // Encoding can make a URL too long.
        #expect(refusal(base + String(repeating: " ", count: 700)) == .tooLong)
    }

    @Test func onlyTheFileNameOfThePathIsRewritten() {
        func rewritten(_ text: String) -> String? {
            WebURL(text)?.replacingOnceInFileName("_640.", with: "_180.")?.text
        }
        #expect(
            rewritten("https://cdn.example/p/a_640.jpg?v=_640.#_640.")
                == "https://cdn.example/p/a_180.jpg?v=_640.#_640.")
        #expect(rewritten("http://img_640.localhost") == nil)
        #expect(rewritten("http://img_640.localhost?x_640.jpg") == nil)
        #expect(rewritten("https://cdn.example/a.jpg?x=/b_640.jpg") == nil)
        #expect(rewritten("https://cdn.example/x_640.d/a.jpg") == nil)
        #expect(rewritten("https://cdn.example/a_640._640.jpg") == nil)
    }
}
