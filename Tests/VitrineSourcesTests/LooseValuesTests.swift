import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineSources

/// The loose fields the sources decode API answers into, against the way the sources read the same values when they
/// sat on `JSONSerialization`'s `NSNumber`s; and what `JSONDecoder` makes of hostile answers.
@Suite struct LooseValuesTests {
    /// A value as `JSONSerialization` gave it and the sources read it then.
    struct FoundationView {
        let value: Any?

        var string: String? {
            switch value {
            case let text as String: text
            case let number as NSNumber where !isBoolean(number): number.stringValue
            default: nil
            }
        }

        var int: Int? {
            switch value {
            case let number as NSNumber where !isBoolean(number):
                let double = number.doubleValue
                return double.isFinite && abs(double) < 1e15 ? Int(double) : nil
            case let text as String: return Int(text.trimmingCharacters(in: .whitespaces))
            default: return nil
            }
        }

        var double: Double? {
            guard let number = value as? NSNumber, !isBoolean(number), number.doubleValue.isFinite else { return nil }
            return number.doubleValue
        }

        private func isBoolean(_ number: NSNumber) -> Bool {
            String(cString: number.objCType) == "c"
                && (number == NSNumber(value: true) || number == NSNumber(value: false))
        }
    }

    /// One field read every loose way.
    struct Field: Decodable {
        var text: LooseString?
        var numericText: LooseNumericString?
        var int: LooseInt?
        var double: LooseDouble?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            let key = AnyKey(stringValue: "v")
            text = try container.decodeIfPresent(LooseString.self, forKey: key)
            numericText = try container.decodeIfPresent(LooseNumericString.self, forKey: key)
            int = try container.decodeIfPresent(LooseInt.self, forKey: key)
            double = try container.decodeIfPresent(LooseDouble.self, forKey: key)
        }
    }

    /// A key named by a string.
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func field(_ json: String) throws -> Field {
        try APIAnswer.decode(Field.self, from: Array("{\"v\": \(json)}".utf8))
    }

    static func foundation(_ json: String) throws -> FoundationView {
        let object = try JSONSerialization.jsonObject(with: Data("{\"v\": \(json)}".utf8)) as? [String: Any]
        return FoundationView(value: object?["v"])
    }

    @Test(arguments: [
        "0", "-0", "7", "-7", "1.5", "0.1", "1e-2", "1.5e-3", "1e308", "999999999999999",
        "1000000000000000", "-999999999999.25", "9007199254740993", "9223372036854775807", "-9223372036854775808",
        "18446744073709551615", "1.7976931348623157e308", "5e-324", "1.9", "-1.9", "true", "false", "null",
        #""12""#, #"" 7 ""#, #""-3""#, #""1.5""#, #""x""#, #""""#, "[]", "{}", #"[1, "2", true]"#,
        #"{"a": {"b": [null]}}"#,
    ])
    func readsNumbersAndScalarsAsTheSourcesDidThroughNSNumber(json: String) throws {
        let ours = try Self.field(json)
        let theirs = try Self.foundation(json)
        #expect(ours.text?.value == theirs.string, "text of \(json)")
        #expect(ours.numericText?.value == theirs.string, "numeric text of \(json)")
        #expect(ours.int?.value == theirs.int, "int of \(json)")
        #expect(ours.double?.value == theirs.double, "double of \(json)")
        #expect(
            ours.int?.dimension == theirs.int.flatMap { $0 > 0 && $0 <= 100_000 ? $0 : nil }, "dimension of \(json)")
    }

    /// Where the two part on purpose: a whole number written with a fraction or exponent reads as its digits (it
    /// read as `1.0`), a number beyond 64 bits as the nearest `Double` (it read as a `Decimal`'s digits), and
    /// numbers `JSONDecoder` cannot hold as a `Double` read as nothing.
    @Test func readsOddlyWrittenNumbersAsTheirValue() throws {
        #expect(try Self.field("1.0").text?.value == "1")
        #expect(try Self.field("1e2").text?.value == "100")
        #expect(try Self.field("1e16").text?.value == "10000000000000000")
        #expect(try Self.field("99999999999999999999").text?.value == "1e+20")
        #expect(try Self.field("99999999999999999999").int?.value == nil)
        #expect(try Self.field("1e309").text?.value == nil)
        #expect(try Self.field("1e309").double?.value == nil)
        #expect(try Self.field("2.5e-400").double?.value == nil)
        #expect(try Self.field("1.5").int?.value == 1)
    }

    @Test func aFieldOfAnotherShapeIsNilAndTheRestStillReads() throws {
        struct Record: Decodable {
            var nested: Tolerant<[LooseInt]>?
            var name: LooseString?
        }
        let record = try APIAnswer.decode(Record.self, from: Array(#"{"nested": {"x": 1}, "name": "n"}"#.utf8))
        #expect(record.nested?.value == nil && record.name?.value == "n")
        let list = try APIAnswer.decode(Record.self, from: Array(#"{"nested": [1, "2", true, 3.5]}"#.utf8))
        #expect(list.nested?.value?.map(\.value) == [1, 2, nil, 3])
    }
}

/// What the sources make of answers built to hurt: each is read or is one `badData` sentence, never a crash.
@Suite struct HostileAnswerTests {
    static func decode(_ body: [UInt8]) throws -> PixabaySource.PageOutcome {
        try PixabaySource.decodePage(body, query: "Hamburg", page: 2, fetchedAt: nil)
    }

    static func sentence(_ body: [UInt8]) -> String? {
        do {
            _ = try decode(body)
            return nil
        } catch let error as SourceError {
            #expect(error.kind == .badData)
            return error.sentence
        } catch {
            Issue.record("unexpected \(error)")
            return nil
        }
    }

    static func page(_ hits: String) -> [UInt8] { Array("{\"totalHits\": 1, \"hits\": [\(hits)]}".utf8) }

    @Test func saysWhatIsWrongWithTheAnswerAndWhere() {
        let prefix = "Pixabay returned data Vitrine cannot read: "
        #expect(Self.sentence(Array("<html>".utf8)) == prefix + "the answer to “Hamburg” page 2 is not valid JSON.")
        #expect(Self.sentence(Array("[]".utf8)) == prefix + "the answer to “Hamburg” page 2 is not a JSON object.")
        #expect(Self.sentence(Array("{}".utf8)) == prefix + "“hits” in the answer to “Hamburg” page 2 is missing.")
        #expect(
            Self.sentence(Array(#"{"hits": {}}"#.utf8)) == prefix
                + "“hits” in the answer to “Hamburg” page 2 is not a list.")
        #expect(
            Self.sentence(Array(#"{"hits": null}"#.utf8)) == prefix
                + "“hits” in the answer to “Hamburg” page 2 is null.")
    }

    @Test func nestingBeyond512IsRefusedWithoutExhaustingTheStack() {
        for depth in [513, 10_000, 100_000] {
            let deep = Array(
                ("{\"hits\": [" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "]}")
                    .utf8)
            #expect(Self.sentence(deep)?.hasSuffix("is not valid JSON.") == true, "\(depth)")
        }
        let objects = Array(
            ("{\"hits\": [], \"x\": " + String(repeating: "{\"a\":", count: 100_000) + "1"
                + String(repeating: "}", count: 100_000) + "}").utf8)
        #expect(Self.sentence(objects)?.hasSuffix("is not valid JSON.") == true)
        let allowed = Array(
            ("{\"hits\": [], \"x\": " + String(repeating: "[", count: 500) + String(repeating: "]", count: 500) + "}")
                .utf8)
        #expect(throws: Never.self) { try Self.decode(allowed) }
    }

    @Test(
        arguments: [
            [0xC3],  // a lead byte without its continuation
            [0x80],  // a continuation byte alone
            [0xC0, 0xAF],  // an overlong "/"
            [0xED, 0xA0, 0x80],  // a surrogate encoded in UTF-8
            [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
            [0xFF],
        ] as [[UInt8]])
    func invalidUTF8InAFieldThatIsReadIsBadData(bytes: [UInt8]) {
        let hit = Array(pixabayHit(id: 1, tags: "@").utf8)
        let at = hit.firstIndex(of: UInt8(ascii: "@"))!
        let document = Array("{\"hits\": [".utf8) + hit[..<at] + bytes + hit[(at + 1)...] + Array("]}".utf8)
        #expect(Self.sentence(document)?.hasSuffix("is not valid JSON.") == true)
    }

    @Test(arguments: [#"\ud800"#, #"\udc00x"#, #"\ud83dx"#, "\t", #"\x41"#, #"\'"#])
    func loneSurrogatesControlCharactersAndBadEscapesAreBadData(text: String) {
        #expect(Self.sentence(Self.page(pixabayHit(id: 1, tags: text)))?.hasSuffix("is not valid JSON.") == true)
    }

    @Test func hugeNumbersAndStringsCostTheFieldNotTheAnswer() throws {
        let hits = [
            pixabayHit(id: 1, extra: #", "webformatWidth": 1e309, "webformatHeight": 99999999999999999999"#)
                .replacingOccurrences(of: "\"webformatWidth\": 640, \"webformatHeight\": 427,", with: ""),
            #"{"id": 1e309, "webformatURL": "https://cdn.example/x.jpg"}"#,
            pixabayHit(id: 3, tags: String(repeating: "x", count: 200_000)),
        ]
        let page = try Self.decode(Self.page(hits.joined(separator: ",")))
        #expect(page.hits.map(\.id) == ["1", "3"])
        #expect(
            page.warnings == ["Skipped Pixabay hit 2 of page 2 for “Hamburg”: field “id” is missing or not a number."])
        guard case .found(_, _, let tile, _, _, _, _, _) = page.hits[0].entry else {
            Issue.record("hit 1 decodes")
            return
        }
        #expect(tile.width == nil && tile.height == nil)
    }
}
