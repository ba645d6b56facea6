import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics

@Suite struct NewFilesTests {
    func files(_ paths: [String]) -> [NewFiles.File] {
        paths.map { NewFiles.File(path: $0, bytes: Array("new \($0)".utf8)) }
    }

    /// Every file below `folder` by relative path (links as "-> destination"), and every folder with a slash.
    func listing(_ folder: URL) throws -> [String: String] {
        var entries: [String: String] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [:] }
        for case let relative as String in walker {
            let path = folder.appendingPathComponent(relative).path
            if let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
                entries[relative] = "-> \(destination)"
            } else if (try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType)
                == .typeDirectory
            {
                entries[relative + "/"] = ""
            } else {
                entries[relative] = try String(contentsOfFile: path, encoding: .utf8)
            }
        }
        return entries
    }

    @Test func writesEveryFileCreatingTheFolderAndTheFoldersOnTheWay() throws {
        let scratch = try TemporaryFolder()
        let root = scratch.url.appendingPathComponent("site/new")
        try NewFiles(folder: root.path, files: files(["vitrine.toml", ".github/workflows/gallery.yml"])).write()
        #expect(
            try listing(root) == [
                "vitrine.toml": "new vitrine.toml", ".github/": "", ".github/workflows/": "",
                ".github/workflows/gallery.yml": "new .github/workflows/gallery.yml",
            ])
    }

    @Test func anyTakenPathRefusesTheWholeSetBeforeTheFirstWrite() throws {
        let root = try TemporaryFolder()
        try AtomicFile.write(Array("mine".utf8), to: root.url.appendingPathComponent("b.css"))
        let set = NewFiles(folder: root.url.path, files: files(["a.xsl", "b.css", "c/d.js"]))
        #expect(throws: NewFilesError.exists(path: "\(root.url.path)/b.css", thing: .file)) { try set.write() }
        #expect(try listing(root.url) == ["b.css": "mine"])
        let error = try #require(throws: NewFilesError.self) { try set.write() }
        #expect(error.sentence.hasPrefix("Refusing to overwrite \(root.url.path)/b.css: "))
        #expect(error.kind == .cannotWrite)
    }

    @Test func neverWritesThroughALinkAtAPathOrOnTheWay() throws {
        let root = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(
            atPath: root.url.appendingPathComponent("grid.xsl").path,
            withDestinationPath: elsewhere.url.appendingPathComponent("grid.xsl").path)
        #expect(throws: NewFilesError.exists(path: "\(root.url.path)/grid.xsl", thing: .link)) {
            try NewFiles(folder: root.url.path, files: files(["grid.xsl"])).write()
        }
        try FileManager.default.removeItem(at: root.url.appendingPathComponent("grid.xsl"))
        try FileManager.default.createSymbolicLink(
            atPath: root.url.appendingPathComponent(".github").path, withDestinationPath: elsewhere.url.path)
        #expect(
            throws: NewFilesError.linkedFolder(
                path: "\(root.url.path)/.github/workflows/gallery.yml", folder: "\(root.url.path)/.github")
        ) {
            try NewFiles(folder: root.url.path, files: files(["vitrine.toml", ".github/workflows/gallery.yml"]))
                .write()
        }
        #expect(try listing(elsewhere.url) == [:])
        #expect(try listing(root.url) == [".github": "-> \(elsewhere.url.path)"])
    }

    @Test func neverWritesWhenTheFolderOrOneOnItsWayIsALink() throws {
        let scratch = try TemporaryFolder()
        let elsewhere = try TemporaryFolder()
        let manager = FileManager.default
        let linked = scratch.url.appendingPathComponent("linked").path
        let dangling = scratch.url.appendingPathComponent("dangling").path
        let middle = scratch.url.appendingPathComponent("real/middle").path
        try manager.createSymbolicLink(atPath: linked, withDestinationPath: elsewhere.url.path)
        try manager.createSymbolicLink(atPath: dangling, withDestinationPath: elsewhere.url.path + "/new")
        try manager.createDirectory(
            atPath: scratch.url.appendingPathComponent("real").path, withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: middle, withDestinationPath: elsewhere.url.path)
        for (folder, link) in [(linked, linked), (dangling, dangling), (middle + "/site", middle)] {
            #expect(throws: NewFilesError.linkOnTheWay(folder: folder, link: link)) {
                try NewFiles(folder: folder, files: files(["vitrine.toml"])).write()
            }
        }
        // A link put there after the check is not followed either: the folder is opened without following one.
        #expect(throws: FileWriteError.self) {
            try RootedFiles(root: linked, followingRootLink: false).create(Array("x".utf8), at: "vitrine.toml")
        }
        #expect(try listing(elsewhere.url) == [:])
    }

    @Test func theUsersOwnPlacesAndTheTopLevelFoldersMayBeReachedThroughLinks() throws {
        let scratch = try TemporaryFolder()
        let home = scratch.url.appendingPathComponent("home").path
        try FileManager.default.createSymbolicLink(atPath: home, withDestinationPath: scratch.url.path)
        #expect(NewFiles.firstLink(in: home + "/site", below: []) == home)
        #expect(NewFiles.firstLink(in: home + "/site", below: [home]) == nil)
        #expect(NewFiles.firstLink(in: home + "/home/site", below: [home]) == home + "/home")
        // Only root can put a link directly in `/` (on Debian, /bin -> usr/bin).
        #expect(NewFiles.firstLink(in: "/bin/no-such-folder", below: []) == nil)
    }

    @Test func aFolderThatIsAFileOrAFolderAtAPathIsRefused() throws {
        let root = try TemporaryFolder()
        let file = root.url.appendingPathComponent("theme")
        try AtomicFile.write(Array("mine".utf8), to: file)
        #expect(throws: NewFilesError.notAFolder(path: file.path)) {
            try NewFiles(folder: file.path, files: files(["a.xsl"])).write()
        }
        try FileManager.default.createDirectory(
            at: root.url.appendingPathComponent("other/a.xsl"), withIntermediateDirectories: true)
        #expect(throws: NewFilesError.exists(path: "\(root.url.path)/other/a.xsl", thing: .folder)) {
            try NewFiles(folder: root.url.appendingPathComponent("other").path, files: files(["a.xsl"])).write()
        }
    }

    @Test func aFailedWriteRemovesWhatTheSetWroteAndTheFoldersItMade() throws {
        let scratch = try TemporaryFolder()
        // A name longer than the file system takes passes the check (nothing is there) and fails the write.
        let tooLong = String(repeating: "x", count: 300)
        let set = NewFiles(
            folder: scratch.url.appendingPathComponent("new").path, files: files(["a/one.txt", "a/b/\(tooLong)"]))
        let error = try #require(throws: NewFilesError.self) { try set.write() }
        guard case .writeFailed = error else {
            Issue.record("\(error)")
            return
        }
        #expect(try listing(scratch.url) == [:])
    }

    @Test func createNeverReplacesWhatIsThereAndLeavesNoTemporaryFile() throws {
        let root = try TemporaryFolder()
        try AtomicFile.write(Array("mine".utf8), to: root.url.appendingPathComponent("taken.txt"))
        let rooted = RootedFiles(root: root.url.path)
        #expect(throws: FileWriteError.self) { try rooted.create(Array("new".utf8), at: "taken.txt") }
        let stamp = try rooted.create(Array("new".utf8), at: "free.txt", durable: true)
        #expect(rooted.stamp("free.txt") == stamp)
        #expect(try listing(root.url) == ["taken.txt": "mine", "free.txt": "new"])
    }
}
