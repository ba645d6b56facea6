import Foundation
import VitrineBasics
import VitrineStore

/// What a finished build leaves in the cache about its output folder (`builds/<digest of the folder's path>`) so
/// that the next build with the same inputs can tell with a `stat` per file, without reading a response, building a
/// model or reading the manifest, that it would change nothing.
///
/// It is a shortcut, never the record of ownership (the manifest is), and it stays out of the output so that the
/// output's bytes depend on the inputs alone. `OutputWriter` removes it before its first change to the folder, so
/// it exists only while the folder holds exactly what it describes; and any difference (the build's fingerprint, a
/// response the cache replaced or that is no longer fresh, a file touched, replaced or removed, the manifest
/// rewritten) sends the build down the full path, which renders only what changed anyway.
/// The format is lines of text: `vitrine-state 3`, `fingerprint HEX`, `summary JSON`, optionally
/// `expires SECONDS` (when a random page of the site is next due, by the clock of schedules), then
/// `response FETCHED SIZE MTIME INODE PATH` (cache-relative) and `file SIZE MTIME INODE PATH`
/// (output-relative).
package struct BuildState: Equatable {
    private static let header = "vitrine-state 3"

    /// A cached API response the build read, as it was on disk.
    package typealias Response = CachedResponseUse

    /// A file of the output folder as the build left it (its path relative to the output root).
    typealias File = StampedFiles.File

    /// The digest of everything besides the API's answers that shapes the output (see
    /// `GalleryPipeline.fingerprint`).
    var fingerprint: String
    /// What the build would report were it run again and found nothing to do.
    package var summary: BuildSummary
    /// When the output stops being what its inputs give: a random page's next update. Nil: never by the clock.
    var expires: Date?
    var responses: [Response]
    var files: StampedFiles

    /// The build's outputs are still as this state describes them, its responses are in the cache, unchanged and
    /// usable under `policy` at `now`, and no random page is due at `scheduleNow` (the clock of schedules).
    package func isCurrent(
        fingerprint: String, output: URL, cache: URL, policy: CachePolicy, now: Date, scheduleNow: Date
    ) async -> Bool {
        let answers = answersAreCurrent(
            fingerprint: fingerprint, cache: cache, policy: policy, now: now, scheduleNow: scheduleNow)
        guard answers else { return false }
        return await filesAreCurrent(in: output)
    }

    /// The part of ``isCurrent(fingerprint:output:cache:policy:now:scheduleNow:)`` about the output: every file is
    /// still as the build left it (one `stat` each, over the processor's cores).
    package func filesAreCurrent(in output: URL) async -> Bool {
        await files.allCurrent(under: output.path)
    }

    /// The part of ``isCurrent(fingerprint:output:cache:policy:now:scheduleNow:)`` that needs no file of the output:
    /// the fingerprint, the schedule, and the cached responses. It is all a state read without its files
    /// (``init(bytes:withFiles:)``) can tell, and what a rebuild after a change at the API stops at.
    package func answersAreCurrent(
        fingerprint: String, cache: URL, policy: CachePolicy, now: Date, scheduleNow: Date
    ) -> Bool {
        guard fingerprint == self.fingerprint, !policy.refresh else { return false }
        if let expires, scheduleNow >= expires { return false }
        let cached = RootedFiles(root: cache.path)
        for response in responses {
            guard policy.offline || policy.isFresh(fetchedAt: response.fetchedAt, now: now),
                cached.stamp(response.path) == response.stamp
            else { return false }
        }
        return true
    }

    /// The state as its file holds it; nil when a path cannot be written on one line.
    func encoded() -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        func breaksTheLine(_ path: String) -> Bool { path.isEmpty || path.utf8.contains(0x0A) }
        guard let summary = try? encoder.encode(summary), !responses.contains(where: { breaksTheLine($0.path) })
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096 + 96 * (responses.count + files.count))
        func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        func append(_ stamp: FileStamp) {
            stamp.appendFields(to: &bytes)
            bytes.append(0x20)
        }
        append("\(Self.header)\nfingerprint \(fingerprint)\nsummary ")
        bytes.append(contentsOf: summary)
        bytes.append(0x0A)
        if let expires { append("expires \(expires.timeIntervalSince1970)\n") }
        for response in responses {
            append("response \(response.fetchedAt.timeIntervalSince1970) ")
            append(response.stamp)
            append(response.path)
            bytes.append(0x0A)
        }
        // Each file's path is made once, and checked as it is written.
        for file in files {
            guard !breaksTheLine(file.path) else { return nil }
            append("file ")
            append(file.stamp)
            append(file.path)
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Reads the state at `path`; nil when there is none or it cannot be read as a whole.
    package static func read(atPath path: String) -> BuildState? {
        bytes(atPath: path).flatMap { BuildState(bytes: $0) }
    }

    /// The bytes of the state at `path`, nil when there is none, for ``init(bytes:withFiles:)``.
    package static func bytes(atPath path: String) -> [UInt8]? {
        try? FileBytes.read(atPath: path, limit: FileBytes.recordLimit)
    }

    init(
        fingerprint: String, summary: BuildSummary, expires: Date? = nil, responses: [Response], files: [File]
    ) {
        self.fingerprint = fingerprint
        self.summary = summary
        self.expires = expires
        self.responses = responses
        self.files = StampedFiles(files)
    }

    /// The state its file's `bytes` hold; nil when they are not one as a whole. Without `withFiles`, the reading
    /// stops before the first file (`files` is then empty): the output's files come last, thousands of them, and
    /// are read only when the answers they were made from are still current.
    package init?(bytes: [UInt8], withFiles: Bool = true) {
        guard bytes.last == 0x0A else { return nil }
        // Line by line, not split at once: a read that stops before the files never walks the rest.
        let body = bytes.dropLast()
        var next: Int? = body.startIndex
        func nextLine() -> ArraySlice<UInt8>? {
            guard let start = next else { return nil }
            guard let end = body[start...].firstIndex(of: 0x0A) else {
                next = nil
                return body[start...]
            }
            next = end + 1
            return body[start..<end]
        }
        guard let header = nextLine(), header.elementsEqual(Self.header.utf8), let fingerprintLine = nextLine(),
            let summaryLine = nextLine()
        else { return nil }
        func field(_ line: ArraySlice<UInt8>, _ prefix: [UInt8]) -> ArraySlice<UInt8>? {
            guard line.starts(with: prefix) else { return nil }
            return line.dropFirst(prefix.count)
        }
        func field(_ line: ArraySlice<UInt8>, _ name: String) -> ArraySlice<UInt8>? {
            field(line, Array("\(name) ".utf8))
        }
        let responsePrefix = Array("response ".utf8)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let fingerprint = field(fingerprintLine, "fingerprint"), !fingerprint.isEmpty,
            let summaryJSON = field(summaryLine, "summary"),
            let summary = try? decoder.decode(BuildSummary.self, from: Data(summaryJSON))
        else { return nil }
        self.fingerprint = String(decoding: fingerprint, as: UTF8.self)
        self.summary = summary
        responses = []
        files = StampedFiles()
        var entry = nextLine()
        if let first = entry, let seconds = field(first, "expires") {
            guard let value = Double(String(decoding: seconds, as: UTF8.self)) else { return nil }
            expires = Date(timeIntervalSince1970: value)
            entry = nextLine()
        }
        while let line = entry {
            entry = nextLine()
            if let rest = field(line, responsePrefix) {
                let parts = rest.split(separator: 0x20, maxSplits: 4, omittingEmptySubsequences: false)
                guard parts.count == 5, let fetched = Double(String(decoding: parts[0], as: UTF8.self)),
                    let stamp = FileStamp(fields: parts[1...3]), !parts[4].isEmpty
                else { return nil }
                responses.append(
                    Response(
                        path: String(decoding: parts[4], as: UTF8.self), stamp: stamp,
                        fetchedAt: Date(timeIntervalSince1970: fetched)))
            } else if line.starts(with: Self.filePrefix) {
                guard withFiles else { break }
                guard let files = Self.files(in: bytes, from: line.startIndex) else { return nil }
                self.files = files
                break
            } else {
                return nil
            }
        }
    }

    private static let filePrefix = Array("file ".utf8)

    /// The files of a state whose `file` lines, the last of its lines, start at `start` in `bytes`; nil unless every
    /// line from there is one. Read straight from the bytes: a state has thousands of them.
    private static func files(in bytes: [UInt8], from start: Int) -> StampedFiles? {
        bytes.withUnsafeBufferPointer { bytes in
            var files = StampedFiles()
            files.reserveCapacity(files: (bytes.count - start) / 48, nameBytes: bytes.count - start)
            var index = start
            func skip(_ byte: UInt8) -> Bool {
                guard index < bytes.endIndex, bytes[index] == byte else { return false }
                index += 1
                return true
            }
            func number() -> Int64? {
                guard let value = ASCIIDecimal.int64(in: bytes, at: &index), skip(0x20) else { return nil }
                return value
            }
            while index < bytes.endIndex {
                guard filePrefix.allSatisfy(skip), let size = number(), let modified = number(),
                    let inode = number(), let end = bytes[index...].firstIndex(of: 0x0A), end > index
                else { return nil }
                let stamp = FileStamp(size: size, modified: modified, inode: UInt64(inode))
                files.append(path: UnsafeBufferPointer(rebasing: bytes[index..<end]), stamp: stamp)
                index = end + 1
            }
            return files
        }
    }
}
