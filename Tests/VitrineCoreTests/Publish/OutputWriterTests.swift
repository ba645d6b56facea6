import Foundation
import Testing

@testable import VitrineCore

@Suite struct OutputWriterTests {
    @Test func leavesUnchangedFilesAlone() throws {
        let folder = try TemporaryFolder()
        let writer = OutputWriter(root: folder.url)
        #expect(try writer.write(Array("a".utf8), to: "items/1.html"))
        let file = folder.url.appendingPathComponent("items/1.html")
        let before = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.02)
        #expect(try !writer.write(Array("a".utf8), to: "items/1.html"))
        let after = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        #expect(before == after)
        #expect(try writer.write(Array("b".utf8), to: "items/1.html"))
    }

    @Test(arguments: ["../escape.html", "/etc/x", "a/../../b", "", "a//b", "./a"])
    func refusesPathsOutsideTheFolder(path: String) throws {
        let folder = try TemporaryFolder()
        #expect(throws: FileWriteError.self) { try OutputWriter(root: folder.url).write([1], to: path) }
    }
}
