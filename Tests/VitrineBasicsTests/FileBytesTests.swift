import Foundation
import SystemPackage
import Testing
import VitrineTestSupport

@testable import VitrineBasics

/// A file that cannot be read whole says why, with the `Errno` of the call that failed.
@Suite struct FileBytesTests {
    @Test func saysWhyAFileCannotBeRead() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("a.txt").path
        try AtomicFile.write(Array("hello".utf8), to: URL(fileURLWithPath: path))
        #expect(try FileBytes.read(atPath: path, limit: 5) == Array("hello".utf8))
        #expect(throws: FileReadError.tooLarge(limit: 4)) { try FileBytes.read(atPath: path, limit: 4) }
        #expect(throws: FileReadError.missing) { try FileBytes.read(atPath: path + ".gone", limit: 5) }
        #expect(throws: FileReadError.notRegularFile) { try FileBytes.read(atPath: folder.url.path, limit: 5) }
        #expect(throws: FileReadError.system(.notDirectory)) { try FileBytes.read(atPath: path + "/b", limit: 5) }

        let link = folder.url.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(try FileBytes.read(atPath: link, limit: 5) == Array("hello".utf8))
        #expect(throws: FileReadError.notRegularFile) {
            try FileBytes.read(atPath: link, limit: 5, followingLinks: false)
        }
    }

    /// A FIFO without a writer is refused at once, not waited on; where pipes are accepted, one is read to its end.
    @Test func aPipeIsReadOnlyWhereOneIsAccepted() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileReadError.notRegularFile) { try FileBytes.read(atPath: fifo, limit: 100) }
        #expect(try FileBytes.read(atPath: fifo, limit: 100, acceptingPipes: true) == [])

        let text = Array(String(repeating: "x", count: 50_000).utf8)
        #expect(try Self.readPipe(holding: text, limit: 50_000) == text)
        #expect(throws: FileReadError.tooLarge(limit: 49_999)) { try Self.readPipe(holding: text, limit: 49_999) }
    }

    /// Reads by its path a pipe that holds `bytes` (fewer than a pipe buffers) and whose writer has closed it.
    static func readPipe(holding bytes: [UInt8], limit: Int) throws -> [UInt8] {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        try bytes.withUnsafeBytes { try SystemCall.writeAll(ends[1], $0) }
        close(ends[1])
        return try FileBytes.read(atPath: "/proc/self/fd/\(ends[0])", limit: limit, acceptingPipes: true)
    }

    @Test func readsBelowARootWithoutFollowingALink() throws {
        let folder = try TemporaryFolder()
        try AtomicFile.write(Array("abc".utf8), to: folder.url.appendingPathComponent("items/a.txt"))
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("link"),
            withDestinationURL: folder.url.appendingPathComponent("items"))
        let files = RootedFiles(root: folder.url.path)
        #expect(try files.read("items/a.txt", limit: 3).bytes == Array("abc".utf8))
        #expect(throws: FileReadError.tooLarge(limit: 2)) { try files.read("items/a.txt", limit: 2) }
        #expect(throws: FileReadError.blocked("link")) { try files.read("link/a.txt", limit: 3) }
        #expect(throws: FileReadError.missing) { try files.read("items/b.txt", limit: 3) }
        #expect(throws: FileReadError.notRegularFile) { try files.read("items", limit: 3) }
    }
}
