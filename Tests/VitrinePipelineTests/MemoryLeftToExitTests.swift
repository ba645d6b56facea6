import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrinePipeline
@testable import VitrinePublish
@testable import VitrineStore

/// A build leaves what it made to the process's exit only when its options say the process ends after it.
@Suite struct MemoryLeftToExitTests {
    @Test func aBuildKeepsWhatItMadeOnlyWhenTheProcessEndsAfterIt() async throws {
        let folder = try TemporaryFolder()
        func build(revision: Int, leaving: Bool) async throws -> BuildSummary {
            let pipeline = GalleryPipeline(
                fetcher: EarlyPagesTests.HoldingFetcher(heldBack: 0, total: EarlyPagesTests.imageCount) { true },
                cache: CacheStore(root: folder.url.appendingPathComponent("cache")), policy: CachePolicy(),
                now: Date.init)
            let source = IncrementalBuildTests.FixedSource(
                captions: ["harbour, revision \(revision)"] + (2...12).map { "harbour, crane \($0)" })
            var options = BuildOptions(output: folder.url.appendingPathComponent("out"), itemsPerPage: 5)
            options.leavesMemoryToExit = leaving
            return try await pipeline.run(source, label: "Hamburg", options: options)
        }
        let output = folder.url.appendingPathComponent("out").path
        #expect(try await build(revision: 0, leaving: false).pagesWritten > 0)
        #expect(LeftToExit.count(labelled: output) == 0)
        #expect(try await build(revision: 1, leaving: true).pagesWritten > 0)
        #expect(LeftToExit.count(labelled: output) == 1)
    }
}
