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

    /// From how many pages to render a build renders them on every core; below, one after the other on the task
    /// that writes them, where starting tasks and handing pages between threads costs more than a second core
    /// saves (BENCHMARKS.md, "Figures behind the code").
    static let onEveryCoreFrom = 32

    /// How many pages in a row one child task renders: a task and a hand-off between threads for every page took
    /// a tenth more processor time than rendering in turn (BENCHMARKS.md, "Figures behind the code").
    static let pagesPerTask = 8

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
    /// from `threshold` pages on, they are rendered on every core, `pagesPerTask` in a row by a child task, a few
    /// such runs ahead of the one being written (``InOrderWork``). The first failure in the pages' order stops it,
    /// as does the task's cancellation: the pages before it are written, none after.
    func publish(
        _ pages: inout [PendingPage], onEveryCoreFrom threshold: Int, written: (Int, MadePage) throws -> Void
    ) async throws {
        defer { pages = [] }
        guard pages.count >= threshold else {
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
            next: { () -> [PendingPage]? in
                guard !pages.isEmpty else { return nil }
                return (0..<min(Self.pagesPerTask, pages.count)).map { _ in pages.removeLast() }
            },
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
