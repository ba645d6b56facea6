/// How the sample API behaves: accepted key, result counts, rate limit, injected faults.
public struct SampleAPIConfiguration: Sendable {
    /// The only `key` the search endpoint accepts.
    public var apiKey: String
    /// `totalHits` overrides by query (lowercased, whitespace-normalised); values are clamped to `0...500`.
    public var hitCounts: [String: Int]
    /// Search requests allowed per key in each window.
    public var rateLimit: Int
    /// Length of the fixed rate-limit window in seconds.
    public var rateWindowSeconds: Int
    /// Fault rules, checked in order for every request; the first matching rule with budget left applies.
    public var faults: [SampleAPIFault]

    /// The counts `vitrine demo` relies on: a full 500 for Hamburg and a short graffiti search.
    public static let demoHitCounts: [String: Int] = ["hamburg": 500, "hamburg graffiti": 16]

    public init(
        apiKey: String = SampleAPIServer.demoKey,
        hitCounts: [String: Int] = SampleAPIConfiguration.demoHitCounts,
        rateLimit: Int = 100,
        rateWindowSeconds: Int = 60,
        faults: [SampleAPIFault] = []
    ) {
        self.apiKey = apiKey
        self.hitCounts = hitCounts
        self.rateLimit = rateLimit
        self.rateWindowSeconds = rateWindowSeconds
        self.faults = faults
    }
}
