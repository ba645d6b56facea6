import Foundation
import SystemPackage
import VitrineBasics

/// What the cache holds, entry by entry, as pruning and `vitrine cache stats` see it: read from the cache folder's
/// open descriptor one folder at a time, never through a symbolic link (a link, a special file or a name Vitrine
/// does not write is neither counted nor removed), so that nothing outside the cache is ever looked at or removed.
///
/// An entry is what is kept or removed as one: an API answer (its `.meta` and `.body`, and the single `.json` of
/// earlier versions), an image with the URL index entries that point at it (re-encoded copies included), the records
/// of one output folder, or an index entry whose image is gone. Its size is the sum of its files' sizes (what a CI
/// cache archives), and its last use the time of the newest ``CacheUseRecord`` that names one of its files, else its
/// newest file's modification time. An entry that no record names was used by no output folder's last build, so it
/// counts as used before every entry a record names, whatever its files' times say (they are stamped by the
/// system's clock, which a build with another clock does not follow).
package struct CacheInventory: Sendable {
    /// What an entry is.
    package enum Kind: String, CaseIterable, Sendable {
        case answer, image, pointer, buildRecords
    }

    /// One entry of the cache.
    package struct Entry: Equatable, Sendable {
        package var kind: Kind
        /// Its name, relative to the cache root: `responses/ab/DIGEST`, `images/ab/SHA.EXT`, `urls/ab/DIGEST.json`
        /// or `builds/ab/DIGEST`.
        package var key: String
        /// Its files, relative to the cache root, in the order they are removed: the one that makes the entry
        /// usable first, so that a removal cut short leaves something that reads as nothing cached.
        package var files: [String]
        package var bytes: Int64
        package var lastUse: Date
        /// A ``CacheUseRecord`` names it: the last build of some output folder used it.
        package var isInAUseRecord: Bool
        /// It is removed before any other: an answer past its age limit or damaged, the records of an output
        /// folder that no longer exists, or an index entry whose image is gone.
        package var goesFirst: Bool

        package init(
            kind: Kind, key: String, files: [String], bytes: Int64, lastUse: Date, isInAUseRecord: Bool = false,
            goesFirst: Bool
        ) {
            self.kind = kind
            self.key = key
            self.files = files
            self.bytes = bytes
            self.lastUse = lastUse
            self.isInAUseRecord = isInAUseRecord
            self.goesFirst = goesFirst
        }
    }

    package var entries: [Entry]
    /// The use records the cache holds, newest first.
    package var useRecords: [CacheUseRecord]

    package var totalBytes: Int64 { entries.reduce(0) { $0 + $1.bytes } }

    package init(entries: [Entry], useRecords: [CacheUseRecord] = []) {
        self.entries = entries
        self.useRecords = useRecords
    }

    /// The extensions of an output folder's records, in the order they are removed.
    static let buildRecordExtensions = ["state", "images", "files", "verified", "uses"]

    /// The folders of the cache that hold entries.
    static let kindFolders = ["responses", "images", "urls", "builds"]

    /// A regular file found in a shard folder.
    private struct Found {
        var path: String
        var name: String
        var size: Int64
        var modified: Date
        /// The file's bytes, for the small records read while the folder is open.
        var bytes: [UInt8]?
    }

    /// Reads the cache at `root` as it is `now`: an answer fetched `maximumAge` or longer before `now`, or after it
    /// (``CachePolicy/isFresh(fetchedAt:now:)``), is past its age limit. A missing cache is an empty one.
    package static func read(root: URL, now: Date, maximumAge: TimeInterval) -> CacheInventory {
        guard let rootDescriptor = try? SystemCall.open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) else {
            return CacheInventory(entries: [])
        }
        defer { SystemCall.close(rootDescriptor) }
        var found: [String: [Found]] = [:]
        for kind in kindFolders {
            found[kind] = files(in: kind, under: rootDescriptor) { name in
                switch kind {
                case "responses": name.hasSuffix(".meta") ? 1 << 16 : nil
                case "urls": 4096
                case "builds": name.hasSuffix(".uses") ? FileBytes.recordLimit : nil
                default: nil
                }
            }
        }
        var records: [(key: String, record: CacheUseRecord)] = []
        for file in found["builds"] ?? [] where file.name.hasSuffix(".uses") {
            if let bytes = file.bytes, let record = CacheUseRecord(bytes: bytes) {
                records.append((String(file.path.dropLast(5)), record))
            }
        }
        var lastUseOfPath: [String: Date] = [:]
        for (_, record) in records {
            for path in record.used { lastUseOfPath[path] = max(lastUseOfPath[path] ?? record.time, record.time) }
        }
        func lastUse(_ files: [Found]) -> (date: Date, isInAUseRecord: Bool) {
            if let recorded = files.compactMap({ lastUseOfPath[$0.path] }).max() { return (recorded, true) }
            return (files.map(\.modified).max() ?? .distantPast, false)
        }
        var entries: [Entry] = []
        entries += answers(found["responses"] ?? [], now: now, maximumAge: maximumAge, lastUse: lastUse)
        entries += images(found["images"] ?? [], pointers: found["urls"] ?? [], lastUse: lastUse)
        let recordOf = Dictionary(records.map { ($0.key, $0.record) }) { first, _ in first }
        entries += buildRecords(found["builds"] ?? [], recordOf: recordOf)
        return CacheInventory(
            entries: entries, useRecords: records.map(\.record).sorted { $0.time > $1.time })
    }

    private static func answers(
        _ files: [Found], now: Date, maximumAge: TimeInterval, lastUse: ([Found]) -> (date: Date, isInAUseRecord: Bool)
    ) -> [Entry] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let policy = CachePolicy(maximumAge: maximumAge)
        return grouped(files, order: ["meta", "json", "body"]).map { key, group in
            let record = group.first { $0.path.hasSuffix(".meta") }?.bytes.flatMap {
                try? decoder.decode(CacheStore.ResponseRecord.self, from: Data($0))
            }
            let usable = record.map { $0.format == CacheStore.ResponseRecord.currentFormat } ?? false
            let expired = record.map { !policy.isFresh(fetchedAt: $0.fetchedAt, now: now) } ?? true
            let use = lastUse(group)
            return Entry(
                kind: .answer, key: key, files: group.map(\.path), bytes: group.reduce(0) { $0 + $1.size },
                lastUse: use.date, isInAUseRecord: use.isInAUseRecord, goesFirst: !usable || expired)
        }
    }

    private static func images(
        _ files: [Found], pointers: [Found], lastUse: ([Found]) -> (date: Date, isInAUseRecord: Bool)
    ) -> [Entry] {
        var imageFiles: [String: Found] = [:]
        for file in files {
            let (base, ext) = split(file.path)
            guard ImageFormat.allCases.contains(where: { $0.fileExtension == ext }),
                LowercaseHex.isSHA256(String(base.suffix(64)))
            else { continue }
            imageFiles[file.path] = file
        }
        var pointersOf: [String: [Found]] = [:]
        var dead: [Entry] = []
        let decoder = JSONDecoder()
        for pointer in pointers {
            let (base, ext) = split(pointer.path)
            guard ext == "json", LowercaseHex.isSHA256(String(base.suffix(64))) else { continue }
            if let bytes = pointer.bytes,
                let entry = try? decoder.decode(CacheStore.IndexEntry.self, from: Data(bytes)),
                entry.isWellFormed
            {
                let image = CacheStore.imagePath(of: entry.record)
                if imageFiles[image] != nil {
                    pointersOf[image, default: []].append(pointer)
                    continue
                }
            }
            dead.append(
                Entry(
                    kind: .pointer, key: pointer.path, files: [pointer.path], bytes: pointer.size,
                    lastUse: lastUse([pointer]).date, goesFirst: true))
        }
        return dead
            + imageFiles.values.map { image in
                let group = [image] + (pointersOf[image.path] ?? []).sorted { $0.path < $1.path }
                let use = lastUse(group)
                return Entry(
                    kind: .image, key: image.path, files: group.map(\.path), bytes: group.reduce(0) { $0 + $1.size },
                    lastUse: use.date, isInAUseRecord: use.isInAUseRecord, goesFirst: false)
            }
    }

    private static func buildRecords(_ files: [Found], recordOf: [String: CacheUseRecord]) -> [Entry] {
        return grouped(files, order: buildRecordExtensions).map { key, group in
            let record = recordOf[key]
            var status = stat()
            let vanished = record.map { lstat($0.output, &status) != 0 && errno == ENOENT } ?? false
            return Entry(
                kind: .buildRecords, key: key, files: group.map(\.path), bytes: group.reduce(0) { $0 + $1.size },
                lastUse: record?.time ?? group.map(\.modified).max() ?? .distantPast, isInAUseRecord: record != nil,
                goesFirst: vanished)
        }
    }

    /// The files whose name is a SHA-256 with one of `order`'s extensions, grouped by that name (the entry's key)
    /// and each group in `order`'s order of extensions.
    private static func grouped(_ files: [Found], order: [String]) -> [String: [Found]] {
        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        var groups: [String: [(rank: Int, file: Found)]] = [:]
        for file in files {
            let (base, ext) = split(file.path)
            guard let position = rank[ext], LowercaseHex.isSHA256(String(base.suffix(64))) else { continue }
            groups[base, default: []].append((position, file))
        }
        return groups.mapValues { $0.sorted { $0.rank < $1.rank }.map(\.file) }
    }

    /// `folder/ab/name` without its extension, and the extension.
    private static func split(_ path: String) -> (String, String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return (path, "") }
        return (String(path[..<dot]), String(path[path.index(after: dot)...]))
    }

    /// The regular files of the shard folders (`ab`, two lowercase hexadecimal digits) of `kind`, none reached
    /// through a link; hidden names (temporary files of writes under way) are left out. A file for which
    /// `readLimit` gives a limit is read when it holds at most that.
    private static func files(in kind: String, under root: Int32, readLimit: (String) -> Int?) -> [Found] {
        guard let kindFolder = openFolder(kind, in: root) else { return [] }
        defer { SystemCall.close(kindFolder) }
        var found: [Found] = []
        for shard in names(in: kindFolder) where shard.utf8.count == 2 && LowercaseHex.isDigits(shard) {
            guard let shardFolder = openFolder(shard, in: kindFolder) else { continue }
            defer { SystemCall.close(shardFolder) }
            for name in names(in: shardFolder) where !name.hasPrefix(".") {
                var status = stat()
                guard (try? SystemCall.run({ fstatat(shardFolder, name, &status, AT_SYMLINK_NOFOLLOW) })) != nil,
                    (status.st_mode & S_IFMT) == S_IFREG
                else { continue }
                var file = Found(
                    path: "\(kind)/\(shard)/\(name)", name: name, size: Int64(status.st_size),
                    modified: Date(
                        timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)
                            + TimeInterval(status.st_mtim.tv_nsec) / 1e9))
                if let limit = readLimit(name), file.size <= limit {
                    file.bytes = read(name, in: shardFolder, limit: limit)
                }
                found.append(file)
            }
        }
        return found
    }

    /// The folder `name` in the open folder `parent`, opened without following a link; nil when it is none.
    static func openFolder(_ name: String, in parent: Int32) -> Int32? {
        try? SystemCall.run { openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
    }

    /// The names in the open folder `folder`, but `.` and `..`.
    private static func names(in folder: Int32) -> [String] {
        guard let copy = try? SystemCall.run({ dup(folder) }) else { return [] }
        guard let stream = fdopendir(copy) else {
            SystemCall.close(copy)
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func read(_ name: String, in folder: Int32, limit: Int) -> [UInt8]? {
        guard
            let descriptor = try? SystemCall.run({
                openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            })
        else { return nil }
        defer { SystemCall.close(descriptor) }
        return try? FileBytes.readWhole(descriptor, limit: limit).bytes
    }
}
