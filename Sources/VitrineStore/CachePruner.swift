import Foundation
import SystemPackage
import VitrineBasics

/// Keeps the cache within a size: removes, least recently used first, entries that the run pruning did not use,
/// until the cache is within the size (an entry no output folder's last build used counts as used before any that
/// one did, see ``CacheInventory``). Answers past their age limit or damaged, the records of output folders that
/// no longer exist and index entries whose image is gone go before any other. The caller holds the cache's lock
/// exclusively (``CacheLock``), so no other run is using what is removed.
///
/// Each entry's files are removed one at a time in an order that leaves, whenever the removal is cut short, a cache
/// that the next build reads correctly: an answer's `.meta` before its `.body` (a body without its record is no
/// answer), an image before the index entries that point at it (an entry whose image is missing is not cached, and
/// the image is downloaded again), and an output folder's build state before its other records (without it, the
/// next build takes the full path).
package struct CachePruner {
    /// What a pruning did.
    package struct Outcome: Equatable, Sendable, Codable {
        /// The size of the cache's entries before.
        package var bytesBefore: Int64 = 0
        /// Their size after.
        package var bytesAfter: Int64 = 0
        package var entriesRemoved = 0
        package var bytesRemoved: Int64 = 0
        /// The size of what the run used, which stays whatever the size.
        package var bytesProtected: Int64 = 0
        /// The most the cache should hold.
        package var maximumBytes: Int64 = 0

        package init() {}

        /// By how much what the run used alone is over the size; nil when it is not.
        package var protectedOverBy: Int64? {
            bytesProtected > maximumBytes ? bytesProtected - maximumBytes : nil
        }
    }

    package let root: URL

    package init(root: URL) {
        self.root = root
    }

    /// The share of its size a build's pruning takes the cache down to, as ccache's cleanup does: the builds after
    /// it then have room to store without pruning again (``CacheSizeLedger``).
    package static let buildTarget = 0.9

    /// What a build's pruning takes a cache of at most `maximumBytes` down to (``buildTarget``).
    package static func buildTargetBytes(of maximumBytes: Int64) -> Int64 {
        Int64(Double(maximumBytes) * buildTarget)
    }

    /// The entries of `inventory` to remove, in order, for it to hold at most `targetBytes` (by default
    /// `maximumBytes`), leaving every entry one of whose files (or whose key) is in `used`. When what is left
    /// cannot be brought under `targetBytes`, only what takes it within `maximumBytes` is removed.
    package static func plan(
        _ inventory: CacheInventory, maximumBytes: Int64, targetBytes: Int64? = nil, used: Set<String>
    ) -> (removals: [CacheInventory.Entry], outcome: Outcome) {
        var outcome = Outcome()
        outcome.maximumBytes = maximumBytes
        outcome.bytesBefore = inventory.totalBytes
        var candidates: [CacheInventory.Entry] = []
        for entry in inventory.entries {
            if used.contains(entry.key) || entry.files.contains(where: used.contains) {
                outcome.bytesProtected += entry.bytes
            } else {
                candidates.append(entry)
            }
        }
        candidates.sort {
            if $0.goesFirst != $1.goesFirst { return $0.goesFirst }
            if $0.isInAUseRecord != $1.isInAUseRecord { return !$0.isInAUseRecord }
            if $0.lastUse != $1.lastUse { return $0.lastUse < $1.lastUse }
            return $0.key < $1.key
        }
        let target = min(targetBytes ?? maximumBytes, maximumBytes)
        let goal = outcome.bytesProtected <= target ? target : maximumBytes
        var size = outcome.bytesBefore
        var removals: [CacheInventory.Entry] = []
        for entry in candidates where size > goal {
            removals.append(entry)
            size -= entry.bytes
            outcome.bytesRemoved += entry.bytes
        }
        outcome.entriesRemoved = removals.count
        outcome.bytesAfter = size
        return (removals, outcome)
    }

    /// Removes entries of the cache, as ``plan(_:maximumBytes:targetBytes:used:)`` picks them, until it holds at
    /// most `targetBytes` (by default `maximumBytes`); `now` and `maximumAge` tell which answers are past their age
    /// limit. When what `used` keeps leaves the cache over its size, the ledger gets `usesDigest`, the digest of
    /// the use record that holds `used` (``CacheUseRecord/pathsDigest(of:)``).
    package func prune(
        maximumBytes: Int64, targetBytes: Int64? = nil, used: Set<String>, usesDigest: String? = nil, now: Date,
        maximumAge: TimeInterval
    ) -> Outcome {
        let inventory = CacheInventory.read(root: root, now: now, maximumAge: maximumAge)
        var (removals, outcome) = Self.plan(
            inventory, maximumBytes: maximumBytes, targetBytes: targetBytes, used: used)
        var allRemoved = true
        if !removals.isEmpty,
            let rootDescriptor = try? SystemCall.open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        {
            defer { SystemCall.close(rootDescriptor) }
            for entry in removals {
                var removed = true
                for file in entry.files where !Self.remove(file, under: rootDescriptor) { removed = false }
                // What stays is counted whole, so that the ledger's size is never below the cache's.
                if !removed {
                    outcome.bytesAfter += entry.bytes
                    allRemoved = false
                }
            }
        } else if !removals.isEmpty {
            outcome.bytesAfter = outcome.bytesBefore
            allRemoved = false
        }
        // Over the size by what the build used, with every other entry gone: a build of the same uses would walk
        // the cache again for nothing (``CacheSizeLedger``).
        let held = outcome.protectedOverBy != nil && allRemoved ? usesDigest : nil
        CacheSizeLedger.replace(
            root: root, measured: outcome.bytesAfter, at: now, heldFor: held,
            temporaryFolder: root.appendingPathComponent("tmp"))
        return outcome
    }

    /// Removes the regular file at `relativePath` (`kind/ab/name`) below the open cache folder, reaching it one
    /// folder at a time without following a link; anything else there stays. False when the file may be left (its
    /// folders could not be opened, or the removal failed).
    @discardableResult
    static func remove(_ relativePath: String, under root: Int32) -> Bool {
        let parts = relativePath.split(separator: "/").map(String.init)
        guard parts.count == 3, let kind = CacheInventory.openFolder(parts[0], in: root) else { return false }
        defer { SystemCall.close(kind) }
        guard let shard = CacheInventory.openFolder(parts[1], in: kind) else { return false }
        defer { SystemCall.close(shard) }
        var status = stat()
        guard (try? SystemCall.run({ fstatat(shard, parts[2], &status, AT_SYMLINK_NOFOLLOW) })) != nil,
            (status.st_mode & S_IFMT) == S_IFREG
        else { return true }
        do {
            try SystemCall.run { unlinkat(shard, parts[2], 0) }
            return true
        } catch {
            return error == .noSuchFileOrDirectory
        }
    }
}
