import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrineRender

/// `vitrine random` run as a user would, against the sample Lorem Picsum and Unsplash, with the clock moved by
/// `--now` instead of waiting minutes.
@Suite struct RandomPageTests {
    static let key = "unsplash-secret-7781"
    static let start = "2030-01-01T00:00:00Z"

    /// The arguments that run the binary as if `minutes` had passed since `start`.
    static func at(minutes: Double) -> [String] {
        let date = ISO8601DateFormatter().date(from: start)!.addingTimeInterval(minutes * 60)
        return ["--now", ISO8601DateFormatter().string(from: date)]
    }

    func withServer(
        faults: [SampleAPIFault] = [], unsplashRateLimit: Int = 50,
        _ body: (SampleAPIServer, Workspace) async throws -> Void
    ) async throws {
        var configuration = SampleAPIConfiguration(faults: faults)
        configuration.unsplashKey = Self.key
        configuration.unsplashRateLimit = unsplashRateLimit
        try await withSampleAPI(configuration, body)
    }

    func random(
        _ workspace: Workspace, endpoint: String, minutes: Double, _ extra: [String] = [],
        environment: [String: String] = [:]
    ) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(
            ["random", "--endpoint", endpoint, "--out", workspace.path("out"), "--cache", workspace.path("cache")]
                + Self.at(minutes: minutes) + extra, environment: environment)
    }

    func state(_ workspace: Workspace) throws -> RandomPageState {
        try #require(RandomPageState.read(in: workspace.url.appendingPathComponent("out")))
    }

    func page(_ workspace: Workspace) throws -> LibXMLDocument {
        try SiteInspector(root: workspace.url.appendingPathComponent("out")).page("index.html")
    }

    func checkSite(_ workspace: Workspace) throws {
        let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
        let crawl = try site.crawl()
        #expect(crawl.broken == [])
        #expect(crawl.pages == ["index.html", "favorites.html"])
        let model = try LibXMLDocument.parse([UInt8](Data(contentsOf: site.root.appendingPathComponent("gallery.xml"))))
        #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
    }

    func infoRequests(_ server: SampleAPIServer) -> Int {
        server.requests().filter { $0.path.hasPrefix("/seed/") && $0.path.hasSuffix("/info") }.count
    }

    @Test func aRunBeforeTheNextUpdateKeepsTheImageAndADueRunReplacesIt() async throws {
        try await withServer { server, workspace in
            let endpoint = await server.picsumEndpoint
            let first = try await random(workspace, endpoint: endpoint, minutes: 0, ["--every", "10m"])
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.contains("New image") && first.stderr.contains("next update at 2030-01-01 00:10 UTC"))
            try checkSite(workspace)
            let initial = try state(workspace)
            #expect(initial.source == "picsum" && initial.delivery == .download)
            let file = try #require(initial.images.last?.path)
            let bytes = try Data(contentsOf: workspace.url.appendingPathComponent("out/\(file)"))
            #expect(ImageFormat.sniff(bytes) == .jpeg)
            let html = try page(workspace)
            #expect(html.strings("//img/@src") == [file])
            #expect(html.strings("//time[@data-next-update]/@datetime") == ["2030-01-01T00:10:00Z"])
            #expect(html.strings("//p[@class='schedule']//time[1]/@datetime").first == "2030-01-01T00:00:00Z")
            let fields = html.strings("//dl[@class='fields']/dt")
            #expect((3...5).contains(fields.count) && fields.prefix(3) == ["Author", "Size", "Source page"])
            #expect(
                html.strings("//dl[@class='fields']/dt[@data-field='author']/following-sibling::dd[1]//a/@href").count
                    == 1)
            #expect(infoRequests(server) == 1)
            let index = try Data(contentsOf: workspace.url.appendingPathComponent("out/index.html"))

            let early = try await random(workspace, endpoint: endpoint, minutes: 9.5, ["--every", "10m"])
            #expect(early.status == 0 && early.stderr.contains("Kept image \(initial.photo.id) (not due yet)"))
            #expect(infoRequests(server) == 1, "a run before the next update asks the API nothing")
            #expect(try Data(contentsOf: workspace.url.appendingPathComponent("out/index.html")) == index)

            let due = try await random(workspace, endpoint: endpoint, minutes: 10, ["--every", "10m"])
            #expect(due.status == 0 && due.stderr.contains("New image"), "\(due.stderr)")
            let replaced = try state(workspace)
            #expect(replaced.photo.id != initial.photo.id && infoRequests(server) == 2)
            #expect(replaced.fetchedAt == ISO8601DateFormatter().date(from: "2030-01-01T00:10:00Z"))
            #expect(try page(workspace).strings("//time[@data-next-update]/@datetime") == ["2030-01-01T00:20:00Z"])
            #expect(replaced.history.map(\.path) == [file], "the earlier file stays for favorites")
            #expect(FileManager.default.fileExists(atPath: workspace.path("out/\(file)")))
            try checkSite(workspace)

            let slower = try await random(workspace, endpoint: endpoint, minutes: 25, ["--every", "1h"])
            #expect(
                slower.status == 0 && slower.stderr.contains("Kept image"), "the schedule runs from the last update")
            #expect(try state(workspace).nextUpdate == ISO8601DateFormatter().date(from: "2030-01-01T01:10:00Z"))
        }
    }

    @Test func whenTheAPICannotBeReachedThePageKeepsThePreviousImageAndSaysSo() async throws {
        try await withServer { server, workspace in
            let endpoint = await server.picsumEndpoint
            #expect(try await random(workspace, endpoint: endpoint, minutes: 0).status == 0)
            let before = try state(workspace)
            let unreachable = "http://127.0.0.1:9/"
            let offline = try await random(workspace, endpoint: unreachable, minutes: 11, ["--retries", "0"])
            #expect(offline.status == 0, "\(offline.stderr)")
            #expect(offline.stderr.contains("warning: Lorem Picsum: a new image could not be loaded"))
            #expect(offline.stderr.contains("the one fetched at 2030-01-01 00:00 UTC stays"))
            let after = try state(workspace)
            #expect(after.photo == before.photo && after.images == before.images && after.lastFailure != nil)
            let notice = try page(workspace).strings("//p[@class='notice']").joined()
            #expect(notice.contains("A fresh image could not be loaded at 2030-01-01 00:11 UTC"))
            #expect(notice.contains("The image shown was fetched at 2030-01-01 00:00 UTC"))
            #expect(try page(workspace).strings("//img/@src") == [before.images.last!.path!])
            try checkSite(workspace)

            let strict = try await random(
                workspace, endpoint: unreachable, minutes: 17, ["--retries", "0", "--strict"])
            #expect(strict.status == 2 && strict.stderr.contains("--strict makes that a failure"), "\(strict.stderr)")
            #expect(try state(workspace).photo == before.photo)

            let back = try await random(workspace, endpoint: endpoint, minutes: 23)
            #expect(back.status == 0 && back.stderr.contains("New image"))
            #expect(try page(workspace).strings("//p[@class='notice']").isEmpty)
        }
    }

    @Test func aFailedDownloadKeepsThePreviousImageAndNothingBeforeTheFirstImageIsExit66Or69() async throws {
        try await withServer(faults: [SampleAPIFault(.status(404, body: "gone"), on: .images, times: 2)]) {
            server, workspace in
            let endpoint = await server.picsumEndpoint
            let none = try await random(workspace, endpoint: endpoint, minutes: 0, ["--offline"])
            #expect(none.status == 66 && none.stderr.contains("run once without --offline first"))
            let first = try await random(workspace, endpoint: endpoint, minutes: 0, ["--jobs", "1"])
            #expect(first.status == 69 && first.stderr.contains("could not be downloaded (Download failed: HTTP 404)"))
            #expect(!FileManager.default.fileExists(atPath: workspace.path("out/index.html")))
            #expect(try await random(workspace, endpoint: endpoint, minutes: 1).status == 0)
            let offline = try await random(workspace, endpoint: endpoint, minutes: 30, ["--offline"])
            #expect(offline.status == 0 && offline.stderr.contains("Kept image"), "\(offline.stderr)")
            #expect(try page(workspace).strings("//p[@class='notice']").joined().contains("the run was offline"))
        }
    }

    @Test func unsplashImagesAreHotlinkedCreditedWithReferralsAndReportedAndTheKeyStaysSecret() async throws {
        try await withServer { server, workspace in
            let endpoint = await server.unsplashEndpoint
            let outcome = try await random(
                workspace, endpoint: endpoint, minutes: 0, ["--source", "unsplash"],
                environment: ["UNSPLASH_ACCESS_KEY": Self.key])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            try checkSite(workspace)
            let shown = try state(workspace)
            #expect(shown.delivery == .hotlink && shown.images.allSatisfy { $0.path == nil })
            let html = try page(workspace)
            let base = await server.baseURL
            let src = try #require(html.strings("//img/@src").first)
            #expect(src.hasPrefix("\(base)/unsplash-images/photo-"), "hotlinked, not downloaded")
            #expect(html.strings("//img/@srcset").first?.contains(" 1080w") == true)
            #expect(try workspace.tree("out").keys.allSatisfy { !$0.hasPrefix("images/") })
            let credit = html.strings("//p[@class='credit']//a/@href")
            // The author, Unsplash and the Unsplash License, each with the referral Unsplash's guidelines ask for.
            #expect(credit.count == 3 && credit.allSatisfy { $0.hasSuffix("utm_source=vitrine&utm_medium=referral") })
            #expect(html.strings("//p[@class='credit']").first?.hasPrefix("Photo by ") == true)
            #expect(html.strings("//p[@class='credit']").first?.hasSuffix(" on Unsplash · Unsplash License") == true)
            let pings = server.requests().filter { $0.path == "/unsplash/photos/\(shown.photo.id)/download" }
            #expect(pings.count == 1 && pings[0].headers["authorization"] == "Client-ID \(Self.key)")
            for request in server.requests() {
                #expect(!request.path.contains(Self.key) && !request.query.values.contains(Self.key))
            }
            for (path, bytes) in try workspace.tree("out") {
                #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.key), "\(path)")
            }
            for (path, bytes) in try workspace.tree("cache") {
                #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.key), "\(path)")
            }
            #expect(!outcome.stderr.contains(Self.key) && !outcome.stdout.contains(Self.key))

            let early = try await random(
                workspace, endpoint: endpoint, minutes: 5, ["--source", "unsplash", "--key", Self.key])
            #expect(early.status == 0 && early.stderr.contains("Kept image"))
            #expect(server.requests().filter { $0.path.hasSuffix("/download") }.count == 1, "reported once per photo")

            let rejected = try await random(
                workspace, endpoint: endpoint, minutes: 20, ["--source", "unsplash", "--key", "wrong-key-5555"])
            #expect(rejected.status == 77 && rejected.stderr.contains("Unsplash rejected the API key"))
            #expect(!rejected.stderr.contains("wrong-key-5555"))
            let missing = try await random(workspace, endpoint: endpoint, minutes: 20, ["--source", "unsplash"])
            #expect(missing.status == 77 && missing.stderr.contains("UNSPLASH_ACCESS_KEY"))
        }
    }

    @Test func unsplashsRateLimitKeepsThePreviousPhotoAndJSONReportsIt() async throws {
        // Two requests an hour: the random photo and its download_location; the next update is refused (403).
        try await withServer(unsplashRateLimit: 2) { server, workspace in
            let endpoint = await server.unsplashEndpoint
            let arguments = ["--source", "unsplash", "--key", Self.key, "--json"]
            let first = try await random(workspace, endpoint: endpoint, minutes: 0, arguments)
            #expect(first.status == 0, "\(first.stderr)")
            let shown = try state(workspace)
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: String])
            #expect(report["status"] == "success" && report["outcome"] == "updated")
            #expect(report["photo"] == shown.photo.id && report["nextUpdate"] == "2030-01-01T00:10:00Z")
            let limited = try await random(workspace, endpoint: endpoint, minutes: 10, arguments + ["--strict"])
            #expect(limited.status == 2, "\(limited.stderr)")
            #expect(limited.stderr.contains("Unsplash's rate limit was reached (Rate Limit Exceeded)"))
            let firstLine = try #require(limited.stdout.split(separator: "\n").first)
            let stale = try #require(
                try JSONSerialization.jsonObject(with: Data(firstLine.utf8)) as? [String: String])
            #expect(stale["status"] == "partial" && stale["outcome"] == "stale" && stale["photo"] == shown.photo.id)
            #expect(try state(workspace).photo == shown.photo)
            #expect(try page(workspace).strings("//p[@class='notice']").joined().contains("rate limit"))
            #expect(limited.stdout.split(separator: "\n").count == 1, "one report, not a second failure report")
            #expect(!limited.stdout.contains(Self.key) && !limited.stderr.contains(Self.key))
        }
    }

    @Test func watchKeepsRunningKeepsTheScheduleAcrossRestartsAndStopsCleanly() async throws {
        try await withServer { server, workspace in
            let endpoint = await server.picsumEndpoint
            let arguments = [
                "random", "--watch", "--every", "1h", "--endpoint", endpoint, "--out", workspace.path("out"),
                "--cache", workspace.path("cache"),
            ]
            let first = try VitrineProcess.launch(arguments + Self.at(minutes: 0))
            #expect(await first.stderr.line(containing: "New image") != nil)
            let initial = try state(workspace)
            #expect(initial.nextUpdate == initial.fetchedAt.addingTimeInterval(3_600))
            first.send(SIGTERM)
            let stopped = try await first.wait()
            #expect(stopped.status == 0 && stopped.stderr.contains("Stopped watching (SIGTERM)"), "\(stopped.stderr)")

            let second = try VitrineProcess.launch(arguments + Self.at(minutes: 30))
            #expect(await second.stderr.line(containing: "Kept image") != nil)
            #expect(try state(workspace).photo == initial.photo && infoRequests(server) == 1)
            #expect(try state(workspace).nextUpdate == initial.nextUpdate)
            second.send(SIGINT)
            let interrupted = try await second.wait()
            #expect(interrupted.status == 0 && interrupted.stderr.contains("Stopped watching (interrupted)"))

            let third = try VitrineProcess.launch(arguments + Self.at(minutes: 60 - 3.0 / 60))
            #expect(await third.stderr.line(containing: "New image") != nil)
            #expect(try state(workspace).photo.id != initial.photo.id)
            let replaced = try state(workspace)
            #expect(replaced.fetchedAt >= initial.nextUpdate)
            #expect(replaced.nextUpdate == replaced.fetchedAt.addingTimeInterval(3_600))
            third.send(SIGTERM)
            let last = try await third.wait()
            #expect(last.status == 0 && last.stderr.contains("Kept image") && last.stderr.contains("New image"))
        }
    }

    @Test func badDurationsAndOptionsAreOneSentenceAndExit64() async throws {
        let workspace = try Workspace()
        for (arguments, words) in [
            (["--every", "10"], "--every takes a duration such as 30s"),
            (["--every", "2s"], "from 5 seconds to 30 days"),
            (["--source", "picsum", "--query", "cat"], "--query works with Unsplash only (--provider unsplash)"),
            (["--provider", "picsum", "--query", "cat"], "--query works with Unsplash only"),
            (["--source", "picsum", "--key", "abc"], "--key is for Unsplash"),
        ] {
            let outcome = try await VitrineProcess.run(["random", "--out", workspace.path("out")] + arguments)
            #expect(outcome.status == 64 && outcome.stderr.contains(words), "\(arguments): \(outcome.stderr)")
        }
        for time in ["yesterday", "2026-02-30T00:00:00Z", "2026-01-01T00:00:00+25:00", "0000-01-01T00:00:00Z"] {
            let clock = try await VitrineProcess.run(["random", "--out", workspace.path("out"), "--now", time])
            #expect(clock.status == 64 && clock.stderr.contains("--now must be an ISO 8601 time"), "\(time)")
            #expect(!FileManager.default.fileExists(atPath: workspace.path("out")))
        }
    }

    @Test func theDemoBuildsTheRandomPageFromTheSamplePicsum() async throws {
        let workspace = try Workspace()
        let outcome = try await VitrineProcess.run(
            [
                "demo", "--source", "random", "--port", "0", "--out", workspace.path("out"), "--cache",
                workspace.path("cache"),
            ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        try checkSite(workspace)
        #expect(try state(workspace).source == "picsum")
    }
}
