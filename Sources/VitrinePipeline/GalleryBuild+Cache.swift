import Foundation
import VitrineBasics
import VitrinePublish
import VitrineStore

/// How a build leaves the cache: a record of what it used, then, with a size to keep to, the cache pruned to it.
extension GalleryBuild {
    /// Records what the build used of the cache (``CacheUseRecord``, replaced whole) and, when the options give the
    /// cache a size and the build stored something in it (an answer, an image, or records of its output folder
    /// larger than the `recordBytes` they held before it) that may have taken it past that size by the cache's
    /// ``CacheSizeLedger``, removes the least recently used entries that the build did not use until the cache is
    /// within 90 % of it (``CachePruner/buildTarget``), or within it when what the build used is more than that.
    /// A build that found its output current used what the previous build of the folder used. Pruning takes the
    /// cache's lock exclusively, without waiting: while another run holds it, nothing is removed this time, which
    /// only `--json` says. When what the build used is alone over the size, one warning says by how much.
    func keepCacheWithinSize(
        _ summary: BuildSummary, lock: CacheLock?, upToDate: Bool, recordBytes: Int64
    ) -> BuildSummary {
        keepCacheWithinSize(
            summary, use: recordCacheUse(of: summary, upToDate: upToDate), lock: lock, recordBytes: recordBytes)
    }

    /// What a build used of the cache, as ``recordCacheUse(of:upToDate:)`` recorded it.
    struct CacheUse: Sendable {
        var used: Set<String>
        /// The record written (nil: none could be encoded).
        var encoded: [UInt8]?
        /// The previous build's record, when this build is up to date and kept its paths.
        var previousRecord: [UInt8]?
    }

    /// Replaces the record of what the build used of the cache (``CacheUseRecord``) with this build's, from the
    /// counts of `summary`. It touches no record of the output folder, so it may be written while those are.
    func recordCacheUse(of summary: BuildSummary, upToDate: Bool) -> CacheUse {
        let recordPath = cache.useRecordPath(for: options.output)
        var used = cache.usage.used
        let output = options.output.standardizedFileURL.path
        let counts = CacheUseRecord.Counts(
            reusedAnswers: summary.apiCacheHits, fetchedAnswers: summary.apiRequests,
            reusedImages: summary.imagesFromCache, fetchedImages: summary.imagesDownloaded)
        var encoded: [UInt8]?
        // An up-to-date build used what the previous one did, so its record's paths are still used; they are only
        // read when pruning needs them, or when this build used something they lack. A build that did its work
        // with exactly the previous build's paths keeps them byte for byte too (and they are `used` already).
        var previousRecord: [UInt8]?
        if let previous = try? FileBytes.read(atPath: recordPath, limit: FileBytes.recordLimit) {
            if let restamped = CacheUseRecord.restamped(
                previous, time: scheduleNow, output: output, counts: counts, keeping: used, exactly: !upToDate)
            {
                encoded = restamped
                if upToDate { previousRecord = previous }
            } else if upToDate, let record = CacheUseRecord(bytes: previous) {
                used.formUnion(record.used)
            }
        }
        if encoded == nil {
            encoded = CacheUseRecord(time: scheduleNow, output: output, counts: counts, used: used).encoded()
        }
        if let encoded {
            try? AtomicFile.write(
                encoded, to: URL(fileURLWithPath: recordPath, isDirectory: false),
                temporaryFolder: cache.temporaryFolder)
        }
        return CacheUse(used: used, encoded: encoded, previousRecord: previousRecord)
    }

    /// ``keepCacheWithinSize(_:lock:upToDate:recordBytes:)`` once the cache's use is recorded (`use`) and the
    /// output folder's records are written.
    func keepCacheWithinSize(_ summary: BuildSummary, use: CacheUse, lock: CacheLock?, recordBytes: Int64)
        -> BuildSummary
    {
        var summary = summary
        var used = use.used
        let encoded = use.encoded
        guard let maximumBytes = options.cacheMaximumBytes else { return summary }
        var upkeep = BuildSummary.CacheUpkeep(maximumBytes: maximumBytes)
        // A build that stored nothing in the cache cannot have taken it past its size, and reading the whole cache
        // would cost every no-change rebuild (a publish's usual day) a walk of every entry; `vitrine cache prune`
        // applies a new size at once. The records of a new output folder, or grown ones, are something stored.
        let recordsGrowth = cache.outputRecordBytes(for: options.output) - recordBytes
        guard summary.apiRequests > 0 || summary.imagesDownloaded > 0 || summary.imagesEncoded > 0 || recordsGrowth > 0
        else {
            upkeep.skipped = "the build stored nothing in the cache"
            summary.cache = upkeep
            return summary
        }
        // Answers and images went into the ledger as they were stored; the records the output writer replaced go
        // in now. While the ledger shows the cache within its size, it is not walked (``CacheSizeLedger``).
        cache.ledger.add(recordsGrowth)
        let estimate = CacheSizeLedger.read(root: cache.root)
        if !cache.ledger.lostAnAddition, CacheSizeLedger.shows(estimate, withinSize: maximumBytes, now: scheduleNow) {
            upkeep.skipped = "the cache is within its size"
            upkeep.bytesAtMost = estimate?.bytes
            summary.cache = upkeep
            return summary
        }
        // The last pruning left only what a build of these very uses kept, over the size, and little has been
        // stored since: a walk would find nothing to remove.
        let usesDigest = encoded.flatMap(CacheUseRecord.pathsDigest(of:))
        if !cache.ledger.lostAnAddition, let usesDigest, let estimate,
            CacheSizeLedger.showsNothingToRemove(
                estimate, forUses: usesDigest, maximumBytes: maximumBytes, now: scheduleNow)
        {
            upkeep.skipped = "the cache holds what this build uses, over its size"
            upkeep.bytesAtMost = estimate.bytes
            summary.cache = upkeep
            warnOverSize(by: estimate.bytes - estimate.added, of: maximumBytes, &summary)
            return summary
        }
        guard let lock, lock.upgrade() else {
            upkeep.skipped = "another run is using the cache"
            summary.cache = upkeep
            return summary
        }
        if let previousRecord = use.previousRecord {
            used.formUnion(CacheUseRecord(bytes: previousRecord)?.used ?? [])
        }
        let outcome = CachePruner(root: cache.root).prune(
            maximumBytes: maximumBytes, targetBytes: CachePruner.buildTargetBytes(of: maximumBytes), used: used,
            usesDigest: usesDigest, now: scheduleNow, maximumAge: policy.maximumAge)
        upkeep.bytesAfter = outcome.bytesAfter
        upkeep.entriesRemoved = outcome.entriesRemoved
        upkeep.bytesRemoved = outcome.bytesRemoved
        upkeep.bytesUsed = outcome.bytesProtected
        summary.cache = upkeep
        if outcome.protectedOverBy != nil { warnOverSize(by: outcome.bytesProtected, of: maximumBytes, &summary) }
        return summary
    }

    /// Says that what this build used, `used` bytes, is over the cache's size `maximumBytes`.
    private func warnOverSize(by used: Int64, of maximumBytes: Int64, _ summary: inout BuildSummary) {
        let warning =
            "This build alone used \(ByteCount.text(used)) of the cache, "
            + "\(ByteCount.text(used - maximumBytes)) over its size of \(ByteCount.text(maximumBytes)); "
            + "nothing it used was removed; give the cache a larger size."
        progress(.warning(warning))
        summary.warnings.append(warning)
    }
}
