import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics

@Suite struct RootedFilesTests {
    func put(_ text: String, _ path: String, in folder: TemporaryFolder) throws {
        try AtomicFile.write(Array(text.utf8), to: folder.url.appendingPathComponent(path))
    }

    func link(_ path: String, to target: URL, in folder: TemporaryFolder) throws {
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent(path), withDestinationURL: target)
    }

    @Test func tellsFilesLinksAndBlockedPathsApart() throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        try put("a", "items/a.html", in: folder)
        try put("secret", "b.html", in: elsewhere)
        try link("items/b.html", to: elsewhere.url.appendingPathComponent("b.html"), in: folder)
        try link("linked", to: elsewhere.url, in: folder)
        let files = RootedFiles(root: folder.url.path)
        guard case .file(let stamp) = files.entry("items/a.html") else {
            Issue.record("a regular file is a file")
            return
        }
        #expect(stamp.size == 1)
        #expect(files.entry("items/b.html") == .other)
        #expect(files.entry("linked/b.html") == .blocked("linked"))
        #expect(files.entry("items/missing.html") == .missing)
        #expect(files.contents("items/b.html", limit: 100) == nil)
        #expect(files.contents("linked/b.html", limit: 100) == nil)
    }

    /// A path is split at its last slash: a file at the root, folders deep, a name in other scripts, and a path
    /// made from a slice of a longer string.
    @Test func findsFilesAtTheRootAndInFoldersWhateverTheirNames() throws {
        let folder = try TemporaryFolder()
        let paths = ["index.html", "images/3a94.jpg", "items/deep/er/Straße 東京.html", "a/b"]
        for (number, path) in paths.enumerated() {
            try put(String(repeating: "x", count: number + 1), path, in: folder)
        }
        let files = RootedFiles(root: folder.url.path)
        for (number, path) in paths.enumerated() {
            #expect(files.stamp(path)?.size == Int64(number + 1), "\(path)")
        }
        let longer = "items/deep/er/Straße 東京.html and more"
        let slice = String(longer[..<longer.range(of: " and more")!.lowerBound])
        #expect(files.stamp(slice)?.size == 3)
        #expect(files.entry("items/deep") == .other)
        #expect(files.entry("items/deep/") == .missing)
        #expect(files.entry("nowhere/index.html") == .missing)
    }

    @Test func neverWritesOrRemovesThroughALink() throws {
        let folder = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        try put("secret", "b.html", in: elsewhere)
        try link("linked", to: elsewhere.url, in: folder)
        try link("leaf.html", to: elsewhere.url.appendingPathComponent("b.html"), in: folder)
        let files = RootedFiles(root: folder.url.path)
        #expect(throws: FileWriteError.self) { try files.write(Array("x".utf8), to: "linked/b.html") }
        #expect(!files.remove("linked/b.html"))
        #expect(!files.remove("leaf.html"), "a link is never removed as if it were a file")
        // Writing at a link's own path replaces the link, never the file it points to.
        try files.write(Array("mine".utf8), to: "leaf.html")
        #expect(try String(contentsOf: elsewhere.url.appendingPathComponent("b.html"), encoding: .utf8) == "secret")
        #expect(try String(contentsOf: folder.url.appendingPathComponent("leaf.html"), encoding: .utf8) == "mine")
    }

    @Test func aCopyIsCheckedAgainstItsDigestAndIndependentOfItsSource() throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("source.jpg")
        try AtomicFile.write([1, 2, 3], to: source)
        let files = RootedFiles(root: folder.url.appendingPathComponent("out").path)
        let descriptor = open(source.path, O_RDONLY)
        defer { close(descriptor) }
        let stamp = try files.copy(
            from: descriptor, sha256: SHA256Hasher.hex(of: [1, 2, 3] as [UInt8]), to: "images/c.jpg")
        #expect(stamp.size == 3)
        let copy = folder.url.appendingPathComponent("out/images/c.jpg")
        // An edit of the copy leaves the source as it was.
        try Data([9, 9, 9]).write(to: copy)
        #expect(try Data(contentsOf: source) == Data([1, 2, 3]))
        #expect {
            try files.copy(from: descriptor, sha256: SHA256Hasher.hex(of: [7] as [UInt8]), to: "images/d.jpg")
        } throws: { error in
            if case .sourceDamaged = error as? FileCopyError { return true }
            return false
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("out/images").path)
                == ["c.jpg"], "a copy that does not match is not put in place, and leaves no temporary file")
    }

    @Test func aSourceStillAsVerifiedIsCopiedByTheKernelAndAnyOtherIsHashed() throws {
        let folder = try TemporaryFolder()
        let source = folder.url.appendingPathComponent("source.jpg")
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try AtomicFile.write(bytes, to: source)
        let descriptor = open(source.path, O_RDONLY)
        defer { close(descriptor) }
        let stamp = try #require(FileStamp.of(descriptor: descriptor))
        let files = RootedFiles(root: folder.url.appendingPathComponent("out").path)
        try files.copy(from: descriptor, sha256: SHA256Hasher.hex(of: bytes), verified: stamp, to: "a.jpg")
        #expect(try [UInt8](Data(contentsOf: folder.url.appendingPathComponent("out/a.jpg"))) == bytes)
        // Once the file no longer has the stamp it was verified with, its bytes are checked on the way.
        var other = stamp
        other.modified += 1
        #expect(throws: FileCopyError.self) {
            try files.copy(from: descriptor, sha256: SHA256Hasher.hex(of: [1] as [UInt8]), verified: other, to: "b.jpg")
        }
    }
}
