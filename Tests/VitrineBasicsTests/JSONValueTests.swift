import Foundation
import Testing

@testable import VitrineBasics

/// The hand-written JSON parser: every kind of valid document, strict rejection of everything RFC 8259 forbids.
@Suite struct JSONValueTests {
    static func parse(_ text: String) throws(JSONParseError) -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    static func number(_ text: String) -> JSONValue { .number(JSONNumber(text: text)) }

    static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members: members.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }

    @Test func readsEveryKindOfValue() throws {
        #expect(try Self.parse("null") == .null)
        #expect(try Self.parse(" \t\r\ntrue\n") == .bool(true))
        #expect(try Self.parse("false") == .bool(false))
        #expect(try Self.parse("\"\"") == .string(""))
        #expect(try Self.parse("[]") == .array([]))
        #expect(try Self.parse("{ }") == .object(JSONObject(members: [])))
        let document = #"{"b": [1, "x", null, {"c": false}], "a": {}, "é漢": -2.5e+3}"#
        #expect(
            try Self.parse(document)
                == Self.object([
                    ("b", .array([Self.number("1"), .string("x"), .null, Self.object([("c", .bool(false))])])),
                    ("a", Self.object([])), ("é漢", Self.number("-2.5e+3")),
                ]))
    }

    @Test func aKeyGivenTwiceReadsAsItsLastValue() throws {
        guard case .object(let object) = try Self.parse(#"{"a": 1, "b": 2, "a": 3}"#) else {
            Issue.record("not an object")
            return
        }
        #expect(object["a"] == Self.number("3"))
        #expect(object["b"] == Self.number("2"))
        #expect(object["c"] == nil)
    }

    @Test func decodesEveryEscape() throws {
        #expect(try Self.parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{8} \u{C} \n \r \t"))
        #expect(try Self.parse(#""\u0041\u00e9\u6F22\u0000\u001F""#) == .string("Aé漢\u{0}\u{1F}"))
        #expect(try Self.parse(#""a\u0062c""#) == .string("abc"))
        #expect(try Self.parse("\"raw é 漢 🙂 \u{7F}\"") == .string("raw é 漢 🙂 \u{7F}"))
    }

    @Test func joinsSurrogatePairs() throws {
        #expect(try Self.parse(#""\ud83d\ude42""#) == .string("🙂"))
        #expect(try Self.parse(#""x\uD834\uDD1Ey""#) == .string("x𝄞y"))
        #expect(try Self.parse(#""\udbff\udfff""#) == .string("\u{10FFFF}"))
    }

    @Test(arguments: [
        (#""\ud800""#, JSONParseError.Reason.loneSurrogate),
        (#""\ud800x""#, .loneSurrogate),
        (#""\ud800\u0041""#, .loneSurrogate),
        (#""\udc00""#, .loneSurrogate),
        (#""\ude42\ud83d""#, .loneSurrogate),
    ])
    func rejectsLoneSurrogatesLikeJSONSerialization(text: String, reason: JSONParseError.Reason) {
        #expect(throws: JSONParseError(reason: reason, offset: 1)) { try Self.parse(text) }
        #expect(throws: (any Error).self) {
            try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        }
    }

    @Test func keepsNumbersAsTheirText() throws {
        for text in [
            "0", "-0", "1e308", "1.5e-3", "1E+2", "-0.0", "123456789012345678901234567890",
            "-98765432109876543210987654321", "1e309", "2.5e-400",
        ] {
            #expect(try Self.parse(text) == Self.number(text))
        }
        #expect(JSONNumber(text: "-0").int == 0)
        #expect(JSONNumber(text: "1e308").double == 1e308)
        #expect(JSONNumber(text: "1.5e-3").double == 0.0015)
        #expect(JSONNumber(text: "1e309").double == .infinity)
        #expect(JSONNumber(text: "123456789012345678901234567890").int == nil)
        #expect(JSONNumber(text: "123456789012345678901234567890").isInteger)
        #expect(JSONNumber(text: "9223372036854775807").int == Int.max)
        #expect(JSONNumber(text: "1.0").int == nil)
    }

    @Test(arguments: [
        ("", JSONParseError(reason: .unexpectedEnd, offset: 0)),
        ("  ", .init(reason: .unexpectedEnd, offset: 2)),
        ("[1, 2,]", .init(reason: .unexpectedByte(UInt8(ascii: "]")), offset: 6)),
        (#"{"a": 1,}"#, .init(reason: .unexpectedByte(UInt8(ascii: "}")), offset: 8)),
        ("[,1]", .init(reason: .unexpectedByte(UInt8(ascii: ",")), offset: 1)),
        ("['a']", .init(reason: .unexpectedByte(UInt8(ascii: "'")), offset: 1)),
        ("{'a': 1}", .init(reason: .unexpectedByte(UInt8(ascii: "'")), offset: 1)),
        ("{a: 1}", .init(reason: .unexpectedByte(UInt8(ascii: "a")), offset: 1)),
        (#"{"a" 1}"#, .init(reason: .unexpectedByte(UInt8(ascii: "1")), offset: 5)),
        ("\"tab\there\"", .init(reason: .controlCharacterInString, offset: 4)),
        ("\"line\nbreak\"", .init(reason: .controlCharacterInString, offset: 5)),
        ("\"nul\u{0}\"", .init(reason: .controlCharacterInString, offset: 4)),
        (#""\x41""#, .init(reason: .invalidEscape, offset: 1)),
        (#""\'""#, .init(reason: .invalidEscape, offset: 1)),
        (#""\u12G4""#, .init(reason: .invalidEscape, offset: 5)),
        (#""\U0041""#, .init(reason: .invalidEscape, offset: 1)),
        (#""abc"#, .init(reason: .unexpectedEnd, offset: 4)),
        (#""\u00"#, .init(reason: .unexpectedEnd, offset: 5)),
        (#"{"a": [1, {"b": tru"#, .init(reason: .unexpectedEnd, offset: 19)),
        ("[1 2]", .init(reason: .unexpectedByte(UInt8(ascii: "2")), offset: 3)),
        ("nul", .init(reason: .unexpectedEnd, offset: 3)),
        ("True", .init(reason: .unexpectedByte(UInt8(ascii: "T")), offset: 0)),
        ("nan", .init(reason: .unexpectedByte(UInt8(ascii: "a")), offset: 1)),
        ("01", .init(reason: .unexpectedByte(UInt8(ascii: "1")), offset: 1)),
        ("-", .init(reason: .unexpectedEnd, offset: 1)),
        ("-x", .init(reason: .invalidNumber, offset: 1)),
        ("1.", .init(reason: .unexpectedEnd, offset: 2)),
        (".5", .init(reason: .unexpectedByte(UInt8(ascii: ".")), offset: 0)),
        ("1.e3", .init(reason: .invalidNumber, offset: 2)),
        ("1e", .init(reason: .unexpectedEnd, offset: 2)),
        ("1e+", .init(reason: .unexpectedEnd, offset: 3)),
        ("+1", .init(reason: .unexpectedByte(UInt8(ascii: "+")), offset: 0)),
        ("0x10", .init(reason: .unexpectedByte(UInt8(ascii: "x")), offset: 1)),
        ("[1] [2]", .init(reason: .unexpectedByte(UInt8(ascii: "[")), offset: 4)),
        ("[1] // comment", .init(reason: .unexpectedByte(UInt8(ascii: "/")), offset: 4)),
        ("\u{FEFF}[]", .init(reason: .unexpectedByte(0xEF), offset: 0)),
        ("[1]\u{0}", .init(reason: .unexpectedByte(0), offset: 3)),
    ])
    func rejectsWhatRFC8259Forbids(text: String, error: JSONParseError) {
        #expect(throws: error) { try Self.parse(text) }
    }

    @Test(arguments: [
        [0x22, 0xC3, 0x22],  // a lead byte without its continuation
        [0x22, 0x80, 0x22],  // a continuation byte alone
        [0x22, 0xC0, 0xAF, 0x22],  // an overlong "/"
        [0x22, 0xE0, 0x80, 0xAF, 0x22],  // an overlong "/" in three bytes
        [0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22],  // an overlong "/" in four bytes
        [0x22, 0xE6, 0xBC, 0x22],  // a three-byte sequence cut short by the closing quote
        [0x22, 0xE6, 0x41, 0xA2, 0x22],  // a continuation byte replaced by ASCII
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // a surrogate encoded in UTF-8
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // beyond U+10FFFF
        [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // after an escape
        [0x5B, 0x22, 0x61, 0x22, 0x2C, 0x22, 0xFE, 0x22, 0x5D],  // in the second string of an array
    ])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        let quote = bytes.lastIndex(of: 0x22).flatMap { bytes[..<$0].lastIndex(of: 0x22) } ?? 0
        #expect(throws: JSONParseError(reason: .invalidUTF8, offset: quote)) { try JSONValue.parse(bytes) }
    }

    @Test func limitsNestingTo512() throws {
        func nested(_ depth: Int, open: String, close: String) -> [UInt8] {
            Array((String(repeating: open, count: depth) + "null" + String(repeating: close, count: depth)).utf8)
        }
        #expect(throws: Never.self) { try JSONValue.parse(nested(512, open: "[", close: "]")) }
        #expect(throws: Never.self) { try JSONValue.parse(nested(512, open: #"{"a":"#, close: "}")) }
        #expect(throws: JSONParseError(reason: .tooDeep, offset: 512)) {
            try JSONValue.parse(nested(513, open: "[", close: "]"))
        }
        #expect(throws: JSONParseError(reason: .tooDeep, offset: 512 * 5)) {
            try JSONValue.parse(nested(100_000, open: #"{"a":"#, close: "}"))
        }
    }
}
