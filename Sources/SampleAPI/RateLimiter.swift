import Synchronization

/// Fixed-window request budget per API key, as Pixabay applies it (100 requests per 60 s by default).
final class RateLimiter: Sendable {
    /// The outcome of one request, with the values of the `X-RateLimit-*` headers.
    struct Decision: Sendable, Equatable {
        var allowed: Bool
        var limit: Int
        var remaining: Int
        var resetSeconds: Int

        var headers: [String: String] {
            [
                "X-RateLimit-Limit": String(limit),
                "X-RateLimit-Remaining": String(remaining),
                "X-RateLimit-Reset": String(resetSeconds),
            ]
        }
    }

    private struct Window {
        var start: ContinuousClock.Instant
        var used: Int
    }

    private let limit: Int
    private let window: Duration
    private let windows = Mutex<[String: Window]>([:])

    init(limit: Int, windowSeconds: Int) {
        self.limit = max(limit, 0)
        self.window = .seconds(max(windowSeconds, 1))
    }

    /// Counts one request for `key` at `now`, unless the key's budget for the current window is already spent.
    func consume(key: String, at now: ContinuousClock.Instant) -> Decision {
        windows.withLock { windows in
            if windows.count > 10_000 {
                windows = windows.filter { now - $0.value.start < window }
            }
            var current = windows[key] ?? Window(start: now, used: 0)
            if now - current.start >= window {
                current = Window(start: now, used: 0)
            }
            let allowed = current.used < limit
            if allowed {
                current.used += 1
            }
            windows[key] = current
            return Decision(
                allowed: allowed,
                limit: limit,
                remaining: limit - current.used,
                resetSeconds: Self.wholeSecondsRoundingUp(window - (now - current.start))
            )
        }
    }

    private static func wholeSecondsRoundingUp(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
