import Foundation
import VitrineBasics
import VitrineModel
import VitrineStore

/// The step that records the history: the model's transforms (`SiteHistory`, `ArchiveAssembler`) on what the
/// build found, and the images of the items that left.
extension GalleryBuild {
    /// Takes the previous history (the output folder's, else the previous publish's), adds a snapshot when the
    /// galleries' items differ from its latest one, and gives each gallery its "What's new" pages and, when it keeps
    /// every item, its archive.
    func recordHistory(of prepared: [GalleryPipeline.Prepared], found: FoundOutput) async throws
        -> RecordedGalleries
    {
        guard let historyOptions = options.history else { return RecordedGalleries(galleries: prepared) }
        var galleries = prepared
        let source = historyOptions.previous ?? site?.baseURL.map(HistorySource.published(at:))
        let survey = await found.survey.value
        let previous = try await PreviousHistory(
            output: options.output, committed: survey.previousFiles[SiteHistory.fileName]?.sha256,
            interrupted: survey.interrupted, source: source, fetcher: pipeline.fetcher, offline: policy.offline,
            startNew: historyOptions.startNew,
            clock: max(pipeline.now(), options.timestamp ?? .distantPast), ahead: await found.historyInPlace?.value
        ).load()
        var warnings: [String] = []
        if let warning = previous.warning {
            progress(.warning(warning))
            warnings.append(warning)
        }
        var items: [(path: String, ids: [String])] = []
        var records: [String: [String: SiteHistory.ArchivedItem]] = [:]
        for gallery in galleries {
            guard let model = gallery.content.model else { continue }
            items.append((gallery.folder, model.allItems.map { $0.sourceID ?? $0.id }))
            if gallery.archiveLayout != nil {
                records[gallery.folder] = SiteHistory.archivedItems(of: model, images: gallery.images)
            }
        }
        let (history, _) = previous.history.recording(
            items, records: records, at: options.timestamp ?? pipeline.now())
        // Made when a gallery first has items that left: most builds have none.
        var archivedImages: ArchivedImages?
        for index in galleries.indices {
            guard var model = galleries[index].content.model else { continue }
            if let layout = galleries[index].archiveLayout,
                case let departed = history.departed(from: galleries[index].folder), !departed.isEmpty
            {
                let images: ArchivedImages
                if let made = archivedImages {
                    images = made
                } else {
                    images = ArchivedImages(
                        cache: cache, fetcher: pipeline.fetcher,
                        recovery: options.frozen ? nil : OutputImageRecovery(survey: survey, cache: cache),
                        previous: source, offline: policy.offline, maximumBytes: options.maximumImageBytes,
                        snapshot: await found.imageIndex.value.snapshot)
                    archivedImages = images
                }
                try await addArchive(departed, to: &model, of: &galleries[index], layout: layout, images: images)
                galleries[index].views = model.pages(salt: salt)
            }
            model.snapshots = history.snapshots(of: galleries[index].folder, model: model)
            galleries[index].views += model.changesPages(salt: salt)
            galleries[index].content = .gallery(model)
        }
        return RecordedGalleries(
            galleries: galleries,
            history: RecordedHistory(
                history: history, committed: previous.committedInPlace,
                unchanged: previous.committedInPlace != nil && history == previous.history),
            warnings: warnings)
    }

    /// Adds to a gallery that keeps every item the collection of `departed`, with their images (`ArchivedImages`),
    /// which the build places like the others.
    private func addArchive(
        _ departed: [ArchiveAssembler.Departed], to model: inout GalleryModel,
        of gallery: inout GalleryPipeline.Prepared,
        layout: ArchiveAssembler, images: ArchivedImages
    ) async throws {
        try Task.checkCancellation()
        let found = await images.resolve(
            departed.flatMap { $0.record.entries.flatMap { [$0.tile, $0.full] } },
            hosts: gallery.archiveHosts ?? ArchiveImageHosts(endpoints: [], imageURLs: []))
        guard let archive = layout.assemble(departed, variants: model.variants, images: found.outcomes) else { return }
        model.collections.append(archive)
        model.archive = GalleryModel.ArchiveLink(href: archive.pages[0].href)
        for (url, outcome) in found.outcomes {
            guard case .stored(let record) = outcome else { continue }
            gallery.images[url] = record
            gallery.stored.append(record)
        }
        gallery.stored = Array(Set(gallery.stored))
        gallery.stamps.merge(found.stamps) { first, _ in first }
        if !found.fromSnapshot { gallery.imagesFromSnapshot = false }
        if let warning = ArchivedImages.refusalWarning(found.outcomes, folder: gallery.folder) {
            progress(.warning(warning))
            gallery.summary.warnings.append(warning)
        }
        let lost = found.outcomes.values.filter { if case .failed = $0 { true } else { false } }.count
        if lost > 0 {
            let warning =
                "\(lost) image\(lost == 1 ? "" : "s") of items no longer in the results of \(gallery.folder) "
                + "could not be found in the cache, the output or the previous publish; their archive shows placeholders."
            progress(.warning(warning))
            gallery.summary.warnings.append(warning)
        }
    }
}
