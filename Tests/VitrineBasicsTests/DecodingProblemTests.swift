import Foundation
import Testing

@testable import VitrineBasics

/// `JSONDecoder`'s errors said in words, naming the value by its path.
@Suite struct DecodingProblemTests {
    struct Page: Decodable {
        var hits: [Hit]
        var total: Int?
    }

    struct Hit: Decodable {
        var id: Int
        var webformatURL: String
    }

    static func problem(_ json: String) -> DecodingProblem? {
        do {
            _ = try JSONDecoder().decode(Page.self, from: Data(json.utf8))
            return nil
        } catch {
            return DecodingProblem(error)
        }
    }

    @Test(arguments: [
        (#"{"hits": [{"id": 1, "webformatURL": "a"}, {"id": 2}]}"#, "“hits[1].webformatURL” in the page is missing"),
        (#"{"hits": [{"id": "x", "webformatURL": "a"}]}"#, "“hits[0].id” in the page is not a number"),
        (#"{"hits": [{"id": null, "webformatURL": "a"}]}"#, "“hits[0].id” in the page is null"),
        (#"{"hits": [7]}"#, "“hits[0]” in the page is not a JSON object"),
        (#"{"hits": "none"}"#, "“hits” in the page is not a list"),
        (#"{"hits": [], "total": true}"#, "“total” in the page is not a number"),
        (#"{"total": 1}"#, "“hits” in the page is missing"),
        ("[]", "the page is not a JSON object"),
        ("{\"hits\": [", "the page is not valid JSON"),
        ("<html>", "the page is not valid JSON"),
    ])
    func namesWhatIsWrongAndWhere(json: String, sentence: String) {
        #expect(Self.problem(json)?.sentence(about: "the page") == sentence)
    }

    @Test func keepsAProblemADecoderThrewAndCallsOtherErrorsInvalidJSON() {
        let own = DecodingProblem(path: "a.b", problem: "is odd")
        #expect(DecodingProblem(own) == own)
        #expect(DecodingProblem(CocoaError(.fileReadUnknown)).sentence(about: "it") == "it is not valid JSON")
    }
}
