import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrineStore

/// Finds the bytes of the images of archived items (`keep = "all"`), whose API no longer lists them: in the
/// cache, else in the output folder's earlier copy, else in the previous publish (beside its `history.json`),
/// else at the URL they were first downloaded from, if the gallery's source uses its host (``ArchiveImageHosts``).
/// Bytes count only when their SHA-256 is the one the history recorded and they are a whole image; they are kept in
/// the cache like any downloaded image. The cache is asked for all of them at once, through the previous build's
/// image index (`snapshot`), as for the images of the results: an entry is taken from it only while its cache
/// folders and its image file are as they were, so that a rebuild opens no index file of the thousands an archive
/// can have.
struct ArchivedImages {
    let cache: CacheStore
    let fetcher: any HTTPFetching
    let recovery: OutputImageRecovery?
    /// Where the previous history came from, whose folder holds the previous publish's images.
    let previous: HistorySource?
    let offline: Bool
    let maximumBytes: Int
    /// The previous build's image index of the output folder.
    var snapshot: ImageIndexSnapshot? = nil

    /// What became of each image, by the URL it was first downloaded from, with the stamps of the copies it made
    /// or found, and whether the previous build's image index gave every one of them.
    struct Resolved {
        var outcomes: [String: ImageOutcome] = [:]
        var stamps: [String: FileStamp] = [:]
        var fromSnapshot = false
    }

    /// Why an archived image found nowhere else is not downloaded from its URL.
    static let refusedHost = "Not downloaded: its host is not one the gallery's source uses"

    /// The warning for the images of `outcomes` that were not downloaded for their hosts; nil when there are none.
    static func refusalWarning(_ outcomes: [String: ImageOutcome], folder: String) -> String? {
        let refused = outcomes.filter { $0.value == .failed(reason: refusedHost) }.keys.sorted()
        guard let first = refused.first else { return nil }
        let one = refused.count == 1
        return "\(refused.count) image URL\(one ? "" : "s") of items no longer in the results of \(folder) "
            + "\(one ? "was" : "were") not downloaded, as the gallery's source does not use "
            + "\(one ? "its host" : "their hosts") (\(first)\(one ? "" : ", …"))."
    }

    /// What became of each image; `hosts` says which URLs may be downloaded.
    func resolve(_ images: [SiteHistory.ArchivedImage], hosts: ArchiveImageHosts) async -> Resolved {
        var seen = Set<String>()
        // An image shown from its own URL is never looked for: it was never downloaded, and may not be.
        let distinct = images.filter { $0.isDownloaded && seen.insert($0.url).inserted }
        let cached = await cache.imageRecords(for: distinct.map(\.url), snapshot: snapshot)
        var resolved = Resolved()
        var elsewhere: [SiteHistory.ArchivedImage] = []
        for image in distinct {
            if let record = cached.records[image.url], record.sha256 == image.sha256 {
                resolved.outcomes[image.url] = .stored(record)
                resolved.stamps[record.sha256] = cached.stamps[record.sha256]
            } else {
                elsewhere.append(image)
            }
        }
        resolved.fromSnapshot = elsewhere.isEmpty && cached.fromSnapshot == distinct.count
        // As many at once as the fetcher runs transfers: the output folder, the previous publish, the network.
        await withTaskGroup(of: (String, Found).self) { group in
            var next = elsewhere.makeIterator()
            func start() {
                guard let image = next.next() else { return }
                group.addTask { (image.url, await find(image, hosts: hosts)) }
            }
            for _ in 0..<max(1, fetcher.concurrentTransfers) { start() }
            while let (url, found) = await group.next() {
                switch found {
                case .stored(let record, let stamp):
                    resolved.outcomes[url] = .stored(record)
                    resolved.stamps[record.sha256] = stamp
                case .missing: resolved.outcomes[url] = .failed(reason: "The archived image is no longer available")
                case .refused: resolved.outcomes[url] = .failed(reason: Self.refusedHost)
                }
                start()
            }
        }
        return resolved
    }

    /// Where an archived image was found.
    private enum Found {
        case stored(CacheStore.ImageRecord, FileStamp)
        case missing
        /// Found nowhere else, and its URL's host is not one to download from.
        case refused
    }

    /// An image the cache does not hold with the recorded bytes, found elsewhere.
    private func find(_ image: SiteHistory.ArchivedImage, hosts: ArchiveImageHosts) async -> Found {
        guard let sha256 = image.sha256, let type = image.type, let byteCount = image.bytes else { return .missing }
        if let (record, stamp) = recovery?.recover(image.url), record.sha256 == sha256 {
            return .stored(record, stamp)
        }
        guard let format = ImageFormat(mediaType: type) else { return .missing }
        let name = GalleryAssembler.localPath(
            of: CacheStore.ImageRecord(sha256: sha256, format: format, byteCount: byteCount))
        if let bytes = await fromPreviousPublish(name), let found = keep(bytes, of: image, format: format) {
            return .stored(found.0, found.1)
        }
        guard !offline else { return .missing }
        guard hosts.allows(image.url) else { return .refused }
        if let bytes = await download(image.url, headers: hosts.headers),
            let found = keep(bytes, of: image, format: format)
        {
            return .stored(found.0, found.1)
        }
        return .missing
    }

    /// The previous publish's copy of the image file `name`.
    private func fromPreviousPublish(_ name: String) async -> [UInt8]? {
        switch previous {
        case .file(let history):
            return RootedFiles(root: history.deletingLastPathComponent().path).contents(name, limit: maximumBytes)
        case .url(let history):
            guard !offline, let base = URL(string: history)?.deletingLastPathComponent().absoluteString else {
                return nil
            }
            return await download(base + name)
        case nil:
            return nil
        }
    }

    /// `bytes` in the cache as the image of `image.url`, if they are the bytes the history recorded.
    private func keep(_ bytes: [UInt8], of image: SiteHistory.ArchivedImage, format: ImageFormat) -> (
        CacheStore.ImageRecord, FileStamp
    )? {
        guard SHA256Hasher.hex(of: bytes) == image.sha256, ImageFormat.sniff(bytes) == format,
            ImageCompleteness.problem(bytes, format: format) == nil,
            let stored = try? cache.storeStampedImage(bytes, format: format, from: image.url)
        else { return nil }
        return (stored.record, stored.stamp)
    }

    private func download(_ url: String, headers: [String: String] = [:]) async -> [UInt8]? {
        guard
            let response = try? await fetcher.fetch(
                FetchRequest(url: url, headers: headers, maximumBodyBytes: maximumBytes)),
            response.status == 200
        else { return nil }
        return response.body
    }
}
