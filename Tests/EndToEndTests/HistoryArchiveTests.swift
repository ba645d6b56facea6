import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrinePublish
@testable import VitrineRender

/// The archive of a gallery that keeps every item: the items that left stay browsable with images from the previous
/// publish (fetched only from the source's hosts), and a new snapshot rewrites only what it changes.
@Suite(.serialized) struct HistoryArchiveTests: PublishesOnASchedule {
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
        // The history kept its tags: its preview page shows them, without links (tag pages list the results only).
        let archivedTags = try site.page(String(neighbour)).strings("//nav[@aria-label='Tags']//li")
        #expect(!archivedTags.isEmpty && archivedTags.allSatisfy { !$0.isEmpty })
        #expect(try site.page(String(neighbour)).strings("//nav[@aria-label='Tags']//a").isEmpty)
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
