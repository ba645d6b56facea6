import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineRender

/// Wikimedia Commons galleries built by the real binary against the sample API's MediaWiki search.
@Suite struct CommonsGalleryTests {
    static let contact = "ops@example.org"

    func commons(
        _ server: SampleAPIServer, _ workspace: Workspace, _ extra: [String], environment: [String: String] = [:]
    ) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(
            ["commons"] + extra + [
                "--endpoint", await server.commonsEndpoint, "--cache", workspace.path("cache"), "--out",
                workspace.path("out"), "--retries", "0",
            ], environment: environment)
    }

    func model(_ workspace: Workspace, _ path: String = "out/gallery.xml") throws -> LibXMLDocument {
        try LibXMLDocument.parse([UInt8](Data(contentsOf: workspace.url.appendingPathComponent(path))))
    }

    func searches(_ server: SampleAPIServer) -> [SampleAPIRequest] {
        server.requests().filter { $0.path == "/w/api.php" }
    }

    /// The sample catalogue's first 20 files hold a PDF, a DjVu, a sound and a film (left out and counted), an SVG
    /// (shown by its PNG rendition), a file without a license (shown from the wiki's URL), a public-domain file
    /// without a license URL (a file of the site, named), an Artist with a script and a `javascript:` link (text),
    /// and a JPEG without a rendition (its original).
    @Test func aGalleryShowsWhatAPageCanShowCreditedAndLicensedAsTheWikiSays() async throws {
        try await withSampleAPI(SampleAPIConfiguration()) { server, workspace in
            let outcome = try await commons(server, workspace, ["Hafen", "--contact", Self.contact])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("Left out 4 Wikimedia Commons files that a page cannot show"))
            #expect(outcome.stderr.contains("20 items"))
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            let broken = try site.crawl().broken
            #expect(broken == [], "\(broken)")
            let model = try model(workspace)
            #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
            #expect(model.strings("//source/@name") == ["commons"])
            #expect(model.strings("//license[@label='Public domain']/@href").isEmpty)
            #expect(!model.strings("//entry[license/@label='Public domain']/image/@src").isEmpty)
            #expect(model.strings("//entry[license/@copies='unknown']/image/@src").isEmpty)
            #expect(!model.strings("//entry[license/@copies='unknown']/image/@url").isEmpty)
            #expect(model.strings("//credit/@name").contains("Mallory & friends"))
            #expect(model.strings("//credit/@author-href").allSatisfy { $0.hasPrefix("https://") })
            #expect(model.strings("//license/@href").allSatisfy { $0.hasPrefix("http") })
            let searched = searches(server)
            #expect(!searched.isEmpty)
            #expect(searched.allSatisfy { $0.headers["user-agent"]?.contains("(\(Self.contact))") == true })
            #expect(searched.allSatisfy { $0.query["gsrsearch"] == "Hafen" && $0.query["iiurlwidth"] == "1280" })
            let uploads = server.requests().filter { $0.path.hasPrefix("/upload/") }
            #expect(!uploads.isEmpty)
            #expect(
                uploads.allSatisfy { $0.headers["user-agent"]?.contains("(\(Self.contact))") == true },
                "the upload host's policy is the API's")
            let images = uploads.map(\.path)
            #expect(!images.contains { $0.hasSuffix(".svg") }, "an SVG is never downloaded as itself")
            #expect(images.contains { $0.hasSuffix(".svg.png") })
            for page in try site.crawl().files where page.hasSuffix(".html") {
                let html = String(decoding: try Data(contentsOf: site.root.appendingPathComponent(page)), as: UTF8.self)
                #expect(!html.contains("alert(") && !html.contains("javascript:"), "\(page)")
            }
        }
    }

    @Test func wikimediaIsNeverAskedWithoutAContact() async throws {
        let workspace = try Workspace()
        let outcome = try await VitrineProcess.run(
            ["commons", "Hafen", "--cache", workspace.path("cache"), "--out", workspace.path("out")],
            environment: ["VITRINE_CONTACT": ""])
        #expect(outcome.status == 64, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("--contact") && outcome.stderr.contains("VITRINE_CONTACT"))
        let forged = try await VitrineProcess.run([
            "commons", "Hafen", "--contact", "a\r\nX-Evil: 1", "--cache", workspace.path("cache"), "--out",
            workspace.path("out"),
        ])
        #expect(forged.status == 64, "\(forged.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("out")))
    }

    @Test func theContactComesFromTheEnvironmentAndContinuationsFillTheGallery() async throws {
        try await withSampleAPI(SampleAPIConfiguration()) { server, workspace in
            let outcome = try await commons(
                server, workspace, ["Hafen", "--per-page", "30", "--pages", "2"],
                environment: ["VITRINE_CONTACT": "https://example.org/contact"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let searched = searches(server)
            #expect(searched.count >= 2)
            #expect(searched.dropFirst().allSatisfy { $0.query["gsroffset"] != nil && $0.query["continue"] != nil })
            #expect(searched.allSatisfy { Int($0.query["gsrlimit"] ?? "") ?? 99 <= 50 })
            #expect(searched.allSatisfy { $0.headers["user-agent"]?.contains("(https://example.org/contact)") == true })
            #expect(try model(workspace).strings("//item").count == 56, "60 files, 4 that a page cannot show")
        }
    }

    @Test func aReusableChoiceLeavesOutTheFileWithoutALicense() async throws {
        try await withSampleAPI(SampleAPIConfiguration()) { server, workspace in
            let outcome = try await commons(
                server, workspace, ["Hafen", "--contact", Self.contact, "--license", "reusable"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("under other licenses than “reusable”"))
            #expect(try model(workspace).strings("//license/@copies").allSatisfy { $0 == "allowed" })
        }
    }

    @Test func aSiteConfigBuildsACommonsGalleryBesideAnOpenverseOne() async throws {
        try await withSampleAPI(SampleAPIConfiguration()) { server, workspace in
            let config = """
                title = "Open collections"
                [[gallery]]
                source = "commons"
                path = "commons"
                term = "Hafen"
                per-page = 10
                contact = "\(Self.contact)"
                endpoint = "\(await server.commonsEndpoint)"

                [[gallery]]
                source = "openverse"
                path = "openverse"
                term = "Hafen"
                per-page = 10
                endpoint = "\(await server.openverseEndpoint)"
                """
            try Data(config.utf8).write(to: workspace.url.appendingPathComponent("vitrine.toml"))
            let outcome = try await VitrineProcess.run([
                "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                workspace.path("out"), "--retries", "0",
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            #expect(try site.crawl().broken == [])
            let sources = try ["out/commons/gallery.xml", "out/openverse/gallery.xml"].map {
                try model(workspace, $0).strings("//source/@name")
            }
            #expect(sources == [["commons"], ["openverse"]])
            let home = String(
                decoding: try Data(contentsOf: site.root.appendingPathComponent("index.html")), as: UTF8.self)
            #expect(home.contains("Wikimedia Commons") && home.contains("Openverse"))
        }
    }

    /// The open collections in a site built in shards merge into the bytes of one build, and a site with history
    /// keeps their snapshots, as for every other source.
    @Test func openCollectionsBuildInShardsAndKeepAHistoryAsTheOtherSources() async throws {
        try await withSampleAPI(SampleAPIConfiguration()) { server, workspace in
            let galleries = """
                [[gallery]]
                source = "commons"
                path = "commons"
                term = "Hafen"
                per-page = 8
                contact = "\(Self.contact)"
                endpoint = "\(await server.commonsEndpoint)"

                [[gallery]]
                source = "openverse"
                path = "openverse"
                term = "Hafen"
                per-page = 8
                endpoint = "\(await server.openverseEndpoint)"
                """
            let site = "title = \"Open\"\nbase-url = \"https://example.org/open/\"\n"
            try Data((site + galleries).utf8).write(to: workspace.url.appendingPathComponent("sharded.toml"))
            try Data((site + "history = true\n" + galleries).utf8).write(
                to: workspace.url.appendingPathComponent("history.toml"))
            func build(_ config: String, _ extra: [String], cache: String, out: String) async throws -> Int32 {
                let outcome = try await VitrineProcess.run(
                    [
                        "build", "--config", workspace.path(config), "--cache", workspace.path(cache), "--out",
                        workspace.path(out), "--retries", "0", "-q",
                    ] + extra, environment: ["SOURCE_DATE_EPOCH": "1700000000"])
                #expect(outcome.status == 0, "\(extra): \(outcome.stderr)")
                return outcome.status
            }
            _ = try await build("sharded.toml", [], cache: "cache", out: "whole")
            _ = try await build("sharded.toml", ["--shard", "1/2"], cache: "cache-1", out: "shard-1")
            _ = try await build("sharded.toml", ["--shard", "2/2"], cache: "cache-2", out: "shard-2")
            _ = try await build(
                "sharded.toml", ["--merge", workspace.path("shard-1"), workspace.path("shard-2")], cache: "cache-m",
                out: "merged")
            let whole = try workspace.tree("whole")
            let merged = try workspace.tree("merged")
            #expect(whole.keys.contains("commons/index.html") && whole.keys.contains("openverse/index.html"))
            #expect(whole.keys.sorted() == merged.keys.sorted())
            for (path, bytes) in whole { #expect(merged[path] == bytes, "\(path) differs") }
            let feed = String(decoding: try #require(whole["feed.xml"]), as: UTF8.self)
            #expect(feed.contains("Wikimedia Commons") && feed.contains("Openverse"))
            // Link previews: a grid's card names a picture of the site that may be copied, by an absolute URL.
            for folder in ["commons", "openverse"] {
                let grid = String(decoding: try #require(whole["\(folder)/index.html"]), as: UTF8.self)
                #expect(grid.contains("<meta property=\"og:image\" content=\"https://example.org/open/images/"))
                #expect(grid.contains("\"acquireLicensePage\":\"http") && grid.contains("\"creditText\":"))
            }

            #expect(try await build("history.toml", ["--new-history"], cache: "cache", out: "history") == 0)
            let history = String(
                decoding: try Data(contentsOf: workspace.url.appendingPathComponent("history/history.json")),
                as: UTF8.self)
            #expect(history.contains("\"commons/\"") && history.contains("\"openverse/\""))
            #expect(FileManager.default.fileExists(atPath: workspace.path("history/changes.html")))
        }
    }
}
