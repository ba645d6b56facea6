/// One rendered page: its path under the output root and its bytes.
public struct RenderedPage: Sendable {
    public var href: String
    public var bytes: [UInt8]
}

/// Renders every page of a gallery from its XML model: one transform per page, each stylesheet compiled once.
final class PageRenderer {
    private let stylesheets: [GalleryModel.PageJob.Kind: CompiledStylesheet]
    private let security = XSLTSecurity()

    init(theme: Theme) throws(TemplateError) {
        stylesheets = [
            .grid: try CompiledStylesheet(named: "grid.xsl", from: theme),
            .preview: try CompiledStylesheet(named: "preview.xsl", from: theme),
        ]
    }

    func render(_ job: GalleryModel.PageJob, model: XMLDocument) throws(TemplateError) -> RenderedPage {
        let depth = job.href.split(separator: "/").count - 1
        let root = String(repeating: "../", count: depth)
        let bytes = try stylesheets[job.kind]!.apply(
            to: model, parameters: [("page", job.id), ("root", root)], security: security)
        return RenderedPage(href: job.href, bytes: bytes)
    }
}

@available(*, unavailable)
extension PageRenderer: Sendable {}
