import Foundation
import SystemPackage

/// What `stat(2)` says about a regular file that changes whenever its bytes are replaced or edited in place: size,
/// modification time to the nanosecond, and inode (every atomic write renames a new inode into place; an edit in
/// place moves the modification time). Equal stamps are how a rebuild tells, without reading a file, that it is the
/// one an earlier run wrote, read or verified. The status-change time is left out on purpose: a hard link to the
/// file (a backup, `cp -al`, a restore) moves it without changing a byte, and only a deliberate `touch` back to the
/// same nanosecond could hide an edit from the other three.
package struct FileStamp: Equatable, Sendable {
    package var size: Int64
    /// Nanoseconds since 1970.
    package var modified: Int64
    package var inode: UInt64

    package init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    init?(_ status: stat, type: mode_t = S_IFREG) {
        guard (status.st_mode & S_IFMT) == type else { return nil }
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        inode = UInt64(status.st_ino)
    }

    /// The stamp of the regular file at `path` (following links), or nil when there is none.
    package static func of(_ path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(status)
    }

    /// The stamp of the folder at `path` (following links), whose modification time changes whenever an entry is
    /// added to it, removed from it or renamed in it; nil when there is none. Its inode is left out (0): a copy made
    /// with the folders' times (`cp -a`, `rsync -a`) holds the same entries.
    package static func ofFolder(_ path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(status, type: S_IFDIR).map { FileStamp(size: $0.size, modified: $0.modified, inode: 0) }
    }

    /// The stamp of the regular file `name` in the open folder `folder`, or nil when there is none; a symbolic link
    /// is not followed, so it has none.
    static func of(_ name: UnsafePointer<CChar>, in folder: Int32) -> FileStamp? {
        var status = stat()
        guard (try? SystemCall.run({ fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) })) != nil else { return nil }
        return FileStamp(status)
    }

    /// The stamp of an open file.
    package static func of(descriptor: Int32) -> FileStamp? {
        var status = stat()
        guard (try? SystemCall.run({ fstat(descriptor, &status) })) != nil else { return nil }
        return FileStamp(status)
    }

    /// The stamp as the line formats of the cache's records write it: `SIZE MTIME INODE`.
    package var fields: String { "\(size) \(modified) \(inode)" }

    /// Appends the bytes of ``fields`` to `bytes`.
    package func appendFields(to bytes: inout [UInt8]) {
        ASCIIDecimal.append(size, to: &bytes)
        bytes.append(0x20)
        ASCIIDecimal.append(modified, to: &bytes)
        bytes.append(0x20)
        ASCIIDecimal.append(inode, to: &bytes)
    }

    /// Reads the three numbers ``fields`` writes; nil for anything else.
    package init?(fields parts: ArraySlice<ArraySlice<UInt8>>) {
        guard parts.count == 3, let size = ASCIIDecimal.int64(parts[parts.startIndex]),
            let modified = ASCIIDecimal.int64(parts[parts.startIndex + 1]),
            let inode = ASCIIDecimal.int64(parts[parts.startIndex + 2])
        else { return nil }
        self.init(size: size, modified: modified, inode: UInt64(inode))
    }
}
