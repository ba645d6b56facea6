import Foundation
import SystemPackage
import VitrineBasics

/// The cache-wide lock that keeps pruning away from running builds: `flock` on the cache folder itself (no file is
/// left behind, and the kernel releases it when the process ends, however it ends). Every build holds it shared
/// from its start to its end; pruning takes it exclusively and without waiting, so it removes nothing while another
/// run may be using the cache, and is skipped instead.
package final class CacheLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        _ = try? SystemCall.run { flock(descriptor, LOCK_UN) }
        SystemCall.close(descriptor)
    }

    /// Opens the cache folder (with `creating`, creating it when it is missing) for locking; nil when it cannot be.
    private static func open(_ root: URL, creating: Bool) -> Int32? {
        let path = root.path
        if let descriptor = try? SystemCall.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) { return descriptor }
        guard creating else { return nil }
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return try? SystemCall.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    }

    /// Holds the lock of the cache at `root` shared, waiting while a pruning holds it; nil when the folder cannot
    /// be opened or locked (the build then goes on, and does not prune). Waiting ends with the task's cancellation.
    package static func shared(_ root: URL) async throws -> CacheLock? {
        guard let descriptor = open(root, creating: true) else { return nil }
        while true {
            do {
                try SystemCall.run { flock(descriptor, LOCK_SH | LOCK_NB) }
                return CacheLock(descriptor: descriptor)
            } catch  where error != .wouldBlock {
                SystemCall.close(descriptor)
                return nil
            } catch {}
            do {
                try await Task.sleep(for: .milliseconds(10))
            } catch {
                SystemCall.close(descriptor)
                throw error
            }
        }
    }

    /// Takes the lock of the cache at `root` exclusively if no other run holds it; nil when one does, or the folder
    /// is missing or cannot be locked.
    package static func exclusive(_ root: URL) -> CacheLock? {
        guard let descriptor = open(root, creating: false) else { return nil }
        guard (try? SystemCall.run({ flock(descriptor, LOCK_EX | LOCK_NB) })) != nil else {
            SystemCall.close(descriptor)
            return nil
        }
        return CacheLock(descriptor: descriptor)
    }

    /// Turns this shared lock into an exclusive one if no other run holds the lock; false when one does (this
    /// lock may then be held no longer: Linux drops a shared lock before it tries to take it exclusively).
    package func upgrade() -> Bool {
        (try? SystemCall.run({ flock(descriptor, LOCK_EX | LOCK_NB) })) != nil
    }
}
