import Foundation
import Synchronization
import VitrineBasics
import VitrineHTTP

/// The on-disk cache shared by all runs: API responses kept for a limited time, and images kept by content.
///
/// Layout under `root`: `responses/ab/<sha256 of the public URL>.json` (an envelope with the body),
/// `images/ab/<sha256 of the bytes>.<ext>`, `urls/ab/<sha256 of the image URL>.json` pointing at an image, and
/// `builds/ab/<sha256 of an output folder's path>.state` and `.images` about the last build of that folder.
/// No name or file holds an API key: responses are keyed by the URL without its secret parameters and a one-way
/// digest of those.
public struct CacheStore: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    /// `$XDG_CACHE_HOME/vitrine`, else `~/.cache/vitrine`.
    public static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("vitrine")
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".cache/vitrine")
    }

    /// Where writes to the cache stage their temporary files, so that clearing what a killed run left behind
    /// looks at one folder instead of the whole cache.
    package var temporaryFolder: URL { root.appendingPathComponent("tmp") }

    /// Clears temporary files that a killed run left in the cache.
    public func sweepTemporaryFiles() {
        TemporaryFileSweeper.sweep(temporaryFolder)
    }

    // MARK: API responses

    /// A response body as it was received, and when.
    public struct StoredResponse: Codable, Sendable {
        public var url: String
        public var fetchedAt: Date
        public var status: Int
        public var contentType: String?
        public var body: Data
    }

    public func storedResponse(for request: FetchRequest) -> StoredResponse? { stampedResponse(for: request)?.response }

    /// The stored response for `request` and the stamp of the file it was read from, which a later build compares
    /// to tell that the cache still holds the same answer.
    func stampedResponse(for request: FetchRequest) -> (response: StoredResponse, stamp: FileStamp)? {
        let descriptor = open(responseFile(for: request).path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // Exactly the size `fstat` gave: anything else is a file cut short or still growing, read as missing.
        guard let stamp = FileStamp.of(descriptor: descriptor), stamp.size < Int64(Int32.max),
            let bytes = FileBytes.read(descriptor, limit: Int(stamp.size)), bytes.count == Int(stamp.size)
        else { return nil }
        guard let stored = StoredResponse(envelope: bytes), stored.url == request.publicURL else { return nil }
        return (stored, stamp)
    }

    /// The stamp of the file holding the stored response for `request`.
    func responseStamp(for request: FetchRequest) -> FileStamp? { FileStamp.of(responseFile(for: request).path) }

    /// Where the response for `request` is stored, relative to `root`: named by the public URL and, when the
    /// request carries secrets (a key in the query or an `Authorization` header), by a digest of them, so that the
    /// answer given to one key is never served to another, and no name or file holds a key.
    func responsePath(for request: FetchRequest) -> String {
        var hash = SHA256Hasher()
        hash.update(request.publicURL.utf8)
        if let keyDigest = Self.keyDigest(of: request) {
            hash.update([0])
            hash.update(keyDigest)
        }
        let digest = hash.finalize().hexString
        return "responses/\(digest.prefix(2))/\(digest).json"
    }

    /// A one-way digest of the request's secrets (its API key), by which the cache files what depends on the key;
    /// nil when it carries none.
    static func keyDigest(of request: FetchRequest) -> [UInt8]? {
        let secrets = request.secretValues
        guard !secrets.isEmpty else { return nil }
        var keyHash = SHA256Hasher()
        keyHash.update("vitrine-key-digest-1".utf8)
        for secret in secrets {
            keyHash.update([0])
            keyHash.update(secret.utf8)
        }
        return keyHash.finalize()
    }

    public func store(_ response: FetchResponse, for request: FetchRequest, at date: Date) throws(FileWriteError) {
        let stored = StoredResponse(
            url: request.publicURL, fetchedAt: date, status: response.status,
            contentType: response.headers["content-type"], body: Data(response.body))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(stored)
        } catch {
            throw FileWriteError(path: responseFile(for: request).path, reason: "\(error)")
        }
        try AtomicFile.write(data, to: responseFile(for: request), temporaryFolder: temporaryFolder)
    }

    func responseFile(for request: FetchRequest) -> URL { root.appendingPathComponent(responsePath(for: request)) }

    /// Where the ``BuildState`` of the output folder `output` is kept.
    func buildStatePath(for output: URL) -> String { outputRecords(for: output).state }

    /// Where the cache keeps its records of the output folder `output`.
    package func outputRecords(for output: URL) -> OutputRecordPaths {
        let digest = SHA256Hasher.hex(of: output.standardizedFileURL.path)
        return OutputRecordPaths(
            state: shardedPath("builds", digest, extension: "state"),
            verified: shardedPath("builds", digest, extension: "verified"), temporaryFolder: temporaryFolder)
    }

    // MARK: Images

    /// What the cache knows about one downloaded image.
    public struct ImageRecord: Codable, Sendable, Hashable {
        public var sha256: String
        public var format: ImageFormat
        public var byteCount: Int
        /// The pixel size read from the image's header, when it could be.
        public var width: Int?
        public var height: Int?

        package init(sha256: String, format: ImageFormat, byteCount: Int, width: Int? = nil, height: Int? = nil) {
            self.sha256 = sha256
            self.format = format
            self.byteCount = byteCount
            self.width = width
            self.height = height
        }
    }

    /// The image last downloaded from `url`, if its bytes are still in the cache and whole.
    public func imageRecord(for url: String) -> ImageRecord? { imageRecords(for: [url]).records[url] }

    /// Cached images found for a list of URLs.
    package struct ImageLookup {
        package var records: [String: ImageRecord] = [:]
        /// The stamp each image's bytes had when they were verified, by the image's SHA-256.
        package var stamps: [String: FileStamp] = [:]
        /// How many of `records` came from the snapshot without opening their index entries.
        package var fromSnapshot = 0
    }

    /// ``imageRecord(for:)`` for many URLs at once (a gallery of 1,000 items has 3,600): an entry of `snapshot` is
    /// taken as it is while its folders are unchanged and its image has the stamp it was verified with, the others
    /// are each looked up from their open shard folder (and their bytes verified when their stamp changed), and
    /// thousands of URLs are split over the processor's cores.
    package func imageRecords(for urls: [String], snapshot: ImageIndexSnapshot? = nil) -> ImageLookup {
        var lookup = ImageLookup()
        var missing: [(url: String, digest: String)] = []
        var unchanged: [String: Bool] = [:]
        func isUnchanged(_ folder: String) -> Bool {
            if let known = unchanged[folder] { return known }
            let result = snapshot?.folders[folder].map { FileStamp.ofFolder("\(root.path)/\(folder)") == $0 } ?? false
            unchanged[folder] = result
            return result
        }
        let files = RootedFiles(root: root.path)
        for url in urls {
            let digest = SHA256Hasher.hex(of: url)
            if let record = snapshot?.records[digest], let stamp = snapshot?.imageStamps[record.sha256],
                isUnchanged(Self.urlFolder(digest)), isUnchanged(Self.imageFolder(record)),
                lookup.stamps[record.sha256] == stamp || files.stamp(Self.imagePath(of: record)) == stamp
            {
                lookup.records[url] = record
                lookup.stamps[record.sha256] = stamp
            } else {
                missing.append((url, digest))
            }
        }
        lookup.fromSnapshot = lookup.records.count
        let found = Mutex(lookup)
        let lookups = missing
        CoreSplit.forEachPart(of: lookups.count, threshold: 512) { part in
            let looked = lookUpImages(lookups[part])
            found.withLock {
                $0.records.merge(looked.records) { first, _ in first }
                $0.stamps.merge(looked.stamps) { first, _ in first }
            }
        }
        return found.withLock { $0 }
    }

    /// A snapshot of `records` (by image URL), of the stamps their bytes were verified with (`stamps`, by SHA-256)
    /// and of the folders they are in as the cache holds them `now`, for ``imageRecords(for:snapshot:)`` of a later
    /// build; entries in a folder that is missing or changed too recently to be told apart from a later change are
    /// left out, and so are images whose bytes no longer have their verified stamp (the folders are stamped first,
    /// so a removal after that changes a stamp instead).
    package func snapshot(of records: [String: ImageRecord], stamps: [String: FileStamp], now: Date = Date())
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

    /// Where the ``ImageIndexSnapshot`` of the builds of the output folder `output` is kept.
    package func imageSnapshotPath(for output: URL) -> String {
        shardedPath("builds", SHA256Hasher.hex(of: output.standardizedFileURL.path), extension: "images")
    }

    private static func urlFolder(_ digest: String) -> String { "urls/\(digest.prefix(2))" }

    private static func imageFolder(_ record: ImageRecord) -> String { "images/\(record.sha256.prefix(2))" }

    private func lookUpImages(_ urls: ArraySlice<(url: String, digest: String)>) -> ImageLookup {
        let files = RootedFiles(root: root.path)
        var lookup = ImageLookup()
        for (url, digest) in urls {
            let indexPath = "urls/\(digest.prefix(2))/\(digest).json"
            guard let bytes = files.contents(indexPath, limit: 4096),
                let record = ImageRecord(flatJSON: bytes)
                    ?? (try? JSONDecoder().decode(ImageRecord.self, from: Data(bytes)))
            else { continue }
            let verified = IndexEntry.stamp(inFlatJSON: bytes)
            guard let stamp = lookup.stamps[record.sha256] ?? verify(record, knownStamp: verified, files: files)
            else { continue }
            if stamp != verified {
                try? writeIndex(record, stamp: stamp, for: url)
            }
            lookup.records[url] = record
            lookup.stamps[record.sha256] = stamp
        }
        return lookup
    }

    /// The stamp of the cached bytes of `record` when they are whole: the stamp they were verified with, or, when
    /// the file changed since (or was never verified), a new one after its bytes hashed to the record's SHA-256.
    /// A file that does not is damaged: it is removed, so that the image is downloaded again. Nil when the image is
    /// not usable.
    func verify(_ record: ImageRecord, knownStamp: FileStamp?, files: RootedFiles) -> FileStamp? {
        let path = Self.imagePath(of: record)
        guard let stamp = files.stamp(path), stamp.size == Int64(record.byteCount) else {
            if files.stamp(path) != nil { files.remove(path) }
            return nil
        }
        if stamp == knownStamp { return stamp }
        guard let read = files.stampedContents(path, limit: record.byteCount),
            SHA256Hasher.hex(of: read.bytes) == record.sha256
        else {
            files.remove(path)
            return nil
        }
        return read.stamp
    }

    /// Where the bytes of `record` are, relative to `root`.
    static func imagePath(of record: ImageRecord) -> String {
        "\(imageFolder(record))/\(record.sha256).\(record.format.fileExtension)"
    }

    /// Stores image bytes by content and remembers that `url` served them (in the URL index, as JSON with sorted
    /// keys, which ``ImageRecord/init(flatJSON:)`` reads back without a decoder, with the stamp of the stored bytes
    /// as they were verified).
    public func storeImage(_ bytes: [UInt8], format: ImageFormat, from url: String) throws(FileWriteError)
        -> ImageRecord
    {
        try storeStampedImage(bytes, format: format, from: url).record
    }

    /// ``storeImage(_:format:from:)``, with the stamp of the stored bytes.
    package func storeStampedImage(_ bytes: [UInt8], format: ImageFormat, from url: String) throws(FileWriteError)
        -> (record: ImageRecord, stamp: FileStamp)
    {
        let size = ImageDimensions.read(bytes, format: format)
        let record = ImageRecord(
            sha256: SHA256Hasher.hex(of: bytes), format: format, byteCount: bytes.count, width: size?.width,
            height: size?.height)
        let files = RootedFiles(root: root.path)
        let stamp: FileStamp
        if let present = files.stampedContents(Self.imagePath(of: record), limit: bytes.count),
            present.bytes == bytes
        {
            stamp = present.stamp
        } else {
            try AtomicFile.write(bytes, to: imageFile(for: record), temporaryFolder: temporaryFolder)
            guard let written = files.stamp(Self.imagePath(of: record)) else {
                throw FileWriteError(path: imagePath(for: record), reason: "it vanished as it was written")
            }
            stamp = written
        }
        try writeIndex(record, stamp: stamp, for: url)
        return (record, stamp)
    }

    /// Points the URL index entry of `url` at `record`, whose bytes had `stamp` when they were verified.
    private func writeIndex(_ record: ImageRecord, stamp: FileStamp, for url: String) throws(FileWriteError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let index = (try? encoder.encode(IndexEntry(record: record, stamp: stamp.fields))) ?? Data()
        try AtomicFile.write(
            index, to: URL(fileURLWithPath: urlIndexPath(for: url)), temporaryFolder: temporaryFolder)
    }

    /// A URL index entry as its file holds it: the image record's fields and the stamp of its bytes.
    struct IndexEntry: Encodable {
        var record: ImageRecord
        var stamp: String

        private enum CodingKeys: String, CodingKey { case sha256, format, byteCount, width, height, stamp }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(record.sha256, forKey: .sha256)
            try container.encode(record.format, forKey: .format)
            try container.encode(record.byteCount, forKey: .byteCount)
            try container.encodeIfPresent(record.width, forKey: .width)
            try container.encodeIfPresent(record.height, forKey: .height)
            try container.encode(stamp, forKey: .stamp)
        }

        /// The stamp an index entry holds, if any.
        static func stamp(inFlatJSON bytes: [UInt8]) -> FileStamp? {
            let key = Array(#""stamp":""#.utf8)
            guard let start = bytes.firstRange(of: key)?.upperBound,
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "\""))
            else { return nil }
            return FileStamp(fields: bytes[start..<end].split(separator: 0x20))
        }
    }

    public func imageFile(for record: ImageRecord) -> URL { URL(fileURLWithPath: imagePath(for: record)) }

    private func imagePath(for record: ImageRecord) -> String {
        shardedPath("images", record.sha256, extension: record.format.fileExtension)
    }

    private func urlIndexPath(for url: String) -> String {
        shardedPath("urls", SHA256Hasher.hex(of: url), extension: "json")
    }

    /// `root/KIND/ab/DIGEST.EXT`, as a plain path (lookups are made thousands of times a run).
    private func shardedPath(_ kind: String, _ digest: String, extension fileExtension: String) -> String {
        "\(root.path)/\(kind)/\(digest.prefix(2))/\(digest).\(fileExtension)"
    }
}

extension CacheStore.StoredResponse {
    /// Reads the envelope `store` writes (what `JSONDecoder` reads with dates as seconds since 1970) with the
    /// hand-written parser, which costs a fraction of the decoder on bodies of hundreds of kilobytes; nil for
    /// anything else.
    init?(envelope bytes: [UInt8]) {
        guard case .object(let object)? = try? JSONValue.parse(bytes), case .string(let url)? = object["url"],
            case .number(let fetchedAt)? = object["fetchedAt"], fetchedAt.double.isFinite,
            case .number(let status)? = object["status"], let status = status.int,
            case .string(let body)? = object["body"], let data = Data(base64Encoded: body)
        else { return nil }
        let contentType: String?
        switch object["contentType"] {
        case .string(let type)?: contentType = type
        case .null?, nil: contentType = nil
        default: return nil
        }
        self.init(
            url: url, fetchedAt: Date(timeIntervalSince1970: fetchedAt.double), status: status,
            contentType: contentType, body: data)
    }
}

extension CacheStore.ImageRecord {
    /// Reads the flat JSON object the URL index holds (string and whole-number values only, as `storeImage` writes
    /// it) without a `JSONDecoder`, which costs more than the rest of a lookup; nil for anything else, which is then
    /// left to the decoder.
    init?(flatJSON bytes: [UInt8]) {
        var fields: [String: String] = [:]
        var index = 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }
        /// The bytes up to the next quote, after an opening one; nil at an escape or the end.
        func quoted() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                if bytes[end] == UInt8(ascii: "\\") { return nil }
                end += 1
            }
            guard end < bytes.count else { return nil }
            index = end + 1
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            guard let key = quoted(), index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            if let text = quoted() {
                fields[key] = text
            } else {
                let start = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > start, index - start <= 18 else { return nil }
                fields[key] = String(decoding: bytes[start..<index], as: UTF8.self)
            }
            guard index < bytes.count else { return nil }
            index += 1
            if bytes[index - 1] == UInt8(ascii: "}") { break }
            guard bytes[index - 1] == UInt8(ascii: ",") else { return nil }
        }
        skipSpace()
        guard index == bytes.count,
            let sha256 = fields["sha256"], sha256.utf8.count == 64,
            sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }),
            let format = fields["format"].flatMap({ ImageFormat(rawValue: $0) }),
            let byteCount = fields["byteCount"].flatMap({ Int($0) }),
            Set(fields.keys).isSubset(of: ["sha256", "format", "byteCount", "width", "height", "stamp"])
        else { return nil }
        let width = fields["width"].flatMap { Int($0) }
        let height = fields["height"].flatMap { Int($0) }
        guard (fields["width"] == nil) == (width == nil), (fields["height"] == nil) == (height == nil) else {
            return nil
        }
        self.init(sha256: sha256, format: format, byteCount: byteCount, width: width, height: height)
    }
}
