import Foundation
import VitrineModel
import VitrineSources
import VitrineStore

/// A small gallery: three items over two pages, one missing variant, one failed image, hostile text; the tile
/// images of the items in `failedTiles` (1...3) failed too.
package func sampleGallery(
    hostileCaption: String = "<script>alert(\"x\")</script> & ü \u{7}bell", failedTiles: Set<Int> = []
) -> GalleryModel {
    let record = CacheStore.ImageRecord(sha256: String(repeating: "ab", count: 32), format: .jpeg, byteCount: 10)
    let items = (1...3).map { index -> SourceItem in
        let picture = SourceEntry.found(
            caption: index == 1 ? hostileCaption : "port, ship \(index)",
            credit: Credit(name: "user\(index)", url: index == 2 ? nil : "https://pixabay.com/photos/p-\(index)/"),
            tile: RemoteImage(url: "https://cdn/\(index)_640.jpg", width: 640, height: 427),
            full: RemoteImage(
                url: index == 3 ? "https://cdn/broken.jpg" : "https://cdn/\(index)_1280.jpg", width: 1280, height: 853),
            license: .pixabay)
        let variant: SourceEntry = index == 3 ? .missing(reason: "No “Hamburg graffiti” match for this item.") : picture
        return SourceItem(sourceID: String(100 + index), entries: [picture, variant])
    }
    let result = hamburgResult(items)
    var images: [String: ImageOutcome] = [:]
    for index in 1...3 {
        images["https://cdn/\(index)_640.jpg"] = .stored(record)
        images["https://cdn/\(index)_1280.jpg"] = .stored(record)
    }
    images["https://cdn/broken.jpg"] = .failed(reason: "Download failed: HTTP 404")
    for index in failedTiles { images["https://cdn/\(index)_640.jpg"] = .failed(reason: "Download failed: HTTP 404") }
    return GalleryAssembler(itemsPerPage: 2).assemble(
        result, images: images, notices: [.init(kind: .info, text: "A notice")])
}

/// Pixabay's answer to the searches for "Hamburg" and "Hamburg graffiti" with `items`.
private func hamburgResult(_ items: [SourceItem]) -> SourceResult {
    SourceResult(
        title: "Hamburg", source: SourceDescription(name: "pixabay", label: "Pixabay", home: "https://pixabay.com/"),
        variants: [
            SourceVariant(key: "original", label: "Original", query: "Hamburg"),
            SourceVariant(key: "graffiti", label: "Graffiti", query: "Hamburg graffiti"),
        ],
        items: items, fetchedAt: nil)
}

/// A gallery of `count` items in two variants, every image stored, `perPage` items a grid page: the size of the
/// benchmark gallery (BENCHMARKS.md).
package func largeGallery(items count: Int, perPage: Int) -> GalleryModel {
    let record = CacheStore.ImageRecord(sha256: String(repeating: "cd", count: 32), format: .jpeg, byteCount: 10)
    var images: [String: ImageOutcome] = [:]
    let items = (1...count).map { index -> SourceItem in
        let entries = ["original", "graffiti"].map { variant -> SourceEntry in
            let tile = "https://cdn/\(variant)/\(index)_640.jpg"
            let full = "https://cdn/\(variant)/\(index)_1280.jpg"
            images[tile] = .stored(record)
            images[full] = .stored(record)
            return SourceEntry.found(
                caption: "harbour, ship, crane, \(variant) \(index)",
                credit: Credit(name: "user\(index % 97)", url: "https://pixabay.com/users/u-\(index % 97)/"),
                tile: RemoteImage(url: tile, width: 640, height: 427),
                full: RemoteImage(url: full, width: 1280, height: 853), license: .pixabay)
        }
        return SourceItem(sourceID: String(index), entries: entries)
    }
    let result = hamburgResult(items)
    return GalleryAssembler(itemsPerPage: perPage).assemble(result, images: images, notices: [])
}

/// Two users; the first with two albums (3 photos and 1 photo), the second with one empty album.
package func sampleHierarchyResult() -> SourceResult {
    func photo(_ id: Int) -> SourceItem {
        SourceItem(
            sourceID: String(id),
            entries: [
                .found(
                    caption: id == 3 ? "" : "photo <\(id)>", credit: nil,
                    tile: RemoteImage(url: "https://img/\(id)/150", width: 150, height: 150),
                    full: RemoteImage(url: "https://img/\(id)/600", width: 600, height: 600), license: .unsplash)
            ])
    }
    func album(_ id: Int, _ photos: [Int]) -> SourceGroup {
        var group = SourceGroup(
            sourceID: String(id), title: "album \(id)",
            cover: photos.first.map { RemoteImage(url: "https://img/\($0)/150") },
            folder: "albums", itemFolder: "photos", items: photos.map(photo))
        group.coverLicense = .unsplash
        return group
    }
    var result = SourceResult(
        title: "JSONPlaceholder albums",
        source: SourceDescription(name: "jsonplaceholder", label: "JSONPlaceholder", home: nil),
        variants: [SourceVariant(key: "photo", label: "Photo", query: nil)], items: [], fetchedAt: nil)
    result.groups = [
        SourceGroup(
            sourceID: "1", title: "Leanne Graham", subtitle: "Bret", folder: "users",
            groups: [album(1, [1, 2, 3]), album(2, [4])]),
        SourceGroup(
            sourceID: "2", title: "Ervin Howell", subtitle: "Antonette", folder: "users", groups: [album(3, [])]),
    ]
    result.groupsTitle = "Users"
    return result
}

/// `sampleHierarchyResult()` laid out, with photo 2's tile and the second album's cover failed to download.
package func sampleHierarchy(itemsPerPage: Int = 2) -> GalleryModel {
    let record = CacheStore.ImageRecord(sha256: String(repeating: "cd", count: 32), format: .jpeg, byteCount: 10)
    var images: [String: ImageOutcome] = [:]
    for id in 1...4 {
        images["https://img/\(id)/150"] = .stored(record)
        images["https://img/\(id)/600"] = .stored(record)
    }
    images["https://img/2/150"] = .failed(reason: "Download failed: HTTP 404")
    images["https://img/4/150"] = .failed(reason: "Download failed: HTTP 500")
    return GalleryAssembler(itemsPerPage: itemsPerPage).assemble(sampleHierarchyResult(), images: images)
}

/// The sample gallery with an archive (`keep = "all"`) of `count` items that left, ten a page: `gone-1` left first,
/// `gone-<count>` last (the history lists them the other way round).
package func sampleGalleryWithArchive(of count: Int) -> GalleryModel {
    var gallery = sampleGallery()
    let departed = (1...count).reversed().map { number in
        let image = SiteHistory.ArchivedImage(
            shownFrom: "https://cdn/archived-\(number).jpg", width: 640, height: 427)
        return ArchiveAssembler.Departed(
            id: "gone-\(number)", lastSeen: "2026-09-21T14:13:20Z",
            record: .init(entries: [
                .init(variant: "original", caption: "gone \(number)", credit: nil, tile: image, full: image)
            ]))
    }
    let archive = ArchiveAssembler(itemsPerPage: 10, folder: "").assemble(
        departed, variants: gallery.variants, images: [:])
    if let archive {
        gallery.collections.append(archive)
        gallery.archive = .init(href: archive.pages[0].href)
    }
    return gallery
}

/// A gallery in `folder` ("hh/") of items whose first variant has `tags[i]` (raw: normalised as a source does) and whose second has
/// `variantTags[i]`, `perPage` items a grid page and a tag page; with `site`, a gallery of that site titled `title`.
package func taggedGallery(
    _ tags: [[String]], variantTags: [[String]] = [], captions: [String] = [], perPage: Int = 2,
    tagPages: Bool = true, folder: String = "hh/", site: GalleryModel.SiteLink? = nil, title: String = "Hamburg"
) -> GalleryModel {
    let record = CacheStore.ImageRecord(sha256: String(repeating: "ab", count: 32), format: .jpeg, byteCount: 10)
    var images: [String: ImageOutcome] = [:]
    let items = tags.indices.map { index -> SourceItem in
        let entries = [tags[index], index < variantTags.count ? variantTags[index] : []].enumerated().map {
            variant, raw -> SourceEntry in
            let tile = RemoteImage(url: "https://cdn/\(index)-\(variant)_640.jpg", width: 640, height: 427)
            images[tile.url] = .stored(record)
            return .found(
                caption: index < captions.count ? captions[index] : "item \(index)", credit: nil, tile: tile,
                full: tile, license: .pixabay, tags: PictureTags.list(raw))
        }
        return SourceItem(sourceID: String(100 + index), entries: entries)
    }
    let result = SourceResult(
        title: title, source: SourceDescription(name: "pixabay", label: "Pixabay", home: nil),
        variants: [
            SourceVariant(key: "original", label: "Original", query: "Hamburg"),
            SourceVariant(key: "graffiti", label: "Graffiti", query: "Hamburg graffiti"),
        ], items: items, fetchedAt: nil)
    return GalleryAssembler(itemsPerPage: perPage, folder: folder, site: site, tagPages: tagPages).assemble(
        result, images: images)
}
