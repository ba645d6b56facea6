import Foundation
import VitrineBasics
import VitrineModel
import VitrinePublish
import VitrineRender
import VitrineSources
import VitrineStore

/// One of the parts a site's galleries are split into, to be built apart (each on a machine of its own, with its own
/// cache and output folder) and merged into the site afterwards.
///
/// A gallery's shard follows from the SHA-256 of its folder in the site, never from its place in the config, so a
/// gallery stays on its shard when galleries are added or removed.
public struct SiteShard: Sendable, Hashable {
    /// Which shard this is, from 1 to `count`.
    public let number: Int
    /// How many shards the site is split into.
    public let count: Int

    /// Shard `number` of `count`; nil unless 1 <= `number` <= `count`.
    public init?(number: Int, of count: Int) {
        guard count >= 1, (1...count).contains(number) else { return nil }
        self.number = number
        self.count = count
    }

    /// The number of the shard, of `count`, that the gallery in `folder` belongs to.
    package static func number(of folder: String, count: Int) -> Int {
        let digest = SHA256Hasher.hex(of: folder)
        return Int(UInt64(digest.prefix(16), radix: 16)! % UInt64(max(count, 1))) + 1
    }

    /// Whether `part` is one of this shard's galleries.
    package func holds(_ part: SitePart) -> Bool { Self.number(of: part.folder, count: count) == number }
}

/// What a shard's output folder holds beside its galleries (`.vitrine-shard.json`, written and listed in the
/// manifest like every other file), so that a merge can make the site's own files without asking any API: each
/// gallery's card on the home page, its entry in the feed and in the manifest, and the files that are its own.
struct ShardRecord: Codable, Equatable {
    static let fileName = ".vitrine-shard.json"
    /// The largest record read.
    static let largestRecord = 256 << 20

    /// The digest of the config and the theme the shard was built with (`SitePlan.shardFingerprint`).
    var fingerprint: String
    var shard: Int
    var count: Int
    var galleries: [Gallery]

    /// One gallery of the shard.
    struct Gallery: Codable, Equatable {
        var folder: String
        /// Every file of the gallery, below its folder, in the order the build writes them.
        var files: [String]
        var card: Card
        var feed: FeedEntry
        var manifest: OutputManifest.Gallery
        /// The items of its results that have tags, for the site's tag pages; absent in a record from before them.
        var tags: Tags? = nil
        /// The entries of its search index, for the site's (`problem(ofSearch:)`); absent when it has no search.
        var search: [SearchIndex.Entry]? = nil
    }

    /// `SiteModel.Gallery` without its id, which the merge gives by the gallery's place in the config.
    struct Card: Codable, Equatable {
        var title: String
        var href: String
        var source: String
        var sourceLabel: String
        var sourceHome: String?
        /// The most of the source's photos a page may show, by its terms.
        var sourcePhotosPerPage: Int?
        var queries: [String]
        var itemCount: Int
        var cover: Cover?
        /// A random page's interval, in seconds.
        var every: Int?
        /// Its variants' keys and labels, which the site's tag pages name; absent in a record from before them.
        var variants: [Variant]? = nil
    }

    /// A variant of a card's gallery (`SourceVariant` without its query).
    struct Variant: Codable, Equatable {
        var key: String
        var label: String
    }

    /// A card's cover: an image file of the site, or (with `url`, and an empty path and type) a picture shown from
    /// its own URL.
    struct Cover: Codable, Equatable {
        var path: String
        var mediaType: String
        var width: Int?
        var height: Int?
        var url: String?
    }

    /// `SiteFeeds.Entry`, with its date as seconds since 1970.
    struct FeedEntry: Codable, Equatable {
        /// The times a feed can carry: from 1970 to the last second of 9999, the years RFC 3339 writes.
        static let times = Double(UTCTime.rfc3339Seconds.lowerBound)...Double(UTCTime.rfc3339Seconds.upperBound)

        var path: String
        var title: String
        var summary: String
        var updated: Double?

        /// Whether `updated` is absent or a time a feed can carry.
        var hasWritableTime: Bool { updated.map(Self.times.contains) ?? true }
    }

    func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return [UInt8](try encoder.encode(self)) + [0x0A]
    }
}

extension ShardRecord.Gallery {
    /// The record of a gallery a shard built.
    init(_ prepared: GalleryPipeline.Prepared) {
        let card = prepared.card(id: "")
        var cover: ShardRecord.Cover?
        switch card.cover?.state {
        case .available(let path, let mediaType):
            cover = .init(path: path, mediaType: mediaType, width: card.cover?.width, height: card.cover?.height)
        case .remote(let url):
            cover = .init(path: "", mediaType: "", width: card.cover?.width, height: card.cover?.height, url: url)
        case .unavailable, nil:
            break
        }
        let feed = prepared.feedEntry
        self.init(
            folder: prepared.folder, files: prepared.files,
            card: .init(
                title: card.title, href: card.href, source: card.source.name, sourceLabel: card.source.label,
                sourceHome: card.source.home, sourcePhotosPerPage: card.source.photosPerPageLimit,
                queries: card.queries, itemCount: card.itemCount, cover: cover,
                every: card.every?.seconds, variants: card.variants.map { .init(key: $0.key, label: $0.label) }),
            feed: .init(
                path: feed.path, title: feed.title, summary: feed.summary,
                updated: feed.updated?.timeIntervalSince1970),
            manifest: prepared.manifestRecord)
        tags = ShardRecord.Tags(prepared.taggedItems)
        search = prepared.searchEntries
    }

    /// The gallery's card on the home page, with the id `id`.
    func siteCard(id: String) -> SiteModel.Gallery {
        SiteModel.Gallery(
            id: id, title: card.title, href: card.href,
            source: SourceDescription(
                name: card.source, label: card.sourceLabel, home: card.sourceHome,
                photosPerPageLimit: card.sourcePhotosPerPage.flatMap { (1...1_000).contains($0) ? $0 : nil }),
            queries: card.queries, itemCount: card.itemCount,
            cover: card.cover.map {
                GalleryModel.LocalImage(
                    state: $0.url.map { .remote(url: $0) } ?? .available(path: $0.path, mediaType: $0.mediaType),
                    width: $0.width, height: $0.height)
            },
            every: card.every.flatMap(UpdateInterval.init(seconds:)),
            variants: (card.variants ?? []).map { SourceVariant(key: $0.key, label: $0.label, query: nil) })
    }

    var feedEntry: SiteFeeds.Entry {
        SiteFeeds.Entry(
            path: feed.path, title: feed.title, summary: feed.summary,
            updated: feed.updated.map(Date.init(timeIntervalSince1970:)))
    }
}

extension SitePlan {
    /// The digest a shard records of the site it is part of, which a merge compares: `config`, a digest of the
    /// config the plan was read from, with the theme and Vitrine's version (`salt`).
    func shardFingerprint(config: String, salt: String) -> String {
        SHA256Hasher.hex(of: "shard-record 1\nsalt \(salt)\nconfig \(config)")
    }
}

/// A merge of shards' output folders was refused: what a folder holds cannot make the site the config describes.
public enum ShardMergeError: UserFacingError {
    /// There is no folder at the path.
    case missingFolder(String)
    /// The folder holds no shard record: it is not the output of a sharded build.
    case notAShard(String)
    /// The shard was built from another config or theme than the merge's.
    case otherConfig(String)
    /// No shard folder holds the gallery in this folder of the site.
    case galleryMissing(String)
    /// Two shard folders hold the gallery in this folder of the site.
    case galleryTwice(String, folders: [String])
    /// The output folder of the merge is one of the shards' folders.
    case outputIsAShard(String)
    /// A file of the shard folder is damaged or not what a shard writes.
    case damaged(folder: String, detail: String)

    /// Names the folder or gallery at fault and what to pass instead.
    public var sentence: String {
        switch self {
        case .missingFolder(let folder):
            "There is no shard folder \(folder); pass the output folder of each shard's build."
        case .notAShard(let folder):
            "\(folder) is not the output of a sharded build (it has no \(ShardRecord.fileName)); pass the output "
                + "folder of each shard's build."
        case .otherConfig(let folder):
            "The shard in \(folder) was built from another config or theme than this one; build every shard "
                + "from the same config and theme, then merge."
        case .galleryMissing(let gallery):
            "No shard folder holds the gallery \(gallery); build its shard and pass every shard's folder."
        case .galleryTwice(let gallery, let folders):
            "The gallery \(gallery) is in two shard folders (\(folders.joined(separator: " and "))); pass each "
                + "shard's folder once, all of the same number of shards."
        case .outputIsAShard(let folder):
            "The merged site cannot be written into \(folder), which is one of the shards; choose another output "
                + "folder."
        case .damaged(let folder, let detail):
            "The shard folder \(folder) is damaged: \(detail); build that shard again."
        }
    }

    /// `.badData` for a damaged shard folder, `.invalidArgument` for the wrong folders.
    public var kind: FailureKind {
        if case .damaged = self { .badData } else { .invalidArgument }
    }
}

/// Reads the galleries of shards' output folders for a merge, refusing anything that would not make the site the
/// plan describes, or that could leave the output folder or reach a page as anything but text.
struct ShardReader {
    let site: SitePlan
    let fingerprint: String
    let output: URL

    /// One gallery per part of the plan, in the plan's order, each with the bytes of its files, checked against
    /// the shard's manifest, and the shard's images.
    func read(_ shards: [URL]) async throws -> [GalleryPipeline.Prepared] {
        var found: [String: (prepared: GalleryPipeline.Prepared, shard: String)] = [:]
        let folders = Set(site.parts.map(\.folder))
        var paths = Set<String>()
        var imageDigests: [String: String] = [:]
        let out = output.standardizedFileURL.resolvingSymlinksInPath().path
        for shard in shards {
            let name = shard.path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: name, isDirectory: &isFolder), isFolder.boolValue else {
                throw ShardMergeError.missingFolder(name)
            }
            if shard.standardizedFileURL.resolvingSymlinksInPath().path == out {
                throw ShardMergeError.outputIsAShard(name)
            }
            for prepared in try await read(shard, folders: folders) {
                if let other = found[prepared.folder] {
                    throw ShardMergeError.galleryTwice(prepared.folder, folders: [other.shard, name])
                }
                for path in prepared.files where !paths.insert(path).inserted {
                    throw ShardMergeError.damaged(folder: name, detail: "two galleries list its file \(path)")
                }
                for image in prepared.stored {
                    let path = GalleryAssembler.localPath(of: image)
                    if let other = imageDigests.updateValue(image.sha256, forKey: path), other != image.sha256 {
                        throw ShardMergeError.damaged(folder: name, detail: "its image \(path) is another shard's")
                    }
                }
                found[prepared.folder] = (prepared, name)
            }
        }
        return try site.parts.map { part in
            guard let gallery = found[part.folder] else { throw ShardMergeError.galleryMissing(part.folder) }
            return gallery.prepared
        }
    }

    private func read(_ shard: URL, folders: Set<String>) async throws -> [GalleryPipeline.Prepared] {
        let name = shard.path
        let files = RootedFiles(root: name)
        func damaged(_ detail: String) -> ShardMergeError { .damaged(folder: name, detail: detail) }
        guard case .file = files.entry(ShardRecord.fileName) else { throw ShardMergeError.notAShard(name) }
        guard let bytes = files.contents(ShardRecord.fileName, limit: ShardRecord.largestRecord),
            let record = try? JSONDecoder().decode(ShardRecord.self, from: Data(bytes))
        else { throw damaged("its \(ShardRecord.fileName) cannot be read") }
        guard record.fingerprint == fingerprint else { throw ShardMergeError.otherConfig(name) }
        guard let manifest = OutputManifest.read(in: shard) else {
            throw damaged("its \(OutputManifest.fileName) cannot be read")
        }
        let listed = Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

        // The shard's images, each a regular file with the bytes its manifest records, at the path they name.
        var images: [String: CacheStore.ImageRecord] = [:]
        var byURL: [String: CacheStore.ImageRecord] = [:]
        var stamps: [String: FileStamp] = [:]
        for file in manifest.files where file.path.hasPrefix("images/") {
            let fileExtension = (file.path as NSString).pathExtension
            guard let format = ImageFormat.allCases.first(where: { $0.fileExtension == fileExtension }),
                let size = file.size, file.sha256.count == 64,
                file.sha256.allSatisfy({ $0.isHexDigit && !$0.isUppercase })
            else { throw damaged("its manifest lists \(file.path), which is not an image Vitrine names") }
            let image = CacheStore.ImageRecord(sha256: file.sha256, format: format, byteCount: size)
            guard GalleryAssembler.localPath(of: image) == file.path else {
                throw damaged("its manifest lists \(file.path), which is not an image Vitrine names")
            }
            images[file.path] = image
            for url in file.urls ?? [] { byURL[url] = image }
        }
        // Each hashed before anything is written, over the cores, with the stamp it had: the copy then trusts it by
        // its stamp.
        let checked = images.values.sorted { $0.sha256 < $1.sha256 }
        let found = await CoreSplit.mapParts(of: checked.count, threshold: 16) { [name] part in
            let files = RootedFiles(root: name)
            return checked[part].map { image -> FileStamp? in
                guard let read = files.stampedContents(GalleryAssembler.localPath(of: image), limit: image.byteCount),
                    read.bytes.count == image.byteCount, SHA256Hasher.hex(of: read.bytes) == image.sha256
                else { return nil }
                return read.stamp
            }
        }
        for (image, stamp) in zip(checked, found.joined()) {
            guard let stamp else {
                let path = GalleryAssembler.localPath(of: image)
                throw damaged("the image \(path) is missing or does not hold what its manifest records")
            }
            stamps[image.sha256] = stamp
        }

        var galleries: [GalleryPipeline.Prepared] = []
        var seen = Set<String>()
        for gallery in record.galleries {
            let folder = gallery.folder
            guard folders.contains(folder), seen.insert(folder).inserted, gallery.manifest.path == folder else {
                throw damaged("its record lists a gallery in \(folder) that the config does not have there")
            }
            var copies: [GalleryPipeline.Prepared.Copy] = []
            for path in gallery.files {
                guard path.hasPrefix(folder), Self.isPlain(path), let file = listed[path], let size = file.size,
                    let bytes = files.contents(path, limit: size), bytes.count == size,
                    SHA256Hasher.hex(of: bytes) == file.sha256
                else {
                    throw damaged("its file \(path) is missing, outside its gallery or not what its manifest records")
                }
                copies.append(.init(path: path, bytes: bytes, inputs: file.inputs))
            }
            let card = gallery.card
            guard gallery.files.contains(card.href), card.href.hasSuffix(".html"), gallery.feed.path == card.href,
                card.cover.map({ cover in
                    cover.url.map { Self.isWebAddress($0) && cover.path.isEmpty }
                        ?? (images[cover.path] != nil && Self.isMediaType(cover.mediaType))
                }) ?? true
            else { throw damaged("the card of its gallery \(folder) links outside the gallery's files") }
            let manifest = gallery.manifest
            guard card.title == manifest.title, gallery.feed.title == manifest.title, card.source == manifest.source,
                card.sourceLabel == manifest.sourceLabel, card.queries == manifest.queries,
                card.itemCount == manifest.items.count, card.sourceHome.map(Self.isWebAddress) ?? true
            else { throw damaged("the card of its gallery \(folder) is not the gallery its manifest records") }
            guard (card.variants ?? []).count <= 100,
                (card.variants ?? []).allSatisfy({
                    Self.isPlain($0.key) && !$0.key.contains("/") && $0.key.count <= 100 && $0.label.count <= 1_000
                })
            else { throw damaged("the variants of its gallery \(folder) are not names Vitrine writes") }
            guard gallery.feed.hasWritableTime else {
                throw damaged("the feed time of its gallery \(folder) is not a time between 1970 and 9999")
            }
            if let problem = gallery.tags?.problem(
                itemCount: manifest.items.count, files: Set(gallery.files), images: Set(images.keys))
            {
                throw damaged("the tags of its gallery \(folder) \(problem)")
            }
            if let problem = gallery.problem(ofSearch: Set(images.keys)) {
                throw damaged("the search entries of its gallery \(folder) \(problem)")
            }
            let first = galleries.isEmpty
            var summary = BuildSummary()
            summary.items = gallery.manifest.items.count
            galleries.append(
                GalleryPipeline.Prepared(
                    folder: folder, content: .merged(gallery, copies: copies), views: [],
                    stored: first ? Array(images.values) : [], images: first ? byURL : [:],
                    stamps: first ? stamps : [:],
                    imagesFromSnapshot: true,
                    summary: summary, fetchedAt: nil, responses: nil,
                    imageFolder: shard))
        }
        return galleries
    }

    /// A relative path whose names are none of them empty, hidden, '.' or '..', and hold no control character or
    /// backslash.
    static func isPlain(_ path: String) -> Bool {
        path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { part in
            !part.isEmpty && !part.hasPrefix(".")
                && part.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\\" }
        }
    }

    /// An absolute http or https URL with a host, such as a source's home page, valid as it stands (`WebURL`).
    static func isWebAddress(_ text: String) -> Bool { WebURL(text) != nil }

    /// A media type of an image, such as image/jpeg.
    static func isMediaType(_ text: String) -> Bool { ImageFormat(mediaType: text) != nil }
}
