import Foundation
import Synchronization

/// Downloads every image a gallery needs once, through the cache, all at once up to the fetcher's limit.
struct ImageDownloader: Sendable {
    /// Downloads waiting or under way at once: above the most transfers the engine runs (64), so that it never
    /// idles, while a task per image for thousands of images (about 4 KiB each) was the peak of a cold build's heap.
    static let inFlight = 256

    struct Result: Sendable {
        var outcomes: [String: ImageOutcome] = [:]
        var downloaded = 0
        var fromCache = 0
        /// How many of `fromCache` were taken from the snapshot without opening their index entries.
        var fromSnapshot = 0
    }

    var fetcher: any HTTPFetching
    var cache: CacheStore
    var offline: Bool
    var maximumBytes: Int
    /// What the previous build of the same output found in the cache, to skip opening index entries unchanged since.
    var snapshot: ImageIndexSnapshot?
    var progress: @Sendable (ProgressEvent) -> Void

    func download(_ urls: [String]) async throws -> Result {
        var result = Result()
        var pending: [String] = []
        let (cached, fromSnapshot) = cache.imageRecords(for: urls, snapshot: snapshot)
        result.fromSnapshot = fromSnapshot
        for url in urls {
            if let record = cached[url] {
                result.outcomes[url] = .stored(record)
                result.fromCache += 1
            } else if offline {
                result.outcomes[url] = .failed(reason: "Not in the cache (offline run)")
            } else {
                pending.append(url)
            }
        }
        let total = urls.count
        var done = total - pending.count
        progress(.images(done: done, total: total))
        try await withThrowingTaskGroup(of: (String, ImageOutcome, Bool).self) { group in
            var next = pending.makeIterator()
            for _ in 0..<Self.inFlight {
                guard let url = next.next() else { break }
                group.addTask { try await fetchOne(url) }
            }
            for try await (url, outcome, downloaded) in group {
                result.outcomes[url] = outcome
                if downloaded { result.downloaded += 1 }
                done += 1
                progress(.images(done: done, total: total))
                if let url = next.next() { group.addTask { try await fetchOne(url) } }
            }
        }
        return result
    }

    private func fetchOne(_ url: String) async throws -> (String, ImageOutcome, Bool) {
        let response: HTTPResponse
        do {
            response = try await fetcher.fetch(HTTPRequest(url: url, maximumBodyBytes: maximumBytes))
        } catch .cancelled {
            throw CancellationError()
        } catch {
            return (url, .failed(reason: "Download failed: \(error.shortReason)"), false)
        }
        guard response.status == 200 else {
            return (url, .failed(reason: "Download failed: HTTP \(response.status)"), false)
        }
        guard let format = ImageFormat.sniff(response.body) else {
            return (url, .failed(reason: "Not an image"), false)
        }
        let record = try cache.storeImage(response.body, format: format, from: url)
        return (url, .stored(record), true)
    }
}
