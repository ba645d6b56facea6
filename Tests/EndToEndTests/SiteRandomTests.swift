import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineModel
@testable import VitrinePipeline
@testable import VitrinePublish
@testable import VitrineRender
@testable import VitrineStore

/// `vitrine build` with a `source = "random"` gallery beside a Pixabay one, run by the real binary against the
/// sample API, with the schedule's clock moved by `--now`.
@Suite struct SiteRandomTests {
    static let key = "site-random-key-31"
    /// The clock of `RandomPageTests`, and a fixed time for the feed.
    static let environment = ["SOURCE_DATE_EPOCH": "1900000000"]

    func withServer(_ body: (SampleAPIServer, Workspace) async throws -> Void) async throws {
        try await withSampleAPI(SampleAPIConfiguration(apiKey: Self.key), body)
    }

    /// A site of a Pixabay gallery and a random gallery; `random` adds lines to the random table.
    func writeConfig(_ server: SampleAPIServer, _ workspace: Workspace, random: String = "", picsum: String? = nil)
        async throws
    {
        let defaultEndpoint = await server.picsumEndpoint
        let text = """
            title = "Snapshots"
            base-url = "https://example.org/snapshots/"

            [[gallery]]
            source = "pixabay"
            term = "Hamburg"
            per-page = 4
            endpoint = "\(await server.pixabayEndpoint)"

            [[gallery]]
            source = "random"
            every = "10m"
            endpoint = "\(picsum ?? defaultEndpoint)"
            \(random)
            """
        try text.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
    }

    func build(
        _ workspace: Workspace, minutes: Double, _ extra: [String] = [], out: String = "site"
    ) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(
            [
                "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                workspace.path(out), "--json", "-q",
            ] + RandomPageTests.at(minutes: minutes) + extra,
            environment: Self.environment.merging(["PIXABAY_API_KEY": Self.key]) { $1 })
    }

    func report(_ outcome: VitrineProcess.Outcome) throws -> BuildSummary {
        struct Report: Decodable { var summary: BuildSummary }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Report.self, from: Data(outcome.stdout.utf8)).summary
    }

    func state(_ workspace: Workspace, out: String = "site") throws -> RandomPageState {
        try #require(RandomPageState.read(in: workspace.url.appendingPathComponent("\(out)/random")))
    }

    func infoRequests(_ server: SampleAPIServer) -> Int {
        server.requests().filter { $0.path.hasPrefix("/seed/") && $0.path.hasSuffix("/info") }.count
    }

    /// Every file of the output with its modification time, to prove that a run wrote nothing.
    func modificationTimes(_ workspace: Workspace) throws -> [String: Date] {
        var times: [String: Date] = [:]
        for path in try workspace.tree("site").keys {
            let attributes = try FileManager.default.attributesOfItem(atPath: workspace.path("site/\(path)"))
            times[path] = attributes[.modificationDate] as? Date
        }
        return times
    }

    @Test func aSiteWithAPixabayAndARandomGalleryHasBothCardsAndWorkingRelativeLinks() async throws {
        try await withServer { server, workspace in
            try await writeConfig(server, workspace)
            let outcome = try await build(workspace, minutes: 0)
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("site"))
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            #expect(crawl.pages.isSuperset(of: ["hamburg/index.html", "random/index.html", "random/favorites.html"]))

            let home = try site.page("index.html")
            #expect(
                home.strings("//main//li//a[@class='caption']/@href") == ["hamburg/index.html", "random/index.html"])
            #expect(home.strings("//main//li//a[@class='caption']") == ["Hamburg", "Random image"])
            #expect(
                home.strings("//li[.//a/@href='random/index.html']//span[@class='credit']")
                    == ["A new image every 10 minutes from Lorem Picsum"])
            let shown = try state(workspace)
            let image = try #require(shown.images.last?.path)
            #expect(home.strings("//li[.//a/@href='random/index.html']//img/@src") == [image])

            let page = try site.page("random/index.html")
            #expect(page.strings("//figure[@id='photo']/img/@src") == ["../\(image)"])
            #expect(page.strings("//a[@class='brand']/@href") == ["../index.html"], "the random page leads home")
            #expect(page.strings("//style/@data-href") == ["../assets/vitrine.css"])
            #expect(page.strings("//p[@class='favorite-actions']/a/@href") == ["../random/favorites.html"])
            let favorites = try site.page("random/favorites.html")
            #expect(favorites.strings("//a[@class='brand']/@href") == ["../index.html"])
            #expect(favorites.strings("//nav[contains(@class, 'random-nav')]/a/@href") == ["../random/index.html"])

            for model in ["random/gallery.xml", "site.xml"] {
                let document = try LibXMLDocument.parse(
                    [UInt8](Data(contentsOf: site.root.appendingPathComponent(model))))
                #expect(document.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [], "\(model)")
            }
            let manifest = try #require(OutputManifest.read(in: site.root))
            let random = try #require(manifest.galleries.first { $0.path == "random/" })
            #expect(random.source == "picsum" && random.items.map(\.id) == [shown.photo.id])
            let listed = Set(manifest.files.map(\.path))
            #expect(listed.isSuperset(of: ["random/index.html", "random/favorites.html", "random/random.json", image]))
            let sitemap = try String(contentsOf: site.root.appendingPathComponent("sitemap.xml"), encoding: .utf8)
            #expect(sitemap.contains("<loc>https://example.org/snapshots/random/index.html</loc>"))
            let feed = try LibXMLDocument.parse([UInt8](Data(contentsOf: site.root.appendingPathComponent("feed.xml"))))
            #expect(
                feed.strings("//*[local-name()='entry']/*[local-name()='summary']").last
                    == "A new image every 10 minutes from Lorem Picsum")
            let summary = try report(outcome)
            #expect(summary.galleries?.map(\.path) == ["hamburg/", "random/"])
            #expect(summary.galleries?.last?.summary.items == 1)
        }
    }

    @Test func aRebuildBeforeTheNextImageWritesNothingAndADueOneReplacesItAndIsNotUpToDate() async throws {
        try await withServer { server, workspace in
            try await writeConfig(server, workspace)
            #expect(try await build(workspace, minutes: 0).status == 0)
            let first = try state(workspace)
            let files = try workspace.tree("site")
            let times = try modificationTimes(workspace)
            #expect(infoRequests(server) == 1)

            let early = try await build(workspace, minutes: 9.5)
            #expect(early.status == 0, "stderr: \(early.stderr)")
            #expect(try report(early).upToDate, "nothing is due: the build state holds")
            #expect(infoRequests(server) == 1, "a build before the next update asks the API nothing")
            #expect(try workspace.tree("site") == files && modificationTimes(workspace) == times)

            let due = try await build(workspace, minutes: 10)
            #expect(due.status == 0, "stderr: \(due.stderr)")
            #expect(try !report(due).upToDate, "the random gallery is due: never up to date")
            #expect(infoRequests(server) == 2)
            let second = try state(workspace)
            #expect(second.photo.id != first.photo.id)
            #expect(second.nextUpdate == ISO8601DateFormatter().date(from: "2030-01-01T00:20:00Z"))
            #expect(second.history.map(\.path) == first.images.compactMap(\.path), "the earlier file stays")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("site"))
            #expect(try site.crawl().broken == [])
            #expect(
                try site.page("index.html").strings("//li[.//a/@href='random/index.html']//img/@src")
                    == [second.images.last?.path ?? ""])

            let again = try await build(workspace, minutes: 15)
            #expect(try report(again).upToDate && infoRequests(server) == 2)
        }
    }

    @Test func twoBuildsFromTheSameConfigCacheAndClockAreByteIdentical() async throws {
        try await withServer { server, workspace in
            try await writeConfig(server, workspace)
            let first = try await build(workspace, minutes: 0)
            let second = try await build(workspace, minutes: 0, out: "again")
            #expect(first.status == 0 && second.status == 0, "\(first.stderr) \(second.stderr)")
            let one = try workspace.tree("site")
            let other = try workspace.tree("again")
            #expect(one.keys.sorted() == other.keys.sorted())
            for (path, bytes) in one where other[path] != bytes { Issue.record("\(path) differs") }
        }
    }

    @Test func frozenShowsTheImageOfRandomJSONFromTheCacheAndNamesWhatIsMissing() async throws {
        try await withServer { server, workspace in
            try await writeConfig(server, workspace)
            #expect(try await build(workspace, minutes: 0).status == 0)
            let shown = try state(workspace)
            let page = try Data(contentsOf: workspace.url.appendingPathComponent("site/random/index.html"))

            let frozen = try await build(workspace, minutes: 30, ["--frozen"])
            #expect(frozen.status == 0, "stderr: \(frozen.stderr)")
            #expect(infoRequests(server) == 1, "--frozen never asks the network, even when the image is due")
            #expect(try state(workspace) == shown)
            #expect(try Data(contentsOf: workspace.url.appendingPathComponent("site/random/index.html")) == page)

            let record = try #require(shown.images.last.flatMap(RandomPagePipeline.record(of:)))
            let cached = CacheStore(root: workspace.url.appendingPathComponent("cache")).imageFile(for: record)
            try FileManager.default.removeItem(at: cached)
            let lacking = try await build(workspace, minutes: 30, ["--frozen"])
            #expect(lacking.status == 66, "stderr: \(lacking.stderr)")
            #expect(
                lacking.stderr.contains(
                    "--frozen forbids the network, and the cache lacks the image \(shown.images.last!.remoteURL)"),
                "stderr: \(lacking.stderr)")

            try FileManager.default.removeItem(at: workspace.url.appendingPathComponent("site/random/random.json"))
            let none = try await build(workspace, minutes: 30, ["--frozen"])
            #expect(none.status == 66, "stderr: \(none.stderr)")
            #expect(none.stderr.contains("--frozen rebuilds the random page from its random/random.json"))
        }
    }

    @Test func anUnreachableAPIKeepsTheImageAndSaysSoAndStrictMakesItExit2() async throws {
        try await withServer { server, workspace in
            try await writeConfig(server, workspace)
            #expect(try await build(workspace, minutes: 0).status == 0)
            let before = try state(workspace)
            try await writeConfig(server, workspace, picsum: "http://127.0.0.1:9/")
            let kept = try await build(workspace, minutes: 11, ["--retries", "0"])
            #expect(kept.status == 0, "stderr: \(kept.stderr)")
            let warnings = try report(kept).warnings
            #expect(warnings.contains { $0.hasPrefix("Lorem Picsum: a new image could not be loaded") }, "\(warnings)")
            let after = try state(workspace)
            #expect(after.photo == before.photo && after.lastFailure != nil)
            let notice = try SiteInspector(root: workspace.url.appendingPathComponent("site"))
                .page("random/index.html").strings("//p[@class='notice']").joined()
            #expect(notice.contains("The image shown was fetched at 2030-01-01 00:00 UTC"))

            let strict = try await build(workspace, minutes: 17, ["--retries", "0", "--strict"])
            #expect(strict.status == 2, "stderr: \(strict.stderr)")
            #expect(try state(workspace) == after, "--strict leaves the output as it was")
        }
    }

    @Test func providerUnsplashTakesItsKeyFromTheEnvironmentAndNoFileHoldsIt() async throws {
        var configuration = SampleAPIConfiguration(apiKey: Self.key)
        configuration.unsplashKey = "unsplash-site-key-55"
        try await withSampleAPI(configuration) { server, workspace in
            try await writeConfig(server, workspace, picsum: await server.unsplashEndpoint)
            let config = try String(contentsOfFile: workspace.path("vitrine.toml"), encoding: .utf8)
            try (config + "provider = \"unsplash\"\nquery = \"Hamburg\"\n")
                .write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
            let outcome = try await VitrineProcess.run(
                [
                    "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                    workspace.path("site"), "-q",
                ] + RandomPageTests.at(minutes: 0),
                environment: Self.environment.merging([
                    "PIXABAY_API_KEY": Self.key, "UNSPLASH_ACCESS_KEY": "unsplash-site-key-55",
                ]) { $1 })
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let shown = try state(workspace)
            #expect(shown.source == "unsplash" && shown.delivery == .hotlink)
            let page = try SiteInspector(root: workspace.url.appendingPathComponent("site")).page("random/index.html")
            #expect(page.strings("//figure[@id='photo']/img/@src").allSatisfy { $0.hasPrefix("http") })
            #expect(try SiteInspector(root: workspace.url.appendingPathComponent("site")).crawl().broken == [])
            for (path, bytes) in try workspace.tree("site") {
                #expect(!String(decoding: bytes, as: UTF8.self).contains("unsplash-site-key-55"), "\(path)")
            }
        }
    }

    @Test(arguments: [
        ("watch = true\n", "line 14, key watch of the 2nd [[gallery]]: --watch keeps vitrine random running"),
        ("colour = \"red\"\n", "line 14, key colour of the 2nd [[gallery]]: unknown key for source random"),
        (
            "key = \"abc\"\n",
            "line 14, key key of the 2nd [[gallery]]: API keys come from the environment ($UNSPLASH_ACCESS_KEY)"
        ),
        ("provider = \"flickr\"\n", "line 14, key provider of the 2nd [[gallery]]"),
        ("query = \"cats\"\n", "line 14, key query of the 2nd [[gallery]]: --query works with Unsplash only"),
    ])
    func aBadRandomTableIsReportedWithFileLineAndKey(extra: String, expected: String) async throws {
        try await withServer { server, workspace in
            try await writeConfig(server, workspace, random: extra)
            let outcome = try await build(workspace, minutes: 0)
            #expect(outcome.status == ExitStatus.usage.rawValue, "stderr: \(outcome.stderr)")
            #expect(outcome.stderr.contains("vitrine.toml, \(expected)"), "stderr: \(outcome.stderr)")
            #expect(server.requests().isEmpty)
        }
    }

    @Test func aBadEveryIsReportedWithFileLineAndKey() async throws {
        try await withServer { server, workspace in
            try await writeConfig(server, workspace)
            let config = try String(contentsOfFile: workspace.path("vitrine.toml"), encoding: .utf8)
            try config.replacingOccurrences(of: "every = \"10m\"", with: "every = \"10\"")
                .write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
            let outcome = try await build(workspace, minutes: 0)
            #expect(outcome.status == 64)
            #expect(
                outcome.stderr.contains(
                    "vitrine.toml, line 12, key every of the 2nd [[gallery]]: --every takes a duration"),
                "stderr: \(outcome.stderr)")
        }
    }
}
