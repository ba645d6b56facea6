import Foundation

/// One GET request, with the names of query parameters that carry secrets and must never be shown or stored.
public struct HTTPRequest: Sendable, Hashable {
    public var url: String
    public var headers: [String: String]
    /// Query parameter names whose values are secrets (`key` for Pixabay).
    public var secretQueryNames: Set<String>
    /// The largest body accepted; a larger one fails the transfer.
    public var maximumBodyBytes: Int

    public init(
        url: String, headers: [String: String] = [:], secretQueryNames: Set<String> = [],
        maximumBodyBytes: Int = 32 << 20
    ) {
        self.url = url
        self.headers = headers
        self.secretQueryNames = secretQueryNames
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// The URL without its secret query parameters: safe for messages, logs and cache keys.
    public var publicURL: String {
        guard !secretQueryNames.isEmpty, var components = URLComponents(string: url) else { return url }
        components.queryItems = components.queryItems?.filter { !secretQueryNames.contains($0.name) }
        if components.queryItems?.isEmpty == true { components.queryItems = nil }
        return components.string ?? url
    }

    /// The secret values the request carries: its secret query parameters and its `Authorization` header, in a
    /// stable order. Never printed or stored; a cache names answers by a digest of them.
    var secretValues: [String] {
        var values: [String] = []
        if !secretQueryNames.isEmpty, let items = URLComponents(string: url)?.queryItems {
            values += items.filter { secretQueryNames.contains($0.name) }.map { "\($0.name)=\($0.value ?? "")" }
        }
        if let authorization = headers.first(where: { $0.key.lowercased() == "authorization" })?.value {
            values.append("authorization=\(authorization)")
        }
        return values
    }
}

/// A complete HTTP response (after redirects) with its body in memory.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header fields of the final response, names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]
    public var effectiveURL: String
    /// New connections this transfer had to open (0 when it reused one).
    public var connectionsOpened: Int

    public init(
        status: Int, headers: [String: String] = [:], body: [UInt8], effectiveURL: String, connectionsOpened: Int = 0
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.effectiveURL = effectiveURL
        self.connectionsOpened = connectionsOpened
    }

    /// The body as text (invalid UTF-8 replaced), trimmed, for error messages.
    public var bodyText: String {
        String(decoding: body.prefix(2_000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why a transfer produced no usable response.
public enum FetchError: UserFacingError, Equatable {
    /// The host could not be reached, the connection broke, or it timed out.
    case transport(url: String, reason: String)
    /// The body was larger than the request allowed.
    case tooLarge(url: String, limit: Int)
    /// The URL's scheme is not http or https, or it is not a URL at all.
    case refusedURL(url: String)
    /// The server asked for a wait (`Retry-After`, a spent rate budget) longer than the longest one made.
    case waitTooLong(url: String, seconds: Int, limit: Int)
    case cancelled

    public var sentence: String {
        switch self {
        case .transport(let url, let reason): "Could not fetch \(url): \(reason)."
        case .tooLarge(let url, let limit):
            "The response from \(url) is larger than the limit of \(FileSize.describe(limit))."
        case .refusedURL(let url): "Refused to fetch \(url): only http and https URLs are fetched."
        case .waitTooLong(let url, let seconds, let limit):
            "\(url) asked Vitrine to wait \(Self.describe(seconds: seconds)) before asking again, longer than the "
                + "\(Self.describe(seconds: limit)) it waits at most; try again later."
        case .cancelled: "The transfer was cancelled."
        }
    }

    public var exitStatus: ExitStatus { .unavailable }

    /// A wait in the largest unit that keeps it readable: "45 s", "5 min", "3 h 20 min", "2 days".
    static func describe(seconds: Int) -> String {
        switch seconds {
        case ..<120: "\(seconds) s"
        case ..<7200: "\(seconds / 60) min"
        case ..<172_800: "\(seconds / 3600) h" + (seconds % 3600 >= 60 ? " \(seconds % 3600 / 60) min" : "")
        default: "\(seconds / 86_400) days"
        }
    }
}

extension FetchError {
    /// A few words for a placeholder tile.
    var shortReason: String {
        switch self {
        case .transport(_, let reason): reason
        case .tooLarge(_, let limit): "larger than \(FileSize.describe(limit))"
        case .refusedURL: "not an http(s) URL"
        case .waitTooLong(_, let seconds, _): "asked to wait \(Self.describe(seconds: seconds))"
        case .cancelled: "cancelled"
        }
    }
}

/// Anything that performs HTTP GET requests: the libcurl transfer engine, or a stand-in in tests.
public protocol HTTPFetching: Sendable {
    func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse
}
