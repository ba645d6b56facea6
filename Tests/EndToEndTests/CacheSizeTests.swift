import Foundation
import SampleAPI
import Testing
import VitrineStore

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

    /// The records of a new output folder are something stored: a build into another folder that downloads nothing
    /// still keeps the cache within its size (a check that a rebuild gives the same bytes builds into a copy).
    @Test func aBuildIntoANewFolderThatDownloadsNothingStillKeepsTheCacheWithinItsSize() async throws {
        try await withSampleAPI(SampleAPIConfiguration(distinctImages: true)) { server, workspace in
            let first = try await build(server, workspace, term: "Hamburg", out: "hamburg")
            #expect(first.status == 0, "stderr: \(first.stderr)")
            // Room for a few bytes more (the copy's longer path in its use record), not for its records.
            let maximum = Self.cacheBytes(workspace.path("cache")) + 1000
            let requests = server.requests().count
            let copy = try await build(
                server, workspace, term: "Hamburg", out: "hamburg-copy", ["--cache-max-size", "\(maximum)"])
            #expect(copy.status == 0, "stderr: \(copy.stderr)")
            #expect(server.requests().count == requests, "everything came from the cache")
            #expect(Self.cacheBytes(workspace.path("cache")) <= maximum)
            let cache = try #require(try summary(copy)["cache"] as? [String: Any])
            #expect(cache["skipped"] == nil && (cache["entriesRemoved"] as? Int ?? 0) > 0, "\(copy.stdout)")
            #expect(try isWhole(workspace, "hamburg-copy"))
        }
    }

    /// A build that stored a little does not walk a cache its ledger shows within its size; a ledger that is
    /// damaged, or one measured by a clock a week or more away, is not trusted, and the cache is walked again.
    @Test func aBuildWalksTheCacheOnlyWhenItsLedgerCannotShowItWithinItsSize() async throws {
        try await withSampleAPI(SampleAPIConfiguration(distinctImages: true)) { server, workspace in
            let size = ["--cache-max-size", "1G", "--now", "2026-12-07T06:00:00Z"]
            func upkeep(_ outcome: VitrineProcess.Outcome) throws -> [String: Any] {
                #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
                return try #require(try summary(outcome)["cache"] as? [String: Any])
            }
            let ledger = workspace.url.appendingPathComponent("cache/size-ledger")
            // No ledger yet: the first build walks the cache and writes what it measured.
            let first = try upkeep(try await build(server, workspace, term: "Hamburg", out: "hamburg", size))
            #expect(first["skipped"] == nil && first["bytesAfter"] as? Int == Self.cacheBytes(workspace.path("cache")))
            #expect(try String(contentsOf: ledger, encoding: .utf8).hasPrefix("walked "))
            // Another gallery downloads and stores, far within the size: no walk, and the ledger bounds the cache.
            let second = try upkeep(try await build(server, workspace, term: "Berlin", out: "berlin", size))
            #expect(second["skipped"] as? String == "the cache is within its size", "\(second)")
            let estimate = try #require(CacheSizeLedger.read(root: workspace.url.appendingPathComponent("cache")))
            #expect(estimate.bytes >= Self.cacheBytes(workspace.path("cache")) && estimate.additions > 0)
            #expect(second["bytesAtMost"] as? Int == Int(estimate.bytes))
            // A damaged ledger is walked past and replaced.
            try "walked lots\n".write(to: ledger, atomically: true, encoding: .utf8)
            let third = try upkeep(
                try await build(server, workspace, term: "Hamburg", out: "hamburg", size + ["--refresh"]))
            #expect(third["skipped"] == nil && third["bytesAfter"] as? Int == Self.cacheBytes(workspace.path("cache")))
            // A week later by the build's clock, the ledger is measured again.
            let later = ["--cache-max-size", "1G", "--now", "2026-12-14T06:00:00Z", "--refresh"]
            let fourth = try upkeep(try await build(server, workspace, term: "Berlin", out: "berlin", later))
            #expect(fourth["skipped"] == nil, "\(fourth)")
            // `vitrine cache prune` measures it too.
            try "walked 1 1\n".write(to: ledger, atomically: true, encoding: .utf8)
            let pruned = try await CacheCommandTests().cache(["prune", "--max-size", "1G"], workspace)
            #expect(pruned.status == 0, "stderr: \(pruned.stderr)")
            let measured = try #require(CacheSizeLedger.read(root: workspace.url.appendingPathComponent("cache")))
            #expect(measured.bytes == Self.cacheBytes(workspace.path("cache")) && measured.additions == 0)
        }
    }

    /// An up-to-date rebuild records a use of everything the last build used, at its own time.
    @Test func anUpToDateRebuildRecordsTheSameUsesAtItsTime() async throws {
        try await withSampleAPI(SampleAPIConfiguration(distinctImages: true)) { server, workspace in
            func record() throws -> CacheUseRecord {
                let builds = workspace.url.appendingPathComponent("cache/builds")
                let files = try #require(FileManager.default.enumerator(atPath: builds.path)?.allObjects as? [String])
                let uses = try #require(files.first { $0.hasSuffix(".uses") })
                let bytes = try [UInt8](Data(contentsOf: builds.appendingPathComponent(uses)))
                return try #require(CacheUseRecord(bytes: bytes))
            }
            let first = try await build(
                server, workspace, term: "Hamburg", out: "hamburg", ["--now", "2026-12-07T06:00:00Z"])
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let before = try record()
            #expect(before.used.contains { $0.hasPrefix("images/") } && before.used.contains { $0.hasPrefix("urls/") })
            let again = try await build(
                server, workspace, term: "Hamburg", out: "hamburg", ["--now", "2026-12-07T07:00:00Z"])
            #expect(try summary(again)["upToDate"] as? Bool == true, "\(again.stdout)")
            let after = try record()
            #expect(after.used == before.used && after.output == before.output)
            #expect(after.time.timeIntervalSince(before.time) == 3600)
            #expect(after.counts != before.counts)
            // Asked again, the same answers: a build that does its work with the same paths keeps them at its time.
            let refreshed = try await build(
                server, workspace, term: "Hamburg", out: "hamburg", ["--now", "2026-12-07T08:00:00Z", "--refresh"])
            #expect(try summary(refreshed)["upToDate"] as? Bool == false, "\(refreshed.stdout)")
            let third = try record()
            #expect(third.used == before.used && third.time.timeIntervalSince(before.time) == 7200)
            // Half the items: the record names what this build used, none of the images it no longer shows.
            let fewer = try await build(
                server, workspace, term: "Hamburg", out: "hamburg", ["--now", "2026-12-07T09:00:00Z", "--pages", "1"])
            #expect(fewer.status == 0, "stderr: \(fewer.stderr)")
            let fourth = try record()
            let images = { (record: CacheUseRecord) in record.used.filter { $0.hasPrefix("images/") } }
            #expect(images(fourth).isStrictSubset(of: images(before)), "\(images(fourth).count)")
            #expect(images(fourth).count <= images(before).count * 2 / 3)
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

    /// A build whose own uses are over the cache's size removes all else, once: the builds after it that use the
    /// very same paths say again that the cache is over its size but do not walk it for nothing, until a build uses
    /// other paths.
    @Test func aBuildOverTheSizeByItsOwnUsesDoesNotWalkTheCacheAgainForTheSameUses() async throws {
        try await withSampleAPI(SampleAPIConfiguration(distinctImages: true)) { server, workspace in
            let first = try await build(server, workspace, term: "Hamburg", out: "hamburg")
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let size = ["--cache-max-size", String(Self.cacheBytes(workspace.path("cache")) * 4 / 5)]
            var upkeeps: [[String: Any]] = []
            // Asked again twice: the same paths, with the answers stored anew (a little, against a tenth of room).
            for hour in ["07", "08"] {
                let again = try await build(
                    server, workspace, term: "Hamburg", out: "hamburg",
                    size + ["--refresh", "--now", "2026-12-07T\(hour):00:00Z"])
                #expect(again.status == 0, "stderr: \(again.stderr)")
                #expect(again.stderr.split(separator: "\n").filter { $0.contains("over its size") }.count == 1)
                upkeeps.append(try #require(try summary(again)["cache"] as? [String: Any]))
            }
            #expect(upkeeps[0]["skipped"] == nil, "\(upkeeps[0])")
            #expect(upkeeps[0]["bytesAfter"] as? Int == upkeeps[0]["bytesUsed"] as? Int)
            #expect(upkeeps[1]["skipped"] as? String == "the cache holds what this build uses, over its size")
            #expect(try isWhole(workspace, "hamburg"))
            // Half the items: other paths, so the cache is walked, and what the build no longer uses removed.
            let fewer = try await build(
                server, workspace, term: "Hamburg", out: "hamburg",
                size + ["--pages", "1", "--now", "2026-12-07T09:00:00Z"])
            #expect(fewer.status == 0, "stderr: \(fewer.stderr)")
            let upkeep = try #require(try summary(fewer)["cache"] as? [String: Any])
            #expect(upkeep["skipped"] == nil && (upkeep["entriesRemoved"] as? Int ?? 0) > 0, "\(upkeep)")
            #expect(try isWhole(workspace, "hamburg"))
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

/// `vitrine cache stats` and `vitrine cache prune`, a cache shared by runs, and a hostile cache folder.
@Suite struct CacheCommandTests {
    func cache(_ arguments: [String], _ workspace: Workspace, folder: String = "cache") async throws
        -> VitrineProcess.Outcome
    {
        try await VitrineProcess.run(["cache"] + arguments + ["--cache", workspace.path(folder)])
    }

    func json(_ outcome: VitrineProcess.Outcome) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    }

    /// Holds the cache folder's lock shared, as a running build does, until the returned descriptor is closed.
    func holdShared(_ folder: String) throws -> Int32 {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_SH) == 0)
        return descriptor
    }

    @Test func statsAndPruneSayWhatTheCacheHoldsAndWhatTheyRemoved() async throws {
        try await withSampleAPI(SampleAPIConfiguration(distinctImages: true)) { server, workspace in
            let built = try await CacheSizeTests().build(server, workspace, term: "Hamburg", out: "hamburg")
            #expect(built.status == 0, "stderr: \(built.stderr)")
            let stats = try await cache(["stats", "--json"], workspace)
            #expect(stats.status == 0, "stderr: \(stats.stderr)")
            let report = try json(stats)
            #expect(report["bytes"] as? Int == CacheSizeTests.cacheBytes(workspace.path("cache")))
            #expect(((report["images"] as? [String: Any])?["entries"] as? Int ?? 0) > 0)
            #expect(((report["answers"] as? [String: Any])?["entries"] as? Int ?? 0) == 2)
            #expect(((report["outputFolders"] as? [String: Any])?["entries"] as? Int) == 1)
            #expect(report["oldestUse"] is String)
            let last = try #require(report["lastBuild"] as? [String: Any])
            #expect(last["output"] as? String == workspace.path("hamburg"))
            #expect((last["fetchedImages"] as? Int ?? 0) > 0 && last["fetchedAnswers"] as? Int == 2)
            let text = try await cache(["stats"], workspace)
            #expect(text.status == 0 && text.stdout.contains("2 API answers") && text.stdout.contains("last build: "))

            // While a build holds the cache, prune removes nothing and says so.
            let held = try holdShared(workspace.path("cache"))
            let busy = try await cache(["prune", "--max-size", "1"], workspace)
            close(held)
            #expect(busy.status == 75 && busy.stderr.contains("Another Vitrine run is using the cache"))
            #expect(CacheSizeTests.cacheBytes(workspace.path("cache")) == report["bytes"] as? Int)

            let pruned = try await cache(["prune", "--max-size", "1", "--json"], workspace)
            #expect(pruned.status == 0, "stderr: \(pruned.stderr)")
            let outcome = try json(pruned)
            #expect(outcome["bytesAfter"] as? Int == 0 && outcome["bytesRemoved"] as? Int == report["bytes"] as? Int)
            #expect(CacheSizeTests.cacheBytes(workspace.path("cache")) == 0)
            let again = try await cache(["prune"], workspace)
            #expect(again.status == 0 && again.stdout.hasPrefix("Removed 0 entries"))

            // Everything is downloaded again, and the site is whole.
            let rebuilt = try await CacheSizeTests().build(server, workspace, term: "Hamburg", out: "hamburg")
            #expect(rebuilt.status == 0, "stderr: \(rebuilt.stderr)")
            #expect(try CacheSizeTests().isWhole(workspace, "hamburg"))

            let missing = try await cache(["stats"], workspace, folder: "no-such-cache")
            #expect(missing.status == 0 && missing.stdout.contains("0 bytes"))
            let nothing = try await cache(["prune"], workspace, folder: "no-such-cache")
            #expect(nothing.status == 0 && !FileManager.default.fileExists(atPath: workspace.path("no-such-cache")))
            for bad in ["0", "x", "-5"] {
                let refused = try await cache(["prune", "--max-size", bad], workspace)
                #expect(refused.status == 64, "\(bad): \(refused.stderr)")
            }
        }
    }

    @Test func aBuildNeverRemovesWhatAnotherRunSharingTheCacheIsUsing() async throws {
        try await withSampleAPI(SampleAPIConfiguration(distinctImages: true)) { server, workspace in
            let tests = CacheSizeTests()
            let first = try await tests.build(server, workspace, term: "Hamburg", out: "hamburg")
            #expect(first.status == 0, "stderr: \(first.stderr)")
            let before = CacheSizeTests.cacheBytes(workspace.path("cache"))
            // Another run holds the cache: the build's pruning is skipped, which only --json says.
            let held = try holdShared(workspace.path("cache"))
            let skipped = try await tests.build(
                server, workspace, term: "Berlin", out: "berlin", ["--cache-max-size", "1"])
            close(held)
            #expect(skipped.status == 0, "stderr: \(skipped.stderr)")
            #expect(!skipped.stderr.contains("another run"), "stderr: \(skipped.stderr)")
            let upkeep = try #require(try tests.summary(skipped)["cache"] as? [String: Any])
            #expect(upkeep["skipped"] as? String == "another run is using the cache")
            #expect(CacheSizeTests.cacheBytes(workspace.path("cache")) > before)

            // Two builds at once, each with a size neither fits: both finish whole.
            async let hamburg = tests.build(
                server, workspace, term: "Hamburg", out: "hamburg", ["--cache-max-size", "1", "--refresh"])
            async let berlin = tests.build(
                server, workspace, term: "Berlin", out: "berlin", ["--cache-max-size", "1", "--refresh"])
            let (one, two) = try await (hamburg, berlin)
            #expect(one.status == 0 && two.status == 0, "stderr: \(one.stderr) \(two.stderr)")
            #expect(try tests.isWhole(workspace, "hamburg") && tests.isWhole(workspace, "berlin"))
            // The last one to prune kept what it used: it builds again from the cache alone.
            let offline = try await tests.build(server, workspace, term: "Berlin", out: "berlin", ["--offline"])
            let offlineOther = try await tests.build(server, workspace, term: "Hamburg", out: "hamburg", ["--offline"])
            #expect(offline.status == 0 || offlineOther.status == 0)
        }
    }

    @Test func aHostileCacheFolderIsNeitherFollowedNorEmptiedOutside() async throws {
        let workspace = try Workspace()
        let manager = FileManager.default
        let root = workspace.url.appendingPathComponent("cache")
        let outside = workspace.url.appendingPathComponent("outside")
        let sha = String(repeating: "a", count: 64)
        try manager.createDirectory(at: outside.appendingPathComponent("aa"), withIntermediateDirectories: true)
        try Data([1]).write(to: outside.appendingPathComponent("aa/\(sha).jpg"))
        try Data([2]).write(to: outside.appendingPathComponent("aa/\(sha).meta"))
        try manager.createDirectory(at: root.appendingPathComponent("urls/00"), withIntermediateDirectories: true)
        // A link where the images folder should be, a file where the responses folder should be, a link where a
        // shard of the build records should be, and a link as an entry.
        try manager.createSymbolicLink(at: root.appendingPathComponent("images"), withDestinationURL: outside)
        try Data([3]).write(to: root.appendingPathComponent("responses"))
        try manager.createDirectory(at: root.appendingPathComponent("builds"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(
            at: root.appendingPathComponent("builds/aa"), withDestinationURL: outside.appendingPathComponent("aa"))
        try manager.createSymbolicLink(
            at: root.appendingPathComponent("urls/00/00\(String(repeating: "b", count: 62)).json"),
            withDestinationURL: outside.appendingPathComponent("aa/\(sha).jpg"))
        // Many index entries whose image is gone, one of them unreadable, and a name Vitrine never writes.
        let many = 20_000
        for number in 0..<many {
            let name = "00" + String(format: "%062x", number) + ".json"
            let descriptor = open(root.appendingPathComponent("urls/00/\(name)").path, O_WRONLY | O_CREAT, 0o644)
            #expect(descriptor >= 0 && write(descriptor, "{}", 2) == 2)
            close(descriptor)
        }
        chmod(root.appendingPathComponent("urls/00/00\(String(format: "%062x", 7)).json").path, 0)
        try Data([4]).write(to: root.appendingPathComponent("urls/00/notes.txt"))

        let stats = try await cache(["stats", "--json"], workspace)
        #expect(stats.status == 0, "stderr: \(stats.stderr)")
        let report = try json(stats)
        #expect((report["unusable"] as? [String: Any])?["entries"] as? Int == many)
        #expect((report["images"] as? [String: Any])?["entries"] as? Int == 0)
        let pruned = try await cache(["prune", "--max-size", "1", "--json"], workspace)
        #expect(pruned.status == 0, "stderr: \(pruned.stderr)")
        #expect(try json(pruned)["entriesRemoved"] as? Int == many)
        #expect(manager.fileExists(atPath: outside.appendingPathComponent("aa/\(sha).jpg").path))
        #expect(manager.fileExists(atPath: outside.appendingPathComponent("aa/\(sha).meta").path))
        #expect(manager.fileExists(atPath: root.appendingPathComponent("urls/00/notes.txt").path))
        #expect(manager.fileExists(atPath: root.appendingPathComponent("responses").path))
        #expect(
            (try? manager.destinationOfSymbolicLink(
                atPath: root.appendingPathComponent("urls/00/00\(String(repeating: "b", count: 62)).json").path))
                != nil)
        #expect(try manager.contentsOfDirectory(atPath: root.appendingPathComponent("urls/00").path).count == 2)
    }
}
