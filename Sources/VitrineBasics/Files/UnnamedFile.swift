internal import CLinux
import Foundation
import SystemPackage

/// A new file written with no name until it is whole (`O_TMPFILE`), then given its name in its folder (`linkat`):
/// one entry added to the folder instead of a temporary name created and then renamed or removed, and nothing left
/// behind by a run killed half-way (the kernel frees a file that never got a name). Where the kernel or the file
/// system cannot make such a file, or `/proc` (through which it is linked) is not there, ``write(in:name:durable:
/// keepingExisting:path:fill:)`` says so and the caller writes through a named temporary file instead.
enum UnnamedFile {
    /// Whether this process can link an unnamed file by its descriptor: through `/proc/self/fd` (linking it by
    /// `AT_EMPTY_PATH` needs a capability a user's process lacks).
    static let canLink = access("/proc/self/fd", F_OK) == 0 && vitrine_open_tmpfile_flag() >= 0

    /// Writes a file filled by `fill` at `name` in the open folder `folder` (or, with `AT_FDCWD`, at the path
    /// `name`, in the folder `folderPath`), durably when `durable`: linked to the name when it is free; when
    /// something is there, linked to a temporary name beside it and renamed over it, or, with `keepingExisting`,
    /// refused. Returns the file's stamp, or nil when no unnamed file can be made there (nothing was written then).
    /// `path` names the file in errors. `temporaryFolder` (a path, with `AT_FDCWD`) is where the temporary name
    /// goes instead, a folder on the same file system that the writer's sweeper of interrupted writes looks in.
    static func write(
        in folder: Int32, folderPath: String = ".", name: String, durable: Bool, keepingExisting: Bool,
        path: String, temporaryFolder: String? = nil, fill: (Int32) throws(FileWriteError) -> Void
    ) throws(FileWriteError) -> FileStamp? {
        guard let descriptor = make(in: folder, folderPath: folderPath) else { return nil }
        defer { SystemCall.close(descriptor) }
        try fill(descriptor)
        return try Self.name(
            descriptor, in: folder, name: name, durable: durable, keepingExisting: keepingExisting, path: path,
            temporaryFolder: temporaryFolder)
    }

    /// A new file with no name, open for writing, on the file system of the folder `folderPath` below `folder`; nil
    /// when none can be made there (a file system without unnamed files, a full disk, no permission: the caller's
    /// named way reports it as every other write does).
    static func make(in folder: Int32, folderPath: String = ".") -> Int32? {
        guard canLink else { return nil }
        let descriptor = openat(folder, folderPath, vitrine_open_tmpfile_flag() | O_WRONLY | O_CLOEXEC, 0o644)
        return descriptor >= 0 ? descriptor : nil
    }

    /// Gives the whole unnamed file open as `descriptor` the name `name` in `folder`, as ``write(in:folderPath:name:
    /// durable:keepingExisting:path:temporaryFolder:fill:)`` does once it is filled; returns its stamp.
    static func name(
        _ descriptor: Int32, in folder: Int32, name: String, durable: Bool, keepingExisting: Bool, path: String,
        temporaryFolder: String? = nil
    ) throws(FileWriteError) -> FileStamp {
        do throws(Errno) {
            if durable { try SystemCall.run { fsync(descriptor) } }
            do {
                try link(descriptor, in: folder, as: name)
            } catch .fileExists where !keepingExisting {
                let temporary = temporaryName(beside: temporaryFolder.map { "\($0)/\(lastPart(of: name))" } ?? name)
                do {
                    try link(descriptor, in: folder, as: temporary)
                } catch .noSuchFileOrDirectory where temporaryFolder != nil {
                    // The temporary folder is made when first needed, as the named temporary file's way does.
                    try? FileManager.default.createDirectory(
                        atPath: temporaryFolder!, withIntermediateDirectories: true)
                    try link(descriptor, in: folder, as: temporary)
                }
                do {
                    try SystemCall.run { renameat(folder, temporary, folder, name) }
                } catch {
                    _ = try? SystemCall.run { unlinkat(folder, temporary, 0) }
                    throw error
                }
            }
            if durable { _ = try? SystemCall.run { fsync(folder) } }
        } catch {
            throw FileWriteError(path: path, reason: error.description)
        }
        var status = stat()
        do throws(Errno) {
            try SystemCall.run { fstat(descriptor, &status) }
        } catch {
            throw FileWriteError(path: path, reason: error.description)
        }
        guard let stamp = FileStamp(status) else {
            throw FileWriteError(path: path, reason: "it is no longer a regular file")
        }
        return stamp
    }

    /// A hidden name beside `name` (a name or a path) that the sweeper of temporary files knows.
    private static func temporaryName(beside name: String) -> String {
        let folder = name.lastIndex(of: "/").map { String(name[...$0]) } ?? ""
        return folder + TemporaryFileSweeper.temporaryName(for: lastPart(of: name))
    }

    private static func lastPart(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// Gives the unnamed file open as `descriptor` the name `name` in `folder`; fails (`EEXIST`) when the name is
    /// taken, by anything, a symbolic link included, which is never followed.
    private static func link(_ descriptor: Int32, in folder: Int32, as name: String) throws(Errno) {
        _ = try SystemCall.run { linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", folder, name, AT_SYMLINK_FOLLOW) }
    }
}
