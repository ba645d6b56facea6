import Foundation
import Synchronization
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineHTTP
@testable import VitrineModel
@testable import VitrinePipeline
@testable import VitrinePublish
@testable import VitrineRender
@testable import VitrineStore

/// A build renders many pages on every core and writes them on one task: the same files, bytes, manifest and
/// counts as rendering them in turn; the first failing page, or a cancellation, stops it where rendering in turn
/// would have stopped.
@Suite struct PageWriterTests {
    /// The ways a build may render its pages: on every core from the first page, or always in turn.
    static let ways = [1, Int.max]

    /// 60 items in 12 grid pages of 5, each item with two preview pages: 132 pages.
    static let source = IncrementalBuildTests.FixedSource(captions: (1...60).map { "harbour, crane \($0)" })

    func pipeline(
        in folder: TemporaryFolder, renderingOnEveryCoreFrom threshold: Int,
        progress: @escaping @Sendable (ProgressEvent) -> Void = { _ in }
    ) -> GalleryPipeline {
        let fetcher = FakeFetcher { request in
            .success(FetchResponse(status: 200, body: [UInt8](RandomPipelineTests.jpeg), effectiveURL: request.url))
        }
        var pipeline = GalleryPipeline(
            fetcher: fetcher, cache: CacheStore(root: folder.url.appendingPathComponent("cache-\(threshold)")),
            policy: CachePolicy(),
            progress: progress, now: Date.init)
        pipeline.pagesRenderedOnEveryCoreFrom = threshold
        return pipeline
    }

    /// Every regular file below `root` (hidden ones too) with its bytes.
    func files(under root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let walker = try #require(
            FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in walker
        where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            files[String(url.path.dropFirst(root.path.count + 1))] = try Data(contentsOf: url)
        }
        return files
    }

    @Test func pagesRenderedOnEveryCoreAreTheBytesOfPagesRenderedInTurn() async throws {
        let folder = try TemporaryFolder()
        var outputs: [[String: Data]] = []
        var summaries: [BuildSummary] = []
        for threshold in [Int.max, 1] {
            let events = Mutex<[(done: Int, total: Int)]>([])
            let output = folder.url.appendingPathComponent("out-\(threshold)")
            let summary = try await pipeline(in: folder, renderingOnEveryCoreFrom: threshold) { event in
                if case .rendering(let done, let total) = event { events.withLock { $0.append((done, total)) } }
            }.run(Self.source, label: "Hamburg", options: BuildOptions(output: output, itemsPerPage: 5))
            let rendering = events.withLock { $0 }
            #expect(rendering.last.map { $0.done == $0.total } == true)
            #expect(zip(rendering, rendering.dropFirst()).allSatisfy { $0.done <= $1.done && $1.done <= $1.total })
            outputs.append(try files(under: output))
            var timeless = summary
            timeless.seconds = 0
            summaries.append(timeless)
        }
        #expect(summaries[0].pagesRendered == 12 + 60 * 2 + 1)  // grid pages, previews, the search page
        #expect(summaries[1] == summaries[0])
        // Every file, the manifest included, is the same.
        #expect(outputs[1].keys.sorted() == outputs[0].keys.sorted())
        #expect(outputs[0].keys.contains(".vitrine-manifest.json"))
        let differing = outputs[0].keys.filter { outputs[0][$0] != outputs[1][$0] }
        #expect(differing.isEmpty, "\(differing.sorted().prefix(5))")
        #expect(outputs[0].keys.filter { $0.hasSuffix(".html") }.count >= 132)
    }

    /// The built-in theme, but its grid page `c1-p3` (page-3.html) stops its transform.
    static let themeFailingOnPageThree: Theme = {
        var files = Theme.builtIn.files
        files["grid-base.xsl"] = files["grid.xsl"]
        files["grid.xsl"] = Array(
            """
            <xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
              <xsl:import href="grid-base.xsl"/>
              <xsl:param name="page"/>
              <xsl:template match="/">
                <xsl:if test="$page = 'c1-p3'"><xsl:message terminate="yes">no third page</xsl:message></xsl:if>
                <xsl:apply-imports/>
              </xsl:template>
            </xsl:stylesheet>
            """.utf8)
        return Theme(files: files, origin: "a theme that fails on its third page")
    }()

    @Test(arguments: ways)
    func aFailingPageStopsTheBuildNamingItAndNothingAfterItIsWritten(threshold: Int) async throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out")
        let options = BuildOptions(output: output, itemsPerPage: 5, theme: Self.themeFailingOnPageThree)
        let error = await #expect(throws: TemplateError.self) {
            try await pipeline(in: folder, renderingOnEveryCoreFrom: threshold).run(
                Self.source, label: "Hamburg", options: options)
        }
        #expect(error?.sentence.contains("page-3.html") == true, "\(error?.sentence ?? "")")
        #expect(error?.sentence.contains("no third page") == true, "\(error?.sentence ?? "")")
        let written = try files(under: output).keys
        // The pages before it in order are written; it and those after it are not, and no temporary file is left.
        #expect(written.contains("index.html") && written.contains("page-2.html"))
        #expect(!written.contains("page-3.html"))
        #expect(!written.contains { $0.hasPrefix("page-") && $0 != "page-2.html" || $0.hasPrefix("items/") })
        #expect(!written.contains { $0.contains(".vitrine-\(getpid())-") }, "\(written.sorted())")
    }

    @Test(arguments: ways)
    func aCancelledBuildWritesNoPageAfterTheCancellation(threshold: Int) async throws {
        let folder = try TemporaryFolder()
        let output = folder.url.appendingPathComponent("out")
        // Cancels the build's own task once its tenth page is written (progress is told on that task).
        let cancelling = pipeline(in: folder, renderingOnEveryCoreFrom: threshold) { event in
            if case .rendering(done: 10, _) = event { withUnsafeCurrentTask { $0?.cancel() } }
        }
        await #expect(throws: CancellationError.self) {
            try await cancelling.run(
                Self.source, label: "Hamburg", options: BuildOptions(output: output, itemsPerPage: 5))
        }
        let written = try files(under: output).keys
        #expect(written.filter { $0.hasSuffix(".html") }.count == 10, "\(written.sorted())")
        #expect(!written.contains { $0.contains(".vitrine-\(getpid())-") }, "\(written.sorted())")
    }

    /// A grid page costs as many preview pages as a third of what it shows: a few heavy pages are rendered on every
    /// core where as many previews are rendered in turn, and a child task's run stops once it costs eight previews.
    @Test func pagesAreRenderedOnEveryCoreByWhatTheyShowNotByHowManyTheyAre() async throws {
        let result = try await EarlyPagesTests.source.collect(using: FakeAPI { _ in (200, "") })
        let layout = GalleryLayout(
            assembler: GalleryAssembler(itemsPerPage: 30), changesHref: nil, hasSearch: false, folder: "",
            salt: "theme")
        let record = CacheStore.ImageRecord(
            sha256: String(repeating: "a", count: 64), format: .jpeg, byteCount: 10, width: 640, height: 427)
        var images: [String: ImageOutcome] = [:]
        for url in result.remoteImageURLs { images[url] = .stored(record) }
        let pages = layout.layOut(result, images: images, notices: []).views.map {
            PageWriter.PendingPage(gallery: 0, view: $0)
        }
        let grids = pages.filter { $0.view.job.kind == .grid }
        let previews = pages.filter { $0.view.job.kind == .preview }
        #expect(grids.map(\.view.job.href) == ["index.html", "page-2.html"])
        #expect(grids.map { PageWriter.previewPages(of: $0.view) } == [10, 10])
        #expect(previews.count == 120 && previews.allSatisfy { PageWriter.previewPages(of: $0.view) == 1 })

        // Two grid pages of 30 items cost 20 previews; with twelve previews, 32: the threshold.
        #expect(!PageWriter.rendersOnEveryCore(grids, from: PageWriter.onEveryCoreFrom))
        #expect(!PageWriter.rendersOnEveryCore(Array(previews.prefix(31)), from: PageWriter.onEveryCoreFrom))
        #expect(!PageWriter.rendersOnEveryCore(grids + previews.prefix(11), from: PageWriter.onEveryCoreFrom))
        #expect(PageWriter.rendersOnEveryCore(grids + previews.prefix(12), from: PageWriter.onEveryCoreFrom))
        #expect(PageWriter.rendersOnEveryCore(Array(previews.prefix(32)), from: PageWriter.onEveryCoreFrom))

        // Runs in the pages' order: a grid page alone, eight previews, a preview and a grid page, the last two.
        let order = [grids[0]] + previews.prefix(9) + [grids[1]] + previews.suffix(2)
        var reversed = Array(order.reversed())
        var runs: [[String]] = []
        while let run = PageWriter.nextRun(of: &reversed) { runs.append(run.map(\.view.job.href)) }
        #expect(runs.map(\.count) == [1, 8, 2, 2])
        #expect(runs.flatMap { $0 } == order.map(\.view.job.href))
        #expect(reversed.isEmpty)
    }
}
