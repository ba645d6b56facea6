import Foundation
import Testing

@testable import VitrineCore

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

    @Test func reportsAFolderThatCannotBeCreated() throws {
        let folder = try TemporaryFolder()
        let blocker = folder.url.appendingPathComponent("file")
        try AtomicFile.write(Array("x".utf8), to: blocker)
        #expect(throws: FileWriteError.self) {
            try AtomicFile.write(Array("y".utf8), to: blocker.appendingPathComponent("inside.html"))
        }
    }

    @Test func placesACopyThatSurvivesTheSource() throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("source.jpg")
        try AtomicFile.write([1, 2, 3], to: source)
        let placed = folder.url.appendingPathComponent("out/images/copy.jpg")
        try AtomicFile.place(copyOf: source, at: placed)
        try FileManager.default.removeItem(at: source)
        #expect(try Data(contentsOf: placed) == Data([1, 2, 3]))
    }
}

/// A folder under the system's temporary directory, removed when the value goes.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
