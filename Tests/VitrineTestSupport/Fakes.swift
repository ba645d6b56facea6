import Foundation
import Synchronization
import VitrineHTTP
import VitrineStore

/// Answers requests from a table and records them; a stand-in for the network where a server is beside the point.
package final class FakeFetcher: HTTPFetching {
    private let answers: @Sendable (FetchRequest) -> Result<FetchResponse, FetchError>
    private let log = Mutex<[FetchRequest]>([])

    package init(_ answers: @escaping @Sendable (FetchRequest) -> Result<FetchResponse, FetchError>) {
        self.answers = answers
    }

    package var requests: [FetchRequest] { log.withLock { $0 } }

    package func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        log.withLock { $0.append(request) }
        return try answers(request).get()
    }
}

/// Serves API responses by query from a table, the way `CachedAPIClient` would hand them to a source.
package final class FakeAPI: APIResponseLoading {
    private let answer: @Sendable (URLComponents) -> (Int, String)
    private let log = Mutex<[String]>([])

    package init(_ answer: @escaping @Sendable (URLComponents) -> (Int, String)) {
        self.answer = answer
    }

    package var urls: [String] { log.withLock { $0 } }

    package func load(_ request: FetchRequest) async throws -> APIResponse {
        log.withLock { $0.append(request.url) }
        let (status, body) = answer(URLComponents(string: request.url)!)
        return APIResponse(
            status: status, body: Array(body.utf8), fetchedAt: Date(timeIntervalSince1970: 1_000), fromCache: false)
    }
}

extension URLComponents {
    package func query(_ name: String) -> String? { queryItems?.first { $0.name == name }?.value }
}

/// A Pixabay hit as JSON text, with every field overridable.
package func pixabayHit(id: Int, tags: String = "port, ship", user: String = "jdoe", extra: String = "") -> String {
    """
    {"id": \(id), "pageURL": "https://pixabay.com/photos/p-\(id)/", "tags": "\(tags)",
     "previewURL": "https://cdn.example/\(id)_150.jpg", "previewWidth": 150, "previewHeight": 100,
     "webformatURL": "https://cdn.example/\(id)_640.jpg", "webformatWidth": 640, "webformatHeight": 427,
     "largeImageURL": "https://cdn.example/\(id)_1280.jpg", "imageWidth": 3840, "imageHeight": 2560,
     "user": "\(user)", "user_id": 7\(extra)}
    """
}
