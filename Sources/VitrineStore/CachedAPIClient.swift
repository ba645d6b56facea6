import Foundation
import Synchronization
import VitrineBasics
import VitrineHTTP

/// When cached API responses may stand in for the network.
public struct CachePolicy: Sendable {
    /// How long a stored response counts as fresh (Pixabay requires 24 hours of caching).
    public var maximumAge: TimeInterval
    /// Use only the cache; never touch the network.
    public var offline: Bool
    /// Ignore freshness and ask the API again (an offline run still uses the cache).
    public var refresh: Bool

    /// By default an answer is fresh for 24 hours, and the network may be asked.
    public init(maximumAge: TimeInterval = 24 * 60 * 60, offline: Bool = false, refresh: Bool = false) {
        self.maximumAge = maximumAge
        self.offline = offline
        self.refresh = refresh
    }

    /// Whether an answer fetched at `fetchedAt` is still fresh at `now` (the build's clock): younger than
    /// `maximumAge`, and not dated after `now`. An answer stored "in the future" (a clock set back since, or a
    /// build as of an earlier time than the one that stored it) would otherwise look fresh for as long as the clock
    /// stays behind, however old it really is; it is asked for again instead. The second of leeway is for a stored
    /// time read back a hair off (seconds since 1970 as a decimal), not for clocks apart.
    package func isFresh(fetchedAt: Date, now: Date) -> Bool {
        let age = now.timeIntervalSince(fetchedAt)
        return age > -1 && age < maximumAge
    }
}

/// An API response as a source sees it, with where it came from.
///
/// Public because the sources' requirements name it; its members are the package's own, so a program embedding
/// Vitrine hands it along without reading or making one.
public struct APIResponse: Sendable {
    package var status: Int
    package var body: [UInt8]
    package var fetchedAt: Date
    package var fromCache: Bool

    /// The network failed and this older copy from the cache stands in for a fresh answer.
    package var stale = false

    package init(status: Int, body: [UInt8], fetchedAt: Date, fromCache: Bool, stale: Bool = false) {
        self.status = status
        self.body = body
        self.fetchedAt = fetchedAt
        self.fromCache = fromCache
        self.stale = stale
    }

    package var bodyText: String {
        String(decoding: body.prefix(2_000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// How sources load API responses; the pipeline gives them a cache in front of the network.
///
/// Public because `ImageSource` and `RandomImageSource` name it; only the package conforms to it.
public protocol APIResponseLoading: Sendable {
    func load(_ request: FetchRequest) async throws -> APIResponse
    /// Loads the answer to `request` and reads it with `decode`. Only an answer that `decode` accepts may be kept
    /// in a cache: a rejection the API sends as a success (Flickr's `"stat": "fail"`, an HTML page served with 200)
    /// is never taken for an answer on a later run.
    func load<Value>(_ request: FetchRequest, decode: (APIResponse) throws -> Value) async throws -> Value
}

extension APIResponseLoading {
    package func load<Value>(_ request: FetchRequest, decode: (APIResponse) throws -> Value) async throws -> Value {
        try decode(try await load(request))
    }
}

/// Nothing usable is cached for a request that may not go to the network.
public struct NothingCachedError: UserFacingError {
    /// The URL of the request, without its secrets.
    public let url: String
    /// Names the URL and says the run may not use the network.
    public var sentence: String {
        "Nothing is cached for \(url), and this run may not use the network; run once online first."
    }
    /// Always `.nothingCached`: a run that may use the network would fetch it.
    public var kind: FailureKind { .nothingCached }
}

/// Loads API responses from the cache while they are fresh and from the network otherwise, storing the successes
/// that decode into results. Cached answers are filed under the public URL and a one-way digest of the request's
/// secrets (the key), never the secrets themselves, so that an answer given to one key is never served to another.
package final class CachedAPIClient: APIResponseLoading {
    /// Counters for the run summary.
    package struct Counters: Sendable, Equatable {
        package var requests = 0
        package var cacheHits = 0
        /// Responses served from an older cache copy because the network failed.
        var staleFallbacks = 0
        /// When the oldest of those copies was fetched.
        package var staleSince: Date?
        /// Why the first of those requests failed, in a few words ("HTTP 503", "Flickr's request quota is spent").
        package var staleReason: String?
    }

    private let fetcher: any HTTPFetching
    private let cache: CacheStore
    private let policy: CachePolicy
    private let now: @Sendable () -> Date
    private let maximumResponseBytes: Int
    private let counts = Mutex(Counters())
    /// The cached responses served, by cache path; nil once an answer was served that the cache does not hold as
    /// it was served.
    private let used = Mutex<[String: CachedResponseUse]?>([:])

    package init(
        fetcher: any HTTPFetching, cache: CacheStore, policy: CachePolicy, maximumResponseBytes: Int = 16 << 20,
        now: @escaping @Sendable () -> Date
    ) {
        self.fetcher = fetcher
        self.cache = cache
        self.policy = policy
        self.maximumResponseBytes = maximumResponseBytes
        self.now = now
    }

    package var counters: Counters { counts.withLock { $0 } }

    /// Every response this client served, as the cache holds it, for a later build to check that they are unchanged;
    /// nil when one answer is not in the cache as it was served (an error status, or an older copy standing in for
    /// a failed request), so that a rebuild cannot stand on the cache alone.
    package var responsesUsed: [CachedResponseUse]? {
        used.withLock { $0.map { $0.values.sorted { $0.path < $1.path } } }
    }

    /// Records that the answer to `request` was served as the cache holds it, in the files with `stamps`: both the
    /// record and the body, so that a later build sees a change to either.
    private func use(_ request: FetchRequest, stamps: CacheStore.ResponseStamps?, fetchedAt: Date) {
        let paths = cache.responsePaths(for: request)
        used.withLock { used in
            guard used != nil else { return }
            guard let stamps else { return used = nil }
            used?[paths.record] = CachedResponseUse(path: paths.record, stamp: stamps.record, fetchedAt: fetchedAt)
            used?[paths.body] = CachedResponseUse(path: paths.body, stamp: stamps.body, fetchedAt: fetchedAt)
        }
    }

    package func load(_ request: FetchRequest) async throws -> APIResponse {
        try await load(request) { $0 }
    }

    package func load<Value>(_ request: FetchRequest, decode: (APIResponse) throws -> Value) async throws -> Value {
        var request = request
        request.maximumBodyBytes = min(request.maximumBodyBytes, maximumResponseBytes)
        let stamped = cache.stampedResponse(for: request)
        let stored = stamped?.response
        if let stamped, let stored {
            let fresh = policy.isFresh(fetchedAt: stored.fetchedAt, now: now()) && !policy.refresh
            if fresh || policy.offline {
                let cached = APIResponse(
                    status: stored.status, body: stored.body, fetchedAt: stored.fetchedAt, fromCache: true)
                do {
                    let value = try decode(cached)
                    counts.withLock { $0.cacheHits += 1 }
                    use(request, stamps: stamped.stamps, fetchedAt: stored.fetchedAt)
                    return value
                } catch {
                    // A copy that does not decode (kept by an earlier version) is no answer: ask again.
                    if policy.offline { throw error }
                }
            }
        } else if policy.offline {
            throw NothingCachedError(url: request.publicURL)
        }
        counts.withLock { $0.requests += 1 }
        let response: FetchResponse
        do {
            response = try await fetcher.fetch(request)
        } catch .cancelled {
            throw CancellationError()
        } catch {
            if let stored { return try decode(fallBack(to: stored, because: error.shortReason)) }
            throw error
        }
        if let stored, response.status == 429 || (500...599).contains(response.status) {
            return try decode(fallBack(to: stored, because: "HTTP \(response.status)"))
        }
        let fetchedAt = now()
        let value = try decode(
            APIResponse(status: response.status, body: response.body, fetchedAt: fetchedAt, fromCache: false))
        if (200..<300).contains(response.status) {
            try cache.store(response, for: request, at: fetchedAt)
            use(request, stamps: cache.responseStamps(for: request), fetchedAt: fetchedAt)
        } else {
            used.withLock { $0 = nil }
        }
        return value
    }

    private func fallBack(to stored: CacheStore.StoredResponse, because reason: String) -> APIResponse {
        used.withLock { $0 = nil }
        counts.withLock { counters in
            counters.staleReason = counters.staleReason ?? reason
            counters.staleFallbacks += 1
            counters.staleSince = min(counters.staleSince ?? stored.fetchedAt, stored.fetchedAt)
        }
        return APIResponse(
            status: stored.status, body: stored.body, fetchedAt: stored.fetchedAt, fromCache: true, stale: true)
    }
}

/// A cached API response a build read, as it was on disk, so that the next build can tell with one `stat` whether
/// the cache still holds the same answer.
package struct CachedResponseUse: Equatable, Sendable {
    /// Relative to the cache root.
    package var path: String
    package var stamp: FileStamp
    package var fetchedAt: Date

    package init(path: String, stamp: FileStamp, fetchedAt: Date) {
        self.path = path
        self.stamp = stamp
        self.fetchedAt = fetchedAt
    }
}
