import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics

/// Files staged ahead of time have no name anywhere until they are placed: placing one gives it its name with its
/// bytes, at most once, never through a link, and a stage dropped or a file never placed leaves nothing behind.
@Suite struct StagedFilesTests {
    func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aStagedFileHasNoNameUntilPlacedAndThenHoldsItsBytes() throws {
        let folder = try TemporaryFolder()
        let staged = StagedFiles(folder: folder.url.path, capacity: 10)
        #expect(staged.stage(Array("picture".utf8), as: "key"))
        #expect(try names(in: folder.url).isEmpty)
        let files = RootedFiles(root: folder.url.path)
        let stamp = try #require(try files.place("key", from: staged, at: "images/a.jpg"))
        let path = folder.url.appendingPathComponent("images/a.jpg")
        #expect(try String(contentsOf: path, encoding: .utf8) == "picture")
        #expect(FileStamp.of(path.path) == stamp)
        #expect(try names(in: folder.url) == ["images"])
        #expect(staged.count == 0)
        // Placed once: the key holds nothing more, and the caller writes the file its own way.
        #expect(try files.place("key", from: staged, at: "images/b.jpg") == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("images/b.jpg").path))
    }

    @Test func filesNeverPlacedLeaveNothingWhenTheStageIsDropped() throws {
        let folder = try TemporaryFolder()
        var staged: StagedFiles? = StagedFiles(folder: folder.url.path, capacity: 100)
        for number in 0..<50 { #expect(staged!.stage(Array(repeating: UInt8(number), count: 4096), as: "\(number)")) }
        #expect(try names(in: folder.url).isEmpty)
        // Each is a file of its own with no name (no link to it anywhere), held by its descriptor alone.
        let held = staged!.heldDescriptors.map { descriptor -> (Int32, ino_t) in
            var status = stat()
            #expect(fstat(descriptor, &status) == 0)
            #expect(status.st_nlink == 0)
            #expect(status.st_size == 4096)
            return (descriptor, status.st_ino)
        }
        #expect(Set(held.map(\.1)).count == 50)
        staged = nil
        // Closed: no descriptor holds them any more (one may have been reused by another test, for another file),
        // so the kernel has freed them.
        for (descriptor, inode) in held {
            var status = stat()
            #expect(fstat(descriptor, &status) != 0 || status.st_ino != inode || status.st_nlink > 0)
        }
        #expect(try names(in: folder.url).isEmpty)
    }

    @Test func noMoreThanItsCapacityAndOneFileAKeyAreStaged() throws {
        let folder = try TemporaryFolder()
        let staged = StagedFiles(folder: folder.url.path, capacity: 3)
        #expect(staged.stage([1], as: "a"))
        #expect(!staged.stage([2], as: "a"))
        #expect(staged.stage([3], as: "b"))
        #expect(staged.stage([4], as: "c"))
        #expect(!staged.stage([5], as: "d"))
        #expect(staged.count == 3)
        let files = RootedFiles(root: folder.url.path)
        _ = try files.place("a", from: staged, at: "a")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("a"), encoding: .utf8) == "\u{1}")
        // A placed file makes room for another.
        #expect(staged.stage([5], as: "d"))
    }

    @Test func aFolderThatIsNoFolderStagesNothing() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let staged = StagedFiles(folder: file.path, capacity: 3)
        #expect(!staged.stage([1], as: "a"))
        #expect(staged.count == 0)
    }

    @Test func aPlacedFileReplacesWhatIsThereButNeverGoesThroughALink() throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        let staged = StagedFiles(folder: folder.url.path, capacity: 10)
        let files = RootedFiles(root: folder.url.path)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data("old".utf8).write(to: folder.url.appendingPathComponent("images/a.jpg"))
        staged.stage(Array("new".utf8), as: "a")
        _ = try files.place("a", from: staged, at: "images/a.jpg")
        #expect(
            try String(contentsOf: folder.url.appendingPathComponent("images/a.jpg"), encoding: .utf8) == "new")
        #expect(try names(in: folder.url.appendingPathComponent("images")) == ["a.jpg"])

        // A folder on the way that is a link: refused as a write there is, and nothing lands where it points.
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("linked"), withDestinationURL: elsewhere.url)
        staged.stage(Array("secret".utf8), as: "b")
        #expect(throws: FileWriteError.self) { try files.place("b", from: staged, at: "linked/b.jpg") }
        #expect(try names(in: elsewhere.url).isEmpty)
        #expect(staged.count == 0)
    }
}
