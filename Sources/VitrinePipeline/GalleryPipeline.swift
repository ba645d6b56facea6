import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrinePublish
import VitrineRender
import VitrineSources
import VitrineStore

/// What a run reports as it goes; the CLI shows it on a terminal.
public enum ProgressEvent: Sendable {
    case searching(String)
    case images(done: Int, total: Int)
    case rendering(done: Int, total: Int)
    /// A pause the user should know about, such as a rate limit.
    case waiting(seconds: Int, reason: String)
    /// Another run is writing into the output folder; this one waits for it to finish.
    case waitingForOutput(folder: String)
    case retrying(reason: String, attempt: Int)
    case warning(String)
}

/// Settings of a build that are not a source's.
public struct BuildOptions: Sendable {
    /// The output folder: only files listed in its manifest are ever replaced or removed.
    public var output: URL
    /// Items per grid page of a gallery built with `run(_:label:options:)`.
    public var itemsPerPage: Int
    /// The templates the pages are rendered with.
    public var theme: Theme
    /// The largest image accepted.
    public var maximumImageBytes: Int
    /// The largest API response accepted.
    public var maximumResponseBytes: Int
    /// Write into an output folder that holds files Vitrine did not write (beside them, never over them).
    public var force: Bool
    /// The tiles of a gallery built with `run(_:label:options:)`: natural or square.
    public var tileShape: GalleryModel.TileShape
    /// Rebuild from the cache alone and fail, naming it, if anything the output's manifest lists is not there.
    public var frozen: Bool
    /// The time written where a file needs one (the Atom feed); from `SOURCE_DATE_EPOCH`. Without it, the time
    /// the gallery's API responses were fetched, so that the same cache gives the same bytes.
    public var timestamp: Date?
    /// Leave the output folder as it was and fail when a gallery would lack anything (a failed image, a skipped
    /// result, stale results).
    public var strict: Bool
    /// Wait for another run that is writing into the output folder, instead of failing at once.
    public var waitForOutput: Bool
    /// Keep the site's history (`history.json`, "What's new" pages, a feed entry per snapshot); nil: keep none.
    public var history: HistoryOptions?

    /// The defaults are `vitrine`'s own.
    public init(
        output: URL, itemsPerPage: Int = 10, theme: Theme = .builtIn, maximumImageBytes: Int = 40 << 20,
        maximumResponseBytes: Int = 16 << 20, force: Bool = false, tileShape: GalleryModel.TileShape = .natural,
        frozen: Bool = false, timestamp: Date? = nil, strict: Bool = false, waitForOutput: Bool = true,
        history: HistoryOptions? = nil
    ) {
        self.history = history
        self.strict = strict
        self.waitForOutput = waitForOutput
        self.tileShape = tileShape
        self.output = output
        self.itemsPerPage = itemsPerPage
        self.theme = theme
        self.maximumImageBytes = maximumImageBytes
        self.maximumResponseBytes = maximumResponseBytes
        self.force = force
        self.frozen = frozen
        self.timestamp = timestamp
    }
}

/// One gallery of a build: its source, and where and how its pages go.
public struct GalleryPlan: Sendable {
    /// The folder of its pages under the output root: "" alone, "NAME/" in a site.
    package var folder: String
    package var source: any ImageSource
    /// What the progress line says is being searched.
    package var label: String
    package var itemsPerPage: Int
    package var tileShape: GalleryModel.TileShape
    /// Keep the items that leave the results browsable (`keep = "all"`), when the site keeps a history.
    package var keepAll: Bool

    /// A gallery of `source` in `folder`, `itemsPerPage` items on each grid page.
    public init(
        folder: String, source: any ImageSource, label: String, itemsPerPage: Int,
        tileShape: GalleryModel.TileShape = .natural, keepAll: Bool = false
    ) {
        self.keepAll = keepAll
        self.folder = folder
        self.source = source
        self.label = label
        self.itemsPerPage = itemsPerPage
        self.tileShape = tileShape
    }
}

/// A random-image page of a site: where its pages go, where its image comes from and how often it changes.
public struct RandomPagePlan: Sendable {
    /// The folder of its pages under the output root, "NAME/".
    package var folder: String
    package var source: any RandomImageSource
    package var every: UpdateInterval

    /// A random page of `source` in `folder`, with a new image `every` so often.
    public init(folder: String, source: any RandomImageSource, every: UpdateInterval) {
        self.folder = folder
        self.source = source
        self.every = every
    }
}

/// One part of a site, in its own folder: a gallery of an API's results, or a random-image page.
public enum SitePart: Sendable {
    case gallery(GalleryPlan)
    case random(RandomPagePlan)

    /// The folder of its pages under the output root.
    package var folder: String {
        switch self {
        case .gallery(let plan): plan.folder
        case .random(let plan): plan.folder
        }
    }
}

/// Several galleries built into one output folder under a home page that links them (`vitrine build`).
public struct SitePlan: Sendable {
    package var title: String
    /// The absolute URL the site is published at; with it, `sitemap.xml` and `feed.xml` are written.
    package var baseURL: String?
    package var parts: [SitePart]

    /// A site of `parts` under a home page titled `title`.
    public init(title: String, baseURL: String? = nil, parts: [SitePart]) {
        self.title = title
        self.baseURL = baseURL
        self.parts = parts
    }

    /// A site of galleries alone.
    public init(title: String, baseURL: String? = nil, galleries: [GalleryPlan]) {
        self.init(title: title, baseURL: baseURL, parts: galleries.map(SitePart.gallery))
    }
}

/// The one pipeline every gallery goes through: source -> fetch -> cache -> model -> render -> publish.
public struct GalleryPipeline: Sendable {
    package var fetcher: any HTTPFetching
    package var cache: CacheStore
    package var policy: CachePolicy
    package var progress: @Sendable (ProgressEvent) -> Void
    /// The clock of random pages' schedules.
    package var now: @Sendable () -> Date

    /// A pipeline that fetches through `fetcher`, keeps answers and images in `cache` as `policy` says, reports on
    /// `progress`, and reads random pages' schedules on `now`.
    public init(
        fetcher: any HTTPFetching, cache: CacheStore, policy: CachePolicy,
        progress: @escaping @Sendable (ProgressEvent) -> Void = { _ in },
        now: @escaping @Sendable () -> Date = Date.init
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
            mode: .shard(shard, fingerprint: site.shardFingerprint(config: config, salt: Self.salt(of: options.theme))))
    }

    /// Assembles the site from the output folders of its shards (each built by `build(_:shard:config:options:)`
    /// from the same config and theme) into the output folder, asking no API: the same files, byte for byte, as
    /// building the site at once.
    public func merge(_ site: SitePlan, shards: [URL], config: String, options: BuildOptions) async throws
        -> BuildSummary
    {
        try await build(
            site.parts, site: site, options: options,
            mode: .merge(shards, fingerprint: site.shardFingerprint(config: config, salt: Self.salt(of: options.theme)))
        )
    }

    /// A gallery or a random page between the model and publish stages.
    struct Prepared {
        /// What the part shows.
        enum Content {
            case gallery(GalleryModel)
            /// A random page, with the state its `random.json` keeps.
            case random(RandomPageModel, state: RandomPageState)
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
        var build = GalleryBuild(pipeline: self, parts: parts, site: site, options: options, mode: mode)
        try await BuildStep.run(GalleryBuild.steps, on: &build, until: { $0.outcome != nil })
        guard var summary = build.outcome else {
            throw InternalInconsistencyError(detail: "the build ended without a report")
        }
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
        salt: String, options: BuildOptions
    ) async throws -> Prepared {
        var summary = BuildSummary()
        progress(.searching(plan.label))
        let api = CachedAPIClient(
            fetcher: fetcher, cache: cache, policy: policy, maximumResponseBytes: options.maximumResponseBytes)
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
        let recovery = options.frozen ? nil : OutputImageRecovery(survey: await survey(), cache: cache)
        let images = try await step("downloading the images" + Self.of(plan.folder)) {
            try await ImageDownloader(
                fetcher: fetcher, cache: cache, offline: policy.offline, maximumBytes: options.maximumImageBytes,
                snapshot: await snapshot(), recover: { recovery?.recover($0) }, progress: progress
            ).download(urls)
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

        let (model, views) = try await step("laying out the pages" + Self.of(plan.folder)) {
            var model = GalleryAssembler(
                itemsPerPage: plan.itemsPerPage, tileShape: plan.tileShape, folder: plan.folder, site: site
            ).assemble(result, images: images.outcomes, notices: notices)
            if options.history != nil { model.changesHref = plan.folder + Self.changesPage }
            return (model, model.pages(salt: salt))
        }
        let found = images.outcomes.compactMapValues { if case .stored(let record) = $0 { record } else { nil } }
        let keepsArchive = plan.keepAll && options.history != nil && result.groups.isEmpty
        return Prepared(
            folder: plan.folder, content: .gallery(model), views: views,
            stored: Array(found.values), images: found, stamps: images.stamps,
            imagesFromSnapshot: images.fromSnapshot == urls.count,
            summary: summary,
            fetchedAt: result.fetchedAt, responses: api.responsesUsed,
            archiveLayout: keepsArchive
                ? ArchiveAssembler(itemsPerPage: plan.itemsPerPage, folder: plan.folder, tileShape: plan.tileShape)
                : nil,
            archiveHosts: keepsArchive ? ArchiveImageHosts(endpoints: plan.source.endpoints, imageURLs: urls) : nil)
    }

    /// Source, fetch, cache and model for a random page: its image as its schedule, `random.json` in its folder and
    /// the cache say (see `RandomPagePipeline.update`).
    func prepare(
        _ plan: RandomPagePlan, site: GalleryModel.SiteLink?, policy: CachePolicy, options: BuildOptions,
        at now: Date
    ) async throws -> Prepared {
        let pages = RandomPagePipeline(fetcher: fetcher, cache: cache, progress: progress)
        let stored = RandomPageState.read(in: options.output, folder: plan.folder)
        let update = try await step("choosing the random image" + Self.of(plan.folder)) {
            try await pages.update(
                plan.source, previous: stored, folder: plan.folder, site: site,
                options: RandomPageOptions(
                    output: options.output, every: plan.every, theme: options.theme, force: options.force,
                    offline: policy.offline, refresh: policy.refresh, maximumImageBytes: options.maximumImageBytes,
                    maximumResponseBytes: options.maximumResponseBytes, frozen: options.frozen),
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
            folder: plan.folder, content: .random(update.model, state: update.state), views: [],
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

    /// Which part of a site a step works on, for its name: " of hamburg/", or nothing for a gallery on its own.
    static func of(_ folder: String) -> String { folder.isEmpty ? "" : " of \(folder)" }

    /// Every distinct remote URL the gallery needs, in a stable order.
    static func imageURLs(of result: SourceResult) -> [String] { result.remoteImageURLs }

    /// A time for a notice: UTC, to the minute.
    static func describe(_ date: Date) -> String {
        UTCTime.string(date, format: "yyyy-MM-dd HH:mm 'UTC'")
    }
}

extension GalleryPipeline.Prepared.Content {
    /// A merged gallery's record.
    var record: ShardRecord.Gallery? { if case .merged(let record, _) = self { record } else { nil } }
}

extension GalleryPipeline.Prepared {
    /// Its pages, in order.
    var jobs: [GalleryModel.PageJob] {
        switch content {
        case .gallery: views.map(\.job)
        case .random(let model, _): model.pageJobs
        case .merged: []
        }
    }

    /// The files beside its pages: the model, and a random page's schedule.
    var modelFiles: [String] {
        switch content {
        case .gallery: [folder + "gallery.xml"]
        case .random: [folder + "gallery.xml", folder + RandomPageState.fileName]
        case .merged: []
        }
    }

    /// Every file of its own: its pages, then the files beside them.
    var files: [String] {
        if case .merged(let record, _) = content { record.files } else { jobs.map(\.href) + modelFiles }
    }

    /// When a random page is next due for a new image; a build is current only until then.
    var nextUpdate: Date? {
        if case .random(_, let state) = content { state.nextUpdate } else { nil }
    }

    /// The ids of its items, as the manifest lists them.
    var itemIDs: [String] {
        switch content {
        case .gallery(let model): model.allItems.map { $0.sourceID ?? $0.id }
        case .random(let model, _): [model.photoID]
        case .merged(let record, _): record.manifest.items.map(\.id)
        }
    }

    /// Its card on the site's home page.
    func card(id: String) -> SiteModel.Gallery {
        switch content {
        case .gallery(let model): SiteModel.card(for: model, id: id)
        case .random(let model, _): SiteModel.card(for: model, id: id)
        case .merged(let record, _): record.siteCard(id: id)
        }
    }

    /// The gallery's part of the build report.
    var report: BuildSummary.Gallery {
        switch content {
        case .gallery(let model):
            .init(
                path: folder, source: model.source.name, queries: model.variants.compactMap(\.query),
                summary: summary)
        case .random(let model, _):
            .init(path: folder, source: model.source.name, queries: [], summary: summary)
        case .merged(let record, _):
            .init(path: folder, source: record.manifest.source, queries: record.manifest.queries, summary: summary)
        }
    }

    /// The gallery as the output's manifest records it.
    var manifestRecord: OutputManifest.Gallery {
        switch content {
        case .gallery(let model):
            let items = model.allItems.map { item in
                OutputManifest.Item(
                    id: item.sourceID ?? item.id,
                    credits: item.entries.compactMap { entry in
                        guard case .picture(_, let credit?, _, _, _, _) = entry.content else { return nil }
                        return OutputManifest.Credit(variant: entry.variant, name: credit.name, url: credit.url)
                    })
            }
            return OutputManifest.Gallery(
                path: folder, title: model.title, source: model.source.name, sourceLabel: model.source.label,
                queries: model.variants.compactMap(\.query), items: items)
        case .random(let model, _):
            let credit = OutputManifest.Credit(
                variant: "random", name: model.credit.author, url: model.credit.authorURL)
            return OutputManifest.Gallery(
                path: folder, title: model.title, source: model.source.name, sourceLabel: model.source.label,
                queries: [], items: [OutputManifest.Item(id: model.photoID, credits: [credit])])
        case .merged(let record, _):
            return record.manifest
        }
    }

    /// The gallery as the Atom feed lists it.
    var feedEntry: SiteFeeds.Entry {
        switch content {
        case .gallery(let model):
            SiteFeeds.Entry(
                path: model.collections.first?.pages.first?.href ?? folder + "index.html", title: model.title,
                summary: "\(summary.items) image\(summary.items == 1 ? "" : "s") from \(model.source.label)"
                    + (model.variants.compactMap(\.query).isEmpty
                        ? ""
                        : " for "
                            + model.variants.compactMap { $0.query.map { "“\($0)”" } }.joined(separator: " and ")),
                updated: fetchedAt)
        case .random(let model, _):
            SiteFeeds.Entry(
                path: model.pageJobs[0].href, title: model.title,
                summary: "\(SiteModel.scheduleLine(model.every)) from \(model.source.label)", updated: fetchedAt)
        case .merged(let record, _):
            record.feedEntry
        }
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
