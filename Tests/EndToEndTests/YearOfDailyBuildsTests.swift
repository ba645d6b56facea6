import Foundation
import SampleAPI
import Synchronization
import Testing
import VitrineTestSupport

@testable import VitrineRender

/// A short year of daily publishing, as bench/year runs a long one: `vitrine build` once a simulated day (`--now`)
/// on one config with history on, the cache and the output kept between days, against a sample API whose results
/// move on by 10 % a day. Every day the cache is within its size, no image is asked for twice (one still in the
/// gallery is never downloaded again), the day asks for its search and its new items' images only, and the site is
/// whole; every few days a rebuild of the day before's output from the same cache gives the same bytes.
@Suite struct YearOfDailyBuildsTests {
    static let key = "year-key-1"
    static let items = 20
    static let newPerDay = 2
    static let days = 12

    /// The config of the year's site, its gallery on `endpoint`.
    static func config(endpoint: String) -> String {
        """
        title = "A year of Hamburg"
        base-url = "https://example.org/year/"
        history = true

        [[gallery]]
        source = "pixabay"
        term = "Hamburg"
        per-page = \(items)
        pages = 1
        endpoint = "\(endpoint)"
        path = "hamburg"
        """
    }

    /// `vitrine build` of day `day` into `out`, with the workspace's cache kept within `maximum` bytes.
    static func build(day: Int, out: String, maximum: Int, in workspace: Workspace) async throws
        -> VitrineProcess.Outcome
    {
        let now = "2031-01-\(String(format: "%02d", day + 1))T06:00:00Z"
        var arguments = [
            "build", "--config", workspace.path("vitrine.toml"), "--out", workspace.path(out), "--cache",
            workspace.path("cache"), "--now", now, "--cache-max-size", "\(maximum)", "--json",
        ]
        if day == 0 { arguments.append("--new-history") }
        return try await VitrineProcess.run(arguments, environment: ["PIXABAY_API_KEY": key])
    }

    @Test func aShortYearKeepsTheCacheWithinItsSizeFetchesOnlyWhatIsNewAndPublishesAWholeSite() async throws {
        let day = Mutex(0)
        var configuration = SampleAPIConfiguration(
            apiKey: Self.key, hitCounts: ["hamburg": Self.items, "hamburg graffiti": Self.items], distinctImages: true,
            rateLimit: 10_000)
        configuration.hitsPerDay = Self.newPerDay
        configuration.day = { day.withLock { $0 } }
        try await withSampleAPI(configuration) { server, workspace in
            try Self.config(endpoint: await server.pixabayEndpoint).write(
                to: workspace.url.appendingPathComponent("vitrine.toml"), atomically: true, encoding: .utf8)
            // Day 0 with room for everything tells the size of one day's gallery; the year then keeps the cache at
            // one and a half times that, so that pruning has to run.
            let first = try await Self.build(day: 0, out: "out", maximum: 1 << 30, in: workspace)
            #expect(first.status == 0, "\(first.stderr)")
            let maximum = CacheSizeTests.cacheBytes(workspace.path("cache")) * 3 / 2
            var asked = Set(server.requests().map(\.path).filter { $0.hasSuffix(".jpg") })
            let imagesADay = asked.count * Self.newPerDay / Self.items
            var entriesRemoved = 0
            for today in 1..<Self.days {
                day.withLock { $0 = today }
                server.resetRequests()
                let rebuild = today % 4 == 0
                if rebuild { try copy(workspace, "out", to: "before") }
                let outcome = try await Self.build(day: today, out: "out", maximum: maximum, in: workspace)
                #expect(outcome.status == 0, "day \(today): \(outcome.stderr)")
                entriesRemoved += try Self.entriesRemoved(outcome)
                let requests = server.requests().map(\.path)
                let images = requests.filter { $0.hasSuffix(".jpg") }
                #expect(requests.filter { $0.hasPrefix("/api") }.count == 2, "day \(today): the two searches")
                #expect(Set(images).isDisjoint(with: asked), "day \(today): an image was asked for again")
                #expect(
                    (1...imagesADay * 2).contains(images.count),
                    "day \(today): \(images.count) images for \(Self.newPerDay) new items")
                asked.formUnion(images)
                let cache = CacheSizeTests.cacheBytes(workspace.path("cache"))
                #expect(cache <= maximum, "day \(today): the cache holds \(cache) bytes of \(maximum)")
                try expectWhole(workspace, "out", day: today)
                if rebuild {
                    try copy(workspace, "before", to: "again")
                    let again = try await Self.build(day: today, out: "again", maximum: maximum, in: workspace)
                    #expect(again.status == 0, "day \(today), rebuilt: \(again.stderr)")
                    #expect(
                        try workspace.tree("again") == workspace.tree("out"),
                        "day \(today): a rebuild from the same cache gives other bytes")
                    for folder in ["before", "again"] {
                        try FileManager.default.removeItem(at: workspace.url.appendingPathComponent(folder))
                    }
                }
            }
            #expect(entriesRemoved > 0, "the year outgrew the cache's size, and pruning kept it within")
        }
    }

    /// How many cache entries the build of a `--json` report removed.
    static func entriesRemoved(_ outcome: VitrineProcess.Outcome) throws -> Int {
        let report = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        let cache = (report?["summary"] as? [String: Any])?["cache"] as? [String: Any]
        return cache?["entriesRemoved"] as? Int ?? 0
    }

    private func copy(_ workspace: Workspace, _ from: String, to: String) throws {
        let target = workspace.url.appendingPathComponent(to)
        try? FileManager.default.removeItem(at: target)
        try FileManager.default.copyItem(at: workspace.url.appendingPathComponent(from), to: target)
    }

    /// No broken local link, and a feed that is XML whose entries have what Atom requires.
    private func expectWhole(_ workspace: Workspace, _ out: String, day: Int) throws {
        let root = workspace.url.appendingPathComponent(out)
        let crawl = try SiteInspector(root: root).crawl()
        #expect(crawl.broken.isEmpty, "day \(day): broken links \(crawl.broken.prefix(3))")
        let feed = try LibXMLDocument.parse([UInt8](Data(contentsOf: root.appendingPathComponent("feed.xml"))))
        #expect(feed.strings("/*[local-name()='feed']/*[local-name()='id']").count == 1, "day \(day): feed.xml")
        let entries = feed.strings("//*[local-name()='entry']/*[local-name()='id']").count
        #expect(entries >= min(day + 1, 25), "day \(day): an entry per snapshot, up to 25")
        for field in ["*[local-name()='title']", "*[local-name()='updated']", "*[local-name()='link']/@href"] {
            #expect(
                feed.strings("//*[local-name()='entry']/\(field)").count >= entries,
                "day \(day): every entry has its \(field)")
        }
    }
}
