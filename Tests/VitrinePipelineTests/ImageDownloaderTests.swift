import Foundation
import Synchronization
import Testing
import VitrineHTTP
import VitrineTestSupport

@testable import VitrinePipeline
@testable import VitrineStore

@Suite struct ImageDownloaderTests {
    /// A fetcher of `concurrentTransfers` that answers every image after a pause, counting how many requests it
    /// holds at once.
    final class CountingFetcher: HTTPFetching {
        let concurrentTransfers: Int
        private let held = Mutex((now: 0, most: 0))

        init(concurrentTransfers: Int) {
            self.concurrentTransfers = concurrentTransfers
        }

        var most: Int { held.withLock { $0.most } }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
            held.withLock { state in
                state.now += 1
                state.most = max(state.most, state.now)
            }
            try? await Task.sleep(for: .milliseconds(50))
            held.withLock { $0.now -= 1 }
            return FetchResponse(status: 200, body: [UInt8](RandomPipelineTests.jpeg), effectiveURL: request.url)
        }
    }

    /// Each download holds its image's bytes until they are stored: no more of them wait at once than keep the
    /// fetcher's transfers busy.
    @Test func downloadsInFlightAreBoundedByTheFetchersTransfers() async throws {
        let folder = try TemporaryFolder()
        let fetcher = CountingFetcher(concurrentTransfers: 3)
        let downloader = ImageDownloader(
            fetcher: fetcher, cache: CacheStore(root: folder.url), offline: false, maximumBytes: 1 << 20,
            progress: { _ in })
        let urls = (1...30).map { "https://cdn.example/\($0).jpg" }
        let result = try await downloader.download(urls)
        #expect(result.downloaded == 30)
        #expect(fetcher.most <= 6)
        #expect(fetcher.most > 3)
    }
}
