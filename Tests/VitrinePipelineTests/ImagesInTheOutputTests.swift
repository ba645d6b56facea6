import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineModel
@testable import VitrinePipeline
@testable import VitrinePublish
@testable import VitrineStore

/// A rebuild takes an image whose output copy is intact without checking its cached file, which it does not read;
/// once the output lacks the copy, the cached file is checked before it is copied, and damaged bytes are downloaded
/// again.
@Suite struct ImagesInTheOutputTests {
    let folder: TemporaryFolder
    let cacheRoot: URL
    let output: URL

    init() throws {
        folder = try TemporaryFolder()
        cacheRoot = folder.url.appendingPathComponent("cache")
        output = folder.url.appendingPathComponent("out")
    }

    /// Builds 60 items (120 images) into the same output from the same cache; the first item's caption is the
    /// `revision`-th, so that a build with another one is no rebuild with nothing to do.
    func build(revision: Int = 0) async throws -> BuildSummary {
        let pipeline = GalleryPipeline(
            fetcher: EarlyPagesTests.HoldingFetcher(heldBack: 0, total: EarlyPagesTests.imageCount) { true },
            cache: CacheStore(root: cacheRoot), policy: CachePolicy(), now: Date.init)
        let source = IncrementalBuildTests.FixedSource(
            captions: ["harbour, crane, revision \(revision)"] + (2...60).map { "harbour, crane \($0)" })
        return try await pipeline.run(source, label: "Hamburg", options: BuildOptions(output: output, itemsPerPage: 5))
    }

    /// Dates every shard folder of the cache an hour back, so that the next build's image snapshot holds them.
    func settleTheCache() throws {
        for kind in ["urls", "images"] {
            let kindFolder = cacheRoot.appendingPathComponent(kind)
            for shard in try FileManager.default.contentsOfDirectory(atPath: kindFolder.path) {
                try FileManager.default.setAttributes(
                    [.modificationDate: Date().addingTimeInterval(-3600)],
                    ofItemAtPath: kindFolder.appendingPathComponent(shard).path)
            }
        }
    }

    @Test func anIntactOutputCopySparesTheCachedFilesCheckAndAMissingOneDoesNot() async throws {
        _ = try await build()
        try settleTheCache()
        // Every image looked up and its file checked; the snapshot of the settled folders is recorded.
        #expect(try await build(revision: 1).imagesDownloaded == 0)

        let url = "https://cdn.example/7_640.jpg"
        let record = try #require(await CacheStore(root: cacheRoot).imageRecords(for: [url]).records[url])
        let cached = CacheStore(root: cacheRoot).imageFile(for: record)
        let copy = output.appendingPathComponent(GalleryAssembler.localPath(of: record))
        let bytes = try Data(contentsOf: copy)
        #expect(SHA256Hasher.hex(of: [UInt8](bytes)) == record.sha256)
        // The cached bytes changed in place: the same size, the folder's time as it was; only the file's stamp
        // tells.
        let handle = try FileHandle(forWritingTo: cached)
        try handle.seek(toOffset: 20)
        try handle.write(contentsOf: Data([0xEE]))
        try handle.close()
        let damaged = try Data(contentsOf: cached)
        #expect(damaged != bytes)

        // The output's copy is intact where the build puts the image: the cached file is neither read nor checked.
        let kept = try await build(revision: 2)
        #expect(kept.pagesWritten > 0 && kept.imagesDownloaded == 0 && kept.imagesFailed == 0)
        #expect(try Data(contentsOf: copy) == bytes)
        #expect(try Data(contentsOf: cached) == damaged)

        // Without the copy the build reads the cached file: it is checked first, found damaged and downloaded again.
        try FileManager.default.removeItem(at: copy)
        let restored = try await build(revision: 2)
        #expect(restored.imagesDownloaded == 1 && restored.imagesFailed == 0)
        #expect(try Data(contentsOf: copy) == bytes)
        #expect(try Data(contentsOf: cached) == bytes)
    }
}
