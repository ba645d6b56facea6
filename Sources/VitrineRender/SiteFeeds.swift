internal import CXSLT
import Foundation
import VitrineBasics
import VitrineModel

/// The files publishers want from a site with a base URL: `sitemap.xml` (every page) and an Atom feed of the
/// galleries (`feed.xml`).
package struct SiteFeeds {
    package static let sitemapPath = "sitemap.xml"
    package static let feedPath = "feed.xml"

    /// One gallery as the feed lists it.
    package struct Entry {
        /// Its first page, relative to the output root.
        package var path: String
        package var title: String
        package var summary: String
        /// When its API results were fetched.
        package var updated: Date?

        package init(path: String, title: String, summary: String, updated: Date?) {
            self.path = path
            self.title = title
            self.summary = summary
            self.updated = updated
        }
    }

    /// The base URL, ending in "/".
    let baseURL: String
    let title: String
    let galleries: [Entry]
    /// The most snapshots the feed has an entry for: the newest, as many as a "What's new" page holds. A feed reader
    /// asks for the feed again and again; the older snapshots are on the site's pages.
    package static let snapshotEntries = HistoryPages.snapshotsPerPage

    /// The site's newest snapshots, newest first: an entry each.
    let snapshots: ArraySlice<SiteModel.Snapshot>
    /// How the site's "What's new" pages split all its snapshots (`snapshots` are the first of them), which says the
    /// page an entry links to.
    let history: HistoryPages?

    package init(
        baseURL: String, title: String, galleries: [Entry], snapshots: [SiteModel.Snapshot] = [],
        history: HistoryPages? = nil
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.title = title
        self.galleries = galleries
        self.snapshots = snapshots.prefix(Self.snapshotEntries)
        self.history = history
    }

    /// The absolute URL of a page, its path percent-encoded.
    func url(of path: String) -> String {
        baseURL + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }

    /// The digest of all that ``sitemap(pages:)`` makes its bytes from, `salt` standing for the code that makes them
    /// (`GalleryPipeline.salt(of:)`): a rebuild whose site has the same pages keeps the file it wrote.
    package func sitemapInputs(pages: [String], salt: String) -> String {
        var hash = SHA256Hasher()
        for part in ["sitemap", salt, baseURL] + pages.sorted() {
            hash.update(part.utf8)
            hash.update([0])
        }
        return hash.finalize().hexString
    }

    /// A sitemap (sitemaps.org 0.9) of `pages`, in path order.
    package func sitemap(pages: [String]) -> [UInt8] {
        let (document, root) = XMLTree.document(
            root: "urlset", namespace: "http://www.sitemaps.org/schemas/sitemap/0.9")
        for page in pages.sorted() {
            let element = XMLTree.child(root, "url")
            XMLTree.child(element, "loc", text: url(of: page))
        }
        return document.serialized()
    }

    /// An Atom feed (RFC 4287) with an entry per gallery; `timestamp` (SOURCE_DATE_EPOCH) stands in for every
    /// date when given.
    package func atom(timestamp: Date?) -> [UInt8] {
        let (document, root) = XMLTree.document(root: "feed", namespace: "http://www.w3.org/2005/Atom")
        let dates = galleries.map { timestamp ?? $0.updated ?? Date(timeIntervalSince1970: 0) }
        let snapshotDates = snapshots.compactMap { UTCTime.date(rfc3339: $0.time) }
        XMLTree.child(root, "id", text: baseURL)
        XMLTree.child(root, "title", text: XMLText.clean(title))
        XMLTree.child(
            root, "updated",
            text: UTCTime.rfc3339((dates + snapshotDates).max() ?? timestamp ?? Date(timeIntervalSince1970: 0)))
        XMLTree.child(XMLTree.child(root, "author"), "name", text: XMLText.clean(title))
        link(root, href: baseURL, rel: "alternate", type: "text/html")
        link(root, href: url(of: Self.feedPath), rel: "self", type: "application/atom+xml")
        XMLTree.child(root, "generator", text: "Vitrine")
        for (gallery, date) in zip(galleries, dates) {
            let entry = XMLTree.child(root, "entry")
            XMLTree.child(entry, "id", text: url(of: gallery.path))
            XMLTree.child(entry, "title", text: XMLText.clean(gallery.title))
            XMLTree.child(entry, "updated", text: UTCTime.rfc3339(date))
            link(entry, href: url(of: gallery.path), rel: "alternate", type: "text/html")
            XMLTree.child(entry, "summary", text: XMLText.clean(gallery.summary))
        }
        for (index, snapshot) in snapshots.enumerated() {
            let page = history.map { $0.href(ofPage: $0.page(ofNewestFirstIndex: index)) } ?? SiteModel.changesHref
            add(snapshot, on: page, to: root)
        }
        return document.serialized()
    }

    /// A snapshot's entry: its id stays the same in every later feed, its link is the "What's new" page that shows
    /// it (`pageHref`); its content shows the tiles of the items it added, linked to their pages, as XHTML.
    private func add(_ snapshot: SiteModel.Snapshot, on pageHref: String, to root: xmlNodePtr) {
        let entry = XMLTree.child(root, "entry")
        let anchor = "#snapshot-\(snapshot.number)"
        let page = url(of: pageHref) + anchor
        let added = snapshot.galleries.reduce(0) { $0 + $1.added }
        let removed = snapshot.galleries.reduce(0) { $0 + $1.removed }
        XMLTree.child(entry, "id", text: url(of: SiteModel.changesHref) + anchor)
        XMLTree.child(
            entry, "title",
            text: XMLText.clean(
                "\(Self.count(added, "new picture")), \(removed) gone: "
                    + snapshot.galleries.map(\.title).joined(separator: ", ")))
        XMLTree.child(entry, "updated", text: snapshot.time)
        link(entry, href: page, rel: "alternate", type: "text/html")
        let content = XMLTree.child(entry, "content")
        XMLTree.set("type", "xhtml", on: content)
        let division = XMLTree.child(content, "div")
        XMLTree.declare("http://www.w3.org/1999/xhtml", on: division)
        for change in snapshot.galleries {
            let heading = XMLTree.child(division, "h2")
            let title = XMLTree.child(heading, "a", text: XMLText.clean(change.title))
            XMLTree.set("href", url(of: change.href), on: title)
            XMLTree.child(division, "p", text: "\(Self.count(change.added, "new picture")), \(change.removed) gone")
            let tiles = XMLTree.child(division, "p")
            for tile in change.tiles {
                let source: String
                switch tile.image.state {
                case .available(let path, _): source = url(of: path)
                case .remote(let remote): source = remote
                case .unavailable: continue
                }
                // A feed reader copies the pictures of an entry: one whose license does not allow that is left to
                // the site's pages, which the entry's heading links.
                guard tile.allowsCopies else { continue }
                let anchor = XMLTree.child(tiles, "a")
                XMLTree.set("href", url(of: tile.href), on: anchor)
                let image = XMLTree.child(anchor, "img")
                XMLTree.set("src", source, on: image)
                XMLTree.set("alt", XMLText.clean(tile.caption), on: image)
                if let width = tile.image.width, let height = tile.image.height {
                    XMLTree.set("width", String(width), on: image)
                    XMLTree.set("height", String(height), on: image)
                }
            }
        }
    }

    /// "1 new picture", "3 new pictures".
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private func link(_ parent: xmlNodePtr, href: String, rel: String, type: String) {
        let element = XMLTree.child(parent, "link")
        XMLTree.set("href", href, on: element)
        XMLTree.set("rel", rel, on: element)
        XMLTree.set("type", type, on: element)
    }

}
