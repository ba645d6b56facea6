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
    /// Images re-encoded in the formats the build asks for.
    case encoding(done: Int, total: Int)
    case rendering(done: Int, total: Int)
    /// A pause the user should know about, such as a rate limit.
    case waiting(seconds: Int, reason: String)
    /// Another run is writing into the output folder; this one waits for it to finish.
    case waitingForOutput(folder: String)
    case retrying(reason: String, attempt: Int)
    case warning(String)
}

/// A format a build can re-encode the downloaded images in (``BuildOptions/formats``); re-encoding needs libvips.
public enum ReencodedFormat: String, Sendable, CaseIterable {
    case avif, webp

    /// The image format it writes.
    var imageFormat: ImageFormat {
        switch self {
        case .avif: .avif
        case .webp: .webp
        }
    }
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
    /// The time written where a file needs one (the Atom feed, a history snapshot); from `SOURCE_DATE_EPOCH`.
    /// Without it, the time the gallery's API responses were fetched, so that the same cache gives the same bytes
    /// (a snapshot: the pipeline's clock). It only stamps: what is fresh or due is decided on the pipeline's clock.
    public var timestamp: Date?
    /// Leave the output folder as it was and fail when a gallery would lack anything (a failed image, a skipped
    /// result, stale results).
    public var strict: Bool
    /// Wait for another run that is writing into the output folder, instead of failing at once.
    public var waitForOutput: Bool
    /// Keep the site's history (`history.json`, "What's new" pages, a feed entry per snapshot); nil: keep none.
    public var history: HistoryOptions?
    /// The formats every downloaded JPEG and PNG is also offered in, re-encoded, in the order a page prefers them;
    /// empty: the images as the APIs serve them, and nothing else.
    public var formats: [ReencodedFormat] = []
    /// The most the cache should hold, in bytes: after a build that took it over, the least recently used entries
    /// it did not use are removed until the cache holds 90 % of it. Nil: the build removes nothing from the cache.
    public var cacheMaximumBytes: Int64?
    /// Whether the build leaves what it made to the process's exit instead of freeing it when it returns
    /// (``LeftToExit``): for a process that ends after this one build, never for one that runs more.
    public var leavesMemoryToExit = false

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
