import Foundation
import VitrineBasics
import VitrineSources

/// How often the random page gets a new image: `30s`, `10m`, `1h`, `1d`, or combined (`1h30m`).
public struct UpdateInterval: Sendable, Hashable, CustomStringConvertible {
    package static let allowed = 5...(30 * 86_400)
    /// The interval in seconds, from 5 seconds to 30 days.
    public let seconds: Int

    /// Nil outside 5 seconds to 30 days.
    public init?(seconds: Int) {
        guard Self.allowed.contains(seconds) else { return nil }
        self.seconds = seconds
    }

    /// Reads `30s`, `10m`, `1h`, `2d` and combinations such as `1h30m`; each number needs its unit.
    public static func parse(_ text: String) throws(UpdateIntervalError) -> UpdateInterval {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        var total = 0
        var digits = ""
        var sawUnit = false
        for character in text.trimmingCharacters(in: .whitespaces).lowercased() {
            if character.isASCII && character.isNumber {
                digits.append(character)
                guard digits.count <= 7 else { throw UpdateIntervalError(text: text) }
            } else if let unit = units[character], let value = Int(digits) {
                total += value * unit
                digits = ""
                sawUnit = true
            } else {
                throw UpdateIntervalError(text: text)
            }
        }
        guard digits.isEmpty, sawUnit else { throw UpdateIntervalError(text: text) }
        guard let interval = UpdateInterval(seconds: total) else { throw UpdateIntervalError(text: text) }
        return interval
    }

    /// The shortest way to write it back: `10m`, `1h30m`, `45s`.
    public var description: String {
        var rest = seconds
        var text = ""
        for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }

    /// The interval as it follows "every" in a sentence: `10 minutes`, `hour`, `1 hour 30 minutes`.
    package var spoken: String {
        var rest = seconds
        var parts: [String] = []
        for (unit, size) in [("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1)] where rest >= size {
            parts.append("\(rest / size) \(unit)\(rest / size == 1 ? "" : "s")")
            rest %= size
        }
        if parts.count == 1, parts[0].hasPrefix("1 ") { return String(parts[0].dropFirst(2)) }
        return parts.joined(separator: " ")
    }
}

/// An update interval that is not a duration Vitrine accepts.
public struct UpdateIntervalError: UserFacingError {
    /// The text as it was given.
    public let text: String

    package init(text: String) {
        self.text = text
    }
    /// Quotes the text and says what an interval looks like.
    public var sentence: String {
        "An update interval is a duration such as 30s, 10m, 1h or 1h30m, from 5 seconds to 30 days; “\(text)” is not one."
    }
    /// Always `.invalidArgument`.
    public var kind: FailureKind { .invalidArgument }
}

/// When the random page is due for a new image. The image is replaced `every` after the last successful update; a
/// failed attempt is retried after `every` or 5 minutes, whichever is sooner.
package enum RandomSchedule {
    static let longestRetry: TimeInterval = 300

    /// Whether a run at `now` should fetch a new image: there is none yet, the source changed, or it is time.
    package static func isDue(_ state: RandomPageState?, source: String, at now: Date) -> Bool {
        guard let state, state.source == source else { return true }
        return now >= state.nextUpdate
    }

    /// The next update after a successful one at `updated`.
    package static func next(afterUpdateAt updated: Date, every: UpdateInterval) -> Date {
        updated.addingTimeInterval(TimeInterval(every.seconds))
    }

    /// The next attempt after one that failed at `failed`.
    package static func retry(afterFailureAt failed: Date, every: UpdateInterval) -> Date {
        failed.addingTimeInterval(min(TimeInterval(every.seconds), longestRetry))
    }

    /// The next update of a kept state under a possibly different interval: the schedule runs from the last
    /// update, so a restart (or a new interval) never starts it over.
    package static func rescheduled(_ state: RandomPageState, every: UpdateInterval) -> Date {
        if state.lastFailure != nil { return state.nextUpdate }
        return next(afterUpdateAt: state.fetchedAt, every: every)
    }
}

/// What the random page shows and when it changes next, kept in the output folder (`random.json`) so that a later
/// run, or a restarted watching run, keeps the schedule and the image instead of starting over. It holds no secret.
package struct RandomPageState: Codable, Sendable, Equatable {
    package static let fileName = "random.json"
    package static let historyLimit = 24

    /// One rendition as the page shows it: a file of the site, or the API's URL when it must be hotlinked.
    package struct ShownImage: Codable, Sendable, Hashable {
        package var remoteURL: String
        package var path: String?
        package var sha256: String?
        package var byteCount: Int?
        package var mediaType: String?
        package var width: Int?
        package var height: Int?

        package init(
            remoteURL: String,
            path: String? = nil,
            sha256: String? = nil,
            byteCount: Int? = nil,
            mediaType: String? = nil,
            width: Int? = nil,
            height: Int? = nil
        ) {
            self.remoteURL = remoteURL
            self.path = path
            self.sha256 = sha256
            self.byteCount = byteCount
            self.mediaType = mediaType
            self.width = width
            self.height = height
        }
    }

    /// Why the last attempt brought no new image, and when it was made.
    package struct Failure: Codable, Sendable, Equatable {
        package var at: Date
        package var reason: String

        package init(at: Date, reason: String) {
            self.at = at
            self.reason = reason
        }
    }

    package var version = 1
    package var source: String
    package var delivery: ImageUsagePolicy.Delivery
    package var everySeconds: Int
    package var photo: RandomPhoto
    package var images: [ShownImage]
    /// When the shown image was fetched (the last successful update).
    package var fetchedAt: Date
    package var nextUpdate: Date
    package var lastFailure: Failure?
    /// Files of earlier images, kept so that favorites of them still show; newest first.
    package var history: [ShownImage] = []

    package init(
        version: Int = 1,
        source: String,
        delivery: ImageUsagePolicy.Delivery,
        everySeconds: Int,
        photo: RandomPhoto,
        images: [ShownImage],
        fetchedAt: Date,
        nextUpdate: Date,
        lastFailure: Failure? = nil,
        history: [ShownImage] = []
    ) {
        self.version = version
        self.source = source
        self.delivery = delivery
        self.everySeconds = everySeconds
        self.photo = photo
        self.images = images
        self.fetchedAt = fetchedAt
        self.nextUpdate = nextUpdate
        self.lastFailure = lastFailure
        self.history = history
    }

    package static func read(in root: URL, folder: String = "") -> RandomPageState? {
        RootedFiles(root: root.path).contents(folder + fileName, limit: 16 << 20).flatMap(decoded)
    }

    /// The state a `random.json` holds; nil when it is not one.
    static func decoded(_ bytes: [UInt8]) -> RandomPageState? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(RandomPageState.self, from: Data(bytes))
    }

    package func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return [UInt8]((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }
}
