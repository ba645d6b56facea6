import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics

@Suite struct FolderWalkTests {
    @Test func findsHiddenFilesAtEveryDepthButNotThroughLinks() throws {
        let folder = try TemporaryFolder()
        let manager = FileManager.default
        for path in [".top", "plain.html", "a/.one", "a/b/.two", "a/b/plain", ".hidden-folder/.three", "a/.skip-me"] {
            let url = folder.url.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        let outside = try TemporaryFolder()
        try Data("x".utf8).write(to: outside.url.appendingPathComponent(".outside"))
        try manager.createSymbolicLink(at: folder.url.appendingPathComponent("link"), withDestinationURL: outside.url)

        let found = FolderWalk.hiddenFiles(under: folder.url.path) { $0 != ".skip-me" }
        #expect(found.sorted() == [".hidden-folder/.three", ".top", "a/.one", "a/b/.two"])
        #expect(FolderWalk.hiddenFiles(under: folder.url.appendingPathComponent("missing").path) { _ in true } == [])
    }
}
