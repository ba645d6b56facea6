import Foundation
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrinePublish
import VitrineRender
import VitrineSources
import VitrineStore

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
