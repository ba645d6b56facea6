import Foundation
import VitrineSources
import VitrineStore

/// What the history keeps of an item of a gallery that keeps every item (`keep = "all"`), so that its archive can
/// show it after it left the API's results.
extension SiteHistory {
    /// What an item showed, variant by variant: enough to show it again without its API.
    package struct ArchivedItem: Codable, Sendable, Equatable {
        package var entries: [ArchivedEntry]

        package init(entries: [ArchivedEntry]) {
            self.entries = entries
        }
    }

    /// One variant of an archived item: its caption, credit and images.
    package struct ArchivedEntry: Codable, Sendable, Equatable {
        package var variant: String
        package var caption: String
        package var credit: ArchivedCredit?
        package var tile: ArchivedImage
        package var full: ArchivedImage
        /// The picture's license as its source declared it; absent in histories from before licenses were kept.
        package var license: ArchivedLicense?
        /// Present and true when the source said an AI made the picture.
        package var aiGenerated: Bool?
        /// The picture's tags, normalised (`PictureTags`); absent when it had none, and in histories from before
        /// tags were kept.
        package var tags: [String]?

        package init(
            variant: String, caption: String, credit: ArchivedCredit?, tile: ArchivedImage, full: ArchivedImage,
            license: ArchivedLicense? = nil, aiGenerated: Bool? = nil, tags: [String]? = nil
        ) {
            self.tags = tags
            self.variant = variant
            self.caption = caption
            self.credit = credit
            self.tile = tile
            self.full = full
            self.license = license
            self.aiGenerated = aiGenerated
        }

        enum CodingKeys: String, CodingKey {
            case variant, caption, credit, tile, full, license, tags
            case aiGenerated = "ai-generated"
        }
    }

    /// An archived picture's license, as `License` has it.
    package struct ArchivedLicense: Codable, Sendable, Equatable {
        package var id: String?
        package var name: String
        package var label: String
        package var url: String?
        package var copies: License.Copies
        /// True when the site declared the license (`--declared-license`); absent otherwise.
        package var declaredBySite: Bool?

        package init(_ license: License) {
            id = license.id
            name = license.name
            label = license.label
            url = license.url
            copies = license.copies
            declaredBySite = license.declaredBySite ? true : nil
        }

        package var license: License {
            License(id: id, name: name, label: label, url: url, copies: copies, declaredBySite: declaredBySite == true)
        }

        enum CodingKeys: String, CodingKey {
            case id, name, label, url, copies
            case declaredBySite = "declared-by-site"
        }
    }

    /// Whom an archived picture is credited to, and the link back.
    package struct ArchivedCredit: Codable, Sendable, Equatable {
        package var name: String
        package var url: String?
        /// "publication" for a publication's credit; absent for an author.
        package var role: String?
        /// The author's own page.
        package var authorURL: String?

        package init(name: String, url: String?, role: String?, authorURL: String? = nil) {
            self.name = name
            self.url = url
            self.role = role
            self.authorURL = authorURL
        }

        enum CodingKeys: String, CodingKey {
            case name, url, role
            case authorURL = "author-url"
        }
    }

    /// An archived image: where it was downloaded from, and its bytes by digest, size and type; or, for a picture
    /// whose license does not allow copies, only the URL it is shown from (no digest, type or size: it was never
    /// downloaded).
    package struct ArchivedImage: Codable, Sendable, Equatable {
        package var url: String
        package var sha256: String?
        package var type: String?
        package var bytes: Int?
        package var width: Int?
        package var height: Int?

        package init(url: String, sha256: String, type: String, bytes: Int, width: Int?, height: Int?) {
            self.url = url
            self.sha256 = sha256
            self.type = type
            self.bytes = bytes
            self.width = width
            self.height = height
        }

        /// An image shown from its own URL, never downloaded.
        package init(shownFrom url: String, width: Int?, height: Int?) {
            self.url = url
            self.width = width
            self.height = height
        }

        /// Whether the archive keeps the image's bytes (and finds them again by their digest).
        package var isDownloaded: Bool { sha256 != nil }
    }

    /// What each current item of a gallery that keeps every item shows, by its id in the history: its pictures'
    /// captions, credits and images (by the URL each came from and its bytes' digest). An item without a picture,
    /// or one the history file could not hold, has none.
    package static func archivedItems(of model: GalleryModel, images: [String: CacheStore.ImageRecord])
        -> [String: ArchivedItem]
    {
        var byPath: [String: (url: String, record: CacheStore.ImageRecord)] = [:]
        for (url, record) in images.sorted(by: { $0.key < $1.key }) where isWebURL(url) {
            let path = GalleryAssembler.localPath(of: record)
            if byPath[path] == nil { byPath[path] = (url, record) }
        }
        func archived(_ image: GalleryModel.LocalImage) -> ArchivedImage? {
            switch image.state {
            case .available(let path, let type):
                guard let found = byPath[path] else { return nil }
                return ArchivedImage(
                    url: found.url, sha256: found.record.sha256, type: type, bytes: found.record.byteCount,
                    width: image.width, height: image.height)
            case .remote(let url):
                return ArchivedImage(shownFrom: url, width: image.width, height: image.height)
            case .unavailable:
                return nil
            }
        }
        var records: [String: ArchivedItem] = [:]
        for item in model.collections.first?.items ?? [] {
            let entries = item.entries.compactMap { entry -> ArchivedEntry? in
                guard
                    case .picture(let caption, let credit, let tile, let full, let license, let aiGenerated) = entry
                        .content,
                    let tile = archived(tile), let full = archived(full)
                else { return nil }
                return ArchivedEntry(
                    variant: entry.variant, caption: caption,
                    credit: credit.map {
                        ArchivedCredit(
                            name: $0.name, url: $0.url.flatMap { isWebURL($0) ? $0 : nil },
                            role: $0.role == .publication ? "publication" : nil,
                            authorURL: $0.authorURL.flatMap { isWebURL($0) ? $0 : nil })
                    }, tile: tile, full: full, license: ArchivedLicense(license),
                    aiGenerated: aiGenerated ? true : nil, tags: entry.tags.isEmpty ? nil : entry.tags.map(\.name))
            }
            let record = ArchivedItem(entries: entries)
            if !entries.isEmpty, problem(of: record) == nil { records[item.sourceID ?? item.id] = record }
        }
        return records
    }

    /// The items of the gallery in `folder` that left the results and whose record the history keeps.
    package func departed(from folder: String) -> [ArchiveAssembler.Departed] {
        let known = galleries.first { $0.path == folder }?.items ?? []
        return known.compactMap { item in
            guard !item.current, let record = item.record, snapshots.indices.contains(item.lastSeen - 1)
            else { return nil }
            return ArchiveAssembler.Departed(
                id: item.id, lastSeen: snapshots[item.lastSeen - 1].time, record: record)
        }
    }
}
