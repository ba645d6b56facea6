import Foundation
import VitrineBasics

/// Reads an API's answer into `Decodable` types with one shared `JSONDecoder`.
enum APIAnswer {
    private static let decoder = JSONDecoder()

    /// The answer `body` as an `Answer`, or what is wrong with it in words.
    static func decode<Answer: Decodable>(_ type: Answer.Type, from body: [UInt8]) throws(DecodingProblem) -> Answer {
        do {
            return try decoder.decode(type, from: Data(body))
        } catch {
            throw DecodingProblem(error, in: body)
        }
    }
}

extension SourceError {
    /// The error for an answer that does not have the shape its decoder needs; `document` names it in the sentence
    /// ("the answer to “Hamburg” page 2").
    static func unreadable(_ problem: DecodingProblem, source: String, document: String) -> SourceError {
        .badData(source: source, detail: problem.sentence(about: document))
    }
}

/// A text field as real APIs send it: a string, or a number given where text was expected (its decimal digits
/// when it is a whole number that fits 64 bits, otherwise the nearest `Double`'s text); nil for anything else
/// (null, booleans, lists, objects). A value of another kind costs the field, not the answer; a string that is not
/// valid (bad UTF-8, a lone surrogate, an unknown escape) fails the answer, as invalid JSON.
struct LooseString: Decodable, Sendable {
    let value: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = try container.textIfString() ?? Self.numberText(container)
    }

    /// The text of a number; nil for anything else.
    fileprivate static func numberText(_ container: any SingleValueDecodingContainer) -> String? {
        if container.decodeNil() { return nil }
        if let whole = try? container.decode(Int64.self) { return String(whole) }
        if let whole = try? container.decode(UInt64.self) { return String(whole) }
        guard let number = try? container.decode(Double.self), number.isFinite else { return nil }
        return number.description
    }
}

/// ``LooseString`` for a field that is nearly always a number (Pixabay's `id`): the number is tried first, which
/// spares a failed attempt at text on every record.
struct LooseNumericString: Decodable, Sendable {
    let value: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        value = try LooseString.numberText(container) ?? container.textIfString()
    }
}

/// A whole-number field as real APIs send it: a number (one with a fraction is cut to its whole part), or a string
/// of digits (`"640"`, blanks around it allowed); nil for anything else, and for numbers of 10^15 or more, which
/// are no count or size. Booleans are never numbers.
struct LooseInt: Decodable, Sendable {
    let value: Int?

    static let limit = 1_000_000_000_000_000

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let whole = try? container.decode(Int.self) {
            value = whole.magnitude < Self.limit.magnitude ? whole : nil
        } else if container.decodeNil() {
            value = nil
        } else if let text = try container.textIfString() {
            value = Int(text.trimmingCharacters(in: .whitespaces))
        } else if let number = try? container.decode(Double.self), number.isFinite, abs(number) < Double(Self.limit) {
            value = Int(number)
        } else {
            value = nil
        }
    }

    /// A positive pixel size, or nil for anything else (zero, negative, absurd).
    var dimension: Int? {
        guard let value, value > 0, value <= 100_000 else { return nil }
        return value
    }
}

/// A yes-or-no field as real APIs send it: a boolean, the numbers 1 and 0, or those words and digits as text
/// (Pixabay has sent `isLowQuality` as both 0 and false); nil for anything else.
struct LooseBool: Decodable, Sendable {
    let value: Bool?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            value = flag
        } else if let number = try? container.decode(Int.self) {
            value = number == 1 ? true : number == 0 ? false : nil
        } else if let text = try? container.decode(String.self) {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "1": value = true
            case "false", "0": value = false
            default: value = nil
            }
        } else {
            value = nil
        }
    }
}

/// A fractional-number field: a finite number; strings and booleans are not read as numbers, and a number beyond
/// `Double`'s range reads as nil.
struct LooseDouble: Decodable, Sendable {
    let value: Double?

    init(from decoder: any Decoder) throws {
        let number = try? decoder.singleValueContainer().decode(Double.self)
        value = number.flatMap { $0.isFinite ? $0 : nil }
    }
}

/// A part of an answer that may come in another shape than the one expected (an object that is a string, a list
/// that is null): read when it can be, nil otherwise, without failing what holds it. A list of `Tolerant` elements
/// keeps its length, so that a skipped element can be named by its position. Text that is not valid inside it
/// still fails the answer.
struct Tolerant<Value: Decodable>: Decodable {
    let value: Value?

    init(_ value: Value?) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        do {
            value = try Value(from: decoder)
        } catch is DecodingError {
            value = nil
        }
    }
}

extension Tolerant: Sendable where Value: Sendable {}

extension SingleValueDecodingContainer {
    /// The value when it is a string, nil when it is of another kind; a string that is not valid text (bad UTF-8, a
    /// lone surrogate, an unknown escape) throws, as `JSONDecoder` finds such faults only in the strings it reads.
    fileprivate func textIfString() throws -> String? {
        do {
            return try decode(String.self)
        } catch is DecodingError {
            return nil
        }
    }
}
