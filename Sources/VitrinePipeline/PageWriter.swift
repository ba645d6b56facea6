import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrinePublish
import VitrineRender

/// Renders a page from its view of the model and writes it, unless the previous run wrote it from the same inputs
/// and it is still there. Pages are written only on the task that calls it, the one that owns the writer; many
/// pages are rendered on every core first (``publish(_:onEveryCoreFrom:written:)``).
struct PageWriter {
    /// Renders the pages, each with stylesheets no other render is using meanwhile.
    let pool: PageRendererPool
    let writer: OutputWriter
    /// Pages rendered while the images downloaded: a page made from the same inputs takes their bytes.
    var early: EarlyPages? = nil

    /// A page to render: its view, with the gallery (by index) whose report counts it.
    struct PendingPage: Sendable {
        var gallery: Int
        var view: GalleryModel.PageView
    }

    /// A rendered page with what it was made from, for the writer.
    struct MadePage: Sendable {
        var page: RenderedPage
        var inputs: String
    }

    /// From how much rendering, counted in preview pages (``previewPages(of:)``), a build renders its pages on
    /// every core; below, one after the other on the task that writes them, where starting tasks and handing pages
    /// between threads costs more than a second core saves (BENCHMARKS.md, "Figures behind the code").
    static let onEveryCoreFrom = 32

    /// How much rendering, counted in preview pages, one child task does in a row: a task and a hand-off between
    /// threads for every page took a tenth more processor time than rendering in turn (BENCHMARKS.md, "Figures
    /// behind the code").
    static let pagesPerTask = 8

    /// What rendering `view` costs, counted in preview pages: a preview shows its item and the two beside it, and a
    /// page's transform takes about the same time for each item or collection it shows, so a grid page of 100
    /// items costs about 33 previews (35 ms against 1 ms at 1,000 items).
    static func previewPages(of view: GalleryModel.PageView) -> Int {
        max(1, (view.items.count + view.below.count) / 3)
    }

    func publish(
        _ job: GalleryModel.PageJob, from model: () -> LibXMLDocument, inputs: String, counts: inout BuildSummary
    ) throws {
        if writer.keep(job.href, inputs: inputs) {
            counts.pagesUnchanged += 1
            return
        }
        let page = try Self.render(job, theme: pool.theme) { () throws(TemplateError) in
            try pool.render(job, model: model)
        }
        try write(MadePage(page: page, inputs: inputs), counts: &counts)
    }

    /// Writes a rendered page and counts it.
    func write(_ made: MadePage, counts: inout BuildSummary) throws {
        counts.pagesRendered += 1
        if try writer.write(made.page.bytes, to: made.page.href, inputs: made.inputs) {
            counts.pagesWritten += 1
        } else {
            counts.pagesUnchanged += 1
        }
    }

    /// Renders every page of `pages` (which it leaves empty) and calls `written` with each, in order, to write it;
    /// from `threshold` preview pages' worth of rendering on, they are rendered on every core, `pagesPerTask`
    /// preview pages' worth in a row by a child task, a few such runs ahead of the one being written
    /// (``InOrderWork``). The first failure in the pages' order stops it, as does the task's cancellation: the
    /// pages before it are written, none after.
    func publish(
        _ pages: inout [PendingPage], onEveryCoreFrom threshold: Int, written: (Int, MadePage) throws -> Void
    ) async throws {
        defer { pages = [] }
        guard Self.rendersOnEveryCore(pages, from: threshold) else {
            for pending in pages {
                try Task.checkCancellation()
                try written(pending.gallery, Self.made(pending.view, with: pool, early: early))
            }
            return
        }
        pages.reverse()
        MemoryTuning.returnFreedMemory()
        let lender = pool
        let early = self.early
        try await InOrderWork.run(
            next: { Self.nextRun(of: &pages) },
            make: { run -> [(Int, Result<MadePage, any Error>)] in
                var made: [(Int, Result<MadePage, any Error>)] = []
                for pending in run {
                    let result =
                        Task.isCancelled
                        ? .failure(CancellationError())
                        : Result { try Self.made(pending.view, with: lender, early: early) }
                    made.append((pending.gallery, result))
                    if case .failure = result { break }
                }
                return made
            },
            consume: { made in
                for (gallery, result) in made {
                    try Task.checkCancellation()
                    try written(gallery, result.get())
                }
            })
    }

    /// Whether rendering `pages` costs at least `threshold` preview pages.
    static func rendersOnEveryCore(_ pages: [PendingPage], from threshold: Int) -> Bool {
        var cost = 0
        for page in pages {
            cost += previewPages(of: page.view)
            if cost >= threshold { return true }
        }
        return false
    }

    /// The next run one child task renders, taken from the end of `reversed` (the pages in their reverse order):
    /// pages in their order until they cost `pagesPerTask` preview pages; nil when none is left.
    static func nextRun(of reversed: inout [PendingPage]) -> [PendingPage]? {
        var run: [PendingPage] = []
        var cost = 0
        while cost < pagesPerTask, let page = reversed.popLast() {
            cost += previewPages(of: page.view)
            run.append(page)
        }
        return run.isEmpty ? nil : run
    }

    /// A gallery's page rendered from its view, on whichever thread calls it, or taken from the pages rendered
    /// early from the same inputs.
    private static func made(
        _ view: GalleryModel.PageView, with pool: PageRendererPool, early: EarlyPages?
    ) throws -> MadePage {
        if let bytes = early?.take(view.job.href, inputs: view.inputs) {
            return MadePage(page: RenderedPage(href: view.job.href, bytes: bytes), inputs: view.inputs)
        }
        let page = try render(view.job, theme: pool.theme) { () throws(TemplateError) in
            try pool.render(view.job) { ModelDocument.make(view) }
        }
        return MadePage(page: page, inputs: view.inputs)
    }

    /// Renders one page with `transform`; the built-in theme's failing is reported as Vitrine's fault.
    private static func render(
        _ job: GalleryModel.PageJob, theme: Theme, _ transform: () throws(TemplateError) -> RenderedPage
    ) throws -> RenderedPage {
        do {
            return try transform()
        } catch {
            // The built-in theme is tested against every model Vitrine makes: its failing is Vitrine's fault.
            guard theme.isBuiltIn else { throw error }
            throw InternalInconsistencyError(detail: "the built-in theme failed on \(job.href) (\(error.sentence))")
        }
    }
}
