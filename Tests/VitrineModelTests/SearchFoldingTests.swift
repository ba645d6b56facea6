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
}
