import Foundation
import VitrineBasics
import VitrineImaging
import VitrineModel
import VitrineStore

/// Makes the re-encoded copies a build asks for (AVIF, WebP; AVIF also for dense screens) of the downloaded JPEG and
/// PNG images, each once: a copy is kept in the cache under its original's digest and the encoder's settings
/// (`key(of:as:)`), so that a rebuild finds it there, through the previous build's snapshot like any image, and
/// never encodes it again.
struct ImageReencoder: Sendable {
    var cache: CacheStore
    var formats: [ImageFormat]
    var snapshot: ImageIndexSnapshot?
    var encoder = ImageEncoder()
    var progress: @Sendable (ProgressEvent) -> Void
    /// How many copies may be encoded at once, at most.
    var cores = ProcessInfo.processInfo.activeProcessorCount
    /// The memory the copies encoded at once may need together, as `ImageEncoder.estimatedMemory` tells it.
    var memoryBudget = ImageEncoder.memoryBudget

    struct Result: Sendable {
        /// The copies of each original that are smaller than it, by the original's SHA-256, in the order of
        /// `ImageEncoder.targets(for: formats)`, each with the screens it is for.
        var copies: [String: [EncodedCopy]] = [:]
        /// Every copy by its cache key, for the next build's snapshot.
        var records: [String: CacheStore.ImageRecord] = [:]
        /// The stamp each copy's cached bytes were verified with, by SHA-256.
        var stamps: [String: FileStamp] = [:]
        var encoded = 0
        /// Whether the snapshot gave every copy, so that it describes this build's copies as well.
        var allFromSnapshot = true
        /// The copies that could not be made: the format, why, and the original's SHA-256.
        var failures: [(format: ImageFormat, reason: String, original: String)] = []
        /// The most copies encoded at once, and the most memory they were estimated to need together.
        var mostAtOnce = 0
        var mostMemoryAtOnce = 0
    }

    /// The cache's key of `original` re-encoded as `target` with today's settings.
    static func key(of original: CacheStore.ImageRecord, as target: EncodingTarget) -> String {
        "vitrine-encoded:\(ImageEncoder.settingsKey(target))/\(original.sha256)"
    }

    /// The copies of `originals` (each once) in every format, from the cache or encoded now: on every core while
    /// the memory their images need stays within `memoryBudget`, one at a time for an image that needs more.
    func copies(of originals: [CacheStore.ImageRecord]) async throws -> Result {
        let wanted = Set(originals).filter { ImageEncoder.sources.contains($0.format) }
            .sorted { $0.sha256 < $1.sha256 }
        let targets = ImageEncoder.targets(for: formats)
        let jobs = wanted.flatMap { original in
            targets.filter { $0.format != original.format }.map { (original: original, target: $0) }
        }
        var result = Result()
        guard !jobs.isEmpty else { return result }
        let cached = await cache.imageRecords(
            for: jobs.map { Self.key(of: $0.original, as: $0.target) }, snapshot: snapshot)
        result.stamps = cached.stamps
        result.allFromSnapshot = cached.fromSnapshot == jobs.count
        var pending: [(original: CacheStore.ImageRecord, target: EncodingTarget)] = []
        for job in jobs {
            let key = Self.key(of: job.original, as: job.target)
            if let record = cached.records[key] { result.records[key] = record } else { pending.append(job) }
        }
        var done = jobs.count - pending.count
        progress(.encoding(done: done, total: jobs.count))
        try await withThrowingTaskGroup(of: (String, Result.Outcome, memory: Int).self) { group in
            var waiting = pending[...]
            var running = 0
            var memoryInUse = 0
            func startWhatFits() {
                while let job = waiting.first {
                    let memory = ImageEncoder.estimatedMemory(width: job.original.width, height: job.original.height)
                    guard running == 0 || (running < cores && memoryInUse + memory <= memoryBudget) else { return }
                    waiting.removeFirst()
                    running += 1
                    memoryInUse += memory
                    result.mostAtOnce = max(result.mostAtOnce, running)
                    result.mostMemoryAtOnce = max(result.mostMemoryAtOnce, memoryInUse)
                    group.addTask {
                        let (key, outcome) = try encode(job.original, as: job.target)
                        return (key, outcome, memory)
                    }
                }
            }
            startWhatFits()
            for try await (key, outcome, memory) in group {
                running -= 1
                memoryInUse -= memory
                switch outcome {
                case .stored(let record, let stamp):
                    result.records[key] = record
                    result.stamps[record.sha256] = stamp
                    result.encoded += 1
                case .failed(let format, let reason, let original):
                    result.failures.append((format, reason, original))
                }
                done += 1
                progress(.encoding(done: done, total: jobs.count))
                startWhatFits()
            }
        }
        for job in jobs {
            guard let copy = result.records[Self.key(of: job.original, as: job.target)],
                copy.byteCount < job.original.byteCount
            else { continue }
            result.copies[job.original.sha256, default: []].append(
                EncodedCopy(record: copy, minimumDensity: job.target.minimumDensity))
        }
        return result
    }

    /// Encodes the cached bytes of `original` as `target` says and stores the copy; a copy that cannot be made is a
    /// failure of that copy alone, and only a cache that cannot be written fails the build.
    private func encode(_ original: CacheStore.ImageRecord, as target: EncodingTarget) throws -> (
        String, Result.Outcome
    ) {
        try Task.checkCancellation()
        let format = target.format
        let key = Self.key(of: original, as: target)
        guard
            let bytes = try? FileBytes.read(atPath: cache.imageFilePath(for: original), limit: original.byteCount),
            SHA256Hasher.hex(of: bytes) == original.sha256
        else { return (key, .failed(format, "its cached bytes changed as they were read", original: original.sha256)) }
        let encoded: EncodedImage
        do {
            encoded = try encoder.encode(bytes, width: original.width, height: original.height, as: target)
        } catch {
            return (key, .failed(format, error.reason, original: original.sha256))
        }
        guard ImageFormat.sniff(encoded.bytes) == format else {
            return (key, .failed(format, "libvips wrote something else", original: original.sha256))
        }
        let (record, stamp) = try cache.storeStampedImage(encoded.bytes, format: format, from: key)
        return (key, .stored(record, stamp))
    }
}

extension ImageReencoder.Result {
    /// What became of one copy.
    enum Outcome: Sendable {
        case stored(CacheStore.ImageRecord, FileStamp)
        case failed(ImageFormat, String, original: String)
    }
}

/// The build was asked for re-encoded copies of its images, and libvips, which makes them, could not be loaded.
public struct ImageEncoderUnavailableError: UserFacingError {
    /// Why it could not be loaded, in the dynamic loader's words.
    public let reason: String
    /// Says what is missing and how to get it.
    public var sentence: String {
        "Re-encoding the images needs libvips 8 (Debian's libvips42 package), which could not be loaded (\(reason)); "
            + "install it, or build without other image formats."
    }
    /// Always `.unavailable`.
    public var kind: FailureKind { .unavailable }
}
