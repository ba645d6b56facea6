import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics

/// A file written with no name until it is whole: it gets its name only when its bytes are all there, never through
/// a symbolic link, never over what a create must keep, and a write that fails leaves no file and no name behind.
@Suite struct UnnamedFileTests {
    /// The names in `folder`, hidden ones too.
    func names(in folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    func write(
        _ text: String, _ name: String, in folder: TemporaryFolder, keepingExisting: Bool = false
    ) throws -> FileStamp? {
        let descriptor = open(folder.url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(descriptor) }
        return try UnnamedFile.write(
            in: descriptor, name: name, durable: false, keepingExisting: keepingExisting, path: name
        ) { descriptor throws(FileWriteError) in
            do {
                try Array(text.utf8).withUnsafeBytes { try SystemCall.writeAll(descriptor, $0) }
            } catch {
                throw FileWriteError(path: name, reason: "\(error)")
            }
        }
    }

    /// The machines Vitrine is built and tested on (Linux, with `/proc`) make unnamed files: the tests below would
    /// otherwise test the fallback alone.
    @Test func thisMachineMakesUnnamedFiles() throws {
        #expect(UnnamedFile.canLink)
        let folder = try TemporaryFolder()
        #expect(try write("a", "a.html", in: folder) != nil)
    }

    @Test func aNewFileGetsItsNameWithItsBytesAndNoOtherNameIsLeft() throws {
        let folder = try TemporaryFolder()
        let stamp = try #require(try write("hello", "page.html", in: folder))
        #expect(try names(in: folder) == ["page.html"])
        #expect(try String(contentsOf: folder.url.appendingPathComponent("page.html"), encoding: .utf8) == "hello")
        #expect(FileStamp.of(folder.url.appendingPathComponent("page.html").path) == stamp)
    }

    @Test func aFileThereIsReplacedAndAKeptOneIsRefused() throws {
        let folder = try TemporaryFolder()
        _ = try write("old", "page.html", in: folder)
        _ = try write("new", "page.html", in: folder)
        #expect(try String(contentsOf: folder.url.appendingPathComponent("page.html"), encoding: .utf8) == "new")
        #expect(throws: FileWriteError.self) { try write("newer", "page.html", in: folder, keepingExisting: true) }
        #expect(try String(contentsOf: folder.url.appendingPathComponent("page.html"), encoding: .utf8) == "new")
        #expect(try names(in: folder) == ["page.html"])
    }

    @Test func aLinkAtTheNameIsReplacedNeverWrittenThroughAndKeptWhenAskedTo() throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        let secret = elsewhere.url.appendingPathComponent("secret.txt")
        try Data("secret".utf8).write(to: secret)
        let link = folder.url.appendingPathComponent("page.html")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: secret)
        #expect(throws: FileWriteError.self) { try write("mine", "page.html", in: folder, keepingExisting: true) }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != nil)
        _ = try write("mine", "page.html", in: folder)
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil)
        #expect(try String(contentsOf: link, encoding: .utf8) == "mine")
        #expect(try String(contentsOf: secret, encoding: .utf8) == "secret")
        #expect(try names(in: folder) == ["page.html"])
    }

    @Test func aWriteThatFailsLeavesNoFileAndNoName() throws {
        let folder = try TemporaryFolder()
        let descriptor = open(folder.url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(descriptor) }
        #expect(throws: FileWriteError.self) {
            try UnnamedFile.write(
                in: descriptor, name: "page.html", durable: true, keepingExisting: false, path: "page.html"
            ) { _ throws(FileWriteError) in throw FileWriteError(path: "page.html", reason: "the disk is full") }
        }
        #expect(try names(in: folder).isEmpty)
    }

    /// Replacing a file by path with a temporary folder (the cache's, which its sweeper looks in): the temporary
    /// name goes there, made when missing, and not beside the file, where no sweeper would find it after a kill.
    @Test func aReplacementByPathNamesItsTemporaryInTheTemporaryFolder() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("urls/ab/entry.json")
        let temporary = folder.url.appendingPathComponent("tmp")
        try AtomicFile.write(Array("{}".utf8), to: url, temporaryFolder: temporary)
        try AtomicFile.write(Array("{\"b\":2}".utf8), to: url, temporaryFolder: temporary)
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\"b\":2}")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)
    }

    /// `AtomicFile` takes the same way by path, in folders it has to create too.
    @Test func atomicWritesByPathLeaveNoTemporaryName() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("urls/ab/entry.json")
        try AtomicFile.write(Array("{}".utf8), to: url)
        try AtomicFile.write(Array("{\"a\":1}".utf8), to: url, durable: true)
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\"a\":1}")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("urls/ab").path)
                == ["entry.json"])
    }
}
