import Foundation
import SystemPackage
import VitrineBasics

/// An exclusive lock on an output folder for the length of a run, so that two runs never write into one folder at
/// once: `flock` on the folder itself, which leaves no file behind and which the kernel releases when the process
/// ends, however it ends (`kill -9` included). The folder is created if it is missing.
package final class OutputLock: Sendable {
    private let descriptor: Int32
    /// The folder's path when this run created it, to be removed again if the run leaves it empty.
    private let created: String?

    private init(descriptor: Int32, created: String?) {
        self.descriptor = descriptor
        self.created = created
    }

    deinit {
        // Still locked: a run that waits for this one finds the folder gone and makes its own.
        if let created { rmdir(created) }
        _ = try? SystemCall.run { flock(descriptor, LOCK_UN) }
        SystemCall.close(descriptor)
    }

    /// Takes the lock on `folder`. When another run holds it, waits for it (calling `whileWaiting` once, when a
    /// first check has failed), or with `wait` false throws ``OutputBusyError`` at once. Waiting ends with the task's
    /// cancellation (Ctrl-C, SIGTERM, a deadline).
    package static func acquire(
        _ folder: URL, wait: Bool, whileWaiting: @Sendable (String) -> Void = { _ in }
    ) async throws -> OutputLock {
        let path = folder.standardizedFileURL.path
        var announced = false
        while true {
            var created: String?
            let descriptor: Int32
            do {
                descriptor = try SystemCall.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            } catch .noSuchFileOrDirectory {
                do {
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                } catch {
                    throw FileWriteError(path: path, reason: (error as NSError).localizedDescription)
                }
                created = path
                do {
                    descriptor = try SystemCall.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                } catch {
                    throw FileWriteError(path: path, reason: error.description)
                }
            } catch {
                throw FileWriteError(path: path, reason: error.description)
            }
            var handedOver = false
            defer { if !handedOver { SystemCall.close(descriptor) } }
            while true {
                do {
                    try SystemCall.run { flock(descriptor, LOCK_EX | LOCK_NB) }
                    break
                } catch  where error != .wouldBlock {
                    throw FileWriteError(path: path, reason: "it cannot be locked (\(error))")
                } catch {}
                guard wait else { throw OutputBusyError(folder: path) }
                if !announced {
                    whileWaiting(path)
                    announced = true
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            // The run it waited for may have removed the folder it left empty: lock the one at the path now.
            var locked = stat()
            var current = stat()
            guard fstat(descriptor, &locked) == 0, stat(path, &current) == 0, locked.st_ino == current.st_ino,
                locked.st_dev == current.st_dev
            else { continue }
            handedOver = true
            return OutputLock(descriptor: descriptor, created: created)
        }
    }
}

/// Another run holds the output folder's lock and the run was told not to wait for it.
public struct OutputBusyError: UserFacingError {
    /// The output folder another run is writing into.
    public let folder: String

    package init(folder: String) {
        self.folder = folder
    }

    /// Names the folder and says to run again when the other run has finished.
    public var sentence: String {
        "Another Vitrine run is writing into \(folder), and this run was told not to wait; run again when it has finished."
    }

    /// Always `.temporary`: the same run later succeeds.
    public var kind: FailureKind { .temporary }
}
