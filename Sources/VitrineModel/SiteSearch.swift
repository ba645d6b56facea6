/// A site's search (`vitrine build`): its page (`search.html` at the output root, `site-search.xsl`) and the index
/// script that page loads (`search-index.js`, `SearchIndex.script(ofSite:)`), which holds the entries of every
/// gallery, each linking to its gallery's preview page.
package enum SiteSearch {
    /// The `id` of the site's `search` element, which the search page's `page` parameter names.
    package static let id = "search"
    /// The search page, at the output root.
    package static let href = "search.html"
    /// The index script, at the output root.
    package static let indexHref = "search-index.js"
    /// The names a gallery's folder cannot have in a site, as they are the search's files.
    package static let reservedNames = ["search", "search.html", "search-index.js"]
}

extension SiteModel {
    /// The view the site's search page is rendered from: the site's head and every gallery in outline (what names
    /// it), as a "What's new" page reads them; the results come from the index script in the browser, so a change of
    /// items never re-renders it.
    package var searchView: SiteModel {
        var view = homeView
        view.galleriesInOutline = true
        return view
    }

    /// The site's search page, when it has one: its job and view, and the digest of its inputs.
    package func searchPage(salt: String) -> (job: GalleryModel.PageJob, view: SiteModel, inputs: String)? {
        guard hasSearch else { return nil }
        let view = searchView
        return (
            GalleryModel.PageJob(kind: .siteSearch, id: SiteSearch.id, href: SiteSearch.href), view,
            ModelXML.inputs(salt: salt + "\u{0}" + SiteSearch.id) { ModelXML.write(view, to: &$0) }
        )
    }
}
