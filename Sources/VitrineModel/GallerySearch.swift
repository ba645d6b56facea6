extension GalleryModel {
    /// A gallery's search: its search page (`search.xsl`) and the index script that page loads (`SearchIndex`),
    /// both in the gallery's folder.
    package struct Search: Sendable, Hashable {
        /// The `id` of the `search` element, which the search page's `page` parameter names.
        package static let id = "search"
        /// The search page, relative to the output root.
        package var href: String
        /// The index script, relative to the output root.
        package var indexHref: String

        /// The search of the gallery whose pages are in `folder` ("" or "NAME/").
        package init(folder: String) {
            href = folder + "search.html"
            indexHref = folder + "search-index.js"
        }
    }

    /// The search page, when the gallery has one: it reads the head (which names the page and the index) and the top
    /// collection's attributes and first page, as the tag index does; the results come from the index script in the
    /// browser, so no item is in its view and a change of items never re-renders it.
    package func searchPages(salt: String) -> [PageView] {
        guard let search, let collection = collections.first else { return [] }
        var heading = CollectionHeading(collection).keepingPages([1], ends: false)
        heading.holdsCounts = false
        var view = PageView(
            job: .init(kind: .search, id: Search.id, href: search.href), head: head, collections: [heading],
            below: [], items: [], inputs: "")
        view.inputs = ModelXML.inputs(salt: salt + "\u{0}" + Search.id) { ModelXML.write(view, to: &$0) }
        return [view]
    }
}
