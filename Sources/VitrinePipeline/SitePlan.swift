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
    public var folder: String
    public var source: any ImageSource
    /// What the progress line says is being searched.
    public var label: String
    public var itemsPerPage: Int
    public var tileShape: GalleryModel.TileShape
    /// Keep the items that leave the results browsable (`keep = "all"`), when the site keeps a history.
    public var keepAll: Bool

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
