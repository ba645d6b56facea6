import Testing

@testable import VitrineBasics

/// Numbers of a state file's lines, read from their bytes: only plain digits that fit an `Int64`.
@Suite struct ASCIIDecimalTests {
    @Test(
        arguments: [
            ("0", 0), ("7", 7), ("1764201600123456789", 1_764_201_600_123_456_789), ("9223372036854775807", Int64.max),
        ] as [(String, Int64)])
    func readsWholeNumbers(text: String, value: Int64) {
        #expect(ASCIIDecimal.int64(ArraySlice(text.utf8)) == value)
    }

    @Test(arguments: ["", "-1", "+1", "1 ", " 1", "1.5", "x", "9223372036854775808", "00000000000000000001"])
    func anythingElseIsNoNumber(text: String) {
        #expect(ASCIIDecimal.int64(ArraySlice(text.utf8)) == nil)
    }

    /// Written numbers are the bytes of their string, for every size and sign, and a stamp's fields too.
    @Test func writesTheBytesOfTheNumbersString() {
        for value: Int64 in [0, 7, 10, 99, 100, 1_764_201_600_123_456_789, .max, .min, -1, -10] {
            var bytes = Array("x".utf8)
            ASCIIDecimal.append(value, to: &bytes)
            #expect(bytes == Array("x\(value)".utf8))
        }
        var unsigned: [UInt8] = []
        ASCIIDecimal.append(UInt64.max, to: &unsigned)
        #expect(unsigned == Array("\(UInt64.max)".utf8))
        let stamp = FileStamp(size: 12_345, modified: -5, inode: .max)
        var fields: [UInt8] = []
        stamp.appendFields(to: &fields)
        #expect(fields == Array(stamp.fields.utf8))
    }

    /// Within a line, the number ends at the first byte that is not a digit, where the reading stops.
    @Test func withinALineItStopsAtTheFirstOtherByte() {
        let line = Array("file 1234 56 x".utf8)
        line.withUnsafeBufferPointer { line in
            var index = 5
            #expect(ASCIIDecimal.int64(in: line, at: &index) == 1_234 && index == 9)
            index += 1
            #expect(ASCIIDecimal.int64(in: line, at: &index) == 56 && index == 12)
            index += 1
            #expect(ASCIIDecimal.int64(in: line, at: &index) == nil)
            index = line.count
            #expect(ASCIIDecimal.int64(in: line, at: &index) == nil)
        }
    }
}
