import Foundation
import SampleAPI
import Testing
import VitrineTemplates

/// `vitrine theme export DIR`: the built-in theme written into a folder for editing, run by the real binary.
@Suite struct ThemeExportTests {
    static let key = "theme-key-19"
    /// Every build at one time, so that the feed's dates and the random photo do not depend on when it ran.
    static let environment = ["PIXABAY_API_KEY": key, "SOURCE_DATE_EPOCH": "1700000000"]

    /// What an export writes: every file of the built-in theme and the README for its author, by name.
    static var exportedFiles: [String: [UInt8]] {
        DefaultTheme.files.merging(["README.md": DefaultTheme.guide]) { $1 }
    }

    func export(_ folder: String, in workspace: Workspace) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(["theme", "export", workspace.path(folder)])
    }

    func build(_ extra: [String], out: String, in workspace: Workspace) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(
            [
                "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                workspace.path(out), "--json", "-q",
            ] + RandomPageTests.at(minutes: 0) + extra, environment: Self.environment)
    }

    /// The page counts of a `--json` build report.
    struct PageCounts: Decodable {
        var pagesRendered: Int
        var pagesWritten: Int
    }

    func pageCounts(_ outcome: VitrineProcess.Outcome) throws -> PageCounts {
        struct Report: Decodable { var summary: PageCounts }
        return try JSONDecoder().decode(Report.self, from: Data(outcome.stdout.utf8)).summary
    }

    @Test func anExportedThemeGivesTheBytesOfTheBuiltInOne() async throws {
        try await withSampleAPI(SampleAPIConfiguration(apiKey: Self.key)) { server, workspace in
            let outcome = try await export("my theme", in: workspace)
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            #expect(outcome.stderr.isEmpty)
            let written = try workspace.tree("my theme")
            #expect(written.keys.sorted() == Self.exportedFiles.keys.sorted())
            for (name, bytes) in Self.exportedFiles {
                #expect(written[name] == Data(bytes), "\(name) is not the built-in one")
                #expect(outcome.stdout.contains("Wrote \(workspace.path("my theme/\(name)"))\n"), "\(name)")
            }
            #expect(outcome.stdout.contains("vitrine build --templates '\(workspace.path("my theme"))'\n"))

            // A site with a page of every stylesheet: grid, preview, home, list, photo, random and favorites.
            let base = await server.baseURL
            let config = """
                title = "Themes"
                base-url = "https://example.org/themes/"
                \(await server.siteGalleries(pages: 1))
                [[gallery]]
                source = "albums"
                users = 1
                albums = 1
                endpoint = "\(base)"
                image-endpoint = "\(base)"

                [[gallery]]
                source = "random"
                every = "1h"
                endpoint = "\(await server.picsumEndpoint)"

                """
            try config.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
            let builtIn = try await build([], out: "built-in", in: workspace)
            #expect(builtIn.status == 0, "stderr: \(builtIn.stderr)")
            let themed = try await build(["--templates", workspace.path("my theme")], out: "themed", in: workspace)
            #expect(themed.status == 0, "stderr: \(themed.stderr)")
            let one = try workspace.tree("built-in")
            let other = try workspace.tree("themed")
            #expect(one.keys.sorted() == other.keys.sorted())
            for (path, bytes) in one where other[path] != bytes { Issue.record("\(path) differs") }
            #expect(one.keys.contains("albums/index.html") && one.keys.contains("random/favorites.html"))
            #expect(!other.keys.contains { $0.hasSuffix("README.md") }, "the README is no asset")

            // The exported folder is the built-in theme, its README included: switching to it renders nothing.
            let switched = try await build(
                ["--templates", workspace.path("my theme")], out: "built-in", in: workspace)
            #expect(switched.status == 0, "stderr: \(switched.stderr)")
            let counts = try pageCounts(switched)
            #expect(counts.pagesRendered == 0)
            #expect(counts.pagesWritten == 0)
            #expect(try workspace.tree("built-in") == one)
        }
    }

    @Test func anExistingFileIsNamedAndNothingIsWritten() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path("theme"), withIntermediateDirectories: true)
        try Data("my own styles".utf8).write(to: workspace.url.appendingPathComponent("theme/vitrine.css"))
        let outcome = try await export("theme", in: workspace)
        #expect(outcome.status == ExitStatus.cannotWrite.rawValue)
        #expect(
            outcome.stderr
                == "vitrine: Refusing to overwrite \(workspace.path("theme/vitrine.css")): Vitrine never replaces a "
                + "file it did not write, so it wrote nothing; move the file away or choose another folder.\n")
        #expect(outcome.stdout.isEmpty)
        #expect(try workspace.tree("theme") == ["vitrine.css": Data("my own styles".utf8)])
    }

    @Test func aSymbolicLinkAtATargetIsNeverWrittenThrough() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(
            atPath: workspace.path("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: workspace.path("theme"), withIntermediateDirectories: true)
        // A link to a file that is not there yet: writing through it would create the file elsewhere.
        try FileManager.default.createSymbolicLink(
            atPath: workspace.path("theme/grid.xsl"), withDestinationPath: workspace.path("elsewhere/grid.xsl"))
        let outcome = try await export("theme", in: workspace)
        #expect(outcome.status == ExitStatus.cannotWrite.rawValue)
        #expect(outcome.stderr.hasPrefix("vitrine: Refusing to write \(workspace.path("theme/grid.xsl")): it is a "))
        #expect(outcome.stderr.contains("symbolic link"))
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("elsewhere")) == [])
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path("theme")) == ["grid.xsl"])
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: workspace.path("theme/grid.xsl"))
                == workspace.path("elsewhere/grid.xsl"))
    }
}
