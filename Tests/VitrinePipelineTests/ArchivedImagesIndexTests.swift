import Foundation
import Testing
import VitrineBasics
import VitrineModel
import VitrineTestSupport

@testable import SampleAPI
@testable import VitrinePipeline
@testable import VitrineStore

/// Issue 24, item 4: a rebuild of an archive of thousands of items opened the cache's index entry of every archived
/// image. The previous build's image index (`ImageIndexSnapshot`) now gives them while the cache is as it was; these
/// tests hold that whatever changed in the cache since is found all the same.
@Suite struct ArchivedImagesIndexTests {
    /// A cache holding the images of `count` archived pictures (distinct JPEGs), its folders dated an hour back as
    /// if nothing had changed since, the image index a build of them leaves, and a previous publish that holds the
    /// same images beside its history.
    struct Archive {
        let folder: TemporaryFolder
        let cache: CacheStore
        let images: [SiteHistory.ArchivedImage]
        let snapshot: ImageIndexSnapshot
        let previous: URL

        init(count: Int) throws {
            folder = try TemporaryFolder()
            cache = CacheStore(root: folder.url.appendingPathComponent("cache"))
            previous = folder.url.appendingPathComponent("previous/history.json")
            var images: [SiteHistory.ArchivedImage] = []
            var records: [String: CacheStore.ImageRecord] = [:]
            var stamps: [String: FileStamp] = [:]
            for index in 0..<count {
                let url = "https://cdn.example/archived-\(index).jpg"
                let bytes = [UInt8](JPEGComment.insert("archived \(index)", into: RandomPipelineTests.jpeg))
                let stored = try cache.storeStampedImage(bytes, format: .jpeg, from: url)
                records[url] = stored.record
                stamps[stored.record.sha256] = stored.stamp
                images.append(
                    SiteHistory.ArchivedImage(
                        url: url, sha256: stored.record.sha256, type: "image/jpeg", bytes: bytes.count,
                        width: stored.record.width, height: stored.record.height))
                let copy = previous.deletingLastPathComponent().appendingPathComponent(
                    GalleryAssembler.localPath(of: stored.record))
                try FileManager.default.createDirectory(
                    at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(bytes).write(to: copy)
            }
            for kind in ["urls", "images"] {
                let shards = cache.root.appendingPathComponent(kind)
                for shard in try FileManager.default.contentsOfDirectory(atPath: shards.path) {
                    try FileManager.default.setAttributes(
                        [.modificationDate: Date().addingTimeInterval(-3600)],
                        ofItemAtPath: shards.appendingPathComponent(shard).path)
                }
            }
            self.images = images
            snapshot = cache.snapshot(of: records, stamps: stamps, now: Date())
        }

        /// What the build finds of every archived image, offline, with the previous publish or without it.
        func resolve(withPreviousPublish: Bool = true) async -> ArchivedImages.Resolved {
            let archived = ArchivedImages(
                cache: cache, fetcher: ArchivedImagesTests.RecordingFetcher(body: []), recovery: nil,
                previous: withPreviousPublish ? .file(previous) : nil, offline: true, maximumBytes: 1 << 20,
                snapshot: snapshot)
            return await archived.resolve(images, hosts: ArchiveImageHosts(endpoints: [], imageURLs: []))
        }

        func cachedFile(of image: SiteHistory.ArchivedImage) -> String {
            cache.root.appendingPathComponent("images/\(image.sha256!.prefix(2))/\(image.sha256!).jpg").path
        }

        func indexFile(of image: SiteHistory.ArchivedImage) -> String {
            let digest = SHA256Hasher.hex(of: image.url)
            return cache.root.appendingPathComponent("urls/\(digest.prefix(2))/\(digest).json").path
        }

        /// Whether `resolved` holds the recorded bytes of `image`.
        func isStored(_ image: SiteHistory.ArchivedImage, in resolved: ArchivedImages.Resolved) -> Bool {
            guard case .stored(let record) = resolved.outcomes[image.url] else { return false }
            return record.sha256 == image.sha256
        }
    }

    @Test func anUnchangedCacheGivesEveryArchivedImageWithoutOpeningItsIndexEntry() async throws {
        let archive = try Archive(count: 40)
        // Every index entry emptied in place, which the cache itself never does and which leaves its folder's stamp
        // as it was, and no previous publish: only the image index can give the images now.
        for image in archive.images {
            let handle = try #require(FileHandle(forWritingAtPath: archive.indexFile(of: image)))
            try handle.truncate(atOffset: 0)
            try handle.close()
        }
        let resolved = await archive.resolve(withPreviousPublish: false)
        #expect(archive.images.allSatisfy { archive.isStored($0, in: resolved) })
        #expect(resolved.fromSnapshot)
        // With the stamps their bytes were verified with, which spare hashing them when they are placed.
        #expect(Set(resolved.stamps.keys) == Set(archive.images.compactMap(\.sha256)))
    }

    @Test func anIndexEntryPointedElsewhereSinceIsReadAgainAndTheRecordedBytesFound() async throws {
        let archive = try Archive(count: 40)
        // Another build sharing the cache downloaded the URL again and got other bytes: a new entry renamed into
        // its folder, which changes the folder's stamp.
        let moved = archive.images[7]
        let other = [UInt8](JPEGComment.insert("other bytes", into: RandomPipelineTests.jpeg))
        _ = try archive.cache.storeImage(other, format: .jpeg, from: moved.url)

        let resolved = await archive.resolve()
        #expect(archive.images.allSatisfy { archive.isStored($0, in: resolved) })
        #expect(!resolved.fromSnapshot, "the build leaves a new image index")
        #expect(archive.cache.imageRecord(for: moved.url)?.sha256 == moved.sha256, "taken back from the publish")

        // Without the previous publish, the other bytes are never taken for the recorded ones.
        _ = try archive.cache.storeImage(other, format: .jpeg, from: moved.url)
        let alone = await archive.resolve(withPreviousPublish: false)
        #expect(alone.outcomes[moved.url] == .failed(reason: "The archived image is no longer available"))
        #expect(archive.images.filter { $0.url != moved.url }.allSatisfy { archive.isStored($0, in: alone) })
    }

    @Test func anImageGoneFromTheCacheOrChangedInPlaceIsNotTakenFromTheIndex() async throws {
        let archive = try Archive(count: 40)
        let gone = archive.images[3]
        let changed = archive.images[11]
        try FileManager.default.removeItem(atPath: archive.cachedFile(of: gone))
        // The same size, one byte changed, the folder's time as it was: only the file's own stamp tells.
        let handle = try #require(FileHandle(forUpdatingAtPath: archive.cachedFile(of: changed)))
        try handle.seek(toOffset: 100)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 100)
        try handle.write(contentsOf: Data([byte ^ 0xFF]))
        try handle.close()

        let alone = await archive.resolve(withPreviousPublish: false)
        for image in [gone, changed] {
            #expect(alone.outcomes[image.url] == .failed(reason: "The archived image is no longer available"))
        }
        #expect(!FileManager.default.fileExists(atPath: archive.cachedFile(of: changed)), "damaged bytes removed")
        #expect(!alone.fromSnapshot)
        #expect(archive.images.filter { ![gone.url, changed.url].contains($0.url) }.count == 38)
        #expect(
            archive.images.filter { ![gone.url, changed.url].contains($0.url) }.allSatisfy {
                archive.isStored($0, in: alone)
            })

        // The previous publish gives both back, whole, into the cache.
        let resolved = await archive.resolve()
        #expect(archive.images.allSatisfy { archive.isStored($0, in: resolved) })
        for image in [gone, changed] {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: archive.cachedFile(of: image)))
            #expect(SHA256Hasher.hex(of: [UInt8](bytes)) == image.sha256)
        }
    }
}
