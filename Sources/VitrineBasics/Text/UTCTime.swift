import Foundation

/// Times as text in UTC, the same on every machine whatever its locale and time zone.
package enum UTCTime {
    private static let rfc3339Format = "yyyy-MM-dd'T'HH:mm:ss'Z'"
    /// The seconds since 1970 that RFC 3339 text can name, 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z: a later
    /// time has no four-digit year, so what is stamped with it cannot be read again, and its text no longer sorts
    /// with the others.
    package static let rfc3339Seconds: ClosedRange<Int64> = 0...253_402_300_799
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    package static func string(_ date: Date, format: String) -> String {
        formatter(format).string(from: date)
    }

    /// RFC 3339 in UTC, to the whole second (below a second, times read back from files may differ by rounding):
    /// `2026-11-25T06:00:00Z`.
    package static func rfc3339(_ date: Date) -> String {
        string(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)), format: rfc3339Format)
    }

    /// The instant `text` names, if it is RFC 3339 in UTC to the second, as ``rfc3339(_:)`` writes it.
    package static func date(rfc3339 text: String) -> Date? {
        guard text.utf8.count == 20 else { return nil }
        return formatter(rfc3339Format).date(from: text)
    }

    /// An RFC 3339 time as people read it: `25 November 2026, 06:00 UTC`; `text` itself when it is not one. Made from
    /// the text's own digits, without a formatter: pages show many of these, and every build writes them again.
    package static func spoken(rfc3339 text: String) -> String {
        let digits = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: digits[range], as: UTF8.self)) }
        guard digits.count == 20, digits[4] == UInt8(ascii: "-"), digits[10] == UInt8(ascii: "T"),
            digits[19] == UInt8(ascii: "Z"), let year = number(0..<4), let month = number(5..<7),
            let day = number(8..<10), (1...12).contains(month), number(11..<13) != nil, number(14..<16) != nil
        else { return text }
        let time = String(decoding: digits[11..<16], as: UTF8.self)
        return "\(day) \(months[month - 1]) \(year), \(time) UTC"
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
