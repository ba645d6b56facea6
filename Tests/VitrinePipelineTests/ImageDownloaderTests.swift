import Foundation
import Synchronization
import Testing
import VitrineHTTP
import VitrineTestSupport

@testable import VitrinePipeline
@testable import VitrineStore

@Suite struct ImageDownloaderTests {
    /// A fetcher of `concurrentTransfers` that holds every image until `expected` requests are held at once, counting
    /// how many it holds at once.
    final class CountingFetcher: HTTPFetching {
        let concurrentTransfers: Int
        private let expected: Int
        private let held = Mutex((now: 0, most: 0))
        let allHeld = Handshake()

        init(concurrentTransfers: Int, expected: Int) {
            self.concurrentTransfers = concurrentTransfers
            self.expected = expected
        }

        var most: Int { held.withLock { $0.most } }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
            let now = held.withLock { state in
                state.now += 1
                state.most = max(state.most, state.now)
                return state.now
            }
            if now == expected {
                // Tasks already started run before the release: a downloader that started more would show it.
                for _ in 0..<100 { await Task.yield() }
                allHeld.signal()
            }
            // If they never are, the first to give up releases the others (and `most` tells).
            if await !allHeld.wait(atMost: .seconds(300)) { allHeld.signal() }
            held.withLock { $0.now -= 1 }
            return FetchResponse(status: 200, body: [UInt8](RandomPipelineTests.jpeg), effectiveURL: request.url)
        }
    }

    /// Each download holds its image's bytes until they are stored: no more of them wait at once than keep the
    /// fetcher's transfers busy.
    @Test func downloadsInFlightAreBoundedByTheFetchersTransfers() async throws {
        let folder = try TemporaryFolder()
        let fetcher = CountingFetcher(concurrentTransfers: 3, expected: 6)
        let downloader = ImageDownloader(
            fetcher: fetcher, cache: CacheStore(root: folder.url), offline: false, maximumBytes: 1 << 20,
            progress: { _ in })
        let urls = (1...30).map { "https://cdn.example/\($0).jpg" }
        let result = try await downloader.download(urls)
        #expect(result.downloaded == 30)
        #expect(fetcher.most == 6, "twice the fetcher's transfers were under way at once, and no more")
    }

    /// A fetcher that answers every image at once with the same picture.
    struct ImmediateFetcher: HTTPFetching {
        var concurrentTransfers: Int { 1 }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
            FetchResponse(status: 200, body: [UInt8](RandomPipelineTests.jpeg), effectiveURL: request.url)
        }
    }

    /// The early pages get a snapshot about every twelfth of the downloads, then, toward the end, after half of what
    /// is left (at least 32 apart): the pages of the last items wait for fewer of them.
    @Test func checkpointsComeEveryTwelfthAndCloserTowardTheEnd() async throws {
        let folder = try TemporaryFolder()
        let seen = Mutex([Int]())
        let downloader = ImageDownloader(
            fetcher: ImmediateFetcher(), cache: CacheStore(root: folder.url), offline: false, maximumBytes: 1 << 20,
            progress: { _ in }, checkpoint: { outcomes in seen.withLock { $0.append(outcomes.count) } })
        let result = try await downloader.download((1...1_200).map { "https://cdn.example/\($0).jpg" })
        #expect(result.downloaded == 1_200)
        #expect(seen.withLock { $0 } == Array(stride(from: 100, through: 1_100, by: 100)) + [1_150, 1_182])
        #expect(ImageDownloader.checkpointSpacing(every: 750, left: 8_000) == 750)
        #expect(ImageDownloader.checkpointSpacing(every: 750, left: 750) == 375)
        #expect(ImageDownloader.checkpointSpacing(every: 750, left: 20) == 32)
    }

    /// A fetcher that cannot make any request: libcurl could not be loaded.
    struct UnavailableFetcher: HTTPFetching {
        var concurrentTransfers: Int { 2 }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
            throw .httpUnavailable(reason: "libcurl could not be loaded (libcurl.so.4: cannot open shared object file)")
        }
    }

    /// Without libcurl no image can come: the downloads stop with that sentence rather than make every picture a
    /// placeholder that names it.
    @Test func noHTTPAtAllStopsTheDownloadsRatherThanFailEachImage() async throws {
        let folder = try TemporaryFolder()
        let downloader = ImageDownloader(
            fetcher: UnavailableFetcher(), cache: CacheStore(root: folder.url), offline: false, maximumBytes: 1 << 20,
            progress: { _ in }, checkpoint: { _ in })
        await #expect(
            throws: FetchError.httpUnavailable(
                reason: "libcurl could not be loaded (libcurl.so.4: cannot open shared object file)")
        ) {
            _ = try await downloader.download((1...5).map { "https://cdn.example/\($0).jpg" })
        }
    }
}
