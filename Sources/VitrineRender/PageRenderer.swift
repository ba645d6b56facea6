import Synchronization
import VitrineModel

/// One rendered page: its path under the output root and its bytes.
package struct RenderedPage: Sendable {
    package var href: String
    package var bytes: [UInt8]

    package init(href: String, bytes: [UInt8]) {
        self.href = href
        self.bytes = bytes
    }
}

/// Renders pages from their XML model: one transform per page, each stylesheet compiled once, when a page of its
/// kind is first needed. A page kind `K` is rendered by the theme's `K.xsl`.
package final class PageRenderer {
    package let theme: Theme
    /// What one page's transform may take.
    package let limits: TemplateLimits
    private var stylesheets: [GalleryModel.PageJob.Kind: CompiledStylesheet] = [:]
    private let security: XSLTSecurity
    /// The `styles` parameter of every transform: ``inlineStyles(of:)`` of the theme.
    private let styles: String

    /// Compiles the stylesheets of `kinds` at once, so that a broken template stops a run before any download;
    /// other kinds compile when first used.
    package init(
        theme: Theme, kinds: [GalleryModel.PageJob.Kind] = [.grid, .preview], limits: TemplateLimits = .standard
    ) throws(TemplateError) {
        self.theme = theme
        self.limits = limits
        security = try XSLTSecurity(theme: theme.origin)
        styles = Self.inlineStyles(of: theme)
        for kind in kinds { _ = try stylesheet(for: kind) }
    }

    /// Compiles the stylesheets of every kind of page in `jobs`, before any of them is written.
    package func prepare(for jobs: [GalleryModel.PageJob]) throws(TemplateError) {
        for kind in Set(jobs.map(\.kind)) { _ = try stylesheet(for: kind) }
    }

    package func render(_ job: GalleryModel.PageJob, model: LibXMLDocument) throws(TemplateError) -> RenderedPage {
        let depth = job.href.split(separator: "/").count - 1
        let root = String(repeating: "../", count: depth)
        let bytes = try stylesheet(for: job.kind).apply(
            to: model, parameters: [("page", job.id), ("root", root), ("styles", styles)],
            security: security, limits: limits, page: job.href)
        return RenderedPage(href: job.href, bytes: bytes)
    }

    /// The theme's stylesheet (`vitrine.css`), compacted (``CSSCompaction``), as the text a page's templates may put
    /// inline (`$styles`), so that the page lays out before any other request is answered; empty where the page must
    /// link it instead: when it is not UTF-8, holds a NUL or a byte order mark, is larger than
    /// ``maximumInlineStyleBytes``, or holds `</style` in any case, which would end a `style` element early.
    package static func inlineStyles(of theme: Theme) -> String {
        guard let bytes = theme.files["vitrine.css"], bytes.count <= maximumInlineStyleBytes, !bytes.contains(0),
            !bytes.starts(with: [0xEF, 0xBB, 0xBF]), !containsStyleEndTag(bytes),
            let text = String(validating: bytes, as: UTF8.self)
        else { return "" }
        let compacted = CSSCompaction.compact(text)
        // Taking a comment out could join `</` and `style`.
        return containsStyleEndTag(Array(compacted.utf8)) ? "" : compacted
    }

    /// The largest stylesheet put inline: each page that does carries all of it (BENCHMARKS.md, "Figures behind
    /// the code").
    package static let maximumInlineStyleBytes = 64 << 10

    /// Whether `bytes` hold `</style` in any case. Setting bit 0x20 of every byte lowers ASCII capitals and keeps
    /// `<` and `/`; the few other bytes it turns into one of these can only make a stylesheet linked, never inline.
    private static func containsStyleEndTag(_ bytes: [UInt8]) -> Bool {
        bytes.map { $0 | 0x20 }.firstRange(of: Array("</style".utf8)) != nil
    }

    /// Whether `theme` has the stylesheets of tag pages: a theme made before them gets none (nor the links to them).
    package static func rendersTags(_ theme: Theme) -> Bool {
        theme.files["tags.xsl"] != nil && theme.files["tag.xsl"] != nil
    }

    /// Whether `theme` has the stylesheets of a site's tag pages.
    package static func rendersSiteTags(_ theme: Theme) -> Bool {
        rendersTags(theme) && theme.files["site-tags.xsl"] != nil && theme.files["site-tag.xsl"] != nil
    }

    /// Whether `theme` has a search page: a theme made before it gets none (nor the search box or the index).
    package static func rendersSearch(_ theme: Theme) -> Bool {
        theme.files["search.xsl"] != nil
    }

    /// Whether `theme` has a site's search page: a theme made before it gets none (nor the site's index).
    package static func rendersSiteSearch(_ theme: Theme) -> Bool {
        rendersSearch(theme) && theme.files["site-search.xsl"] != nil
    }

    private func stylesheet(for kind: GalleryModel.PageJob.Kind) throws(TemplateError) -> CompiledStylesheet {
        if let compiled = stylesheets[kind] { return compiled }
        let compiled = try CompiledStylesheet(named: "\(kind.rawValue).xsl", from: theme)
        stylesheets[kind] = compiled
        return compiled
    }
}

@available(*, unavailable)
extension PageRenderer: Sendable {}

/// Renders pages, on several threads at once or not, each transform with stylesheets of its own: a render borrows
/// a ``PageRenderer`` that no other is using (the one the pool starts with, else one compiled from the same theme
/// when none is free, so there are at most as many as renders at once) and gives it back. With libxslt 1.1.35 and
/// libxml2 2.9.14, one compiled stylesheet applied from two threads at once now and then gave a page other bytes
/// (an image's URL missing, a few times in a thousand renders), so no stylesheet is shared between threads
/// (docs/architecture.md, "The C layer").
package final class PageRendererPool: Sendable {
    package let theme: Theme
    private let limits: TemplateLimits
    private let idle = Mutex<[LentRenderer]>([])

    /// A pool that lends `first` (which is the pool's from now on: the caller renders with it no more), and others
    /// compiled from its theme, with its limits, when it is in use.
    package init(startingWith first: PageRenderer) {
        theme = first.theme
        limits = first.limits
        idle.withLock { $0.append(LentRenderer(first)) }
    }

    /// Renders `job` from the model `model` makes, with a renderer no other render is using meanwhile.
    package func render(
        _ job: GalleryModel.PageJob, model: () -> LibXMLDocument
    ) throws(TemplateError) -> RenderedPage {
        let lent: LentRenderer
        if let free = idle.withLock({ $0.popLast() }) {
            lent = free
        } else {
            lent = LentRenderer(try PageRenderer(theme: theme, kinds: [], limits: limits))
        }
        defer { idle.withLock { $0.append(lent) } }
        return try lent.renderer.render(job, model: model())
    }
}

/// A renderer that one render uses at a time, whichever thread it runs on: it leaves the pool while in use.
private final class LentRenderer: @unchecked Sendable {
    let renderer: PageRenderer

    init(_ renderer: PageRenderer) { self.renderer = renderer }
}
