import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics

/// The files a build's state lists: kept without a string per file, read back as the paths they were, and checked
/// against the folder with a `stat` each, never through a link below the root.
@Suite struct StampedFilesTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func put(_ text: String, _ path: String) throws -> StampedFiles.File {
        try AtomicFile.write(Array(text.utf8), to: folder.url.appendingPathComponent(path))
        return .init(path: path, stamp: try #require(FileStamp.of(folder.url.appendingPathComponent(path).path)))
    }

    /// Files at the root, in folders deep, in a folder met again after another, with names in other scripts.
    func someFiles() throws -> [StampedFiles.File] {
        try [
            put("grid", "index.html"), put("a", "images/a-640.jpg"), put("b", "images/deep/b.jpg"),
            put("c", "images/c-320.webp"), put("d", "Straße/ü 1.html"), put("e", "z.html"),
        ]
    }

    @Test func givesBackThePathsAndStampsItWasGivenInTheirOrder() throws {
        let files = try someFiles()
        let stamped = StampedFiles(files)
        #expect(Array(stamped) == files)
        #expect(stamped.count == 6 && stamped[4].path == "Straße/ü 1.html")
        #expect(StampedFiles(files) == stamped)
        #expect(StampedFiles(files.reversed()) != stamped)
        #expect(StampedFiles(files.dropLast()) != stamped)
    }

    @Test func holdsWhileNothingChanged() async throws {
        #expect(await StampedFiles(try someFiles()).allCurrent(under: folder.url.path))
        #expect(await StampedFiles().allCurrent(under: folder.url.path))
    }

    @Test(arguments: ["removed", "replaced with the same size", "touched", "its folder removed"])
    func anyFileChangedIsADifference(change: String) async throws {
        let stamped = StampedFiles(try someFiles())
        let file = folder.url.appendingPathComponent("images/c-320.webp")
        switch change {
        case "removed": try FileManager.default.removeItem(at: file)
        case "replaced with the same size": _ = try put("C", "images/c-320.webp")
        case "touched":
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: 1)], ofItemAtPath: file.path)
        default: try FileManager.default.removeItem(at: folder.url.appendingPathComponent("images"))
        }
        #expect(await !stamped.allCurrent(under: folder.url.path))
    }

    /// A folder swapped for a link to the very same files is a difference: nothing below the root is followed.
    @Test func aFolderReplacedByALinkToItIsADifference() async throws {
        let stamped = StampedFiles(try someFiles())
        let images = folder.url.appendingPathComponent("images")
        let moved = folder.url.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: images, to: moved)
        try FileManager.default.createSymbolicLink(at: images, withDestinationURL: moved)
        #expect(await !stamped.allCurrent(under: folder.url.path))
    }

    /// Paths no file can have, as a damaged record might hold them, are differences, never a file found by a
    /// shorter name.
    @Test(arguments: ["index.html\0.jpg", "images/" + String(repeating: "n", count: Int(NAME_MAX) + 1), "images/", ""])
    func aNameNoFileCanHaveIsADifference(path: String) async throws {
        var stamped = StampedFiles(try someFiles())
        stamped.append(.init(path: path, stamp: stamped[0].stamp))
        #expect(await !stamped.allCurrent(under: folder.url.path))
    }

    /// Thousands of files are checked over the processor's cores; a difference in any part is found.
    @Test(arguments: [0, 1_499, 2_999])
    func aDifferenceAnywhereInThousandsIsFound(changed: Int) async throws {
        var files: [StampedFiles.File] = []
        for index in 0..<3_000 { files.append(try put("\(index)", "p/\(index % 7)/\(index).html")) }
        let stamped = StampedFiles(files)
        #expect(await stamped.allCurrent(under: folder.url.path))
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent(files[changed].path))
        #expect(await !stamped.allCurrent(under: folder.url.path))
    }
}
