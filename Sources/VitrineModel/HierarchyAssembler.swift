import Foundation
import VitrineSources
import VitrineStore

/// Lays a hierarchical result (``SourceResult/groups``) out as nested collections: the root is a list page
/// (`index.html`) of the top groups; a group of groups is a list page (`users/1/index.html`); a group of items is an
/// album, grid pages of its items (`albums/3/index.html`, `albums/3/page-2.html`) with a page per item
/// (`photos/101.html`). In a site of several galleries, every path is below the gallery's folder.
struct HierarchyAssembler: Sendable {
    var itemsPerPage: Int
    var language: String
    /// The folder of the gallery's pages under the output root: "" for a gallery of its own, "NAME/" in a site.
    var folder: String
    var site: GalleryModel.SiteLink?
    /// The re-encoded copies of each stored image, by its SHA-256 (`GalleryAssembler.encodings`).
    var encodings: [String: [EncodedCopy]] = [:]

    init(itemsPerPage: Int, language: String = "en", folder: String = "", site: GalleryModel.SiteLink? = nil) {
        self.itemsPerPage = max(1, itemsPerPage)
        self.language = language
        self.folder = folder
        self.site = site
    }

    func assemble(_ result: SourceResult, images: [String: ImageOutcome], notices: [GalleryModel.Notice])
        -> GalleryModel
    {
        var names = Names()
        var flat = GalleryAssembler(itemsPerPage: itemsPerPage, language: language)
        flat.encodings = encodings
        let children = result.groups.map {
            collection(for: $0, variants: result.variants, images: images, flat, &names)
        }
        let root = GalleryModel.Collection(
            id: "root", title: result.groupsTitle.isEmpty ? result.title : result.groupsTitle,
            pages: [GalleryModel.GridPage(id: "root-p1", number: 1, href: folder + "index.html")],
            collections: children,
            items: [], kind: .list)
        return GalleryModel(
            title: result.title, language: language, source: result.source, notices: notices,
            variants: result.variants, site: site, collections: [root])
    }

    private func collection(
        for group: SourceGroup, variants: [SourceVariant], images: [String: ImageOutcome], _ flat: GalleryAssembler,
        _ names: inout Names
    ) -> GalleryModel.Collection {
        let folder = Names.safe(group.folder, fallback: "groups")
        let slug = names.unique(group.sourceID, in: folder)
        let id = "\(folder)-\(slug)"
        let isList = !group.groups.isEmpty
        let pageCount = isList ? 1 : max(1, (group.items.count + itemsPerPage - 1) / itemsPerPage)
        let pages = (1...pageCount).map { number in
            GalleryModel.GridPage(
                id: "\(id)-p\(number)", number: number,
                href: "\(self.folder)\(folder)/\(slug)/\(number == 1 ? "index" : "page-\(number)").html")
        }
        let itemFolder = Names.safe(group.itemFolder, fallback: "items")
        let items = group.items.enumerated().map { index, item -> GalleryModel.Item in
            let itemSlug = names.unique(item.sourceID, in: itemFolder)
            let itemID = "\(itemFolder)-\(itemSlug)"
            let entries = zip(variants, item.entries).map { variant, entry in
                GalleryModel.Entry(
                    id: "\(itemID)-\(variant.key)", variant: variant.key,
                    href: self.folder
                        + (variants.count == 1
                            ? "\(itemFolder)/\(itemSlug).html" : "\(itemFolder)/\(itemSlug)-\(variant.key).html"),
                    content: flat.content(of: entry, images: images),
                    alternates: flat.alternates(of: entry, images: images))
            }
            return GalleryModel.Item(
                id: itemID, position: index + 1, page: index / itemsPerPage + 1,
                sourceID: item.sourceID.isEmpty ? nil : item.sourceID, entries: entries)
        }
        let nested = group.groups.map { collection(for: $0, variants: variants, images: images, flat, &names) }
        return GalleryModel.Collection(
            id: id, title: group.title, tileShape: isList ? .natural : .square, pages: pages, collections: nested,
            items: items, kind: isList ? .list : .album, subtitle: group.subtitle,
            sourceID: group.sourceID.isEmpty ? nil : group.sourceID,
            cover: group.cover.map { flat.local($0, license: group.coverLicense, images: images) })
    }

    /// File-name-safe, unique names per folder.
    struct Names {
        private var used = Set<String>()

        /// ASCII letters and digits of `text` (at most 40); `_` for anything else between them.
        static func safe(_ text: String, fallback: String) -> String {
            var name = ""
            for scalar in text.unicodeScalars.prefix(40) {
                if scalar.isASCII && CharacterSet.alphanumerics.contains(scalar) {
                    name.unicodeScalars.append(scalar)
                } else if !name.isEmpty && !name.hasSuffix("_") {
                    name += "_"
                }
            }
            while name.hasSuffix("_") { name.removeLast() }
            return name.isEmpty ? fallback : name
        }

        /// `id` made safe and unique within `folder`: `7`, then `7_2` for a second `7`.
        mutating func unique(_ id: String, in folder: String) -> String {
            unique(base: Self.safe(id, fallback: "n"), in: folder, separator: "_")
        }

        /// `base`, or the first of `base` + separator + 2, 3, … that no earlier name in `folder` has taken, ignoring
        /// case (two names that differ only in case are one file on macOS's and Windows' file systems): unique for
        /// any set of ids, including ones that look like the names made here, and the same for the same list.
        mutating func unique(base: String, in folder: String, separator: String) -> String {
            var name = base
            var count = 1
            while !used.insert("\(folder)/\(name.lowercased())").inserted {
                count += 1
                name = "\(base)\(separator)\(count)"
            }
            return name
        }
    }
}
