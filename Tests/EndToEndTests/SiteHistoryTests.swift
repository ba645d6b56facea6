import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrinePublish
@testable import VitrineRender

/// A site published on a schedule with `history = true`, as a CI job does it: every build on a fresh runner (empty
/// cache and output), its history taken from the previous publish, which `vitrine serve` hosts at the base URL.
@Suite(.serialized) struct SiteHistoryTests {
    static let key = "history-key-5"
    static let epoch = 1_790_000_000

    /// A day's build: the sample API's "Hamburg" search has `hits` results.
    struct Publish {
        var outcome: VitrineProcess.Outcome
        var site: SiteInspector
        var history: SiteHistory
        var folder: String
    }

    /// Builds the site on day `day` into a fresh folder with a fresh cache, against a sample API whose search has
    /// `hits` results.
    func publish(
        day: Int, hits: Int, baseURL: String, in workspace: Workspace, extra: [String] = [], name: String? = nil,
        server given: SampleAPIServer? = nil, keep: String? = nil
    ) async throws -> Publish {
        let server = given ?? Self.server(hits: hits)
        if given == nil { try await server.start() }
        let folder = name ?? "day-\(day)"
        let outcome: VitrineProcess.Outcome
        do {
            let config = """
                title = "Snapshots"
                base-url = "\(baseURL)"
                history = true

                [[gallery]]
                source = "pixabay"
                term = "Hamburg"
                per-page = 10
                endpoint = "\(await server.pixabayEndpoint)"
                \(keep.map { "keep = \"\($0)\"" } ?? "")

                """
            try config.write(toFile: workspace.path("\(folder).toml"), atomically: true, encoding: .utf8)
            outcome = try await VitrineProcess.run(
                [
                    "build", "--config", workspace.path("\(folder).toml"), "--cache", workspace.path("\(folder)-cache"),
                    "--out", workspace.path(folder),
                ] + extra,
                environment: ["PIXABAY_API_KEY": Self.key, "SOURCE_DATE_EPOCH": String(Self.epoch + day * 86_400)])
        } catch {
            if given == nil { await server.stop() }
            throw error
        }
        if given == nil { await server.stop() }
        let root = workspace.url.appendingPathComponent(folder)
        let bytes = (try? Data(contentsOf: root.appendingPathComponent("history.json"))).map { [UInt8]($0) } ?? []
        return Publish(
            outcome: outcome, site: SiteInspector(root: root),
            history: (try? SiteHistory.decode(bytes, file: "history.json")) ?? .empty, folder: folder)
    }

    static func server(hits: Int) -> SampleAPIServer {
        SampleAPIServer(
            configuration: SampleAPIConfiguration(
                apiKey: Self.key, hitCounts: ["hamburg": hits, "hamburg graffiti": hits]))
    }

    /// The static host the site is published to: `vitrine serve` on an empty `public/`, and its base URL.
    func startHost(in workspace: Workspace) async throws -> (VitrineProcess.Running, String) {
        try FileManager.default.createDirectory(atPath: workspace.path("public"), withIntermediateDirectories: true)
        let host = try await VitrineProcess.serve(workspace.path("public"))
        return (host.running, host.url.hasSuffix("/") ? host.url : host.url + "/")
    }

    /// Replaces what the static host serves with `folder`, as a deploy step does.
    func deploy(_ folder: String, to host: String, in workspace: Workspace) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: workspace.path(host)) {
            try manager.removeItem(atPath: workspace.path(host + "/" + name))
        }
        for name in try manager.contentsOfDirectory(atPath: workspace.path(folder)) {
            try manager.copyItem(atPath: workspace.path(folder + "/" + name), toPath: workspace.path(host + "/" + name))
        }
    }

    func ids(_ publish: Publish) -> [String] {
        publish.history.galleries.first { $0.path == "hamburg/" }?.items.filter(\.current).map(\.id) ?? []
    }

    func feedEntries(_ publish: Publish) throws -> [String] {
        let feed = try LibXMLDocument.parse(
            [UInt8](Data(contentsOf: publish.site.root.appendingPathComponent("feed.xml"))))
        return feed.strings("//*[local-name()='entry']/*[local-name()='id']")
    }

    @Test func fourScheduledPublishesRecordWhatCameLeftAndCameBack() async throws {
        let workspace = try Workspace()
        let (host, base) = try await startHost(in: workspace)
        defer { host.send(SIGTERM) }

        // Day 1: nothing published yet (the host answers 404), so a new history starts, with a warning.
        let first = try await publish(day: 1, hits: 5, baseURL: base, in: workspace, keep: "all")
        #expect(first.outcome.status == 0, "\(first.outcome.stderr)")
        #expect(first.outcome.stderr.contains("Starting a new history"))
        #expect(first.history.snapshots.map(\.number) == [1])
        #expect(first.history.snapshots[0].time == "2026-09-22T14:13:20Z")
        #expect(ids(first).count == 5)
        try deploy(first.folder, to: "public", in: workspace)

        // Day 2: two more results.
        let second = try await publish(day: 2, hits: 7, baseURL: base, in: workspace, keep: "all")
        #expect(second.outcome.status == 0, "\(second.outcome.stderr)")
        #expect(!second.outcome.stderr.contains("Starting a new history"))
        #expect(second.history.snapshots.map(\.number) == [1, 2])
        #expect(Array(ids(second).prefix(5)) == ids(first))
        #expect(
            second.history.snapshots[1].galleries == [
                .init(path: "hamburg/", added: Array(ids(second)[5...]), removed: [])
            ])
        try deploy(second.folder, to: "public", in: workspace)

        // Day 3: four of them gone.
        let third = try await publish(day: 3, hits: 3, baseURL: base, in: workspace, keep: "all")
        #expect(third.outcome.status == 0, "\(third.outcome.stderr)")
        #expect(
            third.history.snapshots.last?.galleries == [
                .init(path: "hamburg/", added: [], removed: Array(ids(second)[3...]))
            ])
        // With keep = "all" the four stay browsable in the archive, last seen in snapshot 2, their images from the
        // previous publish.
        let archive = try third.site.page("hamburg/archive.html")
        #expect(archive.strings("//main//li[@class='tile']//img/@src").count == 4)
        #expect(Set(archive.strings("//main//li[@class='tile']//time/@datetime")) == ["2026-09-23T14:13:20Z"])
        #expect(try third.site.crawl().broken == [])
        try deploy(third.folder, to: "public", in: workspace)

        // Day 4: they are back.
        let fourth = try await publish(day: 4, hits: 7, baseURL: base, in: workspace, keep: "all")
        #expect(fourth.outcome.status == 0, "\(fourth.outcome.stderr)")
        #expect(fourth.history.snapshots.map(\.number) == [1, 2, 3, 4])
        #expect(
            fourth.history.snapshots[3].galleries == [
                .init(path: "hamburg/", added: Array(ids(second)[3...]), removed: [])
            ])
        #expect(
            !FileManager.default.fileExists(
                atPath: fourth.site.root.appendingPathComponent("hamburg/archive.html").path))
        let items = try #require(fourth.history.galleries.first?.items)
        #expect(items.map(\.id) == ids(second))
        #expect(items.map(\.firstSeen) == [1, 1, 1, 1, 1, 2, 2])
        #expect(items.allSatisfy { $0.current && $0.lastSeen == 4 })

        // The gallery's "What's new" page: newest first, the tiles of what each snapshot added and is still there.
        let crawl = try fourth.site.crawl()
        #expect(crawl.broken == [])
        #expect(crawl.pages.isSuperset(of: ["changes.html", "hamburg/changes.html"]))
        let changes = try fourth.site.page("hamburg/changes.html")
        #expect(changes.strings("//main//section/@id") == ["snapshot-4", "snapshot-3", "snapshot-2", "snapshot-1"])
        #expect(changes.strings("//section[@id='snapshot-4']//li[@class='tile']").count == 4)
        #expect(changes.strings("//section[@id='snapshot-3']//li[@class='tile']").isEmpty)
        #expect(changes.strings("//section[@id='snapshot-3']/p[@class='count']") == ["0 new images, 4 gone"])
        #expect(changes.strings("//section[@id='snapshot-1']//li[@class='tile']").count == 5)
        #expect(changes.strings("//section[@id='snapshot-2']//time/@datetime") == ["2026-09-23T14:13:20Z"])
        #expect(changes.strings("//section//a[@class='frame']/@href").allSatisfy { $0.hasPrefix("../hamburg/items/") })
        // Linked from the grid pages and the home page.
        #expect(
            try fourth.site.page("hamburg/index.html").strings("//a[@class='changes']/@href") == [
                "../hamburg/changes.html"
            ])
        #expect(try fourth.site.page("index.html").strings("//a[@class='changes']/@href") == ["changes.html"])
        let siteChanges = try fourth.site.page("changes.html")
        #expect(siteChanges.strings("//main//section/@id") == ["snapshot-4", "snapshot-3", "snapshot-2", "snapshot-1"])
        #expect(siteChanges.strings("//section[@id='snapshot-2']//h3/a/@href") == ["hamburg/changes.html"])

        // The feed: an entry per gallery, then one per snapshot, with stable ids and the new items' tiles.
        let entries = try feedEntries(fourth)
        #expect(
            entries == [base + "hamburg/index.html"] + [4, 3, 2, 1].map { base + "changes.html#snapshot-\($0)" })
        #expect(Array(try feedEntries(third).suffix(3)) == Array(entries.suffix(3)))
        let feed = try LibXMLDocument.parse(
            [UInt8](Data(contentsOf: fourth.site.root.appendingPathComponent("feed.xml"))))
        #expect(
            feed.strings(
                "//*[local-name()='entry'][*[local-name()='id']='\(base)changes.html#snapshot-4']//*[local-name()='img']/@src"
            )
            .count == 4)

        // The manifest lists the history; the model documents hold the snapshots.
        let manifest = try #require(OutputManifest.read(in: fourth.site.root))
        #expect(manifest.files.contains { $0.path == "history.json" })
        let model = try LibXMLDocument.parse(
            [UInt8](Data(contentsOf: fourth.site.root.appendingPathComponent("hamburg/gallery.xml"))))
        #expect(model.strings("/gallery/history/snapshot/@number") == ["4", "3", "2", "1"])
    }

    @Test func theSameInputsAndTimeGiveTheSameBytesAndANoChangeBuildWritesNothing() async throws {
        let workspace = try Workspace()
        let base = "https://example.org/snapshots/"
        try FileManager.default.createDirectory(atPath: workspace.path("previous"), withIntermediateDirectories: true)
        let server = Self.server(hits: 4)
        try await server.start()
        let first: Publish
        do {
            first = try await publish(
                day: 1, hits: 4, baseURL: base, in: workspace, extra: ["--history-from", workspace.path("previous")],
                server: server)
            #expect(first.outcome.status == 0, "\(first.outcome.stderr)")
            #expect(first.outcome.stderr.contains("Starting a new history: there is no history at"))
            let again = try await publish(
                day: 1, hits: 4, baseURL: base, in: workspace,
                extra: ["--history-from", workspace.path("previous")], name: "day-1-again", server: server)
            #expect(try workspace.tree(first.folder) == workspace.tree(again.folder))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()

        // The next day, the same results from the previous publish's folder: no snapshot, the same history.
        let next = try await publish(
            day: 2, hits: 4, baseURL: base, in: workspace,
            extra: ["--history-from", workspace.path(first.folder)])
        #expect(next.outcome.status == 0, "\(next.outcome.stderr)")
        #expect(next.history == first.history)
        #expect(
            try workspace.tree(next.folder)["history.json"] == workspace.tree(first.folder)["history.json"])

        // Built again in place with the same results: nothing is written.
        let stamp = try FileManager.default.attributesOfItem(atPath: workspace.path(first.folder + "/history.json"))
        let rebuilt = try await VitrineProcess.run(
            [
                "build", "--config", workspace.path("day-1.toml"), "--cache", workspace.path("day-1-cache"), "--out",
                workspace.path(first.folder),
            ],
            environment: ["PIXABAY_API_KEY": Self.key, "SOURCE_DATE_EPOCH": String(Self.epoch + 86_400)])
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(rebuilt.stderr.contains("Up to date"), "\(rebuilt.stderr)")
        let after = try FileManager.default.attributesOfItem(atPath: workspace.path(first.folder + "/history.json"))
        #expect(after[.modificationDate] as? Date == stamp[.modificationDate] as? Date)
        #expect(after[.systemFileNumber] as? Int == stamp[.systemFileNumber] as? Int)
    }

    @Test(arguments: [
        ("{\"format\":", "it is not a Vitrine history"),
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"2026-01-01T00:00:00Z","galleries":[{"path":"../../","added":["<script>"],"removed":[]}]}],"galleries":[]}"#,
            "names the folder"
        ),
        // A snapshot dated far past the build's clock would stamp every later snapshot with its time.
        (
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"9999-12-31T00:00:00Z","galleries":[]}],"galleries":[]}"#,
            "snapshot 1 is dated 9999-12-31T00:00:00Z, more than a day past this build's clock"
        ),
    ])
    func aDamagedOrHostileHistoryStopsTheBuildInOneSentence(text: String, expected: String) async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("previous"), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: workspace.path("previous/history.json")))
        let outcome = try await publish(
            day: 1, hits: 3, baseURL: "https://example.org/", in: workspace,
            extra: ["--history-from", workspace.path("previous/history.json")]
        ).outcome
        #expect(outcome.status != 0)
        let lines = outcome.stderr.split(separator: "\n").filter { $0.hasPrefix("vitrine: ") }
        #expect(lines.count == 1, "\(outcome.stderr)")
        #expect(lines.first?.contains("The history \(workspace.path("previous/history.json")) cannot be used") == true)
        #expect(lines.first?.contains(expected) == true, "\(outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("day-1/index.html")))
    }

    /// Clocks of the machines that take turns publishing a site differ by seconds: a snapshot a little ahead of this
    /// build's clock is taken, and the build's own snapshot is dated no earlier than it.
    @Test func aSnapshotSecondsAheadOfTheBuildsClockIsTakenAndTimeStaysInOrder() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(atPath: workspace.path("previous"), withIntermediateDirectories: true)
        let ahead = UTCTime.rfc3339(Date().addingTimeInterval(30))
        let text =
            #"{"format":"vitrine-history","version":1,"snapshots":[{"number":1,"time":"\#(ahead)","galleries":[]}],"#
            + #""galleries":[]}"#
        try Data(text.utf8).write(to: URL(fileURLWithPath: workspace.path("previous/history.json")))
        let publish = try await publish(
            day: 1, hits: 3, baseURL: "https://example.org/", in: workspace,
            extra: ["--history-from", workspace.path("previous/history.json")])
        #expect(publish.outcome.status == 0, "\(publish.outcome.stderr)")
        #expect(publish.history.snapshots.map(\.time) == [ahead, ahead])
    }

    @Test func aPreviousPublishThatCannotBeReachedStopsTheBuildRatherThanStartTheHistoryOver() async throws {
        let workspace = try Workspace()
        // Nothing listens on port 9 of loopback: the connection is refused.
        let unreachable = try await publish(
            day: 1, hits: 3, baseURL: "http://127.0.0.1:9/", in: workspace)
        #expect(unreachable.outcome.status == 69, "\(unreachable.outcome.stderr)")
        #expect(
            unreachable.outcome.stderr.contains(
                "The previous history at http://127.0.0.1:9/history.json could not be read"))
        #expect(!FileManager.default.fileExists(atPath: workspace.path("day-1/history.json")))

        // A history.json that is a link is not followed.
        try Data(SiteHistory.empty.encoded()).write(to: URL(fileURLWithPath: workspace.path("elsewhere.json")))
        try FileManager.default.createDirectory(atPath: workspace.path("linked"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: workspace.path("linked/history.json"), withDestinationPath: workspace.path("elsewhere.json"))
        let linked = try await publish(
            day: 1, hits: 3, baseURL: "http://127.0.0.1:9/", in: workspace,
            extra: ["--history-from", workspace.path("linked")], name: "day-1-linked")
        #expect(linked.outcome.status == 65, "\(linked.outcome.stderr)")
        #expect(linked.outcome.stderr.contains("history.json cannot be used: it is not a regular file"))
    }

    /// Issue 24, item 3: a previous publish whose `history.json` trickles in without end held the build forever;
    /// the transfer time limit ends it, naming the history's URL (exit 69, nothing written).
    @Test func aHistoryURLThatNeverFinishesRunsOutOfTime() async throws {
        let workspace = try Workspace()
        let trickling = SampleAPIServer(
            configuration: .init(faults: [SampleAPIFault(.trickle(bytesPerSecond: 300), on: .all)]))
        try await trickling.start()
        let base = await trickling.baseURL + "/"
        let publish = try await publish(
            day: 1, hits: 3, baseURL: base, in: workspace, extra: ["--transfer-timeout", "3", "--deadline", "90"])
        await trickling.stop()
        #expect(publish.outcome.status == 69, "\(publish.outcome.stderr)")
        #expect(
            publish.outcome.stderr.contains(
                "The previous history at \(base)history.json could not be read (Gave up on \(base)history.json: it had "
                    + "not finished after 3 s"), "\(publish.outcome.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.path("day-1")))
    }

    @Test func keepAllLeavesTheItemsThatLeftBrowsableWithImagesFromThePreviousPublish() async throws {
        let workspace = try Workspace()
        let (host, base) = try await startHost(in: workspace)
        defer { host.send(SIGTERM) }

        let first = try await publish(day: 1, hits: 5, baseURL: base, in: workspace, keep: "all")
        #expect(first.outcome.status == 0, "\(first.outcome.stderr)")
        let records = (first.history.galleries.first?.items ?? []).compactMap { $0.record }
        #expect(records.count == 5)
        #expect(records.allSatisfy { $0.entries.count == 2 && $0.entries.allSatisfy { $0.credit?.url != nil } })
        try deploy(first.folder, to: "public", in: workspace)

        // Two results leave. The runner is new (empty cache and output) and the API of day 1 is gone: the images
        // of the archive can only come from the previous publish.
        let second = try await publish(day: 2, hits: 3, baseURL: base, in: workspace, keep: "all")
        #expect(second.outcome.status == 0, "\(second.outcome.stderr)")
        #expect(!second.outcome.stderr.contains("could not be found"), "\(second.outcome.stderr)")
        let crawl = try second.site.crawl()
        #expect(crawl.broken == [])
        let archive = try second.site.page("hamburg/archive.html")
        #expect(archive.strings("//main//li[@class='tile']").count == 2)
        #expect(
            archive.strings("//main//li[@class='tile']//time/@datetime") == ["2026-09-22T14:13:20Z"] + [
                "2026-09-22T14:13:20Z"
            ])
        #expect(archive.strings("//main//li[@class='tile']//span[@class='credit']/a[1]/@href").count == 2)
        let images = archive.strings("//main//li[@class='tile']//img/@src").map {
            $0.replacingOccurrences(of: "../", with: "")
        }
        #expect(images.count == 2)
        let expected = Set(
            first.history.galleries[0].items.suffix(2).compactMap(\.record).flatMap {
                $0.entries.compactMap(\.tile.sha256)
            })
        for image in images {
            let bytes = try Data(contentsOf: second.site.root.appendingPathComponent(image))
            #expect(expected.contains(SHA256Hasher.hex(of: bytes)), "\(image)")
        }
        let previews = archive.strings("//main//a[@class='frame']/@href")
        #expect(previews.allSatisfy { $0.hasPrefix("../hamburg/items/archived-") })
        let preview = try second.site.page(String(try #require(previews.first).dropFirst(3)))
        #expect(preview.strings("//*[@class='seen']/time/@datetime") == ["2026-09-22T14:13:20Z"])
        // The archived item keeps its credit in words: the author, the picture's page and its license.
        #expect(preview.strings("//p[@class='credit']/a/@href").count == 2)
        #expect(preview.strings("//p[@class='credit']//span[@class='license']") == ["Pixabay License"])
        // Every page links the archive without a count (which would change them all when an item leaves); the
        // archive's own page counts its items.
        #expect(
            try second.site.page("hamburg/index.html").strings("//a[@class='archive']") == ["No longer in the results"])
        #expect(archive.strings("//main//p[@class='count']") == ["2 images"])
        #expect(
            try second.site.page("index.html").strings("//main//span[@class='credit']").first?.hasPrefix("3 images")
                == true)
        let model = try LibXMLDocument.parse(
            [UInt8](Data(contentsOf: second.site.root.appendingPathComponent("hamburg/gallery.xml"))))
        #expect(model.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
        #expect(model.strings("/gallery/collection[@id='c-archive']/item/@last-seen").count == 2)
        try deploy(second.folder, to: "public", in: workspace)

        // They come back: the archive is empty again, and no page links to it.
        let third = try await publish(day: 3, hits: 5, baseURL: base, in: workspace, keep: "all")
        #expect(third.outcome.status == 0, "\(third.outcome.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: third.site.root.appendingPathComponent("hamburg/archive.html").path)
        )
        #expect(try third.site.page("hamburg/index.html").strings("//a[@class='archive']").isEmpty)
        #expect(try third.site.crawl().broken == [])
    }

    /// Issue 24, item 11: the image URLs of a previous `history.json` were downloaded from any host, this machine's
    /// other ports and private addresses included. Only the hosts the gallery's source uses are asked: here the
    /// sample API's own origin (it is on loopback, so loopback is allowed at that port alone), never another port,
    /// a private address or another host.
    @Test func archivedImagesAreDownloadedOnlyFromHostsTheGallerysSourceUses() async throws {
        let workspace = try Workspace()
        let (host, base) = try await startHost(in: workspace)
        defer { host.send(SIGTERM) }
        let decoy = SampleAPIServer()
        try await decoy.start()
        let yesterday = Self.server(hits: 5)
        try await yesterday.start()
        let port = await yesterday.port
        let first = try await publish(day: 1, hits: 5, baseURL: base, in: workspace, server: yesterday, keep: "all")
        await yesterday.stop()
        #expect(first.outcome.status == 0, "\(first.outcome.stderr)")

        // The previous history alone (none of its images beside it), the first of the two items that will leave
        // as recorded, the second's images moved to another loopback port, a private address and another host.
        var history = first.history
        let items = history.galleries[0].items.indices.suffix(2)
        let kept = try #require(history.galleries[0].items[items.first!].record?.entries.first?.tile.url)
        let decoyBase = await decoy.baseURL
        let elsewhere = [
            "\(decoyBase)/get/1-city01_640.jpg", "http://10.255.255.1/x.jpg", "http://elsewhere.invalid/x.jpg",
        ]
        var moved = 0
        for entry in history.galleries[0].items[items.last!].record!.entries.indices {
            history.galleries[0].items[items.last!].record!.entries[entry].tile.url = elsewhere[moved % 3]
            history.galleries[0].items[items.last!].record!.entries[entry].full.url = elsewhere[(moved + 1) % 3]
            moved += 2
        }
        try FileManager.default.createDirectory(atPath: workspace.path("previous"), withIntermediateDirectories: true)
        try Data(history.encoded()).write(to: URL(fileURLWithPath: workspace.path("previous/history.json")))

        let today = Self.server(hits: 3)
        try await today.start(port: port)
        let second = try await publish(
            day: 2, hits: 3, baseURL: base, in: workspace,
            extra: ["--history-from", workspace.path("previous/history.json"), "--connect-timeout", "2"],
            server: today, keep: "all")
        let asked = today.requests().map(\.path)
        await today.stop()
        await decoy.stop()
        #expect(second.outcome.status == 0, "\(second.outcome.stderr)")
        #expect(decoy.requests().isEmpty, "\(decoy.requests().map(\.path))")
        #expect(asked.contains(try #require(URLComponents(string: kept)?.path)), "the source's own host is asked")
        #expect(
            second.outcome.stderr.contains(
                "3 image URLs of items no longer in the results of hamburg/ were not downloaded, as the gallery's "
                    + "source does not use their hosts"), "\(second.outcome.stderr)")
        let archive = try second.site.page("hamburg/archive.html")
        #expect(archive.strings("//main//li[@class='tile']").count == 2)
        #expect(try second.site.crawl().broken == [])
    }

    @Test func aHistoryAStoppedRunWroteIsNotTakenForTheLastFinishedBuilds() async throws {
        let workspace = try Workspace()
        let server = Self.server(hits: 4)
        try await server.start()
        do {
            let base = "https://example.org/"
            let empty = ["--history-from", workspace.path("none")]
            let first = try await publish(day: 1, hits: 4, baseURL: base, in: workspace, extra: empty, server: server)
            #expect(first.outcome.status == 0, "\(first.outcome.stderr)")
            let out = first.site.root
            let finished = try Data(contentsOf: out.appendingPathComponent("history.json"))
            // What a run stopped after it replaced history.json leaves: its own history (a snapshot more), the copy
            // of the finished one it kept aside, and its journal.
            let (stopped, _) = first.history.recording(
                [("hamburg/", ["x", "y"])], at: Date(timeIntervalSince1970: Double(Self.epoch + 5 * 86_400)))
            try finished.write(to: out.appendingPathComponent(".vitrine-history-previous.json"))
            try Data(stopped.encoded()).write(to: out.appendingPathComponent("history.json"))
            try Data("vitrine-journal 1\n".utf8).write(to: out.appendingPathComponent(".vitrine-journal"))

            let rerun = try await publish(
                day: 1, hits: 4, baseURL: base, in: workspace, extra: empty, name: first.folder, server: server)
            #expect(rerun.outcome.status == 0, "\(rerun.outcome.stderr)")
            #expect(try Data(contentsOf: out.appendingPathComponent("history.json")) == finished)
            #expect(
                !FileManager.default.fileExists(
                    atPath: out.appendingPathComponent(".vitrine-history-previous.json").path))

            // A history.json changed by hand since the last build is not taken for it.
            try Data(stopped.encoded()).write(to: out.appendingPathComponent("history.json"))
            let edited = try await publish(
                day: 2, hits: 4, baseURL: base, in: workspace, extra: empty, name: first.folder, server: server)
            #expect(edited.outcome.status == 65, "\(edited.outcome.stderr)")
            #expect(edited.outcome.stderr.contains("it is not the history the last build wrote"))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func aGalleryOfItsOwnKeepsItsHistoryWithTheHistoryFlag() async throws {
        let workspace = try Workspace()
        let server = Self.server(hits: 3)
        try await server.start()
        do {
            let endpoint = await server.pixabayEndpoint
            let command = [
                "pixabay", "Hamburg", "--endpoint", endpoint, "--key", Self.key, "--out", workspace.path("out"),
                "--cache", workspace.path("cache"), "--history",
            ]
            let outcome = try await VitrineProcess.run(
                command, environment: ["SOURCE_DATE_EPOCH": String(Self.epoch)])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("Starting a new history: the output folder has no history.json"))
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            #expect(try site.page("index.html").strings("//a[@class='changes']/@href") == ["changes.html"])
            #expect(try site.page("changes.html").strings("//main//section/@id") == ["snapshot-1"])
            let history = try SiteHistory.decode(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("history.json"))), file: "history.json")
            #expect(history.galleries.map(\.path) == [""])
            #expect(history.galleries[0].items.count == 3)
            #expect(try site.crawl().broken == [])
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// A history of `count` snapshots of `path` whose newest adds `current`, as a site running for months has it.
    static func longHistory(_ count: Int, path: String, current: [String]) -> SiteHistory {
        let snapshots = (1...count).map { number in
            SiteHistory.Snapshot(
                number: number,
                time: UTCTime.rfc3339(Date(timeIntervalSince1970: Double(epoch - (count + 1 - number) * 3_600))),
                galleries: [
                    .init(
                        path: path, added: number == count ? current : ["old-\(number)"],
                        removed: number == 1 ? [] : ["old-\(number - 1)"])
                ])
        }
        let items = current.map { SiteHistory.Item(id: $0, firstSeen: count, lastSeen: count, current: true) }
        return SiteHistory(
            format: SiteHistory.formatName, version: SiteHistory.currentVersion, snapshots: snapshots,
            galleries: [.init(path: path, items: items)])
    }

    /// An item that leaves a gallery that keeps every item, built in place: of the archive's files only its newest
    /// page and the previews of the new item and its newer neighbour are written (the others would change if a page
    /// counted the archive), and every page equals a clean build's from the same previous publish.
    @Test func anItemThatLeavesRewritesOnlyTheArchivesNewestPageAndItsNeighbours() async throws {
        let workspace = try Workspace()
        let base = "https://example.org/snapshots/"
        try FileManager.default.createDirectory(atPath: workspace.path("previous"), withIntermediateDirectories: true)
        let first = try await publish(
            day: 1, hits: 10, baseURL: base, in: workspace, extra: ["--history-from", workspace.path("previous")],
            name: "site", keep: "all")
        #expect(first.outcome.status == 0, "\(first.outcome.stderr)")
        // Five leave.
        let second = try await publish(day: 2, hits: 5, baseURL: base, in: workspace, name: "site", keep: "all")
        #expect(second.outcome.status == 0, "\(second.outcome.stderr)")
        let site = second.site
        let newest = try site.page("hamburg/archive.html")
        #expect(newest.strings("//main//li[@class='tile']").count == 5)
        let neighbour = try #require(newest.strings("//main//a[@class='frame']/@href").first).dropFirst(3)
        try FileManager.default.copyItem(atPath: workspace.path("site"), toPath: workspace.path("site-day-2"))

        func archiveFiles() throws -> [String: Date] {
            let folder = site.root.appendingPathComponent("hamburg")
            var found: [String: Date] = [:]
            for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path)
            where path.hasPrefix("archive") || path.hasPrefix("items/archived-") {
                found["hamburg/" + path] =
                    try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[
                        .modificationDate] as? Date
            }
            return found
        }
        let before = try archiveFiles()
        let third = try await publish(day: 3, hits: 4, baseURL: base, in: workspace, name: "site", keep: "all")
        #expect(third.outcome.status == 0, "\(third.outcome.stderr)")
        let after = try archiveFiles()
        let rewritten = Set(before.keys.filter { before[$0] != after[$0] })
        let neighbours = ["original", "graffiti"].map {
            String(neighbour).replacingOccurrences(of: "-original.html", with: "-\($0).html")
        }
        #expect(rewritten == Set(["hamburg/archive.html"] + neighbours))
        #expect(Set(after.keys).subtracting(before.keys).count == 2)
        #expect(try site.page("hamburg/archive.html").strings("//main//li[@class='tile']").count == 6)

        // A clean build from the same previous publish writes the same archive (the other pages name the sample
        // API's port, which each publish picks anew).
        let clean = try await publish(
            day: 3, hits: 4, baseURL: base, in: workspace, extra: ["--history-from", workspace.path("site-day-2")],
            name: "clean", keep: "all")
        #expect(clean.outcome.status == 0, "\(clean.outcome.stderr)")
        for path in after.keys {
            #expect(
                FileManager.default.contentsEqual(
                    atPath: clean.site.root.appendingPathComponent(path).path,
                    andPath: site.root.appendingPathComponent(path).path), "\(path)")
        }
        #expect(try site.crawl().broken == [])
    }

    @Test func aLongHistoryIsSplitIntoPagesOf25NewestFirstAndANewSnapshotRewritesOnlyTheNewest() async throws {
        let workspace = try Workspace()
        let base = "https://example.org/snapshots/"
        try FileManager.default.createDirectory(atPath: workspace.path("previous"), withIntermediateDirectories: true)
        let first = try await publish(
            day: 1, hits: 4, baseURL: base, in: workspace, extra: ["--history-from", workspace.path("previous")],
            name: "first")
        #expect(first.outcome.status == 0, "\(first.outcome.stderr)")
        let path = try #require(first.history.galleries.first?.path)
        let seeded = Self.longHistory(60, path: path, current: ids(first))
        try Data(seeded.encoded()).write(to: workspace.url.appendingPathComponent("seeded.json"))

        // The same results on top of a history of 60 snapshots: three pages for the site and for the gallery.
        let long = try await publish(
            day: 2, hits: 4, baseURL: base, in: workspace, extra: ["--history-from", workspace.path("seeded.json")],
            name: "long")
        #expect(long.outcome.status == 0, "\(long.outcome.stderr)")
        #expect(long.history == seeded)
        let site = long.site
        for folder in ["", path] {
            let pages = ["changes.html", "changes-2.html", "changes-1.html"].map { folder + $0 }
            let chain = try site.nextChain(from: pages[0])
            #expect(chain.chain == pages)
            #expect(chain.prevMatches)
            #expect(
                try site.page(pages[0]).strings("//main//section/@id") == (51...60).reversed().map { "snapshot-\($0)" })
            #expect(
                try site.page(pages[1]).strings("//main//section/@id") == (26...50).reversed().map { "snapshot-\($0)" })
            #expect(
                try site.page(pages[2]).strings("//main//section/@id") == (1...25).reversed().map { "snapshot-\($0)" })
            // The pager names the newest page "Latest", marks the current one and links only relative paths.
            let pager = try site.page(pages[1])
            #expect(
                pager.strings("//nav[@class='pager']//a[@aria-current='page']/@href") == [
                    (folder.isEmpty ? "" : "../") + pages[1]
                ])
            #expect(
                pager.strings("//nav[@class='pager']//li/a").map { $0.trimmingCharacters(in: .whitespaces) }
                    == ["Latest", "Page 2", "Page 1"])
            #expect(pager.strings("//a/@href").allSatisfy { !$0.hasPrefix("/") })
            #expect(try site.page(pages[0]).strings("//p[@class='count']").first?.hasPrefix("60 snapshots") == true)
            #expect(try site.page(pages[2]).strings("//title").first?.hasPrefix("What’s new — page 1 — ") == true)
        }
        // A snapshot of the site's older pages links to the gallery's page that shows it.
        #expect(
            try site.page("changes-1.html").strings("//section[@id='snapshot-20']//h3/a/@href") == [
                path + "changes-1.html"
            ])
        #expect(try site.crawl().broken == [])
        // The feed: the gallery, and the 25 newest snapshots.
        #expect(try feedEntries(long).count == 1 + 25)

        // Built again in place with one more result: a snapshot, which only the newest pages show.
        let older = ["changes-1.html", "changes-2.html", path + "changes-1.html", path + "changes-2.html"]
        func stamps() throws -> [Date?] {
            try older.map {
                try FileManager.default.attributesOfItem(atPath: site.root.appendingPathComponent($0).path)[
                    .modificationDate] as? Date
            }
        }
        let before = try stamps()
        let grown = try await publish(day: 3, hits: 5, baseURL: base, in: workspace, name: "long")
        #expect(grown.outcome.status == 0, "\(grown.outcome.stderr)")
        #expect(grown.history.snapshots.count == 61)
        #expect(try stamps() == before)
        #expect(try site.page("changes.html").strings("//main//section/@id").first == "snapshot-61")
        #expect(try site.page(path + "changes.html").strings("//main//section/@id").count == 11)
    }
}
