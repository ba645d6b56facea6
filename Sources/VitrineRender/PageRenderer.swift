import VitrineModel

/// One rendered page: its path under the output root and its bytes.
package struct RenderedPage: Sendable {
    package var href: String
    package var bytes: [UInt8]
}

/// Renders pages from their XML model: one transform per page, each stylesheet compiled once, when a page of its
/// kind is first needed. A page kind `K` is rendered by the theme's `K.xsl`.
package final class PageRenderer {
    package let theme: Theme
    /// What one page's transform may take.
    package let limits: TemplateLimits
    private var stylesheets: [GalleryModel.PageJob.Kind: CompiledStylesheet] = [:]
    private let security: XSLTSecurity

    /// Compiles the stylesheets of `kinds` at once, so that a broken template stops a run before any download;
    /// other kinds compile when first used.
    package init(
        theme: Theme, kinds: [GalleryModel.PageJob.Kind] = [.grid, .preview], limits: TemplateLimits = .standard
    ) throws(TemplateError) {
        self.theme = theme
        self.limits = limits
        security = try XSLTSecurity(theme: theme.origin)
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
            to: model, parameters: [("page", job.id), ("root", root)], security: security, limits: limits,
            page: job.href)
        return RenderedPage(href: job.href, bytes: bytes)
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
