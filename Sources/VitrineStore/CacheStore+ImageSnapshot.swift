import Foundation
import VitrineBasics

/// How the cache takes the snapshot of its image index that a later build of the same output folder starts from, and
/// how a build looks its images up with it.
extension CacheStore {
    /// ``imageRecord(for:)`` for many URLs at once (a gallery of 1,000 items has 3,600): an entry of `snapshot` is
    /// taken as it is while its folders are unchanged and its image has the stamp it was verified with, the others
    /// are each looked up from their open shard folder (and their bytes verified when their stamp changed).
    /// Thousands of URLs are split over the processor's cores, both to take the snapshot's entries (a `stat` of
    /// each image) and to look up the others; each part keeps its own lookup, and the parts are merged after.
    ///
    /// `readElsewhere` says of an image whether the caller has its bytes intact elsewhere (an output folder's copy,
    /// where the build puts it) and so will not read the cached file: its entry is taken without the `stat` of that
    /// file when both folders are unchanged, and the file is checked when a later lookup is made without it. Its
    /// stamp in the lookup is then the one the snapshot holds.
    package func imageRecords(
        for urls: [String], snapshot: ImageIndexSnapshot? = nil,
        readElsewhere: (@Sendable (ImageRecord) -> Bool)? = nil
    ) async -> ImageLookup {
        let threshold = 1024
        var shards = ShardFolders(snapshot: snapshot)
        // A list long enough to be split over the cores meets nearly every folder: each is stat'ed once, up front,
        // rather than once in each part.
        if urls.count >= threshold { await shards.stampAll(under: rootPath) }
        let known = shards
        let taken = await CoreSplit.mapParts(of: urls.count, threshold: threshold) {
            takeFromSnapshot(
                urls[$0], snapshot: snapshot, shards: known, capacity: $0.lowerBound == 0 ? urls.count : $0.count,
                readElsewhere: readElsewhere)
        }
        // The first part's lookup, made with room for every URL, takes in the others'.
        var lookup = taken[0].lookup
        var missing = taken[0].missing
        for part in taken.dropFirst() {
            lookup.records.merge(part.lookup.records) { first, _ in first }
            lookup.stamps.merge(part.lookup.stamps) { first, _ in first }
            missing += part.missing
        }
        lookup.fromSnapshot = lookup.records.count
        let lookups = missing
        for looked in await CoreSplit.mapParts(of: lookups.count, threshold: 512, { lookUpImages(lookups[$0]) }) {
            lookup.records.merge(looked.records) { first, _ in first }
            lookup.stamps.merge(looked.stamps) { first, _ in first }
        }
        return lookup
    }

    /// The entries of `snapshot` for `urls` that can be taken as they are: both folders unchanged and the image's
    /// bytes with the stamp they were verified with (one `stat` per image, none for an image `readElsewhere` says
    /// the caller will not read from the cache); the other URLs, with their digests, are to be looked up.
    private func takeFromSnapshot(
        _ urls: ArraySlice<String>, snapshot: ImageIndexSnapshot?, shards: ShardFolders, capacity: Int,
        readElsewhere: (@Sendable (ImageRecord) -> Bool)?
    ) -> (lookup: ImageLookup, missing: [(url: String, digest: String)]) {
        var shards = shards
        let files = RootedFiles(root: rootPath)
        var lookup = ImageLookup()
        lookup.records.reserveCapacity(capacity)
        lookup.stamps.reserveCapacity(capacity)
        var missing: [(url: String, digest: String)] = []
        var used: [String] = []
        defer { usage.record(used) }
        for url in urls {
            let digest = SHA256Hasher.hex(of: url)
            if let record = snapshot?.records[digest], let stamp = snapshot?.imageStamps[record.sha256],
                shards.isUnchanged(ShardFolders.urlSlot(digest), under: rootPath),
                shards.isUnchanged(ShardFolders.imageSlot(record.sha256), under: rootPath),
                lookup.stamps[record.sha256] == stamp || readElsewhere?(record) == true
                    || files.stamp(Self.imagePath(of: record)) == stamp
            {
                lookup.records[url] = record
                lookup.stamps[record.sha256] = stamp
                used.append("\(Self.urlFolder(digest))/\(digest).json")
                used.append(Self.imagePath(of: record))
            } else {
                missing.append((url, digest))
            }
        }
        return (lookup, missing)
    }

    /// A snapshot of `records` (by image URL), of the stamps their bytes were verified with (`stamps`, by SHA-256)
    /// and of the folders they are in as the cache holds them `now` (the system's clock, which the file system
    /// stamps folders with), for ``imageRecords(for:snapshot:)`` of a later build; entries in a folder that is
    /// missing or changed too recently to be told apart from a later change are left out, and so are images whose
    /// bytes no longer have their verified stamp (the folders are stamped first, so a removal after that changes a
    /// stamp instead).
    package func snapshot(of records: [String: ImageRecord], stamps: [String: FileStamp], now: Date)
        -> ImageIndexSnapshot
    {
        let settled = Int64((now.timeIntervalSince1970 - ImageIndexSnapshot.racyMargin) * 1_000_000_000)
        var folders: [String: FileStamp?] = [:]
        func stamp(_ folder: String) -> FileStamp? {
            if let known = folders[folder] { return known }
            let stamp = FileStamp.ofFolder("\(root.path)/\(folder)").flatMap { $0.modified < settled ? $0 : nil }
            folders[folder] = stamp
            return stamp
        }
        var candidates: [(digest: String, record: ImageRecord)] = []
        for (url, record) in records {
            let digest = SHA256Hasher.hex(of: url)
            guard stamp(Self.urlFolder(digest)) != nil, stamp(Self.imageFolder(record)) != nil else { continue }
            candidates.append((digest, record))
        }
        let files = RootedFiles(root: root.path)
        var kept: [String: ImageRecord] = [:]
        var imageStamps: [String: FileStamp] = [:]
        for (digest, record) in candidates.sorted(by: { $0.record.sha256 < $1.record.sha256 }) {
            guard let verified = stamps[record.sha256],
                imageStamps[record.sha256] == verified || files.stamp(Self.imagePath(of: record)) == verified
            else { continue }
            kept[digest] = record
            imageStamps[record.sha256] = verified
        }
        return ImageIndexSnapshot(folders: folders.compactMapValues { $0 }, records: kept, imageStamps: imageStamps)
    }
}

/// Whether each shard folder an ``ImageIndexSnapshot`` stamped still has that stamp, by slot (`urls/00` to `urls/ff`
/// are 0 to 255, `images/00` to `images/ff` 256 to 511), so that a lookup reads a flag instead of building the
/// folder's name and hashing it for each URL. A folder is stat'ed when first asked for, or all at once.
struct ShardFolders: Sendable {
    private enum State: UInt8 {
        case unknown, unchanged, changed
    }

    /// The stamp the snapshot holds of each slot's folder, nil when it holds none (its entries are never taken).
    private var expected: [FileStamp?] = Array(repeating: nil, count: 512)
    private var states: [State] = Array(repeating: .changed, count: 512)

    init(snapshot: ImageIndexSnapshot?) {
        for (path, stamp) in snapshot?.folders ?? [:] {
            guard let slot = Self.slot(ofFolder: path) else { continue }
            expected[slot] = stamp
            states[slot] = .unknown
        }
    }

    /// The slot of the URL index folder of an image URL's SHA-256 (lowercase hexadecimal).
    static func urlSlot(_ digest: String) -> Int? { prefixValue(digest) }

    /// The slot of the folder holding an image with the SHA-256 `sha256` (lowercase hexadecimal).
    static func imageSlot(_ sha256: String) -> Int? { prefixValue(sha256).map { 256 + $0 } }

    /// Whether the folder of `slot` under `root` has the stamp the snapshot holds; false for a folder it holds none
    /// of, or a slot that names none.
    mutating func isUnchanged(_ slot: Int?, under root: String) -> Bool {
        guard let slot else { return false }
        if states[slot] == .unknown { states[slot] = Self.check(slot, expected: expected[slot], under: root) }
        return states[slot] == .unchanged
    }

    /// Stats every folder the snapshot holds a stamp of, split over the processor's cores.
    mutating func stampAll(under root: String) async {
        let slots = states.indices.filter { states[$0] == .unknown }
        let expected = expected
        let parts = await CoreSplit.mapParts(of: slots.count, threshold: 64) { part in
            slots[part].map { (slot: $0, state: Self.check($0, expected: expected[$0], under: root)) }
        }
        for part in parts {
            for (slot, state) in part { states[slot] = state }
        }
    }

    private static func check(_ slot: Int, expected: FileStamp?, under root: String) -> State {
        guard let expected else { return .changed }
        return FileStamp.ofFolder("\(root)/\(folder(ofSlot: slot))") == expected ? .unchanged : .changed
    }

    private static func folder(ofSlot slot: Int) -> String {
        let hex = Array("0123456789abcdef".utf8)
        let value = slot % 256
        return (slot < 256 ? "urls/" : "images/")
            + String(decoding: [hex[value / 16], hex[value % 16]], as: UTF8.self)
    }

    /// The slot of `urls/ab` or `images/ab`; nil for any other path.
    private static func slot(ofFolder path: String) -> Int? {
        if path.hasPrefix("urls/"), path.utf8.count == 7 { return prefixValue(path.dropFirst(5)) }
        if path.hasPrefix("images/"), path.utf8.count == 9 { return prefixValue(path.dropFirst(7)).map { 256 + $0 } }
        return nil
    }

    /// The value of the first two characters of lowercase hexadecimal `text`; nil when they are not.
    private static func prefixValue(_ text: some StringProtocol) -> Int? {
        var utf8 = text.utf8.makeIterator()
        guard let high = utf8.next().flatMap(LowercaseHex.value), let low = utf8.next().flatMap(LowercaseHex.value)
        else { return nil }
        return high * 16 + low
    }
}
