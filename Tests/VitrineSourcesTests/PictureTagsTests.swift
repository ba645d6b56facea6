import Foundation
import Testing

@testable import VitrineSources

/// A tag is one tag however the API spelled it (NFC, lower case, white space), and hostile text cannot make it
/// long, invisible or reversed.
@Suite struct PictureTagsTests {
    @Test func composedAndDecomposedSpellingsAreOneTag() {
        let composed = "M\u{00FC}ller"
        let decomposed = "Mu\u{0308}ller"
        #expect(PictureTags.normalise(composed) == "m\u{00FC}ller")
        #expect(PictureTags.normalise(decomposed) == "m\u{00FC}ller")
        #expect(PictureTags.list([composed, decomposed, "MÜLLER"]) == ["m\u{00FC}ller"])
    }

    @Test func caseIsLoweredButSharpSIsNotFolded() {
        #expect(PictureTags.normalise("STRASSE") == "strasse")
        #expect(PictureTags.normalise("Straße") == "straße")
        #expect(PictureTags.normalise("C++") == "c++")
        #expect(PictureTags.list(["C++", "c", "Straße", "strasse", "STRASSE"]) == ["c++", "c", "straße", "strasse"])
    }

    @Test func whiteSpaceIsTrimmedAndCollapsedAndEmptyTagsAreDropped() {
        #expect(PictureTags.normalise("  new \t\n york\u{00A0} ") == "new york")
        #expect(PictureTags.normalise(" \u{2003} ") == nil)
        #expect(PictureTags.pixabay("port, building,, hamburg ,  , Port") == ["port", "building", "hamburg"])
        #expect(PictureTags.flickr("harbour  hamburg\telbe harbour") == ["harbour", "hamburg", "elbe"])
        #expect(PictureTags.pixabay(nil).isEmpty && PictureTags.flickr("").isEmpty)
    }

    @Test func controlAndFormatCharactersAreRemoved() {
        #expect(PictureTags.normalise("evil\u{202E}gpj.exe") == "evilgpj.exe")
        #expect(PictureTags.normalise("\u{2066}a\u{200B}b\u{00AD}c\u{2069}\u{0007}\u{FEFF}") == "abc")
        #expect(PictureTags.normalise("\u{202E}\u{202C}") == nil)
        #expect(PictureTags.normalise("x\u{FFFE}y") == "xy")
    }

    @Test func markupIsKeptAsText() {
        #expect(PictureTags.normalise("<script>alert(1)</script>") == "<script>alert(1)</script>")
    }

    @Test func aLongTagIsCutAtACharacterBoundary() throws {
        let long = String(repeating: "ab", count: 5_000)
        let cut = try #require(PictureTags.normalise(long))
        #expect(cut.count == PictureTags.maximumCharacters && long.lowercased().hasPrefix(cut))
        let flags = String(repeating: "🇩🇪", count: 5_000)
        let flagCut = try #require(PictureTags.normalise(flags))
        #expect(flagCut.count == PictureTags.maximumCharacters && flagCut.allSatisfy { $0 == "🇩🇪" })
        let zalgo = "a" + String(repeating: "\u{0301}", count: 10_000)
        let zalgoCut = try #require(PictureTags.normalise(zalgo))
        #expect(zalgoCut.unicodeScalars.count <= PictureTags.maximumScalars)
    }

    @Test func aPictureKeepsItsFirstTagsOnly() {
        let many = (1...100).map { "tag\($0)" }
        #expect(PictureTags.list(many) == Array(many.prefix(PictureTags.maximumPerPicture)))
        #expect(PictureTags.pixabay(many.joined(separator: ",")).count == PictureTags.maximumPerPicture)
    }

    @Test func pixabayAndFlickrHitsCarryTheirTags() throws {
        let page = try PixabaySource.decodePage(
            Array(
                #"{"totalHits":1,"hits":[{"id":7,"tags":"Port, building, port","webformatURL":"https://cdn.example/a_640.jpg"}]}"#
                    .utf8), query: "q", page: 1, fetchedAt: nil)
        guard case .found(let caption, _, _, _, _, _, _, let tags) = try #require(page.hits.first).entry else {
            Issue.record("the hit was not found")
            return
        }
        #expect(caption == "Port, building, port" && tags == ["port", "building"])

        let json = #"""
            {"photos":{"page":1,"pages":1,"photo":[{"id":"5","owner":"o@N01","secret":"ab","server":"1",
             "title":"Elbe","tags":"Elbe hamburg ELBE"}]},"stat":"ok"}
            """#
        let flickr = try FlickrSource.decodeREST(FlickrSourceTests.response(json), page: 1).items[0]
        guard case .found(_, _, _, _, _, _, _, let flickrTags) = flickr.entries[0] else {
            Issue.record("the photo was not found")
            return
        }
        #expect(flickrTags == ["elbe", "hamburg"])
    }

    /// The bytes' way for printable ASCII gives what the general way gives, for every such tag: spaces at the ends
    /// and in runs, capitals, punctuation, and lengths on both sides of the limit.
    @Test func printableASCIITagsAreNormalisedAsAnyTextIs() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("  aZ09-_.,'&+Hamburg Straße".utf8.filter { $0 < 0x80 })
        var checked = 0
        for _ in 0..<3_000 {
            let length = [0, 1, 5, 99, 100, 101, 150, 250][next(8)] + next(3)
            let raw = String(decoding: (0..<length).map { _ in alphabet[next(alphabet.count)] }, as: UTF8.self)
            let fast = PictureTags.normalisePrintableASCII(raw)
            #expect(fast != nil)
            #expect((fast?.isEmpty == true ? nil : fast) == PictureTags.normaliseText(raw), "\(raw)")
            checked += 1
        }
        #expect(checked == 3_000)
        #expect(PictureTags.normalisePrintableASCII("Straße") == nil)
        #expect(PictureTags.normalisePrintableASCII("tab\there") == nil)
        #expect(PictureTags.normalise("  Big   City  ") == "big city")
    }
}
