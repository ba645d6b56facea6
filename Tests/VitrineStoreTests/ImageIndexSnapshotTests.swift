import Foundation
import Testing
import VitrineTestSupport

@testable import VitrineBasics
@testable import VitrineStore

@Suite struct ImageIndexSnapshotTests {
    /// A cache holding `count` image URLs, written an hour ago (`settled`) or just now; URL `i` serves image
    /// `i % images` (each its own image unless told).
    func cache(with count: Int, images: Int? = nil, settled: Bool = true) throws -> (
        TemporaryFolder, CacheStore, [String: CacheStore.ImageRecord]
    ) {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        var records: [String: CacheStore.ImageRecord] = [:]
        for index in 0..<count {
            let url = "https://images.example/\(index).jpg"
            let image = index % (images ?? count)
            records[url] = try cache.storeImage(
                [0xFF, 0xD8, 0xFF, UInt8(image & 0xFF), UInt8(image >> 8)], format: .jpeg, from: url)
        }
        if settled { try age(folder) }
        return (folder, cache, records)
    }

    /// Dates every shard folder of the cache an hour back, as if nothing had changed in it since.
    func age(_ folder: TemporaryFolder) throws {
        try date(folder, Date().addingTimeInterval(-3600))
    }

    /// Dates every shard folder of the cache to `time`.
    func date(_ folder: TemporaryFolder, _ time: Date) throws {
        for kind in ["urls", "images"] {
            let shards = try FileManager.default.contentsOfDirectory(
                atPath: folder.url.appendingPathComponent(kind).path)
            for shard in shards {
                try FileManager.default.setAttributes(
                    [.modificationDate: time],
                    ofItemAtPath: folder.url.appendingPathComponent("\(kind)/\(shard)").path)
            }
        }
    }

    /// The stamps the cache verified the images of `records` with.
    func stamps(_ cache: CacheStore, _ records: [String: CacheStore.ImageRecord]) async -> [String: FileStamp] {
        await cache.imageRecords(for: Array(records.keys)).stamps
    }

    /// Changes a byte of the file at `url` in place: the same size, its folder's time as it was.
    func changeInPlace(_ url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: 3)
        try handle.write(contentsOf: Data([0xEE]))
        try handle.close()
    }

    func indexFile(of url: String, in folder: TemporaryFolder) -> String {
        let digest = SHA256Hasher.hex(of: url)
        return folder.url.appendingPathComponent("urls/\(digest.prefix(2))/\(digest).json").path
    }

    @Test func readsBackWhatItWrites() async throws {
        let (folder, cache, records) = try cache(with: 20)
        var snapshot = cache.snapshot(of: records, stamps: await stamps(cache, records), now: Date())
        let sha = String(repeating: "0f", count: 32)
        snapshot.records[String(repeating: "a1", count: 32)] = CacheStore.ImageRecord(
            sha256: sha, format: .webp, byteCount: 7, width: nil, height: nil)
        #expect(snapshot.records.count == 21)
        #expect(ImageIndexSnapshot(bytes: snapshot.encoded()) == snapshot)
        #expect(snapshot.encoded() == ImageIndexSnapshot(bytes: snapshot.encoded())?.encoded())
        #expect(FileManager.default.fileExists(atPath: folder.url.path))
    }

    @Test(arguments: [
        "", "vitrine-images 3", "vitrine-images 1\n", "vitrine-images 2\n", "vitrine-images 1\nimage x\n",
        "vitrine-images 1\nfolder 1 2 3 ../up\n", "vitrine-images 1\nfolder 1 -2 3 urls/ab\n",
        "vitrine-images 1\nfolder 1 2 3 urls/ab/cd\n",
        "vitrine-images 1\nimage \(String(repeating: "a", count: 64)) \(String(repeating: "B", count: 64)) jpeg 1 - -\n",
        "vitrine-images 1\nimage \(String(repeating: "a", count: 64)) \(String(repeating: "b", count: 64)) tiff 1 - -\n",
        "vitrine-images 1\nimage \(String(repeating: "a", count: 64)) \(String(repeating: "b", count: 64)) jpeg 1 x -\n",
        "vitrine-images 1\nimage \(String(repeating: "a", count: 64)) \(String(repeating: "b", count: 64)) jpeg 1 2\n",
    ])
    func anythingButAWholeSnapshotIsIgnored(text: String) {
        #expect(ImageIndexSnapshot(bytes: Array(text.utf8)) == nil)
    }

    @Test func unchangedFoldersAreTakenWithoutOpeningTheirEntries() async throws {
        let (folder, cache, records) = try cache(with: 30)
        let snapshot = cache.snapshot(of: records, stamps: await stamps(cache, records), now: Date())
        let lookup = await cache.imageRecords(for: Array(records.keys), snapshot: snapshot)
        #expect(lookup.records == records && lookup.fromSnapshot == 30)

        // An entry rewritten in place, which the cache itself never does, leaves its folder's stamp as it was: the
        // snapshot's record is what the build gets, which shows that the entry was not opened.
        let url = "https://images.example/3.jpg"
        let handle = try #require(FileHandle(forWritingAtPath: indexFile(of: url, in: folder)))
        try handle.truncate(atOffset: 0)
        try handle.close()
        #expect(await cache.imageRecords(for: [url], snapshot: snapshot).records[url] == records[url])
        #expect(cache.imageRecord(for: url) == nil)
    }

    @Test func aChangedFolderIsReadAgainAndOnlyItsEntriesAre() async throws {
        let (folder, cache, records) = try cache(with: 30)
        let snapshot = cache.snapshot(of: records, stamps: await stamps(cache, records), now: Date())
        // The same URL downloaded again with other bytes, as another build sharing the cache would: a new index file
        // renamed into the folder.
        let url = "https://images.example/7.jpg"
        let replaced = try cache.storeImage([0xFF, 0xD8, 0xFF, 0xEE, 0xEE], format: .jpeg, from: url)
        let lookup = await cache.imageRecords(for: Array(records.keys), snapshot: snapshot)
        #expect(lookup.records[url] == replaced)
        #expect(lookup.fromSnapshot < 30 && lookup.fromSnapshot > 0)
        var expected = records
        expected[url] = replaced
        #expect(lookup.records == expected)

        // An image removed from the cache is missing again, not taken from the snapshot.
        let other = "https://images.example/12.jpg"
        try FileManager.default.removeItem(at: cache.imageFile(for: try #require(records[other])))
        #expect(await cache.imageRecords(for: [other], snapshot: snapshot).records[other] == nil)
        #expect(FileManager.default.fileExists(atPath: indexFile(of: other, in: folder)))
    }

    @Test func imagesNoLongerInTheCacheAreLeftOut() async throws {
        let (folder, cache, records) = try cache(with: 10)
        let url = "https://images.example/4.jpg"
        try FileManager.default.removeItem(at: cache.imageFile(for: try #require(records[url])))
        // Its folder dated back as well: the snapshot must see the file gone, not only the folder changed.
        try age(folder)
        let snapshot = cache.snapshot(of: records, stamps: await stamps(cache, records), now: Date())
        #expect(snapshot.records.count == 9 && snapshot.records[SHA256Hasher.hex(of: url)] == nil)
        let lookup = await cache.imageRecords(for: Array(records.keys), snapshot: snapshot)
        #expect(lookup.fromSnapshot == 9 && lookup.records[url] == nil && lookup.records.count == 9)
    }

    @Test func foldersChangedJustBeforeTheSnapshotAreLeftOut() async throws {
        let (folder, cache, records) = try cache(with: 10, settled: false)
        // Every folder changed half the margin before the snapshot's time, however long the machine took to get here.
        let changed = Date()
        try date(folder, changed)
        let snapshot = cache.snapshot(
            of: records, stamps: await stamps(cache, records),
            now: changed.addingTimeInterval(ImageIndexSnapshot.racyMargin / 2))
        #expect(snapshot.records.isEmpty)
        #expect(await cache.imageRecords(for: Array(records.keys), snapshot: snapshot).records == records)
        #expect(FileManager.default.fileExists(atPath: folder.url.path))
    }

    @Test func anImageChangedInPlaceIsNeitherTakenFromTheSnapshotNorKept() async throws {
        let (folder, cache, records) = try cache(with: 10)
        defer { withExtendedLifetime(folder) {} }
        let snapshot = cache.snapshot(of: records, stamps: await stamps(cache, records), now: Date())
        let url = "https://images.example/3.jpg"
        let image = cache.imageFile(for: try #require(records[url]))
        // The same size, other bytes, and the folder's time left as it was: only the file's own stamp tells.
        try changeInPlace(image)
        let lookup = await cache.imageRecords(for: Array(records.keys), snapshot: snapshot)
        #expect(lookup.records[url] == nil && lookup.records.count == 9 && lookup.fromSnapshot == 9)
        #expect(!FileManager.default.fileExists(atPath: image.path), "the damaged bytes are removed")
    }

    /// An image the caller reads elsewhere is taken without a `stat` of its cached file, with the stamp the snapshot
    /// holds, while its folders are unchanged; a lookup that would read it checks the file.
    @Test func anImageReadElsewhereIsTakenWithoutCheckingItsCachedFile() async throws {
        let (folder, cache, records) = try cache(with: 10)
        defer { withExtendedLifetime(folder) {} }
        let snapshot = cache.snapshot(of: records, stamps: await stamps(cache, records), now: Date())
        let url = "https://images.example/3.jpg"
        let record = try #require(records[url])
        let image = cache.imageFile(for: record)
        try changeInPlace(image)

        let elsewhere = await cache.imageRecords(
            for: Array(records.keys), snapshot: snapshot, readElsewhere: { $0.sha256 == record.sha256 })
        #expect(elsewhere.records == records && elsewhere.fromSnapshot == 10)
        #expect(elsewhere.stamps[record.sha256] == snapshot.imageStamps[record.sha256])
        #expect(FileManager.default.fileExists(atPath: image.path), "not read, so not found damaged")

        let read = await cache.imageRecords(for: Array(records.keys), snapshot: snapshot, readElsewhere: { _ in false })
        #expect(read.records[url] == nil && read.records.count == 9 && read.fromSnapshot == 9)
        #expect(!FileManager.default.fileExists(atPath: image.path), "the damaged bytes are removed")
    }

    /// Read elsewhere or not, an image whose folder changed is looked up again: a removed file is missing.
    @Test func anImageReadElsewhereInAChangedFolderIsLookedUpAgain() async throws {
        let (folder, cache, records) = try cache(with: 10)
        defer { withExtendedLifetime(folder) {} }
        let snapshot = cache.snapshot(of: records, stamps: await stamps(cache, records), now: Date())
        let url = "https://images.example/5.jpg"
        try FileManager.default.removeItem(at: cache.imageFile(for: try #require(records[url])))
        let lookup = await cache.imageRecords(
            for: Array(records.keys), snapshot: snapshot, readElsewhere: { _ in true })
        #expect(lookup.records[url] == nil && lookup.records.count == 9)
        #expect(lookup.fromSnapshot <= 9)
    }

    @Test func aCopyMadeWithItsTimesIsVerifiedAgain() async throws {
        let (folder, cache, records) = try cache(with: 10)
        let snapshot = cache.snapshot(of: records, stamps: await stamps(cache, records), now: Date())
        let copy = folder.url.deletingLastPathComponent().appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: copy) }
        let copying = try ChildProcess(URL(fileURLWithPath: "/bin/cp"), arguments: ["-a", folder.url.path, copy.path])
        #expect(await copying.wait().termination == .exited(0))
        // The copies are new files, so their bytes are hashed once before they are trusted.
        let copied = CacheStore(root: copy)
        let lookup = await copied.imageRecords(for: Array(records.keys), snapshot: snapshot)
        #expect(lookup.records == records && lookup.fromSnapshot == 0)
        let again = await copied.imageRecords(for: Array(records.keys), snapshot: snapshot)
        #expect(again.records == records)
    }

    /// Over a thousand URLs, the lookup is split over the cores: in every part, an entry whose folder changed or
    /// whose image changed in place is looked up again, and every other entry is taken as it is.
    @Test func aSplitLookupTakesExactlyTheEntriesThatStillHold() async throws {
        let count = 1_500
        let (folder, cache, records) = try cache(with: count, images: 600)
        defer { withExtendedLifetime(folder) {} }
        let urls = (0..<count).map { "https://images.example/\($0).jpg" }
        let snapshot = cache.snapshot(of: records, stamps: await stamps(cache, records), now: Date())
        #expect(snapshot.records.count == count)
        let whole = await cache.imageRecords(for: urls, snapshot: snapshot)
        #expect(whole.records == records && whole.fromSnapshot == count)

        // Image 5, served by URLs 5, 605 and 1205 (both halves of the list), changed in place: the same size, its
        // folder's time as it was.
        let touched = try #require(records[urls[5]])
        let image = cache.imageFile(for: touched)
        try changeInPlace(image)
        // URL 1400 downloaded again with other bytes: its index folder and its new image's folder change.
        let refetched = urls[1400]
        let replaced = try cache.storeImage([0xFF, 0xD8, 0xFF, 0xEE, 0xEE], format: .jpeg, from: refetched)
        let changed: Set = [CacheStore.urlFolder(SHA256Hasher.hex(of: refetched)), CacheStore.imageFolder(replaced)]

        let lookup = await cache.imageRecords(for: urls, snapshot: snapshot)
        var expected = records.filter { $0.value != touched }
        expected[refetched] = replaced
        let stillHolding = records.filter { url, record in
            record != touched && !changed.contains(CacheStore.urlFolder(SHA256Hasher.hex(of: url)))
                && !changed.contains(CacheStore.imageFolder(record))
        }
        #expect(lookup.records.count == count - 3 && lookup.records == expected)
        #expect(lookup.fromSnapshot == stillHolding.count && stillHolding.count < count - 3)
        #expect(lookup.stamps[touched.sha256] == nil)
        #expect(!FileManager.default.fileExists(atPath: image.path), "the damaged bytes are removed")
    }
}
