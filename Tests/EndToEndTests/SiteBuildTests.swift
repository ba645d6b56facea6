import Foundation
import SampleAPI
import Testing
import VitrineTemplates

@testable import VitrineBasics
@testable import VitrinePublish
@testable import VitrineRender

/// `vitrine build`: several galleries from a TOML config into one site, built by the real binary against the
/// sample API on loopback.
@Suite(.serialized) final class SiteBuildTests: StoppableFixture {
    static let key = "site-key-77"
    let server = SampleAPIServer(configuration: SampleAPIConfiguration(apiKey: SiteBuildTests.key))
    let workspace: Workspace

    init() async throws {
        workspace = try Workspace()
        try await server.start()
    }

    func stop() async { await server.stop() }

    /// A config with a Pixabay, a Flickr-feed and a thumbnail gallery; `pages` sets the Pixabay gallery's size.
    func writeConfig(pages: Int = 2, baseURL: String? = "https://example.org/snapshots", name: String = "vitrine.toml")
        async throws
    {
        var text = "title = \"Snapshots\"\n"
        if let baseURL { text += "base-url = \"\(baseURL)\"\n" }
        text += await server.siteGalleries(pages: pages)
        try text.write(toFile: workspace.path(name), atomically: true, encoding: .utf8)
    }

    func build(_ extra: [String] = [], out: String = "site", environment: [String: String] = [:]) async throws
        -> VitrineProcess.Outcome
    {
        try await VitrineProcess.run(
            [
                "build", "--config", workspace.path("vitrine.toml"), "--cache", workspace.path("cache"), "--out",
                workspace.path(out), "--json", "-q",
            ] + extra, environment: ["PIXABAY_API_KEY": Self.key].merging(environment) { $1 })
    }

    func report(_ outcome: VitrineProcess.Outcome) throws -> BuildSummary {
        struct Report: Decodable { var summary: BuildSummary }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(Report.self, from: Data(outcome.stdout.utf8)).summary
    }

    @Test func writesEveryGalleryUnderAHomePageWithSitemapFeedAndManifest() async throws {
        try await stopping(self) {
            try await writeConfig()
            let outcome = try await build()
            #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
            let site = SiteInspector(root: workspace.url.appendingPathComponent("site"))
            let crawl = try site.crawl()
            #expect(crawl.broken == [])
            #expect(crawl.pages.isSuperset(of: ["hamburg/index.html", "hamburg/page-2.html", "berlin/index.html"]))
            #expect(crawl.pages.contains("press/index.html"))
            #expect(crawl.pages.filter { $0.hasPrefix("hamburg/items/") }.count == 20)
            let home = try site.page("index.html")
            #expect(
                home.strings("//main//li//a[@class='caption']/@href") == [
                    "hamburg/index.html", "berlin/index.html", "press/index.html",
                ])
            #expect(home.strings("//link[@rel='alternate'][@type='application/atom+xml']/@href") == ["feed.xml"])
            // Every gallery page leads back home through a relative link.
            #expect(
                try site.page("hamburg/items/\(firstItemSlug(site))-original.html").strings("//a[@class='brand']/@href")
                    == ["../../index.html"])
            #expect(try site.page("press/index.html").strings("//a[@class='brand']/@href") == ["../index.html"])
            // Images are shared by the galleries in one folder at the root.
            #expect(!crawl.files.contains { $0.contains("/images/") })

            let sitemap = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: site.root.appendingPathComponent("sitemap.xml"))))
            let locations = sitemap.strings("//*[local-name()='loc']")
            #expect(Set(locations) == Set(crawl.pages.map { "https://example.org/snapshots/\($0)" }))
            let feed = try LibXMLDocument.parse([UInt8](Data(contentsOf: site.root.appendingPathComponent("feed.xml"))))
            #expect(feed.strings("/*[local-name()='feed']/*[local-name()='id']") == ["https://example.org/snapshots/"])
            #expect(
                feed.strings("//*[local-name()='entry']/*[local-name()='id']") == [
                    "https://example.org/snapshots/hamburg/index.html",
                    "https://example.org/snapshots/berlin/index.html",
                    "https://example.org/snapshots/press/index.html",
                ])
            #expect(
                feed.strings("//*[local-name()='entry']/*[local-name()='updated']").allSatisfy { $0.hasSuffix("Z") })

            for model in ["hamburg/gallery.xml", "berlin/gallery.xml", "press/gallery.xml", "site.xml"] {
                let document = try LibXMLDocument.parse(
                    [UInt8](Data(contentsOf: site.root.appendingPathComponent(model))))
                #expect(document.relaxNGErrors(schema: DefaultTheme.files["gallery.rng"]!) == [], "\(model)")
            }

            let manifest = try #require(OutputManifest.read(in: site.root))
            #expect(manifest.galleries.map(\.path) == ["berlin/", "hamburg/", "press/"])
            let hamburg = try #require(manifest.galleries.first { $0.path == "hamburg/" })
            #expect(hamburg.source == "pixabay")
            #expect(hamburg.queries == ["Hamburg", "Hamburg graffiti"])
            #expect(hamburg.items.count == 10)
            #expect(hamburg.items.allSatisfy { !$0.credits.isEmpty && $0.credits.allSatisfy { !$0.name.isEmpty } })
            let written = Set(manifest.files.map(\.path))
            for path in try workspace.tree("site").keys where path != OutputManifest.fileName {
                #expect(written.contains(path), "\(path) is not in the manifest")
            }
            for file in manifest.files {
                let bytes = try Data(contentsOf: site.root.appendingPathComponent(file.path))
                #expect(SHA256Hasher.hex(of: bytes) == file.sha256, "\(file.path)")
            }

            let summary = try report(outcome)
            #expect(summary.galleries?.map(\.path) == ["hamburg/", "berlin/", "press/"])
            #expect(summary.galleries?.first?.summary.items == 10)
            #expect(summary.items == 10 + 20 + 12)
            #expect(!outcome.stdout.contains(Self.key) && !outcome.stderr.contains(Self.key))
            for (path, bytes) in try workspace.tree("site") {
                #expect(!String(decoding: bytes, as: UTF8.self).contains(Self.key), "\(path) holds the API key")
            }
        }
    }

    private func firstItemSlug(_ site: SiteInspector) throws -> String {
        let href = try #require(
            try site.page("hamburg/index.html").strings("//main//a[contains(@href, '-original.html')]/@href").first)
        return String(href.split(separator: "/").last!.dropLast("-original.html".count))
    }

    @Test func theSameConfigAndCacheGiveTheSameBytes() async throws {
        try await stopping(self) {
            try await writeConfig()
            let first = try await build(out: "one")
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let second = try await build(out: "two")
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(try report(second).imagesDownloaded == 0)
            let one = try workspace.tree("one")
            let two = try workspace.tree("two")
            #expect(one.keys.sorted() == two.keys.sorted())
            for (path, bytes) in one { #expect(two[path] == bytes, "\(path) differs") }

            // SOURCE_DATE_EPOCH, where given, is the only time in any file.
            let stamped = try await build(out: "three", environment: ["SOURCE_DATE_EPOCH": "1700000000"])
            #expect(stamped.status == 0, "stderr: \(stamped.stderr)")
            let feed = try LibXMLDocument.parse(
                [UInt8](Data(contentsOf: workspace.url.appendingPathComponent("three/feed.xml"))))
            #expect(Set(feed.strings("//*[local-name()='updated']")) == ["2023-11-14T22:13:20Z"])
            let bad = try await build(out: "four", environment: ["SOURCE_DATE_EPOCH": "yesterday"])
            #expect(bad.status == ExitStatus.usage.rawValue)
            #expect(bad.stderr.contains("SOURCE_DATE_EPOCH"))
        }
    }

    @Test func aNoChangeRebuildRendersNothingAndLeavesEveryFileUntouched() async throws {
        try await stopping(self) {
            try await writeConfig()
            #expect(try await build().status == 0)
            let root = workspace.url.appendingPathComponent("site")
            let past = Date(timeIntervalSince1970: 1_000_000_000)
            for path in try workspace.tree("site").keys {
                try FileManager.default.setAttributes(
                    [.modificationDate: past], ofItemAtPath: root.appendingPathComponent(path).path)
            }
            // The touched files no longer match the build state, so this rebuild reads, models and compares it all.
            let again = try await build()
            #expect(again.status == 0, "stderr: \(again.stderr)")
            let summary = try report(again)
            #expect(!summary.upToDate)
            #expect(summary.pagesRendered == 0)
            #expect(summary.pagesWritten == 0)
            #expect(summary.pagesUnchanged > 40)
            #expect(summary.filesRemoved == 0)
            // The manifest too: nothing changed, so nothing in it did.
            func expectUntouched() throws {
                for path in try workspace.tree("site").keys {
                    let date =
                        try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[
                            .modificationDate] as? Date
                    #expect(date == past, "\(path) was rewritten")
                }
            }
            try expectUntouched()

            // With nothing touched since, the next rebuild finds it all current from the build state alone and reports
            // the same counts, every answer and image from the cache.
            let third = try await build()
            #expect(third.status == 0, "stderr: \(third.stderr)")
            var current = try report(third)
            #expect(current.upToDate)
            #expect(current.galleries?.allSatisfy { $0.summary.upToDate } == true)
            #expect(current.pagesUnchanged == summary.pagesUnchanged)
            current.upToDate = false
            current.seconds = summary.seconds
            current.galleries = summary.galleries
            // The full rebuild may have stored records that grew (stamps of files verified again), which the cache's
            // upkeep then reports; the up-to-date one stores nothing.
            #expect(current.cache?.skipped == "the build stored nothing in the cache")
            current.cache = summary.cache
            #expect(current == summary)
            try expectUntouched()
            // The state lives in the cache, not in what gets published.
            #expect(try workspace.tree("site").keys.allSatisfy { !$0.contains("state") })
        }
    }

    @Test func theUpToDateCheckNoticesEveryChangeToItsInputsAndOutputs() async throws {
        try await stopping(self) {
            try await writeConfig()
            #expect(try await build().status == 0)
            func rebuild(_ extra: [String] = []) async throws -> BuildSummary {
                let outcome = try await build(extra)
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
                return try report(outcome)
            }
            #expect(try await rebuild().upToDate)

            // A page removed or edited: the long path puts it back.
            let root = workspace.url.appendingPathComponent("site")
            let slug = try firstItemSlug(SiteInspector(root: root))
            let page = root.appendingPathComponent("hamburg/items/\(slug)-original.html")
            let original = try Data(contentsOf: page)
            try FileManager.default.removeItem(at: page)
            var summary = try await rebuild()
            #expect(!summary.upToDate)
            #expect(summary.pagesWritten == 1)
            #expect(try Data(contentsOf: page) == original)
            #expect(try await rebuild().upToDate)
            try Data("edited".utf8).write(to: page)
            #expect(try await !rebuild().upToDate)
            #expect(try Data(contentsOf: page) == original)

            // The manifest rewritten by someone else.
            let manifest = root.appendingPathComponent(OutputManifest.fileName)
            try Data(contentsOf: manifest).write(to: manifest)
            #expect(try await !rebuild().upToDate)
            #expect(try await rebuild().upToDate)

            // Another theme, other options, or asking the API again.
            let theme = workspace.url.appendingPathComponent("theme")
            try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
            for (name, bytes) in DefaultTheme.files {
                try Data(bytes).write(to: theme.appendingPathComponent(name))
            }
            try Data("/* mine */".utf8).write(to: theme.appendingPathComponent("vitrine.css"))
            summary = try await rebuild(["--templates", theme.path])
            #expect(!summary.upToDate)
            #expect(try await rebuild(["--templates", theme.path]).upToDate)
            #expect(try await !rebuild().upToDate)
            summary = try await rebuild(["--refresh"])
            #expect(!summary.upToDate)
            #expect(summary.apiRequests > 0)
            #expect(try await rebuild().upToDate)
            try await writeConfig(pages: 1)
            summary = try await rebuild()
            #expect(!summary.upToDate)
            #expect(summary.filesRemoved > 0)
            #expect(try await rebuild().upToDate)
        }
    }

    /// Edits the `hits` of the cached Pixabay response for exactly `query`: its body, and the size and digest its
    /// record keeps of it.
    func rewriteCachedHits(query: String, _ change: (inout [[String: Any]]) -> Void) throws {
        let folder = workspace.url.appendingPathComponent("cache/responses")
        var changed = 0
        for relative in try FileManager.default.subpathsOfDirectory(atPath: folder.path)
        where relative.hasSuffix(".meta") {
            let recordFile = folder.appendingPathComponent(relative)
            let bodyFile = recordFile.deletingPathExtension().appendingPathExtension("body")
            var record = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: recordFile)) as? [String: Any])
            let url = try #require(record["url"] as? String)
            guard
                URLComponents(string: url)?.queryItems?.contains(where: { $0.name == "q" && $0.value == query }) == true
            else { continue }
            var json = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: bodyFile)) as? [String: Any])
            var hits = try #require(json["hits"] as? [[String: Any]])
            change(&hits)
            json["hits"] = hits
            let body = try JSONSerialization.data(withJSONObject: json)
            record["bodyBytes"] = body.count
            record["bodySHA256"] = SHA256Hasher.hex(of: [UInt8](body))
            try body.write(to: bodyFile)
            try JSONSerialization.data(withJSONObject: record).write(to: recordFile)
            changed += 1
        }
        #expect(changed == 1)
    }

    @Test func droppedItemsAndGalleriesLoseOnlyTheFilesTheManifestLists() async throws {
        try await stopping(self) {
            try await writeConfig(pages: 2)
            #expect(try await build().status == 0)
            let root = workspace.url.appendingPathComponent("site")
            let before = Set(try workspace.tree("site").keys)
            try "mine".write(
                to: root.appendingPathComponent("hamburg/items/notes.txt"), atomically: true, encoding: .utf8)
            try "mine".write(to: root.appendingPathComponent("berlin/keep.txt"), atomically: true, encoding: .utf8)

            // Half the Hamburg items, and no Berlin gallery.
            var text = try String(contentsOfFile: workspace.path("vitrine.toml"), encoding: .utf8)
            text = text.replacingOccurrences(of: "pages = 2", with: "pages = 1")
            let berlin = try #require(text.range(of: "[[gallery]]\nsource = \"flickr\""))
            let next = try #require(text.range(of: "[[gallery]]", range: berlin.upperBound..<text.endIndex))
            text.removeSubrange(berlin.lowerBound..<next.lowerBound)
            try text.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)

            let again = try await build()
            #expect(again.status == 0, "stderr: \(again.stderr)")
            let after = Set(try workspace.tree("site").keys)
            let removed = before.subtracting(after)
            #expect(removed.contains("hamburg/page-2.html"))
            #expect(removed.filter { $0.hasPrefix("hamburg/items/") }.count == 10)
            #expect(removed.contains("berlin/index.html"))
            #expect(after.filter { $0.hasPrefix("hamburg/items/") }.count == 11)
            #expect(after.contains("hamburg/items/notes.txt"))
            #expect(after.filter { $0.hasPrefix("berlin/") } == ["berlin/keep.txt"])
            #expect(try report(again).filesRemoved == removed.count)
            // Nothing removed was a file Vitrine did not write.
            #expect(removed.isSubset(of: before))
            let manifest = try #require(OutputManifest.read(in: root))
            #expect(manifest.galleries.map(\.path) == ["hamburg/", "press/"])
        }
    }

    @Test func frozenRebuildsFromTheCacheWithTheNetworkOffAndNamesWhatIsMissing() async throws {
        try await stopping(self) {
            try await writeConfig()
            let noManifest = try await build(["--frozen"], out: "empty")
            #expect(noManifest.status == ExitStatus.nothingCached.rawValue)
            #expect(noManifest.stderr.contains("manifest"))

            #expect(try await build().status == 0)
            let before = try workspace.tree("site")
            await server.stop()
            let requestsBefore = server.requests().count
            // A fresh copy of the output folder, rebuilt with the network gone.
            try FileManager.default.copyItem(
                at: workspace.url.appendingPathComponent("site"), to: workspace.url.appendingPathComponent("copy"))
            for path in before.keys where path.hasSuffix(".html") {
                try FileManager.default.removeItem(at: workspace.url.appendingPathComponent("copy/\(path)"))
            }
            let frozen = try await build(["--frozen"], out: "copy")
            #expect(frozen.status == 0, "stderr: \(frozen.stderr)")
            #expect(server.requests().count == requestsBefore)
            let after = try workspace.tree("copy")
            #expect(after.keys.sorted() == before.keys.sorted())
            for (path, bytes) in before { #expect(after[path] == bytes, "\(path) differs") }

            // Take one image out of the cache: the frozen build fails and names it.
            let images = workspace.url.appendingPathComponent("cache/images")
            let victim = try #require(
                try FileManager.default.subpathsOfDirectory(atPath: images.path).first { $0.hasSuffix(".jpg") })
            try FileManager.default.removeItem(at: images.appendingPathComponent(victim))
            let missing = try await build(["--frozen"], out: "copy")
            #expect(missing.status == ExitStatus.nothingCached.rawValue)
            #expect(missing.stderr.contains("the image http://127.0.0.1"), "stderr: \(missing.stderr)")
            #expect(missing.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test(arguments: [
        ("title = \"x\"\n[[gallery]]\nsource = \"pixabay\"\nterm = \"a\"\npagez = 3\n", "line 5, key pagez"),
        ("title = \"x\"\n[[gallery]]\nsource = \"pixabay\"\nterm = \"a\"\npages = 0\n", "line 5, key pages"),
        (
            "title = \"x\"\n[[gallery]]\nsource = \"pixabay\"\nterm = \"a\"\npages = -1\n",
            "line 5, key pages of the 1st [[gallery]]: --pages must be between 1 and 500"
        ),
        ("title = \"x\"\n[[gallery]]\nsource = \"pixabay\"\nterm = \"a\"\nkey = \"k\"\n", "$PIXABAY_API_KEY"),
        ("title = \"x\"\ncolour = 1\n[[gallery]]\nsource = \"thumbnails\"\n", "line 2, key colour"),
        ("title = \"x\"\n[[gallery]]\nsource = \"pixabay\"\n", "key term of the 1st [[gallery]]: it is missing"),
        (
            "title = \"x\"\n[[gallery]]\nsource = \"thumbnails\"\n\n[[gallery]]\nsource = \"nope\"\n",
            "line 6, key source of the 2nd"
        ),
        (
            "title = \"x\"\n[[gallery]]\nsource = \"pixabay\"\nterm = \"a\"\nper-page = \"many\"\n",
            "line 5, key per-page"
        ),
        ("title = \"x\n[[gallery]]\n", "line 1"),
        ("title = \"x\"\nbase-url = \"ftp://h\"\n[[gallery]]\nsource = \"thumbnails\"\n", "line 2, key base-url"),
        ("title = \"x\"\n[[gallery]]\nsource = \"thumbnails\"\npath = \"../up\"\n", "line 4, key path"),
        ("title = \"x\"\n[[gallery]]\nsource = \"thumbnails\"\npath = \"assets\"\n", "line 4, key path"),
        ("title = \"x\"\n[[gallery]]\nsource = \"thumbnails\"\npath = \"tags\"\n", "line 4, key path"),
        // A folder named like the site's search index would be one with it.
        ("title = \"x\"\n[[gallery]]\nsource = \"thumbnails\"\npath = \"search-index.js\"\n", "line 4, key path"),
        // A folder name longer than a file system holds would stop the build only after every download.
        (
            "title = \"x\"\n[[gallery]]\nsource = \"thumbnails\"\npath = \"ok/\(String(repeating: "x", count: 256))\"\n",
            "line 4, key path of the 1st [[gallery]]: the folder name xxxx"
        ),
        ("[[gallery]]\nsource = \"thumbnails\"\n", "key title: it is missing"),
        ("title = \"x\"\nhistory = \"yes\"\n[[gallery]]\nsource = \"thumbnails\"\n", "line 2, key history"),
        ("title = \"x\"\n[[gallery]]\nsource = \"thumbnails\"\nkeep = \"some\"\n", "line 4, key keep of the 1st"),
        (
            "title = \"x\"\n[[gallery]]\nsource = \"random\"\nkeep = \"all\"\n",
            "only pixabay, flickr, openverse, commons and thumbnails galleries keep"
        ),
        ("title = \"x\"\n", "no [[gallery]]"),
    ])
    func aBadConfigIsReportedWithFileLineAndKey(config: String, expected: String) async throws {
        try await stopping(self) {
            try config.write(toFile: workspace.path("vitrine.toml"), atomically: true, encoding: .utf8)
            let outcome = try await build()
            #expect(outcome.status == ExitStatus.usage.rawValue)
            #expect(outcome.stderr.contains("vitrine.toml"), "stderr: \(outcome.stderr)")
            #expect(outcome.stderr.contains(expected), "stderr: \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: workspace.path("site")))
            #expect(server.requests().isEmpty)
        }
    }
}
