import Foundation
import VitrineBasics
import VitrineModel
import VitrinePublish
import VitrineRender
import VitrineStore

/// One build of galleries and random pages into an output folder (`GalleryPipeline.build`): its steps, in order,
/// and the state they hand on to each other.
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

    static var steps: [BuildStep<GalleryBuild>] {
        [
            .init("waiting for the output folder") { try await $0.lockOutput() },
            .init("checking whether the output is current") { await $0.checkBuildState() },
            .init("compiling the theme") { try $0.compileTheme() },
            .init("looking at the output folder") { try $0.surveyOutput() },
            .init("preparing the galleries") { try await $0.prepareGalleries() },
            .init("recording the history") { try await $0.recordHistory() },
            .init("opening the output folder") { try await $0.openOutput() },
            .init("planning the files") { try await $0.planFiles() },
            .init("rendering the pages and placing the images") { try await $0.renderPagesAndPlaceImages() },
            .init("writing the theme's assets") { try $0.writeAssets() },
            .init("writing the sitemap and the feed") { try $0.writeFeeds() },
            .init("writing the history") { try $0.writeHistory() },
            .init("writing the shard's record") { try $0.writeShardRecord() },
            .init("finishing the output folder") { try $0.finishOutput() },
            .init("saving the image index") { try await $0.saveImageIndex() },
            .init("recording the build") { $0.recordBuild() },
        ]
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

    // Set by the steps as they run: a step uses only what the steps before it set.
    /// Held until the build is over.
    var lock: OutputLock?
    var renderer: PageRenderer!
    var survey: Task<OutputFolderSurvey, Never>!
    var snapshot: Task<(bytes: [UInt8]?, snapshot: ImageIndexSnapshot?), Never>!
    /// The output folder's own history, read and decoded while the folder is surveyed, when the build keeps one.
    var historyInPlace: Task<PreviousHistory.InPlace, Never>?
    var galleries: [GalleryPipeline.Prepared] = []
    /// The site's history with this build's snapshot, when the build keeps one.
    var history: SiteHistory?
    /// The bytes of the last finished build's `history.json`, while it is still in place, to be kept aside before
    /// this build replaces it.
    var committedHistory: [UInt8]?
    /// The history is the one the last finished build wrote and left in place, unchanged.
    var historyUnchanged = false
    var writer: OutputWriter!
    var siteModel: SiteModel?
    var feeds: SiteFeeds?
    /// What a shard's build leaves for the merge, made before the pages are rendered.
    var shardRecord: ShardRecord?
    /// Every image file of the build, each once, in the order of their digests.
    var images: [CacheStore.ImageRecord] = []
    var removed: [String] = []
    var totals = BuildSummary()
    /// What the build did, once it is over.
    var outcome: BuildSummary?

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
    }

    private var progress: @Sendable (ProgressEvent) -> Void { pipeline.progress }
    private var cache: CacheStore { pipeline.cache }

    mutating func lockOutput() async throws {
        lock = try await OutputLock.acquire(options.output, wait: options.waitForOutput) { [progress] in
            progress(.waitingForOutput(folder: $0))
        }
    }

    /// Ends the build at once when the build state proves that it would change nothing.
    mutating func checkBuildState() async {
        // A frozen rebuild proves that the cache alone can rebuild the output, which the output being current does not.
        if case .merge = mode { return }
        guard !options.frozen, let state = BuildState.read(atPath: records.state),
            await state.isCurrent(
                fingerprint: fingerprint, output: options.output, cache: cache.root, policy: policy, now: Date(),
                scheduleNow: scheduleNow)
        else { return }
        state.summary.warnings.forEach { progress(.warning($0)) }
        outcome = state.summary
    }

    mutating func compileTheme() throws {
        switch (mode, options.history) {
        case (.shard, .some), (.merge, .some): throw HistoryUnsupportedError(detail: "for a site built in shards")
        default: break
        }
        var kinds: [GalleryModel.PageJob.Kind] = site == nil ? [.grid, .preview] : [.grid, .preview, .home]
        if options.history != nil { kinds += site == nil ? [.changes] : [.changes, .siteChanges] }
        if parts.contains(where: { if case .random = $0 { true } else { false } }) { kinds += [.random, .favorites] }
        renderer = try PageRenderer(theme: options.theme, kinds: kinds)
    }

    /// Refuses a folder that is not Vitrine's before anything is asked, and reads the folder's manifest and files,
    /// and the previous build's image index, while the API answers.
    mutating func surveyOutput() throws {
        try OutputWriter.refuseForeignFolder(options.output, force: options.force)
        if options.frozen && !OutputManifest.isPresent(in: options.output) {
            throw FrozenBuildError.noManifest(folder: options.output.path)
        }
        survey = Task { [options, records] in await OutputFolderSurvey(root: options.output, records: records) }
        if options.history != nil {
            historyInPlace = Task { [options] in PreviousHistory.InPlace(output: options.output) }
        }
        cache.sweepTemporaryFiles()
        let snapshotPath = cache.imageSnapshotPath(for: options.output)
        snapshot = Task {
            let bytes = try? FileBytes.read(atPath: snapshotPath, limit: FileBytes.recordLimit)
            return (bytes: bytes, snapshot: bytes.flatMap(ImageIndexSnapshot.init(bytes:)))
        }
    }

    mutating func prepareGalleries() async throws {
        if case .merge(let shards, let fingerprint) = mode, let site {
            galleries = try await ShardReader(site: site, fingerprint: fingerprint, output: options.output).read(shards)
            return
        }
        let link = site.map { GalleryModel.SiteLink(title: $0.title, href: SiteModel.homeHref, baseURL: $0.baseURL) }
        for part in parts {
            try Task.checkCancellation()
            switch part {
            case .gallery(let plan):
                galleries.append(
                    try await pipeline.prepare(
                        plan, site: link, policy: policy, snapshot: { [snapshot] in await snapshot!.value.snapshot },
                        survey: { [survey] in await survey!.value }, salt: salt, options: options))
            case .random(let plan):
                galleries.append(
                    try await pipeline.prepare(plan, site: link, policy: policy, options: options, at: scheduleNow))
            }
        }
    }

    /// Takes the previous history (the output folder's, else the previous publish's), adds a snapshot when the
    /// galleries' items differ from its latest one, and gives each gallery its "What's new" page.
    mutating func recordHistory() async throws {
        guard let historyOptions = options.history else { return }
        let source = historyOptions.previous ?? site?.baseURL.map(HistorySource.published(at:))
        let survey = await survey.value
        let found = try await PreviousHistory(
            output: options.output, committed: survey.previousFiles[SiteHistory.fileName]?.sha256,
            interrupted: survey.interrupted, source: source, fetcher: pipeline.fetcher, offline: policy.offline,
            startNew: historyOptions.startNew,
            clock: max(pipeline.now(), options.timestamp ?? .distantPast), ahead: await historyInPlace?.value
        ).load()
        let previous = found.history
        committedHistory = found.committedInPlace
        if let warning = found.warning {
            progress(.warning(warning))
            totals.warnings.append(warning)
        }
        var items: [(path: String, ids: [String])] = []
        for gallery in galleries {
            if case .gallery(let model) = gallery.content {
                items.append((gallery.folder, model.allItems.map { $0.sourceID ?? $0.id }))
            }
        }
        var records: [String: [String: SiteHistory.ArchivedItem]] = [:]
        for gallery in galleries where gallery.archiveLayout != nil {
            if case .gallery(let model) = gallery.content {
                records[gallery.folder] = Self.records(of: model, images: gallery.images)
            }
        }
        let (recorded, _) = previous.recording(items, records: records, at: options.timestamp ?? pipeline.now())
        history = recorded
        historyUnchanged = committedHistory != nil && recorded == previous
        // Made when a gallery first has items that left: most builds have none.
        var archivedImages: ArchivedImages?
        for index in galleries.indices {
            guard case .gallery(var model) = galleries[index].content else { continue }
            if let layout = galleries[index].archiveLayout,
                case let departed = Self.departed(from: recorded, folder: galleries[index].folder), !departed.isEmpty
            {
                let imageIndex = archivedImages == nil ? await snapshot.value.snapshot : nil
                let images =
                    archivedImages
                    ?? ArchivedImages(
                        cache: cache, fetcher: pipeline.fetcher,
                        recovery: options.frozen ? nil : OutputImageRecovery(survey: survey, cache: cache),
                        previous: source, offline: policy.offline, maximumBytes: options.maximumImageBytes,
                        snapshot: imageIndex)
                archivedImages = images
                try await addArchive(departed, to: &model, at: index, layout: layout, images: images)
                galleries[index].views = model.pages(salt: salt)
            }
            model.snapshots = Self.snapshots(of: galleries[index].folder, in: recorded, model: model)
            galleries[index].views += model.changesPages(salt: salt)
            galleries[index].content = .gallery(model)
        }
    }

    /// The items of the gallery in `folder` that left the results and whose record the history keeps.
    static func departed(from history: SiteHistory, folder: String) -> [ArchiveAssembler.Departed] {
        let known = history.galleries.first { $0.path == folder }?.items ?? []
        return known.compactMap { item in
            guard !item.current, let record = item.record, history.snapshots.indices.contains(item.lastSeen - 1)
            else { return nil }
            return ArchiveAssembler.Departed(
                id: item.id, lastSeen: history.snapshots[item.lastSeen - 1].time, record: record)
        }
    }

    /// Adds to a gallery that keeps every item the collection of `departed`, with their images (`ArchivedImages`),
    /// which the build places like the others.
    private mutating func addArchive(
        _ departed: [ArchiveAssembler.Departed], to model: inout GalleryModel, at index: Int,
        layout: ArchiveAssembler, images: ArchivedImages
    ) async throws {
        try Task.checkCancellation()
        let found = await images.resolve(
            departed.flatMap { $0.record.entries.flatMap { [$0.tile, $0.full] } },
            hosts: galleries[index].archiveHosts ?? ArchiveImageHosts(endpoints: [], imageURLs: []))
        guard let archive = layout.assemble(departed, variants: model.variants, images: found.outcomes) else { return }
        model.collections.append(archive)
        model.archive = GalleryModel.ArchiveLink(href: archive.pages[0].href)
        for (url, outcome) in found.outcomes {
            guard case .stored(let record) = outcome else { continue }
            galleries[index].images[url] = record
            galleries[index].stored.append(record)
        }
        galleries[index].stored = Array(Set(galleries[index].stored))
        galleries[index].stamps.merge(found.stamps) { first, _ in first }
        if !found.fromSnapshot { galleries[index].imagesFromSnapshot = false }
        if let warning = ArchivedImages.refusalWarning(found.outcomes, folder: galleries[index].folder) {
            progress(.warning(warning))
            galleries[index].summary.warnings.append(warning)
        }
        let lost = found.outcomes.values.filter { if case .failed = $0 { true } else { false } }.count
        if lost > 0 {
            let warning =
                "\(lost) image\(lost == 1 ? "" : "s") of items no longer in the results of \(galleries[index].folder) "
                + "could not be found in the cache, the output or the previous publish; their archive shows placeholders."
            progress(.warning(warning))
            galleries[index].summary.warnings.append(warning)
        }
    }

    /// What each current item of a gallery that keeps every item shows, by its id in the history: its pictures'
    /// captions, credits and images (by the URL each came from and its bytes' digest). An item without a picture,
    /// or one the history file could not hold, has none.
    static func records(of model: GalleryModel, images: [String: CacheStore.ImageRecord]) -> [String:
        SiteHistory.ArchivedItem]
    {
        var byPath: [String: (url: String, record: CacheStore.ImageRecord)] = [:]
        for (url, record) in images.sorted(by: { $0.key < $1.key }) where SiteHistory.isWebURL(url) {
            let path = GalleryAssembler.localPath(of: record)
            if byPath[path] == nil { byPath[path] = (url, record) }
        }
        func archived(_ image: GalleryModel.LocalImage) -> SiteHistory.ArchivedImage? {
            switch image.state {
            case .available(let path, let type):
                guard let found = byPath[path] else { return nil }
                return SiteHistory.ArchivedImage(
                    url: found.url, sha256: found.record.sha256, type: type, bytes: found.record.byteCount,
                    width: image.width, height: image.height)
            case .remote(let url):
                return SiteHistory.ArchivedImage(shownFrom: url, width: image.width, height: image.height)
            case .unavailable:
                return nil
            }
        }
        var records: [String: SiteHistory.ArchivedItem] = [:]
        for item in model.collections.first?.items ?? [] {
            let entries = item.entries.compactMap { entry -> SiteHistory.ArchivedEntry? in
                guard
                    case .picture(let caption, let credit, let tile, let full, let license, let aiGenerated) = entry
                        .content,
                    let tile = archived(tile), let full = archived(full)
                else { return nil }
                return SiteHistory.ArchivedEntry(
                    variant: entry.variant, caption: caption,
                    credit: credit.map {
                        SiteHistory.ArchivedCredit(
                            name: $0.name, url: $0.url.flatMap { SiteHistory.isWebURL($0) ? $0 : nil },
                            role: $0.role == .publication ? "publication" : nil,
                            authorURL: $0.authorURL.flatMap { SiteHistory.isWebURL($0) ? $0 : nil })
                    }, tile: tile, full: full, license: SiteHistory.ArchivedLicense(license),
                    aiGenerated: aiGenerated ? true : nil)
            }
            let record = SiteHistory.ArchivedItem(entries: entries)
            if !entries.isEmpty, SiteHistory.problem(of: record) == nil { records[item.sourceID ?? item.id] = record }
        }
        return records
    }

    /// The snapshots that changed the gallery in `folder`, newest first, with the added items it still has.
    static func snapshots(of folder: String, in history: SiteHistory, model: GalleryModel) -> [GalleryModel.Snapshot] {
        let ids = Dictionary(
            model.allItems.map { ($0.sourceID ?? $0.id, $0.id) }, uniquingKeysWith: { first, _ in first })
        return history.snapshots.reversed().compactMap { snapshot in
            guard let change = snapshot.galleries.first(where: { $0.path == folder }) else { return nil }
            return GalleryModel.Snapshot(
                number: snapshot.number, time: snapshot.time, addedItems: change.added.compactMap { ids[$0] },
                addedCount: change.added.count, removedCount: change.removed.count)
        }
    }

    /// The site's snapshots, newest first, for its "What's new" pages and feed: each gallery's counts, the gallery's
    /// "What's new" page that shows the snapshot, and at most `tilesPerGallery` tiles of the items it gained and still
    /// has.
    func siteSnapshots(tilesPerGallery: Int = 12) -> [SiteModel.Snapshot] {
        guard let history else { return [] }
        // Each gallery's items by their id in the history, and its "What's new" page of each of its snapshots, worked
        // out once for all the snapshots.
        var itemsByFolder: [String: (index: Int, model: GalleryModel, items: [String: GalleryModel.Item])] = [:]
        var pageOfSnapshot: [String: [Int: String]] = [:]
        for (index, gallery) in galleries.enumerated() {
            guard case .gallery(let model) = gallery.content else { continue }
            itemsByFolder[gallery.folder] = (
                index, model,
                Dictionary(model.allItems.map { ($0.sourceID ?? $0.id, $0) }, uniquingKeysWith: { first, _ in first })
            )
            if let paging = model.historyPages {
                var pages: [Int: String] = [:]
                for (index, snapshot) in model.snapshots.enumerated() {
                    pages[snapshot.number] = paging.href(ofPage: paging.page(ofNewestFirstIndex: index))
                }
                pageOfSnapshot[gallery.folder] = pages
            }
        }
        // The snapshots that changed a gallery the build has, newest first: the site's pages split these.
        let shown = history.snapshots.reversed().filter { snapshot in
            snapshot.galleries.contains { itemsByFolder[$0.path]?.model.changesHref != nil }
        }
        let paging = HistoryPages(href: SiteModel.changesHref, snapshotCount: shown.count)
        // The tiles a source's terms still let a page show, newest first (Flickr: 30 photos a page); each of the
        // site's "What's new" pages starts afresh.
        var room: [String: Int] = [:]
        var page = paging.pageCount
        return shown.enumerated().map { position, snapshot in
            if paging.page(ofNewestFirstIndex: position) != page {
                page = paging.page(ofNewestFirstIndex: position)
                room = [:]
            }
            let changes = snapshot.galleries.compactMap { change -> SiteModel.Change? in
                guard let (index, model, byID) = itemsByFolder[change.path],
                    let href = pageOfSnapshot[change.path]?[snapshot.number] ?? model.changesHref
                else { return nil }
                let source = model.source.name
                let limit = min(tilesPerGallery, room[source] ?? model.source.photosPerPageLimit ?? .max)
                let tiles = Array(
                    change.added.lazy.compactMap { byID[$0] }.compactMap(SiteModel.Tile.init).prefix(limit))
                if model.source.photosPerPageLimit != nil {
                    room[source] = (room[source] ?? model.source.photosPerPageLimit ?? 0) - tiles.count
                }
                return SiteModel.Change(
                    gallery: "g\(index + 1)", title: model.title, href: href, added: change.added.count,
                    removed: change.removed.count, tiles: tiles)
            }
            return SiteModel.Snapshot(number: snapshot.number, time: snapshot.time, galleries: changes)
        }
    }

    /// Opens the output folder for writing, once every gallery is known and holds what a frozen or strict build
    /// asks for.
    mutating func openOutput() async throws {
        writer = try OutputWriter(survey: await survey.value, force: options.force, records: records)
        if options.frozen && !writer.foundManifest { throw FrozenBuildError.noManifest(folder: options.output.path) }
        if options.frozen {
            try FrozenBuildError.check(galleries.map { ($0.folder, $0.itemIDs) }, against: writer.previousGalleries)
        }
        if options.strict && galleries.contains(where: { $0.summary.losses > 0 }) {
            var totals = BuildSummary()
            for gallery in galleries { totals.add(gallery.report) }
            throw IncompleteGalleryError(summary: totals)
        }
    }

    /// Declares every file the build writes, before it writes any.
    mutating func planFiles() async throws {
        let snapshots = siteSnapshots()
        siteModel = site.map { site in
            var model = SiteModel(
                title: site.title,
                galleries: galleries.enumerated().map { $1.card(id: "g\($0 + 1)") },
                feedHref: site.baseURL == nil ? nil : SiteFeeds.feedPath)
            model.baseURL = site.baseURL
            if history != nil {
                model.changesHref = SiteModel.changesHref
                model.snapshots = snapshots
            }
            return model
        }
        images = Set(galleries.flatMap(\.stored)).sorted { $0.sha256 < $1.sha256 }
        feeds = site.flatMap { site in
            site.baseURL.map { [galleries, siteModel] in
                SiteFeeds(
                    baseURL: $0, title: site.title, galleries: galleries.map(\.feedEntry), snapshots: snapshots,
                    history: siteModel?.historyPages)
            }
        }
        try renderer.prepare(for: galleries.flatMap(\.jobs))
        try Task.checkCancellation()
        var planned = galleries.flatMap(\.files)
        if case .shard(let shard, let fingerprint) = mode {
            shardRecord = ShardRecord(
                fingerprint: fingerprint, shard: shard.number, count: shard.count,
                galleries: galleries.map(ShardRecord.Gallery.init))
            planned.append(ShardRecord.fileName)
        }
        planned += images.map(GalleryAssembler.localPath(of:))
        planned += options.theme.assets.map { "assets/\($0.name)" }
        if siteModel != nil { planned += [SiteModel.homeHref, "site.xml"] }
        if let paging = siteModel?.historyPages { planned += paging.allPages.map(\.href) }
        if history != nil { planned.append(SiteHistory.fileName) }
        if feeds != nil { planned += [SiteFeeds.sitemapPath, SiteFeeds.feedPath] }
        var seen = Set<String>()
        if let twice = planned.first(where: { !seen.insert($0.lowercased()).inserted }) {
            throw InternalInconsistencyError(detail: "two files of the build would be written to \(twice)")
        }
        try await writer.begin(planned: planned)
    }

    /// Every page whose inputs changed or whose file is not as the previous build left it, with each gallery's
    /// model file (and a random page's schedule), then the site's home page and its model.
    private mutating func renderPages() throws {
        let total =
            galleries.reduce(0) { $0 + $1.jobs.count } + (siteModel == nil ? 0 : 1)
            + (siteModel?.historyPages?.pageCount ?? 0)
        var done = 0
        for index in galleries.indices {
            let folder = galleries[index].folder
            var counts = galleries[index].summary
            switch galleries[index].content {
            case .gallery(let model):
                let views = galleries[index].views
                galleries[index].views = []
                for view in views {
                    try Task.checkCancellation()
                    try publish(view.job, from: { ModelDocument.make(view) }, inputs: view.inputs, counts: &counts)
                    done += 1
                    progress(.rendering(done: done, total: total))
                }
                let modelInputs = SHA256Hasher.hex(of: views.sorted { $0.job.id < $1.job.id }.map(\.inputs).joined())
                if !writer.keep(folder + "gallery.xml", inputs: modelInputs) {
                    try writer.write(ModelFile.bytes(of: model), to: folder + "gallery.xml", inputs: modelInputs)
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
                        }, inputs: inputs, counts: &counts)
                    done += 1
                    progress(.rendering(done: done, total: total))
                }
                if !writer.keep(folder + "gallery.xml", inputs: inputs) {
                    try writer.write(ModelFile.bytes(of: model), to: folder + "gallery.xml", inputs: inputs)
                }
                try writer.write(state.encoded(), to: folder + RandomPageState.fileName)
            case .merged(_, let copies):
                galleries[index].content = .merged(galleries[index].content.record!, copies: [])
                for copy in copies {
                    try Task.checkCancellation()
                    let html = copy.path.hasSuffix(".html")
                    if try writer.write(copy.bytes, to: copy.path, inputs: copy.inputs) {
                        if html { counts.pagesWritten += 1 }
                    } else if html {
                        counts.pagesUnchanged += 1
                    }
                }
            }
            galleries[index].summary = counts
        }
        if let siteModel {
            var counts = BuildSummary()
            let home = GalleryModel.PageJob(kind: .home, id: SiteModel.pageID, href: SiteModel.homeHref)
            let homeView = siteModel.homeView
            try publish(
                home, from: { ModelDocument.make(homeView) }, inputs: homeView.inputs(salt: salt), counts: &counts)
            // Each "What's new" page from a view of its own snapshots.
            let paging = siteModel.historyPages
            for number in paging.map { Array($0.newestFirst) } ?? [] {
                try Task.checkCancellation()
                let view = siteModel.changesView(ofPage: number)
                let job = GalleryModel.PageJob(
                    kind: .siteChanges, id: ModelXML.changesID, href: paging?.href(ofPage: number) ?? "")
                try publish(job, from: { ModelDocument.make(view) }, inputs: view.inputs(salt: salt), counts: &counts)
                done += 1
                progress(.rendering(done: done, total: total))
            }
            totals.pagesRendered += counts.pagesRendered
            totals.pagesWritten += counts.pagesWritten
            totals.pagesUnchanged += counts.pagesUnchanged
            try writer.write(ModelFile.bytes(of: siteModel), to: "site.xml")
            progress(.rendering(done: total, total: total))
        }
    }

    /// Renders and writes one page from its view of the model, unless the previous run wrote it from the same
    /// inputs and it is still there.
    private func publish(
        _ job: GalleryModel.PageJob, from model: () -> LibXMLDocument, inputs: String, counts: inout BuildSummary
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

    /// Renders the pages on this task while the images are copied into the output on another: both are mostly
    /// files created, in different folders, and the downloads that kept the other core busy are over.
    mutating func renderPagesAndPlaceImages() async throws {
        var urlsOfImage: [String: [String]] = [:]
        var verifiedStamps: [String: FileStamp] = [:]
        var shardOfImage: [String: URL] = [:]
        for gallery in galleries {
            for (url, record) in gallery.images { urlsOfImage[record.sha256, default: []].append(url) }
            if let shard = gallery.imageFolder {
                // The first shard's copy, whose stamp `verifiedStamps` holds.
                for record in gallery.stored where shardOfImage[record.sha256] == nil {
                    shardOfImage[record.sha256] = shard
                }
            }
            verifiedStamps.merge(gallery.stamps) { first, _ in first }
        }
        let placements = images.map { record in
            let path = GalleryAssembler.localPath(of: record)
            return ImagePlacement(
                source: shardOfImage[record.sha256]?.appendingPathComponent(path).path
                    ?? cache.imageFile(for: record).path,
                sha256: record.sha256, byteCount: record.byteCount, cachedStamp: verifiedStamps[record.sha256],
                urls: Set(urlsOfImage[record.sha256] ?? []).sorted(), path: path)
        }
        let writer = self.writer!
        do {
            try await writer.placeImages(placements) { try renderPages() }
        } catch let changed as CachedImageChangedError {
            guard let placement = placements.first(where: { $0.source == changed.path }),
                let shard = shardOfImage[placement.sha256]
            else { throw changed }
            throw ShardMergeError.damaged(
                folder: shard.path, detail: "the image \(placement.path) does not hold what its manifest records")
        }
    }

    mutating func writeAssets() throws {
        for asset in options.theme.assets { try writer.write(asset.bytes, to: "assets/\(asset.name)") }
    }

    mutating func writeFeeds() throws {
        guard let feeds else { return }
        let pages = writer.writtenPaths.filter { $0.hasSuffix(".html") }
        let inputs = feeds.sitemapInputs(pages: pages, salt: salt)
        if !writer.keep(SiteFeeds.sitemapPath, inputs: inputs) {
            try writer.write(feeds.sitemap(pages: pages), to: SiteFeeds.sitemapPath, inputs: inputs)
        }
        try writer.write(feeds.atom(timestamp: options.timestamp), to: SiteFeeds.feedPath)
    }

    /// Writes `history.json`, which the next build (or the next publish's) starts from.
    mutating func writeHistory() throws {
        guard let history else { return }
        // The file in place holds this very history, as `encoded()` wrote it: it is kept, not encoded again.
        if historyUnchanged, writer.keep(SiteHistory.fileName, inputs: SiteHistory.encodingMark) { return }
        let bytes = history.encoded()
        if let committedHistory, committedHistory != bytes {
            try RootedFiles(root: options.output.path).write(
                committedHistory, to: PreviousHistory.backupName, durable: true)
        }
        try writer.write(bytes, to: SiteHistory.fileName, inputs: SiteHistory.encodingMark)
    }

    /// Leaves in a shard's output what a merge needs of its galleries.
    mutating func writeShardRecord() throws {
        guard let shardRecord else { return }
        try writer.write(try shardRecord.encoded(), to: ShardRecord.fileName)
    }

    /// Writes the manifest and removes what the previous build wrote that this one did not.
    mutating func finishOutput() throws {
        removed = try writer.finish(galleries: galleries.map(\.manifestRecord))
        RootedFiles(root: options.output.path).remove(PreviousHistory.backupName)
        let kept = writer.keptChanged
        if !kept.isEmpty {
            let shown = kept.prefix(3).joined(separator: ", ")
            let more = kept.count > 3 ? " and \(kept.count - 3) more" : ""
            let warning =
                "Left \(shown)\(more) in place: changed since Vitrine wrote \(kept.count == 1 ? "it" : "them"), "
                + "so \(kept.count == 1 ? "it is" : "they are") no longer Vitrine's to remove."
            progress(.warning(warning))
            totals.warnings.append(warning)
        }
    }

    /// Saves where each image URL's file is in the cache, unless the previous build's index said it all already.
    mutating func saveImageIndex() async throws {
        guard !galleries.allSatisfy(\.imagesFromSnapshot) else { return }
        let images = galleries.reduce(into: [:]) { all, gallery in all.merge(gallery.images) { first, _ in first } }
        let stamps = galleries.reduce(into: [:]) { all, gallery in all.merge(gallery.stamps) { first, _ in first } }
        let newSnapshot = cache.snapshot(of: images, stamps: stamps).encoded()
        if newSnapshot != (await snapshot.value.bytes) {
            try? AtomicFile.write(
                newSnapshot, to: URL(fileURLWithPath: cache.imageSnapshotPath(for: options.output)),
                temporaryFolder: cache.temporaryFolder)
        }
    }

    /// Adds up the galleries' reports and leaves the build state that lets the next build with the same inputs
    /// end at its second step.
    mutating func recordBuild() {
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
                ? responses.map(GalleryPipeline.distinct) : nil)
        outcome = totals
    }
}
