import Foundation
import VitrineBasics

/// One GET request, with the names of query parameters that carry secrets and must never be shown or stored.
public struct FetchRequest: Sendable, Hashable {
    /// The URL to fetch, secrets included: show or store `publicURL` instead.
    public var url: String
    /// Header fields to send; an `Authorization` value counts as a secret.
    public var headers: [String: String]
    /// Query parameter names whose values are secrets (`key` for Pixabay).
    package var secretQueryNames: Set<String>
    /// The largest body accepted; a larger one fails the transfer.
    public var maximumBodyBytes: Int
    /// The budget per key that every attempt at this request counts against, across runs (Flickr's 3,600 an hour).
    package var quota: RequestQuota?

    package init(
        url: String, headers: [String: String] = [:], secretQueryNames: Set<String> = [],
        maximumBodyBytes: Int = 32 << 20, quota: RequestQuota? = nil
    ) {
        self.url = url
        self.headers = headers
        self.secretQueryNames = secretQueryNames
        self.maximumBodyBytes = maximumBodyBytes
        self.quota = quota
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
    package var secretValues: [String] {
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

/// A limit an API sets on the requests one key may make in a window of time, which a client must keep to across
/// runs (Flickr: "stay under 3,600 queries per hour per key"). The key is the request's secrets.
///
/// Public because `RequestQuotaLedger` names it; its members are the package's own.
public struct RequestQuota: Sendable, Hashable {
    /// The API's name, for messages and the ledger's file name.
    package var service: String
    package var limit: Int
    package var window: Duration

    package init(service: String, limit: Int, window: Duration) {
        self.service = service
        self.limit = max(1, limit)
        self.window = window
    }

    /// "3,600 requests an hour".
    var rate: String {
        let count = limit.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        let seconds = Int(window.components.seconds)
        let span =
            switch seconds {
            case 3600: "an hour"
            case 60: "a minute"
            case 86_400: "a day"
            default: "per \(FetchError.describe(seconds: seconds))"
            }
        return "\(count) requests \(span)"
    }
}

/// Keeps the count of requests made against each ``RequestQuota``, shared by every run on the machine.
public protocol RequestQuotaLedger: Sendable {
    /// Counts one request of `request` at `now` and returns nil when its quota allows it; otherwise counts nothing
    /// and returns how long until it does.
    func take(_ request: FetchRequest, quota: RequestQuota, now: Date) async -> Duration?
}

/// A complete HTTP response (after redirects) with its body in memory.
public struct FetchResponse: Sendable {
    /// The HTTP status of the final response, after redirects.
    public var status: Int
    /// Header fields of the final response, names lowercased.
    public var headers: [String: String]
    /// The whole body, never larger than the request's `maximumBodyBytes`.
    public var body: [UInt8]
    /// The URL that answered, after redirects.
    public var effectiveURL: String
    /// New connections this transfer had to open (0 when it reused one).
    var connectionsOpened: Int

    /// A response as a fetcher hands it back, for an `HTTPFetching` of one's own (a stand-in in tests).
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
    package var bodyText: String {
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
    /// `url` redirected to `target`, whose scheme is not http or https; `target` has the request's secrets removed.
    case refusedRedirect(url: String, target: String)
    /// The transfer had not finished after `limit` seconds in all (connecting, redirects and body), however steadily
    /// it was moving.
    case timedOut(url: String, limit: Int)
    /// The server asked for a wait (`Retry-After`, a spent rate budget) longer than the longest one made.
    case waitTooLong(url: String, seconds: Int, limit: Int)
    /// The key has used up its quota (``RequestQuota``) and the wait for the next request is longer than the longest
    /// one made.
    case quotaSpent(service: String, rate: String, seconds: Int)
    /// No request can be made in this process: libcurl could not be loaded or initialised (`reason`).
    case httpUnavailable(reason: String)
    case cancelled

    /// Names the URL without its secrets and, for a wait or a spent quota, when to try again.
    public var sentence: String {
        switch self {
        case .transport(let url, let reason): "Could not fetch \(url): \(reason)."
        case .tooLarge(let url, let limit):
            "The response from \(url) is larger than the limit of \(FileSize.describe(limit))."
        case .refusedURL(let url): "Refused to fetch \(url): only http and https URLs are fetched."
        case .refusedRedirect(let url, let target):
            "Refused to follow the redirect from \(url) to \(target): only http and https URLs are fetched."
        case .timedOut(let url, let limit):
            "Gave up on \(url): it had not finished after \(Self.describe(seconds: limit)), the longest a transfer "
                + "may take."
        case .waitTooLong(let url, let seconds, let limit):
            "\(url) asked Vitrine to wait \(Self.describe(seconds: seconds)) before asking again, longer than the "
                + "\(Self.describe(seconds: limit)) it waits at most; try again later."
        case .quotaSpent(let service, let rate, let seconds):
            "\(service) allows \(rate) per API key, and this key has made them all; the next is allowed in "
                + "\(Self.describe(seconds: seconds)), so try again then."
        case .httpUnavailable(let reason):
            "Vitrine cannot make HTTP requests: \(reason); install Debian's libcurl4 package."
        case .cancelled: "The transfer was cancelled."
        }
    }

    /// Always `.unavailable`: the same request later may succeed.
    public var kind: FailureKind { .unavailable }

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
    package var shortReason: String {
        switch self {
        case .transport(_, let reason): reason
        case .tooLarge(_, let limit): "larger than \(FileSize.describe(limit))"
        case .refusedURL: "not an http(s) URL"
        case .refusedRedirect: "redirected to a URL that is not http(s)"
        case .timedOut(_, let limit): "took longer than \(Self.describe(seconds: limit))"
        case .waitTooLong(_, let seconds, _): "asked to wait \(Self.describe(seconds: seconds))"
        case .quotaSpent(let service, _, _): "\(service)'s request quota is spent"
        case .httpUnavailable(let reason): reason
        case .cancelled: "cancelled"
        }
    }
}

/// Anything that performs HTTP GET requests: the libcurl transfer engine, or a stand-in in tests.
public protocol HTTPFetching: Sendable {
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse
    /// How many transfers it runs at once: more requests than that wait their turn, holding what their callers
    /// keep for them.
    var concurrentTransfers: Int { get }
}

extension HTTPFetching {
    /// Eight, for a fetcher that does not say.
    public var concurrentTransfers: Int { 8 }
}
