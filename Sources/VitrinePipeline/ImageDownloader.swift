import Foundation
import Synchronization
import VitrineBasics
import VitrineHTTP
import VitrineModel
import VitrineStore

/// Downloads every image a gallery needs once, through the cache, all at once up to the fetcher's limit.
struct ImageDownloader: Sendable {
    /// Downloads waiting or under way at once: twice the transfers the fetcher runs, so that it never idles while
    /// finished downloads are being stored. Each holds its image's bytes from the moment they arrive until they are
    /// stored, so a larger number only holds more bodies in memory (BENCHMARKS.md, "Figures behind the code").
    var inFlight: Int { max(4, fetcher.concurrentTransfers * 2) }

    struct Result: Sendable {
        var outcomes: [String: ImageOutcome] = [:]
        var downloaded = 0
        var fromCache = 0
        /// How many of `fromCache` were taken from the snapshot without opening their index entries.
        var fromSnapshot = 0
        /// Images the cache lacked and could not be downloaded, taken back from the output folder's copies.
        var fromOutput = 0
        /// The stamp each stored image's bytes were verified with, by SHA-256.
        var stamps: [String: FileStamp] = [:]
    }

    var fetcher: any HTTPFetching
    var cache: CacheStore
    var offline: Bool
    var maximumBytes: Int
    /// Header fields every download sends (`ImageSource.imageRequestHeaders`).
    var headers: [String: String] = [:]
    /// What the previous build of the same output found in the cache, to skip opening index entries unchanged since.
    var snapshot: ImageIndexSnapshot?
    /// Whether the output folder already holds an image's bytes intact where the build puts them, so that its
    /// cached file is not read and need not be checked (`CacheStore.imageRecords(for:snapshot:readElsewhere:)`).
    var inOutput: (@Sendable (CacheStore.ImageRecord) -> Bool)? = nil
    /// Takes an image that the cache lacks and that could not be downloaded from the output folder's copy, if it has
    /// a whole one, back into the cache.
    var recover: @Sendable (String) -> (record: CacheStore.ImageRecord, stamp: FileStamp)? = { _ in nil }
    var progress: @Sendable (ProgressEvent) -> Void
    /// Given the outcomes so far, now and then while images download (about every ``checkpointShare`` of them,
    /// and toward the end after half of what is left, at least ``checkpointMinimum`` apart:
    /// ``checkpointSpacing(every:left:)``), for the pages rendered early (`EarlyRendering`).
    var checkpoint: (@Sendable ([String: ImageOutcome]) -> Void)? = nil
    /// Where each downloaded image is also written, by its SHA-256, for the output folder to link rather than copy.
    var staged: StagedFiles? = nil

    /// The share of the downloads between two checkpoints, and the fewest: each costs a layout of the whole
    /// gallery (BENCHMARKS.md, "Figures behind the code").
    static let checkpointShare = 12
    static let checkpointMinimum = 32

    /// How many downloads after a checkpoint the next comes, when `left` are still to come: `every`, or half of
    /// what is left once that is closer, so that the pages of the last items wait for fewer of them (a page that
    /// shows an image still on its way is rendered after the downloads); never fewer than ``checkpointMinimum``.
    static func checkpointSpacing(every: Int, left: Int) -> Int {
        min(every, max(checkpointMinimum, left / 2))
    }

    func download(_ urls: [String]) async throws -> Result {
        var result = Result()
        var pending: [String] = []
        let cached = await cache.imageRecords(for: urls, snapshot: snapshot, readElsewhere: inOutput)
        result.fromSnapshot = cached.fromSnapshot
        result.stamps = cached.stamps
        for url in urls {
            if let record = cached.records[url] {
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
        let checkpointEvery = max(Self.checkpointMinimum, pending.count / Self.checkpointShare)
        var sinceCheckpoint = 0
        var nextCheckpoint = checkpointEvery
        try await withThrowingTaskGroup(of: (String, ImageOutcome, FileStamp?).self) { group in
            var next = pending.makeIterator()
            for _ in 0..<inFlight {
                guard let url = next.next() else { break }
                group.addTask { try await fetchOne(url) }
            }
            for try await (url, outcome, stamp) in group {
                result.outcomes[url] = outcome
                if case .stored(let record) = outcome, let stamp {
                    result.downloaded += 1
                    result.stamps[record.sha256] = stamp
                }
                done += 1
                progress(.images(done: done, total: total))
                sinceCheckpoint += 1
                if let checkpoint, sinceCheckpoint >= nextCheckpoint {
                    checkpoint(result.outcomes)
                    sinceCheckpoint = 0
                    nextCheckpoint = Self.checkpointSpacing(every: checkpointEvery, left: total - done)
                }
                if let url = next.next() { group.addTask { try await fetchOne(url) } }
            }
        }
        for url in urls {
            guard case .failed = result.outcomes[url], let (record, stamp) = recover(url) else { continue }
            result.outcomes[url] = .stored(record)
            result.stamps[record.sha256] = stamp
            result.fromOutput += 1
        }
        return result
    }

    private func fetchOne(_ url: String) async throws -> (String, ImageOutcome, FileStamp?) {
        let response: FetchResponse
        do {
            response = try await fetcher.fetch(
                FetchRequest(url: url, headers: headers, maximumBodyBytes: maximumBytes))
        } catch .cancelled {
            throw CancellationError()
        } catch .httpUnavailable(let reason) {
            // Not this image's failure but every download's: the run stops, rather than show placeholders only.
            throw FetchError.httpUnavailable(reason: reason)
        } catch {
            return (url, .failed(reason: "Download failed: \(error.shortReason)"), nil)
        }
        guard response.status == 200 else {
            return (url, .failed(reason: "Download failed: HTTP \(response.status)"), nil)
        }
        guard let format = ImageFormat.sniff(response.body) else {
            return (url, .failed(reason: "Not an image"), nil)
        }
        if let size = ImageDimensions.read(response.body, format: format),
            let refusal = ImageDimensions.refusal(width: size.width, height: size.height)
        {
            return (url, .failed(reason: refusal), nil)
        }
        if let problem = ImageCompleteness.problem(response.body, format: format) {
            return (url, .failed(reason: problem), nil)
        }
        let (record, stamp) = try cache.storeStampedImage(response.body, format: format, from: url)
        staged?.stage(response.body, as: record.sha256)
        return (url, .stored(record), stamp)
    }
}
