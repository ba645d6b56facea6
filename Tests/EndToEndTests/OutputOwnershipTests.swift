import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrinePublish
@testable import VitrineRender

/// The output folder holds files Vitrine did not write: it refuses them unless forced, never replaces them, and
/// removes only its own.
@Suite struct OutputOwnershipTests: BuildsAgainstFaults {
    @Test func aFolderWithSomeoneElsesFilesIsRefusedUnlessForced() async throws {
        let scenario = try await Scenario([])
        try await stopping(scenario) {
            try FileManager.default.createDirectory(
                atPath: scenario.workspace.path("out"), withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: URL(fileURLWithPath: scenario.workspace.path("out/notes.txt")))
            let refused = try await scenario.build()
            #expect(refused.status == 73)
            #expect(refused.stderr.contains("notes.txt") && refused.stderr.contains("--force"))
            #expect(scenario.server.requests().isEmpty)
            #expect(try await scenario.build(["--force"]).status == 0)
            #expect(try String(contentsOfFile: scenario.workspace.path("out/notes.txt"), encoding: .utf8) == "mine")
        }
    }

    @Test func forceNeverReplacesAFileVitrineDidNotWrite() async throws {
        let scenario = try await Scenario([])
        try await stopping(scenario) {
            let out = scenario.workspace.path("out")
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let own = [
                "index.html": "<p>my own home page</p>\n", "gallery.xml": "<mine/>\n", "notes.txt": "mine",
            ]
            for (name, text) in own { try Data(text.utf8).write(to: URL(fileURLWithPath: "\(out)/\(name)")) }
            let refused = try await scenario.build(["--force"])
            #expect(refused.status == 73)
            #expect(
                refused.stderr.contains("gallery.xml") && refused.stderr.contains("index.html")
                    && !refused.stderr.contains("--force to"), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
            for (name, text) in own {
                #expect(FileManager.default.contents(atPath: "\(out)/\(name)") == Data(text.utf8), "\(name)")
            }
            #expect(
                try Set(FileManager.default.contentsOfDirectory(atPath: out)) == Set(own.keys),
                "nothing is written beside them")
        }
    }

    @Test func filesOfDroppedItemsGoButOnlyThoseVitrineWrote() async throws {
        let scenario = try await Scenario([])
        try await stopping(scenario) {
            #expect(try await scenario.build(["--pages", "2"]).status == 0)
            let before = try scenario.workspace.tree("out").keys.filter { $0.hasPrefix("items/") }.count
            try Data("mine".utf8).write(to: URL(fileURLWithPath: scenario.workspace.path("out/items/mine.html")))
            let outcome = try await scenario.build(["--pages", "1"])
            #expect(outcome.status == 0)
            #expect(outcome.stderr.contains("old files removed"))
            #expect(!FileManager.default.fileExists(atPath: scenario.workspace.path("out/page-2.html")))
            let after = try scenario.workspace.tree("out").keys.filter { $0.hasPrefix("items/") }
            #expect(after.count == before / 2 + 1)
            #expect(after.contains("items/mine.html"))
            try expectCompleteGallery(scenario)
        }
    }
}
