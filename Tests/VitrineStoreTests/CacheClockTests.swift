import Foundation
import Synchronization
import Testing
import VitrineTestSupport

@testable import VitrineHTTP
@testable import VitrineStore

/// An answer's age is read on the clock the client is given, the build's, whichever way that clock moved since
/// the answer was stored.
@Suite struct CacheClockTests {
    let request = FetchRequest(url: "http://127.0.0.1:1/api/?q=Hamburg")

    /// A client whose clock reads `now`.
    func client(_ cache: CacheStore, _ fetcher: FakeFetcher, at now: @escaping @Sendable () -> Date)
        -> CachedAPIClient
    {
        CachedAPIClient(fetcher: fetcher, cache: cache, policy: CachePolicy(), now: now)
    }

    @Test func anAnswerIsFreshForADayOfTheGivenClockAndAskedAgainAfter() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let fetcher = FakeFetcher { .success(FetchResponse(status: 200, body: Array("{}".utf8), effectiveURL: $0.url)) }
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let now: @Sendable () -> Date = { clock.withLock { $0 } }
        for day in 0..<3 {
            clock.withLock { $0 = Date(timeIntervalSince1970: 1_800_000_000 + Double(day) * 86_400) }
            _ = try await client(cache, fetcher, at: now).load(request)
            clock.withLock { $0 += 23 * 3600 }
            #expect(try await client(cache, fetcher, at: now).load(request).fromCache)
            #expect(fetcher.requests.count == day + 1)
        }
    }

    /// A clock set back before the answer was stored (a build as of an earlier `--now`) does not make it fresh
    /// until the clock catches up, however long ago it was really fetched: it is asked for again, and stored with
    /// the time it was asked at.
    @Test func anAnswerStoredAfterTheClocksTimeIsAskedForAgain() async throws {
        let folder = try TemporaryFolder()
        let cache = CacheStore(root: folder.url)
        let fetcher = FakeFetcher { .success(FetchResponse(status: 200, body: Array("{}".utf8), effectiveURL: $0.url)) }
        let clock = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
        let now: @Sendable () -> Date = { clock.withLock { $0 } }
        _ = try await client(cache, fetcher, at: now).load(request)
        clock.withLock { $0 -= 3600 }
        let earlier = try await client(cache, fetcher, at: now).load(request)
        #expect(!earlier.fromCache && fetcher.requests.count == 2)
        #expect(cache.storedResponse(for: request)?.fetchedAt == Date(timeIntervalSince1970: 1_800_000_000 - 3600))
        #expect(try await client(cache, fetcher, at: now).load(request).fromCache)
        #expect(fetcher.requests.count == 2)
    }
}
