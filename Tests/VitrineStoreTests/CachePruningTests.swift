import Foundation
import Testing
import VitrineBasics
import VitrineTestSupport

@testable import VitrineHTTP
@testable import VitrineStore

@Suite struct CachePruningTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let day: TimeInterval = 24 * 60 * 60

    /// An image of `count` bytes stored from `url`, its files last modified `age` before `now`.
    func storeImage(_ cache: CacheStore, _ url: String, count: Int, age: TimeInterval) throws -> CacheStore.ImageRecord
    {
        let bytes = [0xFF, 0xD8, 0xFF] + Array(url.utf8) + [UInt8](repeating: 7, count: count)
        let record = try cache.storeImage(bytes, format: .jpeg, from: url)
        let digest = SHA256Hasher.hex(of: url)
        for path in [CacheStore.imagePath(of: record), "urls/\(digest.prefix(2))/\(digest).json"] {
            try setModified(cache.root.appendingPathComponent(path), to: now - age)
        }
        return record
    }

    func setModified(_ file: URL, to date: Date) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
    }

    func storeAnswer(_ cache: CacheStore, _ query: String, fetched: Date) throws -> CacheStore.ResponsePaths {
        let request = FetchRequest(url: "http://127.0.0.1:1/api/?q=\(query)")
        try cache.store(
            FetchResponse(status: 200, body: Array("{\"q\":\"\(query)\"}".utf8), effectiveURL: request.url),
            for: request, at: fetched)
        let paths = cache.responsePaths(for: request)
        for path in [paths.record, paths.body] { try setModified(cache.root.appendingPathComponent(path), to: fetched) }
        return paths
    }

    func exists(_ cache: CacheStore, _ path: String) -> Bool {
        FileManager.default.fileExists(atPath: cache.root.appendingPathComponent(path).path)
    }

    @Test func removesTheLeastRecentlyUsedEntriesUntilTheCacheIsWithinItsSize() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let oldest = try storeImage(cache, "https://a/old.jpg", count: 1000, age: 3 * day)
        let middle = try storeImage(cache, "https://a/middle.jpg", count: 1000, age: 2 * day)
        let newest = try storeImage(cache, "https://a/new.jpg", count: 1000, age: 1 * day)
        let inventory = CacheInventory.read(root: folder.url, now: now, maximumAge: day)
        #expect(inventory.entries.count == 3 && inventory.entries.allSatisfy { $0.kind == .image })
        let total = inventory.totalBytes
        let oneImage = inventory.entries.map(\.bytes).max()!
        let outcome = CachePruner(root: folder.url).prune(
            maximumBytes: total - 1, used: [], now: now, maximumAge: day)
        #expect(
            outcome.entriesRemoved == 1 && outcome.bytesAfter <= total - 1 && outcome.bytesAfter >= total - oneImage)
        #expect(!exists(cache, CacheStore.imagePath(of: oldest)))
        #expect(cache.imageRecord(for: "https://a/old.jpg") == nil)
        #expect(cache.imageRecord(for: "https://a/middle.jpg") == middle)
        #expect(cache.imageRecord(for: "https://a/new.jpg") == newest)
        // Its index entry went with it.
        #expect(
            CacheInventory.read(root: folder.url, now: now, maximumAge: day).entries.allSatisfy { $0.kind == .image })
    }

    /// A build's pruning takes the cache down to 90 % of its size, so that the builds after it need not prune; when
    /// what the build used is more than that, only what takes the cache within its size goes.
    @Test func aBuildsPruningLeavesRoomBelowTheSizeUnlessWhatItUsedFillsIt() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        var records: [CacheStore.ImageRecord] = []
        for index in 0..<30 {
            records.append(
                try storeImage(cache, "https://a/\(index + 10).jpg", count: 1000, age: Double(40 - index) * day))
        }
        let inventory = CacheInventory.read(root: folder.url, now: now, maximumAge: day)
        let maximum = inventory.totalBytes - 1
        let exact = CachePruner.plan(inventory, maximumBytes: maximum, used: [])
        #expect(exact.removals.count == 1 && exact.removals[0].key == CacheStore.imagePath(of: records[0]))
        let target = Int64(Double(maximum) * CachePruner.buildTarget)
        let roomy = CachePruner.plan(inventory, maximumBytes: maximum, targetBytes: target, used: [])
        let largest = try #require(inventory.entries.map(\.bytes).max())
        #expect(roomy.outcome.bytesAfter <= target && roomy.outcome.bytesAfter > target - largest)
        #expect(roomy.removals.map(\.key) == records.prefix(roomy.removals.count).map { CacheStore.imagePath(of: $0) })
        // What the build used is over 90 % of the size: only the entry that takes the cache within it goes.
        let used = Set(records.dropFirst(2).map { CacheStore.imagePath(of: $0) })
        let full = CachePruner.plan(inventory, maximumBytes: maximum, targetBytes: target, used: used)
        #expect(full.removals.map(\.key) == [CacheStore.imagePath(of: records[0])])
        #expect(full.outcome.bytesAfter <= maximum)
    }

    @Test func aUseRecordIsALaterUseThanTheFilesTimes() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let old = try storeImage(cache, "https://a/old.jpg", count: 500, age: 5 * day)
        let recent = try storeImage(cache, "https://a/recent.jpg", count: 500, age: 1 * day)
        let record = CacheUseRecord(
            time: now - 60, output: folder.url.path, counts: .init(), used: [CacheStore.imagePath(of: old)])
        try RootedFiles(root: folder.url.path).write(
            try #require(record.encoded()), to: "builds/ab/\(String(repeating: "ab", count: 32)).uses")
        let inventory = CacheInventory.read(root: folder.url, now: now, maximumAge: day)
        let maximum = inventory.totalBytes - 1
        _ = CachePruner(root: folder.url).prune(maximumBytes: maximum, used: [], now: now, maximumAge: day)
        #expect(cache.imageRecord(for: "https://a/old.jpg") == old)
        #expect(cache.imageRecord(for: "https://a/recent.jpg") == nil)
        _ = recent
    }

    @Test func anEntryNoFoldersLastBuildUsedGoesBeforeOneThatOneUsedWhateverItsFilesTimes() throws {
        // A simulated year (`--now` a month back) stamps use records by its clock and files by the system's.
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let leftTheGallery = try storeImage(cache, "https://a/left.jpg", count: 500, age: -30 * day)
        let stillShown = try storeImage(cache, "https://a/shown.jpg", count: 500, age: -30 * day)
        let record = CacheUseRecord(
            time: now - 60 * day, output: folder.url.path, counts: .init(),
            used: [CacheStore.imagePath(of: stillShown)])
        try RootedFiles(root: folder.url.path).write(
            try #require(record.encoded()), to: "builds/ab/\(String(repeating: "ab", count: 32)).uses")
        let inventory = CacheInventory.read(root: folder.url, now: now, maximumAge: day)
        let entryOf = Dictionary(uniqueKeysWithValues: inventory.entries.map { ($0.key, $0) })
        #expect(entryOf[CacheStore.imagePath(of: stillShown)]?.isInAUseRecord == true)
        #expect(entryOf[CacheStore.imagePath(of: leftTheGallery)]?.isInAUseRecord == false)
        _ = CachePruner(root: folder.url).prune(
            maximumBytes: inventory.totalBytes - 1, used: [], now: now, maximumAge: day)
        #expect(cache.imageRecord(for: "https://a/shown.jpg") == stillShown)
        #expect(cache.imageRecord(for: "https://a/left.jpg") == nil)
        _ = leftTheGallery
    }

    @Test func neverRemovesWhatTheBuildUsedAndSaysByHowMuchThatIsOver() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let used = try storeImage(cache, "https://a/used.jpg", count: 2000, age: 9 * day)
        let other = try storeImage(cache, "https://a/other.jpg", count: 100, age: 0)
        let outcome = CachePruner(root: folder.url).prune(
            maximumBytes: 10, used: ["urls/xx/not-a-match.json", CacheStore.imagePath(of: used)], now: now,
            maximumAge: day)
        #expect(cache.imageRecord(for: "https://a/used.jpg") == used)
        #expect(cache.imageRecord(for: "https://a/other.jpg") == nil)
        #expect(outcome.entriesRemoved == 1 && outcome.bytesProtected == outcome.bytesAfter)
        #expect(outcome.protectedOverBy == outcome.bytesProtected - 10)
        _ = other
        // Given the digest of the uses it kept, over the size with all else gone, the ledger holds it.
        let uses = String(repeating: "0f", count: 32)
        let again = CachePruner(root: folder.url).prune(
            maximumBytes: 10, used: [CacheStore.imagePath(of: used)], usesDigest: uses, now: now, maximumAge: day)
        #expect(again.protectedOverBy != nil && again.entriesRemoved == 0)
        #expect(CacheSizeLedger.read(root: folder.url)?.heldFor == uses)
        #expect(CacheSizeLedger.read(root: folder.url)?.bytes == again.bytesAfter)
        // Within the size, it does not.
        _ = CachePruner(root: folder.url).prune(
            maximumBytes: 1 << 30, used: [CacheStore.imagePath(of: used)], usesDigest: uses, now: now, maximumAge: day)
        #expect(CacheSizeLedger.read(root: folder.url)?.heldFor == nil)
    }

    @Test func expiredAnswersAndRecordsOfVanishedOutputFoldersGoFirst() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        // The image was used long ago; the answer is newer but past its age limit.
        let image = try storeImage(cache, "https://a/old.jpg", count: 100, age: 30 * day)
        let expired = try storeAnswer(cache, "expired", fetched: now - 2 * day)
        let fresh = try storeAnswer(cache, "fresh", fetched: now - 60)
        let gone = folder.url.appendingPathComponent("no-such-site")
        let record = CacheUseRecord(time: now - 60, output: gone.path, counts: .init(), used: [])
        let recordsPath = cache.useRecordPath(for: gone)
        try FileManager.default.createDirectory(
            atPath: (recordsPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(try #require(record.encoded())).write(to: URL(fileURLWithPath: recordsPath))
        let inventory = CacheInventory.read(root: folder.url, now: now, maximumAge: day)
        #expect(
            inventory.entries.filter(\.goesFirst).map(\.kind).sorted { $0.rawValue < $1.rawValue } == [
                .answer, .buildRecords,
            ])
        let firsts = inventory.entries.filter(\.goesFirst).reduce(0) { $0 + $1.bytes }
        let outcome = CachePruner(root: folder.url).prune(
            maximumBytes: inventory.totalBytes - firsts, used: [], now: now, maximumAge: day)
        #expect(outcome.entriesRemoved == 2)
        #expect(!exists(cache, expired.record) && !exists(cache, expired.body))
        #expect(exists(cache, fresh.record) && exists(cache, fresh.body))
        #expect(!FileManager.default.fileExists(atPath: recordsPath))
        #expect(cache.imageRecord(for: "https://a/old.jpg") == image)
    }

    @Test func anEntryRemovedHalfwayReadsAsNothingCachedAndGoesFirstNextTime() throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let request = FetchRequest(url: "http://127.0.0.1:1/api/?q=half")
        let paths = try storeAnswer(cache, "half", fetched: now - 60)
        let image = try storeImage(cache, "https://a/half.jpg", count: 100, age: 0)
        // Killed after the first file of each entry, in the order pruning removes them.
        let entries = CacheInventory.read(root: folder.url, now: now, maximumAge: day).entries
        let root = try SystemCall.open(folder.url.path, O_RDONLY | O_DIRECTORY)
        defer { SystemCall.close(root) }
        for entry in entries { CachePruner.remove(entry.files[0], under: root) }
        #expect(!exists(cache, paths.record) && exists(cache, paths.body))
        #expect(cache.storedResponse(for: request) == nil)
        #expect(cache.imageRecord(for: "https://a/half.jpg") == nil)
        #expect(!exists(cache, CacheStore.imagePath(of: image)))
        let left = CacheInventory.read(root: folder.url, now: now, maximumAge: day).entries
        #expect(left.count == 2 && left.allSatisfy(\.goesFirst))
        #expect(Set(left.map(\.kind)) == [.answer, .pointer])
        _ = CachePruner(root: folder.url).prune(maximumBytes: 0, used: [], now: now, maximumAge: day)
        #expect(CacheInventory.read(root: folder.url, now: now, maximumAge: day).entries.isEmpty)
    }

    @Test func neverFollowsALinkOutOfTheCacheNorRemovesWhatIsNotItsOwn() throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        let cache = CacheStore(root: folder.url.appendingPathComponent("cache"))
        _ = try storeImage(cache, "https://a/1.jpg", count: 100, age: 0)
        let manager = FileManager.default
        // A shard of images that is a link to a folder outside, holding what looks like a cached image.
        let sha = String(repeating: "c", count: 64)
        try manager.createDirectory(at: outside.url.appendingPathComponent("cc"), withIntermediateDirectories: true)
        let victim = outside.url.appendingPathComponent("cc/\(sha).jpg")
        try Data([1, 2, 3]).write(to: victim)
        try manager.createSymbolicLink(
            at: cache.root.appendingPathComponent("images/cc"),
            withDestinationURL: outside.url.appendingPathComponent("cc"))
        // `responses` is a link to the outside folder; `builds` is a file; an entry is a link to a file outside.
        try manager.createSymbolicLink(
            at: cache.root.appendingPathComponent("responses"), withDestinationURL: outside.url)
        try Data().write(to: cache.root.appendingPathComponent("builds"))
        let linkedEntry = cache.root.appendingPathComponent("images/cc2")
        try manager.createDirectory(
            at: cache.root.appendingPathComponent("images/dd"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(
            at: cache.root.appendingPathComponent("images/dd/\(String(repeating: "d", count: 64)).jpg"),
            withDestinationURL: victim)
        // A name Vitrine never writes.
        try Data([9]).write(to: cache.root.appendingPathComponent("images/dd/notes.txt"))
        let outcome = CachePruner(root: cache.root).prune(maximumBytes: 0, used: [], now: now, maximumAge: day)
        #expect(outcome.entriesRemoved == 1)
        #expect(manager.fileExists(atPath: victim.path))
        #expect(manager.fileExists(atPath: cache.root.appendingPathComponent("images/dd/notes.txt").path))
        #expect(
            (try? manager.destinationOfSymbolicLink(
                atPath: cache.root.appendingPathComponent("images/dd/\(String(repeating: "d", count: 64)).jpg").path))
                != nil)
        #expect(CacheInventory.read(root: cache.root, now: now, maximumAge: day).entries.isEmpty)
        _ = linkedEntry
    }

    @Test func aUseRecordReadsBackAndADamagedOneNamesNothing() throws {
        let record = CacheUseRecord(
            time: now, output: "/srv/site",
            counts: .init(reusedAnswers: 1, fetchedAnswers: 2, reusedImages: 3, fetchedImages: 4),
            used: ["images/ab/x.jpg", "responses/cd/y.meta"])
        let bytes = try #require(record.encoded())
        #expect(CacheUseRecord(bytes: bytes) == record)
        #expect(CacheUseRecord(bytes: Array(bytes.dropLast(3))) == nil)
        #expect(CacheUseRecord(bytes: Array("vitrine-uses 2\n".utf8)) == nil)
    }

    /// A build that found its output current restamps the last record: the same bytes as encoding it again with
    /// the new time, as long as it used nothing the record does not name.
    @Test func aRestampedUseRecordIsTheRecordEncodedAgainWithTheNewTime() throws {
        let paths = (0..<500).map { "images/\(String(format: "%02x", $0 % 256))/\($0).jpg" } + ["builds/ab/cd"]
        let record = CacheUseRecord(
            time: now, output: "/srv/site", counts: .init(reusedImages: 3), used: Set(paths))
        let bytes = try #require(record.encoded())
        let later = CacheUseRecord.Counts(reusedAnswers: 2, reusedImages: 500)
        let restamped = try #require(
            CacheUseRecord.restamped(
                bytes, time: now + day, output: "/srv/site", counts: later, keeping: ["builds/ab/cd", paths[7]]))
        var expected = record
        expected.time = now + day
        expected.counts = later
        #expect(restamped == expected.encoded())
        #expect(CacheUseRecord(bytes: restamped) == expected)
        // The digest of its paths is that of every record of the same paths, and of no other.
        let digest = try #require(CacheUseRecord.pathsDigest(of: bytes))
        #expect(CacheUseRecord.pathsDigest(of: restamped) == digest)
        #expect(
            CacheUseRecord.pathsDigest(
                of: try #require(CacheUseRecord(time: now, output: "/o", counts: .init(), used: Set(paths)).encoded()))
                == digest)
        #expect(
            CacheUseRecord.pathsDigest(
                of: try #require(
                    CacheUseRecord(time: now, output: "/srv/site", counts: .init(), used: Set(paths.dropLast()))
                        .encoded())) != digest)
        #expect(CacheUseRecord.pathsDigest(of: Array(bytes.dropLast(2))) == nil)
        // Exactly: only for the record's own paths, all of them.
        #expect(
            CacheUseRecord.restamped(
                bytes, time: now + day, output: "/srv/site", counts: later, keeping: Set(paths), exactly: true)
                == expected.encoded())
        #expect(
            CacheUseRecord.restamped(
                bytes, time: now, output: "/srv/site", counts: later, keeping: Set(paths.dropLast()), exactly: true)
                == nil)
        #expect(
            CacheUseRecord.restamped(
                bytes, time: now, output: "/srv/site", counts: later,
                keeping: Set(paths.dropLast() + ["images/zz/new"]), exactly: true) == nil)
        // A path the record does not name, a damaged record or one whose paths are out of order: none.
        #expect(
            CacheUseRecord.restamped(bytes, time: now, output: "/srv/site", counts: later, keeping: ["images/zz/new"])
                == nil)
        #expect(
            CacheUseRecord.restamped(
                Array(bytes.dropLast(2)), time: now, output: "/srv/site", counts: later, keeping: [])
                == nil)
        let otherFormat = Array("vitrine-uses 2\ntime 1\noutput /o\ncounts 0 0 0 0\nused a\n".utf8)
        #expect(CacheUseRecord.restamped(otherFormat, time: now, output: "/o", counts: later, keeping: []) == nil)
        let swapped = Array("vitrine-uses 1\ntime 1\noutput /o\ncounts 0 0 0 0\nused b\nused a\n".utf8)
        #expect(CacheUseRecord(bytes: swapped)?.used == ["a", "b"])
        #expect(CacheUseRecord.restamped(swapped, time: now, output: "/o", counts: later, keeping: []) == nil)
        let foreign = Array("vitrine-uses 1\ntime 1\noutput /o\ncounts 0 0 0 0\nused a\nused \u{e9}\n".utf8)
        #expect(CacheUseRecord.restamped(foreign, time: now, output: "/o", counts: later, keeping: []) == nil)
    }

    @Test func everyLookupAndWriteCountsAsUsed() throws {
        let folder = try TemporaryFolder()
        let writer = CacheStore(root: folder.url)
        let image = try storeImage(writer, "https://a/1.jpg", count: 10, age: 0)
        let paths = try storeAnswer(writer, "q", fetched: now)
        let reader = CacheStore(root: folder.url)
        #expect(reader.usage.used.isEmpty)
        _ = reader.imageRecord(for: "https://a/1.jpg")
        _ = reader.storedResponse(for: FetchRequest(url: "http://127.0.0.1:1/api/?q=q"))
        let digest = SHA256Hasher.hex(of: "https://a/1.jpg")
        #expect(
            reader.usage.used
                == [
                    CacheStore.imagePath(of: image), "urls/\(digest.prefix(2))/\(digest).json", paths.record,
                    paths.body,
                ])
    }
}
