import ArgumentParser
import Foundation
import VitrineBasics
import VitrineStore

/// `vitrine cache`: what the cache holds, and keeping it within a size by hand.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show what the cache holds, or prune it to a size.",
        subcommands: [CacheStatsCommand.self, CachePruneCommand.self]
    )
}

/// The folder the cache commands look at.
struct CacheFolderOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The cache folder (default: $XDG_CACHE_HOME/vitrine or ~/.cache/vitrine).", valueName: "dir"))
    var cache: String?

    @Flag(name: .long, help: "Also write a machine-readable report to stdout.")
    var json = false

    func validate() throws {
        try PathArgument.requireNonEmpty(cache, "--cache")
    }

    var root: URL { cache.map { URL(fileURLWithPath: $0) } ?? CacheStore.defaultRoot() }

    /// Writes `report` as JSON on stdout, keys sorted.
    func write(_ report: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        if let data = try? encoder.encode(report) { StandardStreams.output(Array(data) + Array("\n".utf8)) }
    }
}

/// `vitrine cache stats`: the cache's size, its entries by kind, the oldest use, and what the last build reused
/// and fetched.
struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the cache's size, its entries by kind, the oldest use and the last build's reuse.",
        discussion: """
            Sizes are the sum of the entries' file sizes, what a CI cache archives. Answers are the APIs' \
            responses, images include re-encoded copies (each with the URL index entries that point at it), and \
            each output folder built with this cache has records of its own. A missing cache folder is an empty \
            cache.
            """
    )

    @OptionGroup var folder: CacheFolderOptions

    /// The `--json` report.
    struct Report: Encodable {
        struct Kind: Encodable {
            var entries = 0
            var bytes: Int64 = 0
        }

        struct LastBuild: Encodable {
            var output: String
            var time: Date
            var reusedAnswers: Int
            var fetchedAnswers: Int
            var reusedImages: Int
            var fetchedImages: Int
        }

        var cache: String
        var bytes: Int64
        var answers = Kind()
        var images = Kind()
        var urlIndexEntries = 0
        var outputFolders = Kind()
        var unusable = Kind()
        var oldestUse: Date?
        var lastBuild: LastBuild?
    }

    func run() throws {
        // The one place this command makes today's time: it runs outside any build, so on the system's clock.
        let now = WallClock.system()
        let inventory = CacheInventory.read(root: folder.root, now: now, maximumAge: CachePolicy().maximumAge)
        var report = Report(cache: folder.root.path, bytes: inventory.totalBytes)
        for entry in inventory.entries {
            switch entry.kind {
            case .answer where !entry.goesFirst || entry.files.contains(where: { $0.hasSuffix(".meta") }):
                report.answers.entries += 1
                report.answers.bytes += entry.bytes
            case .image:
                report.images.entries += 1
                report.images.bytes += entry.bytes
                report.urlIndexEntries += entry.files.count - 1
            case .buildRecords:
                report.outputFolders.entries += 1
                report.outputFolders.bytes += entry.bytes
            case .answer, .pointer:
                report.unusable.entries += 1
                report.unusable.bytes += entry.bytes
            }
        }
        report.oldestUse = inventory.entries.map(\.lastUse).min()
        report.lastBuild = inventory.useRecords.first.map {
            Report.LastBuild(
                output: $0.output, time: $0.time, reusedAnswers: $0.counts.reusedAnswers,
                fetchedAnswers: $0.counts.fetchedAnswers, reusedImages: $0.counts.reusedImages,
                fetchedImages: $0.counts.fetchedImages)
        }
        if folder.json {
            folder.write(report)
            return
        }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        var lines = ["Cache \(report.cache): \(ByteCount.text(report.bytes))"]
        lines.append("  \(count(report.answers.entries, "API answer")): \(ByteCount.text(report.answers.bytes))")
        lines.append(
            "  \(count(report.images.entries, "image")) (\(count(report.urlIndexEntries, "URL index entry").replacingOccurrences(of: "entrys", with: "entries"))): "
                + ByteCount.text(report.images.bytes))
        lines.append(
            "  records of \(count(report.outputFolders.entries, "output folder")): "
                + ByteCount.text(report.outputFolders.bytes))
        if report.unusable.entries > 0 {
            lines.append(
                "  \(count(report.unusable.entries, "unusable entry").replacingOccurrences(of: "entrys", with: "entries")) "
                    + "(past their age limit, damaged or pointing at a removed image): "
                    + ByteCount.text(report.unusable.bytes))
        }
        if let oldest = report.oldestUse { lines.append("  oldest use: \(UTCTime.rfc3339(oldest))") }
        if let last = report.lastBuild {
            lines.append(
                "  last build: \(last.output) at \(UTCTime.rfc3339(last.time)), reused "
                    + "\(count(last.reusedAnswers, "answer")) and \(count(last.reusedImages, "image")), fetched "
                    + "\(count(last.fetchedAnswers, "answer")) and \(count(last.fetchedImages, "image"))")
        }
        StandardStreams.output(Array((lines.joined(separator: "\n") + "\n").utf8))
    }
}

/// `vitrine cache prune`: removes the least recently used entries until the cache is within a size.
struct CachePruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove the least recently used cache entries until the cache is within a size.",
        discussion: """
            Answers past their age limit or damaged, the records of output folders that no longer exist and URL \
            index entries whose image is gone go first, then the least recently used entries. Nothing is removed \
            while another Vitrine run is using the cache: the command then ends with exit status 75 and a sentence \
            saying so. A removed image is downloaded again by the next build that needs it.
            """
    )

    @OptionGroup var folder: CacheFolderOptions

    @Option(
        name: .long,
        help: ArgumentHelp("The most the cache keeps (K, M, G suffixes; default: 1G).", valueName: "size"))
    var maxSize = CacheOptions.defaultMaximumSize

    /// The `--json` report.
    struct Report: Encodable {
        var cache: String
        var bytesBefore: Int64
        var bytesAfter: Int64
        var entriesRemoved: Int
        var bytesRemoved: Int64
        var maximumBytes: Int64
    }

    func run() throws {
        let root = folder.root
        var outcome = CachePruner.Outcome()
        outcome.maximumBytes = Int64(maxSize.bytes)
        if FileManager.default.fileExists(atPath: root.path) {
            guard let lock = CacheLock.exclusive(root) else {
                let busy = CacheBusyError(folder: root.path)
                StandardStreams.error("vitrine: \(FailureReport.sentence(for: busy))\n")
                throw ExitCode(busy.exitStatus.rawValue)
            }
            // The one place this command makes today's time: it runs outside any build, so on the system's clock.
            outcome = CachePruner(root: root).prune(
                maximumBytes: Int64(maxSize.bytes), used: [], now: WallClock.system(),
                maximumAge: CachePolicy().maximumAge)
            withExtendedLifetime(lock) {}
        }
        if folder.json {
            folder.write(
                Report(
                    cache: root.path, bytesBefore: outcome.bytesBefore, bytesAfter: outcome.bytesAfter,
                    entriesRemoved: outcome.entriesRemoved, bytesRemoved: outcome.bytesRemoved,
                    maximumBytes: outcome.maximumBytes))
            return
        }
        let entries = "\(outcome.entriesRemoved) entr\(outcome.entriesRemoved == 1 ? "y" : "ies")"
        StandardStreams.output(
            Array(
                ("Removed \(entries) (\(ByteCount.text(outcome.bytesRemoved))); the cache holds "
                    + "\(ByteCount.text(outcome.bytesAfter)) of its \(ByteCount.text(outcome.maximumBytes)).\n").utf8))
    }
}

/// Another run holds the cache's lock, so `vitrine cache prune` removed nothing.
struct CacheBusyError: CommandLineFailure {
    let folder: String
    var sentence: String {
        "Another Vitrine run is using the cache \(folder), so nothing was removed; run vitrine cache prune again "
            + "when it has finished."
    }
    var exitStatus: ExitStatus { .timedOut }
}
