import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrinePublish
import VitrineRender
import VitrineSources
import VitrineStore

extension GalleryPipeline.Prepared.Content {
    /// A gallery's model; nil for a random page or a gallery a shard built.
    var model: GalleryModel? { if case .gallery(let model) = self { model } else { nil } }

    /// A merged gallery's record.
    var record: ShardRecord.Gallery? { if case .merged(let record, _) = self { record } else { nil } }
}

extension GalleryPipeline.Prepared {
    /// Its pages, in order.
    var jobs: [GalleryModel.PageJob] {
        switch content {
        case .gallery: views.map(\.job)
        case .random(let model, _, _): model.pageJobs
        case .merged: []
        }
    }

    /// The files beside its pages: the model and the search index, and a random page's schedule.
    var modelFiles: [String] {
        switch content {
        case .gallery(let model): [folder + "gallery.xml"] + (model.search.map { [$0.indexHref] } ?? [])
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
        if case .random(_, let state, _) = content { state.nextUpdate } else { nil }
    }

    /// The ids of its items, as the manifest lists them.
    var itemIDs: [String] {
        switch content {
        case .gallery(let model): model.allItems.map { $0.sourceID ?? $0.id }
        case .random(let model, _, _): [model.photoID]
        case .merged(let record, _): record.manifest.items.map(\.id)
        }
    }

    /// The items of its results that have tags, for the site's tag pages, and how many a tag page of the gallery
    /// lists (nil when it has no tag pages).
    var taggedItems: (items: [SiteTags.TaggedItem], perPage: Int?) {
        switch content {
        case .gallery(let model): (SiteTags.TaggedItem.all(in: model), model.tags?.itemsPerPage)
        case .random: ([], nil)
        case .merged(let record, _): (record.tags?.taggedItems ?? [], record.tags?.perPage)
        }
    }

    /// The entries of its search index, for the site's; nil when it has no search.
    var searchEntries: [SearchIndex.Entry]? {
        switch content {
        case .gallery(let model): model.search == nil ? nil : SearchIndex.entries(of: model)
        case .random: nil
        case .merged(let record, _): record.search
        }
    }

    /// Its card on the site's home page.
    func card(id: String) -> SiteModel.Gallery {
        switch content {
        case .gallery(let model): SiteModel.card(for: model, id: id)
        case .random(let model, _, _): SiteModel.card(for: model, id: id)
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
        case .random(let model, _, _):
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
        case .random(let model, _, _):
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
        case .random(let model, _, _):
            SiteFeeds.Entry(
                path: model.pageJobs[0].href, title: model.title,
                summary: "\(SiteModel.scheduleLine(model.every)) from \(model.source.label)", updated: fetchedAt)
        case .merged(let record, _):
            record.feedEntry
        }
    }
}
