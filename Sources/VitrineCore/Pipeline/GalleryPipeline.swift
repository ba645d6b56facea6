import Foundation
import Synchronization

/// What a run reports as it goes; the CLI shows it on a terminal.
public enum ProgressEvent: Sendable {
    case searching(String)
    case images(done: Int, total: Int)
    case rendering(done: Int, total: Int)
    case warning(String)
}

/// Settings of one gallery build that are not the source's.
public struct BuildOptions: Sendable {
    public var output: URL
    public var itemsPerPage: Int
    public var theme: Theme
    /// The largest image accepted.
    public var maximumImageBytes: Int

    public init(output: URL, itemsPerPage: Int = 10, theme: Theme = .builtIn, maximumImageBytes: Int = 40 << 20) {
        self.output = output
        self.itemsPerPage = itemsPerPage
        self.theme = theme
        self.maximumImageBytes = maximumImageBytes
    }
}

/// What a run did, for the summary line.
public struct BuildSummary: Sendable {
    public var items = 0
    public var imagesDownloaded = 0
    public var imagesFromCache = 0
    public var imagesFailed = 0
    public var apiRequests = 0
    public var apiCacheHits = 0
    public var pagesWritten = 0
    public var pagesUnchanged = 0
    public var warnings: [String] = []
    public var seconds: Double = 0

    /// One line: items, images downloaded / from cache, pages written, time.
    public var line: String {
        var parts = ["\(items) item\(items == 1 ? "" : "s")"]
        parts.append(
            "\(imagesDownloaded) image\(imagesDownloaded == 1 ? "" : "s") downloaded, \(imagesFromCache) from cache")
        if imagesFailed > 0 { parts.append("\(imagesFailed) failed") }
        parts.append("\(pagesWritten) page\(pagesWritten == 1 ? "" : "s") written")
        if pagesUnchanged > 0 { parts.append("\(pagesUnchanged) unchanged") }
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

        progress(.searching(label))
        let api = CachedAPIClient(fetcher: fetcher, cache: cache, policy: policy)
        let result = try await source.collect(using: api)
        summary.apiRequests = api.counters.requests
        summary.apiCacheHits = api.counters.cacheHits
        summary.items = result.items.count
        summary.warnings += result.warnings
        result.warnings.forEach { progress(.warning($0)) }

        let images = try await ImageDownloader(
            fetcher: fetcher, cache: cache, offline: policy.offline, maximumBytes: options.maximumImageBytes,
            progress: progress
        ).download(Self.imageURLs(of: result))
        summary.imagesDownloaded = images.downloaded
        summary.imagesFromCache = images.fromCache
        summary.imagesFailed = images.outcomes.values.filter { if case .failed = $0 { true } else { false } }.count

        let gallery = GalleryAssembler(itemsPerPage: options.itemsPerPage).assemble(result, images: images.outcomes)
        let model = ModelDocument.make(gallery)
        let writer = OutputWriter(root: options.output)

        let jobs = gallery.pageJobs
        for (index, job) in jobs.enumerated() {
            let page = try renderer.render(job, model: model)
            if try writer.write(page.bytes, to: page.href) {
                summary.pagesWritten += 1
            } else {
                summary.pagesUnchanged += 1
            }
            progress(.rendering(done: index + 1, total: jobs.count))
        }
        for record in Set(
            images.outcomes.values.compactMap { if case .stored(let record) = $0 { record } else { nil } }
        )
        .sorted(by: { $0.sha256 < $1.sha256 }) {
            try writer.placeImage(
                from: cache.imageFile(for: record), byteCount: record.byteCount,
                at: GalleryAssembler.localPath(of: record))
        }
        for asset in options.theme.assets { try writer.write(asset.bytes, to: "assets/\(asset.name)") }
        try writer.write(model.serialized(), to: "gallery.xml")

        let elapsed = ContinuousClock.now - started
        summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
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
}
