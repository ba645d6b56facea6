import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineImaging
import VitrineModel
import VitrinePublish
import VitrineRender
import VitrineSources
import VitrineStore

/// The one pipeline every gallery goes through: source -> fetch -> cache -> model -> render -> publish.
public struct GalleryPipeline: Sendable {
    package var fetcher: any HTTPFetching
    package var cache: CacheStore
    package var policy: CachePolicy
    package var progress: @Sendable (ProgressEvent) -> Void
    /// The clock every date of a build is decided with: an API answer's age, a history snapshot's time, a random
    /// page's schedule (see `WallClock`).
    package var now: @Sendable () -> Date
    /// From how many pages to render a build renders them on every core (tests lower it, or raise it past any
    /// build, to compare both ways).
    package var pagesRenderedOnEveryCoreFrom = PageWriter.onEveryCoreFrom
    /// Where a build keeps the pages it renders while its images download; nil renders none early (tests compare
    /// both ways). Asked once a build.
    package var earlyPagesOfABuild: @Sendable () -> EarlyPages? = { EarlyPages() }

    /// A pipeline that fetches through `fetcher`, keeps answers and images in `cache` as `policy` says, reports on
    /// `progress`, and decides every date (an answer's age, a snapshot's time, a random page's schedule) on `now`:
    /// a program embedding Vitrine passes the system's clock, or one of its own to build as of another time.
    public init(
        fetcher: any HTTPFetching, cache: CacheStore, policy: CachePolicy,
        progress: @escaping @Sendable (ProgressEvent) -> Void = { _ in },
        now: @escaping @Sendable () -> Date
    ) {
        self.fetcher = fetcher
        self.cache = cache
        self.policy = policy
        self.progress = progress
        self.now = now
    }

    /// Builds one gallery at the root of the output folder.
    public func run(_ source: any ImageSource, label: String, options: BuildOptions) async throws -> BuildSummary {
        let plan = GalleryPlan(
            folder: "", source: source, label: label, itemsPerPage: options.itemsPerPage,
            tileShape: options.tileShape)
        return try await run(plan, options: options)
    }

    /// Builds one gallery; its plan's folder is normally "" (the root of the output folder).
    public func run(_ plan: GalleryPlan, options: BuildOptions) async throws -> BuildSummary {
        try await run(.gallery(plan), options: options)
    }

    /// Builds one gallery or random page without a home page.
    public func run(_ part: SitePart, options: BuildOptions) async throws -> BuildSummary {
        try await build([part], site: nil, options: options)
    }

    /// Builds a site: every gallery in its folder, a home page linking them, and with a base URL a sitemap and an
    /// Atom feed.
    public func build(_ site: SitePlan, options: BuildOptions) async throws -> BuildSummary {
        try await build(site.parts, site: site, options: options)
    }

    /// Builds the galleries of one shard of a site, with the site's home link on their pages, and records beside
    /// them what a merge needs to make the site's own files. `config` is a digest of the config the plan was read
    /// from: a merge takes only shards built from the same config and theme.
    public func build(_ site: SitePlan, shard: SiteShard, config: String, options: BuildOptions) async throws
        -> BuildSummary
    {
        try await build(
            site.parts.filter(shard.holds), site: site, options: options,
            mode: .shard(shard, fingerprint: site.shardFingerprint(config: config, salt: Self.shardSalt(of: options))))
    }

    /// Assembles the site from the output folders of its shards (each built by `build(_:shard:config:options:)`
    /// from the same config and theme) into the output folder, asking no API: the same files, byte for byte, as
    /// building the site at once.
    public func merge(_ site: SitePlan, shards: [URL], config: String, options: BuildOptions) async throws
        -> BuildSummary
    {
        try await build(
            site.parts, site: site, options: options,
            mode: .merge(shards, fingerprint: site.shardFingerprint(config: config, salt: Self.shardSalt(of: options)))
        )
    }

    /// A gallery or a random page between the model and publish stages.
    struct Prepared {
        /// What the part shows.
        enum Content {
            case gallery(GalleryModel)
            /// A random page, with the state its `random.json` keeps and what became of its image.
            case random(RandomPageModel, state: RandomPageState, outcome: RandomRunSummary.Outcome)
            /// A gallery a shard built, as its record describes it, with its files' bytes.
            case merged(ShardRecord.Gallery, copies: [Copy])
        }

        /// A file of a gallery a shard built, as a merge writes it.
        struct Copy {
            var path: String
            var bytes: [UInt8]
            /// The digest of what the shard made it from, as its manifest records it.
            var inputs: String?
        }

        var folder: String
        var content: Content
        /// A gallery's pages in order, each with what it reads and the digest of that (worked out once, in one walk).
        var views: [GalleryModel.PageView]
        var stored: [CacheStore.ImageRecord]
        /// The image of each remote URL that is in the cache.
        var images: [String: CacheStore.ImageRecord]
        /// The stamp each image's cached bytes were verified with, by SHA-256.
        var stamps: [String: FileStamp]
        /// Whether the snapshot of the previous build gave every image, so that it describes this build as well.
        var imagesFromSnapshot: Bool
        var summary: BuildSummary
        var fetchedAt: Date?
        /// The cached answers the gallery was built from; nil when not all of them are in the cache as served.
        var responses: [BuildState.Response]?
        /// The folder whose `images/` holds its images: a shard's output; nil for the cache.
        var imageFolder: URL? = nil
        /// How its archive is laid out, when it keeps the items that left (`keep = "all"`).
        var archiveLayout: ArchiveAssembler? = nil
        /// Where its archived items' images may be downloaded from again, when it keeps them.
        var archiveHosts: ArchiveImageHosts? = nil
    }

    /// Runs the steps of `GalleryBuild` in order, until one fails or the output proves to be current already.
    private func build(
        _ parts: [SitePart], site: SitePlan?, options: BuildOptions, mode: GalleryBuild.Mode = .whole
    ) async throws -> BuildSummary {
        let started = ContinuousClock.now
        var summary = try await GalleryBuild(pipeline: self, parts: parts, site: site, options: options, mode: mode)
            .run().summary
        summary.seconds = (ContinuousClock.now - started).seconds
        return summary
    }

    /// Responses in path order, each once (galleries of a site may share one).
    static func distinct(_ responses: [BuildState.Response]) -> [BuildState.Response] {
        var seen = Set<String>()
        return responses.sorted { $0.path < $1.path }.filter { seen.insert($0.path).inserted }
    }

    /// The digest of everything besides the API's answers that shapes a build's output: this executable and the
    /// theme (`salt`), the options, the site, each gallery's plan and source configuration, and the cache it reads.
    static func fingerprint(
        of plans: [SitePart], site: SitePlan?, options: BuildOptions, cache: CacheStore, salt: String,
        shard: String? = nil
    ) -> String {
        func text(_ value: String?) -> String { value.map { "\($0.utf8.count):\($0)" } ?? "-" }
        let executable = FileStamp.of("/proc/self/exe").map { "\($0.size) \($0.modified) \($0.inode)" }
        var lines = [
            "salt \(salt)", "executable \(text(executable))", "cache \(text(cache.root.path))",
            "limits \(options.maximumImageBytes) \(options.maximumResponseBytes)",
            "timestamp \(text(options.timestamp.map { String($0.timeIntervalSince1970) }))",
        ]
        if let site { lines.append("site \(text(site.title)) \(text(site.baseURL))") }
        if options.history != nil { lines.append("history") }
        if let formats = formatsKey(of: options) { lines.append(formats) }
        if let shard { lines.append("shard \(shard)") }
        for part in plans {
            switch part {
            case .gallery(let plan):
                lines.append(
                    "gallery \(text(plan.folder)) \(plan.itemsPerPage) \(plan.tileShape.rawValue) "
                        + "\(plan.keepAll ? "all" : "current") " + text(plan.source.configuration))
            case .random(let plan):
                lines.append(
                    "random \(text(plan.folder)) \(plan.every.seconds) " + text(plan.source.configuration))
            }
        }
        return SHA256Hasher.hex(of: lines.joined(separator: "\n"))
    }

    /// Source, fetch, cache and model for one gallery, each a step of its own.
    func prepare(
        _ plan: GalleryPlan, site: GalleryModel.SiteLink?, policy: CachePolicy,
        snapshot: @Sendable () async -> ImageIndexSnapshot?, survey: @Sendable () async -> OutputFolderSurvey,
        salt: String, options: BuildOptions, earlyPages: EarlyPages? = nil, stagedImages: StagedFiles? = nil
    ) async throws -> Prepared {
        var summary = BuildSummary()
        progress(.searching(plan.label))
        let api = CachedAPIClient(
            fetcher: fetcher, cache: cache, policy: policy, maximumResponseBytes: options.maximumResponseBytes, now: now
        )
        let result = try await step("searching \(plan.label)") { () async throws -> SourceResult in
            do {
                return try await plan.source.collect(using: api)
            } catch let missing as NothingCachedError where options.frozen {
                throw FrozenBuildError.missing(["the API response \(missing.url)"])
            }
        }
        summary.apiRequests = api.counters.requests
        summary.apiCacheHits = api.counters.cacheHits
        summary.items = result.allItems.count
        summary.resultsSkipped = result.skipped
        summary.warnings += result.warnings
        var notices: [GalleryModel.Notice] = []
        if let staleSince = api.counters.staleSince {
            summary.staleSince = staleSince
            let when = Self.describe(staleSince)
            notices.append(
                .init(kind: .stale, text: "Showing results saved at \(when); fresh results could not be loaded."))
            let reason = api.counters.staleReason.map { " (\($0))" } ?? ""
            summary.warnings.append(
                "Fresh results could not be loaded from \(result.source.label)\(reason); showing the results saved at "
                    + "\(when).")
        }
        summary.warnings.forEach { progress(.warning($0)) }

        let urls = Self.imageURLs(of: result)
        // A frozen rebuild proves that the cache alone can rebuild the output, so it takes nothing back from it.
        let outputFolder = options.frozen ? nil : await survey()
        let recovery = outputFolder.map { OutputImageRecovery(survey: $0, cache: cache) }
        // An image the output folder holds intact where the build puts it is not read from the cache, so its cached
        // file is not checked; a frozen build proves that the cache alone rebuilds the output, and copies in other
        // formats are made from the cached originals.
        let inOutput = options.formats.isEmpty ? outputFolder.map(Self.holdsIntact(in:)) : nil
        let layout = GalleryLayout(
            assembler: GalleryAssembler(
                itemsPerPage: plan.itemsPerPage, tileShape: plan.tileShape, folder: plan.folder, site: site,
                tagPages: PageRenderer.rendersTags(options.theme)),
            changesHref: options.history == nil ? nil : plan.folder + Self.changesPage,
            hasSearch: PageRenderer.rendersSearch(options.theme), folder: plan.folder, salt: salt)
        // Pages are rendered early from the images downloaded so far, unless the final model will have copies in
        // other formats (made after the downloads), which no early page could show.
        let early = (options.formats.isEmpty ? earlyPages : nil).map {
            EarlyRendering(
                layout: layout, result: result, notices: notices, urls: urls, theme: options.theme, pages: $0)
        }
        let images = try await step("downloading the images" + Self.of(plan.folder)) {
            try await Self.rendering(early) { checkpoint in
                try await ImageDownloader(
                    fetcher: fetcher, cache: cache, offline: policy.offline, maximumBytes: options.maximumImageBytes,
                    headers: plan.source.imageRequestHeaders, snapshot: await snapshot(), inOutput: inOutput,
                    recover: { recovery?.recover($0) }, progress: progress,
                    checkpoint: checkpoint, staged: stagedImages
                ).download(urls)
            }
        }
        summary.imagesDownloaded = images.downloaded
        summary.imagesFromCache = images.fromCache
        summary.imagesFromOutput = images.fromOutput
        if images.fromOutput > 0 {
            let count = images.fromOutput == 1 ? "1 image" : "\(images.fromOutput) images"
            let warning =
                "\(count) could not be \(policy.offline ? "found in the cache" : "downloaded"); kept the "
                + "copies the output folder already had and put them back into the cache."
            summary.warnings.append(warning)
            progress(.warning(warning))
        }
        let failed = urls.filter { if case .failed = images.outcomes[$0] { true } else { false } }
        summary.imagesFailed = failed.count
        if options.frozen && !failed.isEmpty { throw FrozenBuildError.missing(failed.map { "the image \($0)" }) }

        var found = images.outcomes.compactMapValues { if case .stored(let record) = $0 { record } else { nil } }
        var stamps = images.stamps
        var encoded = ImageReencoder.Result()
        // A gallery that copies no picture (all shown from the API's servers) needs no libvips.
        if !options.formats.isEmpty, !found.isEmpty {
            encoded = try await encode(
                Array(found.values), formats: options.formats.map(\.imageFormat), snapshot: await snapshot(),
                folder: plan.folder)
            summary.imagesEncoded = encoded.encoded
            let warnings = Self.warnings(encoded.failures)
            warnings.forEach { progress(.warning($0)) }
            summary.warnings += warnings
            found.merge(encoded.records) { first, _ in first }
            stamps.merge(encoded.stamps) { first, _ in first }
        }
        let (model, views) = try await step("laying out the pages" + Self.of(plan.folder)) {
            var layout = layout
            layout.assembler.encodings = encoded.copies
            return await layout.layOutOnEveryCore(result, images: images.outcomes, notices: notices)
        }
        let keepsArchive = plan.keepAll && options.history != nil && result.groups.isEmpty
        return Prepared(
            folder: plan.folder, content: .gallery(model), views: views,
            stored: Array(Set(found.values)), images: found, stamps: stamps,
            imagesFromSnapshot: images.fromSnapshot == urls.count && encoded.allFromSnapshot,
            summary: summary,
            fetchedAt: result.fetchedAt, responses: api.responsesUsed,
            archiveLayout: keepsArchive
                ? ArchiveAssembler(itemsPerPage: plan.itemsPerPage, folder: plan.folder, tileShape: plan.tileShape)
                : nil,
            archiveHosts: keepsArchive
                ? ArchiveImageHosts(
                    endpoints: plan.source.endpoints, imageURLs: urls, headers: plan.source.imageRequestHeaders)
                : nil)
    }

    /// Whether the output folder `survey` describes holds an image intact where a build puts it.
    static func holdsIntact(in survey: OutputFolderSurvey) -> @Sendable (CacheStore.ImageRecord) -> Bool {
        { record in
            survey.holdsIntact(GalleryAssembler.localPath(of: record), sha256: record.sha256, size: record.byteCount)
        }
    }

    /// Runs `download` while `early` renders pages from the snapshots of its outcomes that it hands to the
    /// checkpoint it is given; the early rendering stops (after the page it is on) when the downloads end.
    static func rendering(
        _ early: EarlyRendering?,
        while download: (_ checkpoint: (@Sendable ([String: ImageOutcome]) -> Void)?) async throws
            -> ImageDownloader.Result
    ) async throws -> ImageDownloader.Result {
        guard let early else { return try await download(nil) }
        let snapshots = NewestValue<[String: ImageOutcome]>()
        early.start(snapshots)
        defer { snapshots.end() }
        return try await download { snapshots.offer($0) }
    }

    /// The copies of `originals` in `formats`, re-encoded or from the cache, once libvips is known to load.
    func encode(
        _ originals: [CacheStore.ImageRecord], formats: [ImageFormat], snapshot: ImageIndexSnapshot?, folder: String
    ) async throws -> ImageReencoder.Result {
        do {
            try ImageEncoder.load()
        } catch {
            throw ImageEncoderUnavailableError(reason: error.reason)
        }
        return try await step("encoding the images" + Self.of(folder)) {
            try await ImageReencoder(cache: cache, formats: formats, snapshot: snapshot, progress: progress)
                .copies(of: originals)
        }
    }

    /// One warning per format whose copies could not all be made, with the first reason.
    static func warnings(_ failures: [(format: ImageFormat, reason: String, original: String)]) -> [String] {
        ImageEncoder.targets.compactMap { format in
            let failed = failures.filter { $0.format == format }
            guard let first = failed.first?.reason else { return nil }
            let images = Set(failed.map(\.original)).count  // an AVIF for dense screens and one for any: one image
            let count = images == 1 ? "1 image" : "\(images) images"
            return "\(count) could not be re-encoded as \(format.rawValue.uppercased()) (\(first)); their pages "
                + "offer the original alone."
        }
    }

    /// Source, fetch, cache and model for a random page: its image as its schedule, `random.json` in its folder and
    /// the cache say (see `RandomPagePipeline.update`).
    func prepare(
        _ plan: RandomPagePlan, site: GalleryModel.SiteLink?, policy: CachePolicy, options: BuildOptions,
        at now: Date
    ) async throws -> Prepared {
        let pages = RandomPagePipeline(fetcher: fetcher, cache: cache, progress: progress, now: { now })
        let stored = RandomPageState.read(in: options.output, folder: plan.folder)
        let update = try await step("choosing the random image" + Self.of(plan.folder)) {
            try await pages.update(
                plan.source, previous: stored, folder: plan.folder, site: site,
                options: RandomPageOptions(
                    build: options, every: plan.every, offline: policy.offline, refresh: policy.refresh),
                at: now)
        }
        var summary = BuildSummary()
        summary.items = 1
        summary.imagesDownloaded = update.downloaded
        summary.warnings = update.warnings
        if case .stale = update.outcome { summary.staleSince = update.state.fetchedAt }
        let files = update.files
        var images: [String: CacheStore.ImageRecord] = [:]
        for image in update.state.images + update.state.history {
            if let record = RandomPagePipeline.record(of: image) { images[image.remoteURL] = record }
        }
        if update.downloaded == 0 { summary.imagesFromCache = Set(files.map(\.record.sha256)).count }
        return Prepared(
            folder: plan.folder, content: .random(update.model, state: update.state, outcome: update.outcome),
            views: [],
            stored: files.map(\.record), images: images, stamps: [:],
            imagesFromSnapshot: true, summary: summary, fetchedAt: update.state.fetchedAt, responses: [])
    }

    /// The file name of a "What's new" page, in a gallery's folder and at the root of a site.
    static let changesPage = "changes.html"

    /// What every page's inputs include besides its model: the theme's files and Vitrine's version.
    static func salt(of theme: Theme) -> String {
        var hash = SHA256Hasher()
        hash.update(VitrineVersion.current.utf8)
        for name in theme.files.keys.sorted() {
            hash.update(name.utf8)
            hash.update([0])
            hash.update(theme.files[name]!)
        }
        return hash.finalize().hexString
    }

    /// What a shard's record names besides its config: the theme, and the formats its images are re-encoded in (a
    /// merge takes only shards whose pages offer the same files).
    static func shardSalt(of options: BuildOptions) -> String {
        let salt = salt(of: options.theme)
        return formatsKey(of: options).map { salt + " " + $0 } ?? salt
    }

    /// The formats a build re-encodes in, each with the encoder's settings; nil when it re-encodes nothing.
    static func formatsKey(of options: BuildOptions) -> String? {
        guard !options.formats.isEmpty else { return nil }
        return "formats "
            + ImageEncoder.targets(for: options.formats.map(\.imageFormat)).map(ImageEncoder.settingsKey)
            .joined(separator: " ")
    }

    /// Which part of a site a step works on, for its name: " of hamburg/", or nothing for a gallery on its own.
    static func of(_ folder: String) -> String { folder.isEmpty ? "" : " of \(folder)" }

    /// Every distinct remote URL the gallery needs, in a stable order.
    static func imageURLs(of result: SourceResult) -> [String] { result.remoteImageURLs }

    /// A time for a notice: UTC, to the minute.
    static func describe(_ date: Date) -> String {
        UTCTime.string(date, format: "yyyy-MM-dd HH:mm 'UTC'")
    }
}

/// The build was asked for all or nothing (an all-or-nothing build) and a gallery lacks something, so the output folder was left as it was.
public struct IncompleteGalleryError: UserFacingError {
    /// What the build found before it stopped.
    public let summary: BuildSummary

    /// Counts what the gallery lacks and says the output folder was left as it was.
    public var sentence: String {
        let losses = summary.losses
        return
            "The gallery lacks \(losses) thing\(losses == 1 ? "" : "s") (see the warnings above), and the build "
            + "was asked for all or nothing; the output folder was left as it was."
    }

    /// Always `.incomplete`.
    public var kind: FailureKind { .incomplete }
}

/// Something that cannot happen did: a bug in Vitrine, never the user's theme or data.
struct InternalInconsistencyError: UserFacingError {
    package let detail: String

    package var sentence: String {
        "Internal error: \(detail), so the run stopped. This is a bug in Vitrine: please report it with the "
            + "command you ran."
    }

    package var kind: FailureKind { .internalInconsistency }
}
