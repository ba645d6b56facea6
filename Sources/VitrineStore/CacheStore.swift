import Foundation
import Synchronization
import VitrineBasics
import VitrineHTTP

/// The on-disk cache shared by all runs: API responses kept for a limited time, and images kept by content.
///
/// Layout under `root`: `responses/ab/<sha256 of the public URL>.body` (the bytes the API sent) and `.meta` beside
/// it (a ``ResponseRecord``), `images/ab/<sha256 of the bytes>.<ext>`, `urls/ab/<sha256 of the image URL>.json` pointing at an image, and
/// `builds/ab/<sha256 of an output folder's path>.state` and `.images` about the last build of that folder.
/// No name or file holds an API key: responses are keyed by the URL without its secret parameters and a one-way
/// digest of those.
public struct CacheStore: Sendable {
    package let root: URL
    /// `root.path`, worked out once: the paths of thousands of images are made from it in every build.
    let rootPath: String
    /// What this run used of the cache, shared by every copy of this store, which pruning never removes.
    package let usage = CacheUsage()
    /// Where every copy of this store adds what it is about to store, so that a build knows the cache's size
    /// without walking it.
    package let ledger: CacheSizeLedger

    /// The cache kept in `root` (usually `defaultRoot()`); its folders are made as they are first written.
    public init(root: URL) {
        self.root = root
        rootPath = root.path
        ledger = CacheSizeLedger(root: root)
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
    package func sweepTemporaryFiles() {
        TemporaryFileSweeper.sweep(temporaryFolder)
    }

    // MARK: API responses

    /// A response body as it was received, and when.
    struct StoredResponse: Sendable {
        package var url: String
        package var fetchedAt: Date
        package var status: Int
        package var contentType: String?
        package var body: [UInt8]
    }

    /// What the cache keeps beside a response's body, as JSON: where the body came from, and its size and SHA-256,
    /// by which a body that does not belong to it (the two files are replaced one after the other, so a run killed
    /// between the two leaves the new body beside the old record) reads as no answer.
    struct ResponseRecord: Codable, Equatable {
        /// The version of this layout; a record of another reads as no answer.
        static let currentFormat = 2

        var format: Int
        var url: String
        var fetchedAt: Date
        var status: Int
        var contentType: String?
        var bodyBytes: Int
        var bodySHA256: String
    }

    /// Where the two files of a stored response are, relative to `root`.
    struct ResponsePaths: Equatable {
        var record: String
        var body: String
    }

    /// The stamps of the two files of a stored response, as they were read or written.
    struct ResponseStamps: Equatable {
        var record: FileStamp
        var body: FileStamp
    }

    func storedResponse(for request: FetchRequest) -> StoredResponse? {
        stampedResponse(for: request)?.response
    }

    /// The stored response for `request` and the stamps of the files it was read from, which a later build compares
    /// to tell that the cache still holds the same answer; nil when there is none, or its record or body is damaged,
    /// cut short or of another answer.
    func stampedResponse(for request: FetchRequest) -> (response: StoredResponse, stamps: ResponseStamps)? {
        let paths = responsePaths(for: request)
        guard let record = Self.readStamped(root.appendingPathComponent(paths.record).path, limit: 1 << 16),
            let fields = try? Self.recordDecoder.decode(ResponseRecord.self, from: Data(record.bytes)),
            fields.format == ResponseRecord.currentFormat, fields.url == request.publicURL,
            fields.bodyBytes >= 0, fields.bodyBytes < Int(Int32.max),
            let body = Self.readStamped(root.appendingPathComponent(paths.body).path, limit: fields.bodyBytes),
            body.bytes.count == fields.bodyBytes, SHA256Hasher.hex(of: body.bytes) == fields.bodySHA256
        else { return nil }
        usage.record([paths.record, paths.body])
        let response = StoredResponse(
            url: fields.url, fetchedAt: fields.fetchedAt, status: fields.status, contentType: fields.contentType,
            body: body.bytes)
        return (response, ResponseStamps(record: record.stamp, body: body.stamp))
    }

    /// The bytes of the file at `path` with its stamp, when it holds at most `limit` bytes; exactly the size `fstat`
    /// gave, as anything else is a file cut short or still growing.
    private static func readStamped(_ path: String, limit: Int) -> (bytes: [UInt8], stamp: FileStamp)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return try? FileBytes.readWhole(descriptor, limit: limit)
    }

    /// The stamps of the files holding the stored response for `request`.
    func responseStamps(for request: FetchRequest) -> ResponseStamps? {
        let paths = responsePaths(for: request)
        guard let record = FileStamp.of(root.appendingPathComponent(paths.record).path),
            let body = FileStamp.of(root.appendingPathComponent(paths.body).path)
        else { return nil }
        return ResponseStamps(record: record, body: body)
    }

    /// Where the response for `request` is stored, relative to `root`: named by the public URL and, when the
    /// request carries secrets (a key in the query or an `Authorization` header), by a digest of them, so that the
    /// answer given to one key is never served to another, and no name or file holds a key.
    func responsePaths(for request: FetchRequest) -> ResponsePaths {
        var hash = SHA256Hasher()
        hash.update(request.publicURL.utf8)
        if let keyDigest = Self.keyDigest(of: request) {
            hash.update([0])
            hash.update(keyDigest)
        }
        let digest = hash.finalize().hexString
        let base = "responses/\(digest.prefix(2))/\(digest)"
        return ResponsePaths(record: base + ".meta", body: base + ".body")
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

    private static let recordDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()

    private static let recordEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Stores the body as the API sent it, then its record, each renamed into place whole; the entry an earlier
    /// version kept for the same request (one JSON file with the body inside) is removed.
    package func store(_ response: FetchResponse, for request: FetchRequest, at date: Date) throws(FileWriteError) {
        let paths = responsePaths(for: request)
        let recordFile = root.appendingPathComponent(paths.record)
        let record = ResponseRecord(
            format: ResponseRecord.currentFormat, url: request.publicURL, fetchedAt: date, status: response.status,
            contentType: response.headers["content-type"], bodyBytes: response.body.count,
            bodySHA256: SHA256Hasher.hex(of: response.body))
        let encoded: Data
        do {
            encoded = try Self.recordEncoder.encode(record)
        } catch {
            throw FileWriteError(path: recordFile.path, reason: "\(error)")
        }
        ledger.add(Int64(response.body.count + encoded.count))
        try AtomicFile.write(
            response.body, to: root.appendingPathComponent(paths.body), temporaryFolder: temporaryFolder)
        try AtomicFile.write(encoded, to: recordFile, temporaryFolder: temporaryFolder)
        usage.record([paths.record, paths.body])
        unlink(recordFile.deletingPathExtension().appendingPathExtension("json").path)
    }

    /// Where the ``BuildState`` of the output folder `output` is kept.
    func buildStatePath(for output: URL) -> String { outputRecords(for: output).state }

    /// Where the cache keeps its records of the output folder `output`.
    package func outputRecords(for output: URL) -> OutputRecordPaths {
        let digest = outputDigest(of: output)
        return OutputRecordPaths(
            state: shardedPath("builds", digest, extension: "state"),
            verified: shardedPath("builds", digest, extension: "verified"), temporaryFolder: temporaryFolder,
            manifestCopy: shardedPath("builds", digest, extension: "files"))
    }

    // MARK: Images

    /// What the cache knows about one downloaded image.
    package struct ImageRecord: Codable, Sendable, Hashable {
        package var sha256: String
        package var format: ImageFormat
        package var byteCount: Int
        /// The pixel size read from the image's header, when it could be.
        package var width: Int?
        package var height: Int?

        package init(sha256: String, format: ImageFormat, byteCount: Int, width: Int? = nil, height: Int? = nil) {
            self.sha256 = sha256
            self.format = format
            self.byteCount = byteCount
            self.width = width
            self.height = height
        }
    }

    /// The image last downloaded from `url`, if its bytes are still in the cache and whole.
    func imageRecord(for url: String) -> ImageRecord? {
        lookUpImages([(url, SHA256Hasher.hex(of: url))]).records[url]
    }

    /// Cached images found for a list of URLs.
    package struct ImageLookup: Sendable {
        package var records: [String: ImageRecord] = [:]
        /// The stamp each image's bytes had when they were verified, by the image's SHA-256.
        package var stamps: [String: FileStamp] = [:]
        /// How many of `records` came from the snapshot without opening their index entries.
        package var fromSnapshot = 0
    }

    /// Where the ``ImageIndexSnapshot`` of the builds of the output folder `output` is kept.
    package func imageSnapshotPath(for output: URL) -> String {
        shardedPath("builds", outputDigest(of: output), extension: "images")
    }

    /// Where the ``CacheUseRecord`` of the last build of the output folder `output` is kept.
    package func useRecordPath(for output: URL) -> String {
        shardedPath("builds", outputDigest(of: output), extension: "uses")
    }

    /// The digest that names the records of the output folder `output`, whose records this run then counts as used.
    private func outputDigest(of output: URL) -> String {
        let digest = SHA256Hasher.hex(of: output.standardizedFileURL.path)
        usage.record(Self.buildRecordsKey(digest))
        return digest
    }

    /// `builds/ab/DIGEST`: the cache-relative path of an output folder's records without their extension.
    static func buildRecordsKey(_ digest: String) -> String { "builds/\(digest.prefix(2))/\(digest)" }

    static func urlFolder(_ digest: String) -> String { "urls/\(digest.prefix(2))" }

    static func imageFolder(_ record: ImageRecord) -> String { "images/\(record.sha256.prefix(2))" }

    /// Looks up each URL (with the SHA-256 of it) from its index entry, verifying the bytes of an image whose stamp
    /// changed since its entry was written.
    func lookUpImages(_ urls: ArraySlice<(url: String, digest: String)>) -> ImageLookup {
        let files = RootedFiles(root: root.path)
        var lookup = ImageLookup()
        var used: [String] = []
        // A first build's cache has no index yet: one look rather than a failed open of the folder for every URL.
        if case .missing = files.entry("urls") { return lookup }
        for (url, digest) in urls {
            let indexPath = "urls/\(digest.prefix(2))/\(digest).json"
            guard let bytes = files.contents(indexPath, limit: 4096),
                let entry = try? Self.indexDecoder.decode(IndexEntry.self, from: Data(bytes)), entry.isWellFormed
            else { continue }
            var record = entry.record
            let verified = entry.verifiedStamp
            guard let stamp = lookup.stamps[record.sha256] ?? verify(record, knownStamp: verified, files: files)
            else { continue }
            let reoriented = entry.needsOrientation ? Self.orientedRecord(record, files: files) : nil
            if let reoriented { record = reoriented }
            if stamp != verified || reoriented != nil {
                try? writeIndex(record, stamp: stamp, for: url)
            }
            lookup.records[url] = record
            lookup.stamps[record.sha256] = stamp
            used.append(indexPath)
            used.append(Self.imagePath(of: record))
        }
        usage.record(used)
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

    /// `record` with the size its JPEG's header gives as a browser shows it (its EXIF orientation applied), for an
    /// entry written before sizes were read that way; nil when the bytes cannot be read (the entry stays as it is).
    private static func orientedRecord(_ record: ImageRecord, files: RootedFiles) -> ImageRecord? {
        guard let bytes = files.contents(imagePath(of: record), limit: record.byteCount) else { return nil }
        var oriented = record
        let size = ImageDimensions.read(bytes, format: record.format)
        oriented.width = size?.width
        oriented.height = size?.height
        return oriented
    }

    /// Where the bytes of `record` are, relative to `root`.
    static func imagePath(of record: ImageRecord) -> String {
        "\(imageFolder(record))/\(record.sha256).\(record.format.fileExtension)"
    }

    /// Stores image bytes by content and remembers that `url` served them (in the URL index, as an ``IndexEntry``
    /// with the stamp of the stored bytes as they were verified).
    func storeImage(_ bytes: [UInt8], format: ImageFormat, from url: String) throws(FileWriteError)
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
            ledger.add(Int64(bytes.count))
            try AtomicFile.write(bytes, to: imageFile(for: record), temporaryFolder: temporaryFolder)
            guard let written = files.stamp(Self.imagePath(of: record)) else {
                throw FileWriteError(path: imageFilePath(for: record), reason: "it vanished as it was written")
            }
            stamp = written
        }
        try writeIndex(record, stamp: stamp, for: url)
        let digest = SHA256Hasher.hex(of: url)
        usage.record(["\(Self.urlFolder(digest))/\(digest).json", Self.imagePath(of: record)])
        return (record, stamp)
    }

    /// Points the URL index entry of `url` at `record`, whose bytes had `stamp` when they were verified.
    private func writeIndex(_ record: ImageRecord, stamp: FileStamp, for url: String) throws(FileWriteError) {
        let index = (try? Self.indexEncoder.encode(IndexEntry(record: record, stamp: stamp))) ?? Data()
        ledger.add(Int64(index.count))
        try AtomicFile.write(
            index, to: URL(fileURLWithPath: urlIndexPath(for: url), isDirectory: false),
            temporaryFolder: temporaryFolder)
    }

    private static let indexEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static let indexDecoder = JSONDecoder()

    /// A URL index entry as its file holds it, a flat JSON object: the image record's fields and the stamp its
    /// bytes were verified with (`SIZE MTIME INODE`; entries of earlier versions may lack it). `oriented` says that
    /// a JPEG's width and height are as a browser shows it, its EXIF orientation applied (entries written before
    /// lack it, and have the stored size).
    struct IndexEntry: Codable {
        var sha256: String
        var format: ImageFormat
        var byteCount: Int
        var width: Int?
        var height: Int?
        var stamp: String?
        var oriented: Bool?

        init(record: ImageRecord, stamp: FileStamp) {
            sha256 = record.sha256
            format = record.format
            byteCount = record.byteCount
            width = record.width
            height = record.height
            self.stamp = stamp.fields
            oriented = true
        }

        /// Whether the size must be read again from the bytes: a JPEG's, written before orientation was applied.
        var needsOrientation: Bool { format == .jpeg && oriented != true }

        var record: ImageRecord {
            ImageRecord(sha256: sha256, format: format, byteCount: byteCount, width: width, height: height)
        }

        /// Whether the entry can name a file of the cache: its SHA-256 is 64 hexadecimal digits (it becomes a file
        /// name) and its size is not negative.
        var isWellFormed: Bool {
            sha256.utf8.count == 64 && byteCount >= 0
                && sha256.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) }
        }

        var verifiedStamp: FileStamp? {
            stamp.flatMap { FileStamp(fields: Array($0.utf8).split(separator: 0x20)[...]) }
        }
    }

    /// Where the bytes of `record` are. The URL is made as a file's, without `URL(fileURLWithPath:)` asking the file
    /// system whether a folder is there: one `stat` per image of every build (BENCHMARKS.md, "Figures behind the
    /// code").
    package func imageFile(for record: ImageRecord) -> URL {
        URL(fileURLWithPath: imageFilePath(for: record), isDirectory: false)
    }

    /// The path of ``imageFile(for:)``, made without a `URL`.
    package func imageFilePath(for record: ImageRecord) -> String {
        usage.record(Self.imagePath(of: record))
        return shardedPath("images", record.sha256, extension: record.format.fileExtension)
    }

    private func urlIndexPath(for url: String) -> String {
        shardedPath("urls", SHA256Hasher.hex(of: url), extension: "json")
    }

    /// `root/KIND/ab/DIGEST.EXT`, as a plain path (lookups are made thousands of times a run).
    private func shardedPath(_ kind: String, _ digest: String, extension fileExtension: String) -> String {
        "\(rootPath)/\(kind)/\(digest.prefix(2))/\(digest).\(fileExtension)"
    }
}
