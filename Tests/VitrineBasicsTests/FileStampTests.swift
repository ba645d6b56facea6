import Testing

@testable import VitrineBasics

/// A stamp is written in a state file as three numbers (`fields`) and read back from them, and from nothing else.
@Suite struct FileStampTests {
    func parts(_ text: String) -> ArraySlice<ArraySlice<UInt8>> {
        // Slices of a longer line, as a state file's reader hands them over: their indices do not start at 0.
        let line = Array(("path " + text).utf8)
        return line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false).dropFirst()
    }

    @Test func theFieldsWrittenAreReadBack() {
        let stamp = FileStamp(size: 1_234, modified: 1_764_201_600_123_456_789, inode: 98_765)
        #expect(FileStamp(fields: parts(stamp.fields)) == stamp)
        #expect(FileStamp(fields: parts("0 0 0")) == FileStamp(size: 0, modified: 0, inode: 0))
    }

    @Test(arguments: ["1 2", "1 2 3 4", "1 x 3", "1 2 -3", " 1 2", "1  2", "1 2 99999999999999999999", ""])
    func anythingElseIsNoStamp(text: String) {
        #expect(FileStamp(fields: parts(text)) == nil)
    }
}
