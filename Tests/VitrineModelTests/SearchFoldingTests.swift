import Foundation
import Testing

@testable import VitrineModel

/// Search folding on the Swift side: the fixture's hostile strings fold to what the fixture says, which the browser
/// suite checks the JavaScript side against too (Tests/Browser/test_search.py), so the two sides agree.
@Suite struct SearchFoldingTests {
    struct Case: Decodable {
        var input: String
        var folded: String
    }

    static func cases() throws -> [Case] {
        struct Fixture: Decodable { var cases: [Case] }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/search-folding.json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url)).cases
    }

    @Test func hostileStringsFoldAsTheFixtureThatTheJavaScriptSideIsCheckedAgainstSays() throws {
        let cases = try Self.cases()
        #expect(cases.count > 20)
        for entry in cases {
            #expect(SearchFolding.fold(entry.input) == entry.folded, "\(entry.input.debugDescription)")
        }
    }

    @Test func caseAndDiacriticsFoldAway() {
        #expect(SearchFolding.fold("Müller") == "muller")
        #expect(SearchFolding.fold("MU\u{308}LLER") == SearchFolding.fold("müller"))
        #expect(SearchFolding.fold("Straße") == "strasse")
    }

    @Test func foldingTwiceChangesNothing() throws {
        for entry in try Self.cases() {
            #expect(SearchFolding.fold(entry.folded) == entry.folded, "\(entry.input.debugDescription)")
        }
    }

    /// ASCII text takes a shorter way than the Unicode steps; it must fold to exactly what they make of it: every
    /// ASCII character alone and between letters, and every string of up to three characters of white space,
    /// controls, letters of both cases, digits and punctuation.
    @Test func asciiTextFoldsAsTheUnicodeStepsFoldIt() throws {
        var texts = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        texts += (0..<128).map { "Ab\(String(UnicodeScalar(UInt8($0))))Cd" }
        let alphabet = Array(" \t\n\r\u{0B}\u{0C}\u{1C}\u{1F}\u{7F}\u{00}aZ09-_.!'\"<&".map(String.init))
        var shorter = [""]
        for _ in 1...3 {
            shorter = shorter.flatMap { text in alphabet.map { text + $0 } }
            texts += shorter
        }
        for text in texts {
            let fast = try #require(SearchFolding.foldedASCII(text))
            #expect(fast == SearchFolding.foldedUnicode(text), "\(text.debugDescription)")
        }
        #expect(SearchFolding.foldedASCII("Mu\u{308}ller") == nil)
    }
}
