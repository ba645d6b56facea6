import Foundation
import SampleAPI
import Testing

@testable import VitrinePipeline

/// `vitrine build --shard K/N` and `--merge`: a site built as shards in parallel processes, each with its own cache
/// and output folder, and merged without a request into the same bytes as one build of the whole config.
@Suite(.serialized) final class ShardedSiteTests: StoppableFixture {
    static let key = "shard-key-31"
    let server = SampleAPIServer(configuration: SampleAPIConfiguration(apiKey: ShardedSiteTests.key))
    let workspace: Workspace
    /// Every build runs at the same time, so that the feed's dates do not depend on when each cache was filled.
    static let environment = ["PIXABAY_API_KEY": key, "SOURCE_DATE_EPOCH": "1700000000"]

    init() async throws {
        workspace = try Workspace()
        try await server.start()
    }

    func stop() async { await server.stop() }

    /// Four galleries of four sources (in shards 1, 2, 1 and 3 of 3), and with `grown` a fifth (in shard 2).
    func writeConfig(_ name: String = "vitrine.toml", title: String = "Snapshots", grown: Bool = false)
        async throws
    {
        let base = await server.baseURL
        var text = """
            title = "\(title)"
            base-url = "https://example.org/snapshots/"

            \(await server.siteGalleries())
            [[gallery]]
            source = "albums"
            path = "people"
            users = 1
            albums = 2
            per-page = 30
            endpoint = "\(base)"
            image-endpoint = "\(base)"

            """
        if grown {
            text += """

                [[gallery]]
                source = "flickr"
                term = "Paris"
                endpoint = "\(await server.flickrEndpoint)"

                """
        }
        try text.write(toFile: workspace.path(name), atomically: true, encoding: .utf8)
    }

    func arguments(_ extra: [String], config: String = "vitrine.toml", cache: String, out: String) -> [String] {
        [
            "build", "--config", workspace.path(config), "--cache", workspace.path(cache), "--out", workspace.path(out),
            "-q",
        ]
            + extra
    }

    func build(
        _ extra: [String] = [], config: String = "vitrine.toml", cache: String = "cache", out: String,
        environment: [String: String] = ShardedSiteTests.environment
    ) async throws -> VitrineProcess.Outcome {
        try await VitrineProcess.run(arguments(extra, config: config, cache: cache, out: out), environment: environment)
    }

    /// Builds shards 1 to `count` of `config` as parallel processes, each into `shard-K` with the cache `cache-K`.
    func buildShards(
        _ count: Int, config: String = "vitrine.toml", prefix: String = "shard", _ extra: [String] = [],
        environment: [String: String] = ShardedSiteTests.environment
    ) async throws {
        let running = try (1...count).map { number in
            try VitrineProcess.launch(
                arguments(
                    ["--shard", "\(number)/\(count)"] + extra, config: config, cache: "\(prefix)-cache-\(number)",
                    out: "\(prefix)-\(number)"),
                environment: environment)
        }
        for (index, process) in running.enumerated() {
            let outcome = try await process.wait()
            #expect(outcome.status == 0, "shard \(index + 1): \(outcome.stderr)")
        }
    }

    func merge(_ shards: [String], config: String = "vitrine.toml", out: String) async throws
        -> VitrineProcess.Outcome
    {
        // No API key and no cache: the merge asks no API anything.
        try await VitrineProcess.run(
            arguments(["--merge"] + shards.map(workspace.path), config: config, cache: "merge-cache", out: out),
            environment: ["SOURCE_DATE_EPOCH": "1700000000"])
    }

    /// The galleries a shard's record lists, by folder.
    func galleries(inShard folder: String) throws -> [String] {
        let bytes = try Data(contentsOf: workspace.url.appendingPathComponent(folder + "/" + ShardRecord.fileName))
        return try JSONDecoder().decode(ShardRecord.self, from: bytes).galleries.map(\.folder)
    }

    @Test func threeShardsBuiltInParallelMergeIntoTheBytesOfOneBuild() async throws {
        try await stopping(self) {
            try await writeConfig()
            let whole = try await build(out: "whole")
            #expect(whole.status == 0, "stderr: \(whole.stderr)")
            try await buildShards(3)
            #expect(try galleries(inShard: "shard-1") == ["hamburg/", "press/"])
            #expect(try galleries(inShard: "shard-2") == ["berlin/"])
            #expect(try galleries(inShard: "shard-3") == ["people/"])

            let merged = try await merge(["shard-1", "shard-2", "shard-3"], out: "merged")
            #expect(merged.status == 0, "stderr: \(merged.stderr)")
            let one = try workspace.tree("whole")
            let other = try workspace.tree("merged")
            #expect(one.count > 200)
            // The site's tag pages among them, which gather the items of galleries from every shard.
            #expect(one.keys.contains("tags/index.html") && one.keys.filter { $0.hasPrefix("tags/") }.count > 10)
            // The site's search page and index, which hold the entries of the galleries of every shard.
            #expect(one.keys.contains("search.html") && one.keys.contains("search-index.js"))
            let index = String(decoding: try #require(one["search-index.js"]), as: UTF8.self)
            for folder in ["hamburg/", "berlin/", "press/", "people/"] { #expect(index.contains("\"\(folder)")) }
            #expect(one.keys.sorted() == other.keys.sorted())
            for (path, bytes) in one { #expect(other[path] == bytes, "\(path) differs") }
            #expect(other[ShardRecord.fileName] == nil)

            // Merging again, in another order, changes nothing; a rebuild of the merged folder is a merge as well.
            let again = try await merge(["shard-3", "shard-1", "shard-2"], out: "merged")
            #expect(again.status == 0, "stderr: \(again.stderr)")
            #expect(try workspace.tree("merged") == other)
        }
    }

    @Test func addingAGalleryMovesNoGalleryToAnotherShard() async throws {
        #expect(SiteShard.number(of: "hamburg/", count: 3) == 1)
        try await stopping(self) {
            try await writeConfig()
            try await buildShards(3)
            let before = try (1...3).map { try galleries(inShard: "shard-\($0)") }
            try await writeConfig("grown.toml", grown: true)
            try await buildShards(3, config: "grown.toml", prefix: "grown")
            let after = try (1...3).map { try galleries(inShard: "grown-\($0)") }
            for (old, new) in zip(before, after) { #expect(Set(old).isSubset(of: Set(new)), "\(old) → \(new)") }
            #expect(after.joined().sorted() == ["berlin/", "hamburg/", "paris/", "people/", "press/"])

            // The shards of the old config are not the grown config's: the merge refuses them, naming the folder.
            let stale = try await merge(["shard-1", "shard-2", "shard-3"], config: "grown.toml", out: "mixed")
            #expect(stale.status == ExitStatus.usage.rawValue)
            #expect(stale.stderr.contains("another config"), "\(stale.stderr)")
        }
    }

    @Test func aMergeRefusesMissingForeignAndIncompleteShards() async throws {
        try await stopping(self) {
            try await writeConfig()
            try await buildShards(3)
            // A folder that is not there.
            let missing = try await merge(["shard-1", "shard-2", "nowhere"], out: "a")
            #expect(missing.status == ExitStatus.usage.rawValue)
            #expect(missing.stderr.contains("no shard folder"), "\(missing.stderr)")
            // A gallery in none of the shards.
            let incomplete = try await merge(["shard-1", "shard-2"], out: "b")
            #expect(incomplete.status == ExitStatus.usage.rawValue)
            #expect(incomplete.stderr.contains("holds the gallery people/"), "\(incomplete.stderr)")
            // A gallery in two.
            let twice = try await merge(["shard-1", "shard-2", "shard-3", "shard-1"], out: "c")
            #expect(twice.status == ExitStatus.usage.rawValue)
            #expect(twice.stderr.contains("in two shard folders"), "\(twice.stderr)")
            // A site that is not a shard's output.
            #expect(try await build(out: "whole").status == 0)
            let foreign = try await merge(["shard-1", "shard-2", "whole"], out: "d")
            #expect(foreign.status == ExitStatus.usage.rawValue)
            #expect(foreign.stderr.contains("not the output of vitrine build --shard"), "\(foreign.stderr)")
            // A shard of another config.
            try await writeConfig("other.toml", title: "Other snapshots")
            let other = try await build(["--shard", "3/3"], config: "other.toml", cache: "other-cache", out: "other-3")
            #expect(other.status == 0, "stderr: \(other.stderr)")
            let mixed = try await merge(["shard-1", "shard-2", "other-3"], out: "e")
            #expect(mixed.status == ExitStatus.usage.rawValue)
            #expect(mixed.stderr.contains("another config"), "\(mixed.stderr)")
            // A page changed since the shard wrote it.
            let page = workspace.url.appendingPathComponent("shard-2/berlin/index.html")
            try Data("<p>changed</p>".utf8).write(to: page)
            let damaged = try await merge(["shard-1", "shard-2", "shard-3"], out: "f")
            #expect(damaged.status == ExitStatus.badData.rawValue)
            #expect(damaged.stderr.contains("is damaged"), "\(damaged.stderr)")
            // None of the refused merges wrote anything.
            for out in ["a", "b", "c", "d", "e", "f"] {
                #expect(try workspace.tree(out).keys.filter { !$0.hasPrefix(".") } == [], "\(out)")
            }
            // A bad shard argument is one sentence.
            let bad = try await build(["--shard", "4/3"], out: "g")
            #expect(bad.status == ExitStatus.usage.rawValue)
            #expect(bad.stderr.contains("--shard takes K/N with 1 <= K <= N, such as 2/3"), "\(bad.stderr)")
        }
    }

    @Test func aHostileShardRecordCannotLeaveTheOutputOrReachThePage() async throws {
        try await stopping(self) {
            try await writeConfig()
            try await buildShards(3)
            let recordURL = workspace.url.appendingPathComponent("shard-2/" + ShardRecord.fileName)
            let original = try Data(contentsOf: recordURL)
            let hostile: [(String, (inout ShardRecord) -> Void)] = [
                ("escaping file", { $0.galleries[0].files.append("berlin/../../escaped.html") }),
                ("script link", { $0.galleries[0].card.href = "javascript:alert(1)" }),
                ("foreign cover", { $0.galleries[0].card.cover?.path = "../../etc/passwd" }),
                ("script cover", { $0.galleries[0].card.cover?.url = "javascript:alert(1)" }),
                ("other folder", { $0.galleries[0].folder = "hamburg/" }),
                ("script source", { $0.galleries[0].card.sourceHome = "javascript:alert(1)" }),
                ("other title", { $0.galleries[0].card.title = "<script>alert(1)</script>" }),
                // Feed times no RFC 3339 date can write: the feed's <updated> would be empty or of year 29720.
                ("far-future feed time", { $0.galleries[0].feed.updated = 1e20 }),
                ("ancient feed time", { $0.galleries[0].feed.updated = -1e12 }),
            ]
            for (name, change) in hostile {
                var record = try JSONDecoder().decode(ShardRecord.self, from: original)
                change(&record)
                try Data(try record.encoded()).write(to: recordURL)
                let outcome = try await merge(["shard-1", "shard-2", "shard-3"], out: "hostile")
                #expect(outcome.status == ExitStatus.badData.rawValue, "\(name): \(outcome.stderr)")
                #expect(outcome.stderr.contains("is damaged"), "\(name): \(outcome.stderr)")
            }
            #expect(!FileManager.default.fileExists(atPath: workspace.path("escaped.html")))
            try original.write(to: recordURL)

            // An image whose bytes are not the ones its name and the shard's manifest give: one that only its shard
            // has (the others would give the merge its bytes). Shards whose pictures are all shown from their own
            // URLs have no images.
            func names(_ shard: String) -> Set<String> {
                Set((try? FileManager.default.contentsOfDirectory(atPath: workspace.path(shard + "/images"))) ?? [])
            }
            let shards = ["shard-1", "shard-2", "shard-3"]
            let (shard, image) = try #require(
                shards.lazy.compactMap { shard -> (String, String)? in
                    let others = shards.filter { $0 != shard }.reduce(into: Set<String>()) { $0.formUnion(names($1)) }
                    return names(shard).subtracting(others).sorted().first.map { (shard, $0) }
                }.first)
            let images = workspace.url.appendingPathComponent(shard + "/images")
            var bytes = try Data(contentsOf: images.appendingPathComponent(image))
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: images.appendingPathComponent(image))
            let tampered = try await merge(["shard-1", "shard-2", "shard-3"], out: "tampered")
            #expect(tampered.status == ExitStatus.badData.rawValue, "\(tampered.stderr)")
            #expect(
                tampered.stderr.contains("the image images/\(image) is missing or does not hold"), "\(tampered.stderr)")
            #expect(try workspace.tree("tampered").keys.filter { !$0.hasPrefix(".") } == [])
            // A link in place of an image is not followed.
            try FileManager.default.removeItem(at: images.appendingPathComponent(image))
            try FileManager.default.createSymbolicLink(
                atPath: images.appendingPathComponent(image).path, withDestinationPath: "/etc/passwd")
            let linked = try await merge(["shard-1", "shard-2", "shard-3"], out: "linked")
            #expect(linked.status == ExitStatus.badData.rawValue, "\(linked.stderr)")
            #expect(try workspace.tree("linked").keys.filter { !$0.hasPrefix(".") } == [])
            try Data("{".utf8).write(to: recordURL)
            let broken = try await merge(["shard-1", "shard-2", "shard-3"], out: "hostile")
            #expect(broken.status == ExitStatus.badData.rawValue, "\(broken.stderr)")
            #expect(try workspace.tree("hostile").keys.filter { !$0.hasPrefix(".") } == [])
        }
    }

    @Test func aMergeWritesOnlyWhereABuildWould() async throws {
        try await stopping(self) {
            try await writeConfig()
            try await buildShards(3)
            // Not into a folder of files Vitrine did not write, nor into one of the shards.
            try FileManager.default.createDirectory(
                atPath: workspace.path("mine"), withIntermediateDirectories: true)
            try Data("mine".utf8).write(to: workspace.url.appendingPathComponent("mine/notes.txt"))
            let foreign = try await merge(["shard-1", "shard-2", "shard-3"], out: "mine")
            #expect(foreign.status == ExitStatus.cannotWrite.rawValue, "\(foreign.stderr)")
            #expect(try workspace.tree("mine").keys.filter { !$0.hasPrefix(".") } == ["notes.txt"])
            let into = try await merge(["shard-1", "shard-2", "shard-3"], out: "shard-2")
            #expect(into.status == ExitStatus.usage.rawValue, "\(into.stderr)")
            #expect(into.stderr.contains("is one of the shards"), "\(into.stderr)")
            // A merged site whose config drops a gallery removes that gallery's files, and only those.
            #expect(try await merge(["shard-1", "shard-2", "shard-3"], out: "merged").status == 0)
            try Data("kept".utf8).write(to: workspace.url.appendingPathComponent("merged/people/mine.txt"))
            let text = try String(contentsOfFile: workspace.path("vitrine.toml"), encoding: .utf8)
            try String(text[..<text.range(of: "[[gallery]]\nsource = \"albums\"")!.lowerBound])
                .write(toFile: workspace.path("smaller.toml"), atomically: true, encoding: .utf8)
            try await buildShards(3, config: "smaller.toml", prefix: "smaller")
            let smaller = try await merge(
                ["smaller-1", "smaller-2", "smaller-3"], config: "smaller.toml", out: "merged")
            #expect(smaller.status == 0, "\(smaller.stderr)")
            #expect(try workspace.tree("merged/people").keys.sorted() == ["mine.txt"])
        }
    }

    @Test func aRandomGalleryMergesIntoTheBytesOfOneBuild() async throws {
        try await stopping(self) {
            try """
            title = "Random"
            base-url = "https://example.org/random/"

            [[gallery]]
            source = "pixabay"
            term = "Hamburg"
            per-page = 4
            endpoint = "\(await server.pixabayEndpoint)"

            [[gallery]]
            source = "random"
            every = "10m"
            endpoint = "\(await server.picsumEndpoint)"
            """.write(toFile: workspace.path("random.toml"), atomically: true, encoding: .utf8)
            // Every build at the same instant (--now), so the random page's photo is the same in each.
            let now = RandomPageTests.at(minutes: 0)
            #expect(SiteShard.number(of: "random/", count: 2) == 2)
            let whole = try await build(now, config: "random.toml", out: "whole")
            #expect(whole.status == 0, "stderr: \(whole.stderr)")
            try await buildShards(2, config: "random.toml", now)
            #expect(try galleries(inShard: "shard-2") == ["random/"])
            let merged = try await merge(["shard-1", "shard-2"], config: "random.toml", out: "merged")
            #expect(merged.status == 0, "stderr: \(merged.stderr)")
            let one = try workspace.tree("whole")
            let other = try workspace.tree("merged")
            #expect(one.keys.contains("random/random.json"))
            #expect(one.keys.sorted() == other.keys.sorted())
            for (path, bytes) in one { #expect(other[path] == bytes, "\(path) differs") }
        }
    }

    @Test func aShardWithoutGalleriesStillBuildsAndMerges() async throws {
        try await stopping(self) {
            try """
            title = "Press"

            [[gallery]]
            source = "thumbnails"
            path = "press"
            limit = 6
            endpoint = "\(await server.thumbnailsEndpoint)"
            """.write(toFile: workspace.path("press.toml"), atomically: true, encoding: .utf8)
            #expect(SiteShard.number(of: "press/", count: 2) == 2)
            let whole = try await build(config: "press.toml", out: "whole")
            #expect(whole.status == 0, "stderr: \(whole.stderr)")
            try await buildShards(2, config: "press.toml")
            #expect(try galleries(inShard: "shard-1") == [])
            let merged = try await merge(["shard-1", "shard-2"], config: "press.toml", out: "merged")
            #expect(merged.status == 0, "stderr: \(merged.stderr)")
            #expect(try workspace.tree("merged") == workspace.tree("whole"))
        }
    }
}
