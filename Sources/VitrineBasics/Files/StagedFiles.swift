import Foundation
import Synchronization

/// Files written whole before they are wanted, with no name (``UnnamedFile``), on the file system of one folder, each
/// held open by its descriptor until ``RootedFiles/place(_:from:at:)`` gives it a name below that folder or the
/// stage is dropped. Until then nothing of them is in any folder: a run killed at any moment leaves no trace of them
/// (the kernel frees a file that never got a name), so they need no journal. A build stages each image it downloads
/// into its output folder while the downloads run, so that placing it there once the pages are planned is one link
/// rather than a copy.
///
/// Staging is best effort: a file that cannot be made or written (a full disk, no room for another descriptor)
/// is simply not staged, and whoever wanted it copies it as before, which reports any failure.
package final class StagedFiles: Sendable {
    private struct State {
        var folder: Int32 = -1
        var opened = false
        var files: [String: Int32] = [:]
        var room = 0
    }

    private let folderPath: String
    private let capacity: Int
    private let state = Mutex(State())

    /// Descriptors left to everything else the process opens (sockets, folders, the files it reads and writes).
    package static let descriptorsKeptFree = 1_024

    /// At most `capacity` files in the folder at `folderPath`. Nothing happens until the first ``stage(_:as:)``,
    /// which opens the folder (following a link there, as the user's own path) and raises the process's soft limit
    /// of open descriptors toward its hard limit to make room for them, as a process that never uses `select` may;
    /// fewer are staged where the hard limit has no room. A build that stages nothing changes no limit.
    package init(folder folderPath: String, capacity: Int) {
        self.folderPath = folderPath
        self.capacity = max(0, capacity)
    }

    deinit {
        state.withLock { state in
            for descriptor in state.files.values { SystemCall.close(descriptor) }
            if state.folder >= 0 { SystemCall.close(state.folder) }
        }
    }

    /// Stages `bytes` under `key` unless a file is staged under it already; returns whether it is staged. `key`
    /// must say what the bytes are (an image's SHA-256): whoever places the file trusts it as those bytes.
    @discardableResult
    package func stage(_ bytes: [UInt8], as key: String) -> Bool {
        let folder = state.withLock { state -> Int32? in
            if !state.opened {
                state.opened = true
                state.folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                if state.folder >= 0 { state.room = Self.makeRoom(for: capacity) }
            }
            guard state.folder >= 0, state.room > 0, state.files[key] == nil else { return nil }
            state.room -= 1
            return state.folder
        }
        guard let folder else { return false }
        guard let descriptor = UnnamedFile.make(in: folder) else {
            state.withLock { $0.room += 1 }
            return false
        }
        let written = (try? bytes.withUnsafeBytes { try SystemCall.writeAll(descriptor, $0) }) != nil
        let kept =
            written
            && state.withLock { state in
                guard state.files[key] == nil else { return false }
                state.files[key] = descriptor
                return true
            }
        if !kept {
            SystemCall.close(descriptor)
            state.withLock { $0.room += 1 }
        }
        return kept
    }

    /// The descriptor of the file staged under `key`, which the stage holds no more: the caller names it and closes
    /// it. The folder it was made in is `folderPath`'s.
    func take(_ key: String) -> Int32? {
        state.withLock { state in
            guard let descriptor = state.files.removeValue(forKey: key) else { return nil }
            state.room += 1
            return descriptor
        }
    }

    /// The descriptors of the files staged now.
    var heldDescriptors: [Int32] { state.withLock { Array($0.files.values) } }

    /// How many files are staged now.
    package var count: Int { state.withLock { $0.files.count } }

    /// Raises the soft limit of open descriptors so that `wanted` more fit beside ``descriptorsKeptFree``, up to the
    /// hard limit; returns how many fit.
    private static func makeRoom(for wanted: Int) -> Int {
        guard wanted > 0 else { return 0 }
        var limits = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 0 }
        let needed = rlim_t(wanted + descriptorsKeptFree)
        if limits.rlim_cur < needed && limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = min(needed, limits.rlim_max)
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        let usable = limits.rlim_cur == rlim_t.max ? needed : limits.rlim_cur
        return usable > rlim_t(descriptorsKeptFree) ? min(wanted, Int(usable) - descriptorsKeptFree) : 0
    }
}
