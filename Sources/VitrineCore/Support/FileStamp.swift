import Foundation

/// What `stat(2)` says about a regular file that changes whenever its bytes are replaced: size, modification time
/// to the nanosecond, and inode (every atomic write renames a new inode into place). Equal stamps are how a rebuild
/// tells, without reading a file, that it is the one an earlier run wrote or read.
struct FileStamp: Equatable, Sendable {
    var size: Int64
    /// Nanoseconds since 1970.
    var modified: Int64
    var inode: UInt64

    init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    private init?(_ status: stat, type: mode_t = S_IFREG) {
        guard (status.st_mode & S_IFMT) == type else { return nil }
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        inode = UInt64(status.st_ino)
    }

    /// The stamp of the regular file at `path` (following links), or nil when there is none.
    static func of(_ path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(status)
    }

    /// The stamp of the folder at `path` (following links), whose modification time changes whenever an entry is
    /// added to it, removed from it or renamed in it; nil when there is none. Its inode is left out (0): a copy made
    /// with the folders' times (`cp -a`, `rsync -a`) holds the same entries.
    static func ofFolder(_ path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileStamp(status, type: S_IFDIR).map { FileStamp(size: $0.size, modified: $0.modified, inode: 0) }
    }

    /// The stamp of the regular file `name` in the open folder `folder` (following links), or nil when there is none.
    static func of(_ name: [CChar], in folder: Int32) -> FileStamp? {
        var status = stat()
        guard fstatat(folder, name, &status, 0) == 0 else { return nil }
        return FileStamp(status)
    }

    /// The stamp of an open file.
    static func of(descriptor: Int32) -> FileStamp? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return FileStamp(status)
    }
}

/// Many files under one root, each looked up from its open parent folder rather than from `/`: checking or
/// reading thousands of files, the path walk was the larger part of the cost. Paths asked for in order (as sorted
/// lists are) reuse the folder of the one before.
final class RootedFiles {
    private let root: String
    private var folders: [String: Int32] = [:]
    private var lastFolder: (path: String, descriptor: Int32)?

    /// `root` is a folder path; the paths asked for are relative to it.
    init(root: String) {
        self.root = root.hasSuffix("/") ? root : root + "/"
    }

    deinit {
        for descriptor in folders.values where descriptor >= 0 { close(descriptor) }
    }

    /// The stamp of the regular file at `relativePath` under the root, or nil when there is none.
    func stamp(_ relativePath: String) -> FileStamp? {
        withFolder(of: relativePath) { folder, name in FileStamp.of(name, in: folder) }
    }

    /// The bytes of the file at `relativePath` if it holds at most `limit` bytes; nil when it is missing,
    /// unreadable or larger.
    func contents(_ relativePath: String, limit: Int) -> [UInt8]? {
        withFolder(of: relativePath) { folder, name in
            let descriptor = openat(folder, name, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            return FileBytes.read(descriptor, limit: limit)
        }
    }

    /// Calls `body` with the open parent folder of `relativePath` and the file's name as a C string.
    private func withFolder<Result>(of relativePath: String, _ body: (Int32, [CChar]) -> Result?) -> Result? {
        var relativePath = relativePath
        return relativePath.withUTF8 { bytes in
            let slash = bytes.lastIndex(of: UInt8(ascii: "/"))
            let descriptor = folder(slash.map { String(decoding: bytes[..<$0], as: UTF8.self) } ?? "")
            guard descriptor >= 0 else { return nil }
            let nameStart = slash.map { $0 + 1 } ?? 0
            var name = [CChar](repeating: 0, count: bytes.count - nameStart + 1)
            for index in nameStart..<bytes.count { name[index - nameStart] = CChar(bitPattern: bytes[index]) }
            return body(descriptor, name)
        }
    }

    private func folder(_ path: String) -> Int32 {
        if let lastFolder, path.utf8.elementsEqual(lastFolder.path.utf8) { return lastFolder.descriptor }
        let descriptor: Int32
        if let open = folders[path] {
            descriptor = open
        } else {
            descriptor = open(root + path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            folders[path] = descriptor
        }
        lastFolder = (path, descriptor)
        return descriptor
    }
}

@available(*, unavailable)
extension RootedFiles: Sendable {}

/// Reads small files whole without Foundation.
enum FileBytes {
    /// At most `limit` bytes from an open file; nil when it is unreadable or holds more.
    static func read(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        while count <= limit {
            let read = bytes.withUnsafeMutableBytes {
                Foundation.read(descriptor, $0.baseAddress! + count, $0.count - count)
            }
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else { return nil }
            if read == 0 { break }
            count += read
        }
        guard count <= limit else { return nil }
        bytes.removeSubrange(count...)
        return bytes
    }
}
