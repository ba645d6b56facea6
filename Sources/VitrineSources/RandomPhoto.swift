import Foundation
import VitrineHTTP
import VitrineStore

/// One random picture as an image API describes it: who made it, where its page is, its renditions and whatever
/// else the API said. It knows nothing of files or HTML.
///
/// Public because the sources' requirements name it; its members are the package's own, so a program embedding
/// Vitrine hands it along without reading or making one.
public struct RandomPhoto: Sendable, Codable, Hashable {
    /// One rendition at a remote URL, with its pixel size when known.
    package struct Rendition: Sendable, Codable, Hashable {
        package var url: String
        package var width: Int?
        package var height: Int?

        package init(url: String, width: Int?, height: Int?) {
            self.url = url
            self.width = width
            self.height = height
        }
    }

    /// A further fact the API gave, such as the location or the camera.
    package struct Fact: Sendable, Codable, Hashable {
        package var label: String
        package var value: String

        package init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    package var id: String
    package var author: String?
    /// The author's profile page.
    package var authorURL: String?
    /// The photo's own page at the source.
    package var pageURL: String?
    /// A description or alt text, when the API has one.
    package var caption: String?
    /// The original's pixel size.
    package var width: Int?
    package var height: Int?
    /// The renditions to show, smallest first; the last is the main one.
    package var renditions: [Rendition]
    package var facts: [Fact]
    /// Where the API wants to hear that the photo was used (Unsplash's `links.download_location`).
    var downloadLocation: String?

    package init(
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
///
/// Vitrine's own sources conform to it (`PicsumSource`, `UnsplashSource`); a program embedding Vitrine passes one of
/// them to a random page's plan or run. The types its requirements name expose no members outside the package, so
/// it cannot be conformed to elsewhere.
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
    /// Itself, for an API that picks without a seed.
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
