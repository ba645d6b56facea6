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
        guard text.utf8.count == 20, text.utf8.last == UInt8(ascii: "Z") else { return nil }
        return date(iso8601: text)
    }

    /// The instant an RFC 3339 time names, with any offset and fraction (`2026-11-21T14:00:00Z`,
    /// `2026-11-21T15:00:00.25+01:00`), or nil when the text is not one or names no time that exists: a day past its
    /// month's end (`2026-02-30`), hour 24, minute or second 60, an offset past 23:59, year 0000. Foundation's parsers
    /// roll such fields over into a real time (`2026-02-30` becomes 2 March) instead of refusing them.
    package static func date(iso8601 text: String) -> Date? {
        var reader = DigitReader(bytes: Array(text.utf8))
        guard let year = reader.number(digits: 4), reader.skip("-"), let month = reader.number(digits: 2),
            reader.skip("-"), let day = reader.number(digits: 2), reader.skip("T") || reader.skip("t"),
            let hour = reader.number(digits: 2), reader.skip(":"), let minute = reader.number(digits: 2),
            reader.skip(":"), let second = reader.number(digits: 2)
        else { return nil }
        guard (1...9999).contains(year), (1...12).contains(month), (1...daysIn(month: month, of: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            let start = reader.position
            var scale = 0.1
            while let digit = reader.digit() {
                fraction += Double(digit) * scale
                scale /= 10
            }
            guard reader.position > start else { return nil }
        }
        let offset: Int
        if reader.skip("Z") || reader.skip("z") {
            offset = 0
        } else if let sign = reader.skip("+") ? 1 : reader.skip("-") ? -1 : nil,
            let offsetHour = reader.number(digits: 2),
            reader.skip(":"), let offsetMinute = reader.number(digits: 2), offsetHour < 24, offsetMinute < 60
        {
            offset = sign * (offsetHour * 3600 + offsetMinute * 60)
        } else {
            return nil
        }
        guard reader.atEnd else { return nil }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
    }

    private static func daysIn(month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Reads ASCII digits and separators from the front of a time's bytes.
    private struct DigitReader {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int? {
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else {
                return nil
            }
            defer { position += 1 }
            return Int(bytes[position] - UInt8(ascii: "0"))
        }

        mutating func number(digits: Int) -> Int? {
            var value = 0
            for _ in 0..<digits {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
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
