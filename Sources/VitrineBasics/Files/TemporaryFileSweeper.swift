import Foundation

/// Temporary files of interrupted writes (`.NAME.vitrine-PID-RANDOM`) whose writer is gone.
package enum TemporaryFileSweeper {
    static func isOrphanedTemporaryFile(_ name: String) -> Bool {
        guard name.hasPrefix("."), let marker = name.range(of: ".vitrine-", options: .backwards) else { return false }
        let parts = name[marker.upperBound...].split(separator: "-")
        guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil else { return false }
        return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// The part of a temporary file's name after `.vitrine-`: this process's id and a random number.
    static func suffix() -> String { "\(getpid())-\(UInt32.random(in: 0...UInt32.max))" }

    /// A hidden name for a temporary file of `name` (a file name, no folder) that the sweeper knows.
    static func temporaryName(for name: String) -> String { ".\(name).vitrine-\(suffix())" }

    /// Removes orphaned temporary files anywhere below `root`; returns how many.
    @discardableResult
    package static func sweep(_ root: URL) -> Int {
        FolderWalk.hiddenFiles(under: root.path, where: isOrphanedTemporaryFile).filter {
            unlink(root.appendingPathComponent($0).path) == 0
        }.count
    }
}
