import ArgumentParser
import Foundation
import SampleAPI
import VitrineBasics

struct SampleAPICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-api",
        abstract: "Run the bundled sample API (Pixabay's shape, sample images) on 127.0.0.1 until interrupted.",
        discussion: """
            --fault injects the failures real APIs have, for trying Vitrine against them by hand:
            TARGET[,q=TEXT]:KIND[:COUNT], TARGET one of api, flickr, feed, thumbnails, picsum, unsplash, openverse,
            commons, albums, images, all; KIND one of delay=MS, a status code, 429, retry-after=S,
            retry-after-date=S, truncate, reset, wrong-type, oversized=SIZE, stall=S, trickle=BYTES_PER_S,
            truncated-image=BYTES, malformed-json, hostile, huge-pixels, turned-image, many-tags; COUNT the first N
            matching requests (default: every one).
            Examples: api:429:3, images:500, all:delay=50, api,q=graffiti:hostile.

            For benchmarks: --hit-cap raises Pixabay's 500-hit cap, --hits sets how many hits a query has,
            --distinct-images gives every image URL bytes of its own, --revise changes one hit's data, and
            --rate-limit lifts the search budget (100 a minute per key, like Pixabay's).
            For a simulated calendar: --hits-per-day N moves every Pixabay query's results on by N hits a day, and
            --day D (or --start DATE, following the real calendar) says which day the server is at.

            Openverse (/v1/images/): --openverse-results sets how many results a term has (N for every term,
            TERM=N for one), --openverse-token the bearer token that lifts the anonymous limits, and
            --openverse-rate-limit how many anonymous searches a minute it answers before 429 (0: no limit).

            Wikimedia Commons (/w/api.php): --commons-results sets how many files a term has (N for every term,
            TERM=N for one), --commons-rate-limit how many searches a minute it answers before 429 (0: no limit),
            and --commons-contact-optional answers searches and uploads whose User-Agent names no contact, which
            Wikimedia refuses with 403.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The port; 0 picks a free one.", valueName: "n"))
    var port: UInt16 = 8717

    @Option(name: .long, help: ArgumentHelp("A fault to inject (repeatable; see above).", valueName: "spec"))
    var fault: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("The most hits a Pixabay query has (the real API's cap is 500).", valueName: "n"))
    var hitCap = PixabayCatalog.maxTotalHits

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How many hits a Pixabay query has, as QUERY=N (repeatable; at most --hit-cap).", valueName: "query=n"))
    var hits: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Hit N (1-based) of every Pixabay query has revised tags (repeatable).", valueName: "n"))
    var revise: [Int] = []

    @Flag(name: .long, help: "Every image URL serves bytes of its own (its name in a JPEG comment).")
    var distinctImages = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Every Pixabay query's results move on by N hits a day: N leave the front, N new ones arrive at the end.",
            valueName: "n"))
    var hitsPerDay = 0

    @Option(
        name: .long, help: ArgumentHelp("The day the results are at, from 0 (with --hits-per-day).", valueName: "n"))
    var day: Int?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The results follow the calendar: the day is the whole days since this UTC date (with --hits-per-day).",
            valueName: "yyyy-mm-dd"))
    var start: String?

    @Option(name: .long, help: ArgumentHelp("Pixabay searches allowed per key and window.", valueName: "n"))
    var rateLimit = 100

    @Option(name: .long, help: ArgumentHelp("The rate-limit window in seconds.", valueName: "s"))
    var rateWindow = 60

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How many results an Openverse search has: N for every term, TERM=N for one (repeatable; default 60).",
            valueName: "n|term=n"))
    var openverseResults: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("The bearer token that lifts Openverse's anonymous limits.", valueName: "token"))
    var openverseToken = SampleAPIServer.openverseDemoToken

    @Option(
        name: .long,
        help: ArgumentHelp("Anonymous Openverse searches answered a minute; 0 for no limit.", valueName: "n"))
    var openverseRateLimit = 10_000

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How many files a Wikimedia Commons search has: N for every term, TERM=N for one (repeatable; default 60).",
            valueName: "n|term=n"))
    var commonsResults: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp("Wikimedia Commons searches answered a minute; 0 for no limit.", valueName: "n"))
    var commonsRateLimit = 10_000

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Answer Wikimedia Commons searches and uploads whose User-Agent names no contact (Wikimedia refuses "
                + "them with 403)."))
    var commonsContactOptional = false

    func validate() throws {
        guard (1...1_000_000).contains(hitCap) else {
            throw ValidationError("--hit-cap must be between 1 and 1000000.")
        }
        guard revise.allSatisfy({ $0 >= 1 }) else { throw ValidationError("--revise takes hit numbers from 1.") }
        guard rateLimit >= 1, rateWindow >= 1 else {
            throw ValidationError("--rate-limit and --rate-window must be at least 1.")
        }
        _ = try hitCounts()
        guard (0...SampleAPIConfiguration.mostHitsPerDay).contains(hitsPerDay) else {
            throw ValidationError("--hits-per-day must be between 0 and \(SampleAPIConfiguration.mostHitsPerDay).")
        }
        guard day == nil || start == nil else { throw ValidationError("Give --day or --start, not both.") }
        if let day, !(0...SampleAPIConfiguration.lastDay).contains(day) {
            throw ValidationError("--day must be between 0 and \(SampleAPIConfiguration.lastDay).")
        }
        _ = try startDate()
        _ = try openverseCounts()
        guard !openverseToken.isEmpty, !openverseToken.contains(where: \.isWhitespace) else {
            throw ValidationError("--openverse-token takes a token without spaces, as in --openverse-token abc123.")
        }
        guard openverseRateLimit >= 0 else { throw ValidationError("--openverse-rate-limit must be at least 0.") }
        _ = try commonsCounts()
        guard commonsRateLimit >= 0 else { throw ValidationError("--commons-rate-limit must be at least 0.") }
    }

    /// `--openverse-results` as the count of every term and the counts of the terms it names.
    func openverseCounts() throws -> (standard: Int, byTerm: [String: Int]) {
        try Self.resultCounts(
            openverseResults, option: "--openverse-results", standard: OpenverseCatalog.defaultCount,
            most: OpenverseCatalog.maxCount)
    }

    /// `--commons-results` as the count of every term and the counts of the terms it names.
    func commonsCounts() throws -> (standard: Int, byTerm: [String: Int]) {
        try Self.resultCounts(
            commonsResults, option: "--commons-results", standard: CommonsCatalog.defaultCount,
            most: CommonsCatalog.maxCount)
    }

    /// The values of `option`, each N (the count of every term, `standard` unless given) or TERM=N (a term's count;
    /// the term is everything before the last `=`), with N from 0 to `most`.
    static func resultCounts(_ specs: [String], option: String, standard: Int, most: Int) throws
        -> (standard: Int, byTerm: [String: Int])
    {
        var standard = standard
        var byTerm: [String: Int] = [:]
        for spec in specs {
            let equals = spec.lastIndex(of: "=")
            let digits = equals.map { spec[spec.index(after: $0)...] } ?? spec[...]
            guard let count = Int(digits), (0...most).contains(count),
                equals.map({ !spec[..<$0].trimmingCharacters(in: .whitespaces).isEmpty }) ?? true
            else {
                throw ValidationError(
                    "\(option) takes N or TERM=N with N from 0 to \(most), as in \(option) \"hafen=200\".")
            }
            if let equals {
                byTerm[PixabayCatalog.normalize(String(spec[..<equals]))] = count
            } else {
                standard = count
            }
        }
        return (standard, byTerm)
    }

    /// `--start` as the midnight (UTC) that starts day 0.
    func startDate() throws -> Date? {
        guard let start else { return nil }
        guard start.utf8.count == 10, let date = UTCTime.date(iso8601: start + "T00:00:00Z") else {
            throw ValidationError("--start takes a date as YYYY-MM-DD, as in --start 2026-01-01.")
        }
        return date
    }

    /// `--hits` as a dictionary; the query is everything before the last `=`.
    func hitCounts() throws -> [String: Int] {
        var counts = SampleAPIConfiguration.demoHitCounts
        for spec in hits {
            guard let equals = spec.lastIndex(of: "="), let count = Int(spec[spec.index(after: equals)...]),
                count >= 0, !spec[..<equals].trimmingCharacters(in: .whitespaces).isEmpty
            else {
                throw ValidationError("--hits takes QUERY=N with a whole number N, as in --hits \"hamburg=1000\".")
            }
            counts[PixabayCatalog.normalize(String(spec[..<equals]))] = count
        }
        return counts
    }

    func run() async throws {
        let faults: [SampleAPIFault]
        do {
            faults = try fault.map(SampleAPIFault.parse)
        } catch {
            throw ValidationError("\(error)")
        }
        var configuration = SampleAPIConfiguration(
            hitCounts: try hitCounts(), hitCap: hitCap, revisedHits: Set(revise), distinctImages: distinctImages,
            rateLimit: rateLimit, rateWindowSeconds: rateWindow, faults: faults)
        configuration.hitsPerDay = hitsPerDay
        (configuration.openverseResultCount, configuration.openverseCounts) = try openverseCounts()
        configuration.openverseToken = openverseToken
        configuration.openverseRateLimit = openverseRateLimit
        (configuration.commonsResultCount, configuration.commonsCounts) = try commonsCounts()
        configuration.commonsRateLimit = commonsRateLimit
        configuration.commonsRequiresContact = !commonsContactOptional
        if let start = try startDate() {
            configuration.day = SampleAPIConfiguration.calendarDay(from: start)
        } else {
            let day = day ?? 0
            configuration.day = { day }
        }
        let server = SampleAPIServer(configuration: configuration)
        try await ListeningPort.bind(Int(port)) { try await server.start(port: port) }
        let endpoint = await server.pixabayEndpoint
        let contactNote = commonsContactOptional ? "" : " (User-Agent naming a contact)"
        let banner =
            "Sample API listening on \(endpoint) (key: \(SampleAPIServer.demoKey)); Lorem Picsum at "
            + "\(await server.picsumEndpoint), Unsplash at \(await server.unsplashEndpoint), Openverse at "
            + "\(await server.openverseEndpoint)v1/images/ (token: \(openverseToken)), Wikimedia Commons at "
            + "\(await server.commonsEndpoint)api.php\(contactNote); Ctrl-C stops it.\n"
        StandardStreams.output(Array(banner.utf8))
        while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
    }
}
