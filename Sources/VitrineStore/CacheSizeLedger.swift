import Foundation
import Synchronization
import SystemPackage
import VitrineBasics

/// A running upper bound of the cache's size, so that a build that stored a little need not walk the whole cache
/// to know it is still within its size (as ccache keeps its size in counters rather than counting its files).
///
/// The file `size-ledger` at the cache's root holds, in lines of text, the size the last pruning measured and when
/// (`walked BYTES SECONDS`), then one `+BYTES` line for each thing stored since, appended before it is stored (so
/// that a run killed between the two leaves the bound too high, never too low). Lines are appended with `O_APPEND`,
/// one `write` each, so that runs sharing the cache never interleave them. A pruning replaces the file whole.
///
/// A pruning that could not bring the cache within its size, because what its build used is over it, adds the
/// digest of that build's use record's paths to its line (`walked BYTES SECONDS DIGEST`): it removed all it could,
/// so until more is stored than a pruning leaves room for, walking the cache again for a build that used the very
/// same paths would find nothing to remove (``showsNothingToRemove(_:forUses:maximumBytes:now:)``).
///
/// The bound can still fall short of the truth: a file stored by a run that does not hold the cache's lock while a
/// pruning replaces the ledger, records of an output folder grown by a run killed before it added them, or a
/// failed append in another process. So a ledger older than ``trustedFor`` by the build's clock, one that is
/// damaged, missing or has more than ``mostAdditions`` lines is not trusted, and the cache is walked again.
package final class CacheSizeLedger: Sendable {
    /// The ledger's file name, at the cache's root (outside the folders whose files are the cache's entries).
    package static let fileName = "size-ledger"
    /// How long a measured size is trusted, by the clock of the build that reads it.
    package static let trustedFor: TimeInterval = 7 * 24 * 3600
    /// The most additions trusted before the cache is walked again (about 1 MB of ledger).
    package static let mostAdditions = 50_000

    /// What the ledger says.
    package struct Estimate: Equatable, Sendable {
        /// The size measured by the last pruning plus everything added since: at least the cache's size.
        package var bytes: Int64
        /// When the last pruning measured it.
        package var walkedAt: Date
        package var additions: Int
        /// The bytes added since the last pruning.
        package var added: Int64 = 0
        /// The digest of the paths of the use record whose build's pruning left the cache over its size, all it
        /// held being what that build used (``CacheUseRecord/pathsDigest(of:)``); nil after any other pruning.
        package var heldFor: String? = nil
    }

    private let root: String
    /// The ledger, opened for appending by the first addition and kept open until the store is released.
    private let descriptor = Mutex<Int32?>(nil)
    /// An addition was lost: this run's stores are not all in the ledger.
    private let lost = Atomic<Bool>(false)

    package init(root: URL) {
        self.root = root.path
    }

    deinit {
        if let descriptor = descriptor.withLock({ $0 }) { SystemCall.close(descriptor) }
    }

    /// Some addition of this run could not be written: the ledger is short of what the run stored.
    package var lostAnAddition: Bool { lost.load(ordering: .relaxed) }

    /// Adds `bytes` about to be stored in the cache (or just stored, for records written elsewhere).
    package func add(_ bytes: Int64) {
        guard bytes > 0 else { return }
        let line = Array("+\(bytes)\n".utf8)
        let written = descriptor.withLock { descriptor -> Bool in
            if descriptor == nil { descriptor = openForAppending() }
            guard let open = descriptor else { return false }
            return (try? line.withUnsafeBytes { try SystemCall.writeAll(open, $0) }) != nil
        }
        if !written { lost.store(true, ordering: .relaxed) }
    }

    /// Opens the ledger for appending, creating it, without following a link; nil unless it is a regular file.
    private func openForAppending() -> Int32? {
        let path = "\(root)/\(Self.fileName)"
        let flags = O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        var opened = try? SystemCall.open(path, flags, mode: 0o644)
        if opened == nil {
            try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            opened = try? SystemCall.open(path, flags, mode: 0o644)
        }
        guard let opened else { return nil }
        var status = stat()
        guard fstat(opened, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            SystemCall.close(opened)
            return nil
        }
        return opened
    }

    /// Reads the ledger of the cache at `root`; nil when it is missing, damaged or not a regular file.
    package static func read(root: URL) -> Estimate? {
        guard let bytes = try? FileBytes.read(atPath: "\(root.path)/\(fileName)", limit: 4 << 20, followingLinks: false)
        else {
            return nil
        }
        return parse(bytes)
    }

    /// The estimate in a ledger's bytes; nil unless its first line is a measure and every other an addition.
    package static func parse(_ bytes: [UInt8]) -> Estimate? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count >= 2, lines.last?.isEmpty == true else { return nil }
        let first = lines[0].split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard first.count == 3 || (first.count == 4 && LowercaseHex.isSHA256(first[3])),
            first[0].elementsEqual("walked".utf8), let measured = ASCIIDecimal.int64(first[1]),
            let seconds = ASCIIDecimal.int64(first[2])
        else { return nil }
        var estimate = Estimate(
            bytes: measured, walkedAt: Date(timeIntervalSince1970: TimeInterval(seconds)), additions: 0,
            heldFor: first.count == 4 ? String(decoding: first[3], as: UTF8.self) : nil)
        for line in lines.dropFirst().dropLast() {
            guard line.first == UInt8(ascii: "+"), let added = ASCIIDecimal.int64(line.dropFirst()) else { return nil }
            let (sum, overflow) = estimate.bytes.addingReportingOverflow(added)
            guard !overflow else { return nil }
            estimate.bytes = sum
            estimate.added += added
            estimate.additions += 1
        }
        return estimate
    }

    /// Whether `estimate` tells, at `now` by the build's clock, that the cache holds at most `maximumBytes`.
    package static func shows(_ estimate: Estimate?, withinSize maximumBytes: Int64, now: Date) -> Bool {
        guard let estimate, isTrusted(estimate, now: now) else { return false }
        return estimate.bytes <= maximumBytes
    }

    /// Whether `estimate` may be trusted at `now` by the build's clock: measured less than ``trustedFor`` ago, not
    /// later, and with at most ``mostAdditions`` additions since.
    private static func isTrusted(_ estimate: Estimate, now: Date) -> Bool {
        let age = now.timeIntervalSince(estimate.walkedAt)
        return estimate.additions <= mostAdditions && age >= 0 && age < trustedFor
    }

    /// Whether `estimate` tells, at `now` by the build's clock, that a pruning would remove nothing for a build
    /// whose use record's paths have the digest `uses`: the last pruning left only what a build of those very
    /// paths used, over the size `maximumBytes`, and less has been stored since than the room a build's pruning
    /// leaves below the size (what was stored since is all a walk could remove).
    package static func showsNothingToRemove(
        _ estimate: Estimate?, forUses uses: String, maximumBytes: Int64, now: Date
    ) -> Bool {
        guard let estimate, isTrusted(estimate, now: now) else { return false }
        return estimate.heldFor == uses
            && estimate.added <= maximumBytes - CachePruner.buildTargetBytes(of: maximumBytes)
    }

    /// Replaces the ledger of the cache at `root` with the size a pruning measured `at`, whole, and the digest of
    /// the paths that pruning had to leave over the size (`heldFor`, when it did); the caller holds the cache's
    /// lock exclusively. A ledger that cannot be written is removed, so that none is trusted.
    package static func replace(
        root: URL, measured bytes: Int64, at date: Date, heldFor: String? = nil, temporaryFolder: URL
    ) {
        var text = "walked \(max(0, bytes)) \(Int64(date.timeIntervalSince1970.rounded(.down)))"
        if let heldFor, LowercaseHex.isSHA256(heldFor) { text += " " + heldFor }
        text += "\n"
        let path = "\(root.path)/\(fileName)"
        do {
            try AtomicFile.write(
                Array(text.utf8), to: URL(fileURLWithPath: path, isDirectory: false),
                temporaryFolder: temporaryFolder)
        } catch {
            try? SystemCall.removeFile(path)
        }
    }
}
