import Foundation
import SystemPackage
import Testing

@testable import VitrineBasics

@Suite struct SystemCallTests {
    @Test func anInterruptedCallIsMadeAgainAndAnyOtherFailureIsThrownTyped() throws {
        var calls = 0
        let result = try SystemCall.run { () -> Int32 in
            calls += 1
            guard calls == 3 else {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7 && calls == 3)
        #expect(throws: Errno.noSuchFileOrDirectory) {
            try SystemCall.run { () -> Int32 in
                errno = ENOENT
                return -1
            }
        }
    }

    @Test func writeAllAndReadFullyMoveEveryByteThroughAPipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (reading, writing) = (ends[0], ends[1])
        defer { SystemCall.close(reading) }
        let bytes = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let writer = Thread {
            bytes.withUnsafeBytes { try? SystemCall.writeAll(writing, $0) }
            SystemCall.close(writing)
        }
        writer.start()
        var read = [UInt8](repeating: 0, count: 60_000)
        let count = try read.withUnsafeMutableBytes { try SystemCall.readFully(reading, into: $0) }
        #expect(count == bytes.count)
        #expect(Array(read[..<count]) == bytes)
    }

    @Test func aFailedWriteSaysWhyInTheSystemsWords() {
        #expect(throws: Errno.badFileDescriptor) {
            try [UInt8](repeating: 1, count: 4).withUnsafeBytes { try SystemCall.writeAll(-1, $0) }
        }
        #expect(Errno.noSpace.description == "No space left on device")
    }
}
