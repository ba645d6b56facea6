import Foundation
import SampleAPI
import Testing

/// `--cache-max-size`, `vitrine cache stats` and `vitrine cache prune` against the sample API: the cache stays
/// within its size, a build never loses what it uses, and what was removed is downloaded again when it is needed.
@Suite struct CacheSizeTests {
    static let key = "sample-key"

    /// `vitrine pixabay TERM` into `out` with the workspace's cache.
    func build(
        _ server: SampleAPIServer, _ workspace: Workspace, term: String, out: String, _ extra: [String] = []
    ) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(
            [
                "pixabay", term, "--per-page", "10", "--pages", "2", "--endpoint", await server.pixabayEndpoint,
                "--key", Self.key, "--cache", workspace.path("cache"), "--out", workspace.path(out), "--json",
            ] + extra)
    }

    /// The `summary` of a `--json` report.
    func summary(_ outcome: VitrineProcess.Outcome) throws -> [String: Any] {
        let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return try #require(report?["summary"] as? [String: Any])
    }

    /// The size of the cache's entries: every regular file in its four folders of entries.
    static func cacheBytes(_ root: String) -> Int {
        var total = 0
        for kind in ["responses", "images", "urls", "builds"] {
            let folder = URL(fileURLWithPath: root).appendingPathComponent(kind)
            guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let relative as String in walker where !(relative as NSString).lastPathComponent.hasPrefix(".") {
                let values = try? folder.appendingPathComponent(relative).resourceValues(forKeys: [
                    .isRegularFileKey, .fileSizeKey,
                ])
                if values?.isRegularFile == true { total += values?.fileSize ?? 0 }
            }
        }
        return total
    }

    func imageRequests(_ server: SampleAPIServer) -> Int {
        server.requests().filter { $0.path.hasSuffix(".jpg") }.count
    }

    func isWhole(_ workspace: Workspace, _ out: String) throws -> Bool {
        let crawl = try SiteInspector(root: workspace.url.appendingPathComponent(out)).crawl()
        return crawl.broken.isEmpty && crawl.files.contains { $0.hasPrefix("images/") }
    }

    @Test func aBuildKeepsTheCacheWithinItsSizeAndWhatItRemovedIsDownloadedAgainWhenNeeded() async throws {
        try await withSampleAPI(SampleAPIConfiguration(distinctImages: true)) { server, workspace in
            let first = try await build(server, workspace, term: "Hamburg", out: "hamburg")
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let afterFirst = Self.cacheBytes(workspace.path("cache"))
            let hamburgImages = imageRequests(server)
            #expect(hamburgImages > 0)
            // The default size is far above this: nothing was removed.
            let firstCache = try #require(try summary(first)["cache"] as? [String: Any])
            #expect(firstCache["entriesRemoved"] as? Int == 0 && firstCache["maximumBytes"] as? Int == 1 << 30)

            // A second gallery with room for itself and about half of the first.
            let berlinAlone = try await build(
                server, workspace, term: "Berlin", out: "berlin-probe", ["--cache", workspace.path("probe")])
            #expect(berlinAlone.status == 0, "stderr: \(berlinAlone.stderr)")
            let berlinBytes = Self.cacheBytes(workspace.path("probe"))
            let maximum = berlinBytes + afterFirst / 2
            let downloadsBefore = imageRequests(server)
            let second = try await build(
                server, workspace, term: "Berlin", out: "berlin", ["--cache-max-size", "\(maximum)"])
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(!second.stderr.contains("over its size"))
            let secondCache = try #require(try summary(second)["cache"] as? [String: Any])
            #expect((secondCache["entriesRemoved"] as? Int ?? 0) > 0, "\(second.stdout) \(maximum) \(afterFirst)")
            #expect(Self.cacheBytes(workspace.path("cache")) <= maximum)
            #expect(secondCache["bytesAfter"] as? Int == Self.cacheBytes(workspace.path("cache")))
            let berlinDownloads = imageRequests(server) - downloadsBefore

            // Hamburg again: only its removed images are downloaded, and its site is whole.
            let beforeHamburg = imageRequests(server)
            let third = try await build(
                server, workspace, term: "Hamburg", out: "hamburg", ["--cache-max-size", "\(maximum)", "--refresh"])
            #expect(third.status == 0, "stderr: \(third.stderr)")
            let again = imageRequests(server) - beforeHamburg
            #expect(again > 0 && again < hamburgImages)
            #expect(try summary(third)["imagesDownloaded"] as? Int == again)
            #expect(try isWhole(workspace, "hamburg"))
            #expect(Self.cacheBytes(workspace.path("cache")) <= maximum)

            // Berlin, its output kept, asks for nothing it used: at most what Hamburg's build just removed.
            let beforeBerlin = imageRequests(server)
            let fourth = try await build(
                server, workspace, term: "Berlin", out: "berlin", ["--cache-max-size", "\(maximum)"])
            #expect(fourth.status == 0, "stderr: \(fourth.stderr)")
            #expect(imageRequests(server) - beforeBerlin <= berlinDownloads)
            #expect(try isWhole(workspace, "berlin"))
        }
    }

    @Test func aBuildThatAloneIsOverTheSizeKeepsAllItUsedAndWarnsOnce() async throws {
        try await withSampleAPI(SampleAPIConfiguration(distinctImages: true)) { server, workspace in
            let first = try await build(server, workspace, term: "Hamburg", out: "hamburg")
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let second = try await build(server, workspace, term: "Berlin", out: "berlin", ["--cache-max-size", "1K"])
            #expect(second.status == 0, "stderr: \(second.stderr)")
            let warnings = second.stderr.split(separator: "\n").filter { $0.contains("over its size") }
            #expect(warnings.count == 1, "stderr: \(second.stderr)")
            #expect(warnings.first?.contains("over its size of 1.0 KiB") == true)
            let cache = try #require(try summary(second)["cache"] as? [String: Any])
            #expect(cache["bytesAfter"] as? Int == cache["bytesUsed"] as? Int)
            #expect(Self.cacheBytes(workspace.path("cache")) == cache["bytesUsed"] as? Int)
            // Up to date, and nothing it used is gone: no request at all.
            let requests = server.requests().count
            let third = try await build(server, workspace, term: "Berlin", out: "berlin", ["--cache-max-size", "1K"])
            #expect(third.status == 0, "stderr: \(third.stderr)")
            #expect(server.requests().count == requests)
            #expect(try summary(third)["upToDate"] as? Bool == true)
            #expect(try isWhole(workspace, "berlin"))
        }
    }

    @Test func theSizeComesFromTheFlagOrTheConfigAndABadOneIsRefused() async throws {
        try await withSampleAPI(SampleAPIConfiguration()) { server, workspace in
            for bad in ["0", "-1", "12X", "1.5G"] {
                let outcome = try await build(
                    server, workspace, term: "Hamburg", out: "out", ["--cache-max-size", bad])
                #expect(outcome.status == 64, "\(bad): \(outcome.stderr)")
            }
            let config = workspace.path("vitrine.toml")
            let site = await server.siteGalleries(pages: 1)
            try "title = \"x\"\ncache-max-size = \"2K\"\n\(site)".write(
                toFile: config, atomically: true, encoding: .utf8)
            let outcome = try await VitrineProcess.run(
                [
                    "build", "--config", config, "--cache", workspace.path("cache"), "--out", workspace.path("site"),
                    "--json",
                ],
                environment: ["PIXABAY_API_KEY": Self.key])
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let cache = try #require(try summary(outcome)["cache"] as? [String: Any])
            #expect(cache["maximumBytes"] as? Int == 2048)
            let flag = try await VitrineProcess.run(
                [
                    "build", "--config", config, "--cache", workspace.path("cache"), "--out", workspace.path("site"),
                    "--json", "--cache-max-size", "3M",
                ], environment: ["PIXABAY_API_KEY": Self.key])
            #expect(try #require(try summary(flag)["cache"] as? [String: Any])["maximumBytes"] as? Int == 3 << 20)
            try "title = \"x\"\ncache-max-size = \"lots\"\n\(site)".write(
                toFile: config, atomically: true, encoding: .utf8)
            let refused = try await VitrineProcess.run(
                ["build", "--config", config, "--cache", workspace.path("cache"), "--out", workspace.path("site")],
                environment: ["PIXABAY_API_KEY": Self.key])
            #expect(refused.status == 64 && refused.stderr.contains("cache-max-size"), "stderr: \(refused.stderr)")
        }
    }
}
