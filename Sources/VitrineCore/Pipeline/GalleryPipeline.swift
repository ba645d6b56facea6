import Foundation

/// What a run reports as it goes; the CLI shows it on a terminal.
public enum ProgressEvent: Sendable {
    case searching(String)
    case images(done: Int, total: Int)
    case rendering(done: Int, total: Int)
    /// A pause the user should know about, such as a rate limit.
    case waiting(seconds: Int, reason: String)
    case retrying(reason: String, attempt: Int)
    case warning(String)
}

/// Settings of one gallery build that are not the source's.
public struct BuildOptions: Sendable {
    public var output: URL
    public var itemsPerPage: Int
    public var theme: Theme
    /// The largest image accepted.
    public var maximumImageBytes: Int
    /// The largest API response accepted.
    public var maximumResponseBytes: Int
    /// Write into an output folder that holds files Vitrine did not write.
    public var force: Bool
    public var tileShape: GalleryModel.TileShape

    public init(
        output: URL, itemsPerPage: Int = 10, theme: Theme = .builtIn, maximumImageBytes: Int = 40 << 20,
        maximumResponseBytes: Int = 16 << 20, force: Bool = false, tileShape: GalleryModel.TileShape = .natural
    ) {
        self.tileShape = tileShape
        self.output = output
        self.itemsPerPage = itemsPerPage
        self.theme = theme
        self.maximumImageBytes = maximumImageBytes
        self.maximumResponseBytes = maximumResponseBytes
        self.force = force
    }
}

/// What a run did, for the summary line, `--strict` and the `--json` report.
public struct BuildSummary: Sendable, Codable, Equatable {
    public var items = 0
    public var imagesDownloaded = 0
    public var imagesFromCache = 0
    public var imagesFailed = 0
    public var resultsSkipped = 0
    public var apiRequests = 0
    public var apiCacheHits = 0
    /// When the older cached results shown were fetched, if the network failed and they stood in.
    public var staleSince: Date?
    public var pagesWritten = 0
    public var pagesUnchanged = 0
    public var filesRemoved = 0
    public var warnings: [String] = []
    public var seconds: Double = 0

    /// Anything the gallery lacks that a perfect run would have: failed images, skipped results, stale results.
    public var losses: Int { imagesFailed + resultsSkipped + (staleSince == nil ? 0 : 1) }

    /// The report as JSON: stable key order, dates in ISO 8601.
    public func json(status: String) -> String {
        struct Report: Encodable {
            var status: String
            var losses: Int
            var summary: BuildSummary
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data = (try? encoder.encode(Report(status: status, losses: losses, summary: self))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// One line: items, images downloaded / from cache, pages written, time.
    public var line: String {
        var parts = ["\(items) item\(items == 1 ? "" : "s")"]
        parts.append(
            "\(imagesDownloaded) image\(imagesDownloaded == 1 ? "" : "s") downloaded, \(imagesFromCache) from cache")
        if imagesFailed > 0 { parts.append("\(imagesFailed) failed") }
        if resultsSkipped > 0 { parts.append("\(resultsSkipped) result\(resultsSkipped == 1 ? "" : "s") skipped") }
        parts.append("\(pagesWritten) page\(pagesWritten == 1 ? "" : "s") written")
        if pagesUnchanged > 0 { parts.append("\(pagesUnchanged) unchanged") }
        if filesRemoved > 0 { parts.append("\(filesRemoved) old file\(filesRemoved == 1 ? "" : "s") removed") }
        return parts.joined(separator: ", ") + String(format: " in %.1f s", seconds)
    }
}

/// The one pipeline every gallery goes through: source -> fetch -> cache -> model -> render -> publish.
public struct GalleryPipeline: Sendable {
    public var fetcher: any HTTPFetching
    public var cache: CacheStore
    public var policy: CachePolicy
    public var progress: @Sendable (ProgressEvent) -> Void

    public init(
        fetcher: any HTTPFetching, cache: CacheStore, policy: CachePolicy,
        progress: @escaping @Sendable (ProgressEvent) -> Void = { _ in }
    ) {
        self.fetcher = fetcher
        self.cache = cache
        self.policy = policy
        self.progress = progress
    }

    public func run(_ source: any ImageSource, label: String, options: BuildOptions) async throws -> BuildSummary {
        let started = ContinuousClock.now
        var summary = BuildSummary()
        let renderer = try PageRenderer(theme: options.theme)
        let writer = try OutputWriter(root: options.output, force: options.force)
        cache.sweepTemporaryFiles()

        progress(.searching(label))
        let api = CachedAPIClient(
            fetcher: fetcher, cache: cache, policy: policy, maximumResponseBytes: options.maximumResponseBytes)
        let result = try await source.collect(using: api)
        summary.apiRequests = api.counters.requests
        summary.apiCacheHits = api.counters.cacheHits
        summary.items = result.items.count
        summary.resultsSkipped = result.skipped
        summary.warnings += result.warnings
        var notices: [GalleryModel.Notice] = []
        if let staleSince = api.counters.staleSince {
            summary.staleSince = staleSince
            let when = Self.describe(staleSince)
            notices.append(
                .init(kind: .stale, text: "Showing results saved at \(when); fresh results could not be loaded."))
            summary.warnings.append(
                "\(result.source.label) could not be reached; showing the results saved at \(when).")
        }
        summary.warnings.forEach { progress(.warning($0)) }

        let images = try await ImageDownloader(
            fetcher: fetcher, cache: cache, offline: policy.offline, maximumBytes: options.maximumImageBytes,
            progress: progress
        ).download(Self.imageURLs(of: result))
        summary.imagesDownloaded = images.downloaded
        summary.imagesFromCache = images.fromCache
        summary.imagesFailed = images.outcomes.values.filter { if case .failed = $0 { true } else { false } }.count

        let gallery = GalleryAssembler(itemsPerPage: options.itemsPerPage, tileShape: options.tileShape).assemble(
            result, images: images.outcomes, notices: notices)
        let model = ModelDocument.make(gallery)
        let jobs = gallery.pageJobs
        let stored = Set(images.outcomes.values.compactMap { if case .stored(let record) = $0 { record } else { nil } })
            .sorted { $0.sha256 < $1.sha256 }
        let assets = options.theme.assets
        try Task.checkCancellation()
        var planned = jobs.map(\.href)
        planned += stored.map(GalleryAssembler.localPath(of:))
        planned += assets.map { "assets/\($0.name)" }
        planned.append("gallery.xml")
        try writer.begin(planned: planned)

        for (index, job) in jobs.enumerated() {
            try Task.checkCancellation()
            let page = try renderer.render(job, model: model)
            if try writer.write(page.bytes, to: page.href) {
                summary.pagesWritten += 1
            } else {
                summary.pagesUnchanged += 1
            }
            progress(.rendering(done: index + 1, total: jobs.count))
        }
        for record in stored {
            try Task.checkCancellation()
            try writer.placeImage(
                from: cache.imageFile(for: record), sha256: record.sha256, byteCount: record.byteCount,
                at: GalleryAssembler.localPath(of: record))
        }
        for asset in assets { try writer.write(asset.bytes, to: "assets/\(asset.name)") }
        try writer.write(model.serialized(), to: "gallery.xml")
        summary.filesRemoved = try writer.finish().count

        summary.seconds = (ContinuousClock.now - started).seconds
        return summary
    }

    /// Every distinct remote URL the gallery needs, in a stable order.
    static func imageURLs(of result: SourceResult) -> [String] {
        var seen = Set<String>()
        var urls: [String] = []
        for item in result.items {
            for case .found(_, _, let tile, let full) in item.entries {
                for url in [tile.url, full.url] where seen.insert(url).inserted { urls.append(url) }
            }
        }
        return urls
    }

    /// A time for a notice: UTC, to the minute.
    static func describe(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
