import Foundation
import VitrineBasics
import VitrineModel
import VitrinePublish
import VitrineRender
import VitrineStore

/// The steps that write into the output folder once every file is declared (`PlannedOutput`), and the build's
/// report.
extension GalleryBuild {
    /// Renders the pages on this task while the images are copied into the output on another: both are mostly
    /// files created, in different folders, and the downloads that kept the other core busy are over.
    func renderPagesAndPlaceImages(
        _ galleries: [GalleryPipeline.Prepared], renderer: PageRenderer, output: PlannedOutput
    ) async throws -> RenderedGalleries {
        // The images' placements are worked out on a task of their own while the model files and search indexes
        // to make are decided.
        let images = output.images
        async let placing = Self.placements(of: galleries, images: images, cache: cache)
        var pagesInputs: [String: String] = [:]
        for gallery in galleries {
            if case .gallery = gallery.content { pagesInputs[gallery.folder] = Self.pagesInputs(of: gallery) }
        }
        let modelFiles = modelFiles(of: galleries, pagesInputs: pagesInputs, writer: output.writer)
        let searchIndexes = searchIndexesToMake(of: galleries, pagesInputs: pagesInputs, writer: output.writer)
        let (placements, shardOfImage) = await placing
        var madeSearchIndexes: [MadeSearchIndex] = []
        var rendered = RenderedGalleries(galleries: galleries)
        do {
            let pages = PageWriter(
                pool: PageRendererPool(startingWith: renderer), writer: output.writer, early: earlyPages)
            try await output.writer.placeImages(placements, staged: stagedImages) {
                // The search indexes are made of the model alone, on a task of their own beside the pages.
                async let made = searchIndexes.map { $0.made() }
                try await renderPages(of: &rendered, renderer: pages, output)
                madeSearchIndexes = await made
            }
        } catch let changed as CachedImageChangedError {
            guard let placement = placements.first(where: { $0.source == changed.path }),
                let shard = shardOfImage[placement.sha256]
            else { throw changed }
            throw ShardMergeError.damaged(
                folder: shard.path, detail: "the image \(placement.path) does not hold what its manifest records")
        }
        for file in modelFiles {
            let bytes = try await file.made?.value ?? ModelFile.bytes(of: file.model)
            try output.writer.write(bytes, to: file.path, inputs: file.inputs)
        }
        // The entries of each index written, by gallery folder, which the site's index takes rather than make again.
        var madeEntries: [String: [SearchIndex.Entry]] = [:]
        for index in madeSearchIndexes {
            madeEntries[index.folder] = index.entries
            try output.writer.write(index.script, to: index.path, inputs: index.inputs)
        }
        if let site = output.siteModel, site.hasSearch {
            try writeSiteSearchIndex(of: galleries, site: site, madeEntries: madeEntries, output)
        }
        return rendered
    }

    /// Where each planned image comes from (the cache, or the shard folder that holds it), and the shard folder
    /// of each image a shard brought, by SHA-256.
    private static func placements(
        of galleries: [GalleryPipeline.Prepared], images: [CacheStore.ImageRecord], cache: CacheStore
    ) -> (placements: [ImagePlacement], shardOfImage: [String: URL]) {
        var urlsOfImage: [String: [String]] = [:]
        urlsOfImage.reserveCapacity(images.count)
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
            if verifiedStamps.isEmpty {
                verifiedStamps = gallery.stamps
            } else {
                verifiedStamps.merge(gallery.stamps) { first, _ in first }
            }
        }
        let placements = images.map { record in
            let path = GalleryAssembler.localPath(of: record)
            // Nearly every image has one URL: only more are sorted, and told apart when two galleries share one.
            let urls = urlsOfImage[record.sha256] ?? []
            return ImagePlacement(
                source: shardOfImage[record.sha256]?.appendingPathComponent(path).path
                    ?? cache.imageFilePath(for: record),
                sha256: record.sha256, byteCount: record.byteCount, cachedStamp: verifiedStamps[record.sha256],
                urls: urls.count < 2 ? urls : Set(urls).sorted(), path: path)
        }
        return (placements, shardOfImage)
    }

    /// A gallery's search index that the build makes: the ones whose file in place was made of the same inputs are
    /// kept instead.
    private struct SearchIndexToMake: Sendable {
        var folder: String
        var path: String
        var inputs: String
        var model: GalleryModel

        func made() -> MadeSearchIndex {
            let entries = SearchIndex.entries(of: model)
            return MadeSearchIndex(
                folder: folder, path: path, inputs: inputs, entries: entries,
                script: SearchIndex.script(ofGallery: entries))
        }
    }

    /// A gallery's search index as made, to be written.
    private struct MadeSearchIndex: Sendable {
        var folder: String
        var path: String
        var inputs: String
        var entries: [SearchIndex.Entry]
        var script: [UInt8]
    }

    /// The search indexes of `galleries` not kept in place: an index is made of what the pages read, as the model
    /// file is, so it is kept, not made again, when they are.
    private func searchIndexesToMake(
        of galleries: [GalleryPipeline.Prepared], pagesInputs: [String: String], writer: OutputWriter
    ) -> [SearchIndexToMake] {
        galleries.compactMap { gallery in
            guard case .gallery(let model) = gallery.content, let search = model.search,
                let pages = pagesInputs[gallery.folder]
            else { return nil }
            let inputs = Self.searchIndexInputs(pagesInputs: pages)
            if writer.keep(search.indexHref, inputs: inputs) { return nil }
            return SearchIndexToMake(folder: gallery.folder, path: search.indexHref, inputs: inputs, model: model)
        }
    }

    /// What a gallery's search index is made of: what its pages read (`pagesInputs(of:)`), and the index's format.
    private static func searchIndexInputs(pagesInputs: String) -> String {
        SHA256Hasher.hex(of: "search-index \(SearchIndex.version) " + pagesInputs)
    }

    /// The site's search index, from the entries of every gallery that has a search: kept, not made again, when
    /// each gallery's title, first page and index inputs are what the file in place was made from (a merged
    /// gallery's, those its shard's manifest records for its index, else the digest of the entries it recorded), so
    /// that a merge records what one build does. `madeEntries` are the entries of the galleries' indexes this build
    /// wrote, by folder.
    private func writeSiteSearchIndex(
        of galleries: [GalleryPipeline.Prepared], site: SiteModel, madeEntries: [String: [SearchIndex.Entry]],
        _ output: PlannedOutput
    ) throws {
        var hash = SHA256Hasher()
        hash.update("site-search-index \(SearchIndex.version)".utf8)
        var parts: [(card: SiteModel.Gallery, gallery: GalleryPipeline.Prepared)] = []
        for (card, gallery) in zip(site.galleries, galleries) {
            let inputs: String
            switch gallery.content {
            case .gallery(let model) where model.search != nil:
                inputs = Self.searchIndexInputs(pagesInputs: Self.pagesInputs(of: gallery))
            case .merged(let record, let copies) where record.search != nil:
                inputs =
                    copies.first { $0.path == GalleryModel.Search(folder: record.folder).indexHref }?.inputs
                    ?? SHA256Hasher.hex(of: (try? JSONEncoder().encode(record.search)) ?? Data())
            default: continue
            }
            for field in [card.title, card.href, inputs] { hash.update(Array(field.utf8) + [0]) }
            parts.append((card, gallery))
        }
        let inputs = hash.finalize().hexString
        if output.writer.keep(SiteSearch.indexHref, inputs: inputs) { return }
        let script = SearchIndex.script(
            ofSite: parts.map { card, gallery in
                SearchIndex.SiteGallery(
                    title: card.title, href: card.href,
                    entries: madeEntries[gallery.folder] ?? gallery.searchEntries ?? [])
            })
        try output.writer.write(script, to: SiteSearch.indexHref, inputs: inputs)
    }

    /// A gallery's `gallery.xml` that the build writes: what it is made from (the digest of its pages' inputs),
    /// and its bytes when they are being made beside the pages.
    struct ModelFileJob {
        let path: String
        let inputs: String
        let model: GalleryModel
        let made: Task<[UInt8], any Error>?
    }

    /// Each gallery's `gallery.xml`, unless the file in place was made from the same inputs (it is kept). When a
    /// gallery renders few pages (a rebuild after a change), its model file is made on a task of its own beside
    /// them, on the core the images' copies leave idle then; otherwise after them, so that its bytes (1.5 KB an
    /// item) are not held through thousands of pages.
    private func modelFiles(
        of galleries: [GalleryPipeline.Prepared], pagesInputs: [String: String], writer: OutputWriter
    ) -> [ModelFileJob] {
        galleries.compactMap { gallery in
            guard case .gallery(let model) = gallery.content, let pages = pagesInputs[gallery.folder] else {
                return nil
            }
            let path = gallery.folder + "gallery.xml"
            let inputs = SHA256Hasher.hex(of: pages)
            if writer.keep(path, inputs: inputs) { return nil }
            // The pages rendered while the images downloaded are taken, not rendered again.
            let rendered = gallery.views.count { view in
                writer.inputsChanged(view.job.href, inputs: view.inputs) && earlyPages?.holds(view) != true
            }
            return ModelFileJob(
                path: path, inputs: inputs, model: model,
                made: rendered <= Self.pagesRenderedBesideTheModel ? Task { try ModelFile.bytes(of: model) } : nil)
        }
    }

    /// What every page of a gallery reads, in one string: together, the whole of its model.
    private static func pagesInputs(of gallery: GalleryPipeline.Prepared) -> String {
        gallery.views.sorted { $0.job.id < $1.job.id }.map(\.inputs).joined()
    }

    /// At most how many pages a gallery renders (not counting those rendered early) for its model file to be made
    /// beside them.
    static let pagesRenderedBesideTheModel = 256

    /// Every page whose inputs changed or whose file is not as the previous build left it, with a random page's
    /// model file and schedule, then the site's home page and its model. The galleries' pages are kept or set
    /// aside to render in order; those set aside are rendered (on every core when there are many) and written
    /// before a random page or a merged gallery, and at the end.
    private func renderPages(
        of rendered: inout RenderedGalleries, renderer pages: PageWriter, _ output: PlannedOutput
    ) async throws {
        let writer = output.writer
        let siteModel = output.siteModel
        let total =
            rendered.galleries.reduce(0) { $0 + $1.jobs.count } + (siteModel == nil ? 0 : 1)
            + (siteModel?.historyPages?.pageCount ?? 0) + (siteModel?.tags?.files.count ?? 0)
            + (siteModel?.hasSearch == true ? 1 : 0)
        var done = 0
        var toRender: [PageWriter.PendingPage] = []
        for index in rendered.galleries.indices {
            let folder = rendered.galleries[index].folder
            if case .gallery = rendered.galleries[index].content {
                let views = rendered.galleries[index].views
                rendered.galleries[index].views = []
                for view in views {
                    try Task.checkCancellation()
                    if writer.keep(view.job.href, inputs: view.inputs) {
                        rendered.galleries[index].summary.pagesUnchanged += 1
                        done += 1
                        progress(.rendering(done: done, total: total))
                    } else {
                        toRender.append(.init(gallery: index, view: view))
                    }
                }
                continue
            }
            try await render(&toRender, of: &rendered, with: pages, done: &done, total: total)
            var counts = rendered.galleries[index].summary
            switch rendered.galleries[index].content {
            case .gallery:
                break
            case .random(let model, let state, _):
                let inputs = model.inputs(salt: salt)
                var document: LibXMLDocument?
                for job in model.pageJobs {
                    try Task.checkCancellation()
                    try pages.publish(
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
            case .merged(let record, let copies):
                rendered.galleries[index].content = .merged(record, copies: [])
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
            rendered.galleries[index].summary = counts
        }
        try await render(&toRender, of: &rendered, with: pages, done: &done, total: total)
        guard let siteModel else { return }
        var counts = BuildSummary()
        let home = GalleryModel.PageJob(kind: .home, id: SiteModel.pageID, href: SiteModel.homeHref)
        let homeView = siteModel.homeView
        try pages.publish(
            home, from: { ModelDocument.make(homeView) }, inputs: homeView.inputs(salt: salt), counts: &counts)
        for view in siteModel.tags?.pages(site: siteModel, salt: salt) ?? [] {
            try Task.checkCancellation()
            try pages.publish(view.job, from: { ModelDocument.make(view) }, inputs: view.inputs, counts: &counts)
            done += 1
            progress(.rendering(done: done, total: total))
        }
        if let search = siteModel.searchPage(salt: salt) {
            try pages.publish(
                search.job, from: { ModelDocument.make(search.view) }, inputs: search.inputs, counts: &counts)
            done += 1
            progress(.rendering(done: done, total: total))
        }
        // Each "What's new" page from a view of its own snapshots.
        let paging = siteModel.historyPages
        for number in paging.map({ Array($0.newestFirst) }) ?? [] {
            try Task.checkCancellation()
            let view = siteModel.changesView(ofPage: number)
            let job = GalleryModel.PageJob(
                kind: .siteChanges, id: ModelXML.changesID, href: paging?.href(ofPage: number) ?? "")
            try pages.publish(job, from: { ModelDocument.make(view) }, inputs: view.inputs(salt: salt), counts: &counts)
            done += 1
            progress(.rendering(done: done, total: total))
        }
        rendered.sitePages = counts
        try writer.write(ModelFile.bytes(of: siteModel), to: "site.xml")
        progress(.rendering(done: total, total: total))
    }

    /// Renders and writes the pages set aside, in order, each counted in its gallery's report, and leaves none.
    private func render(
        _ toRender: inout [PageWriter.PendingPage], of rendered: inout RenderedGalleries, with pages: PageWriter,
        done: inout Int, total: Int
    ) async throws {
        try await pages.publish(&toRender, onEveryCoreFrom: pipeline.pagesRenderedOnEveryCoreFrom) { gallery, page in
            try pages.write(page, counts: &rendered.galleries[gallery].summary)
            done += 1
            progress(.rendering(done: done, total: total))
        }
    }

    func writeAssets(_ output: PlannedOutput) throws {
        for asset in options.theme.assets { try output.writer.write(asset.bytes, to: "assets/\(asset.name)") }
    }

    func writeFeeds(_ output: PlannedOutput) throws {
        guard let feeds = output.feeds else { return }
        let writer = output.writer
        // Not the search pages (the site's, and `search.html` in a gallery's folder): without a query they show
        // nothing of their own.
        let searchPages = Set([SiteSearch.href] + parts.map { $0.folder + "search.html" })
        let pages = writer.writtenPaths.filter { $0.hasSuffix(".html") && !searchPages.contains($0) }
        let inputs = feeds.sitemapInputs(pages: pages, salt: salt)
        if !writer.keep(SiteFeeds.sitemapPath, inputs: inputs) {
            try writer.write(feeds.sitemap(pages: pages), to: SiteFeeds.sitemapPath, inputs: inputs)
        }
        try writer.write(feeds.atom(timestamp: options.timestamp), to: SiteFeeds.feedPath)
    }

    /// Writes `history.json`, which the next build (or the next publish's) starts from.
    func writeHistory(_ recorded: RecordedHistory?, output: PlannedOutput) throws {
        guard let recorded else { return }
        let writer = output.writer
        // The file in place holds this very history, as `encoded()` wrote it: it is kept, not encoded again.
        if recorded.unchanged, writer.keep(SiteHistory.fileName, inputs: SiteHistory.encodingMark) { return }
        let bytes = recorded.history.encoded()
        if let committed = recorded.committed, committed != bytes {
            try RootedFiles(root: options.output.path).write(committed, to: PreviousHistory.backupName, durable: true)
        }
        try writer.write(bytes, to: SiteHistory.fileName, inputs: SiteHistory.encodingMark)
    }

    /// Leaves in a shard's output what a merge needs of its galleries.
    func writeShardRecord(_ output: PlannedOutput) throws {
        guard let shardRecord = output.shardRecord else { return }
        try output.writer.write(try shardRecord.encoded(), to: ShardRecord.fileName)
    }

    /// Writes the manifest and removes what the previous build wrote that this one did not.
    func finishOutput(_ rendered: RenderedGalleries, output: PlannedOutput) throws -> FinishedOutput {
        let removed = try output.writer.finish(galleries: rendered.galleries.map(\.manifestRecord))
        RootedFiles(root: options.output.path).remove(PreviousHistory.backupName)
        let kept = output.writer.keptChanged
        guard !kept.isEmpty else { return FinishedOutput(removed: removed, warnings: []) }
        let shown = kept.prefix(3).joined(separator: ", ")
        let more = kept.count > 3 ? " and \(kept.count - 3) more" : ""
        let warning =
            "Left \(shown)\(more) in place: changed since Vitrine wrote \(kept.count == 1 ? "it" : "them"), "
            + "so \(kept.count == 1 ? "it is" : "they are") no longer Vitrine's to remove."
        progress(.warning(warning))
        return FinishedOutput(removed: removed, warnings: [warning])
    }

    /// Where each image URL's file is in the cache, as the index the next build of this folder reads: nil when the
    /// previous build's index said it all already. Made while the pages render, as no step after the downloads
    /// changes the cache's images.
    func imageIndex(of galleries: [GalleryPipeline.Prepared]) -> [UInt8]? {
        guard !galleries.allSatisfy(\.imagesFromSnapshot) else { return nil }
        let images = galleries.reduce(into: [:]) { all, gallery in all.merge(gallery.images) { first, _ in first } }
        let stamps = galleries.reduce(into: [:]) { all, gallery in all.merge(gallery.stamps) { first, _ in first } }
        // The system's clock, not the build's: the snapshot compares it with the folders' modification times, which
        // the file system stamps in real time whatever `--now` says.
        return cache.snapshot(of: images, stamps: stamps, now: WallClock.system()).encoded()
    }

    /// Saves the image index (``imageIndex(of:)``) unless the one in place holds the same.
    func saveImageIndex(_ newSnapshot: [UInt8]?, found: FoundOutput) async throws {
        guard let newSnapshot else { return }
        if newSnapshot != (await found.imageIndex.value.bytes) {
            try? AtomicFile.write(
                newSnapshot, to: URL(fileURLWithPath: cache.imageSnapshotPath(for: options.output)),
                temporaryFolder: cache.temporaryFolder)
        }
    }

    /// Adds up the galleries' reports and leaves the build state that lets the next build with the same inputs
    /// end at its second step, while the record of what the build used of the cache is written beside it.
    func recordBuild(_ rendered: RenderedGalleries, finished: FinishedOutput, warnings: [String], output: PlannedOutput)
        async -> (summary: BuildSummary, cacheUse: CacheUse)
    {
        let galleries = rendered.galleries
        let removed = finished.removed
        var totals = BuildSummary()
        totals.warnings = warnings
        totals.pagesRendered = rendered.sitePages.pagesRendered
        totals.pagesWritten = rendered.sitePages.pagesWritten
        totals.pagesUnchanged = rendered.sitePages.pagesUnchanged
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
        let counted = totals
        async let cacheUse = recordCacheUse(of: counted, upToDate: false)
        await output.writer.recordState(
            fingerprint: fingerprint, summary: totals.unchanged, expires: galleries.compactMap(\.nextUpdate).min(),
            responses: totals.imagesFailed == 0 && totals.imagesFromOutput == 0 && totals.staleSince == nil
                && output.writer.keptChanged.isEmpty
                ? responses.map(GalleryPipeline.distinct) : nil)
        return (totals, await cacheUse)
    }
}
