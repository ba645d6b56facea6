import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineRender

/// The Flickr and thumbnail-list galleries built by the real binary against the sample API.
@Suite struct FlickrAndThumbnailTests {
    static let key = "flickr-key-5150"

    func withServer(
        faults: [SampleAPIFault] = [], _ body: (SampleAPIServer, Workspace) async throws -> Void
    ) async throws {
        try await withSampleAPI(SampleAPIConfiguration(faults: faults, flickrKey: Self.key), body)
    }

    func checkSite(_ workspace: Workspace, items: Int) throws -> SiteInspector {
        let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
        let crawl = try site.crawl()
        #expect(crawl.broken == [])
        for image in crawl.files where image.hasPrefix("images/") {
            #expect(ImageFormat.sniff(try Data(contentsOf: site.root.appendingPathComponent(image))) != nil)
        }
        let model = try LibXMLDocument.parse([UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml"))))
        #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
        #expect(model.strings("//item").count == items)
        return site
    }

    func flickr(_ server: SampleAPIServer, _ workspace: Workspace, _ extra: [String]) async throws
        -> VitrineProcess.Outcome
    {
        try await runFlickr(server, workspace, extra)
    }

    /// Finding 3 of the hostile pass: a rejection sent with HTTP 200 was cached as an answer for 24 hours.
    @Test func aRejectionIsNeverCachedAsAnAnswer() async throws {
        try await withServer(faults: [
            SampleAPIFault(.status(200, body: "<html><body>Down for maintenance</body></html>"), on: .flickr, times: 1)
        ]) { server, workspace in
            func requests() -> Int { server.requests().filter { $0.path.hasPrefix("/services/rest") }.count }
            let maintenance = try await flickr(server, workspace, ["Hamburg", "--key", Self.key])
            #expect(maintenance.status == 65, "\(maintenance.stderr)")
            let wrongKey = try await flickr(server, workspace, ["Hamburg", "--key", "not-the-key"])
            #expect(wrongKey.status == 77, "\(wrongKey.stderr)")
            let fixed = try await flickr(server, workspace, ["Hamburg", "--key", Self.key])
            #expect(fixed.status == 0, "the right key and a working API give a gallery: \(fixed.stderr)")
            // The table of licenses, then the search: neither the maintenance page nor the rejection was cached.
            #expect(requests() == 4, "neither the maintenance page nor the rejection was cached")
            // The answer to the right key is cached, and never served to another key.
            #expect(try await flickr(server, workspace, ["Hamburg", "--key", Self.key]).status == 0)
            #expect(requests() == 4)
            #expect(try await flickr(server, workspace, ["Hamburg", "--key", "not-the-key"]).status == 77)
            #expect(requests() == 5)
            for (path, bytes) in try workspace.tree("cache") {
                #expect(!path.contains(Self.key) && !String(decoding: bytes, as: UTF8.self).contains(Self.key))
            }
        }
    }

    @Test func aFlickrSearchIsPaginatedAndLinksBackToEachPhotoPage() async throws {
        try await withServer { server, workspace in
            let outcome = try await flickr(server, workspace, ["Hamburg", "--key", Self.key, "--pages", "2"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("50 items"))
            let site = try checkSite(workspace, items: 50)
            #expect(FileManager.default.fileExists(atPath: site.root.appendingPathComponent("page-2.html").path))
            let model = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml"))))
            let credits = model.strings("//credit/@href")
            #expect(credits.count == 50 && credits.allSatisfy { $0.hasPrefix("https://www.flickr.com/photos/") })
            let first = try #require(model.strings("//item[1]/entry/@href").first)
            #expect(
                try site.page(first).strings("//a/@href").contains { $0.hasPrefix("https://www.flickr.com/photos/") })
            #expect(try site.nextChain(from: first).chain.count == 50)
            #expect(!outcome.stderr.contains(Self.key))
            let requests = server.requests().filter { $0.path.hasPrefix("/services/rest") }
            #expect(
                requests.compactMap { $0.query["method"] } == [
                    "flickr.photos.licenses.getInfo", "flickr.photos.search",
                ])
        }
    }

    @Test func withoutATermAKeyGivesTheRecentPhotos() async throws {
        try await withServer { server, workspace in
            let outcome = try await flickr(server, workspace, ["--key", Self.key])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            _ = try checkSite(workspace, items: 25)
            #expect(server.requests().contains { $0.query["method"] == "flickr.photos.getRecent" })
        }
    }

    /// Flickr's terms: at most 3,600 queries an hour per key, counted across runs in the cache.
    @Test func flickrsHourlyQuotaIsKeptAcrossRunsAndASpentOneAsksNothing() async throws {
        try await withServer { server, workspace in
            func requests() -> Int { server.requests().filter { $0.path.hasPrefix("/services/rest") }.count }
            let first = try await flickr(server, workspace, ["Hamburg", "--key", Self.key])
            #expect(first.status == 0, "\(first.stderr)")
            let quotas = workspace.url.appendingPathComponent("cache/quotas")
            let names = try FileManager.default.contentsOfDirectory(atPath: quotas.path)
            #expect(names.count == 1 && !names[0].contains(Self.key))
            let ledger = quotas.appendingPathComponent(try #require(names.first))
            func counted() throws -> [Substring] {
                try String(contentsOf: ledger, encoding: .utf8).split(separator: "\n")
            }
            let countedFirst = try counted().count
            #expect(countedFirst == requests(), "every request to Flickr is counted")

            // 3,600 requests in the last minute: Flickr is asked nothing. A search with a saved answer shows it and
            // says why; one without fails at once, saying when the quota allows the next request.
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let spent = (0..<3600).map { String(now - 60_000 + Int64($0)) }.joined(separator: "\n")
            try Data(spent.utf8).write(to: ledger)
            let before = requests()
            let saved = try await flickr(server, workspace, ["Hamburg", "--key", Self.key, "--refresh"])
            #expect(saved.status == 0, "\(saved.stderr)")
            #expect(saved.stderr.contains("(Flickr's request quota is spent); showing the results saved at"))
            let refused = try await flickr(server, workspace, ["Elbe", "--key", Self.key])
            #expect(refused.status == 69, "\(refused.stderr)")
            #expect(refused.stderr.contains("Flickr allows 3,600 requests an hour per API key"), "\(refused.stderr)")
            // The oldest counted request was a minute old when the ledger was written, and older by the time the
            // refusing run looked: the hour it leaves in is 59 minutes less what has passed since, in whole minutes.
            let passed = Int64(Date().timeIntervalSince1970 * 1000) - now
            let soonest = Int((3_540_000 - passed) / 60_000)
            let wait = refused.stderr.firstMatch(of: /the next is allowed in (\d+) min/).flatMap { Int($0.1) }
            #expect(wait.map { (soonest...59).contains($0) } == true, "\(refused.stderr)")
            let countedAfterRefusal = try counted().count
            #expect(requests() == before && countedAfterRefusal == 3600)
            // Another key has its own count.
            let other = try await flickr(server, workspace, ["Hamburg", "--key", "another-key", "--refresh"])
            #expect(other.status == 77 && requests() == before + 1, "\(other.stderr)")

            // The oldest request leaves the window in two seconds: the run waits for it, then asks Flickr.
            let oldest = Int64(Date().timeIntervalSince1970 * 1000) - 3_600_000 + 2_000
            try Data((0..<3600).map { String(oldest + Int64($0)) }.joined(separator: "\n").utf8).write(to: ledger)
            let waited = try await flickr(server, workspace, ["Hamburg", "--key", Self.key, "--refresh"])
            #expect(waited.status == 0 && !waited.stderr.contains("saved at"), "\(waited.stderr)")
            #expect(requests() > before + 1)
            // The ledger holds the time of each request it let through: none before the oldest left the hour.
            let asked = try counted().compactMap { Int64($0) }.filter { $0 > oldest + 3_599 }
            #expect(!asked.isEmpty && asked.allSatisfy { $0 >= oldest + 3_600_000 }, "asked before the quota allowed")
        }
    }

    @Test func withoutAKeyThePublicFeedIsReadQuirksAndAll() async throws {
        try await withServer { server, workspace in
            let outcome = try await flickr(server, workspace, ["Hamburg"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let site = try checkSite(workspace, items: 20)
            #expect(server.requests().contains { $0.path.hasSuffix("photos_public.gne") })
            let captions = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml")))
            ).strings("//caption")
            #expect(captions.contains { $0.contains("'") })
            #expect(!captions.contains { $0.contains("\\'") })
        }
    }

    @Test func aRejectedFlickrKeyIsExit77WithFlickrsMessage() async throws {
        try await withServer { server, workspace in
            let outcome = try await flickr(server, workspace, ["Hamburg", "--key", "wrong-key-1"])
            #expect(outcome.status == 77)
            #expect(outcome.stderr.contains("Invalid API Key"))
            #expect(!outcome.stderr.contains("wrong-key-1"))
        }
    }

    @Test func twoHundredThumbnailsMakeOneLazySquareGrid() async throws {
        try await withServer { server, workspace in
            let outcome = try await VitrineProcess.run([
                "thumbnails", "--endpoint", await server.thumbnailsEndpoint, "--limit", "200", "--cache",
                workspace.path("cache"), "--out", workspace.path("out"),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let site = try checkSite(workspace, items: 200)
            let index = try site.page("index.html")
            #expect(index.strings("//ol[contains(@class, 'grid-square')]").count == 1)
            #expect(index.strings("//main//img").count == 200)
            #expect(index.strings("//main//img[@loading='lazy']").count >= 190)
            #expect(index.strings("//main//img[not(@width) or not(@height)]").isEmpty)
            #expect(!FileManager.default.fileExists(atPath: site.root.appendingPathComponent("page-2.html").path))
            // Each is credited to the publication the API names, never to the endpoint's host.
            let preview = try site.page(try #require(index.strings("//main//a[contains(@href, 'items/')]/@href").first))
            let credit = preview.strings("//*[contains(@class, 'credit')]").joined()
            #expect(credit.hasPrefix("Published by ") && !credit.contains("127.0.0.1"), "\(credit)")
            #expect(preview.strings("//*[contains(@class, 'credit')]//a/@href").first?.hasPrefix("http") == true)
            #expect(!index.strings("//footer").joined().contains("its author"))
        }
    }

    /// The thumbnail list says nothing of its pictures' licenses: they are shown from their own URLs, never
    /// downloaded, whatever the image host does, and the pages say so.
    @Test func thumbnailsOfUnknownLicenseAreShownFromTheirOwnURLsAndNeverDownloaded() async throws {
        try await withServer(faults: [SampleAPIFault(.status(404, body: "Not Found"), on: .images, times: 3)]) {
            server, workspace in
            let outcome = try await VitrineProcess.run([
                "thumbnails", "--endpoint", await server.thumbnailsEndpoint, "--limit", "30", "--retries", "0",
                "--cache", workspace.path("cache"), "--out", workspace.path("out"), "--strict",
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("0 images downloaded"), "\(outcome.stderr)")
            let site = try checkSite(workspace, items: 30)
            #expect(server.requests().filter { $0.path.hasPrefix("/images/") }.isEmpty)
            #expect(try workspace.tree("out").keys.filter { $0.hasPrefix("images/") }.isEmpty)
            #expect(try workspace.tree("cache").keys.filter { $0.hasPrefix("images/") }.isEmpty)
            let index = try site.page("index.html")
            let base = await server.baseURL
            #expect(index.strings("//main//img/@src").count == 30)
            #expect(index.strings("//main//img/@src").allSatisfy { $0.hasPrefix(base + "/") })
            #expect(index.strings("//main//span[@class='license']").allSatisfy { $0 == "License unknown" })
            #expect(index.strings("//main//span[@class='license']").count == 30)
        }
    }

    @Test func aLicenseChoiceThatCanNeverMatchIsRefusedBeforeAnythingIsAsked() async throws {
        try await withServer { server, workspace in
            let thumbnails = try await VitrineProcess.run([
                "thumbnails", "--endpoint", await server.thumbnailsEndpoint, "--license", "reusable", "--cache",
                workspace.path("cache"), "--out", workspace.path("out"),
            ])
            #expect(thumbnails.status == 64, "\(thumbnails.stderr)")
            #expect(thumbnails.stderr.contains("says nothing of licenses"), "\(thumbnails.stderr)")
            let feed = try await flickr(server, workspace, ["Hamburg", "--license", "reusable"])
            #expect(feed.status == 64, "\(feed.stderr)")
            #expect(
                feed.stderr.contains("--license reusable would leave no picture of Flickr's public feed"),
                "\(feed.stderr)"
            )
            let unknown = try await flickr(server, workspace, ["Hamburg", "--key", Self.key, "--license", "CC BY 9.0"])
            #expect(unknown.status == 64, "\(unknown.stderr)")
            #expect(unknown.stderr.contains("--license \"CC BY 9.0\" names no Flickr license"), "\(unknown.stderr)")
            // A few of the table's licenses, and how many there are: not all seventeen.
            #expect(unknown.stderr.contains("its 17 licenses include 0 (All rights reserved)"), "\(unknown.stderr)")
            #expect(!unknown.stderr.contains("16 (CC BY-NC-ND 4.0)"), "\(unknown.stderr)")
            #expect(server.requests().filter { $0.query["method"] == "flickr.photos.search" }.isEmpty)
            #expect(try workspace.tree("out").isEmpty)
        }
    }

    @Test(arguments: ["flickr", "flickr-feed", "thumbnails"])
    func theDemoShowsEverySource(source: String) async throws {
        let workspace = try Workspace()
        let outcome = try await VitrineProcess.run(
            ["demo", "--source", source, "--port", "0", "--out", "Output", "--cache", "cache"], in: workspace.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let site = SiteInspector(root: workspace.url.appendingPathComponent("Output"))
        #expect(try site.crawl().broken == [])
        // The feed names its authors in two forms; each must credit the name.
        let pages = try site.crawl().pages.map { try site.page($0).strings("//main").joined() }
        #expect(!pages.contains { $0.contains("a Flickr member") })
    }
}
