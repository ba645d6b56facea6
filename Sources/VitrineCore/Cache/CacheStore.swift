import Foundation

/// The on-disk cache shared by all runs: API responses kept for a limited time, and images kept by content.
///
/// Layout under `root`: `responses/ab/<sha256 of the public URL>.json` (an envelope with the body),
/// `images/ab/<sha256 of the bytes>.<ext>`, and `urls/ab/<sha256 of the image URL>.json` pointing at an image.
/// No name or file holds an API key: responses are keyed by the URL without its secret parameters.
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
    var temporaryFolder: URL { root.appendingPathComponent("tmp") }

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

    public func storedResponse(for request: HTTPRequest) -> StoredResponse? {
        guard let data = try? Data(contentsOf: responseFile(for: request)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let stored = try? decoder.decode(StoredResponse.self, from: data), stored.url == request.publicURL
        else { return nil }
        return stored
    }

    public func store(_ response: HTTPResponse, for request: HTTPRequest, at date: Date) throws(FileWriteError) {
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

    func responseFile(for request: HTTPRequest) -> URL {
        sharded("responses", SHA256.hex(of: request.publicURL), extension: "json")
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
    }

    /// The image last downloaded from `url`, if its bytes are still in the cache.
    public func imageRecord(for url: String) -> ImageRecord? {
        guard let data = try? Data(contentsOf: urlIndexFile(for: url)),
            let record = try? JSONDecoder().decode(ImageRecord.self, from: data)
        else { return nil }
        let file = imageFile(for: record)
        guard FileSize.of(file.path) == record.byteCount else { return nil }
        return record
    }

    /// Stores image bytes by content and remembers that `url` served them.
    public func storeImage(_ bytes: [UInt8], format: ImageFormat, from url: String) throws(FileWriteError)
        -> ImageRecord
    {
        let size = ImageDimensions.read(bytes, format: format)
        let record = ImageRecord(
            sha256: SHA256.hex(of: bytes), format: format, byteCount: bytes.count, width: size?.width,
            height: size?.height)
        let file = imageFile(for: record)
        if FileSize.of(file.path) != bytes.count {
            try AtomicFile.write(bytes, to: file, temporaryFolder: temporaryFolder)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let index = (try? encoder.encode(record)) ?? Data()
        try AtomicFile.write(index, to: urlIndexFile(for: url), temporaryFolder: temporaryFolder)
        return record
    }

    public func imageFile(for record: ImageRecord) -> URL {
        sharded("images", record.sha256, extension: record.format.fileExtension)
    }

    private func urlIndexFile(for url: String) -> URL { sharded("urls", SHA256.hex(of: url), extension: "json") }

    private func sharded(_ kind: String, _ digest: String, extension fileExtension: String) -> URL {
        root.appendingPathComponent(kind).appendingPathComponent(String(digest.prefix(2)))
            .appendingPathComponent("\(digest).\(fileExtension)")
    }
}
