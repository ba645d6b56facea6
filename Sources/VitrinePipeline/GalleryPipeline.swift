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
    public var output: URL
    /// Items per grid page of a gallery built with `run(_:label:options:)`.
    public var itemsPerPage: Int
    public var theme: Theme
    /// The largest image accepted.
    public var maximumImageBytes: Int
    /// The largest API response accepted.
    public var maximumResponseBytes: Int
    /// Write into an output folder that holds files Vitrine did not write.
    public var force: Bool
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

    public init(
        output: URL, itemsPerPage: Int = 10, theme: Theme = .builtIn, maximumImageBytes: Int = 40 << 20,
        maximumResponseBytes: Int = 16 << 20, force: Bool = false, tileShape: GalleryModel.TileShape = .natural,
        frozen: Bool = false, timestamp: Date? = nil, strict: Bool = false, waitForOutput: Bool = true
    ) {
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
    public var folder: String
    public var source: any ImageSource
    /// What the progress line says is being searched.
    public var label: String
    public var itemsPerPage: Int
    public var tileShape: GalleryModel.TileShape

    public init(
        folder: String, source: any ImageSource, label: String, itemsPerPage: Int,
        tileShape: GalleryModel.TileShape = .natural
    ) {
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
    public var folder: String
    public var source: any RandomImageSource
    public var every: UpdateInterval

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
    public var folder: String {
        switch self {
        case .gallery(let plan): plan.folder
        case .random(let plan): plan.folder
        }
    }
}

/// Several galleries built into one output folder under a home page that links them (`vitrine build`).
public struct SitePlan: Sendable {
    public var title: String
    /// The absolute URL the site is published at; with it, `sitemap.xml` and `feed.xml` are written.
    public var baseURL: String?
    public var parts: [SitePart]

    public init(title: String, baseURL: String? = nil, parts: [SitePart]) {
        self.title = title
        self.baseURL = baseURL
        self.parts = parts
    }

    public init(title: String, baseURL: String? = nil, galleries: [GalleryPlan]) {
        self.init(title: title, baseURL: baseURL, parts: galleries.map(SitePart.gallery))
    }
}

/// The one pipeline every gallery goes through: source -> fetch -> cache -> model -> render -> publish.
public struct GalleryPipeline: Sendable {
    public var fetcher: any HTTPFetching
    public var cache: CacheStore
    public var policy: CachePolicy
    public var progress: @Sendable (ProgressEvent) -> Void
    /// The clock of random pages' schedules.
    public var now: @Sendable () -> Date

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

    /// A gallery or a random page between the model and publish stages.
    fileprivate struct Prepared {
        /// What the part shows.
        enum Content {
            case gallery(GalleryModel)
            /// A random page, with the state its `random.json` keeps.
            case random(RandomPageModel, state: RandomPageState)
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
    }

    private func build(_ plans: [SitePart], site: SitePlan?, options: BuildOptions) async throws -> BuildSummary {
        let started = ContinuousClock.now
        // One instant for the whole build, so that a random page's update does not depend on how long the
        // galleries before it took.
        let scheduleNow = RandomPagePipeline.toTheSecond(now())
        var policy = policy
        if options.frozen { policy.offline = true }
        let salt = Self.salt(of: options.theme)
        let fingerprint = Self.fingerprint(of: plans, site: site, options: options, cache: cache, salt: salt)
        let lock = try await OutputLock.acquire(options.output, wait: options.waitForOutput) {
            progress(.waitingForOutput(folder: $0))
        }
        defer { withExtendedLifetime(lock) {} }
        let records = cache.outputRecords(for: options.output)
        let statePath = records.state
        // --frozen proves that the cache alone can rebuild the output, which the output being current does not.
        if !options.frozen, let state = BuildState.read(atPath: statePath),
            state.isCurrent(
                fingerprint: fingerprint, output: options.output, cache: cache.root, policy: policy, now: Date(),
                scheduleNow: scheduleNow)
        {
            var summary = state.summary
            summary.warnings.forEach { progress(.warning($0)) }
            summary.seconds = (ContinuousClock.now - started).seconds
            return summary
        }

        var kinds: [GalleryModel.PageJob.Kind] = site == nil ? [.grid, .preview] : [.grid, .preview, .home]
        if plans.contains(where: { if case .random = $0 { true } else { false } }) { kinds += [.random, .favorites] }
        let renderer = try PageRenderer(theme: options.theme, kinds: kinds)
        // Refused before anything is asked; the folder's manifest and files are read while the API answers.
        try OutputWriter.refuseForeignFolder(options.output, force: options.force)
        if options.frozen && !OutputManifest.isPresent(in: options.output) {
            throw FrozenBuildError.noManifest(folder: options.output.path)
        }
        let surveyTask = Task { OutputFolderSurvey(root: options.output, records: records) }
        cache.sweepTemporaryFiles()
        let snapshotPath = cache.imageSnapshotPath(for: options.output)
        let snapshotRead = Task {
            let bytes = FileManager.default.contents(atPath: snapshotPath).map { [UInt8]($0) }
            return (bytes: bytes, snapshot: bytes.flatMap(ImageIndexSnapshot.init(bytes:)))
        }

        let link = site.map { GalleryModel.SiteLink(title: $0.title, href: SiteModel.homeHref) }
        var galleries: [Prepared] = []
        for part in plans {
            try Task.checkCancellation()
            switch part {
            case .gallery(let plan):
                galleries.append(
                    try await prepare(
                        plan, site: link, policy: policy, snapshot: { await snapshotRead.value.snapshot },
                        survey: { await surveyTask.value }, salt: salt, options: options))
            case .random(let plan):
                galleries.append(
                    try await prepare(plan, site: link, policy: policy, options: options, at: scheduleNow))
            }
        }
        let writer = try OutputWriter(survey: await surveyTask.value, force: options.force, records: records)
        if options.frozen && !writer.foundManifest { throw FrozenBuildError.noManifest(folder: options.output.path) }
        if options.frozen {
            try FrozenBuildError.check(galleries.map { ($0.folder, $0.itemIDs) }, against: writer.previousGalleries)
        }

        if options.strict && galleries.contains(where: { $0.summary.losses > 0 }) {
            var totals = BuildSummary()
            for gallery in galleries { totals.add(gallery.report) }
            throw IncompleteGalleryError(summary: totals)
        }

        let siteModel = site.map { site in
            SiteModel(
                title: site.title,
                galleries: galleries.enumerated().map { $1.card(id: "g\($0 + 1)") },
                feedHref: site.baseURL == nil ? nil : SiteFeeds.feedPath)
        }
        let stored = Set(galleries.flatMap(\.stored)).sorted { $0.sha256 < $1.sha256 }
        let assets = options.theme.assets
        let feeds = site.flatMap { site in
            site.baseURL.map { SiteFeeds(baseURL: $0, title: site.title, galleries: galleries.map(\.feedEntry)) }
        }
        try renderer.prepare(for: galleries.flatMap(\.jobs))
        try Task.checkCancellation()
        var planned = galleries.flatMap { $0.jobs.map(\.href) + $0.modelFiles }
        planned += stored.map(GalleryAssembler.localPath(of:))
        planned += assets.map { "assets/\($0.name)" }
        if siteModel != nil { planned += [SiteModel.homeHref, "site.xml"] }
        if feeds != nil { planned += [SiteFeeds.sitemapPath, SiteFeeds.feedPath] }
        var seen = Set<String>()
        if let twice = planned.first(where: { !seen.insert($0.lowercased()).inserted }) {
            throw InternalInconsistencyError(detail: "two files of the build would be written to \(twice)")
        }
        try writer.begin(planned: planned)

        let total = galleries.reduce(0) { $0 + $1.jobs.count } + (siteModel == nil ? 0 : 1)
        var done = 0
        for index in galleries.indices {
            let folder = galleries[index].folder
            switch galleries[index].content {
            case .gallery(let model):
                for view in galleries[index].views {
                    try Task.checkCancellation()
                    try publish(
                        view.job, from: { ModelDocument.make(view) }, inputs: view.inputs, renderer: renderer,
                        writer: writer, counts: &galleries[index].summary)
                    done += 1
                    progress(.rendering(done: done, total: total))
                }
                let views = galleries[index].views
                galleries[index].views = []
                let modelInputs = SHA256Hasher.hex(
                    of: views.sorted { $0.job.id < $1.job.id }.map(\.inputs).joined())
                if !writer.keep(folder + "gallery.xml", inputs: modelInputs) {
                    try writer.write(ModelXML.file(model), to: folder + "gallery.xml", inputs: modelInputs)
                }
            case .random(let model, let state):
                let inputs = model.inputs(salt: salt)
                var document: LibXMLDocument?
                for job in model.pageJobs {
                    try Task.checkCancellation()
                    try publish(
                        job,
                        from: {
                            let made = document ?? ModelDocument.make(model)
                            document = made
                            return made
                        }, inputs: inputs, renderer: renderer, writer: writer, counts: &galleries[index].summary)
                    done += 1
                    progress(.rendering(done: done, total: total))
                }
                if !writer.keep(folder + "gallery.xml", inputs: inputs) {
                    try writer.write(ModelXML.file(model), to: folder + "gallery.xml", inputs: inputs)
                }
                try writer.write(state.encoded(), to: folder + RandomPageState.fileName)
            }
        }
        var totals = BuildSummary()
        if let siteModel {
            var counts = BuildSummary()
            let home = GalleryModel.PageJob(kind: .home, id: SiteModel.pageID, href: SiteModel.homeHref)
            try publish(
                home, from: { ModelDocument.make(siteModel) }, inputs: siteModel.inputs(salt: salt),
                renderer: renderer, writer: writer, counts: &counts)
            totals.pagesRendered += counts.pagesRendered
            totals.pagesWritten += counts.pagesWritten
            totals.pagesUnchanged += counts.pagesUnchanged
            try writer.write(ModelXML.file(siteModel), to: "site.xml")
            progress(.rendering(done: total, total: total))
        }
        var urlsOfImage: [String: [String]] = [:]
        var verifiedStamps: [String: FileStamp] = [:]
        for gallery in galleries {
            for (url, record) in gallery.images { urlsOfImage[record.sha256, default: []].append(url) }
            verifiedStamps.merge(gallery.stamps) { first, _ in first }
        }
        for record in stored {
            try Task.checkCancellation()
            try writer.placeImage(
                from: cache.imageFile(for: record), sha256: record.sha256, byteCount: record.byteCount,
                cachedStamp: verifiedStamps[record.sha256], urls: Set(urlsOfImage[record.sha256] ?? []).sorted(),
                at: GalleryAssembler.localPath(of: record))
        }
        for asset in assets { try writer.write(asset.bytes, to: "assets/\(asset.name)") }
        if let feeds {
            try writer.write(
                feeds.sitemap(pages: writer.writtenPaths.filter { $0.hasSuffix(".html") }), to: SiteFeeds.sitemapPath)
            try writer.write(feeds.atom(timestamp: options.timestamp), to: SiteFeeds.feedPath)
        }
        let removed = try writer.finish(galleries: galleries.map(\.manifestRecord))
        if !writer.keptChanged.isEmpty {
            let shown = writer.keptChanged.prefix(3).joined(separator: ", ")
            let more = writer.keptChanged.count > 3 ? " and \(writer.keptChanged.count - 3) more" : ""
            let warning =
                "Left \(shown)\(more) in place: changed since Vitrine wrote \(writer.keptChanged.count == 1 ? "it" : "them"), "
                + "so \(writer.keptChanged.count == 1 ? "it is" : "they are") no longer Vitrine's to remove."
            progress(.warning(warning))
            totals.warnings.append(warning)
        }
        if !galleries.allSatisfy(\.imagesFromSnapshot) {
            let images = galleries.reduce(into: [:]) { all, gallery in all.merge(gallery.images) { first, _ in first } }
            let stamps = galleries.reduce(into: [:]) { all, gallery in all.merge(gallery.stamps) { first, _ in first } }
            let newSnapshot = cache.snapshot(of: images, stamps: stamps).encoded()
            if newSnapshot != (await snapshotRead.value.bytes) {
                try? AtomicFile.write(
                    newSnapshot, to: URL(fileURLWithPath: snapshotPath), temporaryFolder: cache.temporaryFolder)
            }
        }

        for var gallery in galleries {
            let folder = gallery.folder
            gallery.summary.filesRemoved =
                removed.filter { path in
                    path.hasPrefix(folder)
                        && !galleries.contains { $0.folder.count > folder.count && path.hasPrefix($0.folder) }
                }.count
            totals.add(gallery.report)
        }
        totals.filesRemoved = removed.count
        let responses = galleries.reduce([BuildState.Response]?([])) { all, gallery in
            gallery.responses.flatMap { responses in all.map { $0 + responses } }
        }
        writer.recordState(
            fingerprint: fingerprint, summary: totals.unchanged, expires: galleries.compactMap(\.nextUpdate).min(),
            responses: totals.imagesFailed == 0 && totals.imagesFromOutput == 0 && totals.staleSince == nil
                && writer.keptChanged.isEmpty
                ? responses.map(Self.distinct) : nil)
        totals.seconds = (ContinuousClock.now - started).seconds
        return totals
    }

    /// Responses in path order, each once (galleries of a site may share one).
    private static func distinct(_ responses: [BuildState.Response]) -> [BuildState.Response] {
        var seen = Set<String>()
        return responses.sorted { $0.path < $1.path }.filter { seen.insert($0.path).inserted }
    }

    /// The digest of everything besides the API's answers that shapes a build's output: this executable and the
    /// theme (`salt`), the options, the site, each gallery's plan and source configuration, and the cache it reads.
    static func fingerprint(
        of plans: [SitePart], site: SitePlan?, options: BuildOptions, cache: CacheStore, salt: String
    ) -> String {
        func text(_ value: String?) -> String { value.map { "\($0.utf8.count):\($0)" } ?? "-" }
        let executable = FileStamp.of("/proc/self/exe").map { "\($0.size) \($0.modified) \($0.inode)" }
        var lines = [
            "salt \(salt)", "executable \(text(executable))", "cache \(text(cache.root.path))",
            "limits \(options.maximumImageBytes) \(options.maximumResponseBytes)",
            "timestamp \(text(options.timestamp.map { String($0.timeIntervalSince1970) }))",
        ]
        if let site { lines.append("site \(text(site.title)) \(text(site.baseURL))") }
        for part in plans {
            switch part {
            case .gallery(let plan):
                lines.append(
                    "gallery \(text(plan.folder)) \(plan.itemsPerPage) \(plan.tileShape.rawValue) "
                        + text(plan.source.configuration))
            case .random(let plan):
                lines.append(
                    "random \(text(plan.folder)) \(plan.every.seconds) " + text(plan.source.configuration))
            }
        }
        return SHA256Hasher.hex(of: lines.joined(separator: "\n"))
    }

    /// Source, fetch, cache and model for one gallery.
    private func prepare(
        _ plan: GalleryPlan, site: GalleryModel.SiteLink?, policy: CachePolicy,
        snapshot: @Sendable () async -> ImageIndexSnapshot?, survey: @Sendable () async -> OutputFolderSurvey,
        salt: String, options: BuildOptions
    ) async throws -> Prepared {
        var summary = BuildSummary()
        progress(.searching(plan.label))
        let api = CachedAPIClient(
            fetcher: fetcher, cache: cache, policy: policy, maximumResponseBytes: options.maximumResponseBytes)
        let result: SourceResult
        do {
            result = try await plan.source.collect(using: api)
        } catch let missing as NothingCachedError where options.frozen {
            throw FrozenBuildError.missing(["the API response \(missing.url)"])
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
        // --frozen proves that the cache alone can rebuild the output, so it takes nothing back from it.
        let recovery = options.frozen ? nil : OutputImageRecovery(survey: await survey(), cache: cache)
        let images = try await ImageDownloader(
            fetcher: fetcher, cache: cache, offline: policy.offline, maximumBytes: options.maximumImageBytes,
            snapshot: await snapshot(), recover: { recovery?.recover($0) }, progress: progress
        ).download(urls)
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

        let model = GalleryAssembler(
            itemsPerPage: plan.itemsPerPage, tileShape: plan.tileShape, folder: plan.folder, site: site
        ).assemble(result, images: images.outcomes, notices: notices)
        let found = images.outcomes.compactMapValues { if case .stored(let record) = $0 { record } else { nil } }
        return Prepared(
            folder: plan.folder, content: .gallery(model), views: model.pages(salt: salt),
            stored: Array(found.values), images: found, stamps: images.stamps,
            imagesFromSnapshot: images.fromSnapshot == urls.count,
            summary: summary,
            fetchedAt: result.fetchedAt, responses: api.responsesUsed)
    }

    /// Source, fetch, cache and model for a random page: its image as its schedule, `random.json` in its folder and
    /// the cache say (see `RandomPagePipeline.update`).
    private func prepare(
        _ plan: RandomPagePlan, site: GalleryModel.SiteLink?, policy: CachePolicy, options: BuildOptions,
        at now: Date
    ) async throws -> Prepared {
        let pages = RandomPagePipeline(fetcher: fetcher, cache: cache, progress: progress)
        let stored = RandomPageState.read(in: options.output, folder: plan.folder)
        let update = try await pages.update(
            plan.source, previous: stored, folder: plan.folder, site: site,
            options: RandomPageOptions(
                output: options.output, every: plan.every, theme: options.theme, force: options.force,
                offline: policy.offline, refresh: policy.refresh, maximumImageBytes: options.maximumImageBytes,
                maximumResponseBytes: options.maximumResponseBytes, frozen: options.frozen),
            at: now)
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

    /// Renders and writes one page from its view of the model, unless the previous run wrote it from the same
    /// inputs and it is still there.
    private func publish(
        _ job: GalleryModel.PageJob, from model: () -> LibXMLDocument, inputs: String, renderer: PageRenderer,
        writer: OutputWriter, counts: inout BuildSummary
    ) throws {
        if writer.keep(job.href, inputs: inputs) {
            counts.pagesUnchanged += 1
            return
        }
        let page: RenderedPage
        do {
            page = try renderer.render(job, model: model())
        } catch {
            // The built-in theme is tested against every model Vitrine makes: its failing is Vitrine's fault.
            guard renderer.theme.isBuiltIn else { throw error }
            throw InternalInconsistencyError(detail: "the built-in theme failed on \(job.href) (\(error.sentence))")
        }
        counts.pagesRendered += 1
        if try writer.write(page.bytes, to: page.href, inputs: inputs) {
            counts.pagesWritten += 1
        } else {
            counts.pagesUnchanged += 1
        }
    }

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

    /// Every distinct remote URL the gallery needs, in a stable order.
    static func imageURLs(of result: SourceResult) -> [String] { result.remoteImageURLs }

    /// A time for a notice: UTC, to the minute.
    static func describe(_ date: Date) -> String {
        UTCTime.string(date, format: "yyyy-MM-dd HH:mm 'UTC'")
    }
}

extension GalleryPipeline.Prepared {
    /// Its pages, in order.
    var jobs: [GalleryModel.PageJob] {
        switch content {
        case .gallery: views.map(\.job)
        case .random(let model, _): model.pageJobs
        }
    }

    /// The files beside its pages: the model, and a random page's schedule.
    var modelFiles: [String] {
        switch content {
        case .gallery: [folder + "gallery.xml"]
        case .random: [folder + "gallery.xml", folder + RandomPageState.fileName]
        }
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
        }
    }

    /// Its card on the site's home page.
    func card(id: String) -> SiteModel.Gallery {
        switch content {
        case .gallery(let model): SiteModel.card(for: model, id: id)
        case .random(let model, _): SiteModel.card(for: model, id: id)
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
                        guard case .picture(_, let credit?, _, _) = entry.content else { return nil }
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
        }
    }
}

/// The build was asked for all or nothing (the CLI's `--strict`) and a gallery lacks something, so the output folder was left as it was.
public struct IncompleteGalleryError: UserFacingError {
    /// What the build found before it stopped.
    public let summary: BuildSummary

    public var sentence: String {
        let losses = summary.losses
        return
            "The gallery lacks \(losses) thing\(losses == 1 ? "" : "s") (see the warnings above), and the build "
            + "was asked for all or nothing; the output folder was left as it was."
    }

    public var kind: FailureKind { .incomplete }
}

/// Something that cannot happen did: a bug in Vitrine, never the user's theme or data.
public struct InternalInconsistencyError: UserFacingError {
    public let detail: String

    public var sentence: String {
        "Internal error: \(detail), so the run stopped. This is a bug in Vitrine: please report it with the "
            + "command you ran."
    }

    public var kind: FailureKind { .internalInconsistency }
}
