import Foundation
import VitrineSources
import VitrineStore

/// What became of one remote image: stored in the cache, or lost for a stated reason.
package enum ImageOutcome: Sendable, Hashable {
    case stored(CacheStore.ImageRecord)
    case failed(reason: String)
}

/// A re-encoded copy of a stored image, as the model offers it: its cached file, and the screens it is for.
package struct EncodedCopy: Sendable, Hashable {
    package var record: CacheStore.ImageRecord
    /// For screens of at least this many device pixels per CSS pixel only; nil for any screen.
    package var minimumDensity: Int?

    package init(record: CacheStore.ImageRecord, minimumDensity: Int? = nil) {
        self.record = record
        self.minimumDensity = minimumDensity
    }
}

/// Lays a source's items out as a gallery: grid pages, preview page names, local image paths.
package struct GalleryAssembler: Sendable {
    package var itemsPerPage: Int
    package var language: String
    package var tileShape: GalleryModel.TileShape
    /// The folder of the gallery's pages under the output root: "" for a gallery of its own, "NAME/" in a site.
    package var folder: String
    package var site: GalleryModel.SiteLink?
    /// The re-encoded copies of each stored image that a page may offer instead of it, by the image's SHA-256.
    package var encodings: [String: [EncodedCopy]] = [:]
    /// Whether the gallery gets tag pages for its pictures' tags (a theme without the stylesheets gets none).
    package var tagPages = true

    package init(
        itemsPerPage: Int, language: String = "en", tileShape: GalleryModel.TileShape = .natural, folder: String = "",
        site: GalleryModel.SiteLink? = nil, tagPages: Bool = true
    ) {
        self.itemsPerPage = max(1, itemsPerPage)
        self.language = language
        self.tileShape = tileShape
        self.folder = folder
        self.site = site
        self.tagPages = tagPages
    }

    /// The output path of a stored image: named by its content, so equal bytes share one file.
    package static func localPath(of record: CacheStore.ImageRecord) -> String {
        "images/\(record.sha256.prefix(32)).\(record.format.fileExtension)"
    }

    package func assemble(
        _ result: SourceResult, images: [String: ImageOutcome], notices: [GalleryModel.Notice] = []
    ) -> GalleryModel {
        if !result.groups.isEmpty {
            var hierarchy = HierarchyAssembler(
                itemsPerPage: itemsPerPage, language: language, folder: folder, site: site)
            hierarchy.encodings = encodings
            return hierarchy.assemble(result, images: images, notices: notices)
        }
        let pageCount = max(1, (result.items.count + itemsPerPage - 1) / itemsPerPage)
        let pages = (1...pageCount).map { number in
            GalleryModel.GridPage(
                id: "c1-p\(number)", number: number,
                href: folder + (number == 1 ? "index.html" : "page-\(number).html"))
        }
        var names = HierarchyAssembler.Names()
        let slugs = tagPages ? TagSlugs.slugs(of: result.items.lazy.flatMap(\.entries).flatMap(\.tags)) : [:]
        let items = result.items.enumerated().map { index, item -> GalleryModel.Item in
            let slug = names.unique(base: Self.slug(of: item.sourceID, position: index + 1), in: "", separator: "-")
            let entries = zip(result.variants, item.entries).map { variant, entry in
                GalleryModel.Entry(
                    id: "i\(slug)-\(variant.key)", variant: variant.key,
                    href: "\(folder)items/\(slug)-\(variant.key).html",
                    content: content(of: entry, images: images), alternates: alternates(of: entry, images: images),
                    tags: entry.tags.compactMap { tag in
                        slugs[tag].map { .init(name: tag, href: folder + TagSlugs.file(of: $0, page: 1)) }
                    })
            }
            return GalleryModel.Item(
                id: "i\(slug)", position: index + 1, page: index / itemsPerPage + 1,
                sourceID: item.sourceID.isEmpty ? nil : item.sourceID, entries: entries)
        }
        let collection = GalleryModel.Collection(
            id: "c1", title: result.title, tileShape: tileShape, pages: pages, collections: [], items: items)
        var model = GalleryModel(
            title: result.title, language: language, source: result.source, notices: notices,
            variants: result.variants, site: site, collections: [collection])
        model.tags = GalleryModel.TagIndex(
            collection: collection, slugs: slugs, folder: folder, itemsPerPage: itemsPerPage)
        return model
    }

    func content(of entry: SourceEntry, images: [String: ImageOutcome]) -> GalleryModel.Content {
        switch entry {
        case .missing(let reason):
            return .missing(reason: reason)
        case .found(let caption, let credit, let tile, let full, let license, let aiGenerated, _, _):
            return .picture(
                caption: caption, credit: credit, tile: local(tile, license: license, images: images),
                full: local(full, license: license, images: images), license: license, aiGenerated: aiGenerated)
        }
    }

    /// The other sizes of `entry`'s picture that a page can show: downloaded or shown from their URLs, with a
    /// pixel size (a `srcset` candidate needs its width).
    func alternates(of entry: SourceEntry, images: [String: ImageOutcome]) -> [GalleryModel.LocalImage] {
        guard case .found(_, _, _, _, let license, _, let alternates, _) = entry else { return [] }
        return alternates.map { local($0, license: license, images: images) }.filter {
            if case .unavailable = $0.state { return false }
            return ($0.width ?? 0) > 0 && ($0.height ?? 0) > 0
        }
    }

    /// The rendition of `image` as the pages show it: from the API's own URL when its license does not allow
    /// copies; else the local file, its size as read from the downloaded bytes where possible, else as the API said.
    func local(_ image: RemoteImage, license: License, images: [String: ImageOutcome]) -> GalleryModel.LocalImage {
        guard license.allowsCopies else {
            return GalleryModel.LocalImage(state: .remote(url: image.url), width: image.width, height: image.height)
        }
        switch images[image.url] {
        case .stored(let record):
            let measured = record.width != nil && record.height != nil
            return GalleryModel.LocalImage(
                state: .available(path: Self.localPath(of: record), mediaType: record.format.mediaType),
                width: measured ? record.width : image.width, height: measured ? record.height : image.height,
                encodings: (encodings[record.sha256] ?? []).map {
                    GalleryModel.LocalImage.Encoding(
                        path: Self.localPath(of: $0.record), mediaType: $0.record.format.mediaType,
                        minimumDensity: $0.minimumDensity)
                })
        case .failed(let reason):
            return GalleryModel.LocalImage(
                state: .unavailable(reason: reason), width: image.width, height: image.height)
        case nil:
            return GalleryModel.LocalImage(
                state: .unavailable(reason: "Not downloaded"), width: image.width, height: image.height)
        }
    }

    /// A file-name-safe form of the API's id (ASCII letters, digits and `-`, at most 40); the position stands in
    /// when the id has nothing usable.
    private static func slug(of sourceID: String, position: Int) -> String {
        let safe = String(
            sourceID.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }
                .prefix(40))
        return safe.isEmpty ? "n\(position)" : safe
    }
}
