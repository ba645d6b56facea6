import Foundation

/// How the sample API behaves: accepted keys, result counts, rate limit, injected faults.
package struct SampleAPIConfiguration: Sendable {
    /// The only `key` the Pixabay search endpoint accepts.
    package var apiKey: String
    /// `totalHits` overrides by query (lowercased, whitespace-normalised); values are clamped to `0...hitCap`.
    package var hitCounts: [String: Int]
    /// The most hits one Pixabay query has: 500, like the real API, unless raised for benchmarks (at least 1).
    package var hitCap: Int
    /// 1-based hit numbers whose data is revised in every Pixabay query (other tags, as after an edit), so that a
    /// rebuild can be shown one changed item.
    package var revisedHits: Set<Int>
    /// Every image URL serves different bytes (its file name in a JPEG comment), as real photos would, instead of
    /// the same bundled picture under many URLs.
    package var distinctImages: Bool
    /// Search requests allowed per key in each window.
    package var rateLimit: Int
    /// Length of the fixed rate-limit window in seconds.
    package var rateWindowSeconds: Int
    /// Fault rules, checked in order for every request; the first matching rule with budget left applies.
    package var faults: [SampleAPIFault]
    /// The only `api_key` the Flickr REST endpoint accepts.
    package var flickrKey: String
    /// Flickr search `total` overrides by search term (``FlickrCatalog/searchTerm(text:tags:)``); values are clamped
    /// to `0...1_000_000_000`.
    package var flickrCounts: [String: Int]
    /// How many elements the media-coverage thumbnail list has; clamped to `0...300`.
    package var thumbnailCount: Int
    /// The only access key the Unsplash routes accept.
    package var unsplashKey: String = SampleAPIServer.demoKey
    /// Unsplash requests allowed per key and hour (50 for a demo application).
    package var unsplashRateLimit: Int = 50
    /// How many results an Openverse search term has unless ``openverseCounts`` names it; clamped to
    /// `0...100_000`.
    package var openverseResultCount: Int = OpenverseCatalog.defaultCount
    /// Openverse result counts by search term (normalised like Pixabay's queries; `""` is a search without `q`);
    /// values clamped to `0...100_000`.
    package var openverseCounts: [String: Int] = [:]
    /// The only bearer token the Openverse search accepts: without `Authorization: Bearer …` a search is anonymous,
    /// with another token it fails.
    package var openverseToken: String = SampleAPIServer.openverseDemoToken
    /// Anonymous Openverse searches allowed a minute (0: no limit); high by default, so that only a test that sets
    /// it meets it.
    package var openverseRateLimit: Int = 10_000
    /// How many files a Wikimedia Commons search term has unless ``commonsCounts`` names it; clamped to
    /// `0...100_000`.
    package var commonsResultCount: Int = CommonsCatalog.defaultCount
    /// Commons file counts by search term (normalised like Pixabay's queries); values clamped to `0...100_000`.
    package var commonsCounts: [String: Int] = [:]
    /// Whether a Commons search or upload whose `User-Agent` names no contact is refused with 403, as Wikimedia's
    /// policy has it.
    package var commonsRequiresContact = true
    /// Commons searches allowed a minute (0: no limit); high by default, so that only a test that sets it meets it.
    package var commonsRateLimit: Int = 10_000
    /// How many hits every Pixabay query's results move on each day: on day `d` a query's result list starts at
    /// hit `d × hitsPerDay` of the catalogue, so a daily build sees that many hits leave the front of the list and as
    /// many new ones (with images of their own) arrive at its end. 0 keeps the results still.
    package var hitsPerDay: Int = 0
    /// The day the results are at (0 is the first); read for every search, so a server can follow the calendar.
    package var day: @Sendable () -> Int = { 0 }
    /// The clock of the rate-limit windows; a test moves it on instead of waiting for a window to pass.
    package var now: @Sendable () -> ContinuousClock.Instant = { .now }
    /// How a `delay` fault holds its response; a test holds it until it lets it go instead of for a time.
    package var pause: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }

    /// The counts `vitrine demo` relies on: a full 500 for Hamburg and a short graffiti search.
    package static let demoHitCounts: [String: Int] = ["hamburg": 500, "hamburg graffiti": 16]

    package init(
        apiKey: String = SampleAPIServer.demoKey,
        hitCounts: [String: Int] = SampleAPIConfiguration.demoHitCounts,
        hitCap: Int = PixabayCatalog.maxTotalHits,
        revisedHits: Set<Int> = [],
        distinctImages: Bool = false,
        rateLimit: Int = 100,
        rateWindowSeconds: Int = 60,
        faults: [SampleAPIFault] = [],
        flickrKey: String = SampleAPIServer.demoKey,
        flickrCounts: [String: Int] = [:],
        thumbnailCount: Int = ThumbnailCatalog.defaultCount
    ) {
        self.apiKey = apiKey
        self.hitCounts = hitCounts
        self.hitCap = max(hitCap, 1)
        self.revisedHits = revisedHits
        self.distinctImages = distinctImages
        self.rateLimit = rateLimit
        self.rateWindowSeconds = rateWindowSeconds
        self.faults = faults
        self.flickrKey = flickrKey
        self.flickrCounts = flickrCounts
        self.thumbnailCount = min(max(thumbnailCount, 0), ThumbnailCatalog.maxCount)
    }

    /// The most hits a day moves the results on.
    package static let mostHitsPerDay = 100_000
    /// The last day the results move to (about 2,700 years of days).
    package static let lastDay = 1_000_000

    /// The first catalogue hit of every query's results today: `hitsPerDay × day()`, never negative.
    package var firstHit: Int {
        min(max(hitsPerDay, 0), Self.mostHitsPerDay) * min(max(day(), 0), Self.lastDay)
    }

    /// Whole days from `start` to `now`, 0 before `start`: the day of a sample API that follows the calendar.
    package static func days(from start: Date, to now: Date) -> Int {
        let seconds = now.timeIntervalSince(start)
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds / 86_400, Double(lastDay)))
    }

    /// A day that follows the system's calendar from `start` (day 0 is the 24 hours from `start`).
    package static func calendarDay(from start: Date) -> @Sendable () -> Int {
        { days(from: start, to: Date()) }
    }
}
