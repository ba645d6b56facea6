import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineRender

/// `vitrine albums` built by the real binary against the sample API's JSONPlaceholder and seeded images.
@Suite struct AlbumsTests {
    func withServer(
        faults: [SampleAPIFault] = [], _ body: (SampleAPIServer, Workspace) async throws -> Void
    ) async throws {
        try await withSampleAPI(SampleAPIConfiguration(faults: faults), body)
    }

    func albums(_ server: SampleAPIServer, _ workspace: Workspace, _ extra: [String]) async throws
        -> VitrineProcess.Outcome
    {
        let base = await server.baseURL
        return try await VitrineProcess.run(
            ["albums", "--endpoint", base, "--image-endpoint", base] + extra + [
                "--cache", workspace.path("cache"), "--out", workspace.path("out"), "--json",
            ])
    }

    /// The `summary` object of a `--json` report.
    func summary(_ outcome: VitrineProcess.Outcome) throws -> [String: Any] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        return try #require(report["summary"] as? [String: Any])
    }

    func model(_ workspace: Workspace) throws -> LibXMLDocument {
        try LibXMLDocument.parse([UInt8](Data(contentsOf: workspace.url.appendingPathComponent("out/gallery.xml"))))
    }

    @Test func aQuickRunBuildsEveryPageKindWithWorkingLinks() async throws {
        try await withServer { server, workspace in
            let outcome = try await albums(server, workspace, ["--users", "2", "--albums", "2", "--per-page", "20"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let counts = try summary(outcome)
            #expect(counts["items"] as? Int == 200)
            let pageCount = 216  // users + 2 album lists + 4 albums × 3 grid pages + 200 photos + the search page
            #expect(counts["pagesWritten"] as? Int == pageCount)
            #expect(counts["imagesFailed"] as? Int == 0)

            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            #expect(crawl.pages.count == pageCount - 1)  // no link leads to the search page: a form does
            #expect(crawl.pages.contains("users/2/index.html") && crawl.pages.contains("albums/12/page-3.html"))
            #expect(crawl.pages.contains("photos/600.html") && !crawl.pages.contains("photos/601.html"))
            for image in crawl.files where image.hasPrefix("images/") {
                #expect(ImageFormat.sniff(try Data(contentsOf: site.root.appendingPathComponent(image))) != nil)
            }
            let document = try model(workspace)
            #expect(document.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
            #expect(document.strings("//collection[@kind='album']").count == 4)

            let users = try site.page("index.html")
            #expect(users.strings("//li[@class='row']//span[@class='row-title']") == ["Leanne Graham", "Ervin Howell"])
            #expect(users.strings("//li[@class='row']//span[@class='row-subtitle']") == ["Bret", "Antonette"])
            let photo = try site.page("photos/27.html")
            #expect(photo.strings("//section[@class='details']//dd/a") == ["quidem molestiae enim", "Leanne Graham"])
            #expect(photo.strings("//a[@data-nav='up']/@href") == ["../albums/1/page-2.html#photos-27"])
            #expect(photo.strings("//ol[@class='crumbs']/li").count == 4)
            // JSONPlaceholder's photos have no author, so no page claims to credit one.
            for page in ["index.html", "photos/27.html"] {
                let footer = try site.page(page).strings("//footer[@class='site']").joined()
                #expect(footer.contains("Made with Vitrine") && !footer.contains("credited"), "\(page): \(footer)")
            }
        }
    }

    @Test func viaPlaceholderURLsAreRewrittenToSeededImagesAndNeverReachAPage() async throws {
        try await withServer { server, workspace in
            let outcome = try await albums(server, workspace, ["--users", "1", "--albums", "1"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            // JSONPlaceholder says nothing of licenses: the seeded images are shown from their own URLs, never
            // downloaded.
            #expect(server.requests().filter { $0.path.hasPrefix("/seed/") }.isEmpty)
            let seeds = Set(try model(workspace).strings("//entry/image/@url").compactMap { URL(string: $0)?.path })
            #expect(seeds.contains("/seed/92c952/600") && seeds.contains("/seed/92c952/150"))
            #expect(seeds.count == 100)
            let files = try workspace.tree("out")
            for (path, bytes) in files where path.hasSuffix(".html") || path.hasSuffix(".xml") {
                #expect(!String(decoding: bytes, as: UTF8.self).contains("placeholder.com"), "\(path)")
            }
            #expect(
                Set(server.requests().map(\.path)).isSuperset(of: ["/users", "/users/1/albums", "/albums/1/photos"]))
        }
    }

    /// The base URL of a `vitrine sample-api` process, from the line it prints once it listens.
    func baseURL(of api: VitrineProcess.Running) async throws -> String {
        let banner = await api.stdout.line(containing: "http://127.0.0.1:") ?? ""
        guard let range = banner.range(of: #"http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) else {
            throw ProcessError(message: "the sample API did not say where it listens")
        }
        return String(banner[range])
    }

    /// Whether to run the full data set (`VITRINE_FULL_DATASET=1`): `scripts/test` runs it beside the other tests;
    /// a plain `swift test` leaves it out.
    static let fullDataSet = ProcessInfo.processInfo.environment["VITRINE_FULL_DATASET"] == "1"

    /// The whole data set, against a sample API of its own process; the second run has no server at all, so anything
    /// it asked the network for would fail.
    @Test(.enabled(if: fullDataSet, "set VITRINE_FULL_DATASET=1 (scripts/test does)"))
    func theFullDataSetWorksAndASecondRunDownloadsNothing() async throws {
        let workspace = try Workspace()
        let api = try VitrineProcess.launch(["sample-api", "--port", "0"])
        let base: String
        do {
            base = try await baseURL(of: api)
        } catch {
            api.send(SIGINT)
            _ = try? await api.wait()
            throw error
        }
        let arguments = [
            "albums", "--endpoint", base, "--image-endpoint", base, "--cache", workspace.path("cache"), "--out",
            workspace.path("out"), "--json",
        ]
        let cold = ContinuousClock.now
        let first = try await VitrineProcess.run(arguments)
        let coldTime = ContinuousClock.now - cold
        api.send(SIGINT)
        _ = try await api.wait()
        #expect(first.status == 0, "\(first.stderr)")
        let firstCounts = try summary(first)
        #expect(firstCounts["items"] as? Int == 5_000)
        #expect(firstCounts["apiRequests"] as? Int == 111)
        // Two renditions per distinct colour code (a few photos share one, as in the real data).
        let colours = Set((2...5_000).map(JSONPlaceholderCatalog.colour(ofPhoto:)) + ["92c952"])
        #expect(colours.count > 4_900)
        // JSONPlaceholder says nothing of licenses: every photo is shown from its own URL, none downloaded.
        #expect(colours.count > 4_900 && firstCounts["imagesDownloaded"] as? Int == 0)
        #expect(try model(workspace).strings("//entry/image/@url").count == 10_000)
        #expect(firstCounts["pagesWritten"] as? Int == 5_212)  // with the search page
        let document = try model(workspace)
        #expect(document.strings("//collection[@kind='list']").count == 11)
        #expect(document.strings("//collection[@kind='album']").count == 100)
        #expect(document.strings("//entry").count == 5_000)

        let warm = ContinuousClock.now
        let second = try await VitrineProcess.run(arguments)
        let warmTime = ContinuousClock.now - warm
        #expect(second.status == 0, "\(second.stderr)")
        let secondCounts = try summary(second)
        #expect(secondCounts["apiRequests"] as? Int == 0)
        #expect(secondCounts["apiCacheHits"] as? Int == 111)
        #expect(secondCounts["imagesDownloaded"] as? Int == 0)
        #expect(secondCounts["imagesFailed"] as? Int == 0)
        #expect(secondCounts["imagesFromCache"] as? Int == 0)
        #expect(secondCounts["pagesWritten"] as? Int == 0)
        #expect(secondCounts["pagesRendered"] as? Int == 0)
        #expect(secondCounts["pagesUnchanged"] as? Int == 5_212)
        print("albums full data set: cold \(coldTime), warm \(warmTime)")
    }

    /// A failing image host costs an album nothing: its photos, of unknown license, are never downloaded.
    @Test func aFailingImageHostCostsNothingAsNoPhotoIsDownloaded() async throws {
        try await withServer(faults: [try SampleAPIFault.parse("images:404:3")]) { server, workspace in
            let outcome = try await albums(server, workspace, ["--users", "1", "--albums", "1"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(try summary(outcome)["imagesFailed"] as? Int == 0)
            #expect(try summary(outcome)["imagesDownloaded"] as? Int == 0)
            let document = try model(workspace)
            #expect(document.strings("//entry/image/unavailable").isEmpty)
            #expect(document.strings("//entry/license/@copies").allSatisfy { $0 == "unknown" })
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            for page in try site.crawl().pages {
                let html = try site.page(page)
                #expect(html.strings("//main//span[@class='ph']").isEmpty)
                #expect(html.strings("//img/@src").allSatisfy { $0.hasPrefix("http://127.0.0.1:") }, "\(page)")
            }

            let strict = try await albums(server, workspace, ["--users", "1", "--albums", "1", "--strict"])
            #expect(strict.status == 0, "nothing is lost: \(strict.stderr)")
        }
    }

    @Test func anUnreachableOrBrokenAPIIsOneSentence() async throws {
        try await withServer(faults: [try SampleAPIFault.parse("albums:404")]) { server, workspace in
            let outcome = try await albums(server, workspace, ["--users", "1"])
            #expect(outcome.status == ExitStatus.unavailable.rawValue)
            #expect(outcome.stderr.contains("vitrine: JSONPlaceholder refused the request with HTTP 404"))
            #expect(!FileManager.default.fileExists(atPath: workspace.path("out/index.html")))
        }
        try await withServer(faults: [try SampleAPIFault.parse("albums:malformed-json")]) { server, workspace in
            let outcome = try await albums(server, workspace, ["--users", "1"])
            #expect(outcome.status == ExitStatus.badData.rawValue, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("JSONPlaceholder returned data Vitrine cannot read"))
        }
        let workspace = try Workspace()
        let bad = try await VitrineProcess.run(
            ["albums", "--image-endpoint", "ftp://example.org", "--out", workspace.path("out")])
        #expect(bad.status == ExitStatus.usage.rawValue)
        #expect(bad.stderr.contains("The endpoint ftp://example.org is not an http or https URL."))
        let zero = try await VitrineProcess.run(["albums", "--users", "0"])
        #expect(zero.status == ExitStatus.usage.rawValue && zero.stderr.contains("--users"))
    }

    @Test func theDemoBuildsAQuickSubsetFromTheSampleAPI() async throws {
        let workspace = try Workspace()
        let outcome = try await VitrineProcess.run(
            [
                "demo", "--source", "albums", "--port", "0", "--out", workspace.path("out"), "--cache",
                workspace.path("c"),
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stderr.contains("450 items"))
        let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
        #expect(try site.crawl().broken == [])
        #expect(try site.page("index.html").strings("//li[@class='row']").count == 3)
    }

    @Test func anAlbumsGalleryCanBePartOfASite() async throws {
        try await withServer { server, workspace in
            let base = await server.baseURL
            let config = workspace.url.appendingPathComponent("vitrine.toml")
            try """
            title = "Snapshots"

            [[gallery]]
            source = "albums"
            path = "people"
            users = 1
            albums = 2
            per-page = 30
            endpoint = "\(base)"
            image-endpoint = "\(base)"
            """.write(to: config, atomically: true, encoding: .utf8)
            let outcome = try await VitrineProcess.run(
                ["build", "--config", config.path, "--out", workspace.path("out"), "--cache", workspace.path("c")])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            #expect(crawl.pages.contains("people/index.html") && crawl.pages.contains("people/photos/100.html"))
            #expect(crawl.pages.contains("people/albums/2/page-2.html"))
            let photo = try site.page("people/photos/100.html")
            #expect(photo.strings("//ol[@class='crumbs']/li/a/@href").first == "../../people/index.html")
            let document = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("people/gallery.xml"))))
            #expect(document.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
            // The home page's card and the manifest count the photos of every album, not the top list's none.
            let home = try LibXMLDocument.parse([UInt8](Data(contentsOf: site.root.appendingPathComponent("site.xml"))))
            #expect(home.strings("//gallery/@item-count") == ["100"])
            #expect(home.strings("//gallery/image[@role='cover']/@url").count == 1)
            let manifest = try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: site.root.appendingPathComponent(".vitrine-manifest.json")))
                    as? [String: Any])
            let galleries = try #require(manifest["galleries"] as? [[String: Any]])
            #expect((galleries.first?["items"] as? [Any])?.count == 100)
            let frozen = try await VitrineProcess.run(
                [
                    "build", "--config", config.path, "--out", workspace.path("out"), "--cache", workspace.path("c"),
                    "--frozen",
                ])
            #expect(frozen.status == 0, "\(frozen.stderr)")
        }
    }
}
