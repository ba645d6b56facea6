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
