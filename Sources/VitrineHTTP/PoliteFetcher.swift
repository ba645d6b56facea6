import Foundation
import Synchronization
import VitrineBasics

/// How hard to try before giving up on a request.
public struct RetryPolicy: Sendable {
    /// Further attempts after the first one.
    public var retries: Int
    /// The first backoff; each later one doubles, with jitter, up to `maximumDelay`.
    var baseDelay: Duration
    var maximumDelay: Duration
    /// The longest Retry-After or rate-limit wait honoured; a longer one fails the request.
    var maximumWait: Duration

    /// By default: 4 retries, backoff from 0.5 s doubling up to 30 s, and server-asked waits of up to 5 minutes.
    public init(
        retries: Int = 4, baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30),
        maximumWait: Duration = .seconds(300)
    ) {
        self.retries = max(0, retries)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumWait = maximumWait
    }

    /// The wait before attempt `attempt` (1 for the first retry): exponential, with half of it random.
    func backoff(attempt: Int, random: Double) -> Duration {
        let exponential = baseDelay * (1 << min(attempt - 1, 20))
        let capped = min(exponential, maximumDelay)
        return capped * (0.5 + 0.5 * min(max(random, 0), 1))
    }
}

/// Wraps a fetcher with what real APIs expect of a polite client: retries of transient failures with backoff and
/// jitter, `Retry-After` on 429, and a request budget per host and path folder read from `X-RateLimit-*` headers.
public final class PoliteFetcher: HTTPFetching {
    /// Something worth telling the user while it happens.
    public enum Event: Sendable {
        case waiting(seconds: Int, reason: String)
        case retrying(url: String, attempt: Int, reason: String)
    }

    /// What the API said of its rate limit for one host and path folder, and what was spent of it since.
    private struct Budget {
        /// Requests one window allows (`X-RateLimit-Limit`).
        var limit: Int?
        var remaining: Int?
        var resetAt: ContinuousClock.Instant?
        /// The longest time to a reset the API reported: how long a new window is taken to last until an answer
        /// says otherwise.
        var window: Duration = .seconds(60)
        /// Until when a 429 asked for no request at all (its `Retry-After`), whatever the count says.
        var blockedUntil: ContinuousClock.Instant?
    }

    private let base: any HTTPFetching
    private let policy: RetryPolicy
    private let events: @Sendable (Event) -> Void
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double
    private let budgets = Mutex<[String: Budget]>([:])
    /// The clock of rate budgets; tests give one that their `sleep` moves on.
    private let instant: @Sendable () -> ContinuousClock.Instant
    private let quotas: (any RequestQuotaLedger)?
    /// The real time of day, never a build's clock moved by `--now`: the quota ledger counts requests really sent,
    /// across runs, and a `Retry-After` date is the server's real time. Compared with a moved clock, a date a
    /// minute ahead would read as a wait of years (a `--now` in the past, and the request fails as asking too long
    /// a wait) or as none at all (one in the future, and the server is asked again at once); a build as of another
    /// day must not spend or skip another day's quota either.
    private let now: @Sendable () -> Date

    /// `quotas` keeps the count of requests that carry a ``RequestQuota`` across runs; without it they are not
    /// counted.
    public init(
        _ base: any HTTPFetching, policy: RetryPolicy = .init(), quotas: (any RequestQuotaLedger)? = nil,
        events: @escaping @Sendable (Event) -> Void = { _ in },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        now: @escaping @Sendable () -> Date = WallClock.system,
        instant: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.instant = instant
        self.base = base
        self.policy = policy
        self.quotas = quotas
        self.events = events
        self.sleep = sleep
        self.random = random
        self.now = now
    }

    /// As many as the fetcher it wraps.
    public var concurrentTransfers: Int { base.concurrentTransfers }

    /// Fetches `request` through the wrapped fetcher, first waiting for the host's rate budget and the key's quota, then
    /// retrying connection failures, timeouts, 5xx and 429 answers as the policy allows.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let host = Self.budgetKey(request.url)
        var attempt = 0
        while true {
            try await waitForBudget(host: host, url: request.publicURL)
            try await waitForQuota(of: request)
            let outcome: Result<FetchResponse, FetchError>
            do {
                outcome = .success(try await base.fetch(request))
            } catch {
                outcome = .failure(error)
            }
            if case .success(let response) = outcome { record(response, host: host) }
            guard let delay = try retryDelay(for: outcome, attempt: attempt + 1, url: request.publicURL) else {
                return try outcome.get()
            }
            attempt += 1
            let reason = Self.describe(outcome)
            if delay.wait > .seconds(1) || delay.rateLimited {
                events(.waiting(seconds: delay.wait.wholeSecondsRoundedUp, reason: reason))
            }
            events(.retrying(url: request.publicURL, attempt: attempt, reason: reason))
            do {
                try await sleep(delay.wait)
            } catch {
                throw .cancelled
            }
        }
    }

    private struct Delay {
        var wait: Duration
        var rateLimited: Bool
    }

    /// How long to wait before trying again, or nil to stop; a wait the server asks for that is longer than the
    /// policy's longest fails the request at once, saying how long was asked.
    private func retryDelay(for outcome: Result<FetchResponse, FetchError>, attempt: Int, url: String)
        throws(FetchError) -> Delay?
    {
        guard attempt <= policy.retries else { return nil }
        switch outcome {
        case .failure(.transport):
            return Delay(wait: policy.backoff(attempt: attempt, random: random()), rateLimited: false)
        case .failure:
            return nil
        case .success(let response) where response.status == 429:
            let asked = Self.retryAfter(response.headers["retry-after"], now: now())
            let wait = asked ?? policy.backoff(attempt: attempt, random: random())
            guard wait <= policy.maximumWait else { throw tooLong(wait, url: url) }
            return Delay(wait: max(wait, .milliseconds(100)), rateLimited: true)
        case .success(let response) where (500...599).contains(response.status):
            return Delay(wait: policy.backoff(attempt: attempt, random: random()), rateLimited: false)
        case .success:
            return nil
        }
    }

    /// Waits while the host's known budget is spent, then takes one request from it. Every waiter takes its own
    /// request after its wait, so that however many wait, a new window lets through no more than the API allows
    /// (its `X-RateLimit-Limit`); the others wait for the window after.
    private func waitForBudget(host: String, url: String) async throws(FetchError) {
        while true {
            let wait = budgets.withLock { budgets -> Duration? in
                let now = instant()
                var budget = budgets[host, default: Budget()]
                defer { budgets[host] = budget }
                if let blockedUntil = budget.blockedUntil {
                    if now < blockedUntil { return blockedUntil - now }
                    budget.blockedUntil = nil
                }
                if let resetAt = budget.resetAt, now >= resetAt {
                    budget.remaining = budget.limit
                    budget.resetAt = budget.limit == nil ? nil : now + budget.window
                }
                guard let remaining = budget.remaining else { return nil }
                if remaining > 0 {
                    budget.remaining = remaining - 1
                    return nil
                }
                return budget.resetAt.map { $0 - now }
            }
            guard let wait else { return }
            guard wait <= policy.maximumWait else { throw tooLong(wait, url: url) }
            if wait > .seconds(1) {
                events(.waiting(seconds: wait.wholeSecondsRoundedUp, reason: "rate limited"))
            }
            do {
                try await sleep(max(wait, .milliseconds(1)))
            } catch {
                throw .cancelled
            }
        }
    }

    /// Waits while the key's quota is spent, then counts one request against it; a wait longer than the policy's
    /// longest fails at once, saying when the quota allows the next request.
    private func waitForQuota(of request: FetchRequest) async throws(FetchError) {
        guard let quota = request.quota, let quotas else { return }
        while let wait = await quotas.take(request, quota: quota, now: now()) {
            guard wait <= policy.maximumWait else {
                throw .quotaSpent(service: quota.service, rate: quota.rate, seconds: wait.wholeSecondsRoundedUp)
            }
            events(
                .waiting(
                    seconds: wait.wholeSecondsRoundedUp,
                    reason: "\(quota.service) allows \(quota.rate) per key and this key has made them all"))
            do {
                try await sleep(max(wait, .milliseconds(10)))
            } catch {
                throw .cancelled
            }
        }
    }

    private func tooLong(_ wait: Duration, url: String) -> FetchError {
        .waitTooLong(
            url: url, seconds: wait.wholeSecondsRoundedUp, limit: policy.maximumWait.wholeSecondsRoundedUp)
    }

    /// Takes the budget from the latest response: the server is the authority, and on a 429 its Retry-After
    /// outranks the reset time. A 429 that gives neither a readable Retry-After nor a reset time leaves the budget
    /// alone: the retry's own backoff is the wait.
    private func record(_ response: FetchResponse, host: String) {
        let limit = response.headers["x-ratelimit-limit"].flatMap { Int($0.trimmed) }.flatMap { $0 > 0 ? $0 : nil }
        let remaining = response.headers["x-ratelimit-remaining"].flatMap { Int($0.trimmed) }
        let reset = response.headers["x-ratelimit-reset"].flatMap { Double($0.trimmed) }.flatMap {
            $0 >= 0 && $0 < 86_400 ? Duration.milliseconds(Int(($0 * 1000).rounded(.up))) : nil
        }
        let retryAfter = Self.retryAfter(response.headers["retry-after"], now: now())
        guard (response.status == 429 && (retryAfter ?? reset) != nil) || remaining != nil else { return }
        budgets.withLock { budgets in
            let now = instant()
            var budget = budgets[host, default: Budget()]
            defer { budgets[host] = budget }
            if let limit { budget.limit = limit }
            if response.status == 429, let wait = retryAfter ?? reset {
                budget.blockedUntil = max(budget.blockedUntil ?? now, now + wait)
                return
            }
            if let reset { budget.window = max(budget.window, reset) }
            let resetAt = now + (reset ?? .seconds(60))
            // Requests sent in the window the budget knows that the API had not counted when it answered this one
            // are spent all the same: within that window (the same reset, give or take a second) the lower count
            // holds. An answer from another window is taken as it is.
            if let known = budget.remaining, let knownReset = budget.resetAt, now < knownReset, let remaining,
                abs((resetAt - knownReset).components.seconds) < 1
            {
                budget.remaining = min(known, remaining)
            } else {
                budget.remaining = remaining
            }
            budget.resetAt = resetAt
        }
    }

    /// A Retry-After value in seconds or as an HTTP date, as a wait from `now`.
    static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmed, !value.isEmpty else { return nil }
        if let seconds = Int(value) { return seconds >= 0 ? .seconds(seconds) : nil }
        // Digits too many to read are a wait longer than any that is made, not no wait at all.
        if value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return .seconds(Int(Int32.max)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value) {
                let seconds = date.timeIntervalSince(now)
                return .milliseconds(Int(max(0, seconds) * 1000))
            }
        }
        return nil
    }

    /// What a rate limit covers: the host, the port and the folder of the path. An API's budget
    /// (pixabay.com/api/) then does not hold up image downloads from the same host (pixabay.com/get/).
    static func budgetKey(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        let folder = components.path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        return "\(components.host ?? ""):\(components.port.map(String.init) ?? "")\(folder)/"
    }

    static func describe(_ outcome: Result<FetchResponse, FetchError>) -> String {
        switch outcome {
        case .success(let response) where response.status == 429: "rate limited"
        case .success(let response): "HTTP \(response.status)"
        case .failure(let error): error.shortReason
        }
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespaces) }
}

extension Duration {
    /// The duration in whole seconds, rounded up, for messages.
    package var wholeSecondsRoundedUp: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }

    package var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
