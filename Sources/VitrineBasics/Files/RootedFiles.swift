import Foundation
import SystemPackage

/// Many files under one root folder, each reached from the root's open descriptor one folder at a time without ever
/// following a symbolic link (`openat` with `O_NOFOLLOW`), so that nothing it reads, writes or removes can be outside
/// the root, whatever links someone put inside it. Folders are opened once and kept open: checking or reading
/// thousands of files, the path walk was the larger part of the cost. The root itself may be a link (the user named
/// it) unless told otherwise; nothing below it is followed.
package final class RootedFiles {
    /// What is at a path below the root.
    package enum Entry: Equatable {
        case missing
        case file(FileStamp)
        /// A symbolic link, a folder or a special file: never Vitrine's to replace without being told.
        case other
        /// A folder on the way is a symbolic link or not a folder, named by its path below the root.
        case blocked(String)
    }

    package let root: String
    private var rootDescriptor: Int32 = -1
    private var folders: [String: Int32] = [:]
    private var lastFolder: (path: String, descriptor: Int32)?

    /// Whether the root itself may be a symbolic link (the user named it): not for ``NewFiles``, which checked
    /// before that it is none and so refuses one put there since.
    private let followsRootLink: Bool

    /// `root` is a folder path; the paths asked for are relative to it.
    package init(root: String, followingRootLink: Bool = true) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        followsRootLink = followingRootLink
    }

    deinit {
        for descriptor in folders.values where descriptor >= 0 { SystemCall.close(descriptor) }
        if rootDescriptor >= 0 { SystemCall.close(rootDescriptor) }
    }

    /// The stamp of the regular file at `relativePath`, or nil when there is none (a link is none).
    package func stamp(_ relativePath: String) -> FileStamp? {
        if case .file(let stamp) = entry(relativePath) { return stamp }
        return nil
    }

    /// What is at `relativePath`, without following a link anywhere on the way.
    package func entry(_ relativePath: String) -> Entry {
        let (folderPath, name) = Self.split(relativePath)
        let descriptor: Int32
        switch openFolder(folderPath, create: false) {
        case .success(let open): descriptor = open
        case .failure(.missing): return .missing
        case .failure(.blocked(let path)): return .blocked(path)
        case .failure(.failed): return .missing
        }
        var status = stat()
        guard (try? SystemCall.run({ fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) })) != nil else {
            return .missing
        }
        return FileStamp(status).map(Entry.file) ?? .other
    }

    /// The bytes of the regular file at `relativePath` if it holds at most `limit` bytes, with its stamp as it was
    /// read; nil when it is missing, a link, unreadable or larger.
    package func contents(_ relativePath: String, limit: Int) -> [UInt8]? {
        stampedContents(relativePath, limit: limit)?.bytes
    }

    /// ``contents(_:limit:)`` with the stamp of the file that was read.
    package func stampedContents(_ relativePath: String, limit: Int) -> (bytes: [UInt8], stamp: FileStamp)? {
        try? read(relativePath, limit: limit)
    }

    /// The bytes of the regular file at `relativePath` if it holds at most `limit`, with its stamp as it was read; a
    /// file changing as it is read is not read. A link, there or on the way, is not followed.
    package func read(_ relativePath: String, limit: Int) throws(FileReadError) -> (bytes: [UInt8], stamp: FileStamp) {
        let (folderPath, name) = Self.split(relativePath)
        let folder: Int32
        switch openFolder(folderPath, create: false) {
        case .success(let open): folder = open
        case .failure(.missing): throw .missing
        case .failure(.blocked(let path)): throw .blocked(path)
        case .failure(.failed(let code)): throw .system(code)
        }
        let descriptor: Int32
        do {
            descriptor = try SystemCall.run { openat(folder, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        } catch .noSuchFileOrDirectory {
            throw .missing
        } catch .tooManySymbolicLinkLevels {
            throw .notRegularFile
        } catch {
            throw .system(error)
        }
        defer { SystemCall.close(descriptor) }
        return try FileBytes.readWhole(descriptor, limit: limit)
    }

    /// Writes `bytes` at `relativePath` through a temporary file in the same folder renamed over it, so that a
    /// reader, or a run killed at any moment, sees the old bytes or the new ones; `durable` flushes the file and
    /// the folder to disk. Missing folders are created; a link on the way is refused, and a link at the path itself
    /// is replaced, never written through. Returns the new file's stamp.
    @discardableResult
    package func write(_ bytes: some ContiguousBytes, to relativePath: String, durable: Bool = false)
        throws(FileWriteError)
        -> FileStamp
    {
        try replace(relativePath, durable: durable) { descriptor throws(FileWriteError) in
            try Self.writeAll(descriptor, contentsOf: bytes, path: relativePath)
        }
    }

    /// Writes `bytes` as a new file at `relativePath`, as ``write(_:to:durable:)`` does, but only where nothing is
    /// yet: the finished file is linked to the name (`linkat`, which fails rather than replace whatever is there,
    /// even something put there a moment ago), then its temporary name, if it had one, is removed. A name that is taken
    /// fails the write and leaves what is there as it was. Returns the new file's stamp.
    @discardableResult
    package func create(_ bytes: some ContiguousBytes, at relativePath: String, durable: Bool = false)
        throws(FileWriteError) -> FileStamp
    {
        try replace(relativePath, durable: durable, keepingExisting: true) { descriptor throws(FileWriteError) in
            try Self.writeAll(descriptor, contentsOf: bytes, path: relativePath)
        }
    }

    /// Writes at `relativePath`, as ``write(_:to:durable:)`` does, the bytes `write` hands to the function it is
    /// given, in as many pieces as it likes: a large file never needs to be in memory whole.
    @discardableResult
    package func write(
        to relativePath: String, durable: Bool = false,
        _ write: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws(FileWriteError) -> FileStamp {
        try replace(relativePath, durable: durable) { descriptor throws(FileWriteError) in
            do {
                try write { buffer in try Self.writeAll(descriptor, buffer, path: relativePath) }
            } catch let failure as FileWriteError {
                throw failure
            } catch {
                throw FileWriteError(path: relativePath, reason: "\(error)")
            }
        }
    }

    /// Writes a copy of the open file `source` at `relativePath` as ``write(_:to:durable:)`` does, checking on the
    /// way that its bytes have the SHA-256 `sha256`; a copy that does not is not put in place. When the source still
    /// has `verified`, the stamp it had when its bytes were last hashed, the kernel copies it without the bytes
    /// passing through this process. Returns the new file's stamp.
    @discardableResult
    package func copy(from source: Int32, sha256 expected: String, verified: FileStamp? = nil, to relativePath: String)
        throws(FileCopyError) -> FileStamp
    {
        var damaged = false
        let trusted = verified != nil && FileStamp.of(descriptor: source) == verified
        do throws(FileWriteError) {
            return try replace(relativePath, durable: false) { descriptor throws(FileWriteError) in
                if trusted, Self.copyInKernel(from: source, to: descriptor) { return }
                var hash = SHA256Hasher()
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                var offset: off_t = 0
                while true {
                    let count: Int
                    do {
                        count = try buffer.withUnsafeMutableBytes { buffer throws(Errno) in
                            try SystemCall.run { pread(source, buffer.baseAddress!, buffer.count, offset) }
                        }
                    } catch {
                        throw FileWriteError(path: relativePath, reason: "\(error)")
                    }
                    if count == 0 { break }
                    hash.update(buffer[..<count])
                    var failure: FileWriteError?
                    buffer[..<count].withUnsafeBytes { bytes in
                        do throws(FileWriteError) {
                            try Self.writeAll(descriptor, bytes, path: relativePath)
                        } catch {
                            failure = error
                        }
                    }
                    if let failure { throw failure }
                    offset += off_t(count)
                }
                guard hash.finalize().hexString == expected else {
                    damaged = true
                    throw FileWriteError(path: relativePath, reason: "the source changed")
                }
            }
        } catch {
            throw damaged ? .sourceDamaged : .write(error)
        }
    }

    /// Removes the regular file at `relativePath`; a link, a folder or anything reached through a link stays.
    /// Returns whether it removed one.
    @discardableResult
    package func remove(_ relativePath: String) -> Bool {
        let (folderPath, name) = Self.split(relativePath)
        guard case .success(let folder) = openFolder(folderPath, create: false) else { return false }
        var status = stat()
        guard (try? SystemCall.run({ fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) })) != nil,
            (status.st_mode & S_IFMT) == S_IFREG
        else { return false }
        return (try? SystemCall.run { unlinkat(folder, name, 0) }) != nil
    }

    /// Removes the folder at `relativePath` if it is empty (and a real folder, not a link).
    package func removeFolderIfEmpty(_ relativePath: String) {
        let (parentPath, name) = Self.split(relativePath)
        guard case .success(let parent) = openFolder(parentPath, create: false) else { return }
        if (try? SystemCall.run({ unlinkat(parent, name, AT_REMOVEDIR) })) != nil,
            let open = folders.removeValue(forKey: relativePath)
        {
            SystemCall.close(open)
            if lastFolder?.path == relativePath { lastFolder = nil }
        }
    }

    /// Flushes the root folder's entries to disk, so that renames and removals in it survive a power cut.
    package func syncRoot() {
        guard case .success(let descriptor) = openFolder("", create: false) else { return }
        _ = try? SystemCall.run { fsync(descriptor) }
    }

    // MARK: Internals

    /// Puts a file filled by `fill` at `relativePath`: a file with no name until it is whole (``UnnamedFile``), or,
    /// where none can be made, a temporary file; renamed over whatever is there, or with `keepingExisting` linked
    /// to the name only if it is free.
    private func replace(
        _ relativePath: String, durable: Bool, keepingExisting: Bool = false,
        fill: (Int32) throws(FileWriteError) -> Void
    ) throws(FileWriteError) -> FileStamp {
        let (folder, name) = try folderToWrite(relativePath)
        if let stamp = try UnnamedFile.write(
            in: folder, name: name, durable: durable, keepingExisting: keepingExisting,
            path: "\(root)/\(relativePath)", fill: fill)
        {
            return stamp
        }
        let temporary = TemporaryFileSweeper.temporaryName(for: name)
        let descriptor: Int32
        do {
            descriptor = try SystemCall.run {
                openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            }
        } catch {
            throw FileWriteError(path: "\(root)/\(relativePath)", reason: error.description)
        }
        var closed = false
        defer { if !closed { SystemCall.close(descriptor) } }
        do throws(FileWriteError) {
            try fill(descriptor)
            do {
                if durable { try SystemCall.run { fsync(descriptor) } }
                if keepingExisting {
                    try SystemCall.run { linkat(folder, temporary, folder, name, 0) }
                    _ = try? SystemCall.run { unlinkat(folder, temporary, 0) }
                } else {
                    try SystemCall.run { renameat(folder, temporary, folder, name) }
                }
            } catch {
                throw FileWriteError(path: "\(root)/\(relativePath)", reason: error.description)
            }
        } catch {
            _ = try? SystemCall.run { unlinkat(folder, temporary, 0) }
            throw error
        }
        if durable { _ = try? SystemCall.run { fsync(folder) } }
        var status = stat()
        let stamped = Result { () throws(Errno) in try SystemCall.run { fstat(descriptor, &status) } }
        closed = true
        SystemCall.close(descriptor)
        switch stamped {
        case .failure(let code): throw FileWriteError(path: "\(root)/\(relativePath)", reason: code.description)
        case .success:
            guard let stamp = FileStamp(status) else {
                throw FileWriteError(path: "\(root)/\(relativePath)", reason: "it is no longer a regular file")
            }
            return stamp
        }
    }

    /// Copies the whole of `source` into the empty file `destination` inside the kernel (`sendfile`, which Linux
    /// allows between files); false when it cannot (the caller then copies through memory, from the start).
    private static func copyInKernel(from source: Int32, to destination: Int32) -> Bool {
        var offset: off_t = 0
        while true {
            do {
                if try SystemCall.run({ sendfile(destination, source, &offset, 1 << 30) }) == 0 { return true }
            } catch {
                _ = ftruncate(destination, 0)
                _ = lseek(destination, 0, SEEK_SET)
                return false
            }
        }
    }

    private static func writeAll(_ descriptor: Int32, contentsOf bytes: some ContiguousBytes, path: String)
        throws(FileWriteError)
    {
        var failure: FileWriteError?
        bytes.withUnsafeBytes { buffer in
            do throws(FileWriteError) {
                try writeAll(descriptor, buffer, path: path)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    private static func writeAll(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer, path: String)
        throws(FileWriteError)
    {
        do {
            try SystemCall.writeAll(descriptor, buffer)
        } catch {
            throw FileWriteError(path: path, reason: error.description)
        }
    }

    enum FolderFailure: Error {
        case missing
        case blocked(String)
        case failed(Errno)
    }

    /// The open folder at `path` below the root ("" for the root), opened one component at a time without
    /// following links, and created when `create` and missing.
    func openFolder(_ path: String, create: Bool) -> Result<Int32, FolderFailure> {
        if let lastFolder, path.utf8.elementsEqual(lastFolder.path.utf8) { return .success(lastFolder.descriptor) }
        if let open = folders[path] {
            lastFolder = (path, open)
            return .success(open)
        }
        let parent: Int32
        let name: String
        if path.isEmpty {
            if rootDescriptor < 0 {
                do {
                    do {
                        rootDescriptor = try Self.openRoot(root, following: followsRootLink)
                    } catch .noSuchFileOrDirectory where create {
                        try Self.createFolders(root)
                        rootDescriptor = try Self.openRoot(root, following: followsRootLink)
                    }
                } catch .noSuchFileOrDirectory {
                    return .failure(.missing)
                } catch {
                    return .failure(.failed(error))
                }
            }
            lastFolder = ("", rootDescriptor)
            return .success(rootDescriptor)
        } else {
            let (parentPath, last) = Self.split(path)
            switch openFolder(parentPath, create: create) {
            case .success(let open): parent = open
            case .failure(let failure): return .failure(failure)
            }
            name = last
        }
        let openChild = { () throws(Errno) -> Int32 in
            try SystemCall.run { openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        }
        let descriptor: Int32
        do {
            do {
                descriptor = try openChild()
            } catch .noSuchFileOrDirectory where create {
                do {
                    try SystemCall.run { mkdirat(parent, name, 0o755) }
                } catch .fileExists {}
                descriptor = try openChild()
            }
        } catch .noSuchFileOrDirectory {
            return .failure(.missing)
        } catch .tooManySymbolicLinkLevels, .notDirectory {
            return .failure(.blocked(path))
        } catch {
            return .failure(.failed(error))
        }
        folders[path] = descriptor
        lastFolder = (path, descriptor)
        return .success(descriptor)
    }

    /// Creates the folder at `path` and those missing above it (`mkdir -p`).
    private static func createFolders(_ path: String) throws(Errno) {
        do {
            try SystemCall.run { mkdir(path, 0o755) }
        } catch .fileExists {
        } catch .noSuchFileOrDirectory {
            let parent = (path as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != path else { throw .noSuchFileOrDirectory }
            try createFolders(parent)
            do {
                try SystemCall.run { mkdir(path, 0o755) }
            } catch .fileExists {}
        }
    }

    /// Opens the root folder, following a link there when `following`: the user named it.
    private static func openRoot(_ root: String, following: Bool) throws(Errno) -> Int32 {
        try SystemCall.run { open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (following ? 0 : O_NOFOLLOW)) }
    }

    /// The folder part ("" at the root) and the name of a relative path.
    static func split(_ relativePath: String) -> (folder: String, name: String) {
        let utf8 = relativePath.utf8, slashByte = UInt8(ascii: "/")
        // Its bytes searched where it has them in one piece: the view's own search, an index at a time, was a
        // twentieth of a no-change rebuild's processor time (BENCHMARKS.md, "Figures behind the code").
        let offset = utf8.withContiguousStorageIfAvailable { $0.lastIndex(of: slashByte) }
        let found = offset.map { $0.map { utf8.index(utf8.startIndex, offsetBy: $0) } } ?? utf8.lastIndex(of: slashByte)
        guard let slash = found else { return ("", relativePath) }
        return (String(relativePath[..<slash]), String(relativePath[utf8.index(after: slash)...]))
    }
}

@available(*, unavailable)
extension RootedFiles: Sendable {}

/// A copy into a ``RootedFiles`` folder failed: writing it, or because its source no longer has the bytes it was
/// known by.
package enum FileCopyError: Error {
    case write(FileWriteError)
    case sourceDamaged
}

extension FileWriteError {
    /// A write refused because a folder on the way is a symbolic link (or not a folder).
    package init(path: String, linkedFolder: String, under root: String) {
        self.init(
            path: "\(root)/\(path)",
            reason:
                "\(root)/\(linkedFolder) is a symbolic link or not a folder, and Vitrine never writes or deletes "
                + "through links; remove it, or choose another output folder",
            linkedFolder: linkedFolder)
    }
}
