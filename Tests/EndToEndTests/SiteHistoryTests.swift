import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrinePublish
@testable import VitrineRender

/// Scheduled publishes of a site with `history = true` record what came, left and came back, byte for byte the same
/// for the same inputs; a gallery of its own keeps a history too.
@Suite(.serialized) struct SiteHistoryTests: PublishesOnASchedule {
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
}
