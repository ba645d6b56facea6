import VitrineBasics
import VitrineSources

extension GalleryModel {
    /// A tag as an entry links it: its text (normalised, `PictureTags`) and its tag page.
    package struct TagLink: Sendable, Hashable {
        package var name: String
        /// The tag's first page, relative to the output root; empty for an archived picture's tag, which links none.
        package var href: String

        package init(name: String, href: String) {
            self.name = name
            self.href = href
        }
    }

    /// A gallery's tags: its tag index page (`tags/index.html`) and, for each tag, the pages listing the items that
    /// have it, in the gallery's order and as many to a page as its grid pages.
    package struct TagIndex: Sendable {
        /// The `id` of the `tags` element, which the tag index page's `page` parameter names.
        package static let id = "tags"
        /// The tag index page, relative to the output root.
        package var href: String
        /// Those with the most items first, then by name.
        package var tags: [Tag]
        /// How many items a tag page lists: as many as a grid page.
        package var itemsPerPage: Int

        /// The tags of the items of `collection` (a tag page lists the items of one collection, the gallery's
        /// results), each item once however many of its entries have the tag; nil when none has a tag.
        package init?(collection: Collection, slugs: [String: String], folder: String, itemsPerPage: Int) {
            var order: [String] = []
            var members: [String: [String]] = [:]
            for item in collection.items {
                var seen = Set<String>()
                for link in item.entries.flatMap(\.tags) where seen.insert(link.name).inserted {
                    if members[link.name] == nil { order.append(link.name) }
                    members[link.name, default: []].append(item.id)
                }
            }
            guard !order.isEmpty else { return nil }
            let perPage = max(1, itemsPerPage)
            self.itemsPerPage = perPage
            href = folder + "tags/index.html"
            tags = order.compactMap { name in
                guard let slug = slugs[name], let items = members[name] else { return nil }
                let pageCount = (items.count + perPage - 1) / perPage
                return Tag(
                    name: name, slug: slug,
                    pages: (1...pageCount).map {
                        GridPage(id: "tag-\(slug)-p\($0)", number: $0, href: folder + TagSlugs.file(of: slug, page: $0))
                    }, items: items)
            }.sorted { $0.items.count != $1.items.count ? $0.items.count > $1.items.count : $0.name < $1.name }
        }
    }

    /// One tag of a gallery: its pages and the ids of its items, in the gallery's order.
    package struct Tag: Sendable {
        package var name: String
        package var slug: String
        /// Its first page, relative to the output root.
        package var href: String
        package var pageCount: Int
        /// How many items have it.
        package var count: Int
        /// Its pages (in a page's view, those the page reads).
        package var pages: [GridPage]
        package var items: [String]

        init(name: String, slug: String, pages: [GridPage], items: [String]) {
            self.name = name
            self.slug = slug
            href = pages[0].href
            pageCount = pages.count
            count = items.count
            self.pages = pages
            self.items = items
        }
    }
}

/// The file names of tag pages: `tags/SLUG.html`, `tags/SLUG-page-2.html`, … in the gallery's folder, where two
/// different tags never share a name, even on a file system that ignores case.
///
/// A tag of lower-case ASCII letters and digits, in words joined by single hyphens, is its own slug ("hamburg",
/// "new-york"), unless it is a name the folder needs ("index"), ends like a later page ("x-page-2") or is a device
/// name Windows reserves ("con"). Any other tag ("c++", "straße", "new york", "東京") gets an ASCII spelling of it
/// (runs of other characters made one hyphen, at most 40 characters, "t" when nothing is left) followed by "--" and
/// the first 8 hexadecimal digits of the SHA-256 of the tag: "c--a6b1c2d3". An own slug never holds "--", and the
/// part before "--" never does, so the two kinds never meet; two tags whose slugs would still be the same (their
/// digests share 8 digits) both get all 64.
package enum TagSlugs {
    static let reserved = Set(["index", "con", "prn", "aux", "nul"] + (1...9).flatMap { ["com\($0)", "lpt\($0)"] })

    /// The slug of each of `tags` (normalised, distinct).
    package static func slugs(of tags: some Sequence<String>) -> [String: String] {
        var slugs: [String: String] = [:]
        var owners: [String: [String]] = [:]
        for tag in tags where slugs[tag] == nil {
            let slug = slug(of: tag, digits: 8)
            slugs[tag] = slug
            owners[slug, default: []].append(tag)
        }
        for (_, shared) in owners where shared.count > 1 {
            for tag in shared { slugs[tag] = slug(of: tag, digits: 64) }
        }
        return slugs
    }

    /// The slug of `tag` among a site's tags, which depends on no other tag: its own slug, or one with all 64 digits
    /// of its digest, which no other tag shares.
    package static func siteSlug(of tag: String) -> String { slug(of: tag, digits: 64) }

    /// The slug of `tag`, with `digits` digits of its digest when it is not its own slug.
    static func slug(of tag: String, digits: Int) -> String {
        if isOwnSlug(tag) { return tag }
        var ascii = ""
        for scalar in tag.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                ascii.unicodeScalars.append(scalar)
            } else if !ascii.isEmpty, ascii.last != "-" {
                ascii.append("-")
            }
            if ascii.count >= 40 { break }
        }
        while ascii.last == "-" { ascii.removeLast() }
        return (ascii.isEmpty ? "t" : ascii.lowercased()) + "--" + SHA256Hasher.hex(of: tag).prefix(digits)
    }

    /// Whether `tag` can be its own file name: words of `a-z0-9` joined by single hyphens, not reserved, not
    /// ending like a later page.
    static func isOwnSlug(_ tag: String) -> Bool {
        let words = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard tag.utf8.count <= 100, !reserved.contains(tag),
            words.allSatisfy({
                !$0.isEmpty && $0.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
            })
        else { return false }
        if words.count >= 3, words[words.count - 2] == "page",
            words.last!.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        {
            return false
        }
        return true
    }

    /// The file of page `page` of the tag with `slug`, relative to the gallery's folder.
    package static func file(of slug: String, page: Int) -> String {
        page == 1 ? "tags/\(slug).html" : "tags/\(slug)-page-\(page).html"
    }
}
