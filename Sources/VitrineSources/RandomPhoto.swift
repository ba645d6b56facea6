import Foundation
import VitrineHTTP
import VitrineStore

/// One random picture as an image API describes it: who made it, where its page is, its renditions and whatever
/// else the API said. It knows nothing of files or HTML.
public struct RandomPhoto: Sendable, Codable, Hashable {
    /// One rendition at a remote URL, with its pixel size when known.
    public struct Rendition: Sendable, Codable, Hashable {
        public var url: String
        public var width: Int?
        public var height: Int?

        public init(url: String, width: Int?, height: Int?) {
            self.url = url
            self.width = width
            self.height = height
        }
    }

    /// A further fact the API gave, such as the location or the camera.
    public struct Fact: Sendable, Codable, Hashable {
        public var label: String
        public var value: String

        public init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    public var id: String
    public var author: String?
    /// The author's profile page.
    public var authorURL: String?
    /// The photo's own page at the source.
    public var pageURL: String?
    /// A description or alt text, when the API has one.
    public var caption: String?
    /// The original's pixel size.
    public var width: Int?
    public var height: Int?
    /// The renditions to show, smallest first; the last is the main one.
    public var renditions: [Rendition]
    public var facts: [Fact]
    /// Where the API wants to hear that the photo was used (Unsplash's `links.download_location`).
    public var downloadLocation: String?

    public init(
        id: String, author: String?, authorURL: String?, pageURL: String?, caption: String?, width: Int?,
        height: Int?, renditions: [Rendition], facts: [Fact] = [], downloadLocation: String? = nil
    ) {
        self.id = id
        self.author = author
        self.authorURL = authorURL
        self.pageURL = pageURL
        self.caption = caption
        self.width = width
        self.height = height
        self.renditions = renditions
        self.facts = facts
        self.downloadLocation = downloadLocation
    }
}

/// An image API that hands out one random photo at a time.
public protocol RandomImageSource: Sendable {
    var description: SourceDescription { get }
    /// How the API's terms let its photos be used; the pipeline follows it.
    var usage: ImageUsagePolicy { get }
    /// Everything besides the API's answers that shapes the photos `pick` returns (endpoint, query), and no secret.
    var configuration: String { get }
    /// Picks a random photo, another than `currentID` where the API makes that possible.
    func pick(avoiding currentID: String?, using api: any APIResponseLoading) async throws -> RandomPhoto
    /// The request that tells the API a photo is being used, authorised as the API wants, when its policy asks
    /// for one.
    func useReport(for photo: RandomPhoto) -> FetchRequest?
    /// The source picking by `seed` where the API picks by seed, so that the same seed gives the same photo;
    /// itself where it does not.
    func seeded(_ seed: String) -> any RandomImageSource
}

extension RandomImageSource {
    public func seeded(_ seed: String) -> any RandomImageSource { self }
}

/// Loads API responses from the network every time, storing nothing: a random endpoint's answer is never worth
/// keeping, and its secret headers never touch the disk.
package struct UncachedAPIClient: APIResponseLoading {
    let fetcher: any HTTPFetching
    let maximumResponseBytes: Int
    let now: @Sendable () -> Date

    package init(fetcher: any HTTPFetching, maximumResponseBytes: Int, now: @escaping @Sendable () -> Date) {
        self.fetcher = fetcher
        self.maximumResponseBytes = maximumResponseBytes
        self.now = now
    }

    package func load(_ request: FetchRequest) async throws -> APIResponse {
        var request = request
        request.maximumBodyBytes = min(request.maximumBodyBytes, maximumResponseBytes)
        let response: FetchResponse
        do {
            response = try await fetcher.fetch(request)
        } catch .cancelled {
            throw CancellationError()
        }
        return APIResponse(status: response.status, body: response.body, fetchedAt: now(), fromCache: false)
    }
}
