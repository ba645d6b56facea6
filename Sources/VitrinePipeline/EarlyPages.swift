import Synchronization
import VitrineBasics
import VitrineModel
import VitrineRender
import VitrineSources
import VitrineStore

/// Pages rendered while a build's images are still downloading, kept in memory by file and inputs digest until the
/// build writes its pages. A page whose final view has the same inputs takes these bytes instead of being rendered
/// again: the digest covers everything its transform reads and the theme, as it does for a page a rebuild keeps
/// (`PageView.inputs`), so the bytes are the ones rendering it now would give. A page whose view changed meanwhile
/// (an image that failed, a neighbour that came late) simply finds nothing and is rendered as before.
package final class EarlyPages: Sendable {
    private struct State {
        var pages: [String: [UInt8]] = [:]
        var bytes = 0
        var rendered = 0
        var taken = 0
    }

    private let state = Mutex(State())
    /// How many bytes of pages it holds at most; past it, no more pages are rendered early (BENCHMARKS.md, "Figures
    /// behind the code").
    package let budget: Int
    /// Whether the pages are rendered in the idle scheduling class, as a build does; false only where the rendering
    /// must run on a machine kept busy (a test under load).
    package let rendersWhenIdle: Bool

    package init(budget: Int = EarlyPages.standardBudget, rendersWhenIdle: Bool = true) {
        self.budget = budget
        self.rendersWhenIdle = rendersWhenIdle
    }

    /// The budget of a build: the pages of about 2,000 items.
    package static let standardBudget = 24 << 20

    private static func key(_ href: String, _ inputs: String) -> String { inputs + " " + href }

    /// Whether the page of `view` has been rendered early (and not taken yet).
    func holds(_ view: GalleryModel.PageView) -> Bool {
        let key = Self.key(view.job.href, view.inputs)
        return state.withLock { $0.pages[key] != nil }
    }

    /// Keeps `page`, rendered from a view with `inputs`; false when the budget has no room for it.
    func keep(_ page: RenderedPage, inputs: String) -> Bool {
        state.withLock { state in
            guard state.bytes + page.bytes.count <= budget else { return false }
            state.pages[Self.key(page.href, inputs)] = page.bytes
            state.bytes += page.bytes.count
            state.rendered += 1
            return true
        }
    }

    /// The bytes of the page at `href` rendered early from a view with `inputs`, which it holds no more.
    func take(_ href: String, inputs: String) -> [UInt8]? {
        state.withLock { state in
            guard let bytes = state.pages.removeValue(forKey: Self.key(href, inputs)) else { return nil }
            state.bytes -= bytes.count
            state.taken += 1
            return bytes
        }
    }

    /// How many pages were rendered early, and how many of them the build took.
    package var counts: (rendered: Int, taken: Int) { state.withLock { ($0.rendered, $0.taken) } }

    /// Whether the budget is spent.
    var isFull: Bool { state.withLock { $0.bytes >= budget } }
}

/// Renders a gallery's pages early from the images downloaded so far (``EarlyPages``): each snapshot of the
/// downloads' outcomes is laid out as the final model is, the images still on their way standing in as a
/// placeholder file, and every page whose view shows no placeholder and is not held yet is rendered, with
/// stylesheets of its own, on a thread in the idle scheduling class (`IdleThread`): it takes only processor time
/// that neither the downloads nor anything else on the machine wants.
struct EarlyRendering: Sendable {
    let layout: GalleryLayout
    let result: SourceResult
    let notices: [GalleryModel.Notice]
    let urls: [String]
    let theme: Theme
    let pages: EarlyPages

    /// The record that stands in for an image still downloading: its path shows it (`placeholderPath`), and it has a
    /// size, so that a size of it that has none is not left out of the view (it would then not show the placeholder).
    static let placeholder = CacheStore.ImageRecord(
        sha256: String(repeating: "0", count: 64), format: .jpeg, byteCount: 0, width: 1, height: 1)
    static let placeholderPath = GalleryAssembler.localPath(of: placeholder)

    /// Starts rendering on an idle thread from the snapshots offered to `snapshots` (a later one replaces one not
    /// started yet) until they end or the budget is spent; it stops after the page it is on once they end.
    func start(_ snapshots: NewestValue<[String: ImageOutcome]>) {
        IdleThread.start(idle: pages.rendersWhenIdle) { run(snapshots) }
    }

    func run(_ snapshots: NewestValue<[String: ImageOutcome]>) {
        guard let renderer = try? PageRenderer(theme: theme, kinds: []) else { return }
        while let outcomes = snapshots.take() {
            if pages.isFull { return }
            var images = outcomes
            for url in urls where images[url] == nil { images[url] = .stored(Self.placeholder) }
            let views = layout.layOut(result, images: images, notices: notices).views
            for view in views where !Self.showsPlaceholder(view) && !pages.holds(view) {
                if snapshots.hasEnded { return }
                guard let page = try? renderer.render(view.job, model: ModelDocument.make(view)) else { continue }
                if !pages.keep(page, inputs: view.inputs) { return }
            }
        }
    }

    /// Whether any picture of the items `view` shows is a placeholder.
    static func showsPlaceholder(_ view: GalleryModel.PageView) -> Bool {
        view.items.contains { item in
            item.entries.contains { entry in
                var images = entry.alternates
                if case .picture(_, _, let tile, let full, _, _) = entry.content { images += [tile, full] }
                return images.contains {
                    if case .available(let path, _) = $0.state { path.hasSuffix(placeholderPath) } else { false }
                }
            }
        }
    }
}

/// How a gallery's model and pages are laid out from its results and images: the one layout of a build's final
/// model and of the pages rendered early, so that the two cannot differ in anything but the images.
struct GalleryLayout: Sendable {
    var assembler: GalleryAssembler
    /// The gallery's "What's new" page, when the build keeps a history.
    var changesHref: String?
    var hasSearch: Bool
    var folder: String
    /// What every page's inputs include besides its model (the theme's digest).
    var salt: String

    func layOut(
        _ result: SourceResult, images: [String: ImageOutcome], notices: [GalleryModel.Notice]
    ) -> (model: GalleryModel, views: [GalleryModel.PageView]) {
        let model = assemble(result, images: images, notices: notices)
        return (model, model.pages(salt: salt))
    }

    /// ``layOut(_:images:notices:)`` with the items' digests made on every core: for a build's final layout, not
    /// for pages rendered early, which leave the cores to the downloads.
    func layOutOnEveryCore(
        _ result: SourceResult, images: [String: ImageOutcome], notices: [GalleryModel.Notice]
    ) async -> (model: GalleryModel, views: [GalleryModel.PageView]) {
        let model = assemble(result, images: images, notices: notices)
        return (model, model.pages(salt: salt, itemDigests: await model.itemDigestsOnEveryCore()))
    }

    private func assemble(
        _ result: SourceResult, images: [String: ImageOutcome], notices: [GalleryModel.Notice]
    ) -> GalleryModel {
        var model = assembler.assemble(result, images: images, notices: notices)
        if let changesHref { model.changesHref = changesHref }
        if hasSearch { model.search = GalleryModel.Search(folder: folder) }
        return model
    }
}
