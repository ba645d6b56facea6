import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel

/// A site's history settings: whether to keep one, and where the previous publish's is.
public struct HistoryOptions: Sendable {
    /// Where the previous history is when the output folder has none.
    public var previous: HistorySource?
    /// When the output folder has no history, start a new one on purpose instead of reading the previous
    /// publish's (a site's first publish, whose address does not answer yet).
    public var startNew: Bool

    /// Without `previous`, the history is read from the output folder alone.
    public init(previous: HistorySource? = nil, startNew: Bool = false) {
        self.previous = previous
        self.startNew = startNew
    }
}

/// Where a build finds the history of the previous publish: a `history.json` on disk, or at a URL.
public enum HistorySource: Sendable, Equatable {
    case file(URL)
    case url(String)

    /// Reads where a user says the previous history is: an http(s) URL, or else a path; a folder stands for its
    /// `history.json`. A value that cannot name a history (a URL of another scheme, an http(s) URL without its
    /// host, a file in a folder that does not exist) is refused: taken for a missing file, it would start the
    /// history over, and the next deploy would replace the published one.
    package init(argument: String) throws(HistorySourceError) {
        let shown = String(argument.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(200))
        if let colon = argument.firstIndex(of: ":"), Self.isScheme(argument[..<colon]) {
            guard ["http", "https"].contains(argument[..<colon].lowercased()) else {
                throw HistorySourceError(
                    value: shown,
                    problem: "it is a \(argument[..<colon].lowercased()): URL, and only http(s) URLs are fetched")
            }
            guard argument[colon...].hasPrefix("://"), let url = URL(string: argument), let host = url.host,
                !host.isEmpty
            else {
                throw HistorySourceError(value: shown, problem: "it is not a whole http(s) URL with “//” and a host")
            }
            self = .url(argument)
            return
        }
        var isFolder: ObjCBool = false
        let file = URL(fileURLWithPath: argument)
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue {
            self = .file(file.appendingPathComponent(SiteHistory.fileName))
            return
        }
        // "previous/" names a folder, which must be there itself.
        let folder = argument.hasSuffix("/") ? file : file.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw HistorySourceError(value: shown, problem: "the folder \(folder.path) does not exist")
        }
        self = .file(file)
    }

    /// Whether `text` is a URL scheme (RFC 3986: a letter, then letters, digits, `+`, `-` and `.`).
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    /// Where the previous publish of a site with `baseURL` keeps its history.
    public static func published(at baseURL: String) -> HistorySource {
        .url((baseURL.hasSuffix("/") ? baseURL : baseURL + "/") + SiteHistory.fileName)
    }
}

/// Where a user said the previous history is names no history a build can read, and why.
package struct HistorySourceError: Error, Sendable, Equatable {
    /// What the user gave, without control characters and cut to 200 characters.
    package let value: String
    /// Why it names no history, as the end of a sentence: "the folder /x does not exist".
    package let problem: String
}

/// Finds the previous history of a build: the one the output folder's last finished build wrote, else the one
/// `source` names, else none (a new history, with a warning). A damaged or hostile file is refused, never taken as
/// no history.
///
/// A build stopped half-way may have replaced `history.json` with one that records its own snapshot; the build
/// after it must start from the history of the last build that finished, or a run that never finished would have
/// left its mark. So the manifest's record of `history.json` (its SHA-256) says which history is the finished
/// build's, and before a build replaces that file it keeps a copy of it (`backupName`) until its manifest is
/// written.
struct PreviousHistory {
    /// The copy of the last finished build's history, kept while a build replaces it.
    static let backupName = ".vitrine-history-previous.json"

    let output: URL
    /// The SHA-256 of the `history.json` the last finished build wrote, as its manifest records it; empty or nil
    /// when it wrote none.
    let committed: String?
    /// The run before this one was stopped half-way.
    let interrupted: Bool
    let source: HistorySource?
    let fetcher: any HTTPFetching
    let offline: Bool
    /// A new history was asked for: `source` is not read.
    var startNew = false
    /// The build's clock: a history with a snapshot dated well past it is refused (`SiteHistory.checkTimes`).
    let clock: Date
    /// The output folder's own history file as it was read and decoded while the build looked at the folder.
    var ahead: InPlace? = nil

    /// The output folder's own history file, read and decoded ahead of `load`, which takes it when that file is the
    /// one to start from: megabytes of JSON for a large archive, decoded while the folder's manifest is.
    struct InPlace: Sendable {
        /// The file's bytes (nil when there is none), or why it cannot be read.
        let bytes: Result<[UInt8]?, HistoryFileError>
        /// What the bytes decode to, as `SiteHistory.decode` checks them.
        let history: Result<SiteHistory, HistoryFileError>?

        init(output: URL) {
            let file = output.appendingPathComponent(SiteHistory.fileName)
            do throws(HistoryFileError) {
                let read = try PreviousHistory.bytes(of: file)
                bytes = .success(read)
                history = read.map { read in
                    Result { () throws(HistoryFileError) in try SiteHistory.decode(read, file: file.path) }
                }
            } catch {
                bytes = .failure(error)
                history = nil
            }
        }
    }

    /// What was found: the history, the warning to give when there is none, and the bytes of the output's
    /// `history.json` when it is the last finished build's (which must be kept while it is replaced).
    struct Found {
        var history: SiteHistory
        var warning: String?
        var committedInPlace: [UInt8]?
    }

    func load() async throws -> Found {
        let own = output.appendingPathComponent(SiteHistory.fileName)
        let ownBytes = try ahead.map { ahead throws(HistoryFileError) in try ahead.bytes.get() } ?? Self.bytes(of: own)
        /// The history of the output's own file, decoded ahead if it was.
        func decodeOwn(_ bytes: [UInt8]) throws(HistoryFileError) -> SiteHistory {
            guard let decoded = ahead?.history else { return try decode(bytes, file: own.path) }
            let history = try decoded.get()
            try history.checkTimes(notPast: clock, file: own.path)
            return history
        }
        if let committed, !committed.isEmpty {
            if let ownBytes, SHA256Hasher.hex(of: ownBytes) == committed {
                return Found(history: try decodeOwn(ownBytes), committedInPlace: ownBytes)
            }
            let backup = output.appendingPathComponent(Self.backupName)
            if let bytes = try Self.bytes(of: backup), SHA256Hasher.hex(of: bytes) == committed {
                return Found(history: try decode(bytes, file: backup.path))
            }
            if !interrupted, ownBytes != nil {
                throw HistoryFileError(
                    file: own.path,
                    problem:
                        "it is not the history the last build wrote (it was changed since); put that one back, or "
                        + "remove it to start from the previous publish's")
            }
        } else if !interrupted, let ownBytes {
            return Found(history: try decodeOwn(ownBytes))
        }
        let (history, warning) = try await fromSource()
        return Found(history: history, warning: warning)
    }

    /// The history `source` names, or a new one with the warning that says why.
    private func fromSource() async throws -> (SiteHistory, warning: String?) {
        guard let source, !startNew else {
            return (
                .empty,
                startNew
                    ? "Starting a new history, as asked: the output folder has no history.json."
                    : "Starting a new history: the output folder has no history.json and no previous one was named."
            )
        }
        switch source {
        case .file(let url):
            guard let bytes = try Self.bytes(of: url) else {
                return (.empty, "Starting a new history: there is no history at \(url.path).")
            }
            return (try decode(bytes, file: url.path), nil)
        case .url(let url):
            if offline { throw PreviousHistoryUnavailableError(location: url, reason: "the build is offline") }
            let response: FetchResponse
            do {
                response = try await fetcher.fetch(FetchRequest(url: url, maximumBodyBytes: SiteHistory.maximumBytes))
            } catch {
                throw PreviousHistoryUnavailableError(location: url, reason: error.sentence)
            }
            switch response.status {
            case 200:
                return (try decode(response.body, file: url), nil)
            case 404, 410:
                return (
                    .empty, "Starting a new history: the previous publish has none at \(url) (HTTP \(response.status))."
                )
            default:
                throw PreviousHistoryUnavailableError(
                    location: url, reason: "the server answered HTTP \(response.status)")
            }
        }
    }

    /// The history `bytes` hold, checked as `SiteHistory.decode` does and for snapshots dated past `clock`.
    private func decode(_ bytes: [UInt8], file: String) throws(HistoryFileError) -> SiteHistory {
        let history = try SiteHistory.decode(bytes, file: file)
        try history.checkTimes(notPast: clock, file: file)
        return history
    }

    /// The bytes of the history file at `url`, nil when there is none; a link there is refused, not followed.
    static func bytes(of url: URL) throws(HistoryFileError) -> [UInt8]? {
        let folder = RootedFiles(root: url.deletingLastPathComponent().path)
        let name = url.lastPathComponent
        switch folder.entry(name) {
        case .missing:
            return nil
        case .blocked, .other:
            throw HistoryFileError(file: url.path, problem: "it is not a regular file")
        case .file(let stamp):
            guard stamp.size <= Int64(SiteHistory.maximumBytes),
                let bytes = folder.contents(name, limit: SiteHistory.maximumBytes)
            else {
                throw HistoryFileError(
                    file: url.path, problem: "it cannot be read or is larger than \(SiteHistory.maximumBytes >> 20) MB")
            }
            return bytes
        }
    }
}

/// The previous history could not be had, and starting a new one would throw the site's history away.
public struct PreviousHistoryUnavailableError: UserFacingError {
    /// The file or URL that was tried.
    public let location: String
    /// Why it could not be read.
    public let reason: String
    /// Names where the history was looked for and why it could not be read.
    public var sentence: String {
        "The previous history at \(location) could not be read (\(reason)), so the build stopped rather than start "
            + "the site's history over."
    }
    /// Always `.unavailable`.
    public var kind: FailureKind { .unavailable }
}

/// History is asked for where it does not work yet.
public struct HistoryUnsupportedError: UserFacingError {
    /// Where history was asked for ("for a site built in shards").
    public let detail: String
    /// Says where history cannot be kept, and to build the site in one piece.
    public var sentence: String { "A site's history cannot be kept \(detail) yet; build it in one piece." }
    /// Always `.invalidArgument`.
    public var kind: FailureKind { .invalidArgument }
}
