import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics

@Suite struct AtomicFileTests {
    @Test func writesReplacesAndLeavesNoTemporaryFiles() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("a/b/page.html")
        try AtomicFile.write(Array("one".utf8), to: file)
        try AtomicFile.write(Array("two".utf8), to: file)
        #expect(try String(contentsOf: file, encoding: .utf8) == "two")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path) == ["page.html"])
    }

    @Test func createsMissingFoldersOnlyWhenNeededAndCanSkipTheFlush() throws {
        let folder = try TemporaryFolder()
        let scratch = folder.url.appendingPathComponent("cache/tmp")
        for index in 0..<3 {
            let file = folder.url.appendingPathComponent("cache/images/a\(index)/\(index).jpg")
            try AtomicFile.write([UInt8(index)], to: file, temporaryFolder: scratch, durable: index % 2 == 0)
            #expect(try Data(contentsOf: file) == Data([UInt8(index)]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == [])
    }

    @Test func reportsAFolderThatCannotBeCreated() throws {
        let folder = try TemporaryFolder()
        let blocker = folder.url.appendingPathComponent("file")
        try AtomicFile.write(Array("x".utf8), to: blocker)
        #expect(throws: FileWriteError.self) {
            try AtomicFile.write(Array("y".utf8), to: blocker.appendingPathComponent("inside.html"))
        }
    }
}
