import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel

/// A site's history settings: whether to keep one, and where the previous publish's is.
public struct HistoryOptions: Sendable {
    /// Where the previous history is when the output folder has none.
    public var previous: HistorySource?

    public init(previous: HistorySource? = nil) {
        self.previous = previous
    }
}

/// Where a build finds the history of the previous publish: a `history.json` on disk, or at a URL.
public enum HistorySource: Sendable, Equatable {
    case file(URL)
    case url(String)

    /// Reads where a user says the previous history is: an http(s) URL, or else a path; a folder stands for its
    /// `history.json`.
    public init(argument: String) {
        if let url = URL(string: argument), ["http", "https"].contains(url.scheme?.lowercased()), url.host != nil {
            self = .url(argument)
        } else {
            var isFolder: ObjCBool = false
            let file = URL(fileURLWithPath: argument)
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), isFolder.boolValue {
                self = .file(file.appendingPathComponent(SiteHistory.fileName))
            } else {
                self = .file(file)
            }
        }
    }

    /// Where the previous publish of a site with `baseURL` keeps its history.
    public static func published(at baseURL: String) -> HistorySource {
        .url((baseURL.hasSuffix("/") ? baseURL : baseURL + "/") + SiteHistory.fileName)
    }

    var described: String {
        switch self {
        case .file(let url): url.path
        case .url(let url): url
        }
    }
}

/// Finds the previous history of a build: the output folder's own `history.json`, else the one `source` names,
/// else none (a new history, with a warning). A damaged or hostile file is refused, never taken as no history.
struct PreviousHistory {
    let output: URL
    let source: HistorySource?
    let fetcher: any HTTPFetching
    let offline: Bool

    /// The history, and the warning to give when there is none.
    func load() async throws -> (SiteHistory, warning: String?) {
        if let own = try Self.read(output.appendingPathComponent(SiteHistory.fileName)) { return (own, nil) }
        guard let source else {
            return (
                .empty, "Starting a new history: the output folder has no history.json and no previous one was named."
            )
        }
        switch source {
        case .file(let url):
            guard let previous = try Self.read(url) else {
                return (.empty, "Starting a new history: there is no history at \(url.path).")
            }
            return (previous, nil)
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
                return (try SiteHistory.decode(response.body, file: url), nil)
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

    /// The history in the file at `url`, nil when there is none; a link there is refused, not followed.
    static func read(_ url: URL) throws(HistoryFileError) -> SiteHistory? {
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
            return try SiteHistory.decode(bytes, file: url.path)
        }
    }
}

/// The previous history could not be had, and starting a new one would throw the site's history away.
public struct PreviousHistoryUnavailableError: UserFacingError {
    public let location: String
    public let reason: String
    public var sentence: String {
        "The previous history at \(location) could not be read (\(reason)), so the build stopped rather than start "
            + "the site's history over."
    }
    public var kind: FailureKind { .unavailable }
}

/// History is asked for where it does not work yet.
public struct HistoryUnsupportedError: UserFacingError {
    public let detail: String
    public var sentence: String { "A site's history cannot be kept \(detail) yet; build it in one piece." }
    public var kind: FailureKind { .invalidArgument }
}
