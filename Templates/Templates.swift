/// The default theme, compiled into the binary so that `vitrine` works from any folder.
public enum DefaultTheme {
    /// Every file of the theme by its file name.
    public static let files: [String: [UInt8]] = [
        "layout.xsl": PackageResources.layout_xsl,
        "grid.xsl": PackageResources.grid_xsl,
        "preview.xsl": PackageResources.preview_xsl,
        "home.xsl": PackageResources.home_xsl,
        "random.xsl": PackageResources.random_xsl,
        "favorites.xsl": PackageResources.favorites_xsl,
        "random.js": PackageResources.random_js,
        "list.xsl": PackageResources.list_xsl,
        "photo.xsl": PackageResources.photo_xsl,
        "vitrine.css": PackageResources.vitrine_css,
        "vitrine.js": PackageResources.vitrine_js,
        "gallery.rng": PackageResources.gallery_rng,
        "changes.xsl": PackageResources.changes_xsl,
        "site-changes.xsl": PackageResources.site_changes_xsl,
        "tags.xsl": PackageResources.tags_xsl,
        "tag.xsl": PackageResources.tag_xsl,
        "site-tags.xsl": PackageResources.site_tags_xsl,
        "site-tag.xsl": PackageResources.site_tag_xsl,
        "search.xsl": PackageResources.search_xsl,
        "search.js": PackageResources.search_js,
        "site-search.xsl": PackageResources.site_search_xsl,
    ]

    /// The theme's README for whoever edits a copy of it: the files a theme needs, the parameters its stylesheets
    /// get and the rules they run under. It is not part of the theme: a theme folder's `.md` files are not read.
    public static let guide: [UInt8] = PackageResources.README_md
}
