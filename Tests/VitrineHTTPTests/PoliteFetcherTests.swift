import Foundation
import Synchronization
import Testing
import VitrineTestSupport

@testable import VitrineHTTP

@Suite struct PoliteFetcherTests {
    /// A fetcher that answers from a script, one answer per call, and records the waits it was asked to make; its
    /// clock moves on by each wait, and by nothing else.
    final class Script: Sendable {
        let answers: Mutex<[Result<FetchResponse, FetchError>]>
        let waits = Mutex<[Duration]>([])
        let calls = Mutex(0)
        let origin = ContinuousClock.now

        init(_ answers: [Result<FetchResponse, FetchError>]) { self.answers = Mutex(answers) }

        func fetcher(retries: Int = 3) -> PoliteFetcher {
            let base = FakeFetcher { [self] _ in
                calls.withLock { $0 += 1 }
                return answers.withLock { $0.isEmpty ? .failure(.cancelled) : $0.removeFirst() }
            }
            return PoliteFetcher(
                base, policy: RetryPolicy(retries: retries, baseDelay: .milliseconds(100), maximumDelay: .seconds(1)),
                sleep: { [self] duration in waits.withLock { $0.append(duration) } }, random: { 1 },
                instant: { [self] in origin + waits.withLock { $0.reduce(.zero, +) } })
        }
    }

    static func response(_ status: Int, _ headers: [String: String] = [:]) -> Result<FetchResponse, FetchError> {
        .success(FetchResponse(status: status, headers: headers, body: [], effectiveURL: "http://h/"))
    }

    let request = FetchRequest(url: "http://h/api/")

    @Test func retriesTransientFailuresWithGrowingBackoff() async throws {
        let script = Script([.failure(.transport(url: "u", reason: "reset")), Self.response(503), Self.response(200)])
        let response = try await script.fetcher().fetch(request)
        #expect(response.status == 200)
        #expect(script.waits.withLock { $0 } == [.milliseconds(100), .milliseconds(200)])
    }

    @Test func givesUpAfterTheConfiguredRetries() async throws {
        let script = Script(Array(repeating: Self.response(500), count: 10))
        let response = try await script.fetcher(retries: 2).fetch(request)
        #expect(response.status == 500)
        #expect(script.calls.withLock { $0 } == 3)
    }

    @Test func neverRetriesOtherClientErrorsOrRefusals() async throws {
        let script = Script([Self.response(400), Self.response(200)])
        #expect(try await script.fetcher().fetch(request).status == 400)
        let refused = Script([.failure(.refusedURL(url: "file:///x")), Self.response(200)])
        await #expect(throws: FetchError.refusedURL(url: "file:///x")) { try await refused.fetcher().fetch(request) }
        #expect(refused.calls.withLock { $0 } == 1)
    }

    @Test(arguments: ["86400", "99999999999999999999999", "Fri, 31 Dec 2100 23:59:59 GMT"])
    func aWaitLongerThanTheLongestMadeFailsAtOnceSayingHowLong(retryAfter: String) async throws {
        let script = Script([Self.response(429, ["retry-after": retryAfter]), Self.response(200)])
        await #expect {
            try await script.fetcher().fetch(request)
        } throws: { error in
            guard case .waitTooLong(_, let seconds, let limit)? = error as? FetchError else { return false }
            return seconds >= 86_400 && limit == 300
                && (error as? FetchError)?.sentence.contains("longer than the 5 min it waits at most") == true
        }
        #expect(script.waits.withLock { $0 }.isEmpty && script.calls.withLock { $0 } == 1)
    }

    @Test(arguments: ["soon", "-5", "Tomorrow-ish"])
    func anUnreadableRetryAfterWaitsTheBackoffNotAMinute(retryAfter: String) async throws {
        let script = Script(
            Array(repeating: Self.response(429, ["retry-after": retryAfter]), count: 3) + [Self.response(200)])
        #expect(try await script.fetcher().fetch(request).status == 200)
        let waits = script.waits.withLock { $0 }
        #expect(waits.count == 3 && waits.allSatisfy { $0 <= .seconds(1) }, "\(waits)")
    }

    @Test func honoursRetryAfterInSeconds() async throws {
        let script = Script([Self.response(429, ["retry-after": "7"]), Self.response(200)])
        #expect(try await script.fetcher().fetch(request).status == 200)
        #expect(script.waits.withLock { $0 }.first == .seconds(7))
    }

    @Test func retryAfterOutranksTheResetHeaderOnA429() async throws {
        let limited = Self.response(429, ["retry-after": "2", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "60"])
        let script = Script([limited, Self.response(200), Self.response(200)])
        let fetcher = script.fetcher()
        _ = try await fetcher.fetch(request)
        _ = try await fetcher.fetch(request)
        #expect(script.waits.withLock { $0 }.allSatisfy { $0 <= .seconds(2) })
    }

    /// A `Retry-After` date is the server's real time: it is read on the fetcher's wall clock, which a build as of
    /// another time (`--now`) does not move, so a date ten seconds ahead is a wait of ten seconds, not of years.
    @Test func anHTTPDateRetryAfterIsReadOnTheFetchersWallClock() async throws {
        let script = Script([Self.response(429, ["retry-after": "Sun, 06 Nov 1994 08:49:47 GMT"]), Self.response(200)])
        let fetcher = PoliteFetcher(
            FakeFetcher { _ in script.answers.withLock { $0.removeFirst() } }, policy: RetryPolicy(retries: 1),
            sleep: { duration in script.waits.withLock { $0.append(duration) } },
            now: { Date(timeIntervalSince1970: 784_111_777) },
            instant: { script.origin + script.waits.withLock { $0.reduce(.zero, +) } })
        #expect(try await fetcher.fetch(request).status == 200)
        #expect(script.waits.withLock { $0 } == [.seconds(10)])
    }

    @Test func readsRetryAfterAsAnHTTPDate() throws {
        let now = Date(timeIntervalSince1970: 784_111_777)
        #expect(PoliteFetcher.retryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .zero)
        #expect(PoliteFetcher.retryAfter("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == .seconds(30))
        #expect(PoliteFetcher.retryAfter("soon", now: now) == nil)
        #expect(PoliteFetcher.retryAfter("-3", now: now) == nil)
    }

    @Test func waitsForTheBudgetToResetInsteadOfRunningPastIt() async throws {
        let spent = Self.response(
            200, ["x-ratelimit-limit": "100", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "0.3"])
        let script = Script([spent, Self.response(200)])
        let fetcher = script.fetcher()
        _ = try await fetcher.fetch(request)
        #expect(script.waits.withLock { $0 }.isEmpty)
        _ = try await fetcher.fetch(request)
        #expect(script.waits.withLock { $0 } == [.milliseconds(300)], "the second request went before the reset")
    }

    /// An API that allows `limit` requests a window of `clock`, as Pixabay does, and answers the ones past it with
    /// 429.
    final class RateLimitedAPI: Sendable {
        let limit: Int
        let window: Duration
        let clock: VirtualClock
        private let state: Mutex<(start: ContinuousClock.Instant, count: Int, refused: Int, served: Int)>

        init(limit: Int, window: Duration, clock: VirtualClock) {
            self.limit = limit
            self.window = window
            self.clock = clock
            state = Mutex((clock.now, 0, 0, 0))
        }

        var refused: Int { state.withLock { $0.refused } }
        var served: Int { state.withLock { $0.served } }

        func answer() -> Result<FetchResponse, FetchError> {
            state.withLock { state in
                let now = clock.now
                if now - state.start >= window { state = (now, 0, state.refused, state.served) }
                state.count += 1
                let reset = String(Double((state.start + window - now).components.attoseconds) / 1e18)
                let headers = [
                    "x-ratelimit-limit": String(limit), "x-ratelimit-remaining": String(max(0, limit - state.count)),
                    "x-ratelimit-reset": reset,
                ]
                if state.count > limit {
                    state.refused += 1
                    return PoliteFetcherTests.response(429, headers)
                }
                state.served += 1
                return PoliteFetcherTests.response(200, headers)
            }
        }
    }

    /// The API behind a network: a request is in flight until every task on the API's clock sleeps or is in flight
    /// too, so requests sent at one moment reach the API together, as they do when a window opens.
    struct Network: HTTPFetching {
        let api: RateLimitedAPI

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
            await api.clock.sleep(for: .zero)
            return try api.answer().get()
        }
    }

    /// Issue 14: after a wait every waiter went at once, running past the budget of the new window. The API and the
    /// fetcher share a clock that moves on only when every waiter sleeps, so the windows pass in the same order
    /// however slowly the machine runs.
    @Test func manyWaitersShareANewWindowWithoutRunningPastIt() async throws {
        let clock = VirtualClock()
        let api = RateLimitedAPI(limit: 2, window: .milliseconds(300), clock: clock)
        let fetcher = PoliteFetcher(
            Network(api: api), policy: RetryPolicy(retries: 0), sleep: { await clock.sleep(for: $0) },
            instant: { clock.now })
        // One request tells the budget: one left in this window.
        clock.enter()
        #expect(try await fetcher.fetch(request).status == 200)
        clock.leave()
        clock.enter(7)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<7 {
                group.addTask {
                    defer { clock.leave() }
                    return try await fetcher.fetch(self.request).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 7), "\(statuses)")
        #expect(api.refused == 0 && api.served == 8)
    }

    @Test func anAPIsSpentBudgetDoesNotHoldUpImagesFromTheSameHost() async throws {
        let spent = Self.response(
            200, ["x-ratelimit-limit": "100", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "30"])
        let script = Script([spent, Self.response(200), Self.response(200)])
        let fetcher = script.fetcher()
        _ = try await fetcher.fetch(FetchRequest(url: "http://h/api/?q=a"))
        _ = try await fetcher.fetch(FetchRequest(url: "http://h/get/g1_640.jpg"))
        _ = try await fetcher.fetch(FetchRequest(url: "http://h:8080/api/?q=a"))
        #expect(script.waits.withLock { $0 }.isEmpty)
        #expect(PoliteFetcher.budgetKey("https://pixabay.com/api/?key=k&q=a") == "pixabay.com:/api/")
        #expect(PoliteFetcher.budgetKey("https://pixabay.com/get/x.jpg") == "pixabay.com:/get/")
        #expect(PoliteFetcher.budgetKey("http://h:8717/services/rest/?method=m") == "h:8717/services/rest/")
    }

    /// A ledger that refuses with the given waits, one per call, then allows.
    final class ScriptedLedger: RequestQuotaLedger {
        let waits: Mutex<[Duration]>
        let takes = Mutex(0)
        init(_ waits: [Duration]) { self.waits = Mutex(waits) }
        func take(_ request: FetchRequest, quota: RequestQuota, now: Date) async -> Duration? {
            takes.withLock { $0 += 1 }
            return waits.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }

    static let quotaRequest = FetchRequest(
        url: "http://h/rest/?api_key=k", secretQueryNames: ["api_key"],
        quota: RequestQuota(service: "Flickr", limit: 3600, window: .seconds(3600)))

    @Test func everyAttemptOfAQuotaRequestIsCountedAndASpentQuotaIsWaitedFor() async throws {
        let script = Script([Self.response(503), Self.response(200)])
        let ledger = ScriptedLedger([.seconds(40)])
        let waits = Mutex<[Duration]>([])
        let fetcher = PoliteFetcher(
            FakeFetcher { _ in script.answers.withLock { $0.isEmpty ? .failure(.cancelled) : $0.removeFirst() } },
            policy: RetryPolicy(retries: 2, baseDelay: .milliseconds(100)), quotas: ledger,
            sleep: { duration in waits.withLock { $0.append(duration) } }, random: { 1 })
        #expect(try await fetcher.fetch(Self.quotaRequest).status == 200)
        // The wait for the quota, the retry's backoff; then one take per attempt (the refused one counted nothing).
        #expect(waits.withLock { $0 } == [.seconds(40), .milliseconds(100)])
        #expect(ledger.takes.withLock { $0 } == 3)
        // A request without a quota never asks the ledger.
        _ = try? await fetcher.fetch(request)
        #expect(ledger.takes.withLock { $0 } == 3)
    }

    @Test func aQuotaSpentForLongerThanTheLongestWaitFailsAtOnceSayingWhen() async throws {
        let ledger = ScriptedLedger([.seconds(42 * 60)])
        let calls = Mutex(0)
        let fetcher = PoliteFetcher(
            FakeFetcher { _ in
                calls.withLock { $0 += 1 }
                return Self.response(200)
            }, quotas: ledger, sleep: { _ in Issue.record("no wait expected") })
        await #expect {
            try await fetcher.fetch(Self.quotaRequest)
        } throws: { error in
            (error as? FetchError)?.sentence
                == "Flickr allows 3,600 requests an hour per API key, and this key has made them all; the next is "
                + "allowed in 42 min, so try again then."
        }
        #expect(calls.withLock { $0 } == 0)
    }

    @Test func backoffIsCappedAndJittered() {
        let policy = RetryPolicy(retries: 10, baseDelay: .milliseconds(500), maximumDelay: .seconds(30))
        #expect(policy.backoff(attempt: 1, random: 1) == .milliseconds(500))
        #expect(policy.backoff(attempt: 1, random: 0) == .milliseconds(250))
        #expect(policy.backoff(attempt: 12, random: 1) == .seconds(30))
    }
}
