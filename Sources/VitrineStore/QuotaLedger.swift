import Foundation
import SystemPackage
import VitrineBasics
import VitrineHTTP

/// The cache's count of the requests made against each ``RequestQuota``, shared by every run that uses the cache,
/// concurrent ones included: `quotas/<service>-<digest of the key>.times` holds the time of each request still
/// inside the window, one a line, in milliseconds since 1970. The folder is locked with `flock` while a count is
/// read and rewritten (a run that finds it locked waits by suspending, not by blocking its thread), and the file is
/// replaced by a rename, so a killed run leaves the old count or the new one.
/// A ledger that cannot be read or written counts nothing and allows the request: the API still has the last word.
public struct QuotaLedger: RequestQuotaLedger {
    package let cache: CacheStore

    /// The ledger kept in `cache`, shared with every run that uses the same cache.
    public init(cache: CacheStore) {
        self.cache = cache
    }

    var folder: URL { cache.root.appendingPathComponent("quotas") }

    /// The ledger file of the key `request` carries, or nil when it carries none.
    func file(for request: FetchRequest, quota: RequestQuota) -> URL? {
        guard let digest = CacheStore.keyDigest(of: request) else { return nil }
        let service = String(quota.service.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic })
        return folder.appendingPathComponent("\(service)-\(digest.hexString.prefix(32)).times")
    }

    /// Counts the request in its key's ledger file when `quota` allows it (nil), else returns the wait until it does.
    public func take(_ request: FetchRequest, quota: RequestQuota, now: Date) async -> Duration? {
        guard let file = file(for: request, quota: quota) else { return nil }
        let openFolder = { () throws(Errno) in try SystemCall.open(self.folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        let lock: Int32
        do {
            lock = try openFolder()
        } catch .noSuchFileOrDirectory {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard let opened = try? openFolder() else { return nil }
            lock = opened
        } catch {
            return nil
        }
        defer { SystemCall.close(lock) }
        guard await Self.lock(lock) else { return nil }
        let nowMilliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let (seconds, attoseconds) = quota.window.components
        let windowMilliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        // A time ahead of the clock (which was set back since) counts as now: it still occupies the window.
        var times = Self.read(file)
            .map { min($0, nowMilliseconds) }
            .filter { $0 > nowMilliseconds - windowMilliseconds }
            .sorted()
        if times.count >= quota.limit {
            let frees = times[times.count - quota.limit] + windowMilliseconds
            return .milliseconds(max(1, frees - nowMilliseconds))
        }
        times.append(nowMilliseconds)
        let text = times.map(String.init).joined(separator: "\n") + "\n"
        try? AtomicFile.write(Array(text.utf8), to: file, temporaryFolder: cache.temporaryFolder)
        return nil
    }

    /// Locks the folder open as `descriptor`, waiting while another run holds it; false when it cannot be locked
    /// or the task is cancelled while it waits.
    private static func lock(_ descriptor: Int32) async -> Bool {
        while true {
            do {
                try SystemCall.run { flock(descriptor, LOCK_EX | LOCK_NB) }
                return true
            } catch  where error != .wouldBlock {
                return false
            } catch {}
            do { try await Task.sleep(for: .milliseconds(1)) } catch { return false }
        }
    }

    /// The times a ledger file holds; lines that are not a time are left out, and a missing file holds none.
    static func read(_ file: URL) -> [Int64] {
        guard let descriptor = try? SystemCall.open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) else { return [] }
        defer { SystemCall.close(descriptor) }
        // 3,600 times of 14 digits are 54 KB; anything past 1 MiB is no ledger of Vitrine's.
        guard let bytes = FileBytes.read(descriptor, limit: 1 << 20) else { return [] }
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { Int64(String(decoding: $0, as: UTF8.self)) }
    }
}
