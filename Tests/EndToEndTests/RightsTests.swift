import Foundation
import SampleAPI
import Testing
import VitrineTemplates
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrineRender

/// Every photo within its license and its API's terms, end to end: the real binary against the sample API, whose
/// Flickr answers `extras=license`, `flickr.photos.licenses.getInfo` (with ids beyond 10) and `license=`.
///
/// What can be hostile or wrong: a photo all rights reserved, a license id the table lacks, a choice of licenses
/// that matches nothing, a page of more photos than Flickr's terms allow. What we promise: the bytes of a photo
/// that may not be copied are never requested nor stored, its pages say so and link back; every license link is
/// the table's; a choice is sent to Flickr as its ids; a page never shows more than 30 Flickr photos.
@Suite struct RightsTests {
    static let key = "flickr-key-2323"

    func withServer(_ body: (SampleAPIServer, Workspace) async throws -> Void) async throws {
        try await withSampleAPI(SampleAPIConfiguration(flickrKey: Self.key), body)
    }

    func flickr(_ server: SampleAPIServer, _ workspace: Workspace, _ extra: [String]) async throws
        -> VitrineProcess.Outcome
    {
        try await runFlickr(server, workspace, extra)
    }

    func model(_ workspace: Workspace) throws -> LibXMLDocument {
        let document = try LibXMLDocument.parse(
            [UInt8](Data(contentsOf: workspace.url.appendingPathComponent("out/gallery.xml"))))
        #expect(document.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
        return document
    }

    @Test func aPhotoAllRightsReservedIsNeverDownloadedAndItsPagesSaySoAndLinkBack() async throws {
        try await withServer { server, workspace in
            let outcome = try await flickr(server, workspace, ["Hamburg", "--key", Self.key, "--per-page", "30"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let document = try model(workspace)
            let table = Dictionary(uniqueKeysWithValues: FlickrCatalog.licenses.map { ($0.id, $0) })
            let ids = document.strings("//entry/license/@id")
            #expect(ids.count == 30 && ids.contains("0") && ids.contains { (Int($0) ?? 0) > 10 })

            let requested = Set(server.requests().map(\.path))
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            #expect(try site.crawl().broken == [])
            var reserved = 0
            for entry in 1...30 {
                let path = "//item[\(entry)]/entry"
                let id = try #require(document.strings(path + "/license/@id").first)
                let license = try #require(table[id], "license \(id) is in the table")
                let href = try #require(document.strings(path + "/@href").first)
                let page = try site.page(href)
                if id == "0" {
                    reserved += 1
                    // Never requested, never a file of the site: shown from Flickr's own URL.
                    let urls = document.strings(path + "/image/@url")
                    #expect(urls.count == 2 && document.strings(path + "/image/@src").isEmpty)
                    for url in urls { #expect(!requested.contains(try #require(URL(string: url)).path), "\(url)") }
                    #expect(page.strings("//main//img/@src") == [urls[1]])
                    #expect(page.strings("//p[@class='credit']").joined().contains("All rights reserved"))
                    #expect(document.strings(path + "/license/@copies") == ["forbidden"])
                    let photoPage = try #require(document.strings(path + "/credit/@href").first)
                    #expect(photoPage.hasPrefix("https://www.flickr.com/photos/"))
                    #expect(page.strings("//p[@class='credit']/a/@href").contains(photoPage))
                } else {
                    #expect(document.strings(path + "/image/@url").isEmpty)
                    #expect(document.strings(path + "/image/@src").count == 2)
                    // The license's link is the one getInfo gives, whatever the id.
                    #expect(document.strings(path + "/license/@href") == [license.url], "\(id)")
                    #expect(page.strings("//span[@class='license']/a/@href") == [license.url], "\(id)")
                }
                let data = try #require(
                    page.strings("//script[@type='application/ld+json']").first.flatMap(JSONLD.object))
                #expect(data["acquireLicensePage"] as? String == document.strings(path + "/credit/@href").first)
                if id == "0" {
                    // Flickr's table gives All Rights Reserved a help page: still a copyright notice, and that link.
                    #expect((data["copyrightNotice"] as? String)?.hasSuffix(". All rights reserved.") == true)
                    #expect(data["license"] as? String == license.url)
                }
            }
            #expect(reserved > 0)
            // What is stored is exactly the licensed photos' renditions.
            let stored = try workspace.tree("out").keys.filter { $0.hasPrefix("images/") }
            #expect(stored.count == Set(document.strings("//image/@src")).count)
            #expect(!outcome.stderr.contains(Self.key))
        }
    }

    @Test func reusableAsksFlickrForTheLicensesThatAllowCopiesAndTheSiteIsSelfContained() async throws {
        try await withServer { server, workspace in
            let outcome = try await flickr(server, workspace, ["Hamburg", "--key", Self.key, "--license", "reusable"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let searches = server.requests().filter { $0.query["method"] == "flickr.photos.search" }
            // Every license of Flickr's current table but All Rights Reserved, the United States Government Work too.
            let reusable = FlickrCatalog.licenses.filter { $0.id != "0" }.map(\.id)
            #expect(reusable.contains("8"))
            #expect(
                searches.count == 1 && searches.allSatisfy { $0.query["license"] == reusable.joined(separator: ",") })
            let document = try model(workspace)
            #expect(document.strings("//entry/license/@copies").allSatisfy { $0 == "allowed" })
            #expect(document.strings("//image/@url").isEmpty && document.strings("//image/@src").count == 50)

            let named = try await flickr(
                server, workspace, ["Hamburg", "--key", Self.key, "--license", "4,CC BY 4.0", "--refresh"])
            #expect(named.status == 0, "\(named.stderr)")
            #expect(server.requests().last { $0.query["method"] == "flickr.photos.search" }?.query["license"] == "4,11")
            #expect(Set(try model(workspace).strings("//entry/license/@label")) == ["CC BY 2.0", "CC BY 4.0"])

            // Flickr's recent photos cannot be asked for by license: the others are left out, with a warning.
            let recent = try await flickr(server, workspace, ["--key", Self.key, "--license", "reusable"])
            #expect(recent.status == 0, "\(recent.stderr)")
            #expect(recent.stderr.contains("under other licenses than “reusable”"), "\(recent.stderr)")
            #expect(server.requests().last { $0.query["method"] == "flickr.photos.getRecent" }?.query["license"] == nil)
            let kept = try model(workspace).strings("//entry/license/@copies")
            #expect(!kept.isEmpty && kept.allSatisfy { $0 == "allowed" })
        }
    }

    @Test func moreThanThirtyFlickrPhotosOnAPageAreRefusedOnTheCommandLineAndInTheConfig() async throws {
        try await withServer { server, workspace in
            let outcome = try await flickr(server, workspace, ["Hamburg", "--key", Self.key, "--per-page", "31"])
            #expect(outcome.status == 64, "\(outcome.stderr)")
            #expect(outcome.stderr.contains("Flickr's API terms allow no more than 30"), "\(outcome.stderr)")
            let config = workspace.path("vitrine.toml")
            try """
            title = "x"

            [[gallery]]
            source = "flickr"
            term = "Hamburg"
            per-page = 31
            endpoint = "\(await server.flickrEndpoint)"
            """.write(toFile: config, atomically: true, encoding: .utf8)
            let built = try await VitrineProcess.run(
                ["build", "--config", config, "--cache", workspace.path("cache"), "--out", workspace.path("site")],
                environment: ["FLICKR_API_KEY": Self.key])
            #expect(built.status == 64, "\(built.stderr)")
            #expect(built.stderr.contains("line 6, key per-page"), "\(built.stderr)")
            #expect(built.stderr.contains("Flickr's API terms"), "\(built.stderr)")
            #expect(server.requests().isEmpty)
        }
    }

    /// A `license` of vitrine.toml that Flickr's table cannot follow is the file's problem: its line and key, not an
    /// option of the command line.
    @Test func aLicenseOfTheConfigThatFlickrLacksIsReportedWithItsLineAndKey() async throws {
        try await withServer { server, workspace in
            let config = workspace.path("vitrine.toml")
            try """
            title = "x"

            [[gallery]]
            source = "flickr"
            term = "Hamburg"
            endpoint = "\(await server.flickrEndpoint)"
            license = "4, CC BY 9.0"
            """.write(toFile: config, atomically: true, encoding: .utf8)
            let built = try await VitrineProcess.run(
                ["build", "--config", config, "--cache", workspace.path("cache"), "--out", workspace.path("site")],
                environment: ["FLICKR_API_KEY": Self.key])
            #expect(built.status == 64, "\(built.stderr)")
            #expect(
                built.stderr.contains(
                    "vitrine.toml, line 7, key license of the 1st [[gallery]]: “CC BY 9.0” names no Flickr license; "
                        + "its 17 licenses include 0 (All rights reserved), 1 (CC BY-NC-SA 2.0)"),
                "\(built.stderr)")
            #expect(!built.stderr.contains("--license"), "\(built.stderr)")
            #expect(!built.stderr.contains("16 (CC BY-NC-ND 4.0)"), "\(built.stderr)")
        }
    }

    @Test func pixabayPagesNameItsLicenseAndMarkWhatAnAIMade() async throws {
        try await withSampleAPI(SampleAPIConfiguration()) { server, workspace in
            let outcome = try await VitrineProcess.run([
                "pixabay", "Hamburg", "--key", SampleAPIServer.demoKey, "--per-page", "20", "--endpoint",
                await server.pixabayEndpoint, "--cache", workspace.path("cache"), "--out", workspace.path("out"),
            ])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let document = try model(workspace)
            #expect(Set(document.strings("//entry/license/@href")) == ["https://pixabay.com/service/license-summary/"])
            let made = document.strings("//entry[ai-generated]/@href")
            #expect(!made.isEmpty && made.count < 20, "some hits, not most, are marked: \(made.count)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            let page = try site.page(try #require(made.first))
            #expect(page.strings("//span[@class='ai']") == ["AI-generated"])
            #expect(page.strings("//span[@class='license']/a") == ["Pixabay License"])
            let grid = try site.page("index.html")
            #expect(!grid.strings("//li[@class='tile']//span[@class='ai']").isEmpty)
        }
    }

    /// The archive (`keep = "all"`) keeps each photo's license: a photo that may not be copied stays shown from its
    /// own URL, never looked for in the cache, the output or the network, and a licensed one keeps its file.
    @Test func theArchiveKeepsEachLicenseAndNeverCopiesWhatMayNotBeCopied() async throws {
        let workspace = try Workspace()
        func build(results: Int, day: Int) async throws -> (VitrineProcess.Outcome, Set<String>) {
            let server = SampleAPIServer(
                configuration: SampleAPIConfiguration(flickrKey: Self.key, flickrCounts: ["harbour": results]))
            try await server.start()
            do {
                try """
                title = "Rights"
                history = true

                [[gallery]]
                source = "flickr"
                term = "harbour"
                per-page = 30
                keep = "all"
                endpoint = "\(await server.flickrEndpoint)"
                """.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
                let outcome = try await VitrineProcess.run(
                    [
                        "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"),
                        "--out", workspace.path("out"),
                    ],
                    environment: [
                        "FLICKR_API_KEY": Self.key, "SOURCE_DATE_EPOCH": String(1_790_000_000 + day * 86_400),
                    ])
                let requested = Set(server.requests().map(\.path))
                await server.stop()
                return (outcome, requested)
            } catch {
                await server.stop()
                throw error
            }
        }
        let (first, _) = try await build(results: 24, day: 1)
        #expect(first.status == 0, "\(first.stderr)")
        let (second, requested) = try await build(results: 12, day: 2)
        #expect(second.status == 0, "\(second.stderr)")
        let document = try LibXMLDocument.parse(
            [UInt8](Data(contentsOf: workspace.url.appendingPathComponent("out/harbour/gallery.xml"))))
        #expect(document.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [])
        let archived = "//collection[@id='c-archive']/item/entry"
        #expect(document.strings(archived).count == 12)
        let reserved = document.strings(archived + "[license/@copies != 'allowed']/image/@url")
        #expect(!reserved.isEmpty, "some archived photos are all rights reserved")
        #expect(document.strings(archived + "[license/@copies != 'allowed']/image/@src").isEmpty)
        for url in reserved { #expect(!requested.contains(try #require(URL(string: url)).path), "\(url)") }
        #expect(
            document.strings(archived + "[license/@copies = 'allowed']/image/@src").count
                == 2 * document.strings(archived + "[license/@copies = 'allowed']").count)
        #expect(document.strings(archived + "/license/@label").allSatisfy { !$0.isEmpty })
        #expect(document.strings(archived + "/credit/@author-href").count == 12)
        let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
        #expect(try site.crawl().broken == [])
        let bytes = [UInt8](try Data(contentsOf: workspace.url.appendingPathComponent("out/history.json")))
        let records = try SiteHistory.decode(bytes, file: "history.json").galleries.flatMap(\.items).compactMap(
            \.record)
        let entries = records.flatMap(\.entries)
        #expect(entries.count == 24 && entries.allSatisfy { $0.license != nil && $0.credit?.authorURL != nil })
        #expect(
            entries.filter { $0.license?.copies != .allowed }.allSatisfy {
                !$0.tile.isDownloaded && !$0.full.isDownloaded
            })
        #expect(
            entries.filter { $0.license?.copies == .allowed }.allSatisfy {
                $0.tile.isDownloaded && $0.full.isDownloaded
            })
    }

    /// Flickr's API terms allow 30 of its photos on a page: the "What's new" pages, which show the tiles of what each
    /// snapshot added, keep to it too, the site's across all its Flickr galleries.
    @Test func whatsNewPagesShowNoMoreThanThirtyFlickrPhotos() async throws {
        try await withServer { server, workspace in
            let endpoint = await server.flickrEndpoint
            let galleries = ["harbour", "bridge", "crane"].map { term in
                "[[gallery]]\nsource = \"flickr\"\nterm = \"\(term)\"\npages = 2\nendpoint = \"\(endpoint)\"\n"
            }
            try ("title = \"Rights\"\nhistory = true\n\n" + galleries.joined(separator: "\n"))
                .write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
            let outcome = try await VitrineProcess.run(
                [
                    "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                    workspace.path("out"),
                ], environment: ["FLICKR_API_KEY": Self.key, "SOURCE_DATE_EPOCH": "1790000000"])
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("out"))
            #expect(try site.crawl().broken == [])
            let gallery = try site.page("harbour/changes.html")
            #expect(gallery.strings("//main//li[@class='tile']").count == 30)
            #expect(gallery.strings("//main").joined().contains("Flickr’s terms allow 30 of its photos on a page"))
            #expect(gallery.strings("//main").joined().contains("50 new images"))
            #expect(try site.page("changes.html").strings("//main//li[@class='tile']").count == 30)
            for page in try site.crawl().pages {
                #expect(try site.page(page).strings("//main//li[contains(@class, 'tile')]").count <= 30, "\(page)")
            }
        }
    }

    /// Pictures shown from their own URLs change nothing of what a rebuild promises: the same inputs give the same
    /// bytes, a rebuild with nothing changed writes nothing, and with the API gone `--offline` and `--frozen`
    /// rebuild the same site from the cache, which never held those pictures.
    @Test func picturesShownFromTheirOwnURLsRebuildOfflineFrozenAndByteForByte() async throws {
        let workspace = try Workspace()
        let server = SampleAPIServer(configuration: SampleAPIConfiguration(flickrKey: Self.key))
        try await server.start()
        try """
        title = "Rights"

        [[gallery]]
        source = "flickr"
        term = "Hamburg"
        endpoint = "\(await server.flickrEndpoint)"
        """.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
        func run(_ out: String, _ extra: [String] = []) async throws -> VitrineProcess.Outcome {
            try await VitrineProcess.run(
                [
                    "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                    workspace.path(out),
                ] + extra,
                environment: ["FLICKR_API_KEY": Self.key, "SOURCE_DATE_EPOCH": "1790000000"])
        }
        let first: VitrineProcess.Outcome
        let again: VitrineProcess.Outcome
        do {
            first = try await run("a")
            again = try await run("b")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        #expect(first.status == 0 && again.status == 0, "\(first.stderr) \(again.stderr)")
        let model = try String(
            contentsOf: workspace.url.appendingPathComponent("a/hamburg/gallery.xml"), encoding: .utf8)
        #expect(model.contains(" url=\"") && model.contains(" src=\""), "both kinds of picture")
        func files(_ out: String) throws -> [String: Data] {
            try workspace.tree(out).filter { !$0.key.hasPrefix(".vitrine") }
        }
        #expect(try files("a") == files("b"))

        let unchanged = try await run("a", ["--offline"])
        #expect(unchanged.status == 0 && unchanged.stderr.contains("Up to date"), "\(unchanged.stderr)")
        let offline = try await run("c", ["--offline"])
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try files("c") == files("a"))
        let frozen = try await run("a", ["--frozen"])
        #expect(frozen.status == 0, "\(frozen.stderr)")
        #expect(try files("a") == files("b"))
    }
}
