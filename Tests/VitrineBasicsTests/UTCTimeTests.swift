import Foundation
import Testing

@testable import VitrineBasics

/// Times as files and pages write them: RFC 3339 in UTC, read back, and spoken as people read them.
@Suite struct UTCTimeTests {
    @Test func rfc3339IsWrittenToTheSecondAndReadBack() throws {
        let date = Date(timeIntervalSince1970: 1_790_000_000.75)
        #expect(UTCTime.rfc3339(date) == "2026-09-21T14:13:20Z")
        #expect(UTCTime.date(rfc3339: "2026-09-21T14:13:20Z") == Date(timeIntervalSince1970: 1_790_000_000))
        #expect(UTCTime.date(rfc3339: "2026-09-21T14:13:20+00:00") == nil)
        #expect(UTCTime.date(rfc3339: "yesterday") == nil)
    }

    @Test func iso8601TimesWithOffsetsAndFractionsAreRead() {
        let instant = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(UTCTime.date(iso8601: "2026-09-21T14:13:20Z") == instant)
        #expect(UTCTime.date(iso8601: "2026-09-21t14:13:20z") == instant)
        #expect(UTCTime.date(iso8601: "2026-09-21T16:13:20+02:00") == instant)
        #expect(UTCTime.date(iso8601: "2026-09-21T02:43:20-11:30") == instant)
        #expect(UTCTime.date(iso8601: "2026-09-21T14:13:20.25Z") == instant.addingTimeInterval(0.25))
        #expect(UTCTime.date(iso8601: "2024-02-29T00:00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(UTCTime.date(iso8601: "1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(UTCTime.date(iso8601: "9999-12-31T23:59:59Z") == Date(timeIntervalSince1970: 253_402_300_799))
        #expect(UTCTime.date(iso8601: "0001-01-01T00:00:00Z") == Date(timeIntervalSince1970: -62_135_596_800))
    }

    /// Every day of 1969 to 2101 is read as the formatter reads it, so the arithmetic is the calendar's.
    @Test func everyDayIsTheFormattersDay() {
        var day = Date(timeIntervalSince1970: -86_400 * 365)
        while day.timeIntervalSince1970 < 4_133_980_800 {
            let text = UTCTime.rfc3339(day)
            #expect(UTCTime.date(iso8601: text) == day, "\(text)")
            day = day.addingTimeInterval(3 * 86_400 + 3_601)
        }
    }

    @Test(arguments: [
        "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-00-10T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z",
        "2026-01-01T23:60:00Z", "2026-01-01T23:59:60Z", "2026-01-01T00:00:00+25:00", "2026-01-01T00:00:00+01:60",
        "0000-01-01T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01 00:00:00Z", "2026-01-01T00:00:00.Z",
        "2026-1-01T00:00:00Z", "+2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z ", "2026-01-01T00:00:00+0100",
        "yesterday", "",
    ])
    func impossibleOrMalformedTimesAreRefused(text: String) {
        #expect(UTCTime.date(iso8601: text) == nil)
        #expect(UTCTime.date(rfc3339: text) == nil)
    }

    @Test func theSpokenTimeIsTheFormattersOwn() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let date = Date(timeIntervalSince1970: Double(Int.random(in: 0..<4_102_444_800, using: &generator)))
            #expect(
                UTCTime.spoken(rfc3339: UTCTime.rfc3339(date))
                    == UTCTime.string(date, format: "d MMMM yyyy, HH:mm 'UTC'"))
        }
    }

    @Test(arguments: ["", "2026-13-01T00:00:00Z", "2026-09-21 14:13:20Z", "2026-09-21T14:13:20", "<b>x</b>"])
    func textThatIsNotATimeIsShownAsItIs(text: String) {
        #expect(UTCTime.spoken(rfc3339: text) == text)
    }
}
