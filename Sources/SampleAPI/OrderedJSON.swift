import Foundation

/// A JSON value whose objects keep their keys in the order written, so responses can follow a provider's key order
/// and number types exactly (`JSONEncoder` orders keys by hash or alphabetically and has no mixed-type values).
indirect enum OrderedJSON: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    /// Written in Swift's shortest round-trip form, which always has a fraction or exponent (`1.0`, `1.501`).
    case double(Double)
    case string(String)
    case array([OrderedJSON])
    case object([(String, OrderedJSON)])

    /// `value` as a JSON number, or as a JSON string of its digits when `asString`.
    static func number(_ value: Int, asString: Bool) -> OrderedJSON {
        asString ? .string(String(value)) : .int(value)
    }

    /// The compact serialisation: no whitespace, `/` unescaped, non-ASCII as UTF-8.
    var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// The compact serialisation as UTF-8 bytes.
    var data: Data {
        Data(serialized.utf8)
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value): output += value.isFinite ? value.description : "null"
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let elements):
            output += "["
            for (position, element) in elements.enumerated() {
                if position > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (position, (key, value)) in members.enumerated() {
                if position > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                value.write(to: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}

/// Calendar arithmetic in UTC without `DateFormatter`: deterministic, allocation-light and thread-safe.
enum CivilTime {
    /// The civil date of `unixSeconds` in UTC (days-to-civil after Howard Hinnant's algorithm).
    static func components(
        _ unixSeconds: Int
    ) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let secondOfDay = unixSeconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// `2024-05-01`.
    static func date(_ unixSeconds: Int) -> String {
        let parts = components(unixSeconds)
        return [(parts.year, 4), (parts.month, 2), (parts.day, 2)]
            .map { Digits.decimal($0, width: $1) }
            .joined(separator: "-")
    }

    /// `2024-05-01 13:22:11`, the form of Flickr's `datetaken`; `2024-05-01T13:22:11` with separator `T`.
    static func dateTime(_ unixSeconds: Int, separator: String = " ") -> String {
        let parts = components(unixSeconds)
        let time = [parts.hour, parts.minute, parts.second].map { Digits.decimal($0, width: 2) }
        return date(unixSeconds) + separator + time.joined(separator: ":")
    }

    /// `2024-05-01T13:22:11Z`.
    static func iso8601(_ unixSeconds: Int) -> String {
        dateTime(unixSeconds, separator: "T") + "Z"
    }
}

/// Fixed-width digit strings for identifiers and dates.
enum Digits {
    /// `value` in decimal with leading zeros up to `width` digits.
    static func decimal(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }

    /// The lowest `count` hex digits of `value`, lowercase, with leading zeros.
    static func hex(_ value: UInt64, width count: Int) -> String {
        let digits = String(value, radix: 16)
        let padded = String(repeating: "0", count: max(count - digits.count, 0)) + digits
        return String(padded.suffix(count))
    }
}
