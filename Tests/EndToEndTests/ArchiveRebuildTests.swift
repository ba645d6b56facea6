import Foundation
import SampleAPI
import Testing

@testable import VitrineBasics
@testable import VitrineModel
@testable import VitrinePublish

/// Issue 24, item 4: a rebuild in place of a site whose archive holds thousands of items paid for every archived
/// image and for the whole history each time, though nothing had changed. It now takes what the previous build
/// recorded (the cache's image index, the history file as it wrote it); these tests hold that whatever changed since
/// in the cache or the output is found all the same.
extension SiteHistoryTests {
    /// Builds the site "site" (one gallery that keeps every item, `per-page = 10`) on `day` into the same output
    /// folder and cache every time, from `server`.
    func rebuild(day: Int, server: SampleAPIServer, in workspace: Workspace, extra: [String] = []) async throws
        -> Publish
    {
        try FileManager.default.createDirectory(atPath: workspace.path("none"), withIntermediateDirectories: true)
        return try await publish(
            day: day, hits: 0, baseURL: "https://example.org/archive/", in: workspace,
            extra: ["--history-from", workspace.path("none")] + extra, name: "site", server: server, keep: "all")
    }

    @Test func aRebuildInPlaceFindsWhatChangedInTheCacheAndTheOutputSinceTheLastBuild() async throws {
        let workspace = try Workspace()
        let yesterday = Self.server(hits: 5)
        try await yesterday.start()
        let port = await yesterday.port
        let first = try await rebuild(day: 1, server: yesterday, in: workspace)
        await yesterday.stop()
        #expect(first.outcome.status == 0, "\(first.outcome.stderr)")
        func sitemap() throws -> String {
            try String(contentsOfFile: workspace.path("site/sitemap.xml"), encoding: .utf8)
        }
        #expect(try !sitemap().contains("archive.html"))
        let today = Self.server(hits: 3)
        try await today.start(port: port)
        // Fresh results, not the cached answer of the same address: two items left.
        let second = try await rebuild(day: 2, server: today, in: workspace, extra: ["--refresh"])
        await today.stop()
        #expect(second.outcome.status == 0, "\(second.outcome.stderr)")
        // The sitemap of the site's new pages is written anew.
        let listed = try sitemap()
        #expect(listed.contains("<loc>https://example.org/archive/hamburg/archive.html</loc>"), "\(listed)")

        // The archived images, each by its bytes: one gone from the cache (its output copy whole), one whose cache
        // copy changed in place, one whose output copy changed in place, one whose output copy is gone, and one gone
        // from both.
        let archived = second.history.galleries[0].items.filter { !$0.current }.compactMap(\.record)
            .flatMap(\.entries).flatMap { [$0.tile, $0.full] }
        var seen = Set<String>()
        let digests = archived.compactMap(\.sha256).filter { seen.insert($0).inserted }
        try #require(digests.count >= 5)
        let (goneFromCache, changedInCache, changedInOutput, goneFromOutput, goneFromBoth) = (
            digests[0], digests[1], digests[2], digests[3], digests[4]
        )
        func cached(_ sha256: String) -> String {
            workspace.path("site-cache/images/\(sha256.prefix(2))/\(sha256).jpg")
        }
        func output(_ sha256: String) -> String { workspace.path("site/images/\(sha256.prefix(32)).jpg") }
        func flipByte(at path: String) throws {
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.seek(toOffset: 200)
            let byte = try #require(try handle.read(upToCount: 1)?.first)
            try handle.seek(toOffset: 200)
            try handle.write(contentsOf: Data([byte ^ 0xFF]))
            try handle.close()
        }
        let manager = FileManager.default
        try manager.removeItem(atPath: cached(goneFromCache))
        try flipByte(at: cached(changedInCache))
        try flipByte(at: output(changedInOutput))
        try manager.removeItem(atPath: output(goneFromOutput))
        try manager.removeItem(atPath: cached(goneFromBoth))
        try manager.removeItem(atPath: output(goneFromBoth))

        // The next day, the same results, offline: nothing can come from the network.
        let third = try await rebuild(day: 3, server: today, in: workspace, extra: ["--offline"])
        #expect(third.outcome.status == 0, "\(third.outcome.stderr)")
        #expect(third.history == second.history)
        for sha256 in [goneFromCache, changedInCache, changedInOutput, goneFromOutput] {
            #expect(SHA256Hasher.hex(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: output(sha256))))) == sha256)
        }
        for sha256 in [goneFromCache, changedInCache] {
            #expect(SHA256Hasher.hex(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: cached(sha256))))) == sha256)
        }
        #expect(!manager.fileExists(atPath: output(goneFromBoth)))
        #expect(
            third.outcome.stderr.contains("could not be found in the cache, the output or the previous publish"),
            "\(third.outcome.stderr)")
        #expect(try third.site.crawl().broken == [])
        #expect(try sitemap() == listed)

        // And the day after, nothing changed: the output is what the build before left, but for the feed's date.
        let dated: Set<String> = ["feed.xml", OutputManifest.fileName]
        let before = try workspace.tree("site").filter { !dated.contains($0.key) }
        let fourth = try await rebuild(day: 4, server: today, in: workspace, extra: ["--offline"])
        #expect(fourth.outcome.status == 0, "\(fourth.outcome.stderr)")
        #expect(try workspace.tree("site").filter { !dated.contains($0.key) } == before)
    }

    /// The history file is left as the last build wrote it when the history did not change, but only when the
    /// manifest says that this Vitrine's encoding wrote it: a file of another encoding (an earlier Vitrine's, or
    /// one written by hand) is written anew.
    @Test func anUnchangedHistoryIsKeptOnlyWhenThisVitrinesEncodingWroteIt() async throws {
        let workspace = try Workspace()
        let server = Self.server(hits: 4)
        try await server.start()
        let first = try await rebuild(day: 1, server: server, in: workspace)
        #expect(first.outcome.status == 0, "\(first.outcome.stderr)")
        let root = workspace.url.appendingPathComponent("site")
        func manifest() throws -> OutputManifest { try OutputManifest.readChecked(in: root).get() }
        func record() throws -> OutputManifest.File? { try manifest().files.first { $0.path == SiteHistory.fileName } }
        #expect(try record()?.inputs == SiteHistory.encodingMark)

        // The same history in other bytes, recorded as an earlier Vitrine would have: no mark.
        let compact = try JSONEncoder().encode(first.history)
        try compact.write(to: root.appendingPathComponent(SiteHistory.fileName))
        var edited = try manifest()
        let index = try #require(edited.files.firstIndex { $0.path == SiteHistory.fileName })
        edited.files[index] = OutputManifest.File(
            path: SiteHistory.fileName, sha256: SHA256Hasher.hex(of: [UInt8](compact)), size: compact.count)
        try Data(edited.encoded()).write(to: root.appendingPathComponent(OutputManifest.fileName))

        let second = try await rebuild(day: 2, server: server, in: workspace)
        await server.stop()
        #expect(second.outcome.status == 0, "\(second.outcome.stderr)")
        #expect(second.history == first.history)
        let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent(SiteHistory.fileName)))
        #expect(bytes == first.history.encoded())
        #expect(try record()?.inputs == SiteHistory.encodingMark)
    }
}
