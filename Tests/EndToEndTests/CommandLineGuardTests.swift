import Foundation
import SampleAPI
import Testing

/// Values that used to pass the command line and config checks and then poisoned the output or failed late
/// (issue 24): each is refused up front with one sentence and exit 64, before any request or write.
@Suite struct CommandLineGuardTests {
    /// A site of one thumbnail gallery whose endpoint refuses connections at once, so that a value the checks let
    /// through ends in a network failure, never in exit 64.
    static func unreachableSite(_ extra: String = "", gallery: String = "") -> String {
        """
        title = "x"
        \(extra)
        [[gallery]]
        source = "thumbnails"
        endpoint = "http://127.0.0.1:9/list"
        \(gallery)
        """
    }

    func build(_ config: String, _ extra: [String] = [], environment: [String: String] = [:]) async throws
        -> (VitrineProcess.Outcome, Workspace)
    {
        let workspace = try Workspace()
        try config.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
        let outcome = try await VitrineProcess.run(
            [
                "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                workspace.path("site"), "--retries", "0",
            ] + extra, environment: environment)
        return (outcome, workspace)
    }

    /// Item 7: a time past 9999-12-31T23:59:59Z has no RFC 3339 form, and the history it stamped was refused by
    /// every later build.
    @Test(arguments: ["253402300800", "9223372036854775807", "-1", "1e10", "12abc", ""])
    func aSourceDateEpochOutsideYearsZeroToNineThousandNineHundredNinetyNineIsRefused(value: String) async throws {
        let (outcome, workspace) = try await build(
            Self.unreachableSite("history = true"), environment: ["SOURCE_DATE_EPOCH": value])
        #expect(outcome.status == ExitStatus.usage.rawValue, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("SOURCE_DATE_EPOCH"), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("253402300799"), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: workspace.path("site")))
    }

    /// Item 12: a user name and password in base-url were published in sitemap.xml and feed.xml.
    @Test(arguments: [
        "https://alice:s3cr3t-pw@example.org/photos/", "https://alice@example.org/", "https://:s3cr3t-pw@example.org/",
    ])
    func aBaseURLWithCredentialsIsRefusedWithoutEchoingThePassword(url: String) async throws {
        let (outcome, workspace) = try await build(Self.unreachableSite("base-url = \"\(url)\""))
        #expect(outcome.status == ExitStatus.usage.rawValue, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("line 2, key base-url"), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("user name or password"), "stderr: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("s3cr3t-pw"))
        #expect(!FileManager.default.fileExists(atPath: workspace.path("site")))
    }

    /// Item 13: gallery folders that clash with the site's own files, or with another gallery's, passed the config
    /// check and failed at write time with a sentence about symbolic links.
    @Test(arguments: [
        ("path = \"index.html\"", "", "line 6, key path of the 1st"),
        ("path = \"feed.xml\"", "", "line 6, key path"),
        ("path = \"sitemap.xml\"", "", "line 6, key path"),
        ("path = \"site.xml\"", "", "line 6, key path"),
        ("path = \"history.json\"", "", "line 6, key path"),
        ("path = \"changes.html\"", "", "line 6, key path"),
        ("path = \"changes-2.html\"", "", "line 6, key path"),
        ("path = \"a/page-2.html\"", "", "line 6, key path"),
        (
            "path = \"a\"", "[[gallery]]\nsource = \"thumbnails\"\npath = \"a/page-2.html\"",
            "line 9, key path of the 2nd"
        ),
        ("path = \"a\"", "[[gallery]]\nsource = \"thumbnails\"\npath = \"a/items\"", "line 9, key path of the 2nd"),
        ("path = \"a/b\"", "[[gallery]]\nsource = \"thumbnails\"\npath = \"a\"", "line 9, key path of the 2nd"),
        ("path = \"thumbnails/y\"", "[[gallery]]\nsource = \"thumbnails\"", "line 7, key path of the 2nd"),
    ])
    func aGalleryFolderThatClashesWithTheSitesFilesIsRefusedNamingTheLine(
        path: String, more: String, expected: String
    ) async throws {
        let (outcome, workspace) = try await build(Self.unreachableSite(gallery: path + "\n" + more))
        #expect(outcome.status == ExitStatus.usage.rawValue, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains(expected), "stderr: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("link"), "stderr: \(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("site")))
    }

    /// Item 15: `--cache ''` silently meant the current folder; every path option is checked the same way.
    @Test(arguments: [
        ["pixabay", "x", "--cache", ""], ["pixabay", "x", "--out", ""], ["pixabay", "x", "--templates", ""],
        ["pixabay", "x", "--history-from", ""], ["build", "--config", ""], ["build", "--merge", ""],
        ["serve", ""], ["init", ""], ["theme", "export", ""],
    ])
    func anEmptyPathIsRefused(arguments: [String]) async throws {
        let workspace = try Workspace()
        let running = try VitrineProcess.launch(
            arguments + ["--port", "0"].filter { _ in arguments[0] == "serve" }, in: workspace.url)
        // `serve ''` used to serve the current folder until stopped: a run still going after 300 s is killed.
        let outcome = try await running.wait(atMost: .seconds(300))
        #expect(outcome.status == ExitStatus.usage.rawValue, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("empty"), "stderr: \(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).isEmpty)
    }

    /// Item 19: a cache inside the output folder would be published with the site.
    @Test(arguments: [("site/cache", "site"), ("site/a/../cache", "site/")])
    func aCacheInsideTheOutputFolderIsRefused(cache: String, out: String) async throws {
        let workspace = try Workspace()
        let outcome = try await VitrineProcess.run(
            ["pixabay", "x", "--key", "k", "--endpoint", "http://127.0.0.1:9/", "--cache", cache, "--out", out],
            in: workspace.url)
        #expect(outcome.status == ExitStatus.usage.rawValue, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("--cache") && outcome.stderr.contains("--out"), "stderr: \(outcome.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.url.path).isEmpty)
    }
}

/// Item 15: `serve` and `sample-api` on a port that is taken said so in a raw library string, with exit 1.
@Suite struct PortInUseTests {
    @Test(arguments: ["serve", "sample-api"])
    func aPortInUseIsOneSentenceWithTheDocumentedStatus(command: String) async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("site"), withIntermediateDirectories: true)
        let (running, url) = try await VitrineProcess.serve(workspace.path("site"))
        defer { running.send(SIGKILL) }
        let port = try #require(url.split(separator: ":").last?.split(separator: "/").first.map(String.init))
        let outcome = try await VitrineProcess.run(
            [command] + (command == "serve" ? [workspace.path("site")] : []) + ["--port", port])
        #expect(outcome.status == ExitStatus.unavailable.rawValue, "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("port \(port) is in use"), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("--port"), "stderr: \(outcome.stderr)")
        #expect(outcome.stderr.split(separator: "\n").count == 1, "stderr: \(outcome.stderr)")
        #expect(!outcome.stderr.contains("NIO") && !outcome.stderr.contains("errno"), "stderr: \(outcome.stderr)")
    }
}

/// Site builds against the sample API that used to end without saying what the user could do (issue 24).
@Suite struct SiteGuardTests {
    static let key = "guard-key-24"

    func writeConfig(_ workspace: Workspace, server: SampleAPIServer, top: String, gallery: String = "") async throws {
        let text = """
            title = "Guards"
            \(top)

            [[gallery]]
            source = "pixabay"
            term = "Hamburg"
            per-page = 5
            no-variant = true
            endpoint = "\(await server.pixabayEndpoint)"
            \(gallery)

            """
        try text.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
    }

    func build(_ workspace: Workspace, _ extra: [String] = [], environment: [String: String] = [:]) async throws
        -> VitrineProcess.Outcome
    {
        try await VitrineProcess.run(
            [
                "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                workspace.path("site"), "--retries", "0",
            ] + extra, environment: ["PIXABAY_API_KEY": Self.key].merging(environment) { $1 })
    }

    /// Item 7: the last second that has an RFC 3339 form is accepted, and the history it stamps is read again.
    @Test func theLastSecondOfYear9999IsAcceptedAndItsHistoryReadAgain() async throws {
        try await withSampleAPI(SampleAPIConfiguration(apiKey: Self.key)) { server, workspace in
            try await writeConfig(workspace, server: server, top: "history = true")
            let first = try await build(workspace, environment: ["SOURCE_DATE_EPOCH": "253402300799"])
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let history = try String(contentsOfFile: workspace.path("site/history.json"), encoding: .utf8)
            #expect(history.contains("9999-12-31T23:59:59Z"))
            let second = try await build(workspace, ["--refresh"], environment: ["SOURCE_DATE_EPOCH": "253402300799"])
            #expect(second.status == 0, "stderr: \(second.stderr)")
        }
    }

    /// Item 19: `keep = "all"` does nothing without history, and said nothing.
    @Test func keepAllWithoutHistoryWarnsInOneSentence() async throws {
        try await withSampleAPI(SampleAPIConfiguration(apiKey: Self.key)) { server, workspace in
            try await writeConfig(workspace, server: server, top: "", gallery: "keep = \"all\"")
            let outcome = try await build(workspace, ["--json"])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let warnings = outcome.stderr.split(separator: "\n").filter { $0.contains("keep = \"all\"") }
            #expect(warnings.count == 1, "stderr: \(outcome.stderr)")
            #expect(warnings.first?.contains("history = true") == true, "stderr: \(outcome.stderr)")
            #expect(outcome.stdout.contains("keep = \\\"all\\\""), "the --json report lists the warning too")
            try await writeConfig(workspace, server: server, top: "history = true", gallery: "keep = \"all\"")
            let kept = try await build(workspace)
            #expect(kept.status == 0 && !kept.stderr.contains("keep = \"all\""), "stderr: \(kept.stderr)")
        }
    }

    /// Item 19: the first publish of a site whose base-url does not answer stopped (exit 69, rightly) without a
    /// way to start its history on purpose; `--new-history` is that way, and the sentence names it.
    @Test func aBaseURLThatDoesNotAnswerNamesNewHistoryWhichStartsOne() async throws {
        try await withSampleAPI(SampleAPIConfiguration(apiKey: Self.key)) { server, workspace in
            try await writeConfig(workspace, server: server, top: "history = true\nbase-url = \"http://127.0.0.1:9/\"")
            let stopped = try await build(workspace)
            #expect(stopped.status == ExitStatus.unavailable.rawValue, "stderr: \(stopped.stderr)")
            #expect(stopped.stderr.contains("--new-history"), "stderr: \(stopped.stderr)")
            #expect(!FileManager.default.fileExists(atPath: workspace.path("site/history.json")))
            let contradicting = try await build(workspace, ["--new-history", "--history-from", workspace.path("h")])
            #expect(contradicting.status == ExitStatus.usage.rawValue, "stderr: \(contradicting.stderr)")
            let started = try await build(workspace, ["--new-history"])
            #expect(started.status == 0, "stderr: \(started.stderr)")
            #expect(started.stderr.contains("Starting a new history"), "stderr: \(started.stderr)")
            #expect(FileManager.default.fileExists(atPath: workspace.path("site/history.json")))
            // The output folder's own history is read from now on: the base-url is not asked again.
            let later = try await build(workspace)
            #expect(later.status == 0, "stderr: \(later.stderr)")
        }
    }
    /// A `--history-from` that names no history a build could read (a URL missing a slash, another scheme, a
    /// file in a folder that does not exist) would start the history over and let the deploy replace the published
    /// one: it stops with exit 64 before any request or file, naming the value; a missing file in a folder that
    /// exists is a first publish and still starts a history.
    @Test func aHistoryFromThatNamesNoReadableHistoryStopsBeforeAnything() async throws {
        try await withSampleAPI(SampleAPIConfiguration(apiKey: Self.key)) { server, workspace in
            try await writeConfig(workspace, server: server, top: "history = true")
            for value in [
                "https:/127.0.0.1/history.json", "http://", "ftp://127.0.0.1/history.json",
                "file:///tmp/history.json", workspace.path("no-such-folder/history.json"),
                workspace.path("no-such-folder") + "/",
            ] {
                let refused = try await build(workspace, ["--history-from", value])
                #expect(refused.status == ExitStatus.usage.rawValue, "\(value): \(refused.stderr)")
                #expect(refused.stderr.contains("--history-from must name an http(s) URL"), "\(refused.stderr)")
                #expect(!FileManager.default.fileExists(atPath: workspace.path("site")), "\(value)")
            }
            #expect(server.requests().isEmpty)
            let first = try await build(workspace, ["--history-from", workspace.path("history.json")])
            #expect(first.status == 0, "stderr: \(first.stderr)")
            #expect(first.stderr.contains("Starting a new history"), "stderr: \(first.stderr)")
        }
    }
}
