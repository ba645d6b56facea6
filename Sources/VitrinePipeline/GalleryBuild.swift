import Foundation
import VitrineBasics
import VitrineModel
import VitrinePublish
import VitrineRender
import VitrineStore

/// One build of galleries and random pages into an output folder, the one flow of every build (a gallery, a site, a
/// shard, a merge, the standalone random page): named steps, each taking what the steps before it made and handing
/// on what it makes, so that no step can run before what it needs exists (`run()`).
struct GalleryBuild {
    /// What a build makes of its parts.
    enum Mode {
        /// Every part, from its API.
        case whole
        /// The parts of one shard, from their APIs, with the record a merge reads (`fingerprint` is the
        /// site's, `SitePlan.shardFingerprint`).
        case shard(SiteShard, fingerprint: String)
        /// Every part, from the output folders of the shards that built them.
        case merge([URL], fingerprint: String)
    }

    /// What a build did: its report, and each part as it was published (none when the output was current already,
    /// so that the build ended at its second step).
    struct Outcome {
        var summary: BuildSummary
        var parts: [GalleryPipeline.Prepared]
    }

    let pipeline: GalleryPipeline
    let parts: [SitePart]
    let site: SitePlan?
    let options: BuildOptions
    let mode: Mode
    /// One instant for the whole build, so that a random page's update does not depend on how long the galleries
    /// before it took.
    let scheduleNow: Date
    let policy: CachePolicy
    /// What every page's inputs include besides its model (`GalleryPipeline.salt(of:)`).
    let salt: String
    let fingerprint: String
    let records: OutputRecordPaths
    /// The pages rendered while the images download, which the pages' step takes instead of rendering them.
    let earlyPages: EarlyPages?
    /// The images downloaded for the output folder, written there with no name yet (`StagedFiles`), which the
    /// images' step links into place rather than copying them from the cache.
    let stagedImages: StagedFiles

    init(pipeline: GalleryPipeline, parts: [SitePart], site: SitePlan?, options: BuildOptions, mode: Mode = .whole) {
        self.pipeline = pipeline
        self.mode = mode
        self.parts = parts
        self.site = site
        self.options = options
        scheduleNow = RandomPagePipeline.toTheSecond(pipeline.now())
        var policy = pipeline.policy
        if options.frozen { policy.offline = true }
        self.policy = policy
        salt = GalleryPipeline.salt(of: options.theme)
        var shard: String?
        if case .shard(let part, let site) = mode { shard = "\(part.number)/\(part.count) \(site)" }
        fingerprint = GalleryPipeline.fingerprint(
            of: parts, site: site, options: options, cache: pipeline.cache, salt: salt, shard: shard)
        records = pipeline.cache.outputRecords(for: options.output)
        earlyPages = pipeline.earlyPagesOfABuild()
        stagedImages = StagedFiles(folder: options.output.path, capacity: Self.stagedImagesAtMost)
    }

    /// The most images staged for the output folder, each an open descriptor until it is placed (BENCHMARKS.md,
    /// "Figures behind the code").
    static let stagedImagesAtMost = 65_536

    var progress: @Sendable (ProgressEvent) -> Void { pipeline.progress }
    var cache: CacheStore { pipeline.cache }

    /// Runs the steps in order; an unexpected error names the step that failed (`BuildStepError`).
    func run() async throws -> Outcome {
        let lock = try await step("waiting for the output folder") { try await lockOutput() }
        defer { withExtendedLifetime(lock) {} }
        // Held shared until the build ends, so that no other run's pruning removes what this one uses.
        let cacheLock = try await CacheLock.shared(cache.root)
        let recordBytes = cache.outputRecordBytes(for: options.output)
        if let current = await currentOutput() {
            return Outcome(
                summary: keepCacheWithinSize(current, lock: cacheLock, upToDate: true, recordBytes: recordBytes),
                parts: [])
        }
        // The output folder is surveyed on tasks of their own, which the theme's compiling leaves a core for.
        let found = try await step("looking at the output folder") { try surveyOutput() }
        let renderer = try await step("compiling the theme") { try compileTheme() }
        let prepared = try await step("preparing the galleries") { try await prepareGalleries(found) }
        let recorded = try await step("recording the history") { try await recordHistory(of: prepared, found: found) }
        let opened = try await step("opening the output folder") { try await openOutput(recorded, found: found) }
        let output = try await step("planning the files") {
            try await planFiles(recorded, renderer: renderer, opened: opened)
        }
        async let imageIndex = imageIndex(of: recorded.galleries)
        let rendered = try await step("rendering the pages and placing the images") {
            try await renderPagesAndPlaceImages(recorded.galleries, renderer: renderer, output: output)
        }
        try await step("writing the theme's assets") { try writeAssets(output) }
        try await step("writing the sitemap and the feed") { try writeFeeds(output) }
        try await step("writing the history") { try writeHistory(recorded.history, output: output) }
        try await step("writing the shard's record") { try writeShardRecord(output) }
        let finished = try await step("finishing the output folder") { try finishOutput(rendered, output: output) }
        let madeImageIndex = await imageIndex
        try await step("saving the image index") { try await saveImageIndex(madeImageIndex, found: found) }
        let (summary, cacheUse) = await recordBuild(
            rendered, finished: finished, warnings: recorded.warnings + finished.warnings, output: output)
        if options.leavesMemoryToExit {
            LeftToExit.keep((found, prepared, recorded, opened, output, rendered, renderer), label: options.output.path)
        }
        return Outcome(
            summary: keepCacheWithinSize(summary, use: cacheUse, lock: cacheLock, recordBytes: recordBytes),
            parts: rendered.galleries)
    }

    // MARK: - What the steps hand on

    /// The output folder as the build found it: its manifest and files, the previous build's image index and the
    /// history in place, each read on a task of its own while the APIs answer.
    struct FoundOutput {
        let survey: Task<OutputFolderSurvey, Never>
        let imageIndex: Task<(bytes: [UInt8]?, snapshot: ImageIndexSnapshot?), Never>
        /// The output folder's own history, read and decoded while the folder is surveyed, when the build keeps one.
        let historyInPlace: Task<PreviousHistory.InPlace, Never>?
    }

    /// The galleries with everything their pages show, the history's snapshots and archive included, and the
    /// history the build records.
    struct RecordedGalleries {
        var galleries: [GalleryPipeline.Prepared]
        var history: RecordedHistory?
        /// What the build says about the history it found.
        var warnings: [String] = []
    }

    /// The site's history with this build's snapshot.
    struct RecordedHistory {
        var history: SiteHistory
        /// The bytes of the last finished build's `history.json`, while it is still in place, to be kept aside
        /// before this build replaces it.
        var committed: [UInt8]?
        /// The history is the one the last finished build wrote and left in place, unchanged.
        var unchanged: Bool
    }

    /// The output folder, open for writing, once every gallery holds what a frozen or strict build asks for.
    struct OpenedOutput {
        let writer: OutputWriter
    }

    /// The output folder with every file of the build declared (`OutputWriter.begin`), and what the site's own
    /// files are made from.
    struct PlannedOutput {
        let writer: OutputWriter
        let siteModel: SiteModel?
        let feeds: SiteFeeds?
        /// What a shard's build leaves for the merge, made before the pages are rendered.
        let shardRecord: ShardRecord?
        /// Every image file of the build, each once, in the order of their digests.
        let images: [CacheStore.ImageRecord]
    }

    /// The galleries once their pages are written and their images placed, with their counts, and the counts of the
    /// site's own pages.
    struct RenderedGalleries {
        var galleries: [GalleryPipeline.Prepared]
        var sitePages = BuildSummary()
    }

    /// The files the previous build wrote that this one did not, now removed, and what the build says of those it
    /// left.
    struct FinishedOutput {
        var removed: [String]
        var warnings: [String]
    }

    // MARK: - The steps up to the output

    func lockOutput() async throws -> OutputLock {
        try await OutputLock.acquire(options.output, wait: options.waitForOutput) { [progress] in
            progress(.waitingForOutput(folder: $0))
        }
    }

    /// The report of the last build when the build state proves that this one would change nothing.
    func currentOutput() async -> BuildSummary? {
        // A frozen rebuild proves that the cache alone can rebuild the output, which the output being current does not.
        if case .merge = mode { return nil }
        let now = pipeline.now()
        // The answers first, from the state without its thousands of files: after a change at the API, that is as
        // far as a build needs to read it.
        guard !options.frozen, let bytes = BuildState.bytes(atPath: records.state),
            let answers = BuildState(bytes: bytes, withFiles: false),
            answers.answersAreCurrent(
                fingerprint: fingerprint, cache: cache.root, policy: policy, now: now, scheduleNow: scheduleNow),
            let state = BuildState(bytes: bytes), await state.filesAreCurrent(in: options.output)
        else { return nil }
        // A run killed after its last page, while it kept its records in the cache, left a temporary file there.
        cache.sweepTemporaryFiles()
        state.summary.warnings.forEach { progress(.warning($0)) }
        return state.summary
    }

    /// The stylesheets of every kind of page the parts have.
    func compileTheme() throws -> PageRenderer {
        switch (mode, options.history) {
        case (.shard, .some), (.merge, .some): throw HistoryUnsupportedError(detail: "for a site built in shards")
        default: break
        }
        var kinds: [GalleryModel.PageJob.Kind] = []
        if parts.contains(where: { if case .gallery = $0 { true } else { false } }) { kinds += [.grid, .preview] }
        if site != nil { kinds.append(.home) }
        if options.history != nil { kinds += site == nil ? [.changes] : [.changes, .siteChanges] }
        if parts.contains(where: { if case .random = $0 { true } else { false } }) { kinds += [.random, .favorites] }
        return try PageRenderer(theme: options.theme, kinds: kinds)
    }

    /// Refuses a folder that is not Vitrine's before anything is asked, and reads the folder's manifest and files,
    /// and the previous build's image index, while the API answers.
    func surveyOutput() throws -> FoundOutput {
        try OutputWriter.refuseForeignFolder(options.output, force: options.force)
        if options.frozen && !OutputManifest.isPresent(in: options.output) {
            throw FrozenBuildError.noManifest(folder: options.output.path)
        }
        let survey = Task { [options, records] in
            await OutputFolderSurvey(root: options.output, records: records, needsGalleries: options.frozen)
        }
        let historyInPlace =
            options.history == nil ? nil : Task { [options] in PreviousHistory.InPlace(output: options.output) }
        cache.sweepTemporaryFiles()
        let snapshotPath = cache.imageSnapshotPath(for: options.output)
        let imageIndex = Task {
            let bytes = try? FileBytes.read(atPath: snapshotPath, limit: FileBytes.recordLimit)
            return (bytes: bytes, snapshot: bytes.flatMap(ImageIndexSnapshot.init(bytes:)))
        }
        return FoundOutput(survey: survey, imageIndex: imageIndex, historyInPlace: historyInPlace)
    }

    /// Source, fetch, cache and model for each part, in order (or, for a merge, each part as its shard made it).
    func prepareGalleries(_ found: FoundOutput) async throws -> [GalleryPipeline.Prepared] {
        if case .merge(let shards, let fingerprint) = mode, let site {
            return try await ShardReader(site: site, fingerprint: fingerprint, output: options.output).read(shards)
        }
        let siteTags = PageRenderer.rendersSiteTags(options.theme) ? SiteTags.href : nil
        let link = site.map {
            GalleryModel.SiteLink(title: $0.title, href: SiteModel.homeHref, baseURL: $0.baseURL, tagsHref: siteTags)
        }
        var galleries: [GalleryPipeline.Prepared] = []
        for part in parts {
            try Task.checkCancellation()
            switch part {
            case .gallery(let plan):
                galleries.append(
                    try await pipeline.prepare(
                        plan, site: link, policy: policy, snapshot: { await found.imageIndex.value.snapshot },
                        survey: { await found.survey.value }, salt: salt, options: options, earlyPages: earlyPages,
                        stagedImages: stagedImages))
            case .random(let plan):
                galleries.append(
                    try await pipeline.prepare(plan, site: link, policy: policy, options: options, at: scheduleNow))
            }
        }
        return galleries
    }

    /// Opens the output folder for writing, once every gallery is known and holds what a frozen or strict build
    /// asks for.
    func openOutput(_ recorded: RecordedGalleries, found: FoundOutput) async throws -> OpenedOutput {
        let galleries = recorded.galleries
        let writer = try OutputWriter(survey: await found.survey.value, force: options.force, records: records)
        if options.frozen && !writer.foundManifest { throw FrozenBuildError.noManifest(folder: options.output.path) }
        if options.frozen {
            try FrozenBuildError.check(
                galleries.map { ($0.folder, $0.itemIDs) }, against: writer.previousGalleries ?? [])
        }
        if options.strict && galleries.contains(where: { $0.summary.losses > 0 }) {
            var totals = BuildSummary()
            for gallery in galleries { totals.add(gallery.report) }
            throw IncompleteGalleryError(summary: totals)
        }
        return OpenedOutput(writer: writer)
    }

    /// Declares every file the build writes, before it writes any.
    func planFiles(_ recorded: RecordedGalleries, renderer: PageRenderer, opened: OpenedOutput) async throws
        -> PlannedOutput
    {
        let galleries = recorded.galleries
        let snapshots =
            recorded.history?.history.siteSnapshots(of: galleries.map { ($0.folder, $0.content.model) }) ?? []
        let siteModel = site.map { site in
            var model = SiteModel(
                title: site.title,
                galleries: galleries.enumerated().map { $1.card(id: "g\($0 + 1)") },
                feedHref: site.baseURL == nil ? nil : SiteFeeds.feedPath)
            model.baseURL = site.baseURL
            if PageRenderer.rendersSiteTags(options.theme) {
                let tagged = galleries.map(\.taggedItems)
                model.tags = SiteTags(
                    galleries: zip(model.galleries, tagged).map { ($0, $1.items) },
                    itemsPerPage: tagged.lazy.compactMap(\.perPage).first ?? 1)
            }
            model.hasSearch = PageRenderer.rendersSiteSearch(options.theme)
            if recorded.history != nil {
                model.changesHref = SiteModel.changesHref
                model.snapshots = snapshots
            }
            return model
        }
        // The images in order, on a task of their own while the stylesheets of the pages to render are prepared.
        let stored = galleries.map(\.stored)
        async let sortedImages = Set(stored.joined()).sorted { $0.sha256 < $1.sha256 }
        let feeds = site.flatMap { site in
            site.baseURL.map {
                SiteFeeds(
                    baseURL: $0, title: site.title, galleries: galleries.map(\.feedEntry), snapshots: snapshots,
                    history: siteModel?.historyPages)
            }
        }
        try renderer.prepare(for: galleries.flatMap(\.jobs))
        try Task.checkCancellation()
        let images = await sortedImages
        var planned = galleries.flatMap(\.files)
        var shardRecord: ShardRecord?
        if case .shard(let shard, let fingerprint) = mode {
            shardRecord = ShardRecord(
                fingerprint: fingerprint, shard: shard.number, count: shard.count,
                galleries: galleries.map(ShardRecord.Gallery.init))
            planned.append(ShardRecord.fileName)
        }
        planned += images.map(GalleryAssembler.localPath(of:))
        planned += options.theme.assets.map { "assets/\($0.name)" }
        if siteModel != nil { planned += [SiteModel.homeHref, "site.xml"] }
        planned += siteModel?.tags?.files ?? []
        if siteModel?.hasSearch == true { planned += [SiteSearch.href, SiteSearch.indexHref] }
        if let paging = siteModel?.historyPages { planned += paging.allPages.map(\.href) }
        if recorded.history != nil { planned.append(SiteHistory.fileName) }
        if feeds != nil { planned += [SiteFeeds.sitemapPath, SiteFeeds.feedPath] }
        var seen = Set<String>()
        if let twice = planned.first(where: { !seen.insert($0.lowercased()).inserted }) {
            throw InternalInconsistencyError(detail: "two files of the build would be written to \(twice)")
        }
        try await opened.writer.begin(planned: planned)
        return PlannedOutput(
            writer: opened.writer, siteModel: siteModel, feeds: feeds, shardRecord: shardRecord, images: images)
    }
}
