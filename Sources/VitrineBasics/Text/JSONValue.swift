/// A JSON value as RFC 8259 defines it, read from UTF-8 bytes by `JSONValue.parse`.
///
/// Numbers keep the text the document gave, so that no digit is lost before a reader decides what it wants; objects
/// keep their members in document order.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The deepest nesting of arrays and objects accepted, as in `JSONSerialization`: hostile input cannot exhaust
    /// the stack.
    static let maximumDepth = 512

    /// Parses one JSON document (any value at the top, whitespace around it) from UTF-8 bytes.
    package static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBytes { buffer in Result { () throws(JSONParseError) in try parse(buffer) } }.get()
    }

    /// Parses one JSON document from UTF-8 bytes in memory the caller holds for the duration of the call.
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes.assumingMemoryBound(to: UInt8.self))
        return try parser.parseDocument()
    }
}

/// A JSON number: its text exactly as the document spells it, which is valid RFC 8259 number syntax.
package struct JSONNumber: Sendable, Hashable {
    package let text: String

    /// Whether the text has neither a fraction nor an exponent.
    var isInteger: Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// The nearest `Double`: infinite when the number is beyond `Double`'s range (`1e309`), zero when below it.
    package var double: Double { Double(text) ?? .nan }

    /// The number as an `Int`, when it is an integer without fraction or exponent that fits one.
    package var int: Int? { isInteger ? Int(text) : nil }
}

/// The members of a JSON object in document order. A key given twice reads as its last value, as with
/// `JSONSerialization`.
package struct JSONObject: Sendable, Equatable {
    /// A member of an object.
    package struct Member: Sendable, Equatable {
        let key: String
        let value: JSONValue
    }

    var members: [Member]

    /// The value of the last member named `key`. Objects are searched from the end, without a hash table: API
    /// objects are small and read a few keys each, and building a table would cost more than it saves.
    package subscript(key: String) -> JSONValue? {
        var index = members.endIndex
        while index > members.startIndex {
            index -= 1
            if members[index].key == key { return members[index].value }
        }
        return nil
    }
}

/// Why bytes are not a JSON document, and the offset of the byte where that became clear (for a string that is not
/// valid UTF-8: the offset of its opening quote).
package struct JSONParseError: Error, Equatable, CustomStringConvertible {
    /// What was wrong.
    enum Reason: Sendable, Equatable {
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case invalidNumber
        case invalidEscape
        /// A `\u` escape of half a surrogate pair without its other half (`JSONSerialization` rejects those too).
        case loneSurrogate
        case controlCharacterInString
        case invalidUTF8
        case tooDeep
    }

    let reason: Reason
    let offset: Int

    package var description: String {
        let what =
            switch reason {
            case .unexpectedEnd: "the document ends too early"
            case .unexpectedByte(let byte): "unexpected byte 0x\(String(byte, radix: 16))"
            case .invalidNumber: "invalid number"
            case .invalidEscape: "invalid escape sequence"
            case .loneSurrogate: "a \\u escape of half a surrogate pair"
            case .controlCharacterInString: "a control character inside a string"
            case .invalidUTF8: "a string that is not valid UTF-8"
            case .tooDeep: "arrays and objects nested more than \(JSONValue.maximumDepth) deep"
            }
        return "Invalid JSON at byte \(offset): \(what)."
    }
}

/// A strict RFC 8259 recursive-descent parser over bytes: no trailing commas, comments, single quotes, unescaped
/// control characters, invalid UTF-8 or lone surrogates.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The bytes of the string being read once it has an escape; kept between strings to spare allocations.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count { throw failure(.unexpectedByte(bytes[index])) }
        return value
    }

    private func failure(_ reason: JSONParseError.Reason, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(reason: reason, offset: offset ?? index)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, not consumed.
    private mutating func peekSignificant() throws(JSONParseError) -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw failure(.unexpectedEnd) }
        return bytes[index]
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        switch try peekSignificant() {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case let byte: throw failure(.unexpectedByte(byte))
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count else { throw failure(.unexpectedEnd) }
            guard bytes[index] == byte else { throw failure(.unexpectedByte(bytes[index])) }
            index += 1
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw failure(.tooDeep) }
        index += 1
        var elements: [JSONValue] = []
        if try peekSignificant() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue(depth: depth))
            switch try peekSignificant() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            case let byte: throw failure(.unexpectedByte(byte))
            }
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw failure(.tooDeep) }
        index += 1
        var members: [JSONObject.Member] = []
        if try peekSignificant() == UInt8(ascii: "}") {
            index += 1
            return .object(JSONObject(members: members))
        }
        while true {
            let quote = try peekSignificant()
            guard quote == UInt8(ascii: "\"") else { throw failure(.unexpectedByte(quote)) }
            let key = try parseString()
            let colon = try peekSignificant()
            guard colon == UInt8(ascii: ":") else { throw failure(.unexpectedByte(colon)) }
            index += 1
            members.append(JSONObject.Member(key: key, value: try parseValue(depth: depth)))
            switch try peekSignificant() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(JSONObject(members: members))
            case let byte: throw failure(.unexpectedByte(byte))
            }
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw failure(.unexpectedEnd) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try digits()
        }
        return JSONNumber(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
    }

    /// One or more decimal digits.
    private mutating func digits() throws(JSONParseError) {
        let start = index
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        guard index > start else { throw failure(index < bytes.count ? .invalidNumber : .unexpectedEnd) }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let quote = index
        index += 1
        var runStart = index
        var escaped = false
        // The bytes of the string or'ed together: below 0x80, it is ASCII and needs no UTF-8 validation.
        var union: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            union |= byte
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                guard escaped else {
                    guard union < 0x80 || Self.isValidUTF8(run) else { throw failure(.invalidUTF8, at: quote) }
                    return String(decoding: run, as: UTF8.self)
                }
                scratch.append(contentsOf: run)
                let valid = union < 0x80 || scratch.withUnsafeBufferPointer { Self.isValidUTF8($0) }
                guard valid else { throw failure(.invalidUTF8, at: quote) }
                return String(decoding: scratch, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                if !escaped {
                    scratch.removeAll(keepingCapacity: true)
                    escaped = true
                }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                try parseEscape()
                runStart = index
            } else if byte < 0x20 {
                throw failure(.controlCharacterInString)
            } else {
                index += 1
            }
        }
        throw failure(.unexpectedEnd)
    }

    /// Reads the escape at `index` (a backslash) and appends what it stands for to `scratch`.
    private mutating func parseEscape() throws(JSONParseError) {
        let start = index
        index += 1
        guard index < bytes.count else { throw failure(.unexpectedEnd) }
        let letter = bytes[index]
        index += 1
        let plain: UInt8
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): plain = letter
        case UInt8(ascii: "b"): plain = 0x08
        case UInt8(ascii: "f"): plain = 0x0C
        case UInt8(ascii: "n"): plain = 0x0A
        case UInt8(ascii: "r"): plain = 0x0D
        case UInt8(ascii: "t"): plain = 0x09
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hexQuad())
            switch scalar {
            case 0xD800...0xDBFF:
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure(.loneSurrogate, at: start) }
                index += 2
                let low = UInt32(try hexQuad())
                guard (0xDC00...0xDFFF).contains(low) else { throw failure(.loneSurrogate, at: start) }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            case 0xDC00...0xDFFF: throw failure(.loneSurrogate, at: start)
            default: break
            }
            // Every value left is a Unicode scalar: surrogates were paired or rejected above.
            UTF8.encode(Unicode.Scalar(scalar)!) { scratch.append($0) }
            return
        default: throw failure(.invalidEscape, at: start)
        }
        scratch.append(plain)
    }

    /// Whether `bytes` are well-formed UTF-8 (RFC 3629): no stray continuation bytes, overlong forms, surrogates or
    /// scalars beyond U+10FFFF. The standard library's validating initializer is generic and costs more than the
    /// whole rest of the parse.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The number of continuation bytes, and the range the first of them must lie in.
            let count: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: count = 1
            case 0xE0:
                count = 2
                second = 0xA0...0xBF
            case 0xED:
                count = 2
                second = 0x80...0x9F
            case 0xE1...0xEF: count = 2
            case 0xF0:
                count = 3
                second = 0x90...0xBF
            case 0xF1...0xF3: count = 3
            case 0xF4:
                count = 3
                second = 0x80...0x8F
            default: return false
            }
            guard index + count < bytes.count, second.contains(bytes[index + 1]) else { return false }
            for offset in stride(from: 2, through: count, by: 1) where bytes[index + offset] & 0xC0 != 0x80 {
                return false
            }
            index += count + 1
        }
        return true
    }

    /// Four hexadecimal digits.
    private mutating func hexQuad() throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw failure(.unexpectedEnd) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure(.invalidEscape)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
