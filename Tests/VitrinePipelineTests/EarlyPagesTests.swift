import Foundation
import Synchronization
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import SampleAPI
@testable import VitrineHTTP
@testable import VitrineModel
@testable import VitrinePipeline
@testable import VitrinePublish
@testable import VitrineRender
@testable import VitrineStore

/// A build renders pages while its images download (`EarlyPages`): what it writes is, file for file, what a build
/// that renders every page after the downloads writes, also when images fail after pages were rendered early, and
/// a page rendered from other inputs is never taken.
@Suite struct EarlyPagesTests {
    /// 60 items in 12 grid pages of 5, each item with two preview pages.
    static let source = IncrementalBuildTests.FixedSource(captions: (1...60).map { "harbour, crane \($0)" })

    /// Serves every image URL bytes of its own (the same picture with the URL in a comment), answers the URLs
    /// `failing` names with HTTP 500, and holds the last `heldBack` image requests until `release` says so (or
    /// 20 s have passed), so that a build's early pages are rendered before its downloads end.
    final class HoldingFetcher: HTTPFetching {
        let heldBack: Int
        let total: Int
        let failing: @Sendable (String) -> Bool
        let release: @Sendable () -> Bool
        private let served = Mutex(0)

        init(
            heldBack: Int, total: Int, failing: @escaping @Sendable (String) -> Bool = { _ in false },
            release: @escaping @Sendable () -> Bool
        ) {
            self.heldBack = heldBack
            self.total = total
            self.failing = failing
            self.release = release
        }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
            let number = served.withLock { count in
                count += 1
                return count
            }
            if number > total - heldBack {
                let deadline = ContinuousClock.now + .seconds(20)
                while !release() && ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(2))
                }
            }
            if failing(request.url) { return FetchResponse(status: 500, body: [], effectiveURL: request.url) }
            let bytes = JPEGComment.insert(request.url, into: RandomPipelineTests.jpeg)
            return FetchResponse(status: 200, body: [UInt8](bytes), effectiveURL: request.url)
        }
    }

    /// Builds `source` into `name` below `folder`, with pages rendered early into `early` (nil: none), through
    /// `fetcher`; returns the summary (without its time) and every file of the output with its bytes.
    func build(
        in folder: TemporaryFolder, _ name: String, early: EarlyPages?, fetcher: any HTTPFetching
    ) async throws -> (summary: BuildSummary, files: [String: Data]) {
        var pipeline = GalleryPipeline(
            fetcher: fetcher, cache: CacheStore(root: folder.url.appendingPathComponent("cache-\(name)")),
            policy: CachePolicy(), now: Date.init)
        pipeline.earlyPagesOfABuild = { early }
        let output = folder.url.appendingPathComponent(name)
        var summary = try await pipeline.run(
            Self.source, label: "Hamburg", options: BuildOptions(output: output, itemsPerPage: 5))
        summary.seconds = 0
        return (summary, try PageWriterTests().files(under: output))
    }

    /// The two images of every item.
    static let imageCount = 60 * 2

    /// Pages rendered early at the normal scheduling class: in the idle one, a machine kept busy by other work (a
    /// CI runner, the whole suite under load) would give the rendering no time, and these tests would see no page.
    static func earlyPages() -> EarlyPages { EarlyPages(rendersWhenIdle: false) }

    @Test func pagesRenderedWhileTheImagesDownloadAreTheBytesOfPagesRenderedAfter() async throws {
        let folder = try TemporaryFolder()
        let early = Self.earlyPages()
        let after = try await build(
            in: folder, "after", early: nil, fetcher: HoldingFetcher(heldBack: 0, total: Self.imageCount) { true })
        let during = try await build(
            in: folder, "during", early: early,
            fetcher: HoldingFetcher(heldBack: 8, total: Self.imageCount) { early.counts.rendered > 0 })
        // A page the idle thread was still rendering as the downloads ended may come after the build rendered it
        // itself: it is rendered and not taken.
        let counts = early.counts
        #expect(counts.taken > 0)
        #expect(counts.taken <= counts.rendered)
        #expect(during.summary == after.summary)
        #expect(during.files.keys.sorted() == after.files.keys.sorted())
        let differing = after.files.keys.filter { after.files[$0] != during.files[$0] }
        #expect(differing.isEmpty, "\(differing.sorted().prefix(5))")
        #expect(after.files.keys.filter { $0.hasSuffix(".html") }.count >= 132)
    }

    /// The images held back fail: the pages that show them, and those rendered early before the failures were
    /// known, are what a build that rendered after the downloads makes of the failures.
    @Test func imagesThatFailAfterPagesWereRenderedEarlyLeaveTheBytesOfABuildThatRenderedAfter() async throws {
        let folder = try TemporaryFolder()
        let early = Self.earlyPages()
        // The last items' images: the requests held back are the last ones sent.
        let failing: @Sendable (String) -> Bool = { url in
            (55..<60).contains { url.hasPrefix("https://cdn.example/\($0)_") }
        }
        let after = try await build(
            in: folder, "after", early: nil,
            fetcher: HoldingFetcher(heldBack: 0, total: Self.imageCount, failing: failing) { true })
        let during = try await build(
            in: folder, "during", early: early,
            fetcher: HoldingFetcher(heldBack: 10, total: Self.imageCount, failing: failing) {
                early.counts.rendered > 0
            })
        #expect(early.counts.rendered > 0)
        #expect(after.summary.imagesFailed == 10)
        #expect(during.summary == after.summary)
        let differing = after.files.keys.filter { after.files[$0] != during.files[$0] }
        #expect(during.files.keys.sorted() == after.files.keys.sorted())
        #expect(differing.isEmpty, "\(differing.sorted().prefix(5))")
    }

    @Test func aPageIsTakenOnlyForTheInputsItWasRenderedFromAndOnlyOnce() {
        let early = EarlyPages()
        #expect(early.keep(RenderedPage(href: "items/1-original.html", bytes: [1, 2, 3]), inputs: "aaaa"))
        #expect(early.take("items/1-original.html", inputs: "bbbb") == nil)
        #expect(early.take("items/2-original.html", inputs: "aaaa") == nil)
        #expect(early.take("items/1-original.html", inputs: "aaaa") == [1, 2, 3])
        #expect(early.take("items/1-original.html", inputs: "aaaa") == nil)
        #expect(early.counts.rendered == 1 && early.counts.taken == 1)
    }

    @Test func pagesBeyondTheBudgetAreNotKept() {
        let early = EarlyPages(budget: 10)
        #expect(early.keep(RenderedPage(href: "a.html", bytes: Array(repeating: 0, count: 6)), inputs: "x"))
        #expect(!early.keep(RenderedPage(href: "b.html", bytes: Array(repeating: 0, count: 5)), inputs: "x"))
        #expect(!early.isFull)
        #expect(early.keep(RenderedPage(href: "c.html", bytes: Array(repeating: 0, count: 4)), inputs: "x"))
        #expect(early.isFull)
        // A page taken frees its room.
        #expect(early.take("a.html", inputs: "x") != nil)
        #expect(!early.isFull)
    }

    /// A view shows the placeholder when any picture of its items is still downloading, in any size.
    @Test func aViewThatShowsAnImageStillDownloadingIsNotRenderedEarly() async throws {
        let result = try await Self.source.collect(using: FakeAPI { _ in (200, "") })
        let layout = GalleryLayout(
            assembler: GalleryAssembler(itemsPerPage: 5), changesHref: nil, hasSearch: false, folder: "",
            salt: "theme")
        var images: [String: ImageOutcome] = [:]
        let record = CacheStore.ImageRecord(
            sha256: String(repeating: "a", count: 64), format: .jpeg, byteCount: 10, width: 640, height: 427)
        for url in result.remoteImageURLs { images[url] = .stored(record) }
        // Item 30's full-size picture is on its way.
        images["https://cdn.example/29_1280.jpg"] = .stored(EarlyRendering.placeholder)
        let views = layout.layOut(result, images: images, notices: []).views
        let showing = Set(views.filter(EarlyRendering.showsPlaceholder).map(\.job.href))
        // Its grid page, its own previews and its neighbours'.
        #expect(
            showing
                == [
                    "page-6.html", "items/29-original.html", "items/29-graffiti.html", "items/30-original.html",
                    "items/30-graffiti.html", "items/31-original.html", "items/31-graffiti.html",
                ])
    }
}
